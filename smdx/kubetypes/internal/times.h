// Kubernetes' metav1.Time and metav1.MicroTime as the apiserver's decoding
// leaves them: parsed as RFC 3339 (fractional seconds and any offset
// accepted) and written back in UTC, to the second (Time) or the
// microsecond (MicroTime); the zero time is null. Internal to kubetypes/.
#ifndef SMDX_KUBETYPES_INTERNAL_TIMES_H_
#define SMDX_KUBETYPES_INTERNAL_TIMES_H_

#include <optional>

#include "smdx/value/value.h"

namespace smdx::internal {

// The value `v` (a string) takes as a Time (`micro` false) or a MicroTime,
// or nullopt when `v` stays as it is: written that way already, or no time
// (the apiserver refuses the request; smdx leaves the value to validation).
std::optional<Value> CanonicalTime(const Value& v, bool micro);

}  // namespace smdx::internal

#endif  // SMDX_KUBETYPES_INTERNAL_TIMES_H_
