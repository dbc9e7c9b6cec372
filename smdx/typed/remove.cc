// RemoveItems and ExtractItems: pruning and projecting a value by a field set.
#include "smdx/typed/internal/typed.h"
#include "smdx/typed/typed.h"

namespace smdx {

namespace {

using internal::Narrowed;

class Remover {
 public:
  // `keyless_item`, when not null, is set where a list with keys is left an
  // item without its keys (LostItsKeys).
  Remover(bool extract, bool* keyless_item)
      : extract_(extract), keyless_item_(keyless_item) {}

  // Returns the pruned (or extracted) value; null when nothing is left.
  Value Walk(const Atom* atom, const Value& v, const Set& items) {
    if (atom == nullptr) return v;
    switch (internal::Narrow(atom, &v).kind) {
      case Narrowed::kScalar:
        return v;
      case Narrowed::kList:
        return WalkList(*atom, v, items);
      case Narrowed::kMap:
        return WalkMap(*atom, v, items);
      case Narrowed::kNone:
        return Value();
    }
    return Value();
  }

 private:
  Value WalkList(const Atom& atom, const Value& v, const Set& items) {
    if (!v.IsList()) return Value();
    const List& l = v.list();
    if (l.empty() || atom.IsAtomicList()) return extract_ ? v : Value();
    const Atom* elem = atom.list->element_type.resolved;
    List out;
    for (size_t i = 0; i < l.size(); ++i) {
      const Value& item = l[i];
      absl::StatusOr<PathElement> pe = internal::ListItemElement(atom, item, i);
      if (!pe.ok()) {
        if (!extract_) out.push_back(item);
        continue;
      }
      bool exact = items.HasMember(*pe);
      const Set& sub = items.WithPrefix(*pe);
      bool prefix = !sub.Empty();
      if (extract_) {
        if (prefix) {
          out.push_back(Walk(elem, item, sub));
        } else if (exact) {
          out.push_back(item);
        }
        continue;
      }
      if (exact) continue;
      if (prefix) {
        out.push_back(Walk(elem, item, sub));
        if (keyless_item_ != nullptr && !atom.list->keys.empty() &&
            LostItsKeys(atom.list->keys, item, out.back())) {
          *keyless_item_ = true;
        }
      } else {
        out.push_back(item);
      }
    }
    // A container emptied by the removal becomes null, as in SMD.
    if (!out.empty()) return Value(std::move(out));
    return Value();
  }

  Value WalkMap(const Atom& atom, const Value& v, const Set& items) {
    if (!v.IsMap()) return Value();
    const Map& m = v.map();
    if (m.empty() || atom.IsAtomicMap()) return extract_ ? v : Value();
    const MapType& mt = *atom.map;
    Map out;
    size_t hint = 0;
    for (const MapEntry& e : m) {
      const StructField* f = mt.FindFieldFrom(e.key, &hint);
      PathElement pe = internal::FieldElement(f, e.key);
      const Atom* child =
          f != nullptr
              ? f->type.resolved
              : (mt.element_type ? mt.element_type->resolved : nullptr);
      bool exact = items.HasMember(pe);
      const Set& sub = items.WithPrefix(pe);
      if (extract_) {
        if (!sub.Empty()) {
          out.Append(e.key, Walk(child, e.value, sub));
        } else if (exact) {
          out.Append(e.key, e.value);
        }
        continue;
      }
      if (exact) continue;
      if (!sub.Empty()) {
        out.Append(e.key, Walk(child, e.value, sub));
      } else if (!extract_) {
        out.Append(e.key, e.value);
      }
    }
    // A container emptied by the removal becomes null, as in SMD.
    if (!out.empty()) return Value(std::move(out));
    return Value();
  }

  // Whether `after`, what the removal left of the list item `before`, is
  // null or lacks a key field `before` had.
  static bool LostItsKeys(const std::vector<std::string>& keys,
                          const Value& before, const Value& after) {
    if (after.IsNull()) return true;
    if (!before.IsMap() || !after.IsMap()) return false;
    for (const std::string& k : keys) {
      if (before.map().Find(k) != nullptr && after.map().Find(k) == nullptr)
        return true;
    }
    return false;
  }

  bool extract_;
  bool* keyless_item_;
};

}  // namespace

Value RemoveItems(const Type& type, const Value& v, const Set& items,
                  bool* left_keyless_item) {
  if (left_keyless_item != nullptr) *left_keyless_item = false;
  return Remover(false, left_keyless_item).Walk(type.root(), v, items);
}

Value ExtractItems(const Type& type, const Value& v, const Set& items) {
  return Remover(true, nullptr).Walk(type.root(), v, items);
}

}  // namespace smdx
