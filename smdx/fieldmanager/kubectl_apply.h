// `kubectl apply --server-side` as kubectl runs it, and the move of
// client-side apply's fields to a server-side applier that it makes.
//
// An object that kubectl once applied client-side carries that manager's
// fields in an Update entry ("kubectl-client-side-apply"), beside the
// last-applied-configuration annotation. A server-side apply alone leaves
// that entry where it is: fields dropped from the configuration stay,
// owned by it. So kubectl (1.26 and later) follows its apply request with
// up to three more (k8s.io/kubectl's apply.go, KEP-3517):
//
//  1. the apply of the configuration by the manager;
//  2. when the manager is "kubectl", the object keeps the annotation and no
//     Apply entry owns it: an apply of the annotation alone (its value as
//     stored) by "kubectl-last-applied", so that the annotation outlives
//     the move;
//  3. when Update entries own the annotation (the client-side appliers):
//     a JSON patch, an update by the manager, of managedFields as
//     UpgradeManagedFields (client-go's csaupgrade) makes them: their
//     fields join the manager's Apply entry;
//  4. after that patch, the apply of step 1 again, which now removes the
//     fields the configuration no longer holds.
//
// KubectlServerSideApply runs the four through one FieldManager (the
// resource, or the subresource kubectl was given: its requests all go
// there) and returns the object stored after the last. Only step 1 can
// fail the command; kubectl reports a failure of a later step as a warning
// and keeps what was stored before it, and so does this.
//
// Example:
//   FieldManagerResult r =
//       KubectlServerSideApply(*fm, live, manifest, "kubectl", false);
//   // r.object: what `kubectl apply --server-side` leaves stored
#ifndef SMDX_FIELDMANAGER_KUBECTL_APPLY_H_
#define SMDX_FIELDMANAGER_KUBECTL_APPLY_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "smdx/fieldmanager/field_manager.h"
#include "smdx/fieldmanager/patch.h"
#include "smdx/value/limits.h"
#include "smdx/value/value.h"

namespace smdx {

// kubectl's field managers: its server-side apply's default, its
// client-side apply's, and the one that keeps the annotation (step 2).
inline constexpr absl::string_view kKubectlManager = "kubectl";
inline constexpr absl::string_view kKubectlClientSideManager =
    "kubectl-client-side-apply";
inline constexpr absl::string_view kKubectlLastAppliedManager =
    "kubectl-last-applied";

struct ManagedFieldsUpgrade {
  // The object with its managedFields upgraded.
  Value object;
  // Whether an entry changed (kubectl sends its patch only then).
  bool changed = false;
};

// client-go's csaupgrade.UpgradeManagedFields: for each of `csa_managers`
// in turn, its Update entry of `subresource` ("" for the main resource)
// joins `ssa_manager`'s Apply entry of that subresource. Without such an
// Apply entry, the first of the manager's Update entries becomes it
// (renamed, of operation Apply; its apiVersion and time stay). Only the
// fields of the Update entry at the Apply entry's apiVersion join; every
// Update entry of the manager and subresource is then removed, those of
// other apiVersions with their fields. Other entries stay as they are.
//
// Go takes the managers in a set's (random) order, which decides only
// which entry is renamed when several could be; here they go in the order
// given. Entries are checked as the field manager decodes them
// (managed_fields.h): an invalid one fails with InvalidArgument naming it,
// where client-go would drop every entry.
absl::StatusOr<ManagedFieldsUpgrade> UpgradeManagedFields(
    const Value& object, absl::Span<const std::string> csa_managers,
    absl::string_view ssa_manager, absl::string_view subresource = "",
    const Limits& limits = Limits());

// The managers of `object`'s Update entries that own the last-applied
// annotation: the client-side appliers kubectl moves (step 3), in the
// order of their entries, each once.
std::vector<std::string> ClientSideAppliers(const Value& object);

// `kubectl apply --server-side --field-manager=manager
// [--force-conflicts]` of `config` onto `live` (null: it does not exist),
// steps 1 to 4 above. The result is step 1's when it fails (a conflict,
// say); else the object stored after the last step that ran, `changed`
// when any step changed it, with the warnings of every step and a warning
// for each later step that failed.
FieldManagerResult KubectlServerSideApply(const FieldManager& fm,
                                          const Value& live,
                                          const Value& config,
                                          absl::string_view manager,
                                          bool force);

// ---- Client-side apply ------------------------------------------------------
//
// `kubectl apply` without --server-side (k8s.io/kubectl v0.37.2's apply.go
// and patcher.go) keeps the configuration it applied in the object's
// last-applied-configuration annotation, and makes the request itself:
//  - no live object: a create of the configuration with the annotation;
//  - else a patch, by its manager ("kubectl-client-side-apply"), made of
//    three documents: the annotation (the configuration applied before),
//    the configuration with its new annotation, and the live object as a
//    GET returns it. A built-in kind gets a strategic merge patch
//    (CreateThreeWayStrategicPatch with the Go type's tags), a custom
//    resource a merge patch (CreateThreeWayMergePatch); an empty patch is
//    not sent.
// kubectl's annotation is the configuration without it, as its JSON
// encoder writes it (sorted keys, HTML-escaped, a newline after), with
// `"annotations":{}` when it had none.
//
// Not modelled: kubectl reads the tags from the server's OpenAPI where it
// can; here they are the Go types' (the same for the built-in kinds).

// What client-side `kubectl apply` sends for `config` onto `live`.
struct ClientSideApplyRequest {
  // A create (of `body`), or a patch of `type` (`body`, {} when kubectl
  // sends nothing).
  bool create = false;
  PatchType type = PatchType::kStrategic;
  Value body;
};

// The request, or kubectl's failure to make one: a subresource (kubectl
// applies to one only server-side), a configuration that is no object, a list item without its merge key, a last-applied annotation
// that is no JSON object, a merge patch that would change apiVersion, kind
// or name (InvalidArgument); a live object that does not read at the
// request's version (its error).
absl::StatusOr<ClientSideApplyRequest> KubectlClientSideRequest(
    const FieldManager& fm, const Value& live, const Value& config);

// `kubectl apply [--field-manager=manager]` of `config` onto `live` (null:
// none): the request above, run through `fm`. Nothing sent: the live
// object, unchanged, with a warning that kubectl reports it unchanged.
// kubectl's failure to make the request is kBadRequest. A live object
// without the annotation gets kubectl's warning that it is missing.
FieldManagerResult KubectlClientSideApply(
    const FieldManager& fm, const Value& live, const Value& config,
    absl::string_view manager = kKubectlClientSideManager);

}  // namespace smdx

#endif  // SMDX_FIELDMANAGER_KUBECTL_APPLY_H_
