#include "typed/default.h"

namespace smdx {

namespace {

using internal::Narrowed;

// Defaulting is copy-on-write: a node is copied only when something in it
// changes, so an object that needs no defaults comes back sharing every node
// with the input. Later steps (merge, compare, the no-op check) then
// short-circuit on shared nodes instead of walking a fresh deep copy.
class Defaulter {
 public:
  // Defaults inside `v`, which has already had its own default. Returns
  // false when nothing changes; otherwise stores the defaulted node in
  // `*out`. `prev` is the same place in an already defaulted earlier
  // version, or null; a node it shares with `v` needs nothing.
  bool Walk(const Atom* atom, const Value& v, int depth, const Value* prev,
            Value* out) {
    if (atom == nullptr || depth > kMaxValueDepth) return false;
    if (prev != nullptr && SameNode(v, *prev)) return false;
    switch (internal::Narrow(atom, &v).kind) {
      case Narrowed::kMap:
        return v.IsMap() && MapNode(*atom->map, v, depth, prev, out);
      case Narrowed::kList:
        return v.IsList() && ListNode(*atom->list, v, depth, prev, out);
      default:
        return false;
    }
  }

 private:
  bool MapNode(const MapType& mt, const Value& v, int depth, const Value* prev,
               Value* out) {
    const Map* prev_map =
        prev != nullptr && prev->IsMap() ? &prev->map() : nullptr;
    Map* w = nullptr;  // the copy, made at the first change
    auto writable = [&]() -> Map& {
      if (w == nullptr) {
        *out = v;
        w = &out->map();  // unshares: a one-level copy
      }
      return *w;
    };
    // Absent declared fields with a default come first, top-down.
    for (const StructField* f : mt.defaulted_fields) {
      const std::optional<Value>& def =
          f->default_value ? f->default_value : f->type.default_value;
      if (v.map().Find(f->name) == nullptr) writable().Append(f->name, *def);
    }
    size_t hint = 0;
    for (size_t i = 0;;) {
      const Map& cur = w != nullptr ? *w : v.map();
      if (i >= cur.size()) break;
      const MapEntry& e = cur.entries()[i];
      // A scalar that is not null needs nothing (most entries).
      if (!e.value.IsNull() && !e.value.IsMap() && !e.value.IsList()) {
        ++i;
        continue;
      }
      const StructField* f = mt.FindFieldFrom(e.key, &hint);
      const TypeRef* ref =
          f != nullptr ? &f->type
                       : (mt.element_type ? &*mt.element_type : nullptr);
      if (ref == nullptr) {
        ++i;
        continue;
      }
      // The previous version mostly has the same keys in the same places.
      const Value* prev_child = nullptr;
      if (prev_map != nullptr) {
        prev_child = i < prev_map->size() && prev_map->entries()[i].key == e.key
                         ? &prev_map->entries()[i].value
                         : prev_map->Find(e.key);
      }
      if (e.value.IsNull()) {
        // Not nullable: its default, or removal when there is none.
        bool nullable =
            f != nullptr ? (f->nullable || ref->nullable) : ref->nullable;
        if (!nullable) {
          const std::optional<Value>& def = f != nullptr && f->default_value
                                                ? f->default_value
                                                : ref->default_value;
          auto& entries = writable().entries();
          if (!def) {
            entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(i));
            continue;
          }
          entries[i].value = *def;
        }
      }
      const Value& child = (w != nullptr ? *w : v.map()).entries()[i].value;
      Value changed;
      if (Walk(ref->resolved, child, depth + 1, prev_child, &changed))
        writable().entries()[i].value = std::move(changed);
      ++i;
    }
    return w != nullptr;
  }

  bool ListNode(const ListType& lt, const Value& v, int depth,
                const Value* prev, Value* out) {
    const List* prev_list =
        prev != nullptr && prev->IsList() ? &prev->list() : nullptr;
    const TypeRef& ref = lt.element_type;
    List* w = nullptr;
    auto writable = [&]() -> List& {
      if (w == nullptr) {
        *out = v;
        w = &out->list();
      }
      return *w;
    };
    const size_t n = v.list().size();
    for (size_t i = 0; i < n; ++i) {
      if (v.list()[i].IsNull() && ref.default_value && !ref.nullable)
        writable()[i] = *ref.default_value;
      // Items are matched by position: a shared item is skipped wherever
      // the lists line up, and walked otherwise.
      const Value* prev_item = prev_list != nullptr && i < prev_list->size()
                                   ? &(*prev_list)[i]
                                   : nullptr;
      const Value& item = w != nullptr ? (*w)[i] : v.list()[i];
      Value changed;
      if (Walk(ref.resolved, item, depth + 1, prev_item, &changed))
        writable()[i] = std::move(changed);
    }
    return w != nullptr;
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
  Value changed;
  if (Defaulter().Walk(type.root(), out, 0, nullptr, &changed)) return changed;
  return out;
}

Value ApplyDefaultsIncremental(const Type& type, const Value& v,
                               const Value& previous) {
  Value changed;
  if (Defaulter().Walk(type.root(), v, 0, &previous, &changed)) return changed;
  return v;
}

Value Prune(const Type& type, const Value& v) {
  Value out = v;
  Pruner().Walk(type.root(), out, 0);
  return out;
}

}  // namespace smdx
