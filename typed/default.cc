#include "typed/default.h"

namespace smdx {

namespace {

using internal::Narrowed;

class Defaulter {
 public:
  // Defaults inside `v` (in place); `v` has already had its own default.
  // `prev` is the same place in an already defaulted earlier version, or
  // null; a node it shares with `v` needs nothing.
  void Walk(const Atom* atom, Value& v, int depth,
            const Value* prev = nullptr) {
    if (atom == nullptr || depth > kMaxValueDepth) return;
    if (prev != nullptr && SameNode(v, *prev)) return;
    switch (internal::Narrow(atom, &v).kind) {
      case Narrowed::kMap:
        if (v.IsMap()) MapNode(*atom->map, v.map(), depth, prev);
        return;
      case Narrowed::kList:
        if (v.IsList()) ListNode(*atom->list, v.list(), depth, prev);
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

  void MapNode(const MapType& mt, Map& m, int depth, const Value* prev) {
    const Map* prev_map =
        prev != nullptr && prev->IsMap() ? &prev->map() : nullptr;
    // Absent declared fields with a default come first, top-down.
    for (const StructField* f : mt.defaulted_fields) {
      const std::optional<Value>& def =
          f->default_value ? f->default_value : f->type.default_value;
      if (m.Find(f->name) == nullptr) m.Append(f->name, *def);
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
      const Value* prev_child =
          prev_map != nullptr ? prev_map->Find(e.key) : nullptr;
      Walk(ref->resolved, e.value, depth + 1, prev_child);
      ++i;
    }
  }

  void ListNode(const ListType& lt, List& items, int depth, const Value* prev) {
    const List* prev_list =
        prev != nullptr && prev->IsList() ? &prev->list() : nullptr;
    const TypeRef& ref = lt.element_type;
    for (size_t i = 0; i < items.size(); ++i) {
      Value& item = items[i];
      if (item.IsNull() && ref.default_value && !ref.nullable)
        item = *ref.default_value;
      // Items are matched by position: a shared item is skipped wherever
      // the lists line up, and walked otherwise.
      const Value* prev_item = prev_list != nullptr && i < prev_list->size()
                                   ? &(*prev_list)[i]
                                   : nullptr;
      Walk(ref.resolved, item, depth + 1, prev_item);
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

Value ApplyDefaultsIncremental(const Type& type, const Value& v,
                               const Value& previous) {
  Value out = v;
  Defaulter().Walk(type.root(), out, 0, &previous);
  return out;
}

Value Prune(const Type& type, const Value& v) {
  Value out = v;
  Pruner().Walk(type.root(), out, 0);
  return out;
}

}  // namespace smdx
