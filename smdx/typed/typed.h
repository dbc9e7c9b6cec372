// Typed operations: values read through a schema.
//
// A Type names the root of a value in a schema. With it, a value can be
// validated, turned into the set of fields it sets (ToFieldSet), compared
// with another value of the same type (Compare), merged with a partial value
// the way server-side apply merges a configuration into a live object
// (Merge), and pruned or projected by a field set (RemoveItems,
// ExtractItems). The rules are those of sigs.k8s.io/structured-merge-diff:
//
//  - granular maps are merged field by field; atomic maps are replaced;
//  - associative lists are merged item by item, items identified by their
//    key fields (schema defaults fill missing key fields, KEP-1929) or, for
//    sets, by their value; atomic lists are replaced; the merged order
//    follows the applied value for shared items;
//  - everything else is a leaf: the applied value wins.
//
// Except for Validate, the operations REQUIRE values that validated against
// the type (ValidateOptions decide whether duplicates are allowed).
//
// Depends on value/value.h, schema/ and fieldpath/.
#ifndef SMDX_TYPED_TYPED_H_
#define SMDX_TYPED_TYPED_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "smdx/fieldpath/set.h"
#include "smdx/schema/schema.h"
#include "smdx/value/limits.h"
#include "smdx/value/value.h"

namespace smdx {

// Deepest nesting the typed operations accept (the parsers enforce the same).
inline constexpr int kMaxValueDepth = 1000;

// A root type in a schema. Cheap to copy; shares the schema.
class Type {
 public:
  // The named type `name` of `schema`.
  static absl::StatusOr<Type> Named(std::shared_ptr<const Schema> schema,
                                    absl::string_view name);
  // The schema-less type: maps granular, lists atomic.
  static Type Deduced();

  const Schema& schema() const { return *schema_; }
  const std::shared_ptr<const Schema>& shared_schema() const { return schema_; }
  const Atom* root() const { return root_; }
  const std::string& name() const { return name_; }

 private:
  Type(std::shared_ptr<const Schema> schema, const Atom* root, std::string name)
      : schema_(std::move(schema)), root_(root), name_(std::move(name)) {}
  std::shared_ptr<const Schema> schema_;
  const Atom* root_;
  std::string name_;
};

struct ValidateOptions {
  // Duplicate items in associative lists and sets are errors unless set.
  // Server-side apply rejects them in applied configurations but tolerates
  // them in objects written by updates (as SMD's AllowDuplicates).
  bool allow_duplicates = false;
};

// Checks `v` against `type`. The error (InvalidArgument) lists every problem
// as `<path>: <what>`, e.g. `.spec.replicas: expected numeric, got "3"`.
absl::Status Validate(const Type& type, const Value& v,
                      ValidateOptions opts = {});
// A node of an object that a merge found identical to the node at the same
// place in another, valid object (MergeNotingSame): `node`, of type `atom`,
// `depth` levels below the root. What validates there validates here.
struct TrustedNode {
  const Value* node = nullptr;
  const Atom* atom = nullptr;
  size_t depth = 0;

  friend bool operator==(const TrustedNode& a, const TrustedNode& b) {
    return a.node == b.node && a.atom == b.atom && a.depth == b.depth;
  }
  template <typename H>
  friend H AbslHashValue(H h, const TrustedNode& t) {
    return H::combine(std::move(h), t.node, t.atom, t.depth);
  }
};

// Validate, taking the nodes of `v` in `trusted` as valid where they sit
// (the same node, of the same type at the same depth) without walking them,
// except for the one check an object written by an update is spared (see
// allow_duplicates): where such a node can hold an associative list or set,
// its duplicates are still looked for. For a caller that knows them valid:
// the nodes MergeNotingSame notes, for a left side that validated (with
// duplicates allowed or not). The result is Validate's when those nodes are
// valid.
absl::Status ValidateTrusting(const Type& type, const Value& v,
                              ValidateOptions opts,
                              const std::vector<TrustedNode>& trusted);

// The fields `v` sets: every leaf, every map field whose value is null or
// empty, every list item, every atomic list or map as one member.
Set ToFieldSet(const Type& type, const Value& v);
// Whether `v` holds an empty list that ToFieldSet walks into: one that is
// not atomic, outside atomic lists and maps (the one node with nothing
// below that yields no field at all). Where `v` does not fit the type, any
// empty list below counts.
bool HasEmptyGranularList(const Type& type, const Value& v);

struct Comparison {
  Set added;
  Set removed;
  Set modified;
  bool IsSame() const {
    return added.Empty() && removed.Empty() && modified.Empty();
  }
};

// What changed from `lhs` to `rhs`. Either may be null (absent object).
Comparison CompareFields(const Type& type, const Value* lhs, const Value* rhs);

// The apply merge of `rhs` (a partial configuration) into `lhs`.
// Either may be null; the result is null only when both are.
absl::StatusOr<Value> Merge(const Type& type, const Value* lhs,
                            const Value* rhs);
// Merge, for sides the caller validates (before or after: the Updater
// validates the configuration after the merge). Maps and lists below the
// root that are identical on both sides are taken whole from `lhs`,
// unwalked, so that nothing inside them is checked (Merge reports what its
// walk finds wrong there). Also notes in `same` (when given) the nodes of
// `rhs` whose merge is lhs's node at the same place, identical: the maps
// and lists taken whole, and the atomic ones.
absl::StatusOr<Value> MergeNotingSame(const Type& type, const Value* lhs,
                                      const Value* rhs,
                                      std::vector<TrustedNode>* same);

// `v` without the fields in `items` (a removed item or field goes with
// everything below it). A map or list the removal empties is null, as in
// SMD, list items included: `left_keyless_item`, when given, is set to
// whether a list with keys was left such an item, or one without a key
// field it had (its fields went, the item itself stayed), which SMD's
// next steps refuse.
Value RemoveItems(const Type& type, const Value& v, const Set& items,
                  bool* left_keyless_item = nullptr);
// Only the fields in `items` (and what lies below them).
Value ExtractItems(const Type& type, const Value& v, const Set& items);

// `set` plus, as members, every struct field (a field declared in the
// schema) that has children in `set`: owning `.spec.replicas` implies
// owning the `.spec` field itself, but not map keys or list items.
Set EnsureNamedFieldsAreMembers(const Type& type, const Set& set);

// A field set recorded under an older schema, adjusted to the current one:
// paths below a list or map that is now atomic collapse to it. Returns
// nullopt when nothing changes.
std::optional<Set> ReconcileFieldSetWithSchema(const Type& type,
                                               const Set& set);

// A managedFields entry's fieldsV1 value read as FieldsV1FromValue reads it
// (the same set, errors and `*canonical`), with `type`'s interned field
// names; `*reconciled` says whether ReconcileFieldSetWithSchema(type, set)
// returns nullopt for the set read, checked on the way: a set read with
// it true needs no reconcile against `type`.
absl::StatusOr<Set> FieldsV1FromValueFor(const Type& type, const Value& v,
                                         const Limits& limits, bool* canonical,
                                         bool* reconciled);

}  // namespace smdx

#endif  // SMDX_TYPED_TYPED_H_
