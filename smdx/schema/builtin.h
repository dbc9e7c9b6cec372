// Schemas that ship with smdx: the Kubernetes built-in types (embedded, the
// default of the `smdx` command) and the deduced schema used when there is
// no schema at all (maps granular, lists atomic).
#ifndef SMDX_SCHEMA_BUILTIN_H_
#define SMDX_SCHEMA_BUILTIN_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "smdx/schema/schema.h"

namespace smdx {

// The Kubernetes built-in API types: Kubernetes v1.37's OpenAPI v3 schemas
// (schema/data, with the defaults of list-map keys only) converted by
// smdx's own converter at build time, plus the kinds of the apiVersions
// v1.37 no longer serves from v1.27's document (flowcontrol v1beta3, ...)
// and from the older SMD test schema (extensions/v1beta1, apps/v1beta1,
// apps/v1beta2, batch/v1beta1, policy/v1beta1, ...); their references to
// types a newer document defines resolve to the newer types. Read on first
// use from the binary form compiled in (schema/typedef_codec.h; about 10
// million instructions, 3 ms), then shared.
absl::StatusOr<std::shared_ptr<const Schema>> KubernetesSchema();

// The API group of an apiVersion: "apps" of "apps/v1", "" of "v1" (the
// core group).
absl::string_view ApiGroupOf(absl::string_view api_version);

// The Kubernetes release whose API the embedded schema holds ("v1.37.2").
absl::string_view KubernetesVersion();

// The embedded schema cut down to one type and the types it refers to,
// directly or not: what a process that handles one kind needs, parsed in a
// fraction of the time of KubernetesSchema(). Cached per type; thread-safe.
// NotFound when the embedded schema has no such type.
absl::StatusOr<std::shared_ptr<const Schema>> KubernetesSchemaFor(
    absl::string_view type_name);

// Whether `schema` is one KubernetesSchemaFor returned: its types are the
// embedded schema's shared ones, which live as long as the process (so
// that what is worked out for one of its atoms may be kept, by the atom,
// for every kind that holds it).
bool SharesEmbeddedKubernetesTypes(const Schema& schema);

// The root type's name of a built-in kind ("io.k8s.api.apps.v1.Deployment"
// for apps/v1 Deployment), or empty when there is no such kind; as
// KubernetesKinds() says, without building the list.
absl::string_view KubernetesKindTypeName(absl::string_view api_version,
                                         absl::string_view kind);

// The apiVersions a kube-apiserver of the embedded release, as it starts
// with its default settings, serves objects of `kind` at: the GA versions
// ("v1", "autoscaling/v2") of the built-in kinds of that name. Alpha and
// beta versions are off by default (none has been on since 1.24's), and
// the older apiVersions are gone. Empty for a kind it does not serve.
// ("autoscaling/v1" and "autoscaling/v2" for HorizontalPodAutoscaler; "v1"
// and "events.k8s.io/v1" for Event.)
std::vector<std::string> KubernetesServedVersions(absl::string_view kind);

// The built-in kinds: every `x-kubernetes-group-version-kind` of the v1.37
// schemas and the older kinds, with their root types' names.
struct KubernetesKind {
  std::string api_version;  // "apps/v1", "v1"
  std::string kind;
  std::string type_name;  // "io.k8s.api.apps.v1.Deployment"
};
std::vector<KubernetesKind> KubernetesKinds();

// The schema of schema-less values; its root type is kDeducedTypeName.
std::shared_ptr<const Schema> DeducedSchema();
inline constexpr absl::string_view kDeducedTypeName = "__untyped_deduced_";
inline constexpr absl::string_view kUntypedAtomicTypeName = "__untyped_atomic_";

// The deduced schema's two types, kUntypedAtomicTypeName (anything,
// atomic) and kDeducedTypeName (anything; maps granular, lists atomic),
// for schemas that refer to them (converted OpenAPI does).
std::vector<TypeDef> DeducedTypes();
// An inline atom of deduced values, as kDeducedTypeName.
Atom DeducedAtom();

// The apiVersion and kind Kubernetes' naming gives a type of its OpenAPI
// (io.k8s.api.apps.v1.Deployment: apps/v1, Deployment;
// io.k8s.api.core.v1.Pod: v1, Pod); false for names that do not follow it.
bool KubernetesKindOfTypeName(absl::string_view type_name,
                              std::string* api_version, std::string* kind);

// The type name of a Kubernetes kind in `schema`
// (io.k8s.api.apps.v1.Deployment for apps/v1 Deployment): the built-in
// kinds' table when the schema has that type, else the type whose name ends
// in the version and kind and belongs to the group (for schemas converted
// from Kubernetes' OpenAPI). NotFound when the schema has no such kind.
absl::StatusOr<std::string> KubernetesTypeName(const Schema& schema,
                                               absl::string_view api_version,
                                               absl::string_view kind);

}  // namespace smdx

#endif  // SMDX_SCHEMA_BUILTIN_H_
