// What the apiserver's storage checks of a write against the object it
// holds, after the field manager made the object (the generic registry's
// Store.Update and Store.Create, the etcd3 store's preconditions, and the
// patch handler's uid check):
//
//   - optimistic concurrency: a write to an existing object whose
//     resourceVersion is not the stored one fails with 409 ("the object has
//     been modified"); one without a resourceVersion is unconditional,
//     except where the kind's strategy allows none (422, "must be
//     specified for an update": custom resources, and of the built-in
//     kinds a Lease, a PodDisruptionBudget, webhook configurations, a
//     CustomResourceDefinition, ...); one that is no unsigned integer is
//     the apiserver's 500;
//   - a PUT's uid is a precondition: another uid than the stored object's
//     fails with 409 before anything else runs;
//   - an apply or a patch cannot change the uid (422, ObjectMeta's
//     validation), and an apply that creates cannot name one (409, "uid
//     mismatch");
//   - a create (POST) cannot carry a resourceVersion (500);
//   - no finalizer can join an object being deleted (422, ObjectMeta's
//     validation), and a write that leaves such an object (with no grace
//     period left) without finalizers deletes it.
//
// The messages are the apiserver's, word for word. They name the resource
// by its plural (a built-in kind's: Kubernetes' guess from the kind, which
// is right for every built-in kind; a custom resource's: its CRD's
// spec.names.plural) and, for the uid precondition, by its key in etcd.
//
// A live object without a resourceVersion (or uid) was not read from a
// server: nothing is checked against what it lacks.
#ifndef SMDX_FIELDMANAGER_PRECONDITIONS_H_
#define SMDX_FIELDMANAGER_PRECONDITIONS_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "smdx/merge/updater.h"
#include "smdx/value/value.h"

namespace smdx {
namespace internal {

// The resource a write goes to, as the messages name it.
struct StoreResource {
  // (Views of the caller's strings, which outlive the checks.)
  absl::string_view api_version;
  absl::string_view kind;
  // The plural; when empty, Kubernetes' guess from the kind (GuessResource).
  absl::string_view resource;
  bool custom_resource = false;
};

// How the request handler made the object it writes.
enum class StoreWriteVerb {
  kUpdate,  // a PUT (or a POST, over no live object)
  kPatch,   // the object a patch made of the live one
  kApply,   // a server-side apply's configuration, merged into the live one
};

struct StoreWrite {
  StoreWriteVerb verb = StoreWriteVerb::kUpdate;
  // The scale subresource: the request is a Scale, whose resourceVersion
  // alone reaches the object (an empty one keeps the stored one).
  bool scale = false;
  // A request to the main resource (a create through a subresource is a
  // PUT's create, which keeps no resourceVersion).
  bool main_resource = true;
};

struct StoreRefusal {
  ErrorKind kind;
  absl::Status status;
};

// Kubernetes' plural of a kind (apimachinery's UnsafeGuessKindToResource):
// lowercase, "es" after an "s", "ies" for a final "y", else "s". Endpoints
// stays "endpoints", the one built-in kind the guess gets wrong.
std::string GuessResource(absl::string_view kind);

// Why the store refuses the successful write of `request` (the PUT's body,
// the patched object, the applied configuration, or the Scale) over
// `live` (null: a create), which made `result`, or nullopt.
std::optional<StoreRefusal> RefuseStoreWrite(const StoreResource& r,
                                             const StoreWrite& w,
                                             const Value& live,
                                             const Value& request,
                                             const Value& result);

// Whether storage deletes the object the write of `result` over `live`
// stores (its ShouldDeleteDuringUpdate): `live` is being deleted (a
// deletionTimestamp) with no grace period left, and `result` has no
// finalizers (a Namespace: nor spec.finalizers).
bool DeletedByWrite(const StoreResource& r, const Value& live,
                    const Value& result);

}  // namespace internal
}  // namespace smdx

#endif  // SMDX_FIELDMANAGER_PRECONDITIONS_H_
