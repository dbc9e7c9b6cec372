// Kubernetes 1.37's defaulting of built-in types, as data and rules: the
// SetDefaults_* functions of k8s.io/kubernetes/pkg/apis/*/v1/defaults.go
// and the declarative `+default` markers of k8s.io/api, per Go type (by
// OpenAPI name). The generated defaulters call them top-down: an object's
// own defaulter first, then those of what it holds; builtin_kind.cc walks
// objects in the same order. The rules also hold what the conversion to the
// internal version and back does to a request body (a Secret's stringData,
// a DaemonSet's template generation annotation, ...). Internal to
// kubetypes/.
//
// Feature gates are those of a v1.37.2 apiserver with default flags:
// MaxUnavailableStatefulSet, SELinuxMountReadWriteOncePod, VolumeLimitScaling
// and ImageVolume are on, H2CContainerProbe (a probe's HTTP protocol) is off;
// with PodLevelResources
// and PodLevelResourcesFixDefaulting on, a pod's pod-level requests are not
// defaulted here (the registry does it at create).
#ifndef SMDX_KUBETYPES_INTERNAL_DEFAULTERS_H_
#define SMDX_KUBETYPES_INTERNAL_DEFAULTERS_H_

#include "absl/types/span.h"
#include "smdx/kubetypes/internal/go_types.h"
#include "smdx/value/value.h"

namespace smdx::internal {

// A field a defaulter sets when it is unset in Go's sense (IsGoUnset: nil
// for pointers, "" for strings, 0, empty slices and maps).
struct FieldDefault {
  const char* type;   // OpenAPI name of the Go struct
  const char* field;  // JSON name
  const char* value;  // JSON
};

// A defaulter that decides: it gets the struct's fields (already through
// the Go type) and the struct's Go facts.
using DefaultRuleFn = void (*)(Map& obj, const GoStruct& go);

struct DefaultRule {
  const char* type;
  DefaultRuleFn fn;
};

absl::Span<const FieldDefault> FieldDefaults();

// A field a defaulter sets, when it is nil, to the server's clock truncated
// to the second (a metav1.Time): a DRA device taint's timeAdded
// (SetDefaults_DeviceTaint).
struct ClockDefault {
  const char* type;   // OpenAPI name of the Go struct
  const char* field;  // JSON name
};
absl::Span<const ClockDefault> ClockDefaults();

// The map under `f` in `m`, made ({}) when absent or not a map.
Map& EnsureMap(Map& m, absl::string_view f);
absl::Span<const DefaultRule> DefaultRules();

// The round-trip annotations of an autoscaling/v1 HorizontalPodAutoscaler
// (pkg/apis/autoscaling/annotations.go): what v1 cannot say of the
// internal (v2) spec, other metrics and behavior, and of its status,
// current metrics and conditions. The v1 defaulter rewrites them as the
// conversion does; the registry moves each half with the strategy.
inline constexpr char kHpaMetricsAnnotation[] =
    "autoscaling.alpha.kubernetes.io/metrics";
inline constexpr char kHpaBehaviorAnnotation[] =
    "autoscaling.alpha.kubernetes.io/behavior";
inline constexpr char kHpaCurrentMetricsAnnotation[] =
    "autoscaling.alpha.kubernetes.io/current-metrics";
inline constexpr char kHpaConditionsAnnotation[] =
    "autoscaling.alpha.kubernetes.io/conditions";

// The tag kubelet and the defaulter read from an image reference
// (k8s.io/kubernetes/pkg/util/parsers.ParseImageName): "latest" when the
// reference has neither tag nor digest, "" when it has only a digest or
// does not parse.
std::string ImageTag(absl::string_view image);

}  // namespace smdx::internal

#endif  // SMDX_KUBETYPES_INTERNAL_DEFAULTERS_H_
