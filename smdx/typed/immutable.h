// Immutability: which changes from an old object to a new one the schema
// forbids (the immutable-fields KEP, x-kubernetes-immutable and friends).
//
//  - `immutable` on a node covers its whole subtree: while the node's parent
//    exists before and after, the node may not be set, removed or changed.
//    The violation names the outermost marked node.
//  - on list items or map values (`items` / `additionalProperties` carry the
//    marker): items and values may come and go, but one present before and
//    after may not change; each changed one is named.
//  - `immutableKeys` (maps with an element type, keyed lists): keys may not
//    be added or removed; values may change. `additionOnly` forbids removing
//    keys or items, `deletionOnly` adding them (also on sets). A set's item
//    is its own key: when items are objects or lists (atomic), a changed
//    item is its old value removed plus its new value added, each checked
//    and named by value (`v:{...}`).
//
// Members are matched before they are compared: atomic-list items by index,
// keyed-list items by key, set items by value, map entries by key. Sets
// compare ignoring order at any depth; every other comparison is strict:
// null, absent, {} and [] all differ, and so do 1 and 1.0.
#ifndef SMDX_TYPED_IMMUTABLE_H_
#define SMDX_TYPED_IMMUTABLE_H_

#include <vector>

#include "absl/status/status.h"
#include "smdx/fieldpath/path.h"
#include "smdx/typed/typed.h"

namespace smdx {

struct ImmutabilityViolation {
  Path path;
  std::string reason;  // e.g. "field is immutable", "key may not be added"
};

// The violations of changing `old_value` into `new_value`. An absent old
// object (creation) never violates anything.
std::vector<ImmutabilityViolation> CheckImmutability(const Type& type,
                                                     const Value& old_value,
                                                     const Value& new_value);

// One readable error for a non-empty list: `.spec.foo: field is immutable`.
absl::Status ImmutabilityError(
    const std::vector<ImmutabilityViolation>& violations);

// schema/markers.h's check for the type's root (Type::Named already ran
// it).
absl::Status CheckImmutabilityMarkers(const Type& type);

}  // namespace smdx

#endif  // SMDX_TYPED_IMMUTABLE_H_
