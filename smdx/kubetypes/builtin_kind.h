// Kubernetes' built-in kinds as the apiserver holds them around its field
// manager. The apiserver decodes a request body for a built-in kind into
// its Go type and runs the Go defaulters on it before the field manager
// computes an update's ownership, and defaults an apply's result the same
// way; a create starts from the Go type's zero object; the registry and
// admission then change a created object (a status the strategy resets,
// finalizers an admission plugin adds) without recording an owner. A
// BuiltinKind does the same to Values:
//
//   - Decode: the object through its Go types (fields that are not
//     omitempty get their zero values, omitempty fields with empty values
//     go, undeclared fields go) and then Kubernetes 1.37's defaulters of
//     built-in types (kubetypes/internal/defaulters.h: the SetDefaults_*
//     functions and the +default markers, as data and rules);
//   - ReadBack: Decode, and what the storage's protobuf encoding changes
//     (empty slices and maps come back null);
//   - NewObject: the zero object a create starts from;
//   - PrepareForCreate: what the registry strategy and the admission
//     plugins of a default apiserver set on a created object that depends
//     on nothing but the object;
//   - PrepareForUpdate: the same on an updated object, from it and the
//     live one (the generation, counting spec changes).
//
// Nothing here guesses cluster state: allocated cluster IPs and node
// ports, IP families, a ServiceAccount's token, priorities from
// PriorityClasses and default storage classes stay unset (README.md lists
// them). Feature gates and the admission plugins' flags are their 1.37
// defaults.
//
// Example:
//   std::shared_ptr<const BuiltinKind> k =
//       BuiltinKind::For(deployment_type, "apps/v1", "Deployment");
//   Value stored = k->Decode(manifest);  // spec.revisionHistoryLimit: 10, ...
//
// Thread-safe: a BuiltinKind is immutable once made.
#ifndef SMDX_KUBETYPES_BUILTIN_KIND_H_
#define SMDX_KUBETYPES_BUILTIN_KIND_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "smdx/fieldpath/versioned_set.h"
#include "smdx/typed/typed.h"

namespace smdx {

namespace internal {
struct GoStruct;
struct KindPlan;
}  // namespace internal

class BuiltinKind {
 public:
  // The built-in kind whose objects have root type `type` (a type of the
  // embedded Kubernetes schema, or of one converted from the apiserver's
  // OpenAPI: types are matched by their OpenAPI names). Null when the root
  // type is not one of Kubernetes' Go types (a custom resource), or when
  // the schema is of another Kubernetes release: a Go type it meets has a
  // field the schema does not declare (the defaulters would set fields the
  // schema refuses).
  static std::shared_ptr<const BuiltinKind> For(const Type& type,
                                                absl::string_view api_version,
                                                absl::string_view kind);

  // `object` decoded and defaulted as the apiserver does with a request
  // body. `previous`, when given, is an object this kind already decoded
  // (the live object of an apply): the subtrees `object` shares with it
  // (the same node at the same place) are taken as they are, so the cost
  // follows the size of the change. Values that do not fit their Go type
  // (a string where the type has a struct) are left as they are.
  // `reads_back_otherwise`, when given, is set to whether storage would
  // give the result back otherwise (see ReadBack). A whole float where the
  // Go type has an integer is that integer (a YAML body's whole floats are
  // written as integers before the JSON decoder reads them); `error`, when
  // given, is set to the first value, in the body's order, that the type
  // cannot hold (a float that is not whole, an int32 out of range, a value
  // of another JSON kind: a string where it has an integer, a number for a
  // time), worded as encoding/json refuses it (the apiserver's 400; named
  // string types are named "string", and the names of embedded structs,
  // ProbeHandler, are not in the field's path), and the object is then
  // decoded only in part. `now`, when given, is the server's clock, which
  // some defaulters stamp into unset fields (a DRA device taint's
  // timeAdded); without it they stay unset.
  Value Decode(Value object, const Value* previous = nullptr,
               bool* reads_back_otherwise = nullptr,
               absl::Status* error = nullptr,
               std::optional<absl::Time> now = std::nullopt) const;

  // The apiserver's 400 for a request body Decode refused with `error`
  // (BadRequest: "Deployment in version "v1" cannot be handled as a
  // Deployment: json: cannot unmarshal ...").
  absl::Status BodyRefused(const absl::Status& error) const {
    return BodyRefusedError(api_version_, kind_, error);
  }
  // The same for any kind (a custom resource's metadata, Coerce).
  static absl::Status BodyRefusedError(absl::string_view api_version,
                                       absl::string_view kind,
                                       const absl::Status& error);
  // Whether `st` is such a refusal (a patch handler answers 422 for the
  // object a patch made, where a PUT's body is a 400).
  static bool IsBodyRefused(const absl::Status& st);

  // `object` as the apiserver stores it and reads it back: the apiserver
  // stores built-in kinds as protobuf, which keeps no empty slice or map,
  // so one that the JSON encoding writes (a field without omitempty: an
  // EndpointSlice's `endpoints: []`) comes back null; the storage's
  // decoder then defaults it as Decode does. `previous` as for Decode (an
  // object read back already). Numbers as the unstructured converter takes
  // them, which an apply's merged object goes through: as Decode, but an
  // integer out of an int32's range wraps around (reflect's conversion).
  // `error` as for Decode, worded as the converter refuses a float (the
  // apiserver's 500), with its path; `now` as for Decode.
  Value ReadBack(Value object, const Value* previous = nullptr,
                 absl::Status* error = nullptr,
                 std::optional<absl::Time> now = std::nullopt) const;

  // `live` (an object as a read gives it) as storage holds it, where every
  // read hides part of it: an ExternalName Service's internalTrafficPolicy,
  // which a write that changed the type kept but each read leaves out
  // (defaultOnReadInternalTrafficPolicy). A manager in `managers` that owns
  // it says storage holds it; its value there is the defaulter's, Cluster.
  // The apiserver's update compares its body with storage's object, so a
  // body from a read takes the field from its owners.
  Value AsStored(Value live, const ManagedFields& managers) const;
  // Whether AsStored may change `live` (a look at it alone).
  bool ReadHidesStoredFields(const Value& live) const;

  // `object`, of this kind at its apiVersion, as the apiserver's scheme
  // converts it to `to`'s apiVersion for its field manager (through the
  // internal version, without defaulting; then, as the converter types the
  // result, through `to`'s Go types). smdx knows the conversion of the one
  // built-in kind whose served versions differ in their fields: the
  // HorizontalPodAutoscaler between autoscaling/v1 and autoscaling/v2
  // (internal/hpa.h). nullopt for other kinds and versions.
  std::optional<Value> ConvertTo(const Value& object,
                                 const BuiltinKind& to) const;
  // Whether ConvertTo converts this kind's objects to `to`'s.
  bool ConvertsTo(const BuiltinKind& to) const {
    return Converts(kind_, api_version_, to.api_version_) && to.kind_ == kind_;
  }
  // Whether ConvertTo converts objects of `kind` from apiVersion `from` to
  // `to` (a look at the names alone, before any type is made).
  static bool Converts(absl::string_view kind, absl::string_view from,
                       absl::string_view to);

  // The zero object of the kind, with apiVersion and kind, as the field
  // manager sees the object a create starts from.
  const Value& NewObject() const { return new_object_; }

  // `object` (a created object, after the field manager) with what the
  // registry strategy's PrepareForCreate and the admission plugins set.
  // `request` is the object as the request gave it, before decoding: where
  // the Go defaulters make two fields share one map (a Job's labels and its
  // template's, when the request sets none), what the strategy adds to one
  // shows in both.
  // `now`: the server's clock, for what the strategy stamps (none: nothing
  // is). `status_store`: the create is a write to the status subresource
  // (StatusWriteCreates), which runs the main strategy's PrepareForCreate
  // but none of the kind's create hooks.
  Value PrepareForCreate(Value object, const Value& request,
                         std::optional<absl::Time> now = std::nullopt,
                         bool status_store = false) const;

  // Whether a write to the status subresource of an object that does not
  // exist creates it, as the apiserver's status store does for a few kinds
  // (a Service from an apply or a PUT, a ValidatingAdmissionPolicy from an
  // apply); the others answer 404. `apply`: the write is an apply.
  bool StatusWriteCreates(bool apply) const;

  // `object` (an updated object, after the field manager, as stored) with
  // what the registry sets on an update whatever the request sent: the
  // live object's metadata.generation, one more where the strategy counts
  // a change (of the spec, for most kinds), and a DaemonSet's template
  // generation annotation likewise; a CRD's new storage version joins its
  // stored versions; a DeviceTaintRule whose taint's effect changed gets a
  // new timeAdded.
  struct UpdateContext {
    // The write is to the status subresource, whose strategy leaves the
    // rest as it was.
    bool status_write = false;
    // What EmptiesDiffer said of the request.
    bool empties_differ = false;
    // The server's clock, for what the strategy stamps; none: nothing is.
    std::optional<absl::Time> now;
    // The write is to another subresource of the kind, named so: a
    // CertificateSigningRequest's "approval", a Pod's "resize" and
    // "ephemeralcontainers", a Namespace's "finalize". Empty for the main
    // resource and for status.
    std::string subresource;
  };
  Value PrepareForUpdate(Value object, const Value& live,
                         const UpdateContext& context) const;
  Value PrepareForUpdate(Value object, const Value& live) const {
    return PrepareForUpdate(std::move(object), live, UpdateContext());
  }

  // Whether the strategy of an update counts `request` (the object the Go
  // decoder reads: an update's body, an apply's merged object) as a change
  // for its empty slices and maps alone. The webhook configurations and
  // NetworkPolicy compare what they count with reflect.DeepEqual, where
  // the empty slice or map a request's `[]`, `{}` or "" (a byte slice)
  // decodes to differs from the nil one the live object, read back from
  // storage, has; unless a defaulter filled it (`decoded`: the request
  // decoded). False for the other kinds.
  bool EmptiesDiffer(const Value& request, const Value& decoded) const;
  // Whether EmptiesDiffer can be true for the kind.
  bool ComparesEmpties() const;

  const std::string& api_version() const { return api_version_; }
  const std::string& kind() const { return kind_; }

 private:
  BuiltinKind() = default;
  // For without the cache of recent kinds.
  static std::shared_ptr<const BuiltinKind> Make(const Type& type,
                                                 absl::string_view api_version,
                                                 absl::string_view kind);

  std::string api_version_;
  std::string kind_;
  Type type_ = Type::Deduced();
  std::shared_ptr<const internal::KindPlan> plan_;
  Value new_object_;
};

// The metadata of a custom resource's objects as the apiextensions-apiserver
// holds it: every object it decodes or converts has its metadata read into
// metav1.ObjectMeta and written back (apiserver/schema/objectmeta,
// Coerce), so empty omitempty fields go (`labels: {}`), undeclared ones
// too, and times are written as ObjectMeta writes them. A request body's
// metadata is decoded so before the field manager sees it; an apply's
// result after it computed the managed fields.
//
// Thread-safe: immutable once made.
class CustomResourceMetadata {
 public:
  // Null when `type`, a custom resource's root type, has no metadata of
  // Kubernetes' ObjectMeta type.
  static std::shared_ptr<const CustomResourceMetadata> For(const Type& type);

  // `object` with its metadata through ObjectMeta. `error`, when given, is
  // set to the first value there that ObjectMeta's Go type cannot hold, as
  // Decode words it (a label that is a number: the apiserver's 400 for a
  // request body), and the metadata is then decoded only in part.
  Value Coerce(Value object, absl::Status* error = nullptr) const;

  // `object` (after the field manager) as the apiextensions-apiserver
  // stores it and reads it back: with the metadata.generation its strategy
  // gives it, 1 at create (`live` null), on update the live one, one more
  // when anything but the metadata changed, on a write that is not to the
  // status subresource, and the metadata the generic registry keeps from
  // the live object (its uid, resourceVersion, creationTimestamp,
  // deletionTimestamp and grace period, as PrepareForUpdate keeps a
  // built-in kind's); then through storage's JSON, which writes a whole
  // float as an integer (3.0 as 3) that the unstructured decoder then
  // reads as one, where it fits an int64.
  static Value AsStored(Value object, const Value& live,
                              bool status_write);

 private:
  CustomResourceMetadata() = default;

  Type type_ = Type::Deduced();  // keeps the schema of `metadata_`
  const Atom* metadata_ = nullptr;
  std::shared_ptr<const internal::KindPlan> plan_;
};

}  // namespace smdx

#endif  // SMDX_KUBETYPES_BUILTIN_KIND_H_
