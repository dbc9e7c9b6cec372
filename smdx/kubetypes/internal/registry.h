// What the registry strategies' PrepareForCreate and the admission plugins
// of a default kube-apiserver v1.37 set on a created object of a built-in
// kind, after the field manager (so no manager owns it), where it depends
// on the object alone. Internal to kubetypes/ (BuiltinKind::PrepareForCreate).
#ifndef SMDX_KUBETYPES_INTERNAL_REGISTRY_H_
#define SMDX_KUBETYPES_INTERNAL_REGISTRY_H_

#include "absl/strings/string_view.h"
#include "smdx/value/value.h"

namespace smdx::internal {

// `request` is the object as the request gave it, before decoding (see
// BuiltinKind::PrepareForCreate).
Value PrepareForCreate(absl::string_view api_version, absl::string_view kind,
                       Value object, const Value& request);

// A pod's QoS class (k8s.io/kubernetes/pkg/apis/core/helper/qos
// ComputePodQOS) from its containers' cpu and memory requests and limits.
std::string PodQosClass(const Value& pod);

}  // namespace smdx::internal

#endif  // SMDX_KUBETYPES_INTERNAL_REGISTRY_H_
