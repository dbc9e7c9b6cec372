// Updater: server-side apply and update with per-manager ownership.
//
// Every field of an object is owned by the managers that set it. An update
// (a plain write) moves the fields it changes to its manager. An apply
// merges a partial configuration into the live object; the applier then
// owns exactly the fields of its configuration, fields it applied before and
// dropped are removed unless someone else owns them, and taking a field that
// another manager owns with a different value is a conflict unless forced.
// The rules are those of sigs.k8s.io/structured-merge-diff's merge.Updater.
//
// Versions: each manager's set is recorded at the apiVersion it used, and
// compared there. An applier's dropped fields are found at the version it
// last applied at: the merged object is converted there, what the applier
// owned then is removed, what each manager owns is added back at that
// manager's version (the last applied version first), fields the applier
// never owned are put back, and the result is converted to the applier's
// version now. A last applied version that no longer exists prunes
// nothing. Objects at a version are typed as that version's (the
// converter's TypeAt), else as the updater's. Ignored fields are filtered from a set at the version it is
// recorded at; the last set is pruned as recorded (as SMD does, so a field
// ignored only at the new version goes even when it is applied again).
//
// When the schema has immutability markers, a result that changes an
// immutable field fails with kImmutable (after conflicts are checked; force
// does not override it). Creating an object is never a violation.
//
// Operations never modify their inputs: a failed operation leaves the
// caller's object and managed fields as they were.
//
// Thread safety: an Updater is immutable; concurrent calls are safe.
//
// Example:
//   Updater u(type);
//   OpResult r = u.Apply(live, config, "apps/v1", managers, "kubectl",
//   /*force=*/false); if (r.kind == ErrorKind::kConflict) std::cerr <<
//   r.conflicts.ToString();
#ifndef SMDX_MERGE_UPDATER_H_
#define SMDX_MERGE_UPDATER_H_

#include <map>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "smdx/fieldpath/versioned_set.h"
#include "smdx/merge/conflict.h"
#include "smdx/typed/typed.h"

namespace smdx {

// Converts an object to another apiVersion of the same kind. The updater
// records each manager's fields in the version it used and compares objects
// in that version. Return NotFound for a version that no longer exists: its
// managers are then dropped.
class Converter {
 public:
  virtual ~Converter() = default;
  virtual absl::StatusOr<Value> Convert(const Value& object,
                                        const std::string& version) const = 0;
  // The type of objects at `version`, where it is not the updater's (the
  // versions of a kind whose fields differ between them); null: the
  // updater's type.
  virtual const Type* TypeAt(const std::string& version) const {
    (void)version;
    return nullptr;
  }
};

enum class ErrorKind {
  kNone,
  kInvalid,     // the object does not fit the schema
  kConflict,    // the apply would take fields from other managers
  kImmutable,   // the change touches immutable fields
  kBadRequest,  // the request itself is malformed (wrong apiVersion/kind,
                // managedFields in an applied configuration)
  kInternal,    // anything else (a converter failure)
};

absl::string_view ErrorKindName(ErrorKind k);

// How an operation ended: kNone, or why it failed. Shared by the updater's
// results and the field manager's (fieldmanager/field_manager.h).
struct OpOutcome {
  ErrorKind kind = ErrorKind::kNone;
  absl::Status status;  // the error, when kind != kNone
  // With kConflict: the fields and their owners (manager keys).
  Conflicts conflicts;
  // With kImmutable: every violating path (see typed/immutable.h).
  std::vector<Path> error_paths;

  bool ok() const { return kind == ErrorKind::kNone; }
};

struct OpResult : OpOutcome {
  Value object;  // the new live object
  ManagedFields managers;
  // False for a no-op: `object` is then the live object itself (an
  // update's: where the written object equals it to the letter; where it
  // does only as SMD compares values, a float for an integer or another
  // key order, the object written, which is stored as written).
  bool changed = false;
};

struct UpdaterOptions {
  // Per apiVersion, paths no manager ever owns (and everything below them).
  std::map<std::string, Set> ignored_fields;
  // Identity when null. Not owned; must outlive the Updater.
  const Converter* converter = nullptr;
  // Validate the live object too (duplicates tolerated). Callers that hold
  // an already validated live object may turn this off.
  bool validate_live = true;
  // Validate the applied configuration (and the object of an update).
  // Callers that validated it when they parsed it may turn this off; an
  // invalid value then gives unspecified (but memory-safe) results.
  bool validate_input = true;
  // When the schema declares defaults, default the written object of an
  // update (the apiserver defaults what it decodes) and the changed result
  // of an apply, after ownership is settled (what defaulting adds belongs to
  // nobody), as the apiserver does. Off by default: SMD itself only uses
  // defaults to complete associative keys. `changed` of an apply says
  // whether the merge changed the object before defaulting.
  bool apply_defaults = false;
};

// An applied configuration read into its field set ahead of the apply
// (Updater::Prepare), for a caller that needs the set first: the field
// manager matches it against the applier's recorded fields. Apply still
// validates the configuration (a set read from an invalid one means
// nothing).
struct PreparedConfig {
  // The fields the applier will own: those of the configuration at the
  // version it was prepared for, ignored fields filtered, less those set
  // aside. A last applied set that is this very set (shared) is within the
  // new one without comparing them.
  std::shared_ptr<const Set> fields;
  // Fields of the configuration the applier is not to own (the field
  // manager's untracked fields): pruning still counts them as its own, as
  // if they were removed after the apply.
  Set aside;
};

class Updater {
 public:
  explicit Updater(Type type, UpdaterOptions opts = {});

  // A write by `manager` that replaces `live` with `object`. `live` is null
  // when the object does not exist yet.
  OpResult Update(const Value& live, const Value& object,
                  const std::string& version, const ManagedFields& managers,
                  const std::string& manager) const;

  // Server-side apply of `config` by `manager`.
  OpResult Apply(const Value& live, const Value& config,
                 const std::string& version, const ManagedFields& managers,
                 const std::string& manager, bool force) const;
  // The same with `config` prepared by this updater's Prepare(config,
  // version, set_aside): the result is the first Apply's, but that the
  // applier does not own the fields set aside.
  OpResult Apply(const Value& live, const Value& config,
                 const std::string& version, const ManagedFields& managers,
                 const std::string& manager, bool force,
                 const PreparedConfig& prepared) const;
  // `set_aside`, when given, names the fields to set aside (members only,
  // as Set::Difference takes them).
  PreparedConfig Prepare(const Value& config, const std::string& version,
                         const Set* set_aside = nullptr) const;

  const Type& type() const { return type_; }

 private:
  absl::StatusOr<Value> Convert(const Value& v,
                                const std::string& version) const;
  // The type of objects at `version` (the converter's, else type_).
  const Type& TypeAt(const std::string& version) const;
  // Marks every entry reconciled with the type of its version.
  void MarkReconciled(ManagedFields* managers) const;
  const Set* Ignored(const std::string& version) const;
  absl::StatusOr<ManagedFields> Reconcile(const Value& live,
                                          const ManagedFields& managers) const;
  // The shared part of apply and update: who loses what to the change from
  // `old_obj` to `new_obj`. Fills `compare` (the comparison at `version`)
  // unless it is null.
  OpResult Transfer(const Value& old_obj, const Value& new_obj,
                    const std::string& version, ManagedFields managers,
                    const std::string& manager, bool force,
                    Comparison* compare) const;
  // What `manager` stopped applying, removed from `merged` unless another
  // manager owns it (SMD's prune), at the version of `last` (its set
  // before this apply); `managers` already holds its new set.
  // `last_within` says the caller knows `last` holds no member the new set
  // lacks; `aside` are fields of the configuration that count as the
  // applier's here but are not in its new set. `left_keyless_item` is set
  // to whether the result holds an item of a list with keys that is null
  // or lacks a key field (its fields went while another manager owns the
  // item itself).
  absl::StatusOr<Value> RemoveDroppedFields(const Value& merged,
                                            const ManagedFields& managers,
                                            const std::string& manager,
                                            const VersionedSet* last,
                                            bool last_within,
                                            const Set& aside,
                                            bool* left_keyless_item) const;

  Type type_;
  UpdaterOptions opts_;
};

}  // namespace smdx

#endif  // SMDX_MERGE_UPDATER_H_
