#include "smdx/schema/builtin.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "smdx/schema/builtin_data.h"
#include "smdx/schema/typedef_codec.h"

namespace smdx {

namespace {

// The API group a Kubernetes OpenAPI type name belongs to (`parts`: the
// name split at dots).
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

const internal::EmbeddedKind* FindEmbeddedKind(absl::string_view api_version,
                                               absl::string_view kind) {
  absl::Span<const internal::EmbeddedKind> kinds =
      internal::kEmbeddedKubernetes.kinds;
  auto it = std::lower_bound(
      kinds.begin(), kinds.end(), std::make_pair(api_version, kind),
      [](const internal::EmbeddedKind& k,
         const std::pair<absl::string_view, absl::string_view>& want) {
        return std::make_pair(absl::string_view(k.api_version),
                              absl::string_view(k.kind)) < want;
      });
  if (it == kinds.end() || it->api_version != api_version || it->kind != kind)
    return nullptr;
  return &*it;
}

// The index of the embedded type `name`, or -1.
int FindEmbeddedType(absl::string_view name) {
  const internal::EmbeddedSchema& data = internal::kEmbeddedKubernetes;
  auto it = std::lower_bound(data.by_name.begin(), data.by_name.end(), name,
                             [&](uint32_t i, absl::string_view n) {
                               return absl::string_view(data.types[i].name) <
                                      n;
                             });
  if (it == data.by_name.end() || data.types[*it].name != name) return -1;
  return static_cast<int>(*it);
}

// Every embedded type, read from its binary form in the schema's order and
// built into one schema (KubernetesSchema).
absl::StatusOr<std::shared_ptr<const Schema>> BuildWholeEmbedded() {
  const internal::EmbeddedSchema& data = internal::kEmbeddedKubernetes;
  std::vector<TypeDef> types;
  types.reserve(data.types.size());
  for (const internal::EmbeddedType& t : data.types) {
    absl::StatusOr<TypeDef> def =
        DecodeTypeDef(data.binary.substr(t.begin, t.end - t.begin));
    if (!def.ok()) {
      return absl::InternalError(absl::StrCat(
          "the embedded Kubernetes schema's type ", t.name,
          " does not read back: ", def.status().message()));
    }
    types.push_back(*std::move(def));
  }
  return Schema::Build(std::move(types));
}

}  // namespace

absl::StatusOr<std::shared_ptr<const Schema>> KubernetesSchema() {
  static const absl::StatusOr<std::shared_ptr<const Schema>>* const kSchema =
      new absl::StatusOr<std::shared_ptr<const Schema>>(
          BuildWholeEmbedded());
  return *kSchema;
}

absl::string_view KubernetesVersion() {
  return internal::kEmbeddedKubernetes.kubernetes_version;
}

namespace {

// The ids of the schemas KubernetesSchemaFor made (under its lock).
std::mutex& SharedMutex() {
  static std::mutex* const mu = new std::mutex;
  return *mu;
}
absl::flat_hash_set<uint64_t>& SharedIds() {
  static auto* const ids = new absl::flat_hash_set<uint64_t>();
  return *ids;
}

}  // namespace

bool SharesEmbeddedKubernetesTypes(const Schema& schema) {
  std::lock_guard<std::mutex> lock(SharedMutex());
  return SharedIds().contains(schema.id());
}

absl::StatusOr<std::shared_ptr<const Schema>> KubernetesSchemaFor(
    absl::string_view type_name) {
  std::mutex* const mu = &SharedMutex();
  static auto* const cache =
      new absl::flat_hash_map<std::string,
                              absl::StatusOr<std::shared_ptr<const Schema>>>();
  const internal::EmbeddedSchema& data = internal::kEmbeddedKubernetes;
  int root = FindEmbeddedType(type_name);
  if (root < 0) {
    return absl::NotFoundError(absl::StrCat(
        "the built-in Kubernetes schema has no type \"", type_name, "\""));
  }
  std::lock_guard<std::mutex> lock(*mu);
  auto it = cache->find(type_name);
  if (it != cache->end()) return it->second;
  // The types of every kind asked for so far, each read once from the
  // binary form and shared by the schemas of all kinds that hold it
  // (ObjectMeta, PodSpec, ...).
  static GrowingSchema* const pool = new GrowingSchema();
  // The closure of the root, in the embedded schema's order (a kind holds
  // a few hundred of its thousands of types).
  std::vector<bool> needed(data.types.size());
  std::vector<uint32_t> closure = {static_cast<uint32_t>(root)};
  needed[root] = true;
  for (size_t next = 0; next < closure.size(); ++next) {
    const internal::EmbeddedType& t = data.types[closure[next]];
    for (uint32_t d = t.deps_begin; d < t.deps_end; ++d) {
      if (!needed[data.deps[d]]) {
        needed[data.deps[d]] = true;
        closure.push_back(data.deps[d]);
      }
    }
  }
  std::sort(closure.begin(), closure.end());
  // Those the pool lacks join it as one group (closed: what they refer to
  // is among them or there already).
  std::vector<TypeDef> missing;
  std::vector<absl::string_view> names;
  names.reserve(closure.size());
  absl::Status status;
  for (size_t c = 0; c < closure.size() && status.ok(); ++c) {
    const internal::EmbeddedType& t = data.types[closure[c]];
    names.emplace_back(t.name);
    if (pool->Has(t.name)) continue;
    absl::StatusOr<TypeDef> def =
        DecodeTypeDef(data.binary.substr(t.begin, t.end - t.begin));
    if (!def.ok()) {
      status = absl::InternalError(
          absl::StrCat("the embedded Kubernetes schema's type ", t.name,
                       " does not read back: ", def.status().message()));
    } else {
      missing.push_back(*std::move(def));
    }
  }
  if (status.ok()) status = pool->Add(std::move(missing));
  absl::StatusOr<std::shared_ptr<const Schema>> schema =
      status.ok() ? pool->View(names)
                  : absl::StatusOr<std::shared_ptr<const Schema>>(status);
  cache->emplace(std::string(type_name), schema);
  if (schema.ok()) SharedIds().insert((*schema)->id());
  return schema;
}

absl::string_view KubernetesKindTypeName(absl::string_view api_version,
                                         absl::string_view kind) {
  const internal::EmbeddedKind* k = FindEmbeddedKind(api_version, kind);
  if (k == nullptr) return "";
  return internal::kEmbeddedKubernetes.types[k->type].name;
}

absl::string_view ApiGroupOf(absl::string_view api_version) {
  const size_t slash = api_version.find('/');
  return slash == absl::string_view::npos ? absl::string_view()
                                          : api_version.substr(0, slash);
}

namespace {

// Whether `api_version` is a GA version: "v1", "apps/v1", not "v1beta1".
bool IsGaVersion(absl::string_view api_version) {
  const size_t slash = api_version.rfind('/');
  const absl::string_view v = slash == absl::string_view::npos
                                  ? api_version
                                  : api_version.substr(slash + 1);
  if (v.size() < 2 || v[0] != 'v') return false;
  for (char c : v.substr(1)) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

}  // namespace

std::vector<std::string> KubernetesServedVersions(absl::string_view kind) {
  std::vector<std::string> out;
  for (const internal::EmbeddedKind& k : internal::kEmbeddedKubernetes.kinds) {
    if (k.kind == kind && IsGaVersion(k.api_version))
      out.emplace_back(k.api_version);
  }
  return out;
}

std::vector<KubernetesKind> KubernetesKinds() {
  std::vector<KubernetesKind> out;
  const internal::EmbeddedSchema& data = internal::kEmbeddedKubernetes;
  for (const internal::EmbeddedKind& k : data.kinds) {
    out.push_back(
        KubernetesKind{k.api_version, k.kind, data.types[k.type].name});
  }
  return out;
}

namespace {

TypeRef NamedTypeRef(absl::string_view name) {
  TypeRef r;
  r.named_type = std::string(name);
  return r;
}

// Anything: an untyped scalar, an atomic list of anything, or a map whose
// values are of `map_value_type` (`rel` decides whether it is granular).
Atom UntypedAtom(absl::string_view map_value_type, ElementRelationship rel) {
  Atom a;
  a.scalar = ScalarType::kUntyped;
  a.list = std::make_shared<ListType>();
  a.list->element_type = NamedTypeRef(kUntypedAtomicTypeName);
  a.list->element_relationship = ElementRelationship::kAtomic;
  a.map = std::make_shared<MapType>();
  a.map->element_type = NamedTypeRef(map_value_type);
  a.map->element_relationship = rel;
  return a;
}

}  // namespace

Atom DeducedAtom() {
  return UntypedAtom(kDeducedTypeName, ElementRelationship::kSeparable);
}

std::vector<TypeDef> DeducedTypes() {
  std::vector<TypeDef> out(2);
  out[0].name = std::string(kUntypedAtomicTypeName);
  out[0].atom =
      UntypedAtom(kUntypedAtomicTypeName, ElementRelationship::kAtomic);
  out[1].name = std::string(kDeducedTypeName);
  out[1].atom = DeducedAtom();
  return out;
}

std::shared_ptr<const Schema> DeducedSchema() {
  static const std::shared_ptr<const Schema>* const kSchema =
      new std::shared_ptr<const Schema>(*Schema::Build(DeducedTypes()));
  return *kSchema;
}

absl::StatusOr<std::string> KubernetesTypeName(const Schema& schema,
                                               absl::string_view api_version,
                                               absl::string_view kind) {
  if (const internal::EmbeddedKind* k = FindEmbeddedKind(api_version, kind)) {
    const char* name = internal::kEmbeddedKubernetes.types[k->type].name;
    if (schema.Find(name) != nullptr) return std::string(name);
  }
  for (const TypeDef& t : schema.types()) {
    if (!t.atom.map || t.atom.map->FindField("kind") == nullptr ||
        t.atom.map->FindField("apiVersion") == nullptr) {
      continue;
    }
    std::string av, k;
    if (KubernetesKindOfTypeName(t.name, &av, &k) && av == api_version &&
        k == kind) {
      return t.name;
    }
  }
  return absl::NotFoundError(absl::StrCat(
      "the schema has no type for apiVersion \"", api_version, "\", kind \"",
      kind, "\" (pass --schema and --type for other types)"));
}

bool KubernetesKindOfTypeName(absl::string_view type_name,
                              std::string* api_version, std::string* kind) {
  std::vector<absl::string_view> parts = absl::StrSplit(type_name, '.');
  if (parts.size() < 4 || !absl::StartsWith(type_name, "io.k8s.")) {
    return false;
  }
  std::string group = GroupOf(parts);
  absl::string_view version = parts[parts.size() - 2];
  *api_version =
      group.empty() ? std::string(version) : absl::StrCat(group, "/", version);
  *kind = std::string(parts.back());
  return true;
}

}  // namespace smdx
