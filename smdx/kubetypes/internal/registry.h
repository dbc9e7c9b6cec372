// What the registry strategies' PrepareForCreate and PrepareForUpdate and
// the admission plugins of a default kube-apiserver v1.37 set on a created
// or updated object of a built-in kind, after the field manager (so no
// manager owns it), where it depends on the object (and the live one)
// alone. Internal to kubetypes/ (BuiltinKind::PrepareForCreate and
// PrepareForUpdate).
#ifndef SMDX_KUBETYPES_INTERNAL_REGISTRY_H_
#define SMDX_KUBETYPES_INTERNAL_REGISTRY_H_

#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "smdx/value/value.h"

namespace smdx::internal {

// `request` is the object as the request gave it, before decoding (see
// BuiltinKind::PrepareForCreate).
// The fields of disabled features go first (disabled_fields.h), and a
// PersistentVolumeClaim's dataSource and dataSourceRef are settled as its
// strategy does (one fills the other; a namespaced reference or a
// dataSource that is no claim or snapshot goes). `now`: the server's
// clock, for what the strategy stamps (a scheduling-gated pod's
// condition; none: nothing is stamped).
// `status_store`: the create is the status store's (StatusWriteCreates):
// the main strategy's PrepareForCreate without the kind's create hooks (a
// Service's allocations). (Admission plugins skip subresources; none of
// those here acts on the kinds whose status store creates.)
Value PrepareForCreate(absl::string_view api_version, absl::string_view kind,
                       Value object, const Value& request,
                       const std::optional<absl::Time>& now = std::nullopt,
                       bool status_store = false);

// Whether a write to the status subresource of an object that does not
// exist creates it (an apply when `apply`, else a PUT). Most status
// endpoints refuse: their StatusREST.Update passes forceAllowCreate=false
// to the store, and their status strategies do not AllowCreateOnUpdate. A
// ValidatingAdmissionPolicy's passes the apply's forceAllowCreate on; a
// Service's strategy allows create on update, so its status store creates
// from either (kube-apiserver 1.37's registries).
bool StatusWriteCreates(absl::string_view api_version, absl::string_view kind,
                        bool apply);

// `object` (an updated object, after the field manager, as stored) with the
// metadata.generation the registry gives it: the live object's
// (BeforeUpdate), plus one where the strategy's PrepareForUpdate counts a
// change (of the spec, for most kinds); the rest of the metadata
// BeforeUpdate keeps (the live uid and resourceVersion where the request
// sends none, the live creationTimestamp and deletionTimestamp, the live
// deletionGracePeriodSeconds where it sends none); a DaemonSet's template generation
// annotation likewise; a CRD's storage version joins its stored versions
// (not on a write to the status subresource, `status_write`).
// `empties_differ`: the request held an empty slice or map where the
// strategy compares with reflect.DeepEqual (ReflectComparedField), which
// counts as a change. `now`: the server's clock, which a DeviceTaintRule's
// strategy stamps into its taint's timeAdded when the effect changes and
// the request kept the time (none: nothing is stamped).
// `subresource`: the endpoint when it is neither the main resource nor
// status: a CSR's "approval"; a Pod's "resize", which keeps the live pod
// but its containers' resources and resize policies and its pod-level
// resources, and "ephemeralcontainers", which keeps it but its ephemeral
// containers (each as the strategy's ResetObjectMetaForStatus, with the
// live labels, annotations, finalizers and owners).
// The fields of disabled features go here too, unless the live object uses
// them (before the generation counts, but for a ResourceSlice, whose
// strategy counts first); a claim's data sources as at create, unless the
// live claim has one.
Value PrepareForUpdate(absl::string_view api_version, absl::string_view kind,
                       Value object, const Value& live, bool status_write,
                       bool empties_differ,
                       const std::optional<absl::Time>& now,
                       absl::string_view subresource = "");

// `t` as a metav1.Time is written: RFC 3339 in UTC, to the second (the
// fraction truncated, as the defaulters that stamp the clock do).
std::string FormatGoTime(absl::Time t);

// The top-level field whose change the kind's strategy counts with
// reflect.DeepEqual rather than apiequality.Semantic's: there a nil slice
// or map (what storage, protobuf, reads back for an empty one) differs
// from an empty one (what a request's `[]`, `{}` or "" decodes to). The
// webhook configurations' "webhooks" and NetworkPolicy's "spec"; "" for
// the other kinds.
absl::string_view ReflectComparedField(absl::string_view api_version,
                                       absl::string_view kind);

// `object`, a custom resource after the field manager, with the
// metadata.generation the apiextensions-apiserver's strategy gives it: 1
// at create; on update the live one, one more when anything but the
// metadata changed (a write to the status subresource, `status_write`,
// changes nothing else and counts nothing), and the metadata
// BeforeUpdate keeps, as PrepareForUpdate says.
Value CustomResourceGeneration(Value object, const Value& live, bool create,
                               bool status_write);

// A pod's QoS class (k8s.io/kubernetes/pkg/apis/core/helper/qos
// ComputePodQOS) from its containers' cpu and memory requests and limits.
std::string PodQosClass(const Value& pod);

}  // namespace smdx::internal

#endif  // SMDX_KUBETYPES_INTERNAL_REGISTRY_H_
