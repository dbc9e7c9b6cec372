#include "smdx/typed/immutable.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "smdx/schema/markers.h"
#include "smdx/typed/internal/typed.h"
#include "smdx/value/same_bytes.h"

namespace smdx {

namespace {

using internal::Narrowed;

int KindOrder(const Value& v) { return static_cast<int>(v.kind()); }

// A total order that, unlike Compare, tells ints from floats; used to line
// up set items before comparing them.
bool StrictLess(const Value& a, const Value& b) {
  if (a.kind() != b.kind()) return KindOrder(a) < KindOrder(b);
  return Compare(a, b) < 0;
}

bool IsSet(const Atom& atom) {
  return atom.list && atom.IsAssociativeList() && atom.list->keys.empty();
}

// Strict deep equality, except that set items compare ignoring order.
bool ImmEqual(const Atom* atom, const Value& a, const Value& b) {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Value::Kind::kMap: {
      const Map& ma = a.map();
      const Map& mb = b.map();
      if (ma.size() != mb.size()) return false;
      const MapType* mt =
          atom != nullptr && atom->map ? atom->map.get() : nullptr;
      for (const MapEntry& e : ma) {
        const Value* other = mb.Find(e.key);
        if (other == nullptr) return false;
        if (!ImmEqual(mt != nullptr ? mt->EntryAtom(e.key) : nullptr, e.value,
                      *other))
          return false;
      }
      return true;
    }
    case Value::Kind::kList: {
      const List& la = a.list();
      const List& lb = b.list();
      if (la.size() != lb.size()) return false;
      const Atom* elem = atom != nullptr && atom->list
                             ? atom->list->element_type.resolved
                             : nullptr;
      if (atom != nullptr && IsSet(*atom)) {
        std::vector<const Value*> sa, sb;
        for (const Value& v : la) sa.push_back(&v);
        for (const Value& v : lb) sb.push_back(&v);
        auto less = [](const Value* x, const Value* y) {
          return StrictLess(*x, *y);
        };
        std::sort(sa.begin(), sa.end(), less);
        std::sort(sb.begin(), sb.end(), less);
        for (size_t i = 0; i < sa.size(); ++i) {
          if (!ImmEqual(elem, *sa[i], *sb[i])) return false;
        }
        return true;
      }
      for (size_t i = 0; i < la.size(); ++i) {
        if (!ImmEqual(elem, la[i], lb[i])) return false;
      }
      return true;
    }
    case Value::Kind::kInt:
      return a.AsInt() == b.AsInt();
    case Value::Kind::kFloat:
      return a.AsFloat() == b.AsFloat();
    default:
      return Equals(a, b);
  }
}

// A hash that is equal for values ImmEqual calls equal: map entries and
// set items are combined ignoring order, every other list in order.
uint64_t ImmHash(const Atom* atom, const Value& v) {
  auto mix = [](uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
  };
  switch (v.kind()) {
    case Value::Kind::kMap: {
      const MapType* mt =
          atom != nullptr && atom->map ? atom->map.get() : nullptr;
      uint64_t h = 0x6d6170;
      for (const MapEntry& e : v.map()) {
        const Atom* ea = mt != nullptr ? mt->EntryAtom(e.key) : nullptr;
        h += mix(internal::HashString(e.key) * 31 + ImmHash(ea, e.value));
      }
      return h;
    }
    case Value::Kind::kList: {
      const Atom* elem = atom != nullptr && atom->list
                             ? atom->list->element_type.resolved
                             : nullptr;
      bool unordered = atom != nullptr && IsSet(*atom);
      uint64_t h = 0x6c697374;
      for (const Value& item : v.list()) {
        uint64_t ih = ImmHash(elem, item);
        h = unordered ? h + mix(ih) : mix(h * 31 + ih);
      }
      return h;
    }
    default:
      return mix(HashValue(v) + static_cast<uint64_t>(v.kind()));
  }
}

// Whether `a` and `b` are the same scalar of the same kind (strings, most
// of them, compared inline).
bool SameScalar(const Value& a, const Value& b) {
  if (a.IsString() && b.IsString()) return a.AsString() == b.AsString();
  return !a.IsList() && !a.IsMap() && a.kind() == b.kind() && Equals(a, b);
}

bool HasComposite(const List& l) {
  return std::any_of(l.begin(), l.end(),
                     [](const Value& v) { return v.IsMap() || v.IsList(); });
}

class Checker {
 public:
  // A place present on both sides, reached through `ref` (null for the root).
  void Node(const TypeRef* ref, const Atom* atom, const Value& o,
            const Value& n) {
    // A node shared by both sides is unchanged all the way down; results
    // of apply and update share every subtree they did not touch.
    if (atom == nullptr || SameNode(o, n)) return;
    if (ref != nullptr && ref->immutability.immutable) {
      if (!ImmEqual(atom, o, n)) Violation("is immutable");
      return;  // nothing below an immutable node needs another look
    }
    const Immutability none;
    const Immutability& marks = ref != nullptr ? ref->immutability : none;
    // Without markers here or below, nothing in this subtree can violate
    // one (objects mostly have markers in few places, none in metadata).
    if (!marks.any() && !(atom->map && atom->map->markers_below) &&
        !(atom->list && atom->list->markers_below)) {
      return;
    }
    Narrowed::Kind ko = internal::Narrow(atom, &o).kind;
    if (ko != internal::Narrow(atom, &n).kind) return;
    if (ko == Narrowed::kMap && o.IsMap() && n.IsMap()) {
      MapChildren(*atom->map, marks, o.map(), n.map());
    } else if (ko == Narrowed::kList && o.IsList() && n.IsList()) {
      ListChildren(*atom, marks, o.list(), n.list());
    }
  }

  std::vector<ImmutabilityViolation> violations;

 private:
  void Violation(std::string reason) {
    Path path;
    path.reserve(path_.size());
    for (const Step& st : path_)
      path.push_back(st.field != nullptr ? PathElement::Field(*st.field)
                                         : st.pe);
    violations.push_back({std::move(path), std::move(reason)});
  }

  void MembershipChange(const Immutability& marks, bool added) {
    if (added && (marks.immutable_keys || marks.deletion_only)) {
      Violation(marks.deletion_only ? "may not be added (deletion only)"
                                    : "key may not be added");
    } else if (!added && (marks.immutable_keys || marks.addition_only)) {
      Violation(marks.addition_only ? "may not be removed (addition only)"
                                    : "key may not be removed");
    }
  }

  void MapChildren(const MapType& mt, const Immutability& marks, const Map& o,
                   const Map& n) {
    // Results of apply and update keep the live object's key order, so the
    // entry at the same position is tried before a search; when every key
    // lines up, the new side has no key the old one lacks.
    bool aligned = o.size() == n.size();
    size_t hint = 0;
    for (size_t i = 0; i < o.size(); ++i) {
      const MapEntry& e = o.entries()[i];
      const Value* nv = nullptr;
      if (i < n.size() && n.entries()[i].key == e.key) {
        nv = &n.entries()[i].value;
      } else {
        aligned = false;
        nv = n.Find(e.key);
      }
      // An entry that is the same node, or the same scalar, on both sides
      // cannot violate anything; most entries of an apply result are.
      if (nv != nullptr && (SameNode(e.value, *nv) || SameScalar(e.value, *nv)))
        continue;
      const StructField* f = mt.FindFieldFrom(e.key, &hint);
      const TypeRef* ref =
          f != nullptr ? &f->type
                       : (mt.element_type ? &*mt.element_type : nullptr);
      path_.push_back(Step{&e.key, {}});
      if (nv != nullptr) {
        if (ref != nullptr) Node(ref, ref->resolved, e.value, *nv);
      } else if (f != nullptr && ref->immutability.immutable) {
        Violation("is immutable and may not be removed");
      } else {
        MembershipChange(marks, /*added=*/false);
      }
      path_.pop_back();
    }
    if (aligned) return;
    for (const MapEntry& e : n) {
      if (o.Find(e.key) != nullptr) continue;
      const StructField* f = mt.FindField(e.key);
      path_.push_back(Step{&e.key, {}});
      if (f != nullptr && f->type.immutability.immutable) {
        Violation("is immutable and may not be set");
      } else {
        MembershipChange(marks, /*added=*/true);
      }
      path_.pop_back();
    }
  }

  // The usual change to an associative list: a few items differ, each with
  // its key unchanged and in its place. Those are walked pair by pair, as
  // the matching by key in ListChildren would pair them, without indexing
  // both lists. False (nothing done) otherwise.
  bool WalkInPlace(const Atom& atom, const TypeRef& elem, const List& o,
                   const List& n, const std::vector<bool>& skip) {
    constexpr size_t kFew = 8;
    absl::InlinedVector<size_t, kFew> changed;
    for (size_t i = 0; i < o.size(); ++i) {
      if (skip[i]) continue;
      if (changed.size() == kFew) return false;
      size_t h;
      if (!internal::HashListItemKey(atom, o[i], &h) ||
          !internal::HashListItemKey(atom, n[i], &h) ||
          !internal::SameListItemKey(atom, o[i], n[i])) {
        return false;
      }
      for (size_t j : changed) {
        if (internal::SameListItemKey(atom, o[j], o[i])) return false;
      }
      changed.push_back(i);
    }
    for (size_t i : changed) {
      path_.push_back(Step{nullptr, *internal::ListItemElement(atom, o[i], i)});
      Node(&elem, elem.resolved, o[i], n[i]);
      path_.pop_back();
    }
    return true;
  }

  // A set whose items are maps or lists (the KEP's sets of objects; such
  // items are atomic): an item is its own key, so a changed item is its old
  // value removed and its new value added, each checked and named by value.
  void CompositeSetChildren(const Atom& atom, const Immutability& marks,
                            const List& o, const List& n) {
    const Atom* elem = atom.list->element_type.resolved;
    using Index = absl::flat_hash_map<uint64_t, std::vector<const Value*>>;
    // Adds `v` unless an equal item is there already; false if it was.
    auto insert = [&](Index* index, const Value& v) {
      std::vector<const Value*>& bucket = (*index)[ImmHash(elem, v)];
      for (const Value* w : bucket) {
        if (ImmEqual(elem, *w, v)) return false;
      }
      bucket.push_back(&v);
      return true;
    };
    auto contains = [&](const Index& index, const Value& v) {
      auto it = index.find(ImmHash(elem, v));
      if (it == index.end()) return false;
      for (const Value* w : it->second) {
        if (ImmEqual(elem, *w, v)) return true;
      }
      return false;
    };
    Index old_items, new_items;
    for (const Value& v : o) insert(&old_items, v);
    for (const Value& v : n) insert(&new_items, v);
    auto report = [&](const List& side, const Index& other, bool added) {
      Index reported;
      for (const Value& v : side) {
        if (contains(other, v) || !insert(&reported, v)) continue;
        path_.push_back(Step{nullptr, PathElement::OfValue(v)});
        MembershipChange(marks, added);
        path_.pop_back();
      }
    };
    report(o, new_items, /*added=*/false);
    report(n, old_items, /*added=*/true);
  }

  void ListChildren(const Atom& atom, const Immutability& marks, const List& o,
                    const List& n) {
    const TypeRef& elem = atom.list->element_type;
    if (IsSet(atom) && (HasComposite(o) || HasComposite(n))) {
      CompositeSetChildren(atom, marks, o, n);
      return;
    }
    if (!atom.IsAssociativeList()) {
      size_t common = std::min(o.size(), n.size());
      for (size_t i = 0; i < common; ++i) {
        path_.push_back(
            Step{nullptr, PathElement::Index(static_cast<int64_t>(i))});
        Node(&elem, elem.resolved, o[i], n[i]);
        path_.pop_back();
      }
      return;
    }
    // When both lists have the same length, an item that is the same node
    // (or the same scalar) at the same position on both sides is unchanged
    // and keeps its key: only the other positions need matching by key.
    std::vector<bool> skip(std::max(o.size(), n.size()), false);
    if (o.size() == n.size()) {
      for (size_t i = 0; i < o.size(); ++i) {
        skip[i] = SameNode(o[i], n[i]) ||
                  (!o[i].IsList() && !o[i].IsMap() &&
                   o[i].kind() == n[i].kind() && Equals(o[i], n[i]));
      }
    }
    if (o.size() == n.size() && WalkInPlace(atom, elem, o, n, skip)) return;
    absl::flat_hash_map<PathElement, const Value*> old_items;
    std::vector<std::pair<PathElement, const Value*>> old_order;
    for (size_t i = 0; i < o.size(); ++i) {
      if (skip[i]) continue;
      absl::StatusOr<PathElement> pe = internal::ListItemElement(atom, o[i], i);
      if (!pe.ok()) continue;
      if (old_items.emplace(*pe, &o[i]).second)
        old_order.emplace_back(*pe, &o[i]);
    }
    absl::flat_hash_map<PathElement, const Value*> new_items;
    std::vector<std::pair<PathElement, const Value*>> new_order;
    for (size_t i = 0; i < n.size(); ++i) {
      if (skip[i]) continue;
      absl::StatusOr<PathElement> pe = internal::ListItemElement(atom, n[i], i);
      if (!pe.ok()) continue;
      if (new_items.emplace(*pe, &n[i]).second)
        new_order.emplace_back(*pe, &n[i]);
    }
    for (const auto& [pe, item] : old_order) {
      path_.push_back(Step{nullptr, pe});
      auto it = new_items.find(pe);
      if (it != new_items.end()) {
        Node(&elem, elem.resolved, *item, *it->second);
      } else {
        MembershipChange(marks, /*added=*/false);
      }
      path_.pop_back();
    }
    for (const auto& [pe, item] : new_order) {
      if (old_items.contains(pe)) continue;
      path_.push_back(Step{nullptr, pe});
      MembershipChange(marks, /*added=*/true);
      path_.pop_back();
    }
  }

  // The path to the current node; map keys are kept by pointer and only
  // turned into path elements for a violation.
  struct Step {
    const std::string* field;
    PathElement pe;
  };
  // Inline room for typical depths: a check allocates nothing until it
  // finds a violation.
  absl::InlinedVector<Step, 8> path_;
};

}  // namespace

std::vector<ImmutabilityViolation> CheckImmutability(const Type& type,
                                                     const Value& old_value,
                                                     const Value& new_value) {
  if (old_value.IsNull() || !type.schema().has_immutability()) return {};
  Checker c;
  c.Node(nullptr, type.root(), old_value, new_value);
  return std::move(c.violations);
}

absl::Status ImmutabilityError(
    const std::vector<ImmutabilityViolation>& violations) {
  std::string msg;
  for (const ImmutabilityViolation& v : violations) {
    if (!msg.empty()) msg += "\n";
    absl::StrAppend(&msg, PathString(v.path), ": ", v.reason);
  }
  return absl::InvalidArgumentError(msg);
}

absl::Status CheckImmutabilityMarkers(const Type& type) {
  return CheckImmutabilityMarkers(type.schema(), type.root());
}

}  // namespace smdx
