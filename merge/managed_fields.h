// Kubernetes metadata.managedFields <-> ManagedFields.
//
// The apiserver keys each manager entry by its identity: the manager name
// and operation (plus the apiVersion for Update entries, and the
// subresource): an applier and an updater of the same name are two owners.
// This file encodes that identity as the apiserver does (the entry as JSON
// without fields and time), decodes and encodes the entries, and renders an
// identity for people ("kubectl" using apps/v1).
#ifndef SMDX_MERGE_MANAGED_FIELDS_H_
#define SMDX_MERGE_MANAGED_FIELDS_H_

#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "fieldpath/managed.h"
#include "merge/conflict.h"
#include "typed/value.h"

namespace smdx {

struct ManagerIdentity {
  std::string manager;
  std::string operation;    // "Apply" or "Update"
  std::string api_version;  // only part of the identity for Update
  std::string subresource;
};

// The identity as the apiserver writes it: {"manager":...,"operation":...}.
std::string EncodeManagerIdentity(const ManagerIdentity& id);
absl::StatusOr<ManagerIdentity> DecodeManagerIdentity(absl::string_view key);
// `"kubectl"`, `"kube-controller-manager" using apps/v1`, ...
std::string DisplayManager(absl::string_view key);

// Decoded managedFields: the sets keyed by identity, and each entry's time.
struct DecodedManagedFields {
  ManagedFields managers;
  std::map<std::string, std::string> times;
};

// Reads `metadata.managedFields` of `object` (absent: none). Invalid entries
// are errors naming the entry.
absl::StatusOr<DecodedManagedFields> DecodeManagedFields(const Value& object);

// Writes `managers` as a managedFields list, sorted as the apiserver sorts
// it. Entries whose set changed get `now`; the others keep their time.
Value EncodeManagedFields(const ManagedFields& managers,
                          const DecodedManagedFields& before,
                          const std::string& now);

// `object` without metadata.managedFields (and without metadata, when that
// was all it held).
Value StripManagedFields(Value object);

// Kubernetes' wording of an apply conflict ("Apply failed with 1 conflict:
// conflict with \"kubectl\": .spec.replicas").
std::string KubernetesConflictMessage(const Conflicts& conflicts);

}  // namespace smdx

#endif  // SMDX_MERGE_MANAGED_FIELDS_H_
