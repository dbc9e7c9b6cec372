// Non-apply patches (kubectl patch --type strategic|merge|json, a
// controller's Patch with StrategicMergePatchType, MergePatchType or
// JSONPatchType) as the apiserver's patch handler runs them: the patch
// applied to the stored object as the request's version encodes it
// (value/patch.h, json-patch.v4's reading; value/strategic_patch.h with
// the Go types' tags, kubetypes/strategic_patch_schema.h), the result
// checked as the handler checks it, then written as an update by the
// manager (FieldManager::Update: decoding, defaults, ownership).
//
// A strategic merge patch needs the kind's Go type: a custom resource
// (options().custom_resource) or a type the built-in API lacks is refused
// (kBadRequest; the apiserver's 415 names the patch types it takes) before
// anything else. Its errors are the handler's: kBadRequest for a malformed
// directive, kInvalid for a list of lists, kInternal for what it answers
// 500 (a field the Go type lacks, a merge key missing, ...).
//
// The handler's checks: the result is an object that decodes (else
// kInvalid, the apiserver's 422), named as the object patched (kBadRequest: "the name of
// the object (x) does not match the name on the URL (y)"), in its
// namespace (a result without one is put back in it; another is
// kBadRequest). A patch needs a live object (the apiserver's 404, here
// kBadRequest), and is malformed (kBadRequest, 400), does not apply
// (kInvalid, 422) or is past a limit (kBadRequest) as value/patch.h says.
// On the scale subresource (with scale_replicas_paths) a patch applies to
// the Scale the registry's GET returns (autoscaling/v1, with the entries
// that own its replicas), and the Scale it makes is written as an update
// of the Scale is; a custom resource without its replicas field has no
// Scale (kInternal, the apiserver's 500).
//
// A patch that changes the resourceVersion or the uid is refused as
// FieldManager::Update says (FieldManagerOptions::builtin_defaults).
// Not modelled: field validation other than the default (Warn).
//
// Example:
//   FieldManagerResult r = Patch(*fm, live, *ParseJson(R"([
//       {"op": "add", "path": "/metadata/labels/tier", "value": "web"}])"),
//       PatchType::kJson, "my-controller");
#ifndef SMDX_FIELDMANAGER_PATCH_H_
#define SMDX_FIELDMANAGER_PATCH_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "smdx/fieldmanager/field_manager.h"
#include "smdx/value/strategic_patch.h"
#include "smdx/value/value.h"

namespace smdx {

enum class PatchType {
  kStrategic,  // application/strategic-merge-patch+json
  kMerge,      // application/merge-patch+json (RFC 7386)
  kJson,       // application/json-patch+json (RFC 6902)
};

// "strategic", "merge" or "json" (kubectl patch's --type names);
// InvalidArgument else.
absl::StatusOr<PatchType> ParsePatchType(absl::string_view name);

// The Go type's tags a strategic merge patch to `fm`'s resource reads
// (the Scale's on the scale subresource); nullptr for a custom resource or
// a type the built-in API lacks.
const StrategicPatchSchema* StrategicPatchSchemaOf(const FieldManager& fm);

// The patch of `live` (the stored object; null: none) by `manager`.
FieldManagerResult Patch(const FieldManager& fm, const Value& live,
                         const Value& patch, PatchType type,
                         absl::string_view manager);

}  // namespace smdx

#endif  // SMDX_FIELDMANAGER_PATCH_H_
