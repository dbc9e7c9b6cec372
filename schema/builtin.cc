#include "schema/builtin.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace smdx {

namespace internal {
extern const absl::string_view kEmbeddedK8sSchema;
}  // namespace internal

namespace {

constexpr absl::string_view kDeducedSchemaYaml = R"(types:
- name: __untyped_atomic_
  scalar: untyped
  list:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
  map:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
- name: __untyped_deduced_
  scalar: untyped
  list:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
  map:
    elementType:
      namedType: __untyped_deduced_
    elementRelationship: separable
)";

// The API group a Kubernetes OpenAPI type name belongs to.
std::string GroupOf(const std::vector<absl::string_view>& parts) {
  // io.k8s.apiextensions-apiserver.pkg.apis.<group>.<version>.<Kind>
  // io.k8s.kube-aggregator.pkg.apis.<group>.<version>.<Kind>
  // io.k8s.api.<group>.<version>.<Kind>
  absl::string_view g = parts[parts.size() - 3];
  if (g == "core") return "";
  if (g == "apps" || g == "batch" || g == "autoscaling" || g == "extensions" ||
      g == "policy") {
    return std::string(g);
  }
  if (g == "rbac") return "rbac.authorization.k8s.io";
  if (g == "flowcontrol") return "flowcontrol.apiserver.k8s.io";
  if (g == "apiextensions") return "apiextensions.k8s.io";
  if (g == "apiregistration") return "apiregistration.k8s.io";
  return absl::StrCat(g, ".k8s.io");
}

}  // namespace

absl::StatusOr<std::shared_ptr<const Schema>> KubernetesSchema() {
  static const absl::StatusOr<std::shared_ptr<const Schema>>* const kSchema =
      new absl::StatusOr<std::shared_ptr<const Schema>>(
          Schema::ParseSmd(internal::kEmbeddedK8sSchema));
  return *kSchema;
}

std::shared_ptr<const Schema> DeducedSchema() {
  static const std::shared_ptr<const Schema>* const kSchema =
      new std::shared_ptr<const Schema>(*Schema::ParseSmd(kDeducedSchemaYaml));
  return *kSchema;
}

absl::StatusOr<std::string> KubernetesTypeName(const Schema& schema,
                                               absl::string_view api_version,
                                               absl::string_view kind) {
  absl::string_view group, version = api_version;
  if (size_t slash = api_version.find('/'); slash != absl::string_view::npos) {
    group = api_version.substr(0, slash);
    version = api_version.substr(slash + 1);
  }
  for (const TypeDef& t : schema.types()) {
    std::vector<absl::string_view> parts = absl::StrSplit(t.name, '.');
    if (parts.size() < 4 || parts.back() != kind ||
        parts[parts.size() - 2] != version)
      continue;
    if (!t.atom.map || t.atom.map->FindField("kind") == nullptr ||
        t.atom.map->FindField("apiVersion") == nullptr) {
      continue;
    }
    if (GroupOf(parts) == group) return t.name;
  }
  return absl::NotFoundError(absl::StrCat(
      "the schema has no type for apiVersion \"", api_version, "\", kind \"",
      kind, "\" (pass --schema and --type for other types)"));
}

}  // namespace smdx
