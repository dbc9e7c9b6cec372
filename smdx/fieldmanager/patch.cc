#include "smdx/fieldmanager/patch.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "smdx/fieldmanager/managed_fields.h"
#include "smdx/fieldmanager/scale.h"
#include "smdx/kubetypes/builtin_kind.h"
#include "smdx/kubetypes/strategic_patch_schema.h"
#include "smdx/value/patch.h"
#include "smdx/value/strategic_patch.h"

namespace smdx {

namespace {

FieldManagerResult Refused(ErrorKind kind, absl::Status status) {
  FieldManagerResult r;
  r.kind = kind;
  r.status = std::move(status);
  return r;
}

ErrorKind KindOf(const absl::Status& st) {
  switch (st.code()) {
    case absl::StatusCode::kFailedPrecondition:
      return ErrorKind::kInvalid;
    case absl::StatusCode::kInternal:
      return ErrorKind::kInternal;
    default:
      return ErrorKind::kBadRequest;
  }
}

std::string MetadataString(const Value& object, absl::string_view key) {
  const Value* meta = Find(object, "metadata");
  return meta != nullptr ? StringAt(*meta, key) : std::string();
}

// What a patch of `live` (at the request's version) applies to: the
// object, or on the scale subresource the Scale a GET of it returns (with
// the entries that own its replicas).
absl::StatusOr<Value> PatchTarget(const FieldManager& fm, const Value& live) {
  const FieldManagerOptions& o = fm.options();
  if (o.subresource != "scale" || o.scale_replicas_paths.empty()) return live;
  auto it = o.scale_replicas_paths.find(o.api_version);
  if (it == o.scale_replicas_paths.end() || it->second.empty()) {
    return absl::NotFoundError(absl::StrCat(
        o.api_version, " ", o.kind, " has no scale subresource"));
  }
  if (o.custom_resource && internal::ValueAt(live, it->second) == nullptr) {
    // The registry has no Scale to read (its GET answers 500).
    return absl::InternalError(
        "the custom resource has no replicas field: no Scale to patch");
  }
  absl::StatusOr<Value> scale = internal::ScaleOf(live, it->second, o.kind);
  if (!scale.ok()) return scale.status();
  absl::StatusOr<ManagedState> parent = DecodeManagedFields(live, o.limits);
  if (!parent.ok()) return parent.status();
  SetObjectManagedFields(&*scale,
                         internal::ScaleEntries(*parent, o.scale_replicas_paths));
  return scale;
}

}  // namespace

const StrategicPatchSchema* StrategicPatchSchemaOf(const FieldManager& fm) {
  const FieldManagerOptions& o = fm.options();
  if (o.custom_resource) return nullptr;
  if (o.subresource == "scale" && !o.scale_replicas_paths.empty()) {
    return BuiltinStrategicPatchSchema("io.k8s.api.autoscaling.v1.Scale");
  }
  return BuiltinStrategicPatchSchema(fm.type().name());
}

absl::StatusOr<PatchType> ParsePatchType(absl::string_view name) {
  if (name == "strategic") return PatchType::kStrategic;
  if (name == "merge") return PatchType::kMerge;
  if (name == "json") return PatchType::kJson;
  return absl::InvalidArgumentError(absl::StrCat(
      "a patch's type is \"strategic\", \"merge\" or \"json\", not \"",
      name, "\""));
}

FieldManagerResult Patch(const FieldManager& fm, const Value& live,
                         const Value& patch, PatchType type,
                         absl::string_view manager) {
  const StrategicPatchSchema* strategic = nullptr;
  if (type == PatchType::kStrategic) {
    strategic = StrategicPatchSchemaOf(fm);
    if (strategic == nullptr) {
      return Refused(
          ErrorKind::kBadRequest,
          absl::InvalidArgumentError(absl::StrCat(
              "strategic merge patches need a built-in kind's Go type; ",
              fm.options().kind, " (", fm.type().name(),
              ") has none (the apiserver answers 415: the body of the request "
              "was in an unknown format - accepted media types include: "
              "application/json-patch+json, application/merge-patch+json, "
              "application/apply-patch+yaml)")));
    }
  }
  if (live.IsNull()) {
    return Refused(ErrorKind::kBadRequest,
                   absl::NotFoundError("a patch needs the object it patches "
                                       "(the apiserver answers 404)"));
  }
  absl::StatusOr<Value> read = fm.ReadStored(live);
  if (!read.ok()) return Refused(ErrorKind::kInternal, read.status());
  absl::StatusOr<Value> current = PatchTarget(fm, *read);
  if (!current.ok()) {
    return Refused(current.status().code() == absl::StatusCode::kNotFound
                       ? ErrorKind::kBadRequest
                       : ErrorKind::kInternal,
                   current.status());
  }
  absl::StatusOr<Value> patched =
      type == PatchType::kStrategic
          ? ApplyStrategicMergePatch(*current, patch, *strategic)
      : type == PatchType::kMerge ? ApplyMergePatch(*current, patch)
                                  : ApplyJsonPatch(*current, patch);
  if (!patched.ok()) return Refused(KindOf(patched.status()), patched.status());
  if (!patched->IsMap()) {
    return Refused(ErrorKind::kInvalid,
                   absl::InvalidArgumentError(
                       "the patched object is not an object"));
  }
  // The handler's checks: the object patched keeps its name, and its
  // namespace (put back when the patch removed it).
  const std::string name = MetadataString(*current, "name");
  const std::string got = MetadataString(*patched, "name");
  if (got != name) {
    return Refused(ErrorKind::kBadRequest,
                   absl::InvalidArgumentError(absl::StrCat(
                       "the name of the object (", got,
                       ") does not match the name on the URL (", name, ")")));
  }
  const std::string ns = MetadataString(*current, "namespace");
  const std::string got_ns = MetadataString(*patched, "namespace");
  if (got_ns != ns) {
    if (!got_ns.empty() && !ns.empty()) {
      return Refused(ErrorKind::kBadRequest,
                     absl::InvalidArgumentError(
                         "the namespace of the provided object does not "
                         "match the namespace sent on the request"));
    }
    Value* meta = patched->map().Find("metadata");
    if (meta == nullptr || meta->IsNull()) {
      patched->map().Set("metadata", Value::MakeMap());
      meta = patched->map().Find("metadata");
    }
    // (Metadata that is no object is left to the update to refuse.)
    if (meta->IsMap()) {
      if (ns.empty()) {
        meta->map().Erase("namespace");
      } else {
        meta->map().Set("namespace", Value(ns));
      }
    }
  }
  FieldManagerResult r = fm.UpdatePatched(live, *patched, manager);
  // An object the patch made that does not decode is the handler's 422
  // (a PUT's body that does not is a 400).
  if (r.kind == ErrorKind::kBadRequest &&
      BuiltinKind::IsBodyRefused(r.status)) {
    r.kind = ErrorKind::kInvalid;
  }
  return r;
}

}  // namespace smdx
