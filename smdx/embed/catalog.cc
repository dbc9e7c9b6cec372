#include "smdx/embed/catalog.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "smdx/fieldmanager/managed_fields.h"
#include "smdx/fieldmanager/reset_fields.h"
#include "smdx/fieldmanager/scale.h"
#include "smdx/schema/builtin.h"

namespace smdx {

Catalog Catalog::Builtin() { return Catalog(); }

absl::StatusOr<Catalog> Catalog::FromDocuments(
    const std::vector<std::string>& documents) {
  if (documents.empty()) {
    return absl::InvalidArgumentError(
        "no schema documents (the built-in schema needs none)");
  }
  SchemaSetBuilder builder;
  for (size_t i = 0; i < documents.size(); ++i) {
    if (absl::Status st = builder.Add(documents[i]); !st.ok()) {
      if (documents.size() == 1) return st;
      return absl::Status(st.code(),
                          absl::StrCat("document ", i + 1, ": ", st.message()));
    }
  }
  absl::StatusOr<SchemaSet> set = std::move(builder).Build();
  if (!set.ok()) return set.status();
  return FromSet(*std::move(set));
}

Catalog Catalog::FromSet(SchemaSet set) {
  Catalog c;
  c.set_ = std::move(set);
  return c;
}

const SchemaKind* Catalog::FindKind(absl::string_view api_version,
                                    absl::string_view kind) const {
  if (!set_.has_value()) return nullptr;
  return set_->FindKind(api_version, kind);
}

absl::StatusOr<std::shared_ptr<const Schema>> Catalog::Whole() const {
  if (!set_.has_value()) return KubernetesSchema();
  return set_->schema;
}

namespace {

// A built-in kind's type, from the embedded schema cut down to that type
// (which a process parses in a fraction of the time of the whole); empty
// `name` looks the kind up.
absl::StatusOr<Type> BuiltinType(std::string name,
                                 const std::string& api_version,
                                 const std::string& kind) {
  if (name.empty()) {
    name = std::string(KubernetesKindTypeName(api_version, kind));
    if (name.empty()) {
      return absl::NotFoundError(
          absl::StrCat("the built-in Kubernetes schema has no kind \"", kind,
                       "\" in apiVersion \"", api_version, "\""));
    }
  }
  absl::StatusOr<std::shared_ptr<const Schema>> schema =
      KubernetesSchemaFor(name);
  if (!schema.ok()) return schema.status();
  return Type::Named(*std::move(schema), name);
}

absl::Status NoKindError() {
  return absl::InvalidArgumentError(
      "cannot tell the object's type: it has no apiVersion/kind");
}

}  // namespace

absl::StatusOr<Type> Catalog::Named(const std::string& name) const {
  if (!set_.has_value()) return BuiltinType(name, "", "");
  return Type::Named(set_->schema, name);
}

absl::StatusOr<Type> Catalog::TypeOf(const Value* object) const {
  if (object == nullptr) return TypeOfKind("", "");
  return TypeOfKind(StringAt(*object, "apiVersion"), StringAt(*object, "kind"));
}

absl::StatusOr<Type> Catalog::TypeOfKind(const std::string& api_version,
                                         const std::string& kind) const {
  const bool has_kind = !api_version.empty() && !kind.empty();
  if (!set_.has_value()) {
    if (!has_kind) return NoKindError();
    return BuiltinType("", api_version, kind);
  }
  if (const SchemaKind* k = set_->FindKind(api_version, kind)) {
    return Type::Named(set_->schema, k->type_name);
  }
  if (!has_kind) {
    if (!set_->default_type.empty()) {
      return Type::Named(set_->schema, set_->default_type);
    }
    return NoKindError();
  }
  // Kubernetes' naming in the documents (an SMD schema of the built-in
  // types), then the built-in kinds the documents leave out (CRD files
  // extend the built-in API), then the one type they make obvious.
  if (absl::StatusOr<std::string> name =
          KubernetesTypeName(*set_->schema, api_version, kind);
      name.ok()) {
    return Type::Named(set_->schema, *name);
  }
  absl::StatusOr<Type> builtin = BuiltinType("", api_version, kind);
  if (builtin.ok()) return builtin;
  // A bare schema object declares no kinds: its type is every object's.
  if (!set_->default_type.empty() && set_->kinds.empty()) {
    return Type::Named(set_->schema, set_->default_type);
  }
  return absl::NotFoundError(absl::StrCat(
      "neither the schema nor the built-in Kubernetes types have kind \"", kind,
      "\" in apiVersion \"", api_version, "\""));
}

namespace {

// The subresources a kind serves, where smdx knows them: a custom
// resource's (its CRD version's status and scale) and a built-in kind's;
// nullopt for other kinds (an aggregated API's, say).
std::optional<std::vector<std::string>> KnownSubresources(
    const ResourceOptions& r, const SchemaKind* k) {
  if (k != nullptr && k->custom_resource) {
    std::vector<std::string> out;
    if (!k->scale_replicas_path.empty()) out.push_back("scale");
    if (k->status_subresource) out.push_back("status");
    return out;
  }
  if (KubernetesKindTypeName(r.api_version, r.kind).empty())
    return std::nullopt;
  return BuiltinSubresources(r.api_version, r.kind);
}

// A request to a subresource the kind does not serve is refused, as the
// apiserver answers 404, rather than run as one to the main resource.
absl::Status CheckSubresource(const ResourceOptions& r, const SchemaKind* k) {
  if (r.subresource.empty()) return absl::OkStatus();
  if (r.subresource == "scale" && k != nullptr && k->scale_replicas_unknown) {
    return absl::InvalidArgumentError(absl::StrCat(
        r.api_version, " ", r.kind,
        ": the schema (a cluster's OpenAPI) does not say which field its "
        "scale subresource's replicas are (its CRD's specReplicasPath): "
        "pass the CustomResourceDefinition as a schema too"));
  }
  std::optional<std::vector<std::string>> known = KnownSubresources(r, k);
  if (!known.has_value()) return absl::OkStatus();
  for (const std::string& s : *known) {
    if (s == r.subresource) return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat(
      r.api_version, " ", r.kind, " has no subresource \"", r.subresource,
      "\"",
      known->empty() ? std::string(" (it has none)")
                     : absl::StrCat(" (it has: ", absl::StrJoin(*known, ", "),
                                    ")")));
}

// The kinds of `set` that are versions of the custom resource `r` names
// (its group and kind).
std::vector<const SchemaKind*> VersionsOfCustomResource(
    const ResourceOptions& r, const std::optional<SchemaSet>& set) {
  std::vector<const SchemaKind*> out;
  if (!set.has_value()) return out;
  const absl::string_view group = ApiGroupOf(r.api_version);
  for (const SchemaKind& d : set->kinds) {
    if (d.custom_resource && d.kind == r.kind &&
        ApiGroupOf(d.api_version) == group) {
      out.push_back(&d);
    }
  }
  return out;
}

// The apiVersions the apiserver serves the resource's kind at, where smdx
// knows them: a custom resource's, every version its CRD declares (the
// apiextensions-apiserver's converter takes those, served or not; a
// cluster's /openapi/v3 documents show the served ones alone); a built-in
// kind's, those of the kind in the documents (a cluster's OpenAPI declares
// what the cluster serves: beta versions it turned on), else those of a
// default apiserver; the request's own always. nullopt for other kinds (an
// aggregated API's).
std::optional<std::vector<std::string>> ServedVersions(
    const ResourceOptions& r, const SchemaKind* k,
    const std::optional<SchemaSet>& set) {
  const bool custom = k != nullptr && k->custom_resource;
  const auto builtin = [&](const std::string& api_version) {
    return !KubernetesKindTypeName(api_version, r.kind).empty();
  };
  if (!custom && !builtin(r.api_version)) return std::nullopt;
  // The apiserver's converter types objects with the OpenAPI models of the
  // groups installed with the request's (GenericAPIServer.getOpenAPIModels):
  // the legacy core group's alone, or those of all the others. A built-in
  // kind served in both (an Event: v1 and events.k8s.io/v1) does not reach
  // the other side's versions: their entries are dropped by the next write.
  const auto legacy = [](absl::string_view api_version) {
    return api_version.find('/') == absl::string_view::npos;
  };
  const auto reachable = [&](const std::string& api_version) {
    return legacy(api_version) == legacy(r.api_version);
  };
  std::vector<std::string> out;
  if (set.has_value()) {
    for (const SchemaKind& d : set->kinds) {
      if (d.custom_resource == custom && d.kind == r.kind &&
          (custom ? ApiGroupOf(d.api_version) == ApiGroupOf(r.api_version)
                  : builtin(d.api_version) && reachable(d.api_version))) {
        out.push_back(d.api_version);
      }
    }
  }
  if (out.empty()) {
    for (std::string& v : KubernetesServedVersions(r.kind)) {
      if (reachable(v)) out.push_back(std::move(v));
    }
  }
  if (std::find(out.begin(), out.end(), r.api_version) == out.end())
    out.push_back(r.api_version);
  return out;
}

}  // namespace

absl::StatusOr<FieldManager> Catalog::NewFieldManager(
    const ResourceOptions& r) const {
  if (r.api_version.empty() || r.kind.empty()) {
    return absl::InvalidArgumentError(
        "a field manager needs the resource's apiVersion and kind");
  }
  absl::StatusOr<Type> type =
      r.type.has_value() ? *r.type : TypeOfKind(r.api_version, r.kind);
  if (!type.ok()) return type.status();
  FieldManagerOptions opts;
  opts.api_version = r.api_version;
  opts.kind = r.kind;
  opts.subresource = r.subresource;
  opts.apply_defaults = r.apply_defaults;
  opts.builtin_defaults = r.builtin_defaults;
  opts.track_on_create = r.track_on_create;
  opts.max_update_managers = r.max_update_managers;
  opts.clock = r.clock;
  opts.limits = r.limits;
  const SchemaKind* k = FindKind(r.api_version, r.kind);
  if (absl::Status s = CheckSubresource(r, k); !s.ok()) return s;
  opts.custom_resource = k != nullptr && k->custom_resource;
  if (opts.custom_resource) opts.resource = k->resource;
  if (k == nullptr || !k->custom_resource) {
    opts.scale_replicas_paths = BuiltinReplicasPaths(r.api_version, r.kind);
  } else if (!k->scale_replicas_path.empty()) {
    // Every version of the custom resource, with its own path (or none).
    for (const SchemaKind* other : VersionsOfCustomResource(r, set_)) {
      opts.scale_replicas_paths[other->api_version] =
          other->scale_replicas_path;
    }
  }
  opts.served_versions = ServedVersions(r, k, set_);
  if (r.reset_fields) {
    const bool custom = k != nullptr && k->custom_resource;
    std::vector<std::string> status_versions;
    if (custom) {
      for (const SchemaKind* other : VersionsOfCustomResource(r, set_)) {
        if (other->status_subresource && other->api_version != r.api_version)
          status_versions.push_back(other->api_version);
      }
    }
    const std::optional<bool> custom_status =
        custom ? std::optional<bool>(k->status_subresource) : std::nullopt;
    SetResetFields(ResetFieldsFor(r.api_version, r.kind, r.subresource,
                                  custom_status, status_versions),
                   &opts);
    if (r.subresource == "status") {
      opts.status_create_kept_fields =
          ResetFieldsFor(r.api_version, r.kind, "", custom_status).kept_fields;
    }
  }
  return FieldManager::Create(*std::move(type), std::move(opts));
}

std::vector<std::string> PathStrings(const Set& set) {
  std::vector<std::string> out;
  set.Iterate([&](const Path& p) { out.push_back(PathString(p)); });
  return out;
}

absl::StatusOr<std::vector<FieldOwners>> Blame(const Value& object,
                                               const Limits& limits) {
  absl::StatusOr<ManagedState> state = DecodeManagedFields(object, limits);
  if (!state.ok()) return state.status();
  // The entries in the apiserver's order (the stored order of a valid
  // object).
  std::vector<std::pair<std::string, const Set*>> owners;
  Set all;
  for (const std::string& key : CanonicalOrder(*state)) {
    absl::StatusOr<ManagerIdentity> id = DecodeManagerIdentity(key);
    if (!id.ok()) continue;
    std::string label = id->manager;
    if (!id->subresource.empty()) absl::StrAppend(&label, "/", id->subresource);
    const Set& set = state->fields.at(key).set();
    owners.emplace_back(std::move(label), &set);
    all = all.Union(set);
  }
  std::vector<FieldOwners> out;
  all.Iterate([&](const Path& p) {
    FieldOwners f;
    f.path = PathString(p);
    for (const auto& [label, set] : owners) {
      if (set->Has(p)) f.managers.push_back(label);
    }
    out.push_back(std::move(f));
  });
  return out;
}

}  // namespace smdx
