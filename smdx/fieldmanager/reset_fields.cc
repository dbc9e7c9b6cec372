#include "smdx/fieldmanager/reset_fields.h"

#include <set>
#include <vector>

#include "absl/strings/str_split.h"
#include "smdx/fieldmanager/scale.h"
#include "smdx/schema/builtin.h"

namespace smdx {

namespace {

// One strategy's GetResetFields: the kind, by API group, the endpoint, the
// apiVersions it names and the dotted paths it resets in each.
struct Rule {
  const char* group;
  const char* kind;
  const char* subresource;  // "", "status" or "approval"
  const char* versions;     // space-separated apiVersions
  const char* paths;        // space-separated dotted paths
};

// Kubernetes v1.37's strategies (conformance/realapi/cmd/resetfields).
constexpr Rule kRules[] = {
#include "smdx/fieldmanager/reset_fields_table.inc"
};

// What a strategy's PrepareForUpdate keeps from the live object beyond the
// fields its GetResetFields names: managers may own these, but a write to
// that endpoint does not change them (Kubernetes 1.37).
struct Kept {
  const char* group;
  const char* kind;
  const char* subresource;
  const char* path;  // dotted
};
constexpr Kept kKeptOnUpdate[] = {
    // namespaceStrategy.PrepareForUpdate: finalizers change only through
    // the finalize subresource.
    {"", "Namespace", "", "spec.finalizers"},
};

// Reset fields whose values a create takes from the request, as its
// PrepareForCreate keeps them (updates keep the live ones): a Node's status
// ("Nodes allow *all* fields, including status, to be set on create",
// nodeStrategy; its status.config aside, which kubetypes drops), and a
// CertificateSigningRequest's spec (the strategy fills its user fields
// from the requesting user, which smdx cannot know).
constexpr Kept kTakenAtCreate[] = {
    {"", "Node", "", "status"},
    {"certificates.k8s.io", "CertificateSigningRequest", "", "spec"},
};

// Reset fields whose values the strategy's PrepareForUpdate settles itself
// rather than keeping the live ones: the CSR status endpoint keeps only
// the live Approved and Denied conditions (preserveConditionInstances,
// kubetypes), so other conditions written there stay, unowned.
constexpr Kept kSettledByTheStrategy[] = {
    {"certificates.k8s.io", "CertificateSigningRequest", "status",
     "status.conditions"},
};

// Endpoints that change some values alone, keeping the rest from the live
// object: the CSR approval endpoint changes the conditions (its
// PrepareForUpdate copies the old object but them).
constexpr Kept kChangesOnly[] = {
    {"certificates.k8s.io", "CertificateSigningRequest", "approval",
     "status.conditions"},
};

// Endpoints whose strategies reset fields by a filter their REST storage
// does not offer (ResizeREST and EphemeralContainersREST have no
// GetResetFieldsFilter), so the field manager resets nothing there; what
// their PrepareForUpdate keeps is kubetypes' (pod.h).
struct Endpoint {
  const char* group;
  const char* kind;
  const char* subresource;
};
constexpr Endpoint kResettingNothing[] = {
    {"", "Pod", "ephemeralcontainers"},
    {"", "Pod", "resize"},
};

std::vector<std::string> Dotted(absl::string_view path) {
  return absl::StrSplit(path, '.');
}

Set SetOf(const std::vector<std::vector<std::string>>& paths) {
  Set s;
  for (const std::vector<std::string>& p : paths) {
    std::vector<PathElement> path;
    for (const std::string& name : p) path.push_back(PathElement::Field(name));
    s.Insert(path);
  }
  return s;
}

}  // namespace

ResetFields BuiltinResetFields(absl::string_view api_version,
                               absl::string_view kind,
                               absl::string_view subresource) {
  ResetFields out;
  absl::string_view group = ApiGroupOf(api_version);
  std::vector<std::vector<std::string>> here;
  for (const Rule& r : kRules) {
    if (r.group != group || r.kind != kind || r.subresource != subresource)
      continue;
    std::vector<std::vector<std::string>> paths;
    for (absl::string_view p : absl::StrSplit(r.paths, ' ', absl::SkipEmpty()))
      paths.push_back(Dotted(p));
    for (absl::string_view v :
         absl::StrSplit(r.versions, ' ', absl::SkipEmpty())) {
      out.ignored_fields[std::string(v)] = SetOf(paths);
      if (v == api_version) here = paths;
    }
  }
  // The built-in strategies' PrepareForUpdate resets what GetResetFields
  // names (a Deployment's status endpoint takes annotation changes, say),
  // and some keep more.
  for (const Kept& k : kChangesOnly) {
    if (k.group == group && k.kind == kind && k.subresource == subresource)
      out.changed_fields_only.push_back(Dotted(k.path));
  }
  for (const std::vector<std::string>& p : here) {
    bool settled = false;
    for (const Kept& k : kSettledByTheStrategy) {
      settled = settled || (k.group == group && k.kind == kind &&
                            k.subresource == subresource &&
                            Dotted(k.path) == p);
    }
    if (settled) continue;
    bool at_create = false;
    for (const Kept& k : kTakenAtCreate) {
      at_create = at_create || (k.group == group && k.kind == kind &&
                                k.subresource == subresource &&
                                Dotted(k.path) == p);
    }
    (at_create ? out.kept_on_update_fields : out.kept_fields).push_back(p);
  }
  for (const Kept& k : kKeptOnUpdate) {
    if (k.group == group && k.kind == kind && k.subresource == subresource)
      out.kept_on_update_fields.push_back(Dotted(k.path));
  }
  return out;
}

ResetFields CustomResourceResetFields(
    absl::string_view api_version, bool status_subresource,
    absl::string_view subresource,
    const std::vector<std::string>& status_versions) {
  ResetFields out;
  if (!status_subresource) return out;
  // apiextensions-apiserver's customresource strategies (v0.37): the main
  // resource resets .status, the status subresource .metadata and .spec
  // (and keeps everything but .status).
  std::vector<std::vector<std::string>> paths =
      subresource == "status"
          ? std::vector<std::vector<std::string>>{{"metadata"}, {"spec"}}
          : std::vector<std::vector<std::string>>{{"status"}};
  out.ignored_fields[std::string(api_version)] = SetOf(paths);
  if (subresource == "status") {
    // The status endpoint's field manager takes the status resets of
    // every version (getStatusResetFields).
    for (const std::string& v : status_versions) {
      out.ignored_fields[v] = out.ignored_fields[std::string(api_version)];
    }
    // statusStrategy.PrepareForUpdate copies the old object and sets only
    // the new status.
    out.changed_fields_only = {{"status"}};
  } else {
    out.kept_fields = std::move(paths);
  }
  return out;
}

ResetFields ResetFieldsFor(absl::string_view api_version,
                           absl::string_view kind,
                           absl::string_view subresource,
                           std::optional<bool> custom_resource_status,
                           const std::vector<std::string>& status_versions) {
  if (custom_resource_status.has_value()) {
    return CustomResourceResetFields(api_version, *custom_resource_status,
                                     subresource, status_versions);
  }
  return BuiltinResetFields(api_version, kind, subresource);
}

std::vector<std::string> BuiltinSubresources(absl::string_view api_version,
                                             absl::string_view kind) {
  const absl::string_view group = ApiGroupOf(api_version);
  std::set<std::string> out;
  for (const Rule& r : kRules) {
    if (r.group != group || r.kind != kind || *r.subresource == '\0')
      continue;
    for (absl::string_view v :
         absl::StrSplit(r.versions, ' ', absl::SkipEmpty())) {
      if (v == api_version) out.insert(r.subresource);
    }
  }
  const ReplicasPaths replicas = BuiltinReplicasPaths(api_version, kind);
  if (auto p = replicas.find(std::string(api_version));
      p != replicas.end() && !p->second.empty()) {
    out.insert("scale");
  }
  for (const Endpoint& e : kResettingNothing) {
    if (e.group == group && e.kind == kind) out.insert(e.subresource);
  }
  return std::vector<std::string>(out.begin(), out.end());
}

void SetResetFields(const ResetFields& r, FieldManagerOptions* opts) {
  for (const auto& [version, set] : r.ignored_fields)
    opts->ignored_fields[version] = set;
  opts->kept_fields = r.kept_fields;
  opts->kept_on_update_fields = r.kept_on_update_fields;
  opts->changed_fields_only = r.changed_fields_only;
}

}  // namespace smdx
