// The fields a kube-apiserver v1.37 strategy drops because the feature that
// owns them is off by default (and the few it always drops): the
// `dropDisabled...Fields` functions of pkg/api/* and pkg/registry/*, as
// data. Internal to kubetypes/ (registry.cc's PrepareForCreate and
// PrepareForUpdate).
#ifndef SMDX_KUBETYPES_INTERNAL_DISABLED_FIELDS_H_
#define SMDX_KUBETYPES_INTERNAL_DISABLED_FIELDS_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "smdx/value/value.h"

namespace smdx::internal {

// Drops from `object`, of the given kind, the fields of the features off in
// a default v1.37 apiserver: at create (`live` null) all of them; at update
// those of a feature the live object does not use yet (the strategies'
// "in use" checks: a feature whose field the live object holds, not null
// and not an empty list, keeps taking its fields). Also the legacy init
// container annotations of pods and pod templates, which go at every
// write, and a Node's config source and its status's config (dynamic
// kubelet configuration is gone; they go unless the live node has them).
// Nothing is written where nothing goes.
void DropDisabledFields(absl::string_view api_version, absl::string_view kind,
                        Value& object, const Value* live);

// The paths of the fields DropDisabledFields may drop from an object of the
// kind (none for most kinds), each as its segments: a field, "[]" (each
// item of a list) or "*" (each value of a map).
std::vector<std::vector<std::string>> DisabledFieldPaths(
    absl::string_view api_version, absl::string_view kind);

}  // namespace smdx::internal

#endif  // SMDX_KUBETYPES_INTERNAL_DISABLED_FIELDS_H_
