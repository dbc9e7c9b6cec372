// The embedding API: what a program (the `smdx` command, the C API, the
// Python module) needs to run the apiserver's apply on objects that carry
// their apiVersion and kind, without knowing type names.
//
// A Catalog is the schemas requests are typed with: the embedded Kubernetes
// schema, or schema documents (a cluster's OpenAPI v2 or v3, SMD schemas,
// CRDs, bare schema objects) combined as SchemaSetBuilder combines them,
// extending the built-in kinds. It finds an object's type from its
// apiVersion and kind and makes field managers for a resource with the
// registry strategy's reset fields of that resource (built-in kinds from the
// apiserver's table, custom resources from their CRD's status subresource).
//
// Thread safety: a Catalog is immutable once made; share it freely.
//
// Example:
//   absl::StatusOr<Catalog> c = Catalog::FromDocuments({crd_yaml});
//   ResourceOptions r;
//   r.api_version = "example.com/v1";
//   r.kind = "Widget";
//   absl::StatusOr<FieldManager> fm = c->NewFieldManager(r);
#ifndef SMDX_EMBED_CATALOG_H_
#define SMDX_EMBED_CATALOG_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "smdx/fieldmanager/clock.h"
#include "smdx/fieldmanager/field_manager.h"
#include "smdx/openapi/openapi.h"
#include "smdx/typed/typed.h"
#include "smdx/value/value.h"

namespace smdx {

// A resource and how its field manager behaves.
struct ResourceOptions {
  std::string api_version;  // group/version: "apps/v1", "v1"
  std::string kind;         // "Deployment"
  // The objects' type; when empty, the catalog's type of the kind.
  std::optional<Type> type;
  // "status", "scale", or empty for the main resource; a
  // CertificateSigningRequest's "approval", a Namespace's "finalize", a
  // Pod's "resize" and "ephemeralcontainers". NewFieldManager refuses one
  // the kind does not serve (a built-in kind's, or a custom resource's as
  // its CRD declares; any other kind's are taken).
  std::string subresource;
  // Default results from the schema's `default`s, as the apiserver does.
  bool apply_defaults = true;
  // Decode and default objects of built-in kinds as the apiserver does
  // (Kubernetes 1.37's Go defaulters; FieldManagerOptions::builtin_defaults).
  // False gives the bare merge.
  bool builtin_defaults = true;
  // Reset the fields the registry strategy of this endpoint resets (.status
  // on the main resource of a kind with a status subresource, everything
  // but .status on the status subresource).
  bool reset_fields = true;
  bool track_on_create = true;
  int max_update_managers = 10;
  // Where managedFields times come from; the system clock when null. Not
  // owned; must outlive the field manager.
  const Clock* clock = nullptr;
  Limits limits;
};

class Catalog {
 public:
  // The embedded Kubernetes schema (v1.37 plus the kinds of older
  // apiVersions). Cheap: types are parsed when first asked for.
  static Catalog Builtin();
  // The documents (JSON or YAML text, each in any format LoadAnySchema
  // reads), later ones replacing types and kinds of earlier ones. Errors
  // name the document (`document 2: ...`) when there are several.
  static absl::StatusOr<Catalog> FromDocuments(
      const std::vector<std::string>& documents);
  // From a built SchemaSet (the command reads files into one).
  static Catalog FromSet(SchemaSet set);

  bool builtin() const { return !set_.has_value(); }

  // The type named `name` (a definition name such as
  // io.k8s.api.apps.v1.Deployment).
  absl::StatusOr<Type> Named(const std::string& name) const;
  // The type of an object of `api_version` and `kind`: the documents'
  // kinds, else the type named for the kind in them (Kubernetes' naming),
  // else the built-in kind (documents extend the built-in API). Without
  // apiVersion and kind, the type the documents make obvious (a bare schema
  // object, one CRD version).
  absl::StatusOr<Type> TypeOfKind(const std::string& api_version,
                                  const std::string& kind) const;
  // TypeOfKind of the object's apiVersion and kind (`object` may be null).
  absl::StatusOr<Type> TypeOf(const Value* object) const;
  // The kind as the documents declare it (nullptr for the embedded schema
  // or when they do not).
  const SchemaKind* FindKind(absl::string_view api_version,
                             absl::string_view kind) const;
  // The whole schema (the embedded one parsed whole on first use).
  absl::StatusOr<std::shared_ptr<const Schema>> Whole() const;

  // A field manager for the resource, typed and with its reset fields.
  absl::StatusOr<FieldManager> NewFieldManager(const ResourceOptions& r) const;

 private:
  std::optional<SchemaSet> set_;  // empty: the embedded schema
};

// A value's path as SMD prints it (`.spec.containers[name="app"].image`).
std::vector<std::string> PathStrings(const Set& set);

// Who owns what: every path a managedFields entry of `object` owns,
// with the managers (as kubectl prints them: the name, and the
// subresource's after a slash when there is one) that own it, in the
// apiserver's order of the entries.
struct FieldOwners {
  std::string path;
  std::vector<std::string> managers;
};
absl::StatusOr<std::vector<FieldOwners>> Blame(const Value& object,
                                               const Limits& limits = Limits());

}  // namespace smdx

#endif  // SMDX_EMBED_CATALOG_H_
