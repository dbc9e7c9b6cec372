// Kubernetes resource quantities (k8s.io/apimachinery/pkg/api/resource) as
// the apiserver's decoding leaves them: parsed (ParseQuantity, which rounds
// up below a nanounit) and written back in canonical form (Quantity.String:
// "1000m" is "1", "1024Mi" is "1Gi", "0.5" is "500m"). Internal to
// kubetypes/.
#ifndef SMDX_KUBETYPES_INTERNAL_QUANTITY_H_
#define SMDX_KUBETYPES_INTERNAL_QUANTITY_H_

#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "smdx/value/value.h"

namespace smdx::internal {

// The canonical form of the quantity `v` (a string, or a number as JSON
// holds it), or nullopt when it is no quantity (the apiserver refuses the
// request; smdx leaves the value to validation). With `round_up_milli`,
// the value is first rounded up to a thousandth (SetDefaults_ResourceList,
// for the values of resource lists).
std::optional<std::string> CanonicalQuantity(const Value& v,
                                             bool round_up_milli = false);

}  // namespace smdx::internal

#endif  // SMDX_KUBETYPES_INTERNAL_QUANTITY_H_
