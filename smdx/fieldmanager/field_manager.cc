#include "smdx/fieldmanager/field_manager.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "smdx/fieldmanager/last_applied.h"
#include "smdx/fieldmanager/scale.h"
#include "smdx/schema/builtin.h"
#include "smdx/typed/default.h"
#include "smdx/value/emit.h"
#include "smdx/value/utf8.h"

namespace smdx {

namespace {

// The apiserver's manager names for what it records itself.
constexpr absl::string_view kBeforeFirstApply = "before-first-apply";
constexpr absl::string_view kAncientChanges = "ancient-changes";
constexpr absl::string_view kUnknownManager = "unknown";
// The working identity of an update in progress. Real identities are JSON
// objects, so this never names a manager.
constexpr absl::string_view kCurrentOperation = "current-operation";
constexpr absl::string_view kKubectl = "kubectl";
constexpr absl::string_view kScaleSubresource = "scale";

// The subresource a built-in kind's strategy is told of beyond status
// (BuiltinKind::UpdateContext::subresource): none for the main resource and
// status.
std::string OtherSubresource(const std::string& subresource) {
  return subresource == "status" ? std::string() : subresource;
}

bool HasUid(const Value& object) {
  const Value* meta = Find(object, "metadata");
  return meta != nullptr && !StringAt(*meta, "uid").empty();
}

// Go prints a GroupVersionKind as "group/version, Kind=kind" ("/v1, Kind=Pod"
// for the core group).
std::string GvkString(const std::string& api_version, const std::string& kind) {
  std::string gv = api_version.find('/') == std::string::npos
                       ? absl::StrCat("/", api_version)
                       : api_version;
  return absl::StrCat(gv, ", Kind=", kind);
}

// The paths StripUntracked removes from the operating manager: the fields
// the server sets or that identify the object. Exactly these paths, not what
// lies below them (labels and annotations stay owned).
const Set& UntrackedFields() {
  static const Set* const set = [] {
    auto* s = new Set();
    s->Insert({PathElement::Field("apiVersion")});
    s->Insert({PathElement::Field("kind")});
    s->Insert({PathElement::Field("metadata")});
    for (const char* f :
         {"name", "namespace", "creationTimestamp", "selfLink", "uid",
          "clusterName", "generation", "managedFields", "resourceVersion"}) {
      s->Insert({PathElement::Field("metadata"), PathElement::Field(f)});
    }
    return s;
  }();
  return *set;
}

// Times of managers that no longer own anything are dropped.
void DropStaleTimes(ManagedState* state) {
  for (auto it = state->times.begin(); it != state->times.end();) {
    it = state->fields.count(it->first) == 0 ? state->times.erase(it)
                                             : std::next(it);
  }
}

// The apiserver's checks of a request's fieldManager (metav1 validation of
// PatchOptions and UpdateOptions), as an error message or "".
std::string CheckManagerName(absl::string_view name, bool apply) {
  if (apply && name.empty())
    return "fieldManager: Required value: is required for apply patch";
  if (name.size() > kMaxManagerNameLength) {
    return absl::StrCat("fieldManager: Too long: must have at most ",
                        kMaxManagerNameLength, " bytes");
  }
  // Go's unicode.IsPrint: no control or format characters, no spaces but
  // the ASCII one, and valid UTF-8.
  for (size_t i = 0; i < name.size();) {
    // Go ranges over the name: bytes that are not UTF-8 read as U+FFFD,
    // one at a time.
    uint32_t cp = 0xFFFD;
    size_t len = DecodeUtf8(name, i, &cp);
    if (len == 0) len = 1;
    bool bad = cp < 0x20 || (cp >= 0x7F && cp <= 0xA0) || cp == 0xAD ||
               cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200F) ||
               (cp >= 0x2028 && cp <= 0x202F) ||
               (cp >= 0x205F && cp <= 0x2064) || cp == 0x3000 || cp == 0xFEFF ||
               cp == 0xFFFD || (cp >= 0xD800 && cp <= 0xDFFF);
    if (bad) {
      return absl::StrCat("fieldManager: Invalid value: ",
                          absl::StrFormat("invalid character U+%04X", cp),
                          " (at position ", i, ")");
    }
    i += len;
  }
  return "";
}

// Invalid managedFields are ignored on update, as the apiserver does; input
// over a limit (value/limits.h) never is.
bool IsOverALimit(const absl::Status& s) {
  return s.code() == absl::StatusCode::kResourceExhausted;
}

FieldManagerResult Failed(ErrorKind kind, absl::Status status) {
  FieldManagerResult r;
  r.kind = kind;
  r.status = std::move(status);
  return r;
}

// The registry store's IgnoreManagedFieldsTimestampsTransformer: a write
// that changes nothing but managedFields times keeps the live times (so
// that it is no change at all).
// Whether maps `a` and `b` are equal but for the entry `skip` (compared
// in place: this runs on every write).
bool EqualExcept(const Value& a, const Value& b, absl::string_view skip) {
  if (!a.IsMap() || !b.IsMap()) return Equals(a, b);
  size_t compared = 0;
  for (const MapEntry& e : a.map()) {
    if (e.key == skip) continue;
    const Value* other = b.map().Find(e.key);
    if (other == nullptr || !Equals(e.value, *other)) return false;
    ++compared;
  }
  return compared + (b.map().Find(skip) != nullptr ? 1 : 0) == b.map().size();
}

// Whether two objects are equal but for their metadata.managedFields.
bool EqualButManagedFields(const Value& a, const Value& b) {
  if (!EqualExcept(a, b, "metadata")) return false;
  const Value* ma = Find(a, "metadata");
  const Value* mb = Find(b, "metadata");
  if (ma == nullptr || mb == nullptr) return ma == mb;
  return EqualExcept(*ma, *mb, "managedFields");
}

// With `raw`, the registry of a built-in kind compares the entries'
// fieldsV1 as the bytes it stores (FieldsV1.Raw of the protobuf): the same
// fields in another key order differ (a Scale write leaves them in
// encoding/json's order, scale.h, where the field manager writes
// structured-merge-diff's). A custom resource's are maps, whose order
// nothing keeps.
void KeepLiveTimesOfANoOp(const Value& live, const Limits& limits, bool raw,
                          FieldManagerResult* r) {
  if (!r->changed) return;
  const Value* old_mf = FindManagedFields(live);
  const Value* new_mf = FindManagedFields(r->object);
  if (old_mf == nullptr || new_mf == nullptr || !old_mf->IsList() ||
      !new_mf->IsList() || old_mf->list().size() != new_mf->list().size() ||
      old_mf->list().empty()) {
    return;
  }
  bool times_changed = false;
  for (size_t i = 0; i < old_mf->list().size(); ++i) {
    const Value& a = old_mf->list()[i];
    const Value& b = new_mf->list()[i];
    if (!EqualExcept(a, b, "time")) return;
    if (raw) {
      const Value* fa = Find(a, "fieldsV1");
      const Value* fb = Find(b, "fieldsV1");
      if (fa != nullptr && fb != nullptr && !Identical(*fa, *fb)) return;
    }
    const Value* ta = Find(a, "time");
    const Value* tb = Find(b, "time");
    if ((ta == nullptr) != (tb == nullptr) ||
        (ta != nullptr && !Equals(*ta, *tb))) {
      times_changed = true;
    }
  }
  if (!times_changed || !EqualButManagedFields(live, r->object)) return;
  absl::StatusOr<ManagedState> old_state = DecodeManagedFields(live, limits);
  if (!old_state.ok()) return;
  r->managed = *std::move(old_state);
  r->object = live;
  r->changed = false;
}

// The request handlers' dedupOwnerReferences (apiserver's
// endpoints/handlers/rest.go), run on a create's or update's body before
// the field manager: an owner reference equal to one kept (as
// metav1.OwnerReference: an absent or null field is nil) is dropped, and
// its uid named in the warning the handler adds (which drops one only when
// its uid came before, as an equal one's did). The body without them, or
// nullopt when it has none.
std::optional<Value> DedupOwnerReferences(const Value& body,
                                          std::string* warning) {
  const Value* meta = Find(body, "metadata");
  const Value* refs = meta != nullptr ? Find(*meta, "ownerReferences") : nullptr;
  if (refs == nullptr || !refs->IsList() || refs->list().size() < 2)
    return std::nullopt;
  // A reference as metav1.OwnerReference holds it, as text: two equal
  // references have the same. (Fields of other types than the Go type's are
  // refused when the body is decoded, after this.) Kept in a set, so that a
  // body of many references takes linear time.
  auto identity = [](const Value& ref) {
    std::string out;
    for (const char* f : {"uid", "apiVersion", "kind", "name", "controller",
                          "blockOwnerDeletion"}) {
      const Value* v = Find(ref, f);
      if (v == nullptr || v->IsNull()) {
        out += "-";
      } else {
        AppendJson(&out, *v);
      }
      out += "\n";
    }
    return out;
  };
  absl::flat_hash_set<std::string> kept_refs;
  List kept;
  std::vector<std::string> duplicates;
  for (const Value& ref : refs->list()) {
    if (kept_refs.insert(identity(ref)).second) {
      kept.push_back(ref);
    } else {
      duplicates.push_back(StringAt(ref, "uid"));
    }
  }
  if (duplicates.empty()) return std::nullopt;
  // DuplicateOwnerReferencesWarningFormat, word for word.
  *warning = absl::StrCat(
      ".metadata.ownerReferences contains duplicate entries; API server "
      "dedups owner references in 1.20+, and may reject such requests as "
      "early as 1.24; please fix your requests; duplicate UID(s) observed: ",
      absl::StrJoin(duplicates, ", "));
  Value out = body;
  out.map().Find("metadata")->map().Set("ownerReferences",
                                        Value(std::move(kept)));
  return out;
}

}  // namespace

namespace internal {

// The apiserver's conversion of an object to a manager's version
// (apimachinery's versionConverter.Convert): an object whose apiVersion is
// that version is itself; any other is converted and typed again as
// ObjectToTyped types it, without typed.AllowDuplicates. So an update that
// writes an item twice fails where the object is converted for a manager
// at another version (SMD's "failed to convert new object: ... duplicate
// entries for key ..."), and a live object that holds an item twice fails
// where its managers' entries are reconciled at their versions. A version
// the kind is not served at is NotFound (the apiserver's converter cannot
// reach it: the scheme has no such version, or no type of its OpenAPI
// does). Between the versions of a built-in kind whose fields differ (the
// HorizontalPodAutoscaler's) objects convert as the scheme converts them
// and are typed at their version; between others, by `inner` (the identity
// when null), typed as the request's.
class ApiserverConverter : public Converter {
 public:
  // A built-in kind at a version, for converting objects there.
  struct Version {
    Type type;
    std::shared_ptr<const BuiltinKind> kind;
  };

  ApiserverConverter(const Converter* inner, Type type,
                     std::optional<std::vector<std::string>> served,
                     std::string kind, bool custom_resource,
                     std::map<std::string, Version> versions)
      : inner_(inner),
        type_(std::move(type)),
        served_(std::move(served)),
        kind_(std::move(kind)),
        custom_resource_(custom_resource),
        versions_(std::move(versions)) {}

  absl::StatusOr<Value> Convert(const Value& object,
                                const std::string& version) const override {
    const std::string* at = FindString(object, "apiVersion");
    if (at != nullptr && *at == version) return object;
    absl::StatusOr<Value> out = ConvertUntyped(object, version);
    if (!out.ok()) return out;
    if (absl::Status st = Validate(*TypeOr(version), *out); !st.ok())
      return absl::InternalError(st.message());
    return out;
  }

  // The conversion alone, as storage converts what it read to the
  // request's version: nothing is typed (an object stored with an item
  // twice converts).
  absl::StatusOr<Value> ConvertUntyped(const Value& object,
                                       const std::string& version) const {
    const std::string* at = FindString(object, "apiVersion");
    if (served_.has_value() &&
        std::find(served_->begin(), served_->end(), version) ==
            served_->end()) {
      // The apiextensions-apiserver's converter fails with an error of no
      // type the field manager tells apart (kubernetes#111937): an apply
      // fails, an update takes nothing.
      if (custom_resource_) {
        return absl::InternalError(absl::StrCat(
            "request to convert CR to an invalid group/version: ", version));
      }
      return absl::NotFoundError(absl::StrCat(
          "the apiserver does not serve ", kind_, " at ", version));
    }
    const Version* from = at != nullptr ? Find(*at) : nullptr;
    const Version* to = Find(version);
    absl::StatusOr<Value> out = object;
    if (from != nullptr && to != nullptr) {
      std::optional<Value> converted = from->kind->ConvertTo(object, *to->kind);
      if (converted.has_value()) out = *std::move(converted);
    } else if (inner_ != nullptr) {
      out = inner_->Convert(object, version);
    }
    return out;
  }

  const Type* TypeAt(const std::string& version) const override {
    const Version* v = Find(version);
    return v != nullptr ? &v->type : nullptr;
  }

 private:
  const Version* Find(const std::string& version) const {
    auto it = versions_.find(version);
    return it != versions_.end() ? &it->second : nullptr;
  }
  const Type* TypeOr(const std::string& version) const {
    const Type* t = TypeAt(version);
    return t != nullptr ? t : &type_;
  }

  const Converter* inner_;
  Type type_;
  std::optional<std::vector<std::string>> served_;
  std::string kind_;
  bool custom_resource_;
  // The built-in kind at the versions it converts between (none for other
  // kinds), the request's included.
  std::map<std::string, Version> versions_;
};

}  // namespace internal

namespace {

using internal::ApiserverConverter;

// The type of `kind` at `version`: the schema's (a cluster's OpenAPI has
// every version it serves), else the embedded one's.
std::optional<Type> TypeAtVersion(const Type& type, const std::string& version,
                                  const std::string& kind) {
  if (absl::StatusOr<std::string> name =
          KubernetesTypeName(type.schema(), version, kind);
      name.ok()) {
    absl::StatusOr<Type> t = Type::Named(type.shared_schema(), *name);
    if (t.ok()) return *std::move(t);
  }
  const std::string name(KubernetesKindTypeName(version, kind));
  if (name.empty()) return std::nullopt;
  absl::StatusOr<std::shared_ptr<const Schema>> schema =
      KubernetesSchemaFor(name);
  if (!schema.ok()) return std::nullopt;
  absl::StatusOr<Type> t = Type::Named(*std::move(schema), name);
  if (!t.ok()) return std::nullopt;
  return *std::move(t);
}

// The versions a built-in kind converts between (ApiserverConverter): those
// of `served` whose objects `builtin` converts to, with the request's.
std::map<std::string, ApiserverConverter::Version> ConvertedVersions(
    const Type& type, const std::shared_ptr<const BuiltinKind>& builtin,
    const FieldManagerOptions& opts) {
  std::map<std::string, ApiserverConverter::Version> out;
  if (builtin == nullptr || !opts.served_versions.has_value()) return out;
  for (const std::string& v : *opts.served_versions) {
    if (!BuiltinKind::Converts(opts.kind, opts.api_version, v)) continue;
    std::optional<Type> t = TypeAtVersion(type, v, opts.kind);
    if (!t.has_value()) continue;
    std::shared_ptr<const BuiltinKind> k = BuiltinKind::For(*t, v, opts.kind);
    if (k == nullptr || !builtin->ConvertsTo(*k)) continue;
    out.emplace(v, ApiserverConverter::Version{*std::move(t), std::move(k)});
  }
  if (!out.empty())
    out.emplace(opts.api_version, ApiserverConverter::Version{type, builtin});
  return out;
}

}  // namespace

// One pass of the structured merge: the object and managed state after it,
// or the failure.
struct FieldManager::Step {
  FieldManagerResult result;
  Value object;
  ManagedState state;
};

FieldManager::FieldManager(Type type, FieldManagerOptions opts)
    : type_(std::move(type)), opts_(std::move(opts)) {
  if (opts_.builtin_defaults) {
    builtin_ = BuiltinKind::For(type_, opts_.api_version, opts_.kind);
    if (builtin_ == nullptr)
      custom_metadata_ = CustomResourceMetadata::For(type_);
  }
  UpdaterOptions uo;
  uo.ignored_fields = opts_.ignored_fields;
  converter_ = std::make_shared<const ApiserverConverter>(
      opts_.converter, type_, opts_.served_versions, opts_.kind,
      opts_.custom_resource, ConvertedVersions(type_, builtin_, opts_));
  uo.converter = converter_.get();
  // A built-in kind's defaults are its Go defaulters', not the schema's
  // structural defaulting (which would also drop the nulls of its Go
  // types' zero values).
  uo.apply_defaults = opts_.apply_defaults && builtin_ == nullptr;
  uo.validate_live = opts_.validate_live;
  updater_ = std::make_shared<const Updater>(type_, uo);
  uo.apply_defaults = false;
  plain_updater_ = std::make_shared<const Updater>(type_, uo);
}

absl::StatusOr<FieldManager> FieldManager::Create(Type type,
                                                  FieldManagerOptions opts) {
  if (opts.api_version.empty() || opts.kind.empty()) {
    return absl::InvalidArgumentError(
        "a field manager needs the resource's apiVersion and kind");
  }
  if (opts.max_update_managers < 1) {
    return absl::InvalidArgumentError("max_update_managers must be at least 1");
  }
  if (opts.subresource != kScaleSubresource ||
      opts.scale_replicas_paths.empty()) {
    return FieldManager(std::move(type), std::move(opts));
  }
  const ReplicasPaths& paths = opts.scale_replicas_paths;
  if (auto p = paths.find(opts.api_version);
      p == paths.end() || p->second.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        opts.api_version, " ", opts.kind,
        " has no scale subresource: scale_replicas_paths maps no replicas "
        "field at ",
        opts.api_version));
  }
  FieldManagerOptions so;
  so.api_version = std::string(internal::kScaleApiVersion);
  so.kind = std::string(internal::kScaleKind);
  so.subresource = opts.subresource;
  so.clock = opts.clock;
  so.max_update_managers = opts.max_update_managers;
  so.track_on_create = opts.track_on_create;
  so.apply_defaults = false;
  so.validate_live = opts.validate_live;
  so.limits = opts.limits;
  absl::StatusOr<Type> scale_type =
      Type::Named(type.shared_schema(), "io.k8s.api.autoscaling.v1.Scale");
  const bool custom_resource = opts.custom_resource;
  FieldManager fm(std::move(type), std::move(opts));
  auto* scale = new FieldManager(
      scale_type.ok() ? *std::move(scale_type) : Type::Deduced(),
      std::move(so));
  scale->custom_resource_scale_ = custom_resource;
  fm.scale_ = std::shared_ptr<const FieldManager>(scale);
  return fm;
}

absl::Time FieldManager::Now() const {
  const Clock& clock = opts_.clock != nullptr ? *opts_.clock : SystemClock();
  // managedFields keep whole seconds.
  return absl::FromUnixSeconds(absl::ToUnixSeconds(clock.Now()));
}

std::string FieldManager::Identity(absl::string_view name, bool apply) const {
  return EncodeManagerIdentity(
      ManagerIdentity{std::string(name), apply ? "Apply" : "Update",
                      opts_.api_version, opts_.subresource});
}

void FieldManager::StripUntracked(ManagedFields* fields,
                                  const std::string& key,
                                  const PreparedConfig* prepared) const {
  auto it = fields->find(key);
  if (it == fields->end()) return;
  // The set of the configuration prepared without them.
  if (prepared != nullptr && it->second.shared_set() == prepared->fields)
    return;
  // The operating manager's set was just built: the few paths go in place
  // instead of in a copy of the whole set.
  if (Set* own = it->second.MutableSetIfUnshared()) {
    own->Subtract(UntrackedFields());
    if (own->Empty()) fields->erase(it);
    return;
  }
  Set rest = it->second.set().Difference(UntrackedFields());
  if (rest.Empty()) {
    fields->erase(it);
  } else {
    it->second = VersionedSet(std::move(rest), it->second.api_version(),
                              it->second.applied());
  }
}

// Keeps at most max_update_managers Update entries. The oldest entries of an
// apiVersion are merged into that version's "ancient-changes" entry; the
// oldest entry of each version stays until a second one of that version is
// merged, and then becomes the bucket. This is the apiserver's algorithm,
// quirks included: an existing bucket that sorts after another entry of its
// version is merged into itself and dropped.
void FieldManager::CapUpdateManagers(ManagedState* state) const {
  std::vector<std::string> updaters;
  for (const auto& [key, vs] : state->fields) {
    if (!vs.applied()) updaters.push_back(key);
  }
  const size_t cap = static_cast<size_t>(opts_.max_update_managers);
  if (updaters.size() <= cap) return;
  auto seconds = [&](const std::string& key) {
    auto t = state->times.find(key);
    return t == state->times.end() ? int64_t{0}
                                   : absl::ToUnixSeconds(t->second);
  };
  std::sort(updaters.begin(), updaters.end(),
            [&](const std::string& a, const std::string& b) {
              int64_t sa = seconds(a), sb = seconds(b);
              return sa != sb ? sa < sb : a < b;
            });
  std::map<std::string, std::string> first_of_version;
  size_t length = updaters.size();
  for (size_t i = 0; i < updaters.size() && length > cap; ++i) {
    const std::string& key = updaters[i];
    VersionedSet vs = state->fields.at(key);
    std::optional<absl::Time> time;
    if (auto t = state->times.find(key); t != state->times.end())
      time = t->second;
    const std::string& version = vs.api_version();
    auto first = first_of_version.find(version);
    if (first == first_of_version.end()) {
      first_of_version.emplace(version, key);
      continue;
    }
    std::string bucket = EncodeManagerIdentity(
        ManagerIdentity{std::string(kAncientChanges), "Update", version, ""});
    if (state->fields.count(bucket) == 0) {
      VersionedSet moved = state->fields.at(first->second);
      state->fields.erase(first->second);
      state->fields.emplace(bucket, std::move(moved));
    }
    state->fields[bucket] =
        VersionedSet(vs.set().Union(state->fields.at(bucket).set()),
                     vs.api_version(), vs.applied());
    state->fields.erase(key);
    --length;
    // The merged entry is the more recent one: the bucket takes its time.
    if (time) {
      state->times[bucket] = *time;
    } else {
      state->times.erase(bucket);
    }
  }
  DropStaleTimes(state);
}

FieldManager::Step FieldManager::ApplyFields(const Value& live,
                                             const Value& config,
                                             const PreparedConfig& prepared,
                                             ManagedState* from,
                                             const std::string& key, bool force,
                                             absl::Time now) const {
  Step step;
  OpResult r = updater_->Apply(live, config, opts_.api_version, from->fields,
                               key, force, prepared);
  if (!r.ok()) {
    static_cast<OpOutcome&>(step.result) = std::move(r);
    return step;
  }
  ManagedState state = std::move(*from);
  state.fields = std::move(r.managers);
  StripUntracked(&state.fields, key, &prepared);
  // Only an apply that changed the object stamps the applier's entry: one
  // that changes no value leaves its time as it was, or without one when
  // the entry is new (apimachinery v0.37's managedFieldsUpdater stamps a
  // non-nil result, and SMD returns nil when nothing changed).
  if (r.changed && state.fields.count(key) != 0) state.times[key] = now;
  DropStaleTimes(&state);
  step.object = r.changed ? std::move(r.object) : live;
  step.state = std::move(state);
  return step;
}

FieldManager::Step FieldManager::UpdateFields(
    const Value& live, const Value& object, ManagedState state,
    absl::string_view name, absl::Time now, bool plain) const {
  Step step;
  const std::string working(kCurrentOperation);
  OpResult r =
      (plain ? plain_updater_ : updater_)
          ->Update(live, object, opts_.api_version, state.fields, working);
  if (!r.ok()) {
    static_cast<OpOutcome&>(step.result) = std::move(r);
    return step;
  }
  state.fields = std::move(r.managers);
  StripUntracked(&state.fields, working, /*prepared=*/nullptr);
  // What the update changed joins the manager's earlier Update entry; only
  // then does that entry get a new time and apiVersion.
  if (auto it = state.fields.find(working); it != state.fields.end()) {
    Set changed = it->second.set();
    state.fields.erase(it);
    std::string key = Identity(name, /*apply=*/false);
    if (auto prev = state.fields.find(key); prev != state.fields.end())
      changed = changed.Union(prev->second.set());
    state.fields[key] =
        VersionedSet(std::move(changed), opts_.api_version, /*applied=*/false);
    state.times[key] = now;
  }
  CapUpdateManagers(&state);
  DropStaleTimes(&state);
  step.object = std::move(r.object);
  step.state = std::move(state);
  return step;
}

FieldManager::Step FieldManager::ApplyWithUpgrade(
    const Value& live, const Value& config, const PreparedConfig& prepared,
    ManagedState state, absl::string_view name, const std::string& key,
    bool force, absl::Time now) const {
  Step step = ApplyFields(live, config, prepared, &state, key, force, now);
  if (step.result.kind != ErrorKind::kConflict || name != kKubectl) return step;
  // kubectl taking over from its own client-side apply: what the
  // last-applied annotation set, with the value still live, was kubectl's.
  std::optional<Set> owned =
      internal::FieldsFromLastApplied(type_, live, opts_.api_version);
  if (!owned) return step;
  Conflicts rest;
  for (const Conflict& c : step.result.conflicts.list()) {
    if (!owned->Has(c.path)) rest.Add(c);
  }
  if (rest.empty()) {
    return ApplyFields(live, config, prepared, &state, key, /*force=*/true,
                       now);
  }
  step.result.status = absl::AbortedError(rest.ToString());
  step.result.conflicts = std::move(rest);
  return step;
}

namespace {

absl::Status NoLiveObjectError() {
  return absl::NotFoundError(
      "the object does not exist: a request to a subresource needs a live "
      "object");
}

// The 500 of a custom resource's scale subresource when the
// apiextensions-apiserver's converter is given an unstructured Scale
// (scale.h): `what` is the field manager's "failed to convert new object"
// or "... live object", `ns` and `name` the Scale's.
FieldManagerResult CustomResourceScaleFailed(absl::string_view what,
                                             absl::string_view ns,
                                             absl::string_view name) {
  return Failed(
      ErrorKind::kInternal,
      absl::InternalError(absl::StrCat(
          what, " (", ns, "/", name,
          "; autoscaling/v1, Kind=Scale) to proper version: request to "
          "convert CR to an invalid group/version: autoscaling/v1")));
}

}  // namespace

Value FieldManager::KeepResetFields(const Value& live_body, Value result,
                                    bool create) const {
  if (!opts_.changed_fields_only.empty() && live_body.IsMap()) {
    Value out = live_body;
    for (const std::vector<std::string>& p : opts_.changed_fields_only)
      internal::SetValueAt(&out, p, internal::ValueAt(result, p));
    return out;
  }
  auto keep = [&](const std::vector<std::vector<std::string>>& paths) {
    for (const std::vector<std::string>& p : paths) {
      const Value* kept =
          live_body.IsMap() ? internal::ValueAt(live_body, p) : nullptr;
      internal::SetValueAt(&result, p, kept);
    }
  };
  if (create && opts_.subresource == "status") {
    // A create through the status store: the main strategy's resets.
    keep(opts_.status_create_kept_fields);
    return result;
  }
  keep(opts_.kept_fields);
  if (!create) keep(opts_.kept_on_update_fields);
  return result;
}

// The apiserver's storage reads the stored object at the endpoint's
// version: a request at another version than the live object's gets it
// converted (a CRD's strategy None changes its apiVersion alone, a
// HorizontalPodAutoscaler converts as the scheme does), its managedFields
// as they are. An object of another group or kind is left to the checks
// that refuse it.
std::optional<absl::StatusOr<Value>> FieldManager::LiveAtRequestVersion(
    const Value& live) const {
  const std::string* av = FindString(live, "apiVersion");
  if (av == nullptr || *av == opts_.api_version ||
      StringAt(live, "kind") != opts_.kind) {
    return std::nullopt;
  }
  if (ApiGroupOf(*av) != ApiGroupOf(opts_.api_version)) return std::nullopt;
  absl::StatusOr<Value> read =
      converter_->ConvertUntyped(live, opts_.api_version);
  if (!read.ok()) {
    return absl::InternalError(absl::StrCat("the live object (", *av,
                                            ") does not convert to ",
                                            opts_.api_version, ": ",
                                            read.status().message()));
  }
  if (StringAt(*read, "apiVersion") != opts_.api_version)
    read->map().Set("apiVersion", Value(opts_.api_version));
  return read;
}

absl::StatusOr<Value> FieldManager::ReadLive(const Value& live) const {
  std::optional<absl::StatusOr<Value>> read = LiveAtRequestVersion(live);
  if (!read.has_value()) return live;
  return *std::move(read);
}

absl::StatusOr<Value> FieldManager::ReadStored(const Value& live) const {
  absl::StatusOr<Value> read = ReadLive(live);
  if (!read.ok() || builtin_ == nullptr || read->IsNull() ||
      !builtin_->ReadHidesStoredFields(*read)) {
    return read;
  }
  absl::StatusOr<ManagedState> owners =
      DecodeManagedFields(*read, opts_.limits, &type_);
  // (Entries that do not decode are the update's to refuse.)
  if (!owners.ok()) return read;
  return builtin_->AsStored(*std::move(read), owners->fields);
}

std::string FailureMessage(const OpOutcome& r) {
  if (r.kind == ErrorKind::kConflict && !r.conflicts.empty())
    return KubernetesConflictMessage(r.conflicts);
  return std::string(r.status.message());
}

FieldManagerResult FieldManager::Apply(const Value& live, const Value& config,
                                       absl::string_view manager,
                                       bool force) const {
  return CheckedByStore(ApplyWrite(live, config, manager, force), live,
                        config, internal::StoreWriteVerb::kApply);
}

FieldManagerResult FieldManager::Update(const Value& live, const Value& object,
                                        absl::string_view manager) const {
  return CheckedByStore(UpdateWrite(live, object, manager), live, object,
                        internal::StoreWriteVerb::kUpdate);
}

FieldManagerResult FieldManager::UpdatePatched(const Value& live,
                                               const Value& patched,
                                               absl::string_view manager)
    const {
  return CheckedByStore(UpdateWrite(live, patched, manager), live, patched,
                        internal::StoreWriteVerb::kPatch);
}

FieldManagerResult FieldManager::CheckedByStore(
    FieldManagerResult r, const Value& live, const Value& request,
    internal::StoreWriteVerb verb) const {
  if (!r.ok() || !opts_.builtin_defaults) return r;
  internal::StoreResource resource{opts_.api_version, opts_.kind,
                                   opts_.resource, opts_.custom_resource};
  internal::StoreWrite write;
  write.verb = verb;
  write.scale = scale_ != nullptr;
  write.main_resource = opts_.subresource.empty();
  std::optional<internal::StoreRefusal> refused =
      internal::RefuseStoreWrite(resource, write, live, request, r.object);
  if (refused.has_value())
    return Failed(refused->kind, std::move(refused->status));
  r.deleted = internal::DeletedByWrite(resource, live, r.object);
  return r;
}

FieldManagerResult FieldManager::ApplyWrite(const Value& live,
                                            const Value& config,
                                            absl::string_view manager,
                                            bool force) const {
  if (std::optional<absl::StatusOr<Value>> read = LiveAtRequestVersion(live)) {
    if (!read->ok()) return Failed(ErrorKind::kInternal, read->status());
    return ApplyWrite(**read, config, manager, force);
  }
  if (scale_ != nullptr) {
    return ScaleRequest(live, config, manager, /*apply=*/true, force);
  }
  if (!config.IsMap()) {
    return Failed(ErrorKind::kBadRequest,
                  absl::InvalidArgumentError(
                      "the applied configuration must be an object (a map)"));
  }
  const std::string av = StringAt(config, "apiVersion");
  const std::string kind = StringAt(config, "kind");
  if (av != opts_.api_version || kind != opts_.kind) {
    return Failed(
        ErrorKind::kBadRequest,
        // The apiserver's message, word for word (its versionCheckManager).
        absl::InvalidArgumentError(
            absl::StrCat("invalid object type: ", GvkString(av, kind))));
  }
  if (std::string bad = CheckManagerName(manager, /*apply=*/true);
      !bad.empty()) {
    return Failed(ErrorKind::kInvalid, absl::InvalidArgumentError(bad));
  }
  const std::string name(manager);  // not empty: checked above
  const std::string key = Identity(name, /*apply=*/true);
  // The configuration is read into its fields before the managedFields are
  // decoded: the applier's own entry, when it records exactly those fields
  // less the untracked ones (a re-apply of the same fields), is then taken
  // without reading it. Errors keep their order: the updater validates the
  // configuration and reports its errors after those below (an invalid
  // configuration fails the apply, whatever the entry was taken for).
  PreparedConfig prepared =
      updater_->Prepare(config, opts_.api_version, &UntrackedFields());
  const ExpectedEntry expected{key, prepared.fields};
  absl::StatusOr<ManagedState> decoded = DecodeManagedFields(
      live, opts_.limits, &type_, &expected);
  if (IsOverALimit(decoded.status())) {
    return Failed(ErrorKind::kInvalid, decoded.status());
  }
  if (!decoded.ok()) {
    return Failed(ErrorKind::kInvalid,
                  absl::InvalidArgumentError(absl::StrCat(
                      "the live object's managedFields are invalid: ",
                      decoded.status().message())));
  }
  if (!opts_.subresource.empty() && live.IsNull() &&
      !StatusCreates(live, /*apply=*/true)) {
    return Failed(ErrorKind::kBadRequest, NoLiveObjectError());
  }
  const absl::Time now = Now();
  Value body = StripManagedFields(live);
  ManagedState state = *std::move(decoded);
  // A built-in kind's create applies to the Go type's zero object.
  const bool create = body.IsNull();
  if (builtin_ != nullptr && create) body = builtin_->NewObject();

  if (state.empty() && !body.IsNull()) {
    if (custom_resource_scale_) {
      // The record is an update from an empty Scale (no namespace, no
      // name), which the converter refuses as it does an applied Scale.
      return CustomResourceScaleFailed(
          "failed to create manager for existing fields: failed to convert "
          "live object",
          "", "");
    }
    // Record who had the existing fields before the first apply: an update
    // from the empty object by "before-first-apply".
    Value empty = Value::MakeMap();
    empty.map().Set("apiVersion", Value(opts_.api_version));
    empty.map().Set("kind", Value(opts_.kind));
    if (builtin_ != nullptr) empty = builtin_->NewObject();
    Step first = UpdateFields(empty, body, std::move(state), kBeforeFirstApply,
                              now, /*plain=*/true);
    if (!first.result.ok()) return std::move(first.result);
    state = std::move(first.state);
  }

  // The structured merge refuses managedFields in the configuration,
  // after the record of before-first-apply (the apiserver's chain of
  // managers runs that first).
  if (const Value* mf = FindManagedFields(config);
      mf != nullptr && !mf->IsNull()) {
    return Failed(
        ErrorKind::kBadRequest,
        absl::InvalidArgumentError("metadata.managedFields must be nil"));
  }
  Step step =
      ApplyWithUpgrade(body, config, prepared, std::move(state), name, key,
                       force, now);
  if (!step.result.ok()) return std::move(step.result);

  FieldManagerResult r;
  r.object = std::move(step.object);
  if (name == kKubectl && internal::LastAppliedOf(r.object) != nullptr) {
    internal::SetLastApplied(&r.object, internal::BuildLastApplied(config));
  }
  r.managed = std::move(step.state);
  if (absl::Status st = ValidateManagerNames(r.managed); !st.ok())
    return Failed(ErrorKind::kInvalid, st);
  r.object = KeepResetFields(body, std::move(r.object), create);
  // The apiserver defaults the merged object (its structured-merge
  // manager), after the managed fields were computed, and stores it. The
  // fields the strategy then resets come from the live object, defaulted
  // and stored already, so they are reset first and decoding skips them.
  // (The merged object, before decoding, is the request a create's
  // registry sees.)
  const Value merged = create ? r.object : Value();
  // The merged object as the Go decoder reads it, before storage's read-back
  // leaves no empty slice: the strategy may count those (EmptiesDiffer).
  // Kept for the kinds that may (a kept reference makes the read-back copy
  // what it changes).
  const Value unread = builtin_ != nullptr && !create &&
                               builtin_->ComparesEmpties()
                           ? r.object
                           : Value();
  if (builtin_ != nullptr) {
    absl::Status converted;
    r.object =
        builtin_->ReadBack(std::move(r.object), &body, &converted, now);
    // The merged object goes through the unstructured converter, which
    // refuses a number its Go type cannot hold.
    if (!converted.ok()) {
      const Value* meta = Find(r.object, "metadata");
      return Failed(
          ErrorKind::kInternal,
          absl::InternalError(absl::StrCat(
              "failed to convert new object (",
              meta != nullptr ? StringAt(*meta, "namespace") : "", "/",
              meta != nullptr ? StringAt(*meta, "name") : "", "; ",
              GvkString(opts_.api_version, opts_.kind),
              ") to proper version: unable to convert unstructured object "
              "to ",
              GvkString(opts_.api_version, opts_.kind), ": ",
              converted.message())));
    }
  }
  if (custom_metadata_ != nullptr) {
    r.object = CustomResourceMetadata::AsStored(
        custom_metadata_->Coerce(std::move(r.object)), live,
        opts_.subresource == "status");
  }
  if (builtin_ != nullptr) {
    const bool empties_differ =
        !unread.IsNull() && builtin_->EmptiesDiffer(unread, r.object);
    r.object = create ? Created(std::move(r.object), merged, now)
                      : builtin_->PrepareForUpdate(
                            std::move(r.object), live,
                            {opts_.subresource == "status", empties_differ,
                             now, OtherSubresource(opts_.subresource)});
  }
  SetObjectManagedFields(&r.object, r.managed);
  r.changed = !Equals(r.object, live);
  if (opts_.builtin_defaults)
    KeepLiveTimesOfANoOp(live, opts_.limits, builtin_ != nullptr, &r);
  return r;
}

FieldManagerResult FieldManager::UpdateWrite(const Value& live,
                                             const Value& object,
                                             absl::string_view manager) const {
  if (std::optional<absl::StatusOr<Value>> read = LiveAtRequestVersion(live)) {
    if (!read->ok()) return Failed(ErrorKind::kInternal, read->status());
    return UpdateWrite(**read, object, manager);
  }
  std::string dedup_warning;
  if (std::optional<Value> deduped =
          DedupOwnerReferences(object, &dedup_warning)) {
    FieldManagerResult r = UpdateWrite(live, *deduped, manager);
    if (r.ok()) r.server_warnings.insert(r.server_warnings.begin(), dedup_warning);
    return r;
  }
  if (scale_ != nullptr) {
    return ScaleRequest(live, object, manager, /*apply=*/false,
                        /*force=*/false);
  }
  if (!object.IsMap()) {
    return Failed(
        ErrorKind::kBadRequest,
        absl::InvalidArgumentError("the written object must be a map"));
  }
  if (std::string bad = CheckManagerName(manager, /*apply=*/false);
      !bad.empty()) {
    return Failed(ErrorKind::kInvalid, absl::InvalidArgumentError(bad));
  }
  if (!opts_.subresource.empty() && live.IsNull() &&
      !StatusCreates(live, /*apply=*/false)) {
    return Failed(ErrorKind::kBadRequest, NoLiveObjectError());
  }
  // A custom resource's body as decoded: its metadata through ObjectMeta
  // (where an empty managedFields list is none, and so resets nothing).
  Value coerced;
  if (custom_metadata_ != nullptr) {
    absl::Status decoded;
    coerced = custom_metadata_->Coerce(object, &decoded);
    if (!decoded.ok()) {
      return Failed(ErrorKind::kBadRequest,
                    BuiltinKind::BodyRefusedError(opts_.api_version,
                                                  opts_.kind, decoded));
    }
  }
  const Value& written = custom_metadata_ != nullptr ? coerced : object;
  // Whose managed fields count: a body may set them (or reset them with []
  // or [{}]); without any, or on a subresource, the live object's do.
  const Value* body_mf = FindManagedFields(written);
  // As the apiserver, entries that do not decode are ignored rather than
  // lost or fatal: the body's give way to the live object's, and invalid
  // live entries to none. The result says so in its warnings.
  ManagedState state;
  std::vector<std::string> warnings;
  bool from_live = true;
  if (opts_.subresource.empty() && body_mf != nullptr && !body_mf->IsNull()) {
    if (IsManagedFieldsReset(*body_mf)) {
      from_live = false;
    } else {
      absl::StatusOr<ManagedState> d =
          DecodeManagedFieldsList(*body_mf, opts_.limits, &type_);
      if (IsOverALimit(d.status()))
        return Failed(ErrorKind::kInvalid, d.status());
      if (d.ok()) {
        state = *std::move(d);
        from_live = state.empty();
      } else {
        warnings.push_back(absl::StrCat(
            "ignored the written object's invalid managedFields (the live "
            "object's are kept): ",
            d.status().message()));
      }
    }
  }
  if (from_live) {
    absl::StatusOr<ManagedState> d =
        DecodeManagedFields(live, opts_.limits, &type_);
    if (IsOverALimit(d.status()))
      return Failed(ErrorKind::kInvalid, d.status());
    if (d.ok()) {
      state = *std::move(d);
    } else {
      warnings.push_back(
          absl::StrCat("ignored the live object's invalid managedFields: ",
                       d.status().message()));
    }
  }
  const std::string name =
      manager.empty() ? std::string(kUnknownManager) : std::string(manager);
  Value live_body = StripManagedFields(live);
  Value body = StripManagedFields(written);
  const bool create = live_body.IsNull();
  if (builtin_ != nullptr && !create &&
      builtin_->ReadHidesStoredFields(live_body)) {
    // (Who owns what in storage: the live object's entries.)
    ManagedState stored;
    if (!from_live) {
      absl::StatusOr<ManagedState> d =
          DecodeManagedFields(live, opts_.limits, &type_);
      if (d.ok()) stored = *std::move(d);
    }
    live_body = builtin_->AsStored(std::move(live_body),
                                   from_live ? state.fields : stored.fields);
  }
  const absl::Time now = Now();
  // Whether the stored object is not the body the field manager compared
  // (an empty slice in it comes back null).
  bool reads_back_otherwise = false;
  if (builtin_ != nullptr) {
    // The body as the apiserver decoded and defaulted it; a create starts
    // from the Go type's zero object (the registry's New).
    absl::Status decoded;
    body = builtin_->Decode(std::move(body), nullptr, &reads_back_otherwise,
                            &decoded, now);
    if (!decoded.ok())
      return Failed(ErrorKind::kBadRequest, builtin_->BodyRefused(decoded));
    if (create) live_body = builtin_->NewObject();
  }

  Step step =
      UpdateFields(live_body, body, state, name, now, /*plain=*/false);
  if (!step.result.ok()) {
    if (opts_.builtin_defaults && (step.result.kind == ErrorKind::kInvalid ||
                                   step.result.kind == ErrorKind::kInternal)) {
      return StoredWithLiveEntries(live, live_body, std::move(body), written,
                                   create, step.result.status,
                                   std::move(warnings));
    }
    return std::move(step.result);
  }
  FieldManagerResult r;
  r.warnings = std::move(warnings);
  r.object = std::move(step.object);
  // An existing object that nobody tracked is not tracked from an update
  // on; a create is, unless creates are not tracked either.
  r.managed = state.empty() && (HasUid(live) || !opts_.track_on_create)
                  ? ManagedState{}
                  : std::move(step.state);
  if (absl::Status st = ValidateManagerNames(r.managed); !st.ok())
    return Failed(ErrorKind::kInvalid, st);
  r.object = KeepResetFields(live_body, std::move(r.object), create);
  if (builtin_ != nullptr && create) {
    r.object = Created(std::move(r.object), written, now);
  } else if (builtin_ != nullptr) {
    const bool empties_differ = builtin_->EmptiesDiffer(written, body);
    r.object = builtin_->PrepareForUpdate(
        std::move(r.object), live_body,
        {opts_.subresource == "status", empties_differ, now,
         OtherSubresource(opts_.subresource)});
    // The ownership is of the body as written; the object, as stored.
    if (reads_back_otherwise)
      r.object = builtin_->ReadBack(std::move(r.object), &live_body);
  } else if (custom_metadata_ != nullptr) {
    r.object = CustomResourceMetadata::AsStored(
        std::move(r.object), live_body, opts_.subresource == "status");
  }
  SetObjectManagedFields(&r.object, r.managed);
  r.changed = !Equals(r.object, live);
  if (opts_.builtin_defaults)
    KeepLiveTimesOfANoOp(live, opts_.limits, builtin_ != nullptr, &r);
  return r;
}

FieldManagerResult FieldManager::StoredWithLiveEntries(
    const Value& live, const Value& live_body, Value body, const Value& written,
    bool create,
    const absl::Status& failure, std::vector<std::string> warnings) const {
  // The apiserver's live entries are its field manager's encoding, which
  // always decodes. Live entries that do not decode cannot be kept as the
  // apiserver would keep its own, so the update fails (changing nothing).
  absl::StatusOr<ManagedState> entries = DecodeManagedFields(live, opts_.limits);
  if (!entries.ok()) {
    return Failed(ErrorKind::kInvalid,
                  absl::InvalidArgumentError(absl::StrCat(
                      failure.message(),
                      "; the live object's managedFields, which the object "
                      "would be stored with, are invalid: ",
                      entries.status().message())));
  }
  FieldManagerResult r;
  r.managed = *std::move(entries);
  r.warnings = std::move(warnings);
  r.warnings.push_back(absl::StrCat(
      "the managed fields were not updated (", failure.message(),
      "); the object is stored with the live object's managedFields, as "
      "the apiserver does"));
  // As decoded: a custom resource's defaults (a built-in kind's were set
  // by Decode).
  if (opts_.apply_defaults && builtin_ == nullptr &&
      type_.schema().has_defaults()) {
    body = live_body.IsNull() ? ApplyDefaults(type_, std::move(body))
                              : ApplyDefaultsIncremental(type_, std::move(body),
                                                         live_body);
  }
  r.object = KeepResetFields(live_body, std::move(body), create);
  if (builtin_ != nullptr) {
    const bool empties_differ =
        !create && builtin_->EmptiesDiffer(written, r.object);
    r.object = create ? Created(std::move(r.object), written, Now())
                      : builtin_->ReadBack(
                            builtin_->PrepareForUpdate(
                                std::move(r.object), live_body,
                                {opts_.subresource == "status",
                                 empties_differ, Now(),
                                 OtherSubresource(opts_.subresource)}),
                            &live_body);
  } else if (custom_metadata_ != nullptr) {
    r.object = CustomResourceMetadata::AsStored(
        std::move(r.object), live_body, opts_.subresource == "status");
  }
  // The live entries as they are (the apiserver sets them back verbatim).
  if (const Value* kept = FindManagedFields(live); kept != nullptr)
    internal::SetValueAt(&r.object, {"metadata", "managedFields"}, kept);
  r.changed = !Equals(r.object, live);
  return r;
}

Value FieldManager::Created(Value object, const Value& request,
                           absl::Time now) const {
  // What the registry and admission set on a created object, then the
  // object as storage reads it back.
  return builtin_->ReadBack(builtin_->PrepareForCreate(
      std::move(object), request, now,
      /*status_store=*/opts_.subresource == "status"));
}

bool FieldManager::StatusCreates(const Value& live, bool apply) const {
  return live.IsNull() && opts_.subresource == "status" &&
         builtin_ != nullptr && builtin_->StatusWriteCreates(apply);
}

Value FieldManager::ScaleBody(const Value& body, const Value& live_scale,
                              bool apply) const {
  if (!body.IsMap() || StringAt(body, "apiVersion") != opts_.api_version ||
      StringAt(body, "kind") != opts_.kind) {
    return body;  // a Scale, or what the Scale's field manager refuses
  }
  const std::vector<std::string>& replicas =
      opts_.scale_replicas_paths.at(opts_.api_version);
  const Value* n = internal::ValueAt(body, replicas);
  if (!apply) {
    Value scale = live_scale;
    internal::SetValueAt(&scale, {"spec", "replicas"}, n);
    return scale;
  }
  Map meta;
  if (const Value* bm = Find(body, "metadata"); bm != nullptr && bm->IsMap()) {
    for (const char* f : {"name", "namespace", "managedFields"}) {
      if (const Value* v = bm->map().Find(f)) meta.Set(f, *v);
    }
  }
  Map scale;
  scale.Append("apiVersion", Value(internal::kScaleApiVersion));
  scale.Append("kind", Value(internal::kScaleKind));
  scale.Append("metadata", Value(std::move(meta)));
  if (n != nullptr) {
    Map spec;
    spec.Set("replicas", *n);
    scale.Append("spec", Value(std::move(spec)));
  }
  return Value(std::move(scale));
}

FieldManagerResult FieldManager::ScaleRequest(const Value& live,
                                              const Value& body,
                                              absl::string_view manager,
                                              bool apply, bool force) const {
  if (live.IsNull()) return Failed(ErrorKind::kBadRequest, NoLiveObjectError());
  if (!live.IsMap()) {
    return Failed(ErrorKind::kInvalid,
                  absl::InvalidArgumentError(absl::StrCat(
                      "the live object is invalid: expected map, got ",
                      KindName(live.kind()))));
  }
  absl::StatusOr<ManagedState> parent = DecodeManagedFields(live, opts_.limits);
  if (!parent.ok()) {
    return Failed(ErrorKind::kInvalid,
                  IsOverALimit(parent.status())
                      ? parent.status()
                      : absl::InvalidArgumentError(absl::StrCat(
                            "the live object's managedFields are invalid: ",
                            parent.status().message())));
  }
  const ReplicasPaths& paths = opts_.scale_replicas_paths;
  const std::vector<std::string>& replicas = paths.at(opts_.api_version);
  absl::StatusOr<Value> live_scale =
      internal::ScaleOf(live, replicas, opts_.kind);
  if (!live_scale.ok()) {
    return Failed(ErrorKind::kInternal, live_scale.status());
  }
  // A custom resource without its replicas field: the registry marks the
  // Scale's replicas as never set (scale.h).
  if (opts_.custom_resource && internal::ValueAt(live, replicas) == nullptr) {
    live_scale->map().Find("spec")->map().Set(
        "replicas", Value(internal::kUnsetCustomResourceReplicas));
  }
  Value request = ScaleBody(body, *live_scale, apply);
  // A written Scale is decoded into the typed Scale; an applied one is
  // merged as it is.
  if (!apply) request = internal::AsTypedScale(std::move(request));
  Value scale = *std::move(live_scale);
  SetObjectManagedFields(&scale, internal::ScaleEntries(*parent, paths));
  FieldManagerResult done = apply
                                ? scale_->Apply(scale, request, manager, force)
                                : scale_->Update(scale, request, manager);
  if (!done.ok()) return done;
  const Value* md = Find(live, "metadata");
  const std::string name = md != nullptr ? StringAt(*md, "name") : "";
  if (apply && opts_.custom_resource &&
      !Equals(StripManagedFields(done.object), StripManagedFields(scale))) {
    // The apiextensions-apiserver's converter takes the Scale the apply
    // made (unstructured, not its typed Scale) for a custom resource of
    // another version (scale.h).
    return CustomResourceScaleFailed(
        "failed to convert new object",
        md != nullptr ? StringAt(*md, "namespace") : "", name);
  }

  // The registry's checks of the new Scale, then the replicas go back.
  const Value* n = internal::ValueAt(done.object, {"spec", "replicas"});
  const int64_t count = n != nullptr && n->IsInt() ? n->AsInt() : 0;
  // The first `k` names of the replicas path as a CRD's specReplicasPath
  // spells them (for messages).
  auto dotted = [&replicas](size_t k) {
    std::string out;
    for (size_t i = 0; i < k; ++i) absl::StrAppend(&out, ".", replicas[i]);
    return out;
  };
  if (opts_.custom_resource &&
      count == internal::kUnsetCustomResourceReplicas) {
    return Failed(ErrorKind::kBadRequest,
                  absl::InvalidArgumentError(absl::StrCat(
                      "the spec replicas field \"", dotted(replicas.size()),
                      "\" cannot be empty")));
  }
  if (count < 0 && opts_.custom_resource) {
    // The custom resource's own validation (ValidateScaleSpec).
    const absl::string_view gv = opts_.api_version;
    return Failed(
        ErrorKind::kInvalid,
        absl::InvalidArgumentError(absl::StrCat(
            opts_.kind, ".", gv.substr(0, gv.find('/')), " \"", name,
            "\" is invalid: ", dotted(replicas.size()),
            ": Invalid value: ", count,
            ": should be a non-negative integer")));
  }
  if (count < 0) {
    return Failed(
        ErrorKind::kInvalid,
        absl::InvalidArgumentError(absl::StrCat(
            "Scale.autoscaling \"", name,
            "\" is invalid: spec.replicas: Invalid value: ", count,
            ": must be greater than or equal to 0")));
  }
  FieldManagerResult r;
  r.warnings = std::move(done.warnings);
  r.object = StripManagedFields(live);
  // A built-in kind's registry sets its typed object's field (a null spec
  // is the typed zero spec); a custom resource's sets the unstructured
  // field, which fails on a value that is not a map on the way
  // (unstructured.SetNestedField).
  Value* at = &r.object;
  for (size_t i = 0; i + 1 < replicas.size(); ++i) {
    Value* next = at->IsMap() ? at->map().Find(replicas[i]) : nullptr;
    if (next != nullptr && !next->IsMap() && opts_.custom_resource) {
      return Failed(ErrorKind::kInternal,
                    absl::InternalError(absl::StrCat(
                        "value cannot be set because ", dotted(i + 1),
                        " is not a map[string]interface{}")));
    }
    if (next == nullptr || !next->IsMap()) {
      at->map().Set(replicas[i], Value::MakeMap());
      next = at->map().Find(replicas[i]);
    }
    at = next;
  }
  at->map().Set(replicas.back(), Value(count));
  if (builtin_ != nullptr) {
    r.object = builtin_->PrepareForUpdate(
        std::move(r.object), live,
        {opts_.subresource == "status", /*empties_differ=*/false, Now(),
         /*subresource=*/""});
  } else if (custom_metadata_ != nullptr) {
    r.object = CustomResourceMetadata::AsStored(std::move(r.object), live,
                                                /*status_write=*/false);
  }
  r.managed = internal::MergeScaleEntries(*parent, done.managed, paths,
                                          opts_.api_version);
  SetObjectManagedFields(&r.object, r.managed);
  internal::SortFieldsV1AsEncodingJson(&r.object);
  r.changed = !Equals(r.object, live);
  // The registry store's rule holds for the resource a Scale write stores
  // (an Update entry that owns the replicas comes back from the Scale
  // without its time, scale.h).
  if (opts_.builtin_defaults)
    KeepLiveTimesOfANoOp(live, opts_.limits, builtin_ != nullptr, &r);
  return r;
}

}  // namespace smdx
