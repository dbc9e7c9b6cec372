#include "smdx/typed/default.h"

#include "smdx/typed/internal/typed.h"

namespace smdx {

namespace {

using internal::Narrowed;

// Defaulting is copy-on-write: a node is copied only when something in it
// changes and another value shares it, so an object that needs no defaults
// comes back sharing every node with the input, and the nodes a merge just
// built (which nothing else holds) change in place. Later steps (merge,
// compare, the no-op check) then short-circuit on shared nodes instead of
// walking a fresh deep copy.
// Untyped values (schema/builtin.h): the values of undeclared fields.
bool IsUntyped(const Atom* atom) {
  return atom != nullptr && atom->scalar == ScalarType::kUntyped;
}

// Whether `atom` is a schema's "anything" (an undeclared value, deduced),
// rather than a scalar of any type, as int-or-string is: a value with no
// schema of its own.
bool IsAnything(const Atom* atom) {
  return IsUntyped(atom) && (atom->map || atom->list);
}

class Defaulter {
 public:
  // Defaults inside `v`, which has already had its own default, in place.
  // Returns whether anything changed. `prev` is the same place in an
  // already defaulted earlier version, or null; a node it shares with `v`
  // needs nothing.
  bool Walk(const Atom* atom, Value& v, int depth, const Value* prev) {
    if (atom == nullptr || depth > kMaxValueDepth) return false;
    if (prev != nullptr && SameNode(v, *prev)) return false;
    switch (internal::Narrow(atom, &v).kind) {
      case Narrowed::kMap:
        return v.IsMap() && MapNode(*atom->map, v, depth, prev);
      case Narrowed::kList:
        return v.IsList() && ListNode(*atom->list, v, depth, prev);
      default:
        return false;
    }
  }

 private:
  // Walks the child at `slot` of `parent`: in place when `parent` owns its
  // node (the slot is then ours to change); otherwise a copy of the child's
  // handle, stored into `parent` (unsharing it) through `write` on a
  // change. Returns whether the child changed.
  template <typename Write>
  bool WalkChild(const Atom* atom, Value& parent, const Value& child,
                 Value* owned_slot, int depth, const Value* prev, Write write) {
    if (parent.OwnsNode()) return Walk(atom, *owned_slot, depth, prev);
    Value copy = child;
    if (!Walk(atom, copy, depth, prev)) return false;
    write(std::move(copy));
    return true;
  }

  bool MapNode(const MapType& mt, Value& v, int depth, const Value* prev) {
    const Map* prev_map =
        prev != nullptr && prev->IsMap() ? &prev->map() : nullptr;
    bool changed = false;
    // Writes go through here: v.map() unshares the node when another value
    // holds it (a one-level copy), and is free when `v` owns it.
    auto writable = [&]() -> Map& {
      changed = true;
      return v.map();
    };
    const Value& cv = v;  // reads do not unshare
    // Absent declared fields with a default come first, top-down.
    for (const StructField* f : mt.defaulted_fields) {
      const std::optional<Value>& def =
          f->default_value ? f->default_value : f->type.default_value;
      if (cv.map().Find(f->name) == nullptr) writable().Append(f->name, *def);
    }
    size_t hint = 0;
    for (size_t i = 0; i < cv.map().size();) {
      const MapEntry& e = cv.map().entries()[i];
      // A scalar that is not null needs nothing (most entries).
      if (!e.value.IsNull() && !e.value.IsMap() && !e.value.IsList()) {
        ++i;
        continue;
      }
      // The previous version mostly has the same keys in the same places.
      const Value* prev_child = nullptr;
      if (prev_map != nullptr) {
        prev_child = i < prev_map->size() && prev_map->entries()[i].key == e.key
                         ? &prev_map->entries()[i].value
                         : prev_map->Find(e.key);
        // A node shared with it needs nothing (nor a look-up of its type).
        if (prev_child != nullptr && SameNode(e.value, *prev_child)) {
          ++i;
          continue;
        }
      }
      const StructField* f = mt.FindFieldFrom(e.key, &hint);
      const TypeRef* ref =
          f != nullptr ? &f->type
                       : (mt.element_type ? &*mt.element_type : nullptr);
      if (ref == nullptr) {
        ++i;
        continue;
      }
      // A null where the schema declares the place (a property, or map
      // values with a schema, int-or-string included) that is not
      // nullable: its default, or removal when there is none. Undeclared
      // fields, which x-kubernetes-preserve-unknown-fields keeps (untyped
      // values), and the values of additionalProperties: true keep their
      // nulls at every depth.
      if (e.value.IsNull() && (f != nullptr || !IsAnything(ref->resolved))) {
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
      const bool owned = v.OwnsNode();
      changed |= WalkChild(
          ref->resolved, v, cv.map().entries()[i].value,
          owned ? &v.map().entries()[i].value : nullptr, depth + 1, prev_child,
          [&](Value c) { writable().entries()[i].value = std::move(c); });
      ++i;
    }
    return changed;
  }

  bool ListNode(const ListType& lt, Value& v, int depth, const Value* prev) {
    const List* prev_list =
        prev != nullptr && prev->IsList() ? &prev->list() : nullptr;
    const TypeRef& ref = lt.element_type;
    bool changed = false;
    auto writable = [&]() -> List& {
      changed = true;
      return v.list();
    };
    const Value& cv = v;
    const size_t n = cv.list().size();
    for (size_t i = 0; i < n; ++i) {
      if (cv.list()[i].IsNull() && ref.default_value && !ref.nullable)
        writable()[i] = *ref.default_value;
      // Items are matched by position: a shared item is skipped wherever
      // the lists line up, and walked otherwise.
      const Value* prev_item = prev_list != nullptr && i < prev_list->size()
                                   ? &(*prev_list)[i]
                                   : nullptr;
      const bool owned = v.OwnsNode();
      changed |= WalkChild(ref.resolved, v, cv.list()[i],
                           owned ? &v.list()[i] : nullptr, depth + 1, prev_item,
                           [&](Value c) { writable()[i] = std::move(c); });
    }
    return changed;
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

Value ApplyDefaults(const Type& type, Value v, const RootNode& root) {
  if (v.IsNull() && root.default_value && !root.nullable)
    v = *root.default_value;
  Defaulter().Walk(type.root(), v, 0, nullptr);
  return v;
}

Value ApplyDefaultsIncremental(const Type& type, Value v,
                               const Value& previous) {
  Defaulter().Walk(type.root(), v, 0, &previous);
  return v;
}

Value PruneUndeclared(const Type& type, const Value& v) {
  Value out = v;
  Pruner().Walk(type.root(), out, 0);
  return out;
}

}  // namespace smdx
