#include "smdx/fieldmanager/preconditions.h"

#include <cstdint>
#include <set>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "smdx/schema/builtin.h"

namespace smdx {
namespace internal {
namespace {

// Go's %q of `s`, for the names and versions the messages quote: the
// printable ASCII as it is, the rest escaped; UTF-8 sequences are taken as
// printable (Go escapes the few that are not).
std::string GoQuoted(absl::string_view s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      case '\a': out += "\\a"; continue;
      case '\b': out += "\\b"; continue;
      case '\f': out += "\\f"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      case '\v': out += "\\v"; continue;
      default: break;
    }
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
      continue;
    }
    // A whole UTF-8 sequence stays; a stray byte is \xNN.
    const size_t len = c >= 0xf0 && c < 0xf5 ? 4
                       : c >= 0xe0          ? 3
                       : c >= 0xc2 && c < 0xe0 ? 2
                                               : 0;
    bool whole = len != 0 && i + len <= s.size();
    for (size_t k = 1; whole && k < len; ++k) {
      whole = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
    }
    if (whole) {
      out.append(s.data() + i, len);
      i += len - 1;
    } else {
      absl::StrAppendFormat(&out, "\\x%02x", c);
    }
  }
  out += "\"";
  return out;
}

// strconv.ParseUint(s, 10, 64), with its error's text.
struct ParsedVersion {
  uint64_t value = 0;
  std::string error;  // empty when it parsed
};

ParsedVersion ParseUint(absl::string_view s) {
  ParsedVersion p;
  const auto fail = [&](absl::string_view why) {
    p.error = absl::StrCat("strconv.ParseUint: parsing ", GoQuoted(s), ": ",
                           why);
    return p;
  };
  if (s.empty()) return fail("invalid syntax");
  for (const char ch : s) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(ch)))
      return fail("invalid syntax");
    const uint64_t d = static_cast<uint64_t>(ch - '0');
    if (p.value > (UINT64_MAX - d) / 10) return fail("value out of range");
    p.value = p.value * 10 + d;
  }
  return p;
}

// The field `name` of the metadata of `object`, or null.
const Value* MetadataValue(const Value& object, absl::string_view name) {
  const Value* meta = object.IsMap() ? object.map().Find("metadata") : nullptr;
  return meta != nullptr && meta->IsMap() ? meta->map().Find(name) : nullptr;
}

// A field of the metadata of `object`: whether it is there, and its text
// when it is a string ("" when not).
struct MetaField {
  bool present = false;
  absl::string_view text;  // (a view of the object's string)
};

MetaField MetadataField(const Value& object, absl::string_view name) {
  MetaField f;
  const Value* v = MetadataValue(object, name);
  f.present = v != nullptr;
  if (v != nullptr && v->IsString()) f.text = v->AsString();
  return f;
}

absl::string_view MetadataText(const Value& object, absl::string_view name) {
  return MetadataField(object, name).text;
}

// The object's finalizers (its metadata's, strings).
std::set<std::string> Finalizers(const Value& object) {
  std::set<std::string> out;
  const Value* list = MetadataValue(object, "finalizers");
  if (list == nullptr || !list->IsList()) return out;
  for (const Value& f : list->list()) {
    if (f.IsString()) out.insert(f.AsString());
  }
  return out;
}

std::string PluralOf(const StoreResource& r) {
  return r.resource.empty() ? GuessResource(r.kind) : std::string(r.resource);
}

// The resource and its group, as errors name it ("deployments.apps").
std::string QualifiedResource(const StoreResource& r) {
  const absl::string_view group = ApiGroupOf(r.api_version);
  std::string out = PluralOf(r);
  if (!group.empty()) absl::StrAppend(&out, ".", group);
  return out;
}

// The kind of the registry's internal type, as validation errors name it
// ("Deployment.apps"); events.k8s.io's Event is stored as core's.
std::string QualifiedKind(const StoreResource& r) {
  absl::string_view group = ApiGroupOf(r.api_version);
  if (!r.custom_resource && group == "events.k8s.io" && r.kind == "Event")
    group = "";
  return group.empty() ? std::string(r.kind)
                       : absl::StrCat(r.kind, ".", group);
}

// The object's key in etcd: kube-apiserver's prefix for the resource (its
// SpecialDefaultResourcePrefixes, else the plural; a custom resource's is
// its group and plural) under /registry, then the namespace and the name.
std::string StorageKey(const StoreResource& r, absl::string_view ns,
                       absl::string_view name) {
  const absl::string_view group = ApiGroupOf(r.api_version);
  const std::string plural = PluralOf(r);
  std::string prefix = plural;
  if (r.custom_resource || group == "apiextensions.k8s.io" ||
      group == "apiregistration.k8s.io") {
    // (The apiextensions-apiserver's and the aggregator's stores.)
    prefix = absl::StrCat(group, "/", plural);
  } else if (group.empty() && plural == "replicationcontrollers") {
    prefix = "controllers";
  } else if (group.empty() && plural == "endpoints") {
    prefix = "services/endpoints";
  } else if (group.empty() && plural == "nodes") {
    prefix = "minions";
  } else if (group.empty() && plural == "services") {
    prefix = "services/specs";
  } else if ((group == "extensions" || group == "networking.k8s.io") &&
             plural == "ingresses") {
    prefix = "ingress";
  }
  std::string key = absl::StrCat("/registry/", prefix, "/");
  if (!ns.empty()) absl::StrAppend(&key, ns, "/");
  absl::StrAppend(&key, name);
  return key;
}

// Whether the registry's strategy takes a write without a resourceVersion
// (AllowUnconditionalUpdate): most built-in kinds' do; these, the
// apiextensions-apiserver's and the aggregator's, and every custom
// resource's do not.
bool AllowsUnconditionalUpdate(const StoreResource& r) {
  if (r.custom_resource) return false;
  struct Refusing {
    absl::string_view group;
    absl::string_view kind;
  };
  static constexpr Refusing kRefusing[] = {
      {"admissionregistration.k8s.io", "MutatingAdmissionPolicy"},
      {"admissionregistration.k8s.io", "MutatingAdmissionPolicyBinding"},
      {"admissionregistration.k8s.io", "MutatingWebhookConfiguration"},
      {"admissionregistration.k8s.io", "ValidatingAdmissionPolicy"},
      {"admissionregistration.k8s.io", "ValidatingAdmissionPolicyBinding"},
      {"admissionregistration.k8s.io", "ValidatingWebhookConfiguration"},
      {"apiextensions.k8s.io", "CustomResourceDefinition"},
      {"apiregistration.k8s.io", "APIService"},
      {"certificates.k8s.io", "ClusterTrustBundle"},
      {"certificates.k8s.io", "PodCertificateRequest"},
      {"coordination.k8s.io", "Lease"},
      {"coordination.k8s.io", "LeaseCandidate"},
      {"internal.apiserver.k8s.io", "StorageVersion"},
      {"lifecycle.k8s.io", "Eviction"},
      {"lifecycle.k8s.io", "EvictionRequest"},
      {"node.k8s.io", "RuntimeClass"},
      {"policy", "PodDisruptionBudget"},
      {"resource.k8s.io", "DeviceTaintRule"},
      {"resource.k8s.io", "ResourcePoolStatusRequest"},
      {"scheduling.k8s.io", "CompositePodGroup"},
      {"scheduling.k8s.io", "PodGroup"},
      {"scheduling.k8s.io", "Workload"},
      {"storage.k8s.io", "CSIDriver"},
      {"storage.k8s.io", "CSINode"},
      {"storage.k8s.io", "CSIStorageCapacity"},
      {"storage.k8s.io", "VolumeAttachment"},
      {"storagemigration.k8s.io", "StorageVersionMigration"},
  };
  const absl::string_view group = ApiGroupOf(r.api_version);
  // A DeviceTaintRule's old versions keep their historic behaviour.
  if (r.kind == "DeviceTaintRule" &&
      (r.api_version == "resource.k8s.io/v1beta2" ||
       r.api_version == "resource.k8s.io/v1alpha3")) {
    return true;
  }
  for (const Refusing& k : kRefusing) {
    if (k.group == group && k.kind == r.kind) return false;
  }
  return true;
}

StoreRefusal Conflict(const StoreResource& r, absl::string_view name,
                      absl::string_view why) {
  return {ErrorKind::kConflict,
          absl::AbortedError(absl::StrCat("Operation cannot be fulfilled on ",
                                          QualifiedResource(r), " ",
                                          GoQuoted(name), ": ", why))};
}

// The resourceVersion the written object has when the store compares it
// with the stored one's `stored`.
absl::string_view WrittenVersion(const StoreWrite& w, const Value& request,
                                 absl::string_view stored) {
  const MetaField f = MetadataField(request, "resourceVersion");
  // A Scale's empty version keeps the object's (the registries' scale
  // updates set it only when the client sent one).
  if (w.scale) return f.text.empty() ? stored : f.text;
  // An apply merges the configuration into the live object: without the
  // field, the live version stays; a null removes it.
  if (w.verb == StoreWriteVerb::kApply && !f.present) return stored;
  return f.text;
}

// A create's refusals.
std::optional<StoreRefusal> RefuseCreate(const StoreResource& r,
                                         const StoreWrite& w,
                                         const Value& request) {
  // etcd3's Create refuses a version (a parsed, nonzero one); a PUT's or
  // an apply's create wipes it.
  if (w.verb == StoreWriteVerb::kUpdate && w.main_resource && !w.scale) {
    const ParsedVersion v = ParseUint(MetadataText(request, "resourceVersion"));
    if (v.error.empty() && v.value != 0) {
      return StoreRefusal{
          ErrorKind::kInternal,
          absl::InternalError(
              "resourceVersion should not be set on objects to be created")};
    }
  }
  // The patch handler's check of an object made from nothing.
  if (w.verb == StoreWriteVerb::kApply) {
    const absl::string_view uid = MetadataText(request, "uid");
    if (!uid.empty()) {
      return Conflict(r, MetadataText(request, "name"),
                      absl::StrCat("uid mismatch: the provided object "
                                   "specified uid ",
                                   uid,
                                   ", and no existing object was found"));
    }
  }
  return std::nullopt;
}

// A PUT's uid is a precondition of the write (the Scale's too), checked
// before anything else.
std::optional<StoreRefusal> RefuseUidPrecondition(const StoreResource& r,
                                                  const StoreWrite& w,
                                                  const Value& live,
                                                  const Value& request) {
  if (w.verb != StoreWriteVerb::kUpdate) return std::nullopt;
  const absl::string_view name = MetadataText(live, "name");
  const absl::string_view live_uid = MetadataText(live, "uid");
  const absl::string_view uid = MetadataText(request, "uid");
  if (uid.empty() || live_uid.empty() || uid == live_uid) return std::nullopt;
  return Conflict(
      r, name,
      absl::StrCat("StorageError: invalid object, Code: 4, Key: ",
                   StorageKey(r, MetadataText(live, "namespace"), name),
                   ", ResourceVersion: 0, AdditionalErrorMsg: "
                   "Precondition failed: UID in precondition: ",
                   uid, ", UID in object meta: ", live_uid));
}

// The store's check of the written version against the stored one.
std::optional<StoreRefusal> RefuseVersion(const StoreResource& r,
                                          const StoreWrite& w,
                                          const Value& live,
                                          const Value& request) {
  const absl::string_view stored = MetadataText(live, "resourceVersion");
  const ParsedVersion existing = ParseUint(stored);
  if (!existing.error.empty() || existing.value == 0) return std::nullopt;
  const absl::string_view text = WrittenVersion(w, request, stored);
  const ParsedVersion written =
      text.empty() ? ParsedVersion{} : ParseUint(text);
  if (!written.error.empty()) {
    return StoreRefusal{ErrorKind::kInternal,
                        absl::InternalError(written.error)};
  }
  const absl::string_view name = MetadataText(live, "name");
  if (written.value == 0 && !AllowsUnconditionalUpdate(r)) {
    return StoreRefusal{
        ErrorKind::kInvalid,
        absl::InvalidArgumentError(absl::StrCat(
            QualifiedResource(r), " ", GoQuoted(name),
            " is invalid: metadata.resourceVersion: Invalid value: 0: must "
            "be specified for an update"))};
  }
  if (written.value != 0 && written.value != existing.value) {
    return Conflict(r, name,
                    "the object has been modified; please apply your changes "
                    "to the latest version and try again");
  }
  return std::nullopt;
}

// ObjectMeta's validation of an update, in its order: no finalizer joins
// an object being deleted; the uid stays (an empty one is the stored one;
// a Scale's does not reach the object).
std::optional<StoreRefusal> RefuseMetadataChange(const StoreResource& r,
                                                 const StoreWrite& w,
                                                 const Value& live,
                                                 const Value& request,
                                                 const Value& result) {
  std::vector<std::string> errors;
  if (const Value* deleting = MetadataValue(live, "deletionTimestamp");
      deleting != nullptr && !deleting->IsNull()) {
    const std::set<std::string> before = Finalizers(live);
    std::vector<std::string> added;  // (sorted, as Go's sets.List)
    for (const std::string& f : Finalizers(result)) {
      if (before.count(f) == 0) added.push_back(GoQuoted(f));
    }
    if (!added.empty()) {
      errors.push_back(absl::StrCat(
          "metadata.finalizers: Forbidden: no new finalizers can be added if "
          "the object is being deleted, found new finalizers []string{",
          absl::StrJoin(added, ", "), "}"));
    }
  }
  const absl::string_view live_uid = MetadataText(live, "uid");
  if (w.verb != StoreWriteVerb::kUpdate && !w.scale) {
    const MetaField f = MetadataField(request, "uid");
    const absl::string_view uid =
        w.verb == StoreWriteVerb::kApply && !f.present ? live_uid : f.text;
    if (!uid.empty() && !live_uid.empty() && uid != live_uid) {
      errors.push_back(absl::StrCat("metadata.uid: Invalid value: ",
                                    GoQuoted(uid), ": field is immutable"));
    }
  }
  if (errors.empty()) return std::nullopt;
  // (apierrors.NewInvalid: several causes go in brackets.)
  const std::string causes =
      errors.size() == 1 ? errors[0]
                         : absl::StrCat("[", absl::StrJoin(errors, ", "), "]");
  return StoreRefusal{
      ErrorKind::kInvalid,
      absl::InvalidArgumentError(absl::StrCat(QualifiedKind(r), " ",
                                              GoQuoted(MetadataText(live,
                                                                    "name")),
                                              " is invalid: ", causes))};
}

}  // namespace

std::string GuessResource(absl::string_view kind) {
  const std::string lower = absl::AsciiStrToLower(kind);
  if (lower == "endpoints") return lower;
  if (absl::EndsWith(lower, "s")) return lower + "es";
  if (absl::EndsWith(lower, "y"))
    return absl::StrCat(lower.substr(0, lower.size() - 1), "ies");
  return lower + "s";
}

std::optional<StoreRefusal> RefuseStoreWrite(const StoreResource& r,
                                             const StoreWrite& w,
                                             const Value& live,
                                             const Value& request,
                                             const Value& result) {
  if (live.IsNull()) return RefuseCreate(r, w, request);
  // In the apiserver's order: etcd's precondition, the store's version
  // check, ObjectMeta's validation.
  std::optional<StoreRefusal> refused = RefuseUidPrecondition(r, w, live,
                                                              request);
  if (!refused.has_value()) refused = RefuseVersion(r, w, live, request);
  if (!refused.has_value())
    refused = RefuseMetadataChange(r, w, live, request, result);
  return refused;
}

bool DeletedByWrite(const StoreResource& r, const Value& live,
                    const Value& result) {
  const Value* deleting = MetadataValue(live, "deletionTimestamp");
  if (deleting == nullptr || deleting->IsNull()) return false;
  const Value* grace = MetadataValue(live, "deletionGracePeriodSeconds");
  if (grace != nullptr && !grace->IsNull() &&
      !(grace->IsInt() && grace->AsInt() == 0)) {
    return false;
  }
  if (!Finalizers(result).empty()) return false;
  // A Namespace waits for its spec.finalizers too (its store's
  // ShouldDeleteNamespaceDuringUpdate).
  if (!r.custom_resource && r.api_version == "v1" && r.kind == "Namespace") {
    const Value* spec =
        result.IsMap() ? result.map().Find("spec") : nullptr;
    const Value* f = spec != nullptr && spec->IsMap()
                         ? spec->map().Find("finalizers")
                         : nullptr;
    if (f != nullptr && f->IsList() && !f->list().empty()) return false;
  }
  return true;
}

}  // namespace internal
}  // namespace smdx
