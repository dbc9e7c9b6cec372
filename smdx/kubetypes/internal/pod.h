// What the Pod strategy of a kube-apiserver v1.37 does to a written pod
// beyond its defaulters and the fields of disabled features
// (pkg/registry/core/pod/strategy.go), where it depends on the pod, the
// live one and the clock alone. Internal to kubetypes/ (registry.cc).
#ifndef SMDX_KUBETYPES_INTERNAL_POD_H_
#define SMDX_KUBETYPES_INTERNAL_POD_H_

#include <optional>

#include "absl/time/time.h"
#include "smdx/value/value.h"

namespace smdx::internal {

// The admission plugin DefaultTolerationSeconds (on by default, its flags
// at their defaults) comes first, at create and update: a pod that does
// not tolerate the NoExecute taints of a not-ready or an unreachable node
// gets a toleration of each for 300 s. Then
// PrepareForCreate, in its order: the status is {phase: Pending}; a pod
// with scheduling gates gets the PodScheduled=False condition of reason
// SchedulingGated, stamped with `now` (none: no time); the label keys of
// pod (anti-)affinity terms (matchLabelKeys, mismatchLabelKeys) and of
// topology spread constraints (matchLabelKeys) join their label selectors
// as In (NotIn) requirements on the pod's label values; a container's
// deprecated AppArmor annotation becomes its securityContext's
// appArmorProfile where it has none and the pod's profile differs; pod-level
// resources, where the pod sets some, are completed from the containers'
// (DefaultPodLevelResources: huge pages the containers limit, requests of
// cpu and memory the containers make, requests equal to the pod's limits,
// and limits of what every container limits, at least the pod's request);
// then the QoS class.
// (`request`: the pod as the request gave it, before decoding.)
void PodAtCreate(Value& pod, const Value& request,
                 const std::optional<absl::Time>& now);

// DefaultTolerationSeconds as at create, then PrepareForUpdate of the main
// resource: pod-level resources a request left out (a client that does not
// know them) are the live pod's.
void PodAtUpdate(Value& pod, const Value& live);

// The resize subresource's PrepareForUpdate (podResizeStrategy): the live
// pod, but its containers' and init containers' resources and resize
// policies (where the request has as many containers of the same names)
// and its pod-level resources, which the request leaves out or which are
// completed as at create; the metadata as a status write keeps it
// (ResetObjectMetaForStatus). The apiserver's field manager resets
// nothing there: the writer owns all it sent.
void PodResizeAtUpdate(Value& pod, const Value& live);

// The ephemeralcontainers subresource's PrepareForUpdate: the live pod but
// its ephemeral containers, the metadata as above.
void PodEphemeralContainersAtUpdate(Value& pod, const Value& live);

// The status subresource's PrepareForUpdate: an empty qosClass, DRA claim
// statuses left out (absent or null) and an observedGeneration of 0 (the
// status's, and each condition's, matched by type in order) are the live
// pod's.
void PodStatusAtUpdate(Value& pod, const Value& live);

}  // namespace smdx::internal

#endif  // SMDX_KUBETYPES_INTERNAL_POD_H_
