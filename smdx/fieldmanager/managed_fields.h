// Kubernetes metadata.managedFields, read and written as the apiserver does.
//
// Each entry of `metadata.managedFields` records one manager's fields: the
// manager name, the operation (Apply or Update), the apiVersion it used, when
// its fields last changed, the subresource, and the field set in the
// `fieldsV1` encoding. The apiserver keys entries by identity: manager,
// operation and subresource, plus the apiVersion for Update entries (an
// applier keeps one entry whatever version it applies with). An identity is
// the entry without its fields and time, as JSON:
//   {"manager":"kubectl","operation":"Update","apiVersion":"apps/v1"}
//
// ManagedState is the decoded form: the field sets keyed by identity
// (what merge/updater.h works on) and each entry's time. Decoding validates
// every entry and names the bad one; encoding writes the canonical order
// (operation, then time in seconds, manager, apiVersion, subresource).
//
// Example:
//   absl::StatusOr<ManagedState> m = DecodeManagedFields(live);
//   ... m->fields is the input of Updater::Apply ...
//   SetObjectManagedFields(&result, *m);
#ifndef SMDX_FIELDMANAGER_MANAGED_FIELDS_H_
#define SMDX_FIELDMANAGER_MANAGED_FIELDS_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "smdx/fieldpath/versioned_set.h"
#include "smdx/merge/conflict.h"
#include "smdx/value/limits.h"
#include "smdx/value/value.h"

namespace smdx {

class Type;  // typed/typed.h

// The longest manager name the apiserver accepts.
inline constexpr size_t kMaxManagerNameLength = 128;

struct ManagerIdentity {
  std::string manager;
  std::string operation;    // "Apply" or "Update"
  std::string api_version;  // only part of the identity for Update
  std::string subresource;
};

// The identity key as the apiserver writes it.
std::string EncodeManagerIdentity(const ManagerIdentity& id);
absl::StatusOr<ManagerIdentity> DecodeManagerIdentity(absl::string_view key);
// For people, as the apiserver's conflict messages print it: `"kubectl"`,
// `"kube-controller-manager" using apps/v1`,
// `"kubelet" with subresource "status" using v1`.
std::string DisplayManager(absl::string_view key);

// An entry's fieldsV1 as it was decoded, with the set read from it. Kept
// only when the value is exactly what encoding that set writes.
struct DecodedFieldsV1 {
  std::shared_ptr<const Set> set;
  Value value;
};

// Managed fields with their times, keyed by identity. An identity without a
// time has none (the apiserver writes such entries without `time`).
struct ManagedState {
  ManagedFields fields;
  std::map<std::string, absl::Time> times;
  // The fieldsV1 values decoding read, by identity: encoding writes an
  // entry's value again while its set is still equal to the one read from
  // it (most entries of most writes), instead of building the same value
  // anew. Stale or missing ones only cost that building.
  std::map<std::string, DecodedFieldsV1> decoded;

  bool empty() const { return fields.empty(); }
};

// An entry a caller expects to find and the set it expects it to hold:
// when the entry `key` holds exactly the encoding of `set`
// (FieldsV1ValueEncodes), decoding takes `set` itself (shared) instead of
// reading the encoding into a new set. The state decoded is the same either
// way. `set` must be consistent with the type decoding is given, if any
// (its reconcile leaves it unchanged), as a set the type built is.
struct ExpectedEntry {
  std::string key;
  std::shared_ptr<const Set> set;
};

// Decodes a managedFields list. Every entry must be a map of the entry's
// fields (manager, operation, apiVersion, time, fieldsType, fieldsV1,
// subresource) with an operation of Apply or Update, a non-empty apiVersion,
// fieldsType FieldsV1, a valid fieldsV1 and an RFC 3339 time. Of two
// entries with one identity the later counts, as in the apiserver. Errors are
// InvalidArgument and name the entry and field:
//   .metadata.managedFields[1].operation: must be Apply or Update, got "Patch"
// The list is held to limits.max_managed_fields_entries and each fieldsV1
// to limits.max_fields_v1_bytes and max_depth (value/limits.h).
//
// `reconcile_for`, when given, is the type the sets will be used with: they
// are read with its field names, and a set that its reconcile
// (ReconcileFieldSetWithSchema) would leave unchanged comes marked as
// reconciled for it, so that an Updater of that type does not walk it again.
// `expected`, when given, may spare reading one entry (see ExpectedEntry).
absl::StatusOr<ManagedState> DecodeManagedFieldsList(
    const Value& list, const Limits& limits = Limits(),
    const Type* reconcile_for = nullptr,
    const ExpectedEntry* expected = nullptr);
// The managedFields of `object` (none when absent or null).
absl::StatusOr<ManagedState> DecodeManagedFields(
    const Value& object, const Limits& limits = Limits(),
    const Type* reconcile_for = nullptr,
    const ExpectedEntry* expected = nullptr);

// The apiserver's validation of the managedFields it stores, beyond what
// decoding checks: manager names of at most 128 bytes. The error names the
// entry in the encoded (canonical) order.
absl::Status ValidateManagerNames(const ManagedState& state);

// Whether a managedFields value asks for a reset: an empty list, or a list
// of one empty entry.
bool IsManagedFieldsReset(const Value& list);
// The `metadata.managedFields` of `object`, or nullptr.
const Value* FindManagedFields(const Value& object);

// The identity keys of `state` in the canonical order of the entries
// (operation, time in whole seconds, manager, apiVersion, subresource).
std::vector<std::string> CanonicalOrder(const ManagedState& state);

// The entries of `state` as a managedFields list in the canonical order.
Value EncodeManagedFields(const ManagedState& state);

// Sets `object`'s metadata.managedFields to `state` (removes it when `state`
// is empty). A non-map object becomes a map.
void SetObjectManagedFields(Value* object, const ManagedState& state);

// `object` without metadata.managedFields (and without metadata, when that
// was all it held: metadata smdx added to an object whose type has none).
Value StripManagedFields(Value object);

// RFC 3339 in UTC, whole seconds: 2026-11-23T10:04:05Z.
std::string FormatManagedTime(absl::Time t);
// Any RFC 3339 time; fractions of a second are dropped, as the apiserver's
// metav1.Time keeps whole seconds.
absl::StatusOr<absl::Time> ParseManagedTime(absl::string_view s);

// Kubernetes' wording of an apply conflict ("Apply failed with 1 conflict:
// conflict with \"kubectl\": .spec.replicas").
std::string KubernetesConflictMessage(const Conflicts& conflicts);

}  // namespace smdx

#endif  // SMDX_FIELDMANAGER_MANAGED_FIELDS_H_
