// Schema: the type system values are checked against.
//
// A Schema is a set of named types (TypeDefs). Each type is an Atom: a
// scalar, a list, a map, or, for untyped data, several of them at once (the
// value's own kind picks one). Lists are atomic (replaced whole) or
// associative: keyed by some of their items' fields (`list-type: map`) or,
// without keys, by the items themselves (`list-type: set`). Maps are
// granular (merged field by field) or atomic.
//
// Types refer to each other by name (TypeRef::named_type), possibly
// recursively; a reference may override the relationship of the type it
// names. Linking resolves every reference to an Atom pointer once, when the
// schema is built, so walking a value never looks a name up.
//
// A Schema is immutable after it is built and safe to share across threads.
// schema/ depends only on value/.
#ifndef SMDX_SCHEMA_SCHEMA_H_
#define SMDX_SCHEMA_SCHEMA_H_

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "smdx/value/intern.h"
#include "smdx/value/same_bytes.h"
#include "smdx/value/value.h"

namespace smdx {

enum class ElementRelationship : uint8_t {
  kAtomic,       // replaced as a whole
  kAssociative,  // lists: items identified by key fields or by value
  kSeparable,    // maps: merged field by field ("granular")
};

enum class ScalarType : uint8_t { kNumeric, kString, kBoolean, kUntyped };

absl::string_view RelationshipName(ElementRelationship r);
absl::string_view ScalarTypeName(ScalarType s);

struct Atom;

// Immutability markers of a schema node (the immutable-fields KEP). In
// OpenAPI they are `x-kubernetes-immutable`, `x-kubernetes-immutable-keys`,
// `x-kubernetes-addition-only` and `x-kubernetes-deletion-only`; in the SMD
// YAML format they are the type-reference keys `immutable`,
// `immutableKeys`, `additionOnly` and `deletionOnly` (each `true`).
struct Immutability {
  bool immutable = false;
  bool immutable_keys = false;
  bool addition_only = false;
  bool deletion_only = false;

  bool any() const {
    return immutable || immutable_keys || addition_only || deletion_only;
  }
};

// A reference to a type: by name, or inline. Exactly one of the two is set.
// The reference is the schema node of one place in an object (a field, the
// items of a list, the values of a map), so what is specific to that place
// lives here: a relationship override, the node's default and nullability
// (for list items and map values; a field's are on its StructField), and
// its immutability markers.
struct TypeRef {
  std::string named_type;
  std::shared_ptr<Atom> inlined;
  // A per-reference override of the referenced list's or map's relationship.
  std::optional<ElementRelationship> element_relationship;
  std::optional<Value> default_value;
  bool nullable = false;
  Immutability immutability;
  // Filled in by linking; never null in a built Schema.
  const Atom* resolved = nullptr;
};

struct StructField {
  std::string name;
  TypeRef type;
  // The schema default (SMD `default`, OpenAPI `default`): completes
  // associative keys and is what structural defaulting sets.
  std::optional<Value> default_value;
  bool nullable = false;
  // Built by linking: `name` interned (InternName), so that path elements
  // made for this field point at it instead of copying the name.
  const std::string* interned_name = nullptr;
};

struct UnionField {
  std::string field_name;
  std::string discriminator_value;
};

struct Union {
  std::optional<std::string> discriminator;
  bool deduce_invalid_discriminator = false;
  std::vector<UnionField> fields;
};

struct MapType {
  std::vector<StructField> fields;
  // Type of entries that are not declared fields; absent means undeclared
  // fields are invalid.
  std::optional<TypeRef> element_type;
  ElementRelationship element_relationship = ElementRelationship::kSeparable;
  std::vector<Union> unions;

  // The declared field named `name`, or nullptr.
  const StructField* FindField(absl::string_view name) const;
  // Type of the entry `name`: the field's, else the element type, else null.
  const Atom* EntryAtom(absl::string_view name) const;

  // FindField for a walk over one map's entries in order. `*hint` starts at
  // 0 and is kept between the calls; objects whose keys follow the order of
  // the declared fields (both are usually sorted) are then found by a short
  // forward scan instead of hashing.
  const StructField* FindFieldFrom(absl::string_view name, size_t* hint) const;
  const Atom* EntryAtomFrom(absl::string_view name, size_t* hint) const;
  // FindFieldFrom's lookup when the scan from the hint found nothing.
  const StructField* FindFieldAfterScan(absl::string_view name,
                                        size_t* hint) const;

  // Built by linking for maps with many fields.
  absl::flat_hash_map<std::string, size_t> index;
  // Built by linking: per field, its name's length and first byte, packed,
  // so FindFieldFrom scans a compact array instead of the fields.
  std::vector<uint32_t> name_tags;
  // Built by linking: the fields that declare a default.
  std::vector<const StructField*> defaulted_fields;
  // Built by linking: whether an immutability marker sits on a reference
  // anywhere below (the fields, the element type, and what they contain);
  // when not, nothing in a value of this map can violate one.
  bool markers_below = false;
  // Built by linking: false when no value of this map can hold an
  // associative list anywhere below it (whose items validation checks for
  // duplicates), whatever the references on the way say; true until then.
  bool assoc_below = true;
};

namespace internal {

// A field name's length and first byte, packed (0 for the empty name): what
// MapType::name_tags holds per field.
inline uint32_t NameTag(absl::string_view name) {
  if (name.empty()) return 0;
  return static_cast<uint32_t>(name.size() << 8) |
         static_cast<unsigned char>(name[0]);
}

}  // namespace internal

// Inline: walks over an object's entries call them once per entry, and a
// call's register saving cost as much as the scan.
__attribute__((always_inline)) inline const StructField*
MapType::FindFieldFrom(absl::string_view name, size_t* hint) const {
  // Objects skip many declared fields, so the scan reaches far; a step that
  // cannot match costs a length and a first-byte compare.
  constexpr size_t kScan = 32;
  // Maps of entries alone (a CRD's additionalProperties, labels) declare
  // no fields: nothing to look up.
  if (fields.empty()) return nullptr;
  if (name_tags.size() == fields.size() && !name.empty()) {
    const uint32_t tag = internal::NameTag(name);
    const size_t end = std::min(fields.size(), *hint + kScan);
    for (size_t i = *hint; i < end; ++i) {
      if (name_tags[i] == tag &&
          internal::SameBytes(fields[i].name.data(), name.data(),
                              name.size())) {
        *hint = i + 1;
        return &fields[i];
      }
    }
  }
  return FindFieldAfterScan(name, hint);
}

__attribute__((always_inline)) inline const Atom* MapType::EntryAtomFrom(
    absl::string_view name, size_t* hint) const {
  if (const StructField* f = FindFieldFrom(name, hint)) return f->type.resolved;
  return element_type ? element_type->resolved : nullptr;
}

struct ListType {
  TypeRef element_type;
  ElementRelationship element_relationship = ElementRelationship::kAtomic;
  std::vector<std::string> keys;
  // Built by linking: as MapType::markers_below, for the elements.
  bool markers_below = false;
  // Built by linking: as MapType::assoc_below, for this list and its
  // elements.
  bool assoc_below = true;

  bool IsAssociative() const {
    return element_relationship == ElementRelationship::kAssociative;
  }
};

struct Atom {
  std::optional<ScalarType> scalar;
  std::shared_ptr<ListType> list;
  std::shared_ptr<MapType> map;
  // Set on atoms derived for a reference that overrides the relationship:
  // applies to the map when there is one, else to the list.
  std::optional<ElementRelationship> relationship_override;

  bool Empty() const { return !scalar && !list && !map; }
  ElementRelationship list_relationship() const {
    return relationship_override && !map ? *relationship_override
                                         : list->element_relationship;
  }
  ElementRelationship map_relationship() const {
    return relationship_override ? *relationship_override
                                 : map->element_relationship;
  }
  bool IsAtomicList() const {
    return list_relationship() == ElementRelationship::kAtomic;
  }
  bool IsAssociativeList() const {
    return list_relationship() == ElementRelationship::kAssociative;
  }
  bool IsAtomicMap() const {
    return map_relationship() == ElementRelationship::kAtomic;
  }
};

struct TypeDef {
  std::string name;
  Atom atom;
};

// A copy of a type definition that shares nothing with it (its lists, maps
// and inline types are copied too) and is not linked (what linking built
// is left out), to go into another schema through Schema::Build.
TypeDef CopyTypeDef(const TypeDef& def);

class Schema {
 public:
  // Not copied: handed out as shared_ptr<const Schema> (its index views
  // its own names).
  Schema(const Schema&) = delete;
  Schema& operator=(const Schema&) = delete;

  // Builds a schema from type definitions: checks them and resolves every
  // reference. Errors name the type and the problem.
  static absl::StatusOr<std::shared_ptr<const Schema>> Build(
      std::vector<TypeDef> types);

  // Parses the SMD schema YAML (`types: [...]`, the format of
  // sigs.k8s.io/structured-merge-diff's typed.NewParser).
  static absl::StatusOr<std::shared_ptr<const Schema>> ParseSmd(
      absl::string_view yaml);

  // The type definitions of SMD schema YAML, not linked: what Build takes.
  static absl::StatusOr<std::vector<TypeDef>> ParseSmdTypes(
      absl::string_view yaml);

  // The named type's atom, or nullptr.
  const Atom* Find(absl::string_view name) const;
  // The type definitions. Those of a schema a GrowingSchema made share
  // their lists and maps with it: take deep copies (CopyTypeDef) to build
  // other schemas from them, as from any schema.
  const std::deque<TypeDef>& types() const { return types_; }

  // Whether any node declares a default, or an immutability marker; the
  // operations skip those steps entirely when not.
  bool has_defaults() const { return has_defaults_; }
  // Unique among the schemas of this process (never reused).
  uint64_t id() const { return id_; }
  bool has_immutability() const { return has_immutability_; }

 private:
  friend class GrowingSchema;

  Schema() = default;
  absl::Status Link();
  // `ref` is at `parent`.`step` (a field's name, or "elementType").
  absl::Status LinkRef(TypeRef& ref, absl::string_view parent,
                       absl::string_view step);
  absl::Status LinkAtom(Atom& atom, absl::string_view where);
  // The maps and lists of types_[first...] and of the types inlined in them.
  void CollectMapsAndLists(size_t first, std::vector<MapType*>* maps,
                           std::vector<ListType*>* lists);
  // Computes markers_below (assoc_below) for the maps and lists of
  // types_[first...] (those of earlier types are final: a type never refers
  // to a later group).
  void MarkImmutabilityBelow(size_t first = 0);
  void MarkAssociativeBelow(size_t first = 0);

  std::deque<TypeDef> types_;
  // Keys view the names in types_ (a deque: they stay where they are).
  absl::flat_hash_map<absl::string_view, size_t> by_name_;
  // Atoms created for references that override a relationship.
  std::deque<Atom> derived_;
  // A view's atoms, by the index of their type: those of the GrowingSchema
  // that made it (`base_` keeps it alive). Empty for other schemas, whose
  // atoms are their own types'.
  std::vector<const Atom*> find_atoms_;
  std::shared_ptr<const Schema> base_;
  bool has_defaults_ = false;
  uint64_t id_ = 0;
  bool has_immutability_ = false;
};

// A schema that grows by closed groups of types, for a large catalog of
// which a process uses a few parts that overlap (the embedded Kubernetes
// schema: kinds share ObjectMeta, PodSpec, ...). Each type is linked once,
// when its group is added, and never changes after; View makes an ordinary
// Schema of some of the types that shares their definitions instead of
// copying them, so that the schemas of many kinds cost about what their
// union does.
//
// A view answers Find with this schema's atoms, so walks through any view
// reach the same atoms for the same type. Views stay valid as the schema
// grows, and keep it alive.
//
// Thread safety: Add, Has and View must not run concurrently with each
// other (callers hold a lock); the views are immutable Schemas, safe to use
// from any thread while the schema grows.
//
// Example:
//   GrowingSchema all;
//   all.Add(closure_of_deployment);        // every type they refer to is
//   all.Add(types_of_service_not_added);   // added already or among them
//   absl::StatusOr<std::shared_ptr<const Schema>> s = all.View(names);
class GrowingSchema {
 public:
  GrowingSchema();

  // Adds `types` (their names new) and links them: each reference must name
  // a type added before or among them. On an error (as Schema::Build's)
  // nothing is added.
  absl::Status Add(std::vector<TypeDef> types);
  bool Has(absl::string_view name) const;
  // A schema of the named types (all added, each once), in that order.
  // The names must be closed: every type they refer to is among them.
  absl::StatusOr<std::shared_ptr<const Schema>> View(
      absl::Span<const absl::string_view> names) const;

 private:
  std::shared_ptr<Schema> all_;
  // Per type of all_: whether its definition declares a default, or an
  // immutability marker (a view has one when any of its types does).
  std::vector<bool> has_defaults_;
  std::vector<bool> has_immutability_;
  // Per type: the types its definition names (indexes into all_), for
  // View to check that its names are closed.
  std::vector<std::vector<uint32_t>> refs_;
};

// Writes the schema back in the SMD YAML format (with smdx's extensions:
// `nullable`, `default` on type references, immutability markers), so that
// ParseSmd(SchemaToSmdYaml(s)) describes the same types.
std::string SchemaToSmdYaml(const Schema& schema);

}  // namespace smdx

#endif  // SMDX_SCHEMA_SCHEMA_H_
