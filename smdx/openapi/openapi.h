// Schemas from OpenAPI: Kubernetes' OpenAPI documents and CustomResource-
// Definitions converted to smdx's type system.
//
// The conversion is the one Kubernetes runs to get the schema that
// server-side apply works with (k8s.io/kube-openapi pkg/schemaconv, fed by
// the API server's OpenAPI document, or for custom resources by the
// apiextensions-apiserver's per-version document):
//
//  - Every definition becomes a named type, in name order, followed by the
//    two helper types `__untyped_atomic_` and `__untyped_deduced_`
//    (schema/builtin.h). A definition that is only a `$ref` is an alias:
//    references to it resolve to its target and it gets no type of its own.
//  - `type: object` with `properties` is a map with one field per property,
//    in name order; the fields' types are inline atoms, or named types for
//    `$ref` (also a `$ref` alone inside a one-element `allOf`).
//    `additionalProperties` gives the type of undeclared keys; an object
//    with neither (or with `additionalProperties: true`) takes any keys,
//    with deduced values. Below `x-kubernetes-preserve-unknown-fields:
//    true`, objects also accept undeclared keys (deduced values).
//    `x-kubernetes-map-type` is `granular` (the default) or `atomic`.
//  - `type: array` is a list of `items`: atomic unless
//    `x-kubernetes-list-type` is `set` (associative, items identified by
//    value) or `map` (associative, identified by the item fields named in
//    `x-kubernetes-list-map-keys`). Without a list type, the strategic-merge
//    markers decide as in OpenAPI v2: `x-kubernetes-patch-strategy: merge`
//    makes an associative list, keyed by `x-kubernetes-patch-merge-key` or,
//    without it, a set.
//  - integer and number are numeric, string is string, boolean is boolean;
//    `x-kubernetes-int-or-string` and `format: int-or-string` are an untyped
//    scalar. A definition of `type: string` with any other format but
//    `byte` (Time's `date-time`) is untyped too; on inline nodes such
//    formats are ignored, because they come from CRDs, whose value
//    validations the API server strips before it builds its schema.
//    A schema without a type (and without properties) accepts anything
//    (deduced: maps granular, lists atomic). Old documents that omit
//    `type: object` beside `properties` are read as objects.
//  - A `x-kubernetes-map-type` or `x-kubernetes-list-type: atomic` beside a
//    `$ref` overrides the referenced type's relationship at that place.
//  - `x-kubernetes-unions` become the map's unions.
//  - smdx extensions: `default` and `nullable` (`x-nullable` in v2) of a
//    property go on its struct field, those of `items` and
//    `additionalProperties` on the element type reference; the immutability
//    markers (`x-kubernetes-immutable`, `-immutable-keys`, `-addition-only`,
//    `-deletion-only`) go on the type reference of their node. A
//    definition's (or a root's) own default, nullability and markers have
//    no place in a TypeDef and are dropped, as Kubernetes drops them.
//
// Kubernetes' quirks are kept: references to
// io.k8s.apimachinery.pkg.runtime.RawExtension are `__untyped_atomic_`,
// io.k8s.apimachinery.pkg.api.resource.Quantity is an untyped scalar.
//
// Contradictions are errors that name the schema node, in the document's
// own terms (`definitions.io.k8s.api.core.v1.PodSpec.properties.containers:
// x-kubernetes-list-map-keys names "nme", which is not a property of the
// items`): a list type `map` without keys, keys that are not scalar
// properties of the items, a list type `set` or `map` on a non-array, a map
// type on a non-object (`atomic` on a scalar is accepted, as Kubernetes'
// own API marks byte strings so), unknown list/map types or patch
// strategies on arrays, a `$ref` to nothing, unions naming undeclared
// fields, and a `default` that does not validate against its own node
// (typed/typed.h's Validate). Every problem found is reported, one per
// line. Two shapes of Kubernetes' own API are accepted although SMD cannot
// use them: a list keyed by a field of its items' `metadata`
// (CSIStorageCapacityList.items, keyed by `name`), and a `set` of objects
// (ResourceRequirements.claims in v1.27).
//
// openapi/ sits above typed/ (it validates defaults with Validate) and
// depends on value/, schema/ (builtin.h for ObjectMeta) and typed/.
//
// Example:
//   absl::StatusOr<smdx::Value> doc = smdx::ParseJson(swagger_json);
//   absl::StatusOr<std::vector<smdx::TypeDef>> types =
//       smdx::TypesFromOpenApiV2(*doc);
//   absl::StatusOr<std::shared_ptr<const smdx::Schema>> schema =
//       smdx::Schema::Build(*std::move(types));
#ifndef SMDX_OPENAPI_OPENAPI_H_
#define SMDX_OPENAPI_OPENAPI_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "smdx/schema/schema.h"
#include "smdx/value/value.h"

namespace smdx {

// The types of an OpenAPI v2 (swagger) document's `definitions`, as
// described above, with `$ref`s of the form `#/definitions/NAME`. The
// result is ready for Schema::Build.
absl::StatusOr<std::vector<TypeDef>> TypesFromOpenApiV2(const Value& swagger);

// The same for an OpenAPI v3 document's `components.schemas`, with `$ref`s
// of the form `#/components/schemas/NAME`.
absl::StatusOr<std::vector<TypeDef>> TypesFromOpenApiV3(const Value& doc);

// One OpenAPI v3 schema object (such as a CRD's openAPIV3Schema), converted
// as the root type `root_name` (plus the two helper types). Nested objects
// stay inline. It cannot contain `$ref`s; `x-kubernetes-embedded-resource`
// adds nothing here (SchemasFromCrd adds the embedded object's apiVersion,
// kind and metadata).
absl::StatusOr<std::shared_ptr<const Schema>> SchemaFromOpenApiObject(
    const Value& schema_object, const std::string& root_name);

// The schema of one version of a custom resource.
struct CrdVersionSchema {
  std::string api_version;  // group/version
  std::string kind;
  // The root type: the reversed group, the version and the kind
  // (com.coreos.monitoring.v1.Prometheus for monitoring.coreos.com/v1
  // Prometheus), as the API server names it.
  std::string type_name;
  // The list kind's type (spec.names.listKind, default KIND + "List").
  std::string list_kind;
  std::string list_type_name;
  // Whether the version declares the status subresource
  // (`subresources.status`; v1beta1 also takes it from spec.subresources).
  bool status_subresource = false;
  // The field names of specReplicasPath when the version declares the
  // scale subresource (`subresources.scale`), else empty.
  std::vector<std::string> scale_replicas_path;
  // The resource's plural (spec.names.plural), empty when missing.
  std::string resource;
  std::shared_ptr<const Schema> schema;
};

// The schemas of every version of a CustomResourceDefinition manifest
// (apiextensions.k8s.io/v1 or v1beta1), as the apiextensions-apiserver
// builds them for server-side apply:
//  - the version's openAPIV3Schema (v1beta1: the version's own `schema`,
//    else the top-level `spec.validation`) is the root type, whose
//    apiVersion and kind are strings and whose metadata is
//    io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta (copied, with what it
//    references, from KubernetesSchema()); every
//    `x-kubernetes-embedded-resource: true` object gets the same three
//    fields;
//  - a version without a schema is an object of any fields (deduced);
//  - `spec.preserveUnknownFields` (which v1beta1 defaults to true) makes
//    every object of the schema accept undeclared fields;
//  - the list kind (`spec.names.listKind`, default KIND + "List") is a
//    type too, with items, metadata (ListMeta), apiVersion and kind;
//  - a `default` at or below the `metadata` property of the root or of an
//    embedded resource is an error, as the apiserver rejects it (also for
//    a bare schema object, which stands for a CRD's openAPIV3Schema).
// The schema is converted even when it is not structural (types may be
// missing); the API server would fall back to a deduced type then.
absl::StatusOr<std::vector<CrdVersionSchema>> SchemasFromCrd(const Value& crd);

enum class SchemaFormat {
  kSmd,            // `types: [...]`
  kOpenApiV2,      // `swagger: "2.0"` or `definitions`
  kOpenApiV3,      // `openapi: 3.x` or `components`
  kOpenApiObject,  // a bare schema object (`type`, `properties`, ...)
  kCrd,            // kind CustomResourceDefinition
  kUnknown,
};

// What kind of schema document `doc` is.
SchemaFormat DetectSchemaFormat(const Value& doc);

// Loads a schema from text (JSON or YAML) in any of the formats above. A
// YAML stream may hold several CustomResourceDefinitions, whose types are
// combined. `default_type` (may be null) is set to the root type when there
// is an obvious one (a bare schema object, whose root is named "root", or
// a single CRD with a single version), else cleared.
absl::StatusOr<std::shared_ptr<const Schema>> LoadAnySchema(
    absl::string_view text, std::string* default_type);

// A kind a schema document declares: an OpenAPI definition's
// `x-kubernetes-group-version-kind`, or a CRD version (and its list kind).
struct SchemaKind {
  std::string api_version;  // group/version ("apps/v1", "v1")
  std::string kind;
  std::string type_name;
  // Custom resources: whether the CRD version declares the status
  // subresource (`subresources.status`).
  bool custom_resource = false;
  bool status_subresource = false;
  // Custom resources: the field names of the scale subresource's
  // specReplicasPath, empty without one.
  std::vector<std::string> scale_replicas_path;
  // Custom resources known from a cluster's OpenAPI: the kind has the
  // scale subresource, and the document does not say where its replicas
  // are (scale_replicas_path is empty).
  bool scale_replicas_unknown = false;
  // Custom resources: the resource's plural (the CRD's spec.names.plural,
  // or the name in a cluster's OpenAPI paths); empty when not known.
  std::string resource;
};

// The kinds an OpenAPI v2 or v3 document declares: every
// `x-kubernetes-group-version-kind` of its definitions (v2) or
// components.schemas (v3), in the document's order. A cluster's
// /openapi/v3 document of a group version of custom resources (the one the
// apiextensions-apiserver publishes, titled "Kubernetes CRD Swagger")
// declares custom resources: its kinds are, with the status subresource
// where its paths serve one (and the scale subresource, without its
// replicas path). A v2 document (/openapi/v2) mixes every group into one
// and does not say which kinds are custom resources.
std::vector<SchemaKind> OpenApiKinds(const Value& doc);

// Several schema documents combined into one schema: a cluster's OpenAPI
// (`kubectl get --raw /openapi/v2`, or the `/openapi/v3` group documents)
// plus CRD files, say. Types of a later document replace those of an
// earlier one with the same name, and so do kinds.
//
// Example:
//   SchemaSetBuilder b;
//   if (absl::Status s = b.Add(cluster_openapi); !s.ok()) ...
//   if (absl::Status s = b.Add(crd_yaml); !s.ok()) ...
//   absl::StatusOr<SchemaSet> set = std::move(b).Build();
//   const SchemaKind* k = set->FindKind("example.com/v1", "Widget");
struct SchemaSet {
  std::shared_ptr<const Schema> schema;
  std::vector<SchemaKind> kinds;
  // The type when the documents make it obvious (one bare schema object,
  // or one CRD with one version), else empty.
  std::string default_type;

  const SchemaKind* FindKind(absl::string_view api_version,
                             absl::string_view kind) const;
};

class SchemaSetBuilder {
 public:
  // Adds the documents of `text`, in any format LoadAnySchema reads (a
  // YAML stream of several is read document by document).
  absl::Status Add(absl::string_view text);
  // Links the types. Fails when a reference has no type.
  absl::StatusOr<SchemaSet> Build() &&;

 private:
  absl::Status AddTypes(std::vector<TypeDef> types);
  std::vector<TypeDef> types_;
  std::map<std::string, size_t> index_;
  std::vector<SchemaKind> kinds_;
  std::vector<std::string> default_types_;
  size_t documents_ = 0;
  // Whether an OpenAPI document came after the last CRD: its ObjectMeta
  // replaced the one custom resources have (Build puts theirs back).
  bool openapi_meta_last_ = false;
};

// The root type name LoadAnySchema gives a bare schema object.
inline constexpr absl::string_view kOpenApiObjectRootName = "root";

}  // namespace smdx

#endif  // SMDX_OPENAPI_OPENAPI_H_
