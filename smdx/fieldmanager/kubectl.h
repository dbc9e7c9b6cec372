// What client-side `kubectl apply` leaves in objects, which the field
// manager reads when kubectl moves to server-side apply.
#ifndef SMDX_FIELDMANAGER_KUBECTL_H_
#define SMDX_FIELDMANAGER_KUBECTL_H_

#include "absl/strings/string_view.h"

namespace smdx {

// The annotation client-side `kubectl apply` keeps its configuration in.
inline constexpr absl::string_view kLastAppliedAnnotation =
    "kubectl.kubernetes.io/last-applied-configuration";

}  // namespace smdx

#endif  // SMDX_FIELDMANAGER_KUBECTL_H_
