#include "smdx/fieldmanager/kubectl_apply.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "smdx/fieldmanager/kubectl.h"
#include "smdx/fieldmanager/managed_fields.h"
#include "smdx/fieldpath/fields_v1.h"
#include "smdx/fieldpath/path.h"
#include "smdx/fieldpath/set.h"
#include "smdx/value/emit.h"
#include "smdx/value/parse.h"
#include "smdx/value/patch.h"
#include "smdx/value/strategic_patch.h"

namespace smdx {

namespace {

// An entry's string field as client-go reads it ("" when absent).
absl::string_view EntryString(const Value& entry, absl::string_view key) {
  const std::string* s = FindString(entry, key);
  return s != nullptr ? absl::string_view(*s) : absl::string_view();
}

bool IsEntryOf(const Value& entry, absl::string_view manager,
               absl::string_view operation, absl::string_view subresource) {
  return EntryString(entry, "manager") == manager &&
         EntryString(entry, "operation") == operation &&
         EntryString(entry, "subresource") == subresource;
}

// The fields of an entry (checked valid beforehand).
Set EntrySet(const Value& entry, const Limits& limits) {
  const Value* v = Find(entry, "fieldsV1");
  if (v == nullptr) return Set();
  absl::StatusOr<Set> s = FieldsV1FromValue(*v, limits);
  return s.ok() ? *std::move(s) : Set();
}

const Path& LastAppliedPath() {
  static const Path* const path = new Path{
      PathElement::Field("metadata"), PathElement::Field("annotations"),
      PathElement::Field(std::string(kLastAppliedAnnotation))};
  return *path;
}

// The managers of the entries of `operation` (any subresource) whose fields
// hold the annotation, in order, each once (kubectl's FindFieldsOwners).
std::vector<std::string> AnnotationOwners(const Value& object,
                                          absl::string_view operation) {
  std::vector<std::string> out;
  const Value* list = FindManagedFields(object);
  if (list == nullptr || !list->IsList()) return out;
  for (const Value& e : list->list()) {
    if (EntryString(e, "operation") != operation) continue;
    if (!EntrySet(e, Limits()).Has(LastAppliedPath())) continue;
    std::string m(EntryString(e, "manager"));
    if (std::find(out.begin(), out.end(), m) == out.end())
      out.push_back(std::move(m));
  }
  return out;
}

// The annotation's value, an empty one too: kubectl looks it up in the
// annotations map (internal::LastAppliedOf, the apiserver's reading, takes
// an empty one for none).
const std::string* KubectlLastApplied(const Value& object) {
  const Value* meta = Find(object, "metadata");
  const Value* ann = meta != nullptr ? Find(*meta, "annotations") : nullptr;
  return ann != nullptr ? FindString(*ann, kLastAppliedAnnotation) : nullptr;
}

// Step 2's configuration: the annotation alone, at the configuration's
// apiVersion and kind, named as the stored object is.
Value AnnotationConfig(const Value& config, const Value& stored,
                       const std::string& annotation) {
  Value meta = Value::MakeMap();
  const Value* stored_meta = Find(stored, "metadata");
  for (absl::string_view key : {"name", "namespace"}) {
    const std::string* s =
        stored_meta != nullptr ? FindString(*stored_meta, key) : nullptr;
    if (s != nullptr && !s->empty()) meta.map().Set(key, Value(*s));
  }
  Value annotations = Value::MakeMap();
  annotations.map().Set(kLastAppliedAnnotation, Value(annotation));
  meta.map().Set("annotations", std::move(annotations));
  Value out = Value::MakeMap();
  for (absl::string_view key : {"apiVersion", "kind"}) {
    if (const Value* v = Find(config, key)) out.map().Set(key, *v);
  }
  out.map().Set("metadata", std::move(meta));
  return out;
}

}  // namespace

absl::StatusOr<ManagedFieldsUpgrade> UpgradeManagedFields(
    const Value& object, absl::Span<const std::string> csa_managers,
    absl::string_view ssa_manager, absl::string_view subresource,
    const Limits& limits) {
  ManagedFieldsUpgrade out{object, false};
  const Value* list = FindManagedFields(object);
  if (list == nullptr || list->IsNull()) return out;
  if (absl::Status st = DecodeManagedFieldsList(*list, limits).status();
      !st.ok()) {
    return st;
  }
  List entries = list->list();
  std::vector<std::string> done;
  for (const std::string& csa : csa_managers) {
    // (A name given twice finds nothing left the second time.)
    if (std::find(done.begin(), done.end(), csa) != done.end()) continue;
    done.push_back(csa);
    auto first_of = [&](absl::string_view manager,
                        absl::string_view operation) {
      return std::find_if(entries.begin(), entries.end(), [&](const Value& e) {
        return IsEntryOf(e, manager, operation, subresource);
      });
    };
    auto target = first_of(ssa_manager, "Apply");
    if (target == entries.end()) {
      target = first_of(csa, "Update");
      if (target == entries.end()) continue;
      Map& m = target->map();
      m.Set("manager", Value(ssa_manager));
      m.Set("operation", Value("Apply"));
      out.changed = true;
    }
    const absl::string_view version = EntryString(*target, "apiVersion");
    Set fields = EntrySet(*target, limits);
    for (const Value& e : entries) {
      if (IsEntryOf(e, csa, "Update", subresource) &&
          EntryString(e, "apiVersion") == version) {
        Set joined = fields.Union(EntrySet(e, limits));
        if (!(joined == fields)) out.changed = true;
        fields = std::move(joined);
        break;
      }
    }
    target->map().Set("fieldsV1", FieldsV1ToValue(fields));
    const size_t before = entries.size();
    entries.erase(std::remove_if(entries.begin(), entries.end(),
                                 [&](const Value& e) {
                                   return IsEntryOf(e, csa, "Update",
                                                    subresource);
                                 }),
                  entries.end());
    if (entries.size() != before) out.changed = true;
  }
  if (!out.changed) return out;
  Value* meta = out.object.map().Find("metadata");
  meta->map().Set("managedFields", Value(std::move(entries)));
  return out;
}

std::vector<std::string> ClientSideAppliers(const Value& object) {
  return AnnotationOwners(object, "Update");
}

FieldManagerResult KubectlServerSideApply(const FieldManager& fm,
                                          const Value& live,
                                          const Value& config,
                                          absl::string_view manager,
                                          bool force) {
  FieldManagerResult result = fm.Apply(live, config, manager, force);
  if (!result.ok()) return result;
  // Later steps run on what is stored, and add their warnings.
  auto take = [&result](FieldManagerResult&& step) {
    result.object = std::move(step.object);
    result.managed = std::move(step.managed);
    result.changed = result.changed || step.changed;
    for (std::string& w : step.warnings) result.warnings.push_back(std::move(w));
    for (std::string& w : step.server_warnings)
      result.server_warnings.push_back(std::move(w));
  };
  auto failed = [&result](absl::string_view what,
                          const FieldManagerResult& step) {
    result.warnings.push_back(absl::StrCat(
        "kubectl would warn: ", what, " failed (",
        FailureMessage(step),
        "); the object stays as the steps before left it"));
  };

  // Step 2: the annotation kept by its own applier.
  if (manager == kKubectlManager) {
    const std::string* annotation = KubectlLastApplied(result.object);
    if (annotation != nullptr &&
        AnnotationOwners(result.object, "Apply").empty()) {
      FieldManagerResult step =
          fm.Apply(result.object,
                   AnnotationConfig(config, result.object, *annotation),
                   kKubectlLastAppliedManager, /*force=*/false);
      if (!step.ok()) {
        failed("keeping the last-applied annotation", step);
        return result;
      }
      take(std::move(step));
    }
  }

  // Step 3: the client-side appliers' fields moved to the manager.
  const std::vector<std::string> appliers = ClientSideAppliers(result.object);
  if (appliers.empty()) return result;
  absl::StatusOr<ManagedFieldsUpgrade> upgrade =
      UpgradeManagedFields(result.object, appliers, manager, "",
                           fm.options().limits);
  if (!upgrade.ok()) {
    FieldManagerResult step;
    step.kind = ErrorKind::kInvalid;
    step.status = upgrade.status();
    failed("moving client-side apply's fields", step);
    return result;
  }
  if (!upgrade->changed) return result;
  FieldManagerResult moved = fm.Update(result.object, upgrade->object, manager);
  if (!moved.ok()) {
    failed("moving client-side apply's fields", moved);
    return result;
  }
  take(std::move(moved));

  // Step 4: the apply again, now removing what the configuration dropped.
  FieldManagerResult again = fm.Apply(result.object, config, manager, force);
  if (!again.ok()) {
    failed("the apply after the move", again);
    return result;
  }
  take(std::move(again));
  return result;
}

namespace {

// `config` with its annotations as kubectl's accessor reads and writes
// them (NestedNullCoercingStringMap: a null is "", another value that is
// no string makes none; none is written as an empty map), without the
// last-applied annotation; then with `annotation` as that one, unless
// null.
Value WithKubectlAnnotation(const Value& config, const Value& annotation) {
  Value out = config;
  if (!out.IsMap()) return out;
  Value* meta = out.map().Find("metadata");
  if (meta == nullptr || meta->IsNull()) {
    out.map().Set("metadata", Value::MakeMap());
    meta = out.map().Find("metadata");
  }
  if (!meta->IsMap()) return out;  // (the server refuses it)
  Value* ann = meta->map().Find("annotations");
  bool strings = ann != nullptr && ann->IsMap();
  if (strings) {
    for (MapEntry& e : ann->map().entries()) {
      if (e.value.IsNull()) e.value = Value(std::string());
      strings = strings && e.value.IsString();
    }
  }
  if (!strings) {
    meta->map().Set("annotations", Value::MakeMap());
    ann = meta->map().Find("annotations");
  }
  ann->map().Erase(kLastAppliedAnnotation);
  if (!annotation.IsNull()) ann->map().Set(kLastAppliedAnnotation, annotation);
  return out;
}

// The configuration kubectl applies: with its annotation, the
// configuration without it as its encoder writes it.
Value KubectlModified(const Value& config) {
  return WithKubectlAnnotation(
      config, Value(ToJsonSorted(WithKubectlAnnotation(config, Value())) +
                    "\n"));
}

// A merge patch kubectl refuses to send (its preconditions).
bool ChangesIdentity(const Value& patch) {
  if (Find(patch, "apiVersion") != nullptr || Find(patch, "kind") != nullptr) {
    return true;
  }
  const Value* meta = Find(patch, "metadata");
  return meta != nullptr && Find(*meta, "name") != nullptr;
}

}  // namespace

absl::StatusOr<ClientSideApplyRequest> KubectlClientSideRequest(
    const FieldManager& fm, const Value& live, const Value& config) {
  if (!fm.options().subresource.empty()) {
    return absl::InvalidArgumentError(
        "kubectl applies to a subresource only server-side (--subresource "
        "can only be specified for --server-side)");
  }
  if (!config.IsMap()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the configuration is a ", KindName(config.kind()),
        ", not an object"));
  }
  ClientSideApplyRequest req;
  req.body = KubectlModified(config);
  if (live.IsNull()) {
    req.create = true;
    return req;
  }
  absl::StatusOr<Value> current = fm.ReadLive(live);
  if (!current.ok()) return current.status();
  Value original;
  if (const std::string* text = KubectlLastApplied(*current);
      text != nullptr && !text->empty()) {
    absl::StatusOr<Value> read = ParseJson(*text);
    if (!read.ok() || !(read->IsMap() || read->IsNull())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the live object's ", kLastAppliedAnnotation,
          " annotation is not a JSON object",
          read.ok() ? "" : absl::StrCat(": ", read.status().message())));
    }
    original = *std::move(read);
  }
  if (const StrategicPatchSchema* schema = StrategicPatchSchemaOf(fm)) {
    absl::StatusOr<Value> patch =
        CreateThreeWayStrategicPatch(original, req.body, *current, *schema);
    if (!patch.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "kubectl cannot make its patch: ", patch.status().message()));
    }
    req.body = *std::move(patch);
    return req;
  }
  absl::StatusOr<Value> patch =
      CreateThreeWayMergePatch(original, req.body, *current);
  if (!patch.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "kubectl cannot make its patch: ", patch.status().message()));
  }
  if (ChangesIdentity(*patch)) {
    return absl::InvalidArgumentError(
        "kubectl cannot make its patch: At least one of apiVersion, kind and "
        "name was changed");
  }
  req.type = PatchType::kMerge;
  req.body = *std::move(patch);
  return req;
}

FieldManagerResult KubectlClientSideApply(const FieldManager& fm,
                                          const Value& live,
                                          const Value& config,
                                          absl::string_view manager) {
  absl::StatusOr<ClientSideApplyRequest> req =
      KubectlClientSideRequest(fm, live, config);
  if (!req.ok()) {
    FieldManagerResult r;
    r.kind = req.status().code() == absl::StatusCode::kInvalidArgument
                 ? ErrorKind::kBadRequest
                 : ErrorKind::kInternal;
    r.status = req.status();
    return r;
  }
  if (req->create) return fm.Update(Value(), req->body, manager);
  std::vector<std::string> warnings;
  if (KubectlLastApplied(live) == nullptr) {
    warnings.push_back(absl::StrCat(
        "kubectl would warn: the object is missing the ",
        kLastAppliedAnnotation,
        " annotation, which client-side apply needs; the patch adds it"));
  }
  FieldManagerResult r;
  if (req->body.IsMap() && req->body.map().empty()) {
    warnings.push_back(
        "kubectl sends no request: its patch is empty (it reports the "
        "object unchanged)");
    r.object = live;
    absl::StatusOr<ManagedState> managed =
        DecodeManagedFields(live, fm.options().limits);
    if (managed.ok()) {
      r.managed = *std::move(managed);
    } else {
      warnings.push_back(absl::StrCat("the live object's managedFields: ",
                                      managed.status().message()));
    }
  } else {
    r = Patch(fm, live, req->body, req->type, manager);
  }
  if (r.ok()) {
    warnings.insert(warnings.begin(),
                    std::make_move_iterator(r.warnings.begin()),
                    std::make_move_iterator(r.warnings.end()));
    r.warnings = std::move(warnings);
  }
  return r;
}

}  // namespace smdx
