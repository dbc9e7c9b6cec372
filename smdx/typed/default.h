// Structural defaulting and pruning, as the apiserver does for custom
// resources (the CRD defaulting KEP, amended by KEP-1929).
//
// Pruning drops map fields the schema does not declare (maps with an
// element type, untyped data and x-kubernetes-preserve-unknown-fields keep
// theirs). Defaulting then walks the value top-down: a declared field that
// is absent takes its default (a deep copy), then the walk continues inside
// it, so an object's default is completed by its fields' defaults. Explicit
// values are kept, empty lists, maps, zero numbers and empty strings
// included. `null` follows KEP-1929: a null field (or map value) that is not
// nullable takes its default, or is removed when there is none; a null list
// item takes the items' default, or stays null (and fails validation unless
// nullable). Only declared places lose their nulls (map values with a
// schema, int-or-string included): undeclared fields kept by
// x-kubernetes-preserve-unknown-fields and the values of
// additionalProperties: true (untyped values) keep them at every depth,
// embedded resources included, while declared fields below them follow the
// rules above.
#ifndef SMDX_TYPED_DEFAULT_H_
#define SMDX_TYPED_DEFAULT_H_

#include <optional>

#include "smdx/typed/typed.h"

namespace smdx {

// What the root itself defaults to when it is absent or null, and whether
// the root may be null (the root schema node of an OpenAPI type).
struct RootNode {
  std::optional<Value> default_value;
  bool nullable = false;
};

// `v` with defaults applied. `v` may be null (an absent object). Nodes of
// `v` that no other value shares are changed in place (pass a value that is
// moved in, e.g. a fresh merge result, to save their copies).
Value ApplyDefaults(const Type& type, Value v, const RootNode& root = {});

// The same for a new version of an object whose previous version was
// already defaulted: subtrees `v` shares with `previous` (the same list or
// map node) are skipped, so the cost follows the size of the change.
Value ApplyDefaultsIncremental(const Type& type, Value v,
                               const Value& previous);

// `v` without the map fields the schema does not declare.
Value PruneUndeclared(const Type& type, const Value& v);

}  // namespace smdx

#endif  // SMDX_TYPED_DEFAULT_H_
