#include "smdx/schema/schema.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "smdx/value/same_bytes.h"

namespace smdx {

absl::string_view RelationshipName(ElementRelationship r) {
  switch (r) {
    case ElementRelationship::kAtomic:
      return "atomic";
    case ElementRelationship::kAssociative:
      return "associative";
    case ElementRelationship::kSeparable:
      return "separable";
  }
  return "?";
}

absl::string_view ScalarTypeName(ScalarType s) {
  switch (s) {
    case ScalarType::kNumeric:
      return "numeric";
    case ScalarType::kString:
      return "string";
    case ScalarType::kBoolean:
      return "boolean";
    case ScalarType::kUntyped:
      return "untyped";
  }
  return "?";
}

namespace {

absl::Status CheckList(const ListType& l, ElementRelationship rel,
                       absl::string_view where) {
  if (!l.keys.empty() && rel != ElementRelationship::kAssociative) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, ": list declares keys but its elementRelationship is ",
        RelationshipName(rel), ", not associative"));
  }
  if (rel == ElementRelationship::kAssociative && !l.keys.empty()) {
    const Atom* elem = l.element_type.resolved;
    if (elem == nullptr || !elem->map) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": associative list with keys must have map elements (keys: ",
          l.keys.front(), ")"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

namespace {

Atom CopyAtom(const Atom& atom);

// The copies leave out what linking builds (it is built again for them).
TypeRef CopyTypeRef(const TypeRef& ref) {
  TypeRef out = ref;
  out.resolved = nullptr;
  if (ref.inlined) out.inlined = std::make_shared<Atom>(CopyAtom(*ref.inlined));
  return out;
}

Atom CopyAtom(const Atom& atom) {
  Atom out = atom;
  if (atom.list) {
    out.list = std::make_shared<ListType>(*atom.list);
    out.list->element_type = CopyTypeRef(atom.list->element_type);
    out.list->markers_below = false;
    out.list->assoc_below = true;
  }
  if (atom.map) {
    auto map = std::make_shared<MapType>();
    map->fields = atom.map->fields;
    for (StructField& f : map->fields) {
      f.type = CopyTypeRef(f.type);
      f.interned_name = nullptr;
    }
    if (atom.map->element_type) {
      map->element_type = CopyTypeRef(*atom.map->element_type);
    }
    map->element_relationship = atom.map->element_relationship;
    map->unions = atom.map->unions;
    out.map = std::move(map);
  }
  return out;
}

}  // namespace

TypeDef CopyTypeDef(const TypeDef& def) {
  return TypeDef{def.name, CopyAtom(def.atom)};
}

const StructField* MapType::FindField(absl::string_view name) const {
  if (!index.empty()) {
    auto it = index.find(name);
    return it == index.end() ? nullptr : &fields[it->second];
  }
  for (const StructField& f : fields) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

const StructField* MapType::FindFieldAfterScan(absl::string_view name,
                                               size_t* hint) const {
  const StructField* f = FindField(name);
  if (f != nullptr) *hint = static_cast<size_t>(f - fields.data()) + 1;
  return f;
}

const Atom* MapType::EntryAtom(absl::string_view name) const {
  if (const StructField* f = FindField(name)) return f->type.resolved;
  return element_type ? element_type->resolved : nullptr;
}

const Atom* Schema::Find(absl::string_view name) const {
  auto it = by_name_.find(name);
  if (it == by_name_.end()) return nullptr;
  return find_atoms_.empty() ? &types_[it->second].atom
                             : find_atoms_[it->second];
}

namespace {

// Unique among the schemas of this process (never reused).
uint64_t NextSchemaId() {
  static std::atomic<uint64_t> next_id{1};
  return next_id.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

absl::StatusOr<std::shared_ptr<const Schema>> Schema::Build(
    std::vector<TypeDef> types) {
  std::shared_ptr<Schema> s(new Schema());
  s->id_ = NextSchemaId();
  for (size_t i = 0; i < types.size(); ++i) {
    TypeDef& t = types[i];
    if (t.name.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("types[", i, "]: type has no name"));
    }
    if (s->by_name_.contains(t.name)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "types[", i, "]: type \"", t.name, "\" is defined twice"));
    }
    s->types_.push_back(std::move(t));
    s->by_name_.emplace(s->types_.back().name, s->types_.size() - 1);
  }
  if (absl::Status st = s->Link(); !st.ok()) return st;
  return std::shared_ptr<const Schema>(std::move(s));
}

absl::Status Schema::Link() {
  for (TypeDef& t : types_) {
    if (t.atom.Empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "type \"", t.name,
          "\": no scalar, list or map is declared (invalid atom)"));
    }
    if (absl::Status st = LinkAtom(t.atom, t.name); !st.ok()) return st;
  }
  if (has_immutability_) MarkImmutabilityBelow();
  MarkAssociativeBelow();
  return absl::OkStatus();
}

void Schema::CollectMapsAndLists(size_t first, std::vector<MapType*>* maps_out,
                                 std::vector<ListType*>* lists_out) {
  // Every map and list of the types from `first`: those of the types and of
  // the types inlined in them (derived atoms share their base's).
  std::vector<MapType*>& maps = *maps_out;
  std::vector<ListType*>& lists = *lists_out;
  std::vector<Atom*> stack;
  for (size_t i = first; i < types_.size(); ++i)
    stack.push_back(&types_[i].atom);
  while (!stack.empty()) {
    Atom* a = stack.back();
    stack.pop_back();
    if (a->map) {
      maps.push_back(a->map.get());
      for (StructField& f : a->map->fields) {
        if (f.type.inlined) stack.push_back(f.type.inlined.get());
      }
      if (a->map->element_type && a->map->element_type->inlined)
        stack.push_back(a->map->element_type->inlined.get());
    }
    if (a->list) {
      lists.push_back(a->list.get());
      if (a->list->element_type.inlined)
        stack.push_back(a->list->element_type.inlined.get());
    }
  }
}

namespace {

// Sets the flag (`map_flag`, `list_flag`) of every map and list that
// `sets(ref)` says one of its references (fields, element types) sets.
// Types refer to each other in cycles: propagate until nothing changes.
template <typename Sets>
void PropagateUp(const std::vector<MapType*>& maps,
                 const std::vector<ListType*>& lists, bool MapType::*map_flag,
                 bool ListType::*list_flag, Sets sets) {
  for (bool changed = true; changed;) {
    changed = false;
    for (MapType* m : maps) {
      if (m->*map_flag) continue;
      bool b = m->element_type && sets(*m->element_type);
      for (const StructField& f : m->fields) b = b || sets(f.type);
      if (b) m->*map_flag = changed = true;
    }
    for (ListType* l : lists) {
      if (!(l->*list_flag) && sets(l->element_type))
        l->*list_flag = changed = true;
    }
  }
}

}  // namespace

void Schema::MarkAssociativeBelow(size_t first) {
  std::vector<MapType*> maps;
  std::vector<ListType*> lists;
  CollectMapsAndLists(first, &maps, &lists);
  // Whether a value of `ref` may hold an associative list: one that says so
  // itself or through the reference, or one below it (maps and lists of
  // earlier types, and any not linked, keep what they have: at worst
  // "may").
  auto may = [](const TypeRef& ref) {
    const Atom* a = ref.resolved;
    return a == nullptr ||
           ref.element_relationship == ElementRelationship::kAssociative ||
           (a->map && a->map->assoc_below) || (a->list && a->list->assoc_below);
  };
  // From "no" everywhere (but the associative lists themselves), "may"
  // goes up.
  for (MapType* m : maps) m->assoc_below = false;
  for (ListType* l : lists) l->assoc_below = l->IsAssociative();
  PropagateUp(maps, lists, &MapType::assoc_below, &ListType::assoc_below, may);
}

void Schema::MarkImmutabilityBelow(size_t first) {
  std::vector<MapType*> maps;
  std::vector<ListType*> lists;
  CollectMapsAndLists(first, &maps, &lists);
  auto below = [](const TypeRef& ref) {
    const Atom* a = ref.resolved;
    return ref.immutability.any() ||
           (a != nullptr && ((a->map && a->map->markers_below) ||
                             (a->list && a->list->markers_below)));
  };
  PropagateUp(maps, lists, &MapType::markers_below, &ListType::markers_below,
              below);
}

absl::Status Schema::LinkAtom(Atom& atom, absl::string_view where) {
  if (atom.list) {
    if (absl::Status st =
            LinkRef(atom.list->element_type, where, "elementType");
        !st.ok()) {
      return st;
    }
    if (absl::Status st =
            CheckList(*atom.list, atom.list_relationship(), where);
        !st.ok()) {
      return st;
    }
  }
  if (atom.map) {
    MapType& m = *atom.map;
    for (StructField& f : m.fields) {
      f.interned_name = InternName(f.name);
      if (absl::Status st = LinkRef(f.type, where, f.name); !st.ok())
        return st;
      if (f.default_value) has_defaults_ = true;
    }
    if (m.element_type) {
      if (absl::Status st = LinkRef(*m.element_type, where, "elementType");
          !st.ok()) {
        return st;
      }
    }
    for (const StructField& f : m.fields) {
      if (f.default_value || f.type.default_value)
        m.defaulted_fields.push_back(&f);
    }
    constexpr size_t kIndexThreshold = 8;
    bool distinct = true;
    if (m.fields.size() > kIndexThreshold) {
      for (size_t i = 0; i < m.fields.size(); ++i)
        distinct = m.index.emplace(m.fields[i].name, i).second && distinct;
    } else {
      for (size_t i = 0; i < m.fields.size(); ++i) {
        for (size_t j = 0; j < i; ++j)
          distinct = distinct && m.fields[i].name != m.fields[j].name;
      }
    }
    // The forward scan must find what FindField finds: the first field of a
    // name. Schemas built directly (not parsed) might repeat one; they go
    // without the scan.
    m.name_tags.clear();
    if (distinct) {
      for (const StructField& f : m.fields)
        m.name_tags.push_back(internal::NameTag(f.name));
    }
  }
  return absl::OkStatus();
}

absl::Status Schema::LinkRef(TypeRef& ref, absl::string_view parent,
                             absl::string_view step) {
  // Where the reference is, spelled out only for an error or an inline type
  // (a schema links thousands of fields).
  auto where = [&] { return absl::StrCat(parent, ".", step); };
  if (ref.default_value) has_defaults_ = true;
  if (ref.immutability.any()) has_immutability_ = true;
  const Atom* base = nullptr;
  if (!ref.named_type.empty()) {
    base = Find(ref.named_type);
    if (base == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          where(), ": no type found matching \"", ref.named_type, "\""));
    }
  } else if (ref.inlined) {
    if (ref.inlined->Empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          where(),
          ": inline type declares no scalar, list or map (invalid atom)"));
    }
    if (absl::Status st = LinkAtom(*ref.inlined, where()); !st.ok())
      return st;
    base = ref.inlined.get();
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        where(), ": type reference has neither namedType nor an inline type"));
  }
  if (ref.element_relationship) {
    if (!base->map && !base->list) {
      // SMD ignores an override on a scalar type.
      ref.resolved = base;
      return absl::OkStatus();
    }
    // Keys of a list overridden to atomic are simply unused.
    Atom derived = *base;
    derived.relationship_override = ref.element_relationship;
    derived_.push_back(std::move(derived));
    ref.resolved = &derived_.back();
  } else {
    ref.resolved = base;
  }
  return absl::OkStatus();
}

GrowingSchema::GrowingSchema() : all_(new Schema()) {
  all_->id_ = NextSchemaId();
}

bool GrowingSchema::Has(absl::string_view name) const {
  return all_->by_name_.contains(name);
}

absl::Status GrowingSchema::Add(std::vector<TypeDef> types) {
  Schema& s = *all_;
  const size_t first = s.types_.size();
  const size_t derived_before = s.derived_.size();
  // Undoes what this call did so far (linking writes only into the types
  // added now, and appends derived atoms).
  auto undo = [&](absl::Status st) {
    for (size_t i = first; i < s.types_.size(); ++i)
      s.by_name_.erase(s.types_[i].name);
    s.types_.resize(first);
    s.derived_.resize(derived_before);
    has_defaults_.resize(first);
    has_immutability_.resize(first);
    refs_.resize(first);
    return st;
  };
  for (size_t i = 0; i < types.size(); ++i) {
    TypeDef& t = types[i];
    if (t.name.empty()) {
      return undo(absl::InvalidArgumentError(
          absl::StrCat("types[", i, "]: type has no name")));
    }
    if (s.by_name_.contains(t.name)) {
      return undo(absl::InvalidArgumentError(absl::StrCat(
          "types[", i, "]: type \"", t.name, "\" is defined twice")));
    }
    s.types_.push_back(std::move(t));
    s.by_name_.emplace(s.types_.back().name, s.types_.size() - 1);
  }
  bool any_immutability = false;
  for (size_t i = first; i < s.types_.size(); ++i) {
    TypeDef& t = s.types_[i];
    if (t.atom.Empty()) {
      return undo(absl::InvalidArgumentError(absl::StrCat(
          "type \"", t.name,
          "\": no scalar, list or map is declared (invalid atom)")));
    }
    // The schema's flags, read per type.
    s.has_defaults_ = false;
    s.has_immutability_ = false;
    if (absl::Status st = s.LinkAtom(t.atom, t.name); !st.ok())
      return undo(st);
    has_defaults_.push_back(s.has_defaults_);
    has_immutability_.push_back(s.has_immutability_);
    any_immutability = any_immutability || s.has_immutability_;
  }
  if (any_immutability) s.MarkImmutabilityBelow(first);
  s.MarkAssociativeBelow(first);
  // The types each one names, through its inline types too.
  for (size_t i = first; i < s.types_.size(); ++i) {
    std::vector<uint32_t>& refs = refs_.emplace_back();
    std::vector<const Atom*> stack = {&s.types_[i].atom};
    auto ref = [&](const TypeRef& r) {
      if (!r.named_type.empty()) {
        refs.push_back(static_cast<uint32_t>(s.by_name_.at(r.named_type)));
      } else if (r.inlined) {
        stack.push_back(r.inlined.get());
      }
    };
    while (!stack.empty()) {
      const Atom* a = stack.back();
      stack.pop_back();
      if (a->list) ref(a->list->element_type);
      if (a->map) {
        for (const StructField& f : a->map->fields) ref(f.type);
        if (a->map->element_type) ref(*a->map->element_type);
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<const Schema>> GrowingSchema::View(
    absl::Span<const absl::string_view> names) const {
  std::shared_ptr<Schema> view(new Schema());
  view->id_ = NextSchemaId();
  view->base_ = all_;
  view->find_atoms_.reserve(names.size());
  view->by_name_.reserve(names.size());
  std::vector<size_t> index;  // of each name in all_
  index.reserve(names.size());
  std::vector<bool> in_view(all_->types_.size());
  for (absl::string_view name : names) {
    auto it = all_->by_name_.find(name);
    if (it == all_->by_name_.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("no type \"", name, "\" was added"));
    }
    if (in_view[it->second]) {
      return absl::InvalidArgumentError(
          absl::StrCat("type \"", name, "\" is named twice"));
    }
    in_view[it->second] = true;
    index.push_back(it->second);
    const TypeDef& t = all_->types_[it->second];
    // The definition shared: the atom's lists and maps are the same objects.
    view->types_.push_back(TypeDef{t.name, t.atom});
    view->by_name_.emplace(view->types_.back().name, view->types_.size() - 1);
    view->find_atoms_.push_back(&t.atom);
    view->has_defaults_ = view->has_defaults_ || has_defaults_[it->second];
    view->has_immutability_ =
        view->has_immutability_ || has_immutability_[it->second];
  }
  for (size_t i = 0; i < names.size(); ++i) {
    const absl::string_view name = names[i];
    for (uint32_t r : refs_[index[i]]) {
      if (!in_view[r]) {
        return absl::InvalidArgumentError(
            absl::StrCat("type \"", name, "\" refers to \"",
                         all_->types_[r].name, "\", which is not named"));
      }
    }
  }
  return std::shared_ptr<const Schema>(std::move(view));
}

}  // namespace smdx
