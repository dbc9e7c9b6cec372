// Schemas that ship with smdx: the Kubernetes built-in types (embedded, the
// default of the `smdx` command) and the deduced schema used when there is
// no schema at all (maps granular, lists atomic).
#ifndef SMDX_SCHEMA_BUILTIN_H_
#define SMDX_SCHEMA_BUILTIN_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "schema/schema.h"

namespace smdx {

// The Kubernetes built-in API types (k8s-schema.yaml from
// sigs.k8s.io/structured-merge-diff's test data), parsed once.
absl::StatusOr<std::shared_ptr<const Schema>> KubernetesSchema();

// The schema of schema-less values; its root type is kDeducedTypeName.
std::shared_ptr<const Schema> DeducedSchema();
inline constexpr absl::string_view kDeducedTypeName = "__untyped_deduced_";
inline constexpr absl::string_view kUntypedAtomicTypeName = "__untyped_atomic_";

// The type name of a Kubernetes kind in a schema built from the Kubernetes
// OpenAPI (io.k8s.api.apps.v1.Deployment for apps/v1 Deployment), or an
// error when the schema has no such kind.
absl::StatusOr<std::string> KubernetesTypeName(const Schema& schema,
                                               absl::string_view api_version,
                                               absl::string_view kind);

}  // namespace smdx

#endif  // SMDX_SCHEMA_BUILTIN_H_
