#include "typed/default.h"

namespace smdx {

namespace {

using internal::Narrowed;

class Defaulter {
 public:
  // Defaults inside `v` (in place); `v` has already had its own default.
  void Walk(const Atom* atom, Value& v, int depth) {
    if (atom == nullptr || depth > kMaxValueDepth) return;
    switch (internal::Narrow(atom, &v).kind) {
      case Narrowed::kMap:
        if (v.IsMap()) MapNode(*atom->map, v.map(), depth);
        return;
      case Narrowed::kList:
        if (v.IsList()) ListNode(*atom->list, v.list(), depth);
        return;
      default:
        return;
    }
  }

 private:
  // A null entry: its default when not nullable, else removal (signalled
  // by returning false) unless nullable.
  static bool ResolveNull(Value& slot, const std::optional<Value>& def,
                          bool nullable) {
    if (nullable) return true;
    if (def) {
      slot = *def;
      return true;
    }
    return false;
  }

  void MapNode(const MapType& mt, Map& m, int depth) {
    // Absent declared fields with a default come first, top-down.
    for (const StructField& f : mt.fields) {
      const std::optional<Value>& def =
          f.default_value ? f.default_value : f.type.default_value;
      if (def && m.Find(f.name) == nullptr) m.Append(f.name, *def);
    }
    auto& entries = m.entries();
    for (size_t i = 0; i < entries.size();) {
      MapEntry& e = entries[i];
      const StructField* f = mt.FindField(e.key);
      const TypeRef* ref =
          f != nullptr ? &f->type
                       : (mt.element_type ? &*mt.element_type : nullptr);
      if (ref == nullptr) {
        ++i;
        continue;
      }
      if (e.value.IsNull()) {
        const std::optional<Value>& def = f != nullptr && f->default_value
                                              ? f->default_value
                                              : ref->default_value;
        bool nullable =
            f != nullptr ? (f->nullable || ref->nullable) : ref->nullable;
        if (!ResolveNull(e.value, def, nullable)) {
          entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(i));
          continue;
        }
      }
      Walk(ref->resolved, e.value, depth + 1);
      ++i;
    }
  }

  void ListNode(const ListType& lt, List& items, int depth) {
    const TypeRef& ref = lt.element_type;
    for (Value& item : items) {
      if (item.IsNull() && ref.default_value && !ref.nullable)
        item = *ref.default_value;
      Walk(ref.resolved, item, depth + 1);
    }
  }
};

class Pruner {
 public:
  void Walk(const Atom* atom, Value& v, int depth) {
    if (atom == nullptr || depth > kMaxValueDepth) return;
    switch (internal::Narrow(atom, &v).kind) {
      case Narrowed::kMap: {
        if (!v.IsMap()) return;
        const MapType& mt = *atom->map;
        auto& entries = v.map().entries();
        for (size_t i = 0; i < entries.size();) {
          const Atom* child = mt.EntryAtom(entries[i].key);
          if (child == nullptr) {
            entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(i));
            continue;
          }
          Walk(child, entries[i].value, depth + 1);
          ++i;
        }
        return;
      }
      case Narrowed::kList:
        if (!v.IsList()) return;
        for (Value& item : v.list())
          Walk(atom->list->element_type.resolved, item, depth + 1);
        return;
      default:
        return;
    }
  }
};

}  // namespace

Value ApplyDefaults(const Type& type, const Value& v, const RootNode& root) {
  Value out = v;
  if (out.IsNull() && root.default_value && !root.nullable)
    out = *root.default_value;
  Defaulter().Walk(type.root(), out, 0);
  return out;
}

Value Prune(const Type& type, const Value& v) {
  Value out = v;
  Pruner().Walk(type.root(), out, 0);
  return out;
}

}  // namespace smdx
