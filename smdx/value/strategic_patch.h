// Strategic merge patches (application/strategic-merge-patch+json, kubectl
// patch's default type) as the Kubernetes apiserver applies them to a
// built-in object: k8s.io/apimachinery's strategicpatch (v0.37.2),
// StrategicMergeMapPatch, with its readings kept.
//
// A patch object merges into the object key by key, as a merge patch
// does (null deletes), except where the Go type's tags say otherwise:
//  - a list whose field has patchStrategy "merge" merges: items that are
//    objects by their patchMergeKey (a patch item updates the item with the
//    same key, or is appended), scalars as a set; other lists and fields
//    with patchStrategy "replace" are replaced;
//  - directives: `$patch: replace` (an object replaced whole, or in a list
//    the list), `$patch: delete` (an object emptied, a list item removed by
//    its key), `$retainKeys: [...]` (keys not listed are cleared),
//    `$deleteFromPrimitiveList/<field>: [...]` (scalars removed from a
//    list), `$setElementOrder/<field>: [...]` (the merged list's order);
//  - a merged list keeps the patch's order for the patch's items and the
//    object's for the others, interleaved as strategicpatch does.
// A value that lands where nothing was, or on a value of another JSON type
// (an integer and a float are two), is set with its nulls and its `$patch`
// objects dropped; a new item of a merged list is appended as it is.
//
// strategicpatch walks Go maps, whose order is random; where the order of
// a patch's keys matters (a field and its `$deleteFromPrimitiveList` in
// one patch, which error comes first) they are taken in the patch's order.
//
// Errors name where they are (`.spec.containers[name="web"].env: ...`),
// with the apiserver's codes: InvalidArgument for a malformed
// directive (its 400: bad $retainKeys, $setElementOrder or
// $deleteFromPrimitiveList), FailedPrecondition for a list of lists (its
// 422), Internal for what the apiserver answers 500 (an unknown field met
// by an object, a merge key missing, an unknown `$patch`, and the patches
// on which strategicpatch's Go code panics).
//
// Example:
//   absl::StatusOr<Value> v = ApplyStrategicMergePatch(live, patch, *schema);
#ifndef SMDX_VALUE_STRATEGIC_PATCH_H_
#define SMDX_VALUE_STRATEGIC_PATCH_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "smdx/value/value.h"

namespace smdx {

// What strategicpatch reads of a Go type (its LookupPatchMeta): a node per
// type, reached field by field. Nodes outlive the patches that use them.
class StrategicPatchSchema {
 public:
  struct Field {
    // Where the field leads: its type for ForMap, its items' for ForList.
    const StrategicPatchSchema* schema = nullptr;
    // The patchStrategy tag split at ',' (an empty tag is {""}).
    std::vector<std::string> strategies;
    std::string merge_key;  // the patchMergeKey tag
  };

  virtual ~StrategicPatchSchema() = default;
  // The field `key` of this type, for a patch object that meets an object
  // there (LookupPatchMetadataForStruct). Errors: Internal.
  virtual absl::StatusOr<Field> ForMap(absl::string_view key) const = 0;
  // The same for a list that meets a list (LookupPatchMetadataForSlice).
  virtual absl::StatusOr<Field> ForList(absl::string_view key) const = 0;
  // The Go type's name, for errors ("" for unnamed types).
  virtual std::string Name() const = 0;
};

// `doc` (an object; else InvalidArgument) patched by `patch` (an object;
// null patches nothing).
absl::StatusOr<Value> ApplyStrategicMergePatch(
    const Value& doc, const Value& patch, const StrategicPatchSchema& schema);

// Making a patch, as a client does (strategic_diff.cc): the documents are
// objects (null: none, `{}`), read as Go's encoding/json reads them (every
// number a float64: 1 and 1.0 are equal, lists of scalars sort by their
// `%v` text), and the patch's numbers are whole where they are
// (json.Marshal writes 2.0 as 2).
//
// The patch that makes `original` into `modified`
// (strategicpatch.CreateTwoWayMergePatch): changed and added fields, nulls
// for dropped ones, `$patch: delete` items and `$deleteFromPrimitiveList`
// for items dropped from merged lists, `$setElementOrder` for merged lists
// that changed, `$retainKeys` where the tags ask for it.
absl::StatusOr<Value> CreateTwoWayStrategicPatch(
    const Value& original, const Value& modified,
    const StrategicPatchSchema& schema);

// The patch client-side `kubectl apply` sends
// (strategicpatch.CreateThreeWayMergePatch, overwriting): what `modified`
// (the new configuration) changes or adds against `current` (the live
// object), and what it drops from `original` (the configuration applied
// before), merged into one. Fields the live object has and neither
// configuration mentions are left alone.
//
// Errors are the client's: a list item without its merge key
// (`.spec.containers: map: {...} does not contain declared merge key:
// name`), items of two types in one list, a field the Go type lacks whose
// values differ.
//
// Example:
//   absl::StatusOr<Value> patch = CreateThreeWayStrategicPatch(
//       last_applied, manifest, live, *schema);
absl::StatusOr<Value> CreateThreeWayStrategicPatch(
    const Value& original, const Value& modified, const Value& current,
    const StrategicPatchSchema& schema);

}  // namespace smdx

#endif  // SMDX_VALUE_STRATEGIC_PATCH_H_
