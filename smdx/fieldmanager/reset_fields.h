// The fields the apiserver's registry strategies reset: what a request to a
// resource's main endpoint or to one of its subresources (status, mostly;
// a CSR's approval, a Namespace's finalize) may not change.
//
// Every strategy of a kind with a status subresource says, in its
// GetResetFields, which fields a request to that endpoint leaves alone:
// .status on the main resource, .spec (and for some kinds metadata.labels
// or more) on the status subresource. The server keeps their live values
// (PrepareForUpdate; a create drops the status, PrepareForCreate), and
// server-side apply gives no manager ownership of them. On the status
// subresource the strategies keep everything but .status (its metadata
// included, ResetObjectMetaForStatus).
//
// Example:
//   FieldManagerOptions opts;
//   opts.api_version = "apps/v1";
//   opts.kind = "Deployment";
//   opts.subresource = "status";
//   SetResetFields(BuiltinResetFields("apps/v1", "Deployment", "status"),
//                  &opts);
#ifndef SMDX_FIELDMANAGER_RESET_FIELDS_H_
#define SMDX_FIELDMANAGER_RESET_FIELDS_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "smdx/fieldmanager/field_manager.h"
#include "smdx/fieldpath/set.h"

namespace smdx {

// What one endpoint's strategy resets (see FieldManagerOptions).
struct ResetFields {
  // Per apiVersion, the paths no manager gains (GetResetFields).
  std::map<std::string, Set> ignored_fields;
  // The values kept from the live object.
  std::vector<std::vector<std::string>> kept_fields;
  // The values kept from the live object by updates (not creates).
  std::vector<std::vector<std::string>> kept_on_update_fields;
  // When not empty, the only values the request changes.
  std::vector<std::vector<std::string>> changed_fields_only;

  bool empty() const {
    return ignored_fields.empty() && kept_fields.empty() &&
           kept_on_update_fields.empty() && changed_fields_only.empty();
  }
};

// The resets of a built-in kind's endpoint, following Kubernetes v1.37's
// registry strategies: `subresource` is "" for the main resource or
// "status". Kinds without a status subresource reset nothing.
ResetFields BuiltinResetFields(absl::string_view api_version,
                               absl::string_view kind,
                               absl::string_view subresource);

// The resets of a custom resource's endpoint (the apiextensions-apiserver's
// strategies), when its CRD version declares the status subresource;
// nothing otherwise. The fields are ignored at `api_version`, and the
// status endpoint's also at `status_versions`: the CRD's other versions
// that declare the status subresource (getStatusResetFields), so that a
// manager there keeps the spec a status write sends.
ResetFields CustomResourceResetFields(
    absl::string_view api_version, bool status_subresource,
    absl::string_view subresource,
    const std::vector<std::string>& status_versions = {});

// The resets of the endpoint of any resource: a built-in kind's when
// `custom_resource_status` is empty, else a custom resource's whose CRD
// version declares the status subresource or not (`status_versions` as
// for CustomResourceResetFields).
ResetFields ResetFieldsFor(absl::string_view api_version,
                           absl::string_view kind,
                           absl::string_view subresource,
                           std::optional<bool> custom_resource_status,
                           const std::vector<std::string>& status_versions = {});

// The subresources of a built-in kind that take an object of the kind, as
// Kubernetes v1.37 serves them: "status" where the kind has one, "scale"
// (BuiltinReplicasPaths), a CertificateSigningRequest's "approval", a
// Namespace's "finalize", a Pod's "resize" and "ephemeralcontainers" (whose
// strategies keep all but what they change, resetting nothing in the field
// manager). Sorted.
std::vector<std::string> BuiltinSubresources(absl::string_view api_version,
                                             absl::string_view kind);

// Copies `r` into the options.
void SetResetFields(const ResetFields& r, FieldManagerOptions* opts);

}  // namespace smdx

#endif  // SMDX_FIELDMANAGER_RESET_FIELDS_H_
