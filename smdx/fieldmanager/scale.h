// Requests to the scale subresource, the way the apiserver runs them.
//
// The apiserver does not run a write to /scale on the resource itself. Its
// registry (scaleUpdatedObjectInfo in each scalable kind's storage):
//  1. builds the Scale (autoscaling/v1) the resource stands for: name,
//     namespace, uid, resourceVersion and creationTimestamp; spec.replicas
//     (left out when 0); status.replicas and status.selector (the label
//     selector as a string, left out when empty), as the typed Scale
//     encodes them;
//  2. gives it the resource's managedFields entries that own the replicas
//     field, as autoscaling/v1 entries owning .spec.replicas, with their
//     identity keys and times (ScaleHandler.ToSubresource);
//  3. runs the request on that Scale through the Scale endpoint's own field
//     manager (no reset fields);
//  4. copies spec.replicas back into the resource (0 when the Scale has
//     none) and merges the Scale's entries into the resource's
//     (ScaleHandler.ToParent): an entry at an apiVersion the resource does
//     not map is dropped; one that does not own the replicas field stays;
//     one that owns it and is still on the Scale stays as it was; one that
//     is no longer there loses the field (and goes when that was all); a
//     Scale entry new to the resource owns the replicas field at the
//     request's apiVersion and takes the resource's time for its key (none
//     when the resource had no such key: an Update entry's key names
//     autoscaling/v1 on the Scale and so never matches). ToParent writes
//     the entries through an unstructured object, so every entry's
//     fieldsV1 comes back as encoding/json writes a map: keys in byte
//     order (`k:{"port":443}` before `k:{"port":80}`, which
//     structured-merge-diff's encoding orders by value). For a built-in
//     kind those are the bytes stored, and the registry's no-op check
//     compares them (IgnoreManagedFieldsTimestampsTransformer): a write
//     that changes nothing keeps the live times only when every entry's
//     fieldsV1 was in that order already.
//
// FieldManager (field_manager.h) does all of this for subresource "scale".
// The request body is a Scale, or, for convenience, an object of the
// resource's own apiVersion and kind: an applied one becomes the Scale of
// its name, namespace and replicas, a written one the live Scale with its
// replicas.
//
// A custom resource's scale subresource takes no apply that changes the
// Scale: Kubernetes 1.37 answers 500 "failed to convert new object (NS/NAME;
// autoscaling/v1, Kind=Scale) to proper version: request to convert CR to an
// invalid group/version: autoscaling/v1". Its structured-merge manager
// converts the merged Scale, which is unstructured, to the hub version
// (managedfields/internal/structuredmerge.go, toVersioned after
// TypedToObject), and the apiextensions-apiserver's crConverter converts
// only a typed Scale as a Scale (apiserver/conversion/converter.go,
// ConvertToVersion). Nor does it take an apply, changing or not, while no
// entry of the resource owns its replicas field (the Scale then has no
// managedFields): the apply first records the Scale's fields as an update
// by "before-first-apply" from an empty Scale
// (managedfields/internal/skipnonapplied.go), which the objectCreater
// makes unstructured, and converting that fails the same way, with the
// message "failed to create manager for existing fields: failed to convert
// live object (/; autoscaling/v1, Kind=Scale) to proper version: ...". An
// apply that changes nothing while some entry owns the replicas, and every
// update, pass. smdx answers the same (kInternal), with custom_resource
// set, and, as the apiserver, before it checks that the applied Scale
// has no managedFields.
//
// A custom resource without its replicas field (which only an apply or
// update that left it out makes: the resource's validation takes no
// other value than a non-negative integer there) has no Scale to read:
// GET answers 500 "the spec replicas field ".spec.replicas" does not
// exist". A write to the Scale then sees the smallest int32 as the live
// replicas, which the registry puts there to mark them never set, and it
// refuses a Scale that still has them after the request (400 "the spec
// replicas field ".spec.replicas" cannot be empty": an apply that does not
// name the replicas, or that value written). So a write that leaves the
// replicas out (0, which the typed Scale omits) takes them from their
// owners, as a removal. Negative replicas are the resource's own
// validation error, `Kind.group "name" is invalid: .spec.replicas:
// Invalid value: -1: should be a non-negative integer`
// (apiextensions-apiserver, registry/customresource/etcd.go and
// validator.go).
//
// What is not modelled: the Scale's status for kinds other than the four
// built-in ones (a custom resource's comes from its CRD's statusReplicasPath
// and labelSelectorPath; it never reaches the resource), and the checks of
// a label selector's keys and values (a stored object's selector has passed
// validation). An unknown selector operator fails the request with the
// apiserver's message, as it does there.
#ifndef SMDX_FIELDMANAGER_SCALE_H_
#define SMDX_FIELDMANAGER_SCALE_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "smdx/fieldmanager/managed_fields.h"
#include "smdx/value/value.h"

namespace smdx {

// Per apiVersion of a resource, the field names of its replicas field (an
// empty path: that version has no scale subresource).
using ReplicasPaths = std::map<std::string, std::vector<std::string>>;

// The replicas paths the apiserver maps for a built-in kind with a scale
// subresource (Deployment, StatefulSet, ReplicaSet, ReplicationController),
// whatever `api_version` of it; empty for any other kind.
ReplicasPaths BuiltinReplicasPaths(absl::string_view api_version,
                                   absl::string_view kind);

namespace internal {

inline constexpr absl::string_view kScaleApiVersion = "autoscaling/v1";
inline constexpr absl::string_view kScaleKind = "Scale";
// The replicas of a custom resource's Scale while the resource has no
// replicas field: the smallest int32 (scale.h).
inline constexpr int64_t kUnsetCustomResourceReplicas = -2147483648;

// The value at a path of field names in `v`, or nullptr.
const Value* ValueAt(const Value& v, const std::vector<std::string>& path);
// Sets the value at `path` in `*v` (null: removes it), making the maps on
// the way; nothing when a non-map is on the way.
void SetValueAt(Value* v, const std::vector<std::string>& path,
                const Value* value);

// The Scale the resource `parent` stands for (step 1), without
// managedFields. `replicas` is the replicas path at the parent's
// apiVersion; the status is filled for the built-in kinds only. Fails
// (InvalidArgument, the apiserver's message) on an unknown selector
// operator.
absl::StatusOr<Value> ScaleOf(const Value& parent,
                              const std::vector<std::string>& replicas,
                              absl::string_view kind);

// A written Scale as the apiserver reads it into its typed Scale: spec and
// status are there, spec.replicas 0 is left out and status.replicas is
// there (0 when absent), an empty status.selector is left out.
Value AsTypedScale(Value scale);

// A label selector (matchLabels, matchExpressions) as the apiserver prints
// it: requirements sorted by key, `k=v`, `k in (a,b)`, `k notin (a,b)`, `k`,
// `!k`, joined by commas. Null or empty selects everything: "".
absl::StatusOr<std::string> LabelSelectorString(const Value& selector);

// Step 2: the entries of `parent` that own the replicas field at their
// apiVersion, as Scale entries.
ManagedState ScaleEntries(const ManagedState& parent,
                          const ReplicasPaths& paths);

// Step 4: `scale`'s entries merged into `parent`'s; `group_version` is the
// request's apiVersion of the resource.
ManagedState MergeScaleEntries(const ManagedState& parent,
                               const ManagedState& scale,
                               const ReplicasPaths& paths,
                               const std::string& group_version);

// Step 4, as stored: the keys of every fieldsV1 map in `object`'s
// managedFields put in byte order, recursively (encoding/json's order).
void SortFieldsV1AsEncodingJson(Value* object);

}  // namespace internal
}  // namespace smdx

#endif  // SMDX_FIELDMANAGER_SCALE_H_
