#include "smdx/typed/typed.h"

#include <algorithm>
#include <new>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "smdx/fieldpath/fields_v1.h"
#include "smdx/schema/builtin.h"
#include "smdx/schema/markers.h"
#include "smdx/typed/internal/typed.h"
#include "smdx/value/emit.h"

namespace smdx {

absl::StatusOr<Type> Type::Named(std::shared_ptr<const Schema> schema,
                                 absl::string_view name) {
  const Atom* root = schema->Find(name);
  if (root == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("no type named \"", name, "\" in the schema"));
  }
  Type t(std::move(schema), root, std::string(name));
  if (absl::Status st = CheckImmutabilityMarkers(t.schema(), t.root());
      !st.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("type \"", name, "\": ", st.message()));
  }
  return t;
}

Type Type::Deduced() {
  std::shared_ptr<const Schema> s = DeducedSchema();
  const Atom* root = s->Find(kDeducedTypeName);
  return Type(std::move(s), root, std::string(kDeducedTypeName));
}

namespace internal {

PathElement FieldElement(const StructField* f, const std::string& key) {
  return f != nullptr && f->interned_name != nullptr
             ? PathElement::InternedField(f->interned_name)
             : PathElement::FieldFrom(key);
}

Narrowed Narrow(const Atom* atom, const Value* v) {
  if (v != nullptr) {
    if (v->IsScalar() && atom->scalar) return {atom, Narrowed::kScalar};
    if (v->IsList() && atom->list) return {atom, Narrowed::kList};
    if (v->IsMap() && atom->map) return {atom, Narrowed::kMap};
  }
  if (atom->map) return {atom, Narrowed::kMap};
  if (atom->scalar) return {atom, Narrowed::kScalar};
  if (atom->list) return {atom, Narrowed::kList};
  return {atom, Narrowed::kNone};
}

absl::StatusOr<PathElement> ListItemElement(const Atom& list_atom,
                                            const Value& item, size_t index) {
  if (!list_atom.IsAssociativeList())
    return PathElement::Index(static_cast<int64_t>(index));
  const ListType& lt = *list_atom.list;
  if (lt.keys.empty()) {
    if (item.IsMap()) {
      return absl::InvalidArgumentError(
          "associative list without keys has an element that's a map type");
    }
    if (item.IsList()) {
      return absl::InvalidArgumentError(
          "not supported: associative list with lists as elements");
    }
    if (item.IsNull()) {
      return absl::InvalidArgumentError(
          "associative list without keys has an element that's an explicit "
          "null");
    }
    return PathElement::OfValue(item);
  }
  if (item.IsNull()) {
    return absl::InvalidArgumentError(
        "associative list with keys may not have a null element");
  }
  if (!item.IsMap()) {
    return absl::InvalidArgumentError(
        "associative list with keys may not have non-map elements");
  }
  const Atom* elem = lt.element_type.resolved;
  const MapType* elem_map =
      elem != nullptr && elem->map ? elem->map.get() : nullptr;
  // The fields found, viewed where they lie (keys have one or two), then
  // copied once, into the element's block.
  absl::InlinedVector<KeyFieldRef, 2> fields;
  for (const std::string& k : lt.keys) {
    if (const Value* v = item.map().Find(k)) {
      fields.emplace_back().SetValue(k, *v);
      continue;
    }
    // KEP-1929: a key field the item omits takes its schema default.
    const StructField* f =
        elem_map != nullptr ? elem_map->FindField(k) : nullptr;
    if (f != nullptr && f->default_value)
      fields.emplace_back().SetValue(k, *f->default_value);
  }
  if (fields.empty()) {
    std::string names;
    for (const std::string& k : lt.keys)
      absl::StrAppend(&names, names.empty() ? "" : ", ", k);
    return absl::InvalidArgumentError(absl::StrCat(
        "associative list with keys has an element that omits all key fields (",
        names, ") and has no default for any of them"));
  }
  // (Sorted by name there, stably: a name the schema gives twice stays.)
  return PathElement::KeyOf(absl::MakeSpan(fields));
}

namespace {

// The value key field `k` of `item` takes: its own, else the schema default,
// else null (absent). Mirrors ListItemElement.
const Value* KeyFieldValue(const MapType* elem_map, const Value& item,
                           const std::string& k) {
  if (const Value* v = item.map().Find(k)) return v;
  const StructField* f = elem_map != nullptr ? elem_map->FindField(k) : nullptr;
  return f != nullptr && f->default_value ? &*f->default_value : nullptr;
}

const MapType* ElementMap(const ListType& lt) {
  const Atom* elem = lt.element_type.resolved;
  return elem != nullptr && elem->map ? elem->map.get() : nullptr;
}

}  // namespace

bool HashListItemKey(const Atom& list_atom, const Value& item, size_t* hash) {
  const ListType& lt = *list_atom.list;
  if (lt.keys.empty()) {
    if (item.IsMap() || item.IsList() || item.IsNull()) return false;
    *hash = HashValue(item);
    return true;
  }
  if (!item.IsMap()) return false;
  const MapType* elem_map = ElementMap(lt);
  size_t h = 0x7a3c;
  bool any = false;
  for (const std::string& k : lt.keys) {
    const Value* v = KeyFieldValue(elem_map, item, k);
    h = (h ^ (v != nullptr ? HashValue(*v) : 0x2f)) * 0x100000001b3ULL;
    any = any || v != nullptr;
  }
  *hash = h;
  return any;
}

bool SameListItemKey(const Atom& list_atom, const Value& a, const Value& b) {
  const ListType& lt = *list_atom.list;
  if (lt.keys.empty()) return Equals(a, b);
  const MapType* elem_map = ElementMap(lt);
  for (const std::string& k : lt.keys) {
    const Value* va = KeyFieldValue(elem_map, a, k);
    const Value* vb = KeyFieldValue(elem_map, b, k);
    if ((va == nullptr) != (vb == nullptr)) return false;
    if (va != nullptr && !Equals(*va, *vb)) return false;
  }
  return true;
}

}  // namespace internal

namespace {

using internal::Narrowed;

std::string DescribeKind(const Value& v) {
  return absl::StrCat(KindName(v.kind()), " ", DebugString(v));
}

class Validator {
 public:
  explicit Validator(ValidateOptions opts,
                     const std::vector<TrustedNode>* trusted = nullptr)
      : opts_(opts) {
    if (trusted == nullptr || trusted->empty()) return;
    trusted_ = trusted;
    // A few (most objects' atomic nodes) are scanned; many are hashed.
    if (trusted->size() > kScanTrusted)
      trusted_set_.insert(trusted->begin(), trusted->end());
  }

  // The path to a node is a chain of steps on the call stack, each pointing
  // at its parent: free to extend, and only spelled out for an error.
  struct Step {
    const Step* parent;
    const std::string* field;  // a map field, or
    const Atom* list;          // an associative list's item, or
    const Value* item;
    size_t index;  // a list index
  };

  void Walk(const Atom* atom, const Value& v, int depth, const Step* at) {
    if (depth > kMaxValueDepth) {
      Error(at,
            absl::StrCat("nesting deeper than ", kMaxValueDepth, " levels"));
      return;
    }
    Narrowed n = internal::Narrow(atom, &v);
    switch (n.kind) {
      case Narrowed::kScalar:
        if (!duplicates_only_) Scalar(*atom->scalar, v, at);
        return;
      case Narrowed::kList:
        List(*atom, v, depth, at);
        return;
      case Narrowed::kMap:
        MapNode(*atom, v, depth, at);
        return;
      case Narrowed::kNone:
        Error(at, "schema error: invalid atom");
        return;
    }
  }

  std::vector<std::string>& errors() { return errors_; }

 private:
  void Error(const Step* at, absl::string_view msg) {
    std::vector<const Step*> steps;
    for (const Step* s = at; s != nullptr; s = s->parent) steps.push_back(s);
    std::string p;
    for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
      const Step& s = **it;
      if (s.field != nullptr) {
        PathElement::Field(*s.field).AppendTo(&p);
      } else if (s.item != nullptr) {
        internal::ListItemElement(*s.list, *s.item, s.index)->AppendTo(&p);
      } else {
        PathElement::Index(static_cast<int64_t>(s.index)).AppendTo(&p);
      }
    }
    errors_.push_back(p.empty() ? std::string(msg)
                                : absl::StrCat(p, ": ", msg));
  }

  // Whether a node of an atom that is only a scalar (no list or map) holds
  // a value it accepts: the common leaf, checked without a walk (the walk
  // finds and words the problem otherwise).
  static bool PlainScalarFits(const Atom* atom, const Value& v, int depth) {
    if (!atom->scalar || atom->list || atom->map || depth > kMaxValueDepth)
      return false;
    switch (*atom->scalar) {
      case ScalarType::kString:
        return v.IsString() || v.IsNull();
      case ScalarType::kNumeric:
        return v.IsNumber() || v.IsNull();
      case ScalarType::kBoolean:
        return v.IsBool() || v.IsNull();
      case ScalarType::kUntyped:
        return true;
    }
    return false;
  }

  void Scalar(ScalarType t, const Value& v, const Step* at) {
    if (v.IsNull()) return;
    switch (t) {
      case ScalarType::kNumeric:
        if (!v.IsNumber())
          Error(at, absl::StrCat("expected numeric (int or float), got ",
                                 DescribeKind(v)));
        return;
      case ScalarType::kString:
        if (!v.IsString())
          Error(at, absl::StrCat("expected string, got ", DescribeKind(v)));
        return;
      case ScalarType::kBoolean:
        if (!v.IsBool())
          Error(at, absl::StrCat("expected boolean, got ", DescribeKind(v)));
        return;
      case ScalarType::kUntyped:
        return;
    }
  }

  void List(const Atom& atom, const Value& v, int depth, const Step* at) {
    if (v.IsNull()) return;
    if (!v.IsList()) {
      Error(at, absl::StrCat("expected list, got ", DescribeKind(v)));
      return;
    }
    const Need need = Needs(atom, v, atom.list->assoc_below, depth);
    if (need == Need::kNothing) return;
    Scope scope(this, need);
    const Atom* elem = atom.list->element_type.resolved;
    const smdx::List& items = v.list();
    if (!atom.IsAssociativeList()) {
      for (size_t i = 0; i < items.size(); ++i) {
        if (PlainScalarFits(elem, items[i], depth + 1)) continue;
        Step step{at, nullptr, nullptr, nullptr, i};
        Walk(elem, items[i], depth + 1, &step);
      }
      return;
    }
    // Duplicates are found through the key values themselves; a path
    // element is only built for an error message.
    struct KeyHash {
      const Atom* atom;
      const smdx::List* items;
      size_t operator()(size_t i) const {
        size_t h = 0;
        internal::HashListItemKey(*atom, (*items)[i], &h);
        return h;
      }
    };
    struct KeyEq {
      const Atom* atom;
      const smdx::List* items;
      bool operator()(size_t a, size_t b) const {
        return internal::SameListItemKey(*atom, (*items)[a], (*items)[b]);
      }
    };
    // Short lists (most of them) compare pairwise instead of hashing.
    constexpr size_t kHashAbove = 8;
    absl::flat_hash_set<size_t, KeyHash, KeyEq> seen(0, KeyHash{&atom, &items},
                                                     KeyEq{&atom, &items});
    if (items.size() > kHashAbove) seen.reserve(items.size());
    for (size_t i = 0; i < items.size(); ++i) {
      size_t hash;
      if (!internal::HashListItemKey(atom, items[i], &hash)) {
        absl::StatusOr<PathElement> p =
            internal::ListItemElement(atom, items[i], i);
        Error(at, absl::StrCat("element ", i, ": ", p.status().message()));
        return;
      }
      bool dup = false;
      if (items.size() > kHashAbove) {
        dup = !seen.insert(i).second;
      } else {
        for (size_t j = 0; j < i && !dup; ++j)
          dup = internal::SameListItemKey(atom, items[j], items[i]);
      }
      if (dup && !opts_.allow_duplicates) {
        Error(at,
              absl::StrCat(
                  "duplicate entries for key ",
                  internal::ListItemElement(atom, items[i], i)->ToString()));
      }
      Step step{at, nullptr, &atom, &items[i], i};
      Walk(elem, items[i], depth + 1, &step);
    }
  }

  void MapNode(const Atom& atom, const Value& v, int depth, const Step* at) {
    if (v.IsNull()) return;
    if (!v.IsMap()) {
      Error(at, absl::StrCat("expected map, got ", DescribeKind(v)));
      return;
    }
    const MapType& mt = *atom.map;
    const Need need = Needs(atom, v, mt.assoc_below, depth);
    if (need == Need::kNothing) return;
    Scope scope(this, need);
    size_t hint = 0;
    for (const MapEntry& e : v.map()) {
      // (A scalar holds no duplicates: not even its type is looked up.)
      if (duplicates_only_ && !e.value.IsMap() && !e.value.IsList()) continue;
      const Atom* child = mt.EntryAtomFrom(e.key, &hint);
      if (child != nullptr && PlainScalarFits(child, e.value, depth + 1))
        continue;
      Step step{at, &e.key, nullptr, nullptr, 0};
      if (child == nullptr) {
        if (!duplicates_only_) Error(&step, "field not declared in schema");
        return;
      }
      Walk(child, e.value, depth + 1, &step);
    }
  }

  bool IsTrusted(const Atom& atom, const Value& v, int depth) const {
    if (trusted_ == nullptr) return false;
    const TrustedNode n{&v, &atom, static_cast<size_t>(depth)};
    if (trusted_->size() > kScanTrusted) return trusted_set_.contains(n);
    for (const TrustedNode& t : *trusted_) {
      if (t == n) return true;
    }
    return false;
  }

  // What the list or map `v` (of type `atom`, `assoc_below` its marker)
  // needs of the walk. A trusted node (see IsTrusted), and any node below
  // one, is valid but for the duplicates of its associative lists and sets:
  // they are looked for where it can hold one, when duplicates are errors.
  enum class Need { kNothing, kWalk, kDuplicates };
  Need Needs(const Atom& atom, const Value& v, bool assoc_below,
             int depth) const {
    if (duplicates_only_)
      return assoc_below ? Need::kDuplicates : Need::kNothing;
    if (!IsTrusted(atom, v, depth)) return Need::kWalk;
    if (!assoc_below || opts_.allow_duplicates) return Need::kNothing;
    return Need::kDuplicates;
  }
  // While it lives, the walk looks for duplicates only, when `need` says
  // so (and then as before).
  class Scope {
   public:
    Scope(Validator* v, Need need) : v_(v), was_(v->duplicates_only_) {
      if (need == Need::kDuplicates) v->duplicates_only_ = true;
    }
    ~Scope() { v_->duplicates_only_ = was_; }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    Validator* v_;
    bool was_;
  };

  static constexpr size_t kScanTrusted = 16;
  ValidateOptions opts_;
  const std::vector<TrustedNode>* trusted_ = nullptr;
  absl::flat_hash_set<TrustedNode> trusted_set_;
  // Below a trusted node: only duplicates are looked for (Needs).
  bool duplicates_only_ = false;
  std::vector<std::string> errors_;
};

// Builds the field set of one node: `out` receives the paths below the node
// (relative to it); the return value says whether the node itself is a member.
//
// Children are built in place inside their parent's node. Map entries are
// taken in key order and list items in path element order, so each node
// comes out normalized as it is built; Normalize is left for repeats.
class FieldSetBuilder {
 public:
  bool Build(const Atom* atom, const Value& v, Set* out) {
    switch (Classify(atom, v)) {
      case Below::kLeaf:
        return true;
      case Below::kNothing:
        return false;
      case Below::kItems:
        ListItems(*atom, v.list(), out);
        return false;
      case Below::kEntries:
        MapEntries(*atom->map, v.map(), out);
        return false;
    }
    return false;
  }

 private:
  // What a node of type `atom` holding `v` has below it: nothing, being a
  // member itself (a leaf: scalars, atomic lists and maps, untyped nodes);
  // nothing, without being a member; list items; or map entries.
  enum class Below { kLeaf, kNothing, kItems, kEntries };

  static Below Classify(const Atom* atom, const Value& v) {
    if (atom == nullptr) return Below::kLeaf;
    switch (internal::Narrow(atom, &v).kind) {
      case Narrowed::kScalar:
      case Narrowed::kNone:
        return Below::kLeaf;
      case Narrowed::kList:
        if (atom->IsAtomicList()) return Below::kLeaf;
        return v.IsList() ? Below::kItems : Below::kNothing;
      case Narrowed::kMap:
        if (atom->IsAtomicMap()) return Below::kLeaf;
        return v.IsMap() ? Below::kEntries : Below::kNothing;
    }
    return Below::kNothing;
  }

  // An upper bound on the entries a node is still to get: the first entry
  // reserves that much, so that a node allocates once and not at all when
  // it gets nothing.
  struct Room {
    size_t entries;
  };

  // Appends `pe` as a member with nothing below.
  static void AddMember(PathElement&& pe, const Room& room, Set* out) {
    if (out->entries().empty()) out->Reserve(room.entries);
    out->AppendMemberUnsorted(std::move(pe));
  }

  // Adds the node `pe` holding `v` to `out`: as a member when it is a leaf
  // or `force_member` says so, with its children when anything is below
  // it. `pe` is taken before anything below is built (it may live in
  // pes_).
  void Child(const Atom* atom, const Value& v, PathElement&& pe,
             bool force_member, const Room& room, Set* out) {
    Below below = Classify(atom, v);
    bool nested = (below == Below::kItems && !v.list().empty()) ||
                  (below == Below::kEntries && !v.map().empty());
    if (!nested) {
      if (below == Below::kLeaf || force_member)
        AddMember(std::move(pe), room, out);
      return;
    }
    if (out->entries().empty()) out->Reserve(room.entries);
    SetEntry& entry = out->AppendEntry(std::move(pe));
    // The entry stays put: below, only its own children grow.
    if (below == Below::kItems) {
      ListItems(*atom, v.list(), &entry.children);
    } else {
      MapEntries(*atom->map, v.map(), &entry.children);
    }
    entry.set_member(force_member);
    if (!force_member && entry.children.entries().empty()) out->PopLastEntry();
  }

  void ListItems(const Atom& atom, const List& items, Set* out) {
    const Atom* elem = atom.list->element_type.resolved;
    // The path elements of the items that have one, with their indexes,
    // pushed on the builder's scratch stacks (nested lists push above them
    // and pop back before this returns).
    const size_t base = pes_.size();
    pes_.reserve(base + items.size());
    item_index_.reserve(base + items.size());
    for (size_t i = 0; i < items.size(); ++i) {
      absl::StatusOr<PathElement> pe =
          internal::ListItemElement(atom, items[i], i);
      if (!pe.ok()) continue;
      pes_.push_back(*std::move(pe));
      item_index_.push_back(i);
    }
    const size_t n = pes_.size() - base;
    const Room room{n};
    // Lists are often written in key order already, without repeats; the
    // node is then normalized as built. Indexes, not references, into the
    // scratch stacks: nested lists may grow them.
    bool strict = true;
    for (size_t k = base + 1; k < base + n && strict; ++k)
      strict = Compare(pes_[k - 1], pes_[k]) < 0;
    if (strict) {
      for (size_t k = base; k < base + n; ++k) {
        Child(elem, items[item_index_[k]], std::move(pes_[k]),
              /*force_member=*/true, room, out);
      }
    } else {
      AppendUnordered(elem, items, base, n, room, out);
    }
    pes_.resize(base);
    item_index_.resize(base);
  }

  // ListItems for elements out of order or repeated: appends them in path
  // element order, so that the node comes out sorted and duplicates are
  // adjacent.
  void AppendUnordered(const Atom* elem, const List& items, size_t base,
                       size_t n, const Room& room, Set* out) {
    // Short lists (most) are sorted by insertion, stable too, in an inline
    // buffer: no allocation, where std::stable_sort would allocate its own.
    constexpr size_t kShort = 16;
    absl::InlinedVector<size_t, kShort> order(n);
    for (size_t k = 0; k < n; ++k) order[k] = base + k;
    auto less = [&](size_t a, size_t b) { return pes_[a] < pes_[b]; };
    if (n > kShort) {
      std::stable_sort(order.begin(), order.end(), less);
    } else {
      for (size_t k = 1; k < n; ++k) {
        const size_t x = order[k];
        size_t j = k;
        for (; j > 0 && less(x, order[j - 1]); --j) order[j] = order[j - 1];
        order[j] = x;
      }
    }
    bool repeated = false;
    for (size_t k = 0; k < n;) {
      size_t end = k + 1;
      while (end < n && pes_[order[end]] == pes_[order[k]]) ++end;
      size_t j = order[k];
      if (end - k > 1) {
        // Duplicated keys (tolerated in updated objects) are owned as a
        // whole.
        repeated = true;
        AddMember(std::move(pes_[j]), room, out);
      } else {
        Child(elem, items[item_index_[j]], std::move(pes_[j]),
              /*force_member=*/true, room, out);
      }
      k = end;
    }
    // Without repeats, the elements are sorted and no two neighbours are
    // equal: Normalize would find nothing to do.
    if (repeated) out->Normalize();
  }

  void MapEntries(const MapType& mt, const Map& m, Set* out) {
    const Map::Entries& entries = m.entries();
    const size_t n = entries.size();
    bool ascending = true;
    for (size_t i = 0; i < n; ++i) {
      ascending =
          ascending && (i == 0 || KeyLess(entries[i - 1].key, entries[i].key));
    }
    // Field elements order as their names: entries taken in key order make
    // a normalized node as they are appended. Objects written by hand are
    // not always sorted; those entries are taken through a permutation
    // rather than sorting whole set nodes afterwards.
    absl::InlinedVector<uint32_t, 16> order;
    if (!ascending) {
      order.resize(n);
      for (size_t i = 0; i < n; ++i) order[i] = static_cast<uint32_t>(i);
      std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return KeyLess(entries[a].key, entries[b].key);
      });
    }
    bool repeated = false;
    size_t hint = 0;
    for (size_t k = 0; k < n; ++k) {
      const MapEntry& e = entries[ascending ? k : order[k]];
      repeated = repeated ||
                 (!ascending && k > 0 && entries[order[k - 1]].key == e.key);
      Entry(mt, e, Room{n - k}, &hint, out);
    }
    if (repeated) out->Normalize();
  }

  // Whether key `a` sorts before key `b` (as std::string does, by unsigned
  // bytes). Most neighbours differ in their first byte, which then decides
  // without a call to memcmp.
  static bool KeyLess(const std::string& a, const std::string& b) {
    if (!a.empty() && !b.empty() && a[0] != b[0]) {
      return static_cast<unsigned char>(a[0]) <
             static_cast<unsigned char>(b[0]);
    }
    return a < b;
  }

  // Adds map entry `e` to `out`. `hint` is FindFieldFrom's, kept across the
  // entries of one map.
  void Entry(const MapType& mt, const MapEntry& e, const Room& room,
             size_t* hint, Set* out) {
    // Maps without declared fields (label maps, untyped data) skip the
    // lookup.
    const StructField* f =
        mt.fields.empty() ? nullptr : mt.FindFieldFrom(e.key, hint);
    const Atom* child = f != nullptr      ? f->type.resolved
                        : mt.element_type ? mt.element_type->resolved
                                          : nullptr;
    if (e.value.IsScalar() && (child == nullptr || child->scalar)) {
      // A scalar leaf (most entries): a member with nothing below, as Child
      // would find.
      AddMember(internal::FieldElement(f, e.key), room, out);
      return;
    }
    bool force = e.value.IsNull() ||
                 (e.value.IsMap() && e.value.map().empty()) || f == nullptr;
    Child(child, e.value, internal::FieldElement(f, e.key), force, room, out);
  }

  std::vector<PathElement> pes_;
  std::vector<size_t> item_index_;
};

Set EnsureNamed(const Atom* atom, const Set& set) {
  Set out;
  const MapType* mt = atom != nullptr && atom->map ? atom->map.get() : nullptr;
  const ListType* lt =
      atom != nullptr && atom->list ? atom->list.get() : nullptr;
  out.Reserve(set.entries().size());
  for (const SetEntry& e : set.entries()) {
    if (e.children.entries().empty()) {
      if (e.member()) out.AppendMemberUnsorted(e.pe);
      continue;
    }
    const Atom* child = nullptr;
    bool named = false;
    if (e.pe.IsField() && mt != nullptr) {
      const StructField* f = mt->FindField(e.pe.field_name());
      named = f != nullptr;
      child = f != nullptr
                  ? f->type.resolved
                  : (mt->element_type ? mt->element_type->resolved : nullptr);
    } else if (e.pe.IsKey() && lt != nullptr) {
      child = lt->element_type.resolved;
    }
    SetEntry& entry = out.AppendEntry(PathElement(e.pe));
    entry.set_member(e.member() || named);
    entry.children = EnsureNamed(child, e.children);
  }
  out.Normalize();
  return out;
}

bool IsUntypedDeducedMap(const MapType& m) {
  if (!m.fields.empty() || !m.element_type) return false;
  const TypeRef& et = *m.element_type;
  if (!et.named_type.empty()) return et.named_type == kDeducedTypeName;
  return et.inlined && et.inlined->scalar == ScalarType::kUntyped;
}

// How the reconcile takes a node of type `atom`: atomic lists and maps are
// where paths below collapse; granular ones are walked into; the rest
// (nothing known, scalars, deduced maps) are left alone.
enum class ReconcileNode { kSkip, kAtomicList, kAtomicMap, kList, kMap };

ReconcileNode ReconcileNodeOf(const Atom* atom) {
  if (atom == nullptr) return ReconcileNode::kSkip;
  switch (internal::Narrow(atom, nullptr).kind) {
    case Narrowed::kList:
      return atom->IsAtomicList() ? ReconcileNode::kAtomicList
                                  : ReconcileNode::kList;
    case Narrowed::kMap:
      if (IsUntypedDeducedMap(*atom->map)) return ReconcileNode::kSkip;
      return atom->IsAtomicMap() ? ReconcileNode::kAtomicMap
                                 : ReconcileNode::kMap;
    default:
      return ReconcileNode::kSkip;
  }
}

class Reconciler {
 public:
  // `set` is the node's subtree (may be null); `is_atomic_member` says the
  // node is a member with no children.
  void Walk(const Atom* atom, const Set* set, bool is_atomic_member) {
    switch (ReconcileNodeOf(atom)) {
      case ReconcileNode::kSkip:
        return;
      case ReconcileNode::kAtomicList:
        if (!is_atomic_member) {
          Collapse();
          return;
        }
        break;
      case ReconcileNode::kAtomicMap:
        if (!is_atomic_member) {
          if (set != nullptr && !set->Empty()) Collapse();
          return;
        }
        break;
      case ReconcileNode::kList:
      case ReconcileNode::kMap:
        break;
    }
    if (set != nullptr) Visit(atom, set);
  }

  Set to_remove;
  Set to_add;
  bool changed = false;

 private:
  void Collapse() {
    Path path;
    path.reserve(path_.size());
    for (const PathElement* pe : path_) path.push_back(*pe);
    to_remove.Insert(path);
    to_add.Insert(path);
    changed = true;
  }

  void Visit(const Atom* atom, const Set* set) {
    const MapType* mt =
        atom->map && n_kind(atom) == Narrowed::kMap ? atom->map.get() : nullptr;
    size_t hint = 0;  // entries come in name order, as schemas mostly list
    for (const SetEntry& e : set->entries()) {
      const PathElement& pe = e.pe;
      const Atom* child = nullptr;
      if (mt != nullptr) {
        if (pe.IsField()) {
          child = mt->EntryAtomFrom(pe.field_name(), &hint);
        } else if (mt->element_type) {
          child = mt->element_type->resolved;
        }
        if (child == nullptr) continue;  // not in the schema: left alone
      } else {
        child = atom->list->element_type.resolved;
      }
      const Set* sub = e.children.entries().empty() ? nullptr : &e.children;
      path_.push_back(&pe);
      Walk(child, sub, e.member() && sub == nullptr);
      path_.pop_back();
    }
  }

  static Narrowed::Kind n_kind(const Atom* atom) {
    return internal::Narrow(atom, nullptr).kind;
  }

  // The elements down to the current node, in the set being walked (a
  // Path is only built for a node that collapses).
  std::vector<const PathElement*> path_;
};

// The Reconciler's rules (ReconcileNodeOf), checked on the steps of a
// fieldsV1 reader: the read set would collapse somewhere when an entry with
// something below it sits at an atomic list or map (a member with nothing
// below never does). Nodes are followed as Reconciler::Visit follows them;
// below what it does not visit (nodes it skips, names the schema lacks),
// nothing is checked.
class ReconcileGuide final : public FieldsV1Guide {
 public:
  explicit ReconcileGuide(const Atom* root) {
    stack_.push_back(NodeFor(root));
    // Reconciler::Walk(root, set, false) collapses an atomic list at the
    // root whatever the set; an atomic map when the set is not empty.
    if (stack_.back().collapse_list) root_collapses_ = true;
  }

  // Whether ReconcileFieldSetWithSchema returns nullopt for `read`, the set
  // the reader read with this guide.
  bool Unchanged(const Set& read) const {
    if (root_collapses_ || collapses_) return false;
    return !(stack_.front().collapse_map && !read.entries().empty());
  }

  const std::string* DescendField(absl::string_view name) override {
    Node& n = stack_.back();
    const Atom* child = nullptr;
    const std::string* interned = nullptr;
    if (n.map != nullptr) {
      if (const StructField* f = n.map->FindFieldFrom(name, &n.hint)) {
        child = f->type.resolved;
        interned = f->interned_name;
      } else if (n.map->element_type) {
        child = n.map->element_type->resolved;
      }
    } else {
      child = n.element;
    }
    stack_.push_back(NodeFor(child));
    return interned;
  }

  void DescendElement() override {
    const Node& n = stack_.back();
    const Atom* child = n.element;
    if (n.map != nullptr)
      child = n.map->element_type ? n.map->element_type->resolved : nullptr;
    stack_.push_back(NodeFor(child));
  }

  void Ascend(bool below) override {
    const Node& n = stack_.back();
    if (below && (n.collapse_list || n.collapse_map)) collapses_ = true;
    stack_.pop_back();
  }

 private:
  struct Node {
    const MapType* map = nullptr;   // a granular map: its fields are looked up
    const Atom* element = nullptr;  // a granular list's element type
    size_t hint = 0;
    bool collapse_list = false;  // an atomic list
    bool collapse_map = false;   // an atomic map
  };

  static Node NodeFor(const Atom* atom) {
    Node n;
    switch (ReconcileNodeOf(atom)) {
      case ReconcileNode::kSkip:
        break;
      case ReconcileNode::kAtomicList:
        n.collapse_list = true;
        break;
      case ReconcileNode::kAtomicMap:
        n.collapse_map = true;
        break;
      case ReconcileNode::kList:
        n.element = atom->list->element_type.resolved;
        break;
      case ReconcileNode::kMap:
        n.map = atom->map.get();
        break;
    }
    return n;
  }

  std::vector<Node> stack_;
  bool root_collapses_ = false;
  bool collapses_ = false;
};

}  // namespace

absl::Status Validate(const Type& type, const Value& v, ValidateOptions opts) {
  return ValidateTrusting(type, v, opts, {});
}

absl::Status ValidateTrusting(const Type& type, const Value& v,
                              ValidateOptions opts,
                              const std::vector<TrustedNode>& trusted) {
  Validator val(opts, &trusted);
  val.Walk(type.root(), v, 0, nullptr);
  std::vector<std::string>& errs = val.errors();
  if (errs.empty()) return absl::OkStatus();
  if (errs.size() == 1) return absl::InvalidArgumentError(errs[0]);
  std::string msg = "errors:";
  for (const std::string& e : errs) absl::StrAppend(&msg, "\n  ", e);
  return absl::InvalidArgumentError(msg);
}

namespace {

bool HasEmptyList(const Value& v) {
  if (v.IsList()) {
    if (v.list().empty()) return true;
    for (const Value& item : v.list()) {
      if (HasEmptyList(item)) return true;
    }
  } else if (v.IsMap()) {
    for (const MapEntry& e : v.map()) {
      if (HasEmptyList(e.value)) return true;
    }
  }
  return false;
}

// HasEmptyGranularList below a node of type `atom` (scalars hold no list).
bool EmptyGranularListBelow(const Atom* atom, const Value& v) {
  if (atom == nullptr) return HasEmptyList(v);
  switch (internal::Narrow(atom, &v).kind) {
    case Narrowed::kList: {
      if (!v.IsList()) return HasEmptyList(v);
      if (atom->IsAtomicList()) return false;
      if (v.list().empty()) return true;
      const Atom* elem = atom->list->element_type.resolved;
      for (const Value& item : v.list()) {
        if (!item.IsScalar() && EmptyGranularListBelow(elem, item))
          return true;
      }
      return false;
    }
    case Narrowed::kMap: {
      if (!v.IsMap()) return HasEmptyList(v);
      if (atom->IsAtomicMap()) return false;
      const MapType& mt = *atom->map;
      size_t hint = 0;
      for (const MapEntry& e : v.map()) {
        if (e.value.IsScalar() || e.value.IsNull()) continue;
        if (EmptyGranularListBelow(mt.EntryAtomFrom(e.key, &hint), e.value))
          return true;
      }
      return false;
    }
    case Narrowed::kScalar:
    case Narrowed::kNone:
      return HasEmptyList(v);
  }
  return HasEmptyList(v);
}

}  // namespace

bool HasEmptyGranularList(const Type& type, const Value& v) {
  return EmptyGranularListBelow(type.root(), v);
}

Set ToFieldSet(const Type& type, const Value& v) {
  Set out;
  FieldSetBuilder b;
  b.Build(type.root(), v, &out);
  return out;
}

Set EnsureNamedFieldsAreMembers(const Type& type, const Set& set) {
  return EnsureNamed(type.root(), set);
}

std::optional<Set> ReconcileFieldSetWithSchema(const Type& type,
                                               const Set& set) {
  Reconciler r;
  r.Walk(type.root(), &set, false);
  if (!r.changed) return std::nullopt;
  return set.RecursiveDifference(r.to_remove).Union(r.to_add);
}

absl::StatusOr<Set> FieldsV1FromValueFor(const Type& type, const Value& v,
                                         const Limits& limits, bool* canonical,
                                         bool* reconciled) {
  ReconcileGuide guide(type.root());
  absl::StatusOr<Set> s = FieldsV1FromValue(v, limits, canonical, &guide);
  if (s.ok()) *reconciled = guide.Unchanged(*s);
  return s;
}

}  // namespace smdx
