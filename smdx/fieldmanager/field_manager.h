// FieldManager: server-side apply and updates exactly as the Kubernetes
// apiserver performs them, without a cluster.
//
// merge/updater.h implements structured-merge-diff's rules on bare objects
// and field sets. The apiserver wraps more around it, and a tool that wants
// to predict what the server stores (a GitOps diff, a CI check, an admission
// simulator, a controller that saves round trips) needs all of it:
//
//  - objects carry their ownership in `metadata.managedFields`; entries are
//    decoded and validated (operation Apply or Update, a non-empty
//    apiVersion, fieldsType FieldsV1, a valid fieldsV1, an RFC 3339 time;
//    errors name the entry and field) and written back in the apiserver's
//    order (operation, time in seconds, manager, apiVersion, subresource),
//    stamped with the time their fields last changed (from an injectable
//    Clock). An entry's identity is manager + operation + subresource, plus
//    the apiVersion for Update entries;
//  - an update may rewrite managedFields itself, or reset them with
//    `managedFields: []` (or `[{}]`); on a subresource the body's entries
//    are ignored;
//  - apiVersion, kind, metadata and the metadata fields the server sets
//    (name, namespace, uid, resourceVersion, generation, creationTimestamp,
//    selfLink, clusterName, managedFields) are never owned;
//  - an applied object must have the resource's apiVersion and kind and no
//    managedFields;
//  - the first apply to an object that has no managedFields first records
//    its existing fields as an Update by "before-first-apply";
//  - an update of an existing object that has no managedFields does not
//    start tracking (a create does, unless track_on_create is off);
//  - an update's fields join the manager's earlier Update entry, which is
//    stamped only when the update changed what it owns; an apply stamps
//    its entry only when it changed the object (a manager that co-owns by
//    applying what is there keeps no time until it changes something, and
//    entries without a time sort first);
//  - at most `max_update_managers` Update entries are kept: the oldest are
//    merged into "ancient-changes" entries, one per apiVersion;
//  - `kubectl` moving from client-side to server-side apply: conflicts on
//    fields its last-applied-configuration annotation covers (with the live
//    value) are forgiven, and the annotation is kept in sync afterwards;
//  - results are defaulted from the schema's defaults, as the apiserver
//    defaults what it decodes and what an apply produces; defaulted fields
//    belong to nobody;
//  - requests to the scale subresource of a kind that has one (see
//    scale_replicas_paths) run, as in the apiserver, on the Scale
//    (autoscaling/v1) the object stands for, with the entries that own its
//    replicas field, through the Scale's own field manager; the replicas
//    and the Scale's entries then go back into the object
//    (fieldmanager/scale.h says how);
//  - the registry strategy's resets: fields a request to this endpoint may
//    not change keep their live values and belong to nobody (.status on
//    the main resource, everything but .status on the status subresource),
//    as FieldManagerOptions' ignored_fields, kept_fields and
//    changed_fields_only say;
//  - a manager recorded at another apiVersion is compared at its version,
//    the objects converted there (ApiserverConverter: built-in kinds whose
//    versions differ, the HorizontalPodAutoscaler, as the scheme converts
//    them, with builtin_defaults); one recorded at a version the kind is
//    not served at (served_versions) is dropped by the next write;
//  - with builtin_defaults, objects of built-in kinds as the apiserver holds
//    them (kubetypes/builtin_kind.h): bodies decoded through their Go types
//    and Kubernetes' defaulters, apply results defaulted after ownership is
//    settled, creates started from the Go type's zero object and given what
//    the registry and admission set; and a write that changes nothing but
//    managedFields times keeps the live times.
//
// The apiserver's behaviour is followed in every rule, the request checks
// of its handlers included (an apply needs a manager name; names are at
// most 128 printable bytes). Invalid managedFields entries in the live
// object fail an apply (kInvalid, naming the entry and field); an update
// ignores invalid entries as the apiserver does (the body's give way to the
// live object's, invalid live ones to none) and says so in `warnings`.
// Without builtin_defaults, objects are treated like custom resources: the
// empty object a first apply starts from is {apiVersion, kind}.
//
// Thread safety: a FieldManager is immutable after Create; concurrent calls
// are safe (the clock must be safe to share, see clock.h).
//
// Example:
//   FieldManagerOptions opts;
//   opts.api_version = "apps/v1";
//   opts.kind = "Deployment";
//   absl::StatusOr<FieldManager> fm = FieldManager::Create(type, opts);
//   FieldManagerResult r = fm->Apply(live, manifest, "my-controller",
//                                    /*force=*/false);
//   if (r.kind == ErrorKind::kConflict) {
//     std::cerr << KubernetesConflictMessage(r.conflicts);
//   } else if (r.ok()) {
//     Store(r.object);  // with its new metadata.managedFields
//   }
#ifndef SMDX_FIELDMANAGER_FIELD_MANAGER_H_
#define SMDX_FIELDMANAGER_FIELD_MANAGER_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "smdx/fieldmanager/clock.h"
#include "smdx/fieldmanager/kubectl.h"
#include "smdx/fieldmanager/managed_fields.h"
#include "smdx/fieldmanager/preconditions.h"
#include "smdx/kubetypes/builtin_kind.h"
#include "smdx/merge/conflict.h"
#include "smdx/merge/updater.h"
#include "smdx/typed/typed.h"
#include "smdx/value/limits.h"

namespace smdx {

struct FieldManagerOptions {
  // The resource the requests go to: group/version ("apps/v1", "v1") and
  // kind ("Deployment"). Required.
  std::string api_version;
  std::string kind;
  // The subresource ("status", "scale"), or empty for the main resource. A
  // request to a subresource needs a live object (kBadRequest without, the
  // apiserver's 404), but where the kind's status store creates one (a
  // Service, from an apply or an update, and a ValidatingAdmissionPolicy,
  // from an apply; BuiltinKind::StatusWriteCreates): the object is then
  // created with the main strategy's PrepareForCreate and none of the
  // kind's create hooks, and the writer's entry is the status endpoint's.
  std::string subresource;
  // Where timestamps come from; the system clock when null. Not owned; must
  // outlive the FieldManager.
  const Clock* clock = nullptr;
  // Update entries kept before the oldest merge into "ancient-changes".
  int max_update_managers = 10;
  // Whether a create (an update of an object without a uid) that nobody
  // tracked starts tracking: the apiserver's track-on-create probability,
  // 1 by default (DefaultTrackOnCreateProbability). False is its
  // NewSkipNonAppliedManager, which tracks nothing before the first apply.
  bool track_on_create = true;
  // Default the result of an apply and the body of an update from the
  // schema's defaults (OpenAPI `default`), as the apiserver does.
  bool apply_defaults = true;
  // Treat objects of a built-in kind as the apiserver does around its
  // field manager (kubetypes/builtin_kind.h): an update's body and an
  // apply's result are decoded through the kind's Go types and defaulted
  // by Kubernetes 1.37's defaulters, a create starts from the Go type's
  // zero object (so a create by update owns the defaulted fields), and a
  // created object gets what the registry and admission set. Of kinds
  // whose root type is not one of Kubernetes' Go types (custom resources)
  // only the metadata goes through its Go type (ObjectMeta), as the
  // apiextensions-apiserver's does. With it, for every kind, an update
  // whose body does not fit the schema is stored with the live object's
  // managedFields and a warning, as the apiserver's UpdateNoErrors stores
  // it (without, it fails kInvalid); and the registry store's rule holds
  // too: a write whose only change is to managedFields times keeps the live
  // times (IgnoreManagedFieldsTimestampsTransformer). Storage's checks of
  // the write hold as well (fieldmanager/preconditions.h): a
  // resourceVersion other than the live object's is kConflict (409, with no
  // conflicts listed), a write without one kInvalid where the kind's
  // strategy requires one (custom resources, a Lease, ...), a PUT's other
  // uid kConflict, an apply's or a patch's kInvalid, a finalizer added to
  // an object being deleted kInvalid; and a write that leaves such an
  // object without finalizers deletes it (FieldManagerResult::deleted).
  // Off here, as
  // apimachinery's field manager alone; the embedding API
  // (embed/catalog.h) turns it on.
  bool builtin_defaults = false;
  // Per apiVersion, paths no manager owns (the apiserver's reset fields,
  // e.g. .status on the main resource of a type with a status subresource).
  std::map<std::string, Set> ignored_fields;
  // The values the registry strategy keeps from the live object whatever a
  // request sends (its PrepareForUpdate), as paths of field names: on the
  // main resource of a kind with a status subresource, {"status"}. A
  // create drops them (PrepareForCreate).
  std::vector<std::vector<std::string>> kept_fields;
  // The values it keeps from the live object on updates only (a
  // Namespace's spec.finalizers); a create takes them from the request.
  // Managers may own them.
  std::vector<std::vector<std::string>> kept_on_update_fields;
  // On the status subresource, the values a create through the status
  // store (FieldManagerOptions::subresource) takes from the zero object
  // instead: the main strategy's PrepareForCreate resets them (the main
  // resource's kept_fields).
  std::vector<std::vector<std::string>> status_create_kept_fields;
  // When not empty, the only values a request changes; everything else
  // keeps its live value (the status subresource changes {"status"}
  // alone).
  std::vector<std::vector<std::string>> changed_fields_only;
  // ResetFieldsFor and SetResetFields (fieldmanager/reset_fields.h) give
  // the apiserver's three for built-in kinds and custom resources.
  // Converts objects between apiVersions for managers recorded at another
  // version; identity when null. Not owned. With builtin_defaults, a
  // built-in kind whose served versions differ in their fields (the
  // HorizontalPodAutoscaler) converts between them as the apiserver's
  // scheme does instead (BuiltinKind::ConvertTo), each version typed as
  // its own. Either way, as the apiserver's
  // converter does (apimachinery's versionConverter), an object at the
  // version asked for already comes back as it is, and any other is typed
  // again after its conversion, strictly: duplicate items, which an update
  // may write, fail there, and the update then takes nothing (with
  // builtin_defaults the object is stored with the live entries).
  const Converter* converter = nullptr;
  // The apiVersions the apiserver serves the kind at (Catalog fills it:
  // for built-in kinds KubernetesServedVersions, or the kinds of a
  // cluster's OpenAPI documents; for a custom resource every version its
  // CRD declares). A manager of a built-in kind recorded at a version not
  // listed is one the apiserver's converter cannot reach
  // (structured-merge-diff's IsMissingVersionError): the next write drops
  // it, and it conflicts with nothing. That is how entries of removed
  // versions (extensions/v1beta1, autoscaling/v2beta2) leave an upgraded
  // cluster's objects, and how an Event's entries of the other group
  // (v1 and events.k8s.io/v1, whose OpenAPI models the apiserver keeps
  // apart) leave it. (A custom resource's: see custom_resource.) Unset:
  // every version is taken.
  std::optional<std::vector<std::string>> served_versions;
  // For requests to the scale subresource: per apiVersion of the resource,
  // the field names of its replicas field (an empty path: that version has
  // no scale subresource). Entries recorded at an apiVersion not listed are
  // dropped by a write to /scale, as the apiserver's ScaleHandler drops
  // them. BuiltinReplicasPaths (fieldmanager/scale.h) gives the built-in
  // kinds' mappings. When empty, a request to "scale" runs on the object
  // itself, as apimachinery's field manager alone (without the registry's
  // Scale) runs it.
  std::map<std::string, std::vector<std::string>> scale_replicas_paths;
  // Whether the resource is a custom resource (served by the
  // apiextensions-apiserver), for the places it differs: its scale
  // subresource (fieldmanager/scale.h), and a manager at a version its CRD
  // does not declare, which its converter refuses with an error of its
  // own: an apply fails, an update takes nothing.
  bool custom_resource = false;
  // The resource's plural ("deployments"), which some of the apiserver's
  // messages name it by; when empty, Kubernetes' guess from the kind
  // (right for every built-in kind). Catalog fills a custom resource's
  // from its CRD.
  std::string resource;
  // Check the live object against the schema (as the apiserver types it).
  // Callers whose live objects are known to be valid (they came from this
  // layer or from a server) may turn it off; an invalid live object then
  // gives unspecified (but memory-safe) results.
  bool validate_live = true;
  // The limits managedFields are held to, in the live object and in a
  // request body (entries, and each fieldsV1's bytes and depth). Objects
  // come as Values, already held to the readers' limits (value/parse.h).
  Limits limits;
};

// The outcome (OpOutcome: kind, status, and with kConflict the conflicts,
// whose managers are identity keys that DisplayManager and
// KubernetesConflictMessage print; with kImmutable the violating paths),
// and on success what the server stores.
struct FieldManagerResult : OpOutcome {
  // The object the server would store, with its metadata.managedFields.
  Value object;
  // The same managed fields, decoded.
  ManagedState managed;
  // Whether `object` differs from the live object (managedFields included).
  bool changed = false;
  // Whether the apiserver deletes the object instead of storing it: the
  // write left an object being deleted (with a deletionTimestamp and no
  // grace period left) without finalizers (a Namespace: nor
  // spec.finalizers). The apiserver then answers with `object`, which it
  // no longer holds. Only with FieldManagerOptions::builtin_defaults.
  bool deleted = false;
  // What a successful operation ignored (invalid managedFields an update
  // passed over), for people.
  std::vector<std::string> warnings;
  // The apiserver's own warnings on a successful request, word for word
  // (its Warning headers): the owner references an update's body held
  // twice, which it drops.
  std::vector<std::string> server_warnings;
};

// A failed outcome's message, as the apiserver words it: an apply's
// conflicts (KubernetesConflictMessage); else, a kConflict without any
// (storage's 409: see FieldManagerOptions::builtin_defaults) included, the
// status's message.
std::string FailureMessage(const OpOutcome& r);

namespace internal {
// The apiserver's conversions between a resource's versions
// (field_manager.cc).
class ApiserverConverter;
}  // namespace internal

class FieldManager {
 public:
  // REQUIRES: `type` is the root type of the resource's objects.
  static absl::StatusOr<FieldManager> Create(Type type,
                                             FieldManagerOptions opts);

  // Server-side apply of `config` by `manager` onto
  // `live`, the stored object with its managedFields (null: it does not
  // exist yet). A live object of another version of the resource is read
  // at the request's first, as the apiserver's storage reads it (the
  // converter's conversion, then the request's apiVersion; its
  // managedFields as they are); one that does not convert is kInternal.
  // Update takes it so too. Nothing is changed when it fails. As in the apiserver, the
  // manager name is required, at most 128 bytes and printable (kInvalid).
  FieldManagerResult Apply(const Value& live, const Value& config,
                           absl::string_view manager, bool force) const;

  // A write (create, update or the result of a non-apply patch) of `object`
  // by `manager` ("unknown" when empty) over `live` (null for a create).
  FieldManagerResult Update(const Value& live, const Value& object,
                            absl::string_view manager) const;

  // The write of `patched`, the object a patch made of `live`
  // (fieldmanager/patch.h's Patch): Update, with the checks storage makes
  // of a patch instead of a PUT's (see builtin_defaults).
  FieldManagerResult UpdatePatched(const Value& live, const Value& patched,
                                   absl::string_view manager) const;

  // `live` as this resource's requests read it: a stored object of another
  // version of the same group and kind converted to options().api_version,
  // as the apiserver's storage converts it (untyped; its managedFields as
  // they are); any other value as it is. Apply and Update read it so
  // themselves; for showing the live object beside their results.
  absl::StatusOr<Value> ReadLive(const Value& live) const;
  // `live` as the apiserver's handlers hold it (a patch applies to it):
  // ReadLive's, with what every read hides but storage holds put back
  // (BuiltinKind::AsStored: an ExternalName Service's internalTrafficPolicy
  // that a manager owns).
  absl::StatusOr<Value> ReadStored(const Value& live) const;

  const Type& type() const { return type_; }
  const FieldManagerOptions& options() const { return opts_; }

 private:
  struct Step;
  FieldManager(Type type, FieldManagerOptions opts);

  absl::Time Now() const;
  // Apply and Update before storage's checks (internal::RefuseStoreWrite).
  FieldManagerResult ApplyWrite(const Value& live, const Value& config,
                                absl::string_view manager, bool force) const;
  FieldManagerResult UpdateWrite(const Value& live, const Value& object,
                                 absl::string_view manager) const;
  // `r`, or storage's refusal of the write it made (with builtin_defaults).
  FieldManagerResult CheckedByStore(FieldManagerResult r, const Value& live,
                                    const Value& request,
                                    internal::StoreWriteVerb verb) const;
  // `live` as the request reads it, when it is stored at another version
  // of the same group and kind; else nullopt (taken as it is).
  std::optional<absl::StatusOr<Value>> LiveAtRequestVersion(
      const Value& live) const;
  // The structured-merge part of an apply by identity `key`, of `config`
  // prepared by updater_, to the state `*from`. The step's state takes what
  // it keeps of `*from` (moved) when the apply succeeds; a failed one leaves
  // `*from` as it was, for a retry.
  Step ApplyFields(const Value& live, const Value& config,
                   const PreparedConfig& prepared, ManagedState* from,
                   const std::string& key, bool force, absl::Time now) const;
  // The structured-merge part of an update by manager `name`; `plain`
  // skips defaulting (the before-first-apply record).
  Step UpdateFields(const Value& live, const Value& object, ManagedState state,
                    absl::string_view name, absl::Time now, bool plain) const;
  // Applies with the client-side-apply upgrade of `kubectl`.
  Step ApplyWithUpgrade(const Value& live, const Value& config,
                        const PreparedConfig& prepared,
                        ManagedState state, absl::string_view name,
                        const std::string& key, bool force,
                        absl::Time now) const;
  std::string Identity(absl::string_view name, bool apply) const;
  // An update whose body the field manager cannot take (it does not fit
  // the schema), as the apiserver stores it: the body as written (defaulted,
  // with what the strategy keeps), with the live object's managedFields as
  // they were and a warning (the apiserver's UpdateNoErrors, which keeps
  // the live entries rather than failing the write).
  // `written` is the body before decoding.
  FieldManagerResult StoredWithLiveEntries(const Value& live,
                                           const Value& live_body, Value body,
                                           const Value& written, bool create,
                                           const absl::Status& failure,
                                           std::vector<std::string> warnings)
      const;
  // `result` with the values the strategy keeps (kept_fields,
  // changed_fields_only, and kept_on_update_fields unless `create`) taken
  // from `live_body`.
  Value KeepResetFields(const Value& live_body, Value result,
                        bool create) const;
  // Removes the untracked fields from the set of `key` (unless it is the
  // set of `prepared`, if given, which was made without them).
  void StripUntracked(ManagedFields* fields, const std::string& key,
                      const PreparedConfig* prepared) const;
  void CapUpdateManagers(ManagedState* state) const;
  // A request to the scale subresource (fieldmanager/scale.h): an apply of
  // `body` when `apply`, else an update.
  FieldManagerResult ScaleRequest(const Value& live, const Value& body,
                                  absl::string_view manager, bool apply,
                                  bool force) const;
  // A created object of a built-in kind as the server stores it, from the
  // object as the request gave it, before decoding, at the server's time
  // `now` (REQUIRES: builtin_). A create through the status subresource
  // (StatusCreates) is the status store's.
  Value Created(Value object, const Value& request, absl::Time now) const;
  // Whether this request (an apply when `apply`) to the status of the
  // object `live` creates it: `live` is null and the kind's status store
  // creates (BuiltinKind::StatusWriteCreates).
  bool StatusCreates(const Value& live, bool apply) const;
  // The request body as a Scale (see fieldmanager/scale.h).
  Value ScaleBody(const Value& body, const Value& live_scale,
                  bool apply) const;

  Type type_;
  FieldManagerOptions opts_;
  // opts_.converter as the apiserver's (see FieldManagerOptions), which
  // the updaters convert with.
  std::shared_ptr<const internal::ApiserverConverter> converter_;
  // With defaulting as configured, and without (for before-first-apply).
  std::shared_ptr<const Updater> updater_;
  std::shared_ptr<const Updater> plain_updater_;
  // For the scale subresource: the Scale endpoint's field manager.
  std::shared_ptr<const FieldManager> scale_;
  // Whether this is the Scale endpoint's field manager of a custom
  // resource, whose first apply fails (scale.h).
  bool custom_resource_scale_ = false;
  // With builtin_defaults, the kind's Go types and defaulters; else null.
  std::shared_ptr<const BuiltinKind> builtin_;
  // With builtin_defaults, for a kind that is not built-in (a custom
  // resource): its metadata as the apiextensions-apiserver holds it; else
  // null.
  std::shared_ptr<const CustomResourceMetadata> custom_metadata_;
};

}  // namespace smdx

#endif  // SMDX_FIELDMANAGER_FIELD_MANAGER_H_
