#include "smdx/fieldmanager/scale.h"

#include <algorithm>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "smdx/schema/builtin.h"
#include "smdx/typed/typed.h"

namespace smdx {

namespace {

// The kinds whose Scale carries a status, and the apiVersions their
// storage maps to spec.replicas (replicasPathIn<Kind> in Kubernetes'
// pkg/registry/{apps,core}/.../storage/storage.go).
struct ScalableKind {
  absl::string_view group;
  absl::string_view kind;
  std::vector<absl::string_view> versions;
};

const std::vector<ScalableKind>& ScalableKinds() {
  static const auto* const kinds = new std::vector<ScalableKind>{
      {"apps", "Deployment", {"apps/v1beta1", "apps/v1beta2", "apps/v1"}},
      {"apps", "StatefulSet", {"apps/v1beta1", "apps/v1beta2", "apps/v1"}},
      {"apps", "ReplicaSet", {"apps/v1beta2", "apps/v1"}},
      {"", "ReplicationController", {"v1"}},
  };
  return *kinds;
}

const ScalableKind* FindScalable(absl::string_view api_version,
                                 absl::string_view kind) {
  for (const ScalableKind& k : ScalableKinds()) {
    if (k.kind == kind && k.group == ApiGroupOf(api_version)) return &k;
  }
  return nullptr;
}

Path FieldPath(const std::vector<std::string>& names) {
  Path p;
  p.reserve(names.size());
  for (const std::string& n : names) p.push_back(PathElement::Field(n));
  return p;
}

const Path& ScaleReplicasPath() {
  static const Path* const p = new Path(FieldPath({"spec", "replicas"}));
  return *p;
}

// Go's %q of a string, for the plain strings selectors hold.
std::string Quoted(absl::string_view s) {
  return absl::StrCat("\"", absl::CHexEscape(s), "\"");
}

struct Requirement {
  std::string key;
  std::string text;
};

std::string ValueText(const Value& v) {
  return v.IsString() ? v.AsString() : std::string();
}

}  // namespace

ReplicasPaths BuiltinReplicasPaths(absl::string_view api_version,
                                   absl::string_view kind) {
  ReplicasPaths out;
  if (const ScalableKind* k = FindScalable(api_version, kind)) {
    for (absl::string_view v : k->versions)
      out[std::string(v)] = {"spec", "replicas"};
  }
  return out;
}

namespace internal {

const Value* ValueAt(const Value& v, const std::vector<std::string>& path) {
  const Value* at = &v;
  for (const std::string& name : path) {
    at = at->IsMap() ? at->map().Find(name) : nullptr;
    if (at == nullptr) return nullptr;
  }
  return at;
}

void SetValueAt(Value* v, const std::vector<std::string>& path,
                const Value* value) {
  Value* at = v;
  for (size_t i = 0; i + 1 < path.size(); ++i) {
    if (!at->IsMap()) return;
    Value* next = at->map().Find(path[i]);
    if (next == nullptr) {
      if (value == nullptr) return;
      at->map().Set(path[i], Value::MakeMap());
      next = at->map().Find(path[i]);
    }
    at = next;
  }
  if (!at->IsMap() || path.empty()) return;
  if (value == nullptr) {
    at->map().Erase(path.back());
  } else {
    at->map().Set(path.back(), *value);
  }
}

absl::StatusOr<std::string> LabelSelectorString(const Value& selector) {
  if (!selector.IsMap()) return std::string();
  std::vector<Requirement> reqs;
  if (const Value* labels = selector.map().Find("matchLabels");
      labels != nullptr && labels->IsMap()) {
    for (const auto& [k, v] : labels->map()) {
      reqs.push_back({k, absl::StrCat(k, "=", ValueText(v))});
    }
    // Go ranges over a map: its order is none, and the keys are distinct.
    std::sort(reqs.begin(), reqs.end(),
              [](const Requirement& a, const Requirement& b) {
                return a.key < b.key;
              });
  }
  if (const Value* exprs = selector.map().Find("matchExpressions");
      exprs != nullptr && exprs->IsList()) {
    for (const Value& e : exprs->list()) {
      const std::string key = StringAt(e, "key");
      const std::string op = StringAt(e, "operator");
      std::vector<std::string> values;
      if (const Value* vs = Find(e, "values"); vs != nullptr && vs->IsList()) {
        for (const Value& v : vs->list()) values.push_back(ValueText(v));
      }
      if (values.size() > 1) std::sort(values.begin(), values.end());
      const std::string joined = absl::StrJoin(values, ",");
      if (op == "In") {
        reqs.push_back({key, absl::StrCat(key, " in (", joined, ")")});
      } else if (op == "NotIn") {
        reqs.push_back({key, absl::StrCat(key, " notin (", joined, ")")});
      } else if (op == "Exists") {
        reqs.push_back({key, key});
      } else if (op == "DoesNotExist") {
        reqs.push_back({key, absl::StrCat("!", key)});
      } else {
        // metav1.LabelSelectorAsSelector's words.
        return absl::InvalidArgumentError(
            absl::StrCat(Quoted(op),
                         " is not a valid label selector operator"));
      }
    }
  }
  // labels.Selector.Add sorts by key; requirements of one key keep their
  // order (an insertion sort at these sizes).
  std::stable_sort(reqs.begin(), reqs.end(),
                   [](const Requirement& a, const Requirement& b) {
                     return a.key < b.key;
                   });
  std::vector<std::string> texts;
  texts.reserve(reqs.size());
  for (Requirement& r : reqs) texts.push_back(std::move(r.text));
  return absl::StrJoin(texts, ",");
}

absl::StatusOr<Value> ScaleOf(const Value& parent,
                              const std::vector<std::string>& replicas,
                              absl::string_view kind) {
  Value meta = Value::MakeMap();
  if (const Value* pm = Find(parent, "metadata"); pm != nullptr) {
    for (const char* f :
         {"name", "namespace", "uid", "resourceVersion", "creationTimestamp"}) {
      std::string s = StringAt(*pm, f);
      if (!s.empty()) meta.map().Set(f, Value(std::move(s)));
    }
  }
  auto nonzero = [](const Value* v) {
    return v != nullptr && v->IsInt() && v->AsInt() != 0;
  };
  Value spec = Value::MakeMap();
  if (const Value* r = ValueAt(parent, replicas); nonzero(r))
    spec.map().Set("replicas", *r);
  Value status = Value::MakeMap();
  if (FindScalable(StringAt(parent, "apiVersion"), kind) != nullptr) {
    // status.replicas has no omitempty: the typed Scale always has it.
    const Value* r = ValueAt(parent, {"status", "replicas"});
    status.map().Set("replicas",
                     r != nullptr && r->IsInt() ? *r : Value(int64_t{0}));
    const Value* sel = ValueAt(parent, {"spec", "selector"});
    absl::StatusOr<std::string> text = std::string();
    if (sel != nullptr && kind == "ReplicationController") {
      // A replication controller's selector is a label set.
      Map as_labels;
      as_labels.Set("matchLabels", *sel);
      text = LabelSelectorString(Value(std::move(as_labels)));
    } else if (sel != nullptr) {
      text = LabelSelectorString(*sel);
    }
    if (!text.ok()) return text.status();
    if (!text->empty()) status.map().Set("selector", Value(*std::move(text)));
  }
  Map scale;
  scale.Append("apiVersion", Value(kScaleApiVersion));
  scale.Append("kind", Value(kScaleKind));
  scale.Append("metadata", std::move(meta));
  scale.Append("spec", std::move(spec));
  scale.Append("status", std::move(status));
  return Value(std::move(scale));
}

Value AsTypedScale(Value scale) {
  if (!scale.IsMap()) return scale;
  for (const char* part : {"spec", "status"}) {
    const Value* v = scale.map().Find(part);
    if (v == nullptr || !v->IsMap()) scale.map().Set(part, Value::MakeMap());
  }
  Map& spec = scale.map().Find("spec")->map();
  if (const Value* n = spec.Find("replicas");
      n != nullptr && (n->IsNull() || (n->IsInt() && n->AsInt() == 0))) {
    spec.Erase("replicas");
  }
  Map& status = scale.map().Find("status")->map();
  if (const Value* n = status.Find("replicas"); n == nullptr || n->IsNull())
    status.Set("replicas", Value(int64_t{0}));
  if (const Value* sel = status.Find("selector");
      sel != nullptr && (sel->IsNull() ||
                         (sel->IsString() && sel->AsString().empty()))) {
    status.Erase("selector");
  }
  return scale;
}

ManagedState ScaleEntries(const ManagedState& parent,
                          const ReplicasPaths& paths) {
  ManagedState out;
  for (const auto& [key, vs] : parent.fields) {
    auto path = paths.find(vs.api_version());
    if (path == paths.end() || path->second.empty()) continue;
    if (!vs.set().Has(FieldPath(path->second))) continue;
    Set s;
    s.Insert(ScaleReplicasPath());
    out.fields[key] =
        VersionedSet(std::move(s), std::string(kScaleApiVersion), vs.applied());
    if (auto t = parent.times.find(key); t != parent.times.end())
      out.times[key] = t->second;
  }
  return out;
}

ManagedState MergeScaleEntries(const ManagedState& parent,
                               const ManagedState& scale,
                               const ReplicasPaths& paths,
                               const std::string& group_version) {
  ManagedState out;
  auto keep = [&](const std::string& key, VersionedSet vs) {
    out.fields[key] = std::move(vs);
    if (auto t = parent.times.find(key); t != parent.times.end())
      out.times[key] = t->second;
  };
  ManagedFields on_scale = scale.fields;
  for (const auto& [key, vs] : parent.fields) {
    auto path = paths.find(vs.api_version());
    if (path == paths.end()) continue;  // an apiVersion it does not know
    if (path->second.empty() || !vs.set().Has(FieldPath(path->second))) {
      keep(key, vs);
      continue;
    }
    if (on_scale.erase(key) > 0) {
      keep(key, vs);
      continue;
    }
    // The Scale took the replicas field from this entry.
    Set one;
    one.Insert(FieldPath(path->second));
    Set rest = vs.set().Difference(one);
    if (!rest.Empty())
      keep(key, VersionedSet(std::move(rest), vs.api_version(), vs.applied()));
  }
  auto target = paths.find(group_version);
  for (const auto& [key, vs] : on_scale) {
    if (!vs.set().Has(ScaleReplicasPath())) continue;
    Set s;
    if (target != paths.end()) s.Insert(FieldPath(target->second));
    keep(key, VersionedSet(std::move(s), group_version, vs.applied()));
  }
  return out;
}

namespace {

void SortKeys(Value* v, int depth) {
  if (!v->IsMap() || depth > kMaxValueDepth) return;
  Map::Entries& entries = v->map().entries();
  // Keys are unique: the order is total.
  std::sort(entries.begin(), entries.end(),
            [](const MapEntry& a, const MapEntry& b) { return a.key < b.key; });
  for (MapEntry& e : entries) SortKeys(&e.value, depth + 1);
}

}  // namespace

void SortFieldsV1AsEncodingJson(Value* object) {
  Value* md = object->IsMap() ? object->map().Find("metadata") : nullptr;
  Value* list = md != nullptr && md->IsMap() ? md->map().Find("managedFields")
                                             : nullptr;
  if (list == nullptr || !list->IsList()) return;
  for (Value& entry : list->list()) {
    Value* fields = entry.IsMap() ? entry.map().Find("fieldsV1") : nullptr;
    if (fields != nullptr) SortKeys(fields, 0);
  }
}

}  // namespace internal
}  // namespace smdx
