// The HorizontalPodAutoscaler between autoscaling/v1 and autoscaling/v2, as
// the apiserver's scheme converts it: through the internal version (v2's
// fields), without defaulting (pkg/apis/autoscaling/v1/conversion.go and
// v2/conversion.go). The apiserver's field manager converts objects so to
// compare them for managers recorded at the other version. Internal to
// kubetypes/.
//
// v1 says only a CPU utilization target and a current CPU utilization;
// what else v2 holds travels in v1 as round-trip annotations (defaulters.h:
// other metrics, behavior, current metrics, conditions). v1 to v2 reads
// them into fields and drops them; v2 to v1 writes them. The results are
// not through the Go types yet (BuiltinKind::ConvertTo does that).
#ifndef SMDX_KUBETYPES_INTERNAL_HPA_H_
#define SMDX_KUBETYPES_INTERNAL_HPA_H_

#include <optional>

#include "absl/strings/string_view.h"
#include "smdx/value/value.h"

namespace smdx::internal {

// Whether `key` is one of the round-trip annotations, which every
// conversion to the internal version drops
// (DropRoundTripHorizontalPodAutoscalerAnnotations: the four above and the
// two tolerances').
bool IsHpaRoundTripAnnotation(absl::string_view key);

// The list of structs the round-trip annotation `key` holds, as
// encoding/json decodes it into a slice (null: none); nullopt when there is
// no such annotation or it does not decode.
std::optional<List> HpaAnnotationList(const Map* annotations,
                                      const char* key);

// An autoscaling/v1 HorizontalPodAutoscaler as autoscaling/v2: the metrics
// are the annotation's other metrics (their v2 form) and then the CPU
// target, or 80% of CPU when there are none; the status's current metrics
// are the annotation's, else the current CPU utilization; behavior and
// conditions are the annotations'. An annotation that does not decode is
// left out, as the conversion ignores it.
Value HpaV1ToV2(const Value& v1);

// An autoscaling/v2 HorizontalPodAutoscaler as autoscaling/v1: the first
// CPU utilization target is the target and the other metrics go to their
// annotation; the last current CPU utilization is the status's, and every
// current metric goes to its annotation; behavior (as the internal type
// encodes it) and conditions go to theirs. The annotations' JSON is
// encoding/json's of the v1 types.
Value HpaV2ToV1(const Value& v2);

}  // namespace smdx::internal

#endif  // SMDX_KUBETYPES_INTERNAL_HPA_H_
