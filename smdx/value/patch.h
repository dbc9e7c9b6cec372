// JSON merge patches (RFC 7386) and JSON patches (RFC 6902) as the
// Kubernetes apiserver applies them: with gopkg.in/evanphx/json-patch.v4
// (v4.13.0), whose readings of the RFCs it keeps, quirks included.
//
// Merge patch: a null deletes its key; an object merges into an object;
// anything else replaces. Where a patch object lands on no object (a new
// key, a null, a scalar or a list), its nulls are dropped at every level of
// objects (a list's null items stay). The patch is an object: the
// apiserver refuses any other (with any field validation but Ignore).
//
// JSON patch: add, remove, replace, move, copy and test, in order, each on
// the document the ones before left. As json-patch.v4 reads them:
//  - a path is split at '/'; everything before its first '/' is ignored
//    ("a/b" is "/b"), and one without a '/' is missing; "~1" and "~0" in a
//    key are '/' and '~';
//  - list indexes are Go integers ("+1" and "01" too), negative ones count
//    from the end (-1 is the last item; for add, past it), "-" appends;
//  - add and replace of an object key set it either way (replace of a
//    missing key adds it); replace of "" replaces the document with an
//    object or list; remove and move need what they remove;
//  - copy of a missing object key copies null; a value left out is null;
//  - test of a missing key or null passes when its value is null or left
//    out; else values must be equal, objects key for key, lists item for
//    item. (json-patch.v4 compares scalars as their JSON text, so that 1.50
//    is not 1.5 and "\u0041" is not "A"; here they are compared as values,
//    integers apart from floats.)
//  - copies add up to at most max_copy_bytes of JSON (the apiserver's
//    3 MiB, --json-patch-max-copy-bytes), and a patch holds at most
//    kMaxJsonPatchOperations.
//
// Operations are objects (or null, an unknown operation) whose op, path
// and from are strings, as the apiserver decodes them first.
//
// Errors: InvalidArgument for a malformed patch (the apiserver's 400),
// FailedPrecondition for an operation that does not apply (its 422, in
// json-patch.v4's words), ResourceExhausted past a limit.
//
// Example:
//   absl::StatusOr<Value> v = ApplyMergePatch(live, *ParseJson(R"({
//     "metadata": {"labels": {"tier": null}}})"));
#ifndef SMDX_VALUE_PATCH_H_
#define SMDX_VALUE_PATCH_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "smdx/value/value.h"

namespace smdx {

// The apiserver's limit of operations in one JSON patch (413 past it).
inline constexpr size_t kMaxJsonPatchOperations = 10000;
// The apiserver's default limit of the bytes JSON patch copies add up to.
inline constexpr int64_t kDefaultJsonPatchMaxCopyBytes = int64_t{3} << 20;

absl::StatusOr<Value> ApplyMergePatch(const Value& doc, const Value& patch);

// The merge patch client-side `kubectl apply` sends for a kind it has no
// Go type of (a custom resource): k8s.io/apimachinery's
// jsonmergepatch.CreateThreeWayJSONMergePatch (v0.37.2). What `modified`
// (the new configuration) changes or adds against `current` (the live
// object), nulls dropped, merged with the nulls of what it drops from
// `original` (the configuration applied before). Lists are values: one
// that differs is sent whole. The documents are objects (null: none) read
// as encoding/json reads them, every number a float64 (1 equals 1.0); a
// whole number in the patch is an integer. InvalidArgument: a document
// that is no object; FailedPrecondition: a change and a deletion that
// conflict (json-patch's HasConflicts).
absl::StatusOr<Value> CreateThreeWayMergePatch(const Value& original,
                                               const Value& modified,
                                               const Value& current);

absl::StatusOr<Value> ApplyJsonPatch(
    const Value& doc, const Value& patch,
    int64_t max_copy_bytes = kDefaultJsonPatchMaxCopyBytes);

namespace internal {

// Drops the null entries of `v`'s objects at every level (a list's items
// stay, their objects pruned): what a merge patch and a strategic merge
// patch do to a value that lands where nothing was.
void DropNullEntries(Value* v);

}  // namespace internal

}  // namespace smdx

#endif  // SMDX_VALUE_PATCH_H_
