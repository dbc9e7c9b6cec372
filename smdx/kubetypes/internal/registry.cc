#include "smdx/kubetypes/internal/registry.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/types/span.h"
#include "smdx/kubetypes/internal/crd.h"
#include "smdx/kubetypes/internal/defaulters.h"
#include "smdx/kubetypes/internal/disabled_fields.h"
#include "smdx/kubetypes/internal/pod.h"
#include "smdx/kubetypes/internal/quantity.h"
#include "smdx/kubetypes/internal/service.h"

namespace smdx::internal {

namespace {

// Appends `s` to the string list under `f` unless it holds it already.
void AddToList(Map& m, absl::string_view f, absl::string_view s) {
  Value* v = m.Find(f);
  if (v == nullptr || !v->IsList()) {
    m.Set(f, Value::MakeList());
    v = m.Find(f);
  }
  for (const Value& item : v->list()) {
    if (item.IsString() && item.AsString() == s) return;
  }
  v->list().push_back(Value(s));
}

// A quantity of a resource list: absent or null is zero; nullopt where it
// is no quantity (and so equals nothing).
std::optional<Quantity> QuantityOf(const Value* q) {
  if (q == nullptr || q->IsNull()) return Quantity();
  return ParseQuantity(*q);
}

const Value* ResourceAt(const Value* list, absl::string_view res) {
  return list != nullptr && list->IsMap() ? list->map().Find(res) : nullptr;
}

// Whether a pod's `resources` request or limit cpu, memory or huge pages.
bool SetsPodLevelResources(const Value& resources) {
  for (const char* f : {"requests", "limits"}) {
    const Value* list = Find(resources, f);
    if (list == nullptr || !list->IsMap()) continue;
    for (const MapEntry& e : list->map()) {
      if (e.key == "cpu" || e.key == "memory" ||
          absl::StartsWith(e.key, "hugepages-")) {
        return true;
      }
    }
  }
  return false;
}

// requirementsQOS of one ResourceRequirements.
std::string RequirementsQos(const Value* resources) {
  const Value* requests =
      resources != nullptr ? Find(*resources, "requests") : nullptr;
  const Value* limits =
      resources != nullptr ? Find(*resources, "limits") : nullptr;
  auto empty = [](const Value* v) {
    return v == nullptr || !v->IsMap() || v->map().empty();
  };
  if (empty(requests) && empty(limits)) return "BestEffort";
  std::string qos;
  for (const char* res : {"cpu", "memory"}) {
    std::optional<Quantity> req = QuantityOf(ResourceAt(requests, res));
    std::optional<Quantity> lim = QuantityOf(ResourceAt(limits, res));
    std::string r;
    if (!req.has_value() || !lim.has_value() ||
        CompareQuantities(*req, *lim) != 0) {
      r = "Burstable";
    } else {
      r = req->digits == "0" ? "BestEffort" : "Guaranteed";
    }
    if (r == "Burstable") return r;
    if (qos.empty()) {
      qos = r;
    } else if (qos != r) {
      return "Burstable";
    }
  }
  return qos;
}

void Namespace(Map& ns) {
  AddToList(EnsureMap(ns, "spec"), "finalizers", "kubernetes");
}

// generateSelectorIfNeeded: the name labels join the template. The
// selector and the controller-uid labels hold the uid the server gives the
// Job at create, so they are left to it.
//
// A request that sets no labels for the Job (`requested_labels` false)
// gets its template's, and more than a copy: the Go defaulter
// (SetDefaults_Job) makes the Job's labels the template's very map, which
// generateSelector then adds to, so the Job's labels end up the template's
// whole (where the template had none, storage's defaulting copies them
// when it reads the Job back: the same). The uid labels join them too.
void Job(Map& job, bool requested_labels) {
  Map& spec = EnsureMap(job, "spec");
  const Value* manual = spec.Find("manualSelector");
  if (manual != nullptr && manual->IsBool() && manual->AsBool()) return;
  const Value* meta = job.Find("metadata");
  std::string name = meta != nullptr ? StringAt(*meta, "name") : "";
  Map& labels =
      EnsureMap(EnsureMap(EnsureMap(spec, "template"), "metadata"), "labels");
  for (const char* l : {"job-name", "batch.kubernetes.io/job-name"}) {
    if (labels.Find(l) == nullptr) labels.Set(l, Value(name));
  }
  if (!requested_labels) {
    Value shared(labels);  // (copied before `job` may move it)
    EnsureMap(job, "metadata").Set("labels", std::move(shared));
  }
}

// Whether `request` sets labels (a map with an entry).
bool HasLabels(const Value& request) {
  const Value* meta = Find(request, "metadata");
  const Value* labels = meta != nullptr ? Find(*meta, "labels") : nullptr;
  return labels != nullptr && labels->IsMap() && !labels->map().empty();
}

// The CustomResourceDefinition strategy's PrepareForCreate and
// PrepareForUpdate: the storage version joins the stored versions (at
// create, of an empty status: the field manager's reset fields keep the
// request's out; at an update, of the live status).
void CustomResourceDefinition(Map& crd) {
  Map& status = EnsureMap(crd, "status");
  const Value* spec = crd.Find("spec");
  const Value* versions = spec != nullptr ? Find(*spec, "versions") : nullptr;
  if (versions == nullptr || !versions->IsList()) return;
  for (const Value& v : versions->list()) {
    const Value* storage = Find(v, "storage");
    if (storage != nullptr && storage->IsBool() && storage->AsBool()) {
      AddToList(status, "storedVersions", StringAt(v, "name"));
      return;
    }
  }
}

// A PersistentVolumeClaim's data sources (KEP 1495), as its strategy
// settles them at create and update: a dataSourceRef that names a namespace
// goes (CrossNamespaceVolumeDataSource is off by default in 1.37) unless
// the live claim has a dataSourceRef; a dataSource that is neither a claim
// nor a VolumeSnapshot goes when neither field is set in the live claim and
// the request has no dataSourceRef; then whichever of the two is missing is
// filled from the other (a namespaced dataSourceRef fills nothing).
void PersistentVolumeClaimDataSources(Value& pvc, const Value* live) {
  const Value* spec = Find(pvc, "spec");
  if (spec == nullptr || !spec->IsMap()) return;
  const Value* live_spec = live != nullptr ? Find(*live, "spec") : nullptr;
  auto set = [](const Value* in, absl::string_view f) {
    const Value* v = in != nullptr ? Find(*in, f) : nullptr;
    return v != nullptr && !v->IsNull();
  };
  const Value* ref = Find(*spec, "dataSourceRef");
  const bool ref_namespaced =
      set(spec, "dataSourceRef") && !StringAt(*ref, "namespace").empty();
  const bool drop_ref = ref_namespaced && !set(live_spec, "dataSourceRef");
  const bool has_ref = set(spec, "dataSourceRef") && !drop_ref;
  bool has_source = set(spec, "dataSource");
  bool drop_source = false;
  if (has_source && !has_ref && !set(live_spec, "dataSource") &&
      !set(live_spec, "dataSourceRef")) {
    const Value& source = *Find(*spec, "dataSource");
    const std::string kind = StringAt(source, "kind");
    const std::string group = StringAt(source, "apiGroup");
    drop_source = !(kind == "PersistentVolumeClaim" && group.empty()) &&
                  !(kind == "VolumeSnapshot" &&
                    group == "snapshot.storage.k8s.io");
    has_source = !drop_source;
  }
  // The reference the missing field gets: the other's API group, kind and
  // name. (Both types write their apiGroup, a pointer, without omitempty:
  // null where it is not set.)
  auto reference = [](const Value& from) {
    Map m;
    const Value* g = Find(from, "apiGroup");
    m.Set("apiGroup", g != nullptr ? *g : Value());
    m.Set("kind", Value(StringAt(from, "kind")));
    m.Set("name", Value(StringAt(from, "name")));
    return Value(std::move(m));
  };
  std::optional<Value> new_ref, new_source;
  if (has_source && !has_ref) {
    new_ref = reference(*Find(*spec, "dataSource"));
  } else if (has_ref && !has_source && !ref_namespaced) {
    new_source = reference(*Find(*spec, "dataSourceRef"));
  }
  if (!drop_ref && !drop_source && !new_ref && !new_source) return;
  Map& s = EnsureMap(pvc.map(), "spec");
  if (drop_ref) s.Erase("dataSourceRef");
  if (drop_source) s.Erase("dataSource");
  if (new_ref) s.Set("dataSourceRef", std::move(*new_ref));
  if (new_source) s.Set("dataSource", std::move(*new_source));
}

// The TaintNodesByCondition admission plugin: a created Node is not ready
// (NoSchedule) until the node controller says otherwise.
void NotReadyTaint(Map& node) {
  const Value* spec = node.Find("spec");
  const Value* taints = spec != nullptr ? Find(*spec, "taints") : nullptr;
  if (taints != nullptr && taints->IsList()) {
    for (const Value& t : taints->list()) {
      if (StringAt(t, "key") == "node.kubernetes.io/not-ready" &&
          StringAt(t, "effect") == "NoSchedule") {
        return;
      }
    }
  }
  Map& s = EnsureMap(node, "spec");
  Value* list = s.Find("taints");
  if (list == nullptr || !list->IsList()) {
    s.Set("taints", Value::MakeList());
    list = s.Find("taints");
  }
  Map taint;
  taint.Set("key", Value("node.kubernetes.io/not-ready"));
  taint.Set("effect", Value("NoSchedule"));
  list->list().push_back(Value(std::move(taint)));
}

// The StorageObjectInUseProtection admission plugin.
void ProtectionFinalizer(Map& obj, const char* finalizer) {
  AddToList(EnsureMap(obj, "metadata"), "finalizers", finalizer);
}

// What a strategy counts in metadata.generation: from 1 at create (but
// kSpecNotAtCreate), one more at each update that changes
// (apiequality.Semantic.DeepEqual) ...
enum class Generation {
  kNone,            // (no generation: BeforeUpdate keeps the live one)
  kCreateOnly,      // nothing (PriorityClass)
  kSpecNotAtCreate, // the spec, from 0 (CSIDriver: no PrepareForCreate)
  kSpec,            // the spec (most kinds)
  kWebhooks,        // the webhooks (webhook configurations)
  kTemplate,        // the template (PodTemplate)
  kSpecAnnotations, // the spec or the annotations (Deployment)
  kDaemonSet,       // the spec; the template also counts templateGeneration
  kAllButMetadata,  // anything but the metadata, or the labels (EndpointSlice)
};

Generation GenerationOf(absl::string_view api_version, absl::string_view kind) {
  static const struct {
    const char* api_version;
    const char* kind;
    Generation rule;
  } kRules[] = {
      {"admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration",
       Generation::kWebhooks},
      {"admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration",
       Generation::kWebhooks},
      {"admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy",
       Generation::kSpec},
      {"admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicyBinding",
       Generation::kSpec},
      {"admissionregistration.k8s.io/v1", "MutatingAdmissionPolicy",
       Generation::kSpec},
      {"admissionregistration.k8s.io/v1", "MutatingAdmissionPolicyBinding",
       Generation::kSpec},
      {"apps/v1", "DaemonSet", Generation::kDaemonSet},
      {"apps/v1", "Deployment", Generation::kSpecAnnotations},
      {"apps/v1", "ReplicaSet", Generation::kSpec},
      {"apps/v1", "StatefulSet", Generation::kSpec},
      // HPAGeneration: beta, on by default in 1.37.
      {"autoscaling/v1", "HorizontalPodAutoscaler", Generation::kSpec},
      {"autoscaling/v2", "HorizontalPodAutoscaler", Generation::kSpec},
      {"batch/v1", "CronJob", Generation::kSpec},
      {"batch/v1", "Job", Generation::kSpec},
      {"v1", "Pod", Generation::kSpec},
      {"v1", "PodTemplate", Generation::kTemplate},
      {"v1", "ReplicationController", Generation::kSpec},
      {"discovery.k8s.io/v1", "EndpointSlice", Generation::kAllButMetadata},
      {"flowcontrol.apiserver.k8s.io/v1", "FlowSchema", Generation::kSpec},
      {"flowcontrol.apiserver.k8s.io/v1", "PriorityLevelConfiguration",
       Generation::kSpec},
      {"networking.k8s.io/v1", "Ingress", Generation::kSpec},
      {"networking.k8s.io/v1", "IngressClass", Generation::kSpec},
      {"networking.k8s.io/v1", "NetworkPolicy", Generation::kSpec},
      {"policy/v1", "PodDisruptionBudget", Generation::kSpec},
      {"resource.k8s.io/v1", "DeviceClass", Generation::kSpec},
      {"resource.k8s.io/v1", "DeviceTaintRule", Generation::kSpec},
      {"resource.k8s.io/v1", "ResourceSlice", Generation::kSpec},
      {"scheduling.k8s.io/v1", "PriorityClass", Generation::kCreateOnly},
      {"apiextensions.k8s.io/v1", "CustomResourceDefinition",
       Generation::kSpec},
      {"storage.k8s.io/v1", "CSIDriver", Generation::kSpecNotAtCreate},
  };
  for (const auto& r : kRules) {
    if (api_version == r.api_version && kind == r.kind) return r.rule;
  }
  return Generation::kNone;
}

// A nil Go slice or pointer, in any of its forms: absent, null, or (a
// slice) empty.
bool NilLike(const Value* v) {
  return v == nullptr || v->IsNull() || (v->IsList() && v->list().empty());
}

// apiequality.Semantic.DeepEqual on the values of two decoded objects: as
// Equals, but a nil slice equals an empty one (and an absent field, its
// zero value). The strategies that use reflect.DeepEqual instead
// (ReflectComparedField) see the same differences, and one more, which
// the caller finds in the request: an empty slice or map the request
// decoded to, where the live object read back from storage has nil.
bool SemanticEqual(const Value* a, const Value* b) {
  if (NilLike(a) && NilLike(b)) return true;
  if (a == nullptr || b == nullptr) return false;
  if (SameNode(*a, *b)) return true;
  if (a->IsMap() && b->IsMap()) {
    const Map& am = a->map();
    const Map& bm = b->map();
    // Mostly the same keys in the same order: compared side by side.
    size_t i = 0;
    for (; i < am.size() && i < bm.size(); ++i) {
      const MapEntry& x = am.entries()[i];
      const MapEntry& y = bm.entries()[i];
      if (x.key != y.key) break;
      if (!SemanticEqual(&x.value, &y.value)) return false;
    }
    if (i == am.size() && i == bm.size()) return true;
    for (const MapEntry& e : am) {
      if (!SemanticEqual(&e.value, bm.Find(e.key))) return false;
    }
    for (const MapEntry& e : bm) {
      if (am.Find(e.key) == nullptr && !NilLike(&e.value)) return false;
    }
    return true;
  }
  if (a->IsList() && b->IsList()) {
    if (a->list().size() != b->list().size()) return false;
    for (size_t i = 0; i < a->list().size(); ++i) {
      if (!SemanticEqual(&a->list()[i], &b->list()[i])) return false;
    }
    return true;
  }
  return Equals(*a, *b);
}

// The ServiceAccount strategy's cleanSecretReferences: each secret
// reference keeps its name alone.
void ServiceAccountSecrets(Value& sa) {
  const Value* secrets = Find(sa, "secrets");
  if (secrets == nullptr || !secrets->IsList()) return;
  bool extra = false;
  for (const Value& r : secrets->list()) {
    extra = extra || !r.IsMap() || r.map().size() > (r.map().Find("name") ? 1 : 0);
  }
  if (!extra) return;
  for (Value& r : sa.map().Find("secrets")->list()) {
    const std::string name = r.IsMap() ? StringAt(r, "name") : "";
    Map m;
    if (!name.empty()) m.Set("name", Value(name));
    r = Value(std::move(m));
  }
}

// Whether `name` is a DNS-1123 subdomain (ValidateNodeName): at most 253
// characters, dot-separated labels of lowercase alphanumerics and inner
// dashes (IsDNS1123Subdomain limits no label's length).
bool IsDnsSubdomain(const std::string& name) {
  if (name.empty() || name.size() > 253) return false;
  for (absl::string_view label : absl::StrSplit(name, '.')) {
    if (label.empty()) return false;
    for (size_t i = 0; i < label.size(); ++i) {
      const char c = label[i];
      const bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
      if (!alnum && (c != '-' || i == 0 || i + 1 == label.size())) return false;
    }
  }
  return true;
}

// The EndpointSlice strategy's dropTopologyOnV1: a v1 write (every write
// now) drops the endpoints' deprecatedTopology, at create and where the
// endpoints changed; an endpoint without a nodeName takes the hostname
// its topology named, where the live slice's topology named it too.
void EndpointSliceTopology(Value& slice, const Value* live) {
  const Value* endpoints = Find(slice, "endpoints");
  if (endpoints == nullptr || !endpoints->IsList()) return;
  if (live != nullptr && SemanticEqual(endpoints, Find(*live, "endpoints")))
    return;
  constexpr absl::string_view kHostname = "kubernetes.io/hostname";
  std::vector<std::string> before;
  if (const Value* le = live != nullptr ? Find(*live, "endpoints") : nullptr;
      le != nullptr && le->IsList()) {
    for (const Value& ep : le->list()) {
      const Value* topology = Find(ep, "deprecatedTopology");
      std::string host =
          topology != nullptr ? StringAt(*topology, kHostname) : "";
      if (!host.empty()) before.push_back(std::move(host));
    }
  }
  bool any = false;
  for (const Value& ep : endpoints->list())
    any = any || Find(ep, "deprecatedTopology") != nullptr;
  if (!any) return;
  for (Value& ep : slice.map().Find("endpoints")->list()) {
    if (!ep.IsMap() || ep.map().Find("deprecatedTopology") == nullptr)
      continue;
    const Value* topology = ep.map().Find("deprecatedTopology");
    const Value* node = ep.map().Find("nodeName");
    const Value* host = topology->IsMap() ? topology->map().Find(kHostname)
                                          : nullptr;
    if ((node == nullptr || node->IsNull()) && host != nullptr &&
        host->IsString() &&
        std::find(before.begin(), before.end(), host->AsString()) !=
            before.end() &&
        IsDnsSubdomain(host->AsString())) {
      const Value name = *host;
      ep.map().Set("nodeName", name);
    }
    ep.map().Erase("deprecatedTopology");
  }
}

// The PodDisruptionBudget strategy's dropDisabledFields: the label that
// policy/v1beta1 selectors used to match all or none leaves any other
// selector, at create and where the selector changed.
void PodDisruptionBudgetSelector(Value& pdb, const Value* live) {
  constexpr absl::string_view kLabel =
      "pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match";
  const Value* spec = Find(pdb, "spec");
  const Value* selector = spec != nullptr ? Find(*spec, "selector") : nullptr;
  if (selector == nullptr || !selector->IsMap()) return;
  const Value* live_spec = live != nullptr ? Find(*live, "spec") : nullptr;
  if (live != nullptr &&
      SemanticEqual(selector,
                    live_spec != nullptr ? Find(*live_spec, "selector")
                                         : nullptr)) {
    return;
  }
  const Value* exprs = Find(*selector, "matchExpressions");
  if (exprs == nullptr || !exprs->IsList()) return;
  // The two selectors that stay as they are: {} (matches all) and one
  // requirement, the label Exists (matches none).
  const Value* labels = Find(*selector, "matchLabels");
  const bool no_labels = labels == nullptr || labels->IsNull() ||
                         (labels->IsMap() && labels->map().empty());
  if (no_labels && exprs->list().size() == 1) {
    const Value& e = exprs->list()[0];
    const Value* values = Find(e, "values");
    if (StringAt(e, "key") == kLabel && StringAt(e, "operator") == "Exists" &&
        NilLike(values)) {
      return;
    }
  }
  bool any = false;
  for (const Value& e : exprs->list()) any = any || StringAt(e, "key") == kLabel;
  if (!any) return;
  Map& sel = EnsureMap(EnsureMap(pdb.map(), "spec"), "selector");
  List kept;
  for (const Value& e : sel.Find("matchExpressions")->list()) {
    if (StringAt(e, "key") != kLabel) kept.push_back(e);
  }
  if (kept.empty()) {
    sel.Erase("matchExpressions");
  } else {
    sel.Set("matchExpressions", Value(std::move(kept)));
  }
}

// The PersistentVolume status strategy: a write that keeps the phase and
// sets no transition time keeps the live one; one that changes the phase
// and sets no time, or the live one, gets the clock's.
void PersistentVolumePhaseTime(Value& pv, const Value& live,
                               const std::optional<absl::Time>& now) {
  const Value* status = Find(pv, "status");
  const Value* live_status = Find(live, "status");
  const Value empty;
  const Value& st = status != nullptr ? *status : empty;
  const Value& lst = live_status != nullptr ? *live_status : empty;
  const Value* time = Find(st, "lastPhaseTransitionTime");
  const Value* live_time = Find(lst, "lastPhaseTransitionTime");
  const bool unset = time == nullptr || time->IsNull();
  const bool live_unset = live_time == nullptr || live_time->IsNull();
  if (StringAt(st, "phase") == StringAt(lst, "phase")) {
    if (unset && !live_unset) {
      EnsureMap(pv.map(), "status")
          .Set("lastPhaseTransitionTime", *live_time);
    }
  } else if (now.has_value() &&
             (unset || (!live_unset && Equals(*time, *live_time)))) {
    EnsureMap(pv.map(), "status")
        .Set("lastPhaseTransitionTime", Value(FormatGoTime(*now)));
  }
}

// The ResourceClaim status strategy's dropDeallocatedStatusDevices: the
// status of a device the live claim had allocated and the written claim
// no longer has (by driver, pool, device and share ID) goes.
void ResourceClaimDeallocatedDevices(Value& claim, const Value& live) {
  auto results = [](const Value& c) {
    std::vector<std::string> ids;
    const Value* st = Find(c, "status");
    const Value* alloc = st != nullptr ? Find(*st, "allocation") : nullptr;
    const Value* devices = alloc != nullptr ? Find(*alloc, "devices") : nullptr;
    const Value* rs = devices != nullptr ? Find(*devices, "results") : nullptr;
    if (rs != nullptr && rs->IsList()) {
      for (const Value& r : rs->list()) {
        ids.push_back(absl::StrCat(StringAt(r, "driver"), "/",
                                   StringAt(r, "pool"), "/",
                                   StringAt(r, "device"), "/",
                                   StringAt(r, "shareID")));
      }
    }
    return ids;
  };
  std::vector<std::string> gone = results(live);
  if (gone.empty()) return;
  for (const std::string& id : results(claim)) {
    gone.erase(std::remove(gone.begin(), gone.end(), id), gone.end());
  }
  const Value* st = Find(claim, "status");
  const Value* devices = st != nullptr ? Find(*st, "devices") : nullptr;
  if (gone.empty() || devices == nullptr || !devices->IsList()) return;
  List kept;
  for (const Value& d : devices->list()) {
    const std::string id = absl::StrCat(
        StringAt(d, "driver"), "/", StringAt(d, "pool"), "/",
        StringAt(d, "device"), "/", StringAt(d, "shareID"));
    if (std::find(gone.begin(), gone.end(), id) == gone.end())
      kept.push_back(d);
  }
  if (kept.size() == devices->list().size()) return;
  Map& status = EnsureMap(claim.map(), "status");
  if (kept.empty()) {
    status.Erase("devices");
  } else {
    status.Set("devices", Value(std::move(kept)));
  }
}

// The CSR status strategy's preserveConditionInstances: where a write
// keeps the number of conditions of `type`, they are the live ones (in
// order); a write that adds or removes one is left to validation.
void PreserveConditionInstances(Value& csr, const Value& live,
                                absl::string_view type) {
  auto conditions = [](const Value& v) -> const Value* {
    const Value* st = Find(v, "status");
    const Value* c = st != nullptr ? Find(*st, "conditions") : nullptr;
    return c != nullptr && c->IsList() ? c : nullptr;
  };
  auto indices = [&](const Value* list) {
    std::vector<size_t> out;
    for (size_t i = 0; list != nullptr && i < list->list().size(); ++i) {
      if (StringAt(list->list()[i], "type") == type) out.push_back(i);
    }
    return out;
  };
  const Value* old_list = conditions(live);
  const Value* new_list = conditions(csr);
  const std::vector<size_t> olds = indices(old_list);
  const std::vector<size_t> news = indices(new_list);
  if (olds.size() != news.size() || olds.empty()) return;
  bool same = true;
  for (size_t i = 0; i < olds.size(); ++i) {
    same = same && Equals(new_list->list()[news[i]], old_list->list()[olds[i]]);
  }
  if (same) return;
  const Value kept = *old_list;  // (a copy: the write below may share it)
  List& out = EnsureMap(csr.map(), "status").Find("conditions")->list();
  for (size_t i = 0; i < olds.size(); ++i) out[news[i]] = kept.list()[olds[i]];
}

// The CSR strategies' populateConditionTimestamps: a condition without a
// lastUpdateTime gets the clock's; one without a lastTransitionTime gets
// that of the first live condition of its type and status that has one,
// else the clock's.
void PopulateConditionTimestamps(Value& csr, const Value& live,
                                 const std::optional<absl::Time>& now) {
  if (!now.has_value()) return;
  const Value* st = Find(csr, "status");
  const Value* list = st != nullptr ? Find(*st, "conditions") : nullptr;
  if (list == nullptr || !list->IsList() || list->list().empty()) return;
  auto unset = [](const Value* t) { return t == nullptr || t->IsNull(); };
  const Value* live_st = Find(live, "status");
  const Value* live_list =
      live_st != nullptr ? Find(*live_st, "conditions") : nullptr;
  const Value stamp(FormatGoTime(*now));
  std::vector<std::pair<size_t, std::pair<Value, Value>>> writes;
  for (size_t i = 0; i < list->list().size(); ++i) {
    const Value& c = list->list()[i];
    const bool update_unset = unset(Find(c, "lastUpdateTime"));
    const bool transition_unset = unset(Find(c, "lastTransitionTime"));
    if (!update_unset && !transition_unset) continue;
    Value transition;
    if (transition_unset) {
      transition = stamp;
      if (live_list != nullptr && live_list->IsList()) {
        for (const Value& old : live_list->list()) {
          const Value* t = Find(old, "lastTransitionTime");
          if (StringAt(old, "type") == StringAt(c, "type") &&
              StringAt(old, "status") == StringAt(c, "status") && !unset(t)) {
            transition = *t;
            break;
          }
        }
      }
    }
    writes.push_back({i, {update_unset ? stamp : Value(), transition}});
  }
  if (writes.empty()) return;
  List& out = EnsureMap(csr.map(), "status").Find("conditions")->list();
  for (auto& [i, times] : writes) {
    if (!out[i].IsMap()) continue;
    if (!times.first.IsNull())
      out[i].map().Set("lastUpdateTime", std::move(times.first));
    if (!times.second.IsNull())
      out[i].map().Set("lastTransitionTime", std::move(times.second));
  }
}

// A path of field names to a runtime.RawExtension field ("[]": each item
// of a list).
using RawPath = std::vector<absl::string_view>;

// The RawExtension fields of a kind's spec, whose strategy counts the
// generation with apiequality.Semantic.DeepEqual: that compares their raw
// JSON bytes, where a null is a value (the converter keeps it). Paths from
// the spec.
const std::vector<RawPath>& RawFieldsOfSpec(absl::string_view api_version,
                                            absl::string_view kind) {
  static const std::vector<RawPath> none;
  static const std::vector<RawPath> device_class = {
      {"config", "[]", "opaque", "parameters"}};
  if (api_version == "resource.k8s.io/v1" && kind == "DeviceClass")
    return device_class;
  return none;
}

// Whether the RawExtension fields at `path` (from `i` on) of `a` and `b`,
// which are semantically equal, differ as their raw JSON: a null there is
// a value (at the field itself a null is nil, as its decoder reads one).
bool RawFieldsDiffer(const Value* a, const Value* b, const RawPath& path,
                     size_t i) {
  if (NilLike(a) && NilLike(b)) return false;
  if (a == nullptr || b == nullptr) return true;
  if (i == path.size()) return !Equals(*a, *b);
  if (path[i] != "[]") {
    return RawFieldsDiffer(Find(*a, path[i]), Find(*b, path[i]), path, i + 1);
  }
  if (!a->IsList() || !b->IsList()) return false;
  // (Semantically equal lists: of one length.)
  for (size_t k = 0; k < a->list().size() && k < b->list().size(); ++k) {
    if (RawFieldsDiffer(&a->list()[k], &b->list()[k], path, i + 1))
      return true;
  }
  return false;
}

// Whether `a` and `b` differ under `key`, semantically.
bool DiffersAt(const Value& a, const Value& b, absl::string_view key) {
  return !SemanticEqual(Find(a, key), Find(b, key));
}

// Whether the specs of `a` and `b`, objects of a kind, differ semantically,
// the RawExtension fields compared as their raw JSON and a CRD's JSON
// values with their Go types (crd.h).
bool SpecDiffers(absl::string_view api_version, absl::string_view kind,
                 const Value& a, const Value& b) {
  if (DiffersAt(a, b, "spec")) return true;
  for (const RawPath& p : RawFieldsOfSpec(api_version, kind)) {
    if (RawFieldsDiffer(Find(a, "spec"), Find(b, "spec"), p, 0)) return true;
  }
  return IsCrd(api_version, kind) &&
         CrdJsonValuesDiffer(Find(a, "spec"), Find(b, "spec"));
}

// Whether the top-level fields of `a` and `b` but `skipped` differ, each
// looked at once: semantically (DiffersAt), or as they are (an absent field
// is not an empty one).
bool ContentDiffers(const Value& a, const Value& b, bool semantic,
                    std::initializer_list<absl::string_view> skipped) {
  if (!a.IsMap() || !b.IsMap()) return !Equals(a, b);
  auto skip = [&](absl::string_view k) {
    return std::find(skipped.begin(), skipped.end(), k) != skipped.end();
  };
  for (const MapEntry& e : a.map()) {
    if (skip(e.key)) continue;
    const Value* other = b.map().Find(e.key);
    if (semantic ? !SemanticEqual(&e.value, other)
                 : other == nullptr || !Equals(e.value, *other)) {
      return true;
    }
  }
  for (const MapEntry& e : b.map()) {
    if (skip(e.key) || a.map().Find(e.key) != nullptr) continue;
    if (!semantic || !NilLike(&e.value)) return true;
  }
  return false;
}

int64_t IntAt(const Value& m, absl::string_view key) {
  const Value* v = Find(m, key);
  return v != nullptr && v->IsInt() ? v->AsInt() : 0;
}

// An autoscaling/v1 HorizontalPodAutoscaler holds parts of its internal
// spec and status in round-trip annotations (defaulters.h), which follow
// their halves through the strategies.
constexpr const char* kHpaSpecAnnotations[] = {kHpaMetricsAnnotation,
                                               kHpaBehaviorAnnotation};
constexpr const char* kHpaStatusAnnotations[] = {kHpaCurrentMetricsAnnotation,
                                                 kHpaConditionsAnnotation};

bool IsHpaV1(absl::string_view api_version, absl::string_view kind) {
  return api_version == "autoscaling/v1" && kind == "HorizontalPodAutoscaler";
}

const Value* AnnotationOf(const Value& object, const char* key) {
  const Value* meta = Find(object, "metadata");
  const Value* a = meta != nullptr ? Find(*meta, "annotations") : nullptr;
  return a != nullptr ? Find(*a, key) : nullptr;
}

// `keys` of the annotations as `from` has them (none: `object` loses
// them), written only where they differ.
void AnnotationsOf(Value& object, const Value* from,
                   absl::Span<const char* const> keys) {
  for (const char* key : keys) {
    const Value* want = from != nullptr ? AnnotationOf(*from, key) : nullptr;
    const Value* have = AnnotationOf(object, key);
    if (want == nullptr && have == nullptr) continue;
    if (want != nullptr && have != nullptr && Equals(*want, *have)) continue;
    const Value kept = want != nullptr ? *want : Value();
    Map& meta = EnsureMap(object.map(), "metadata");
    if (kept.IsNull()) {
      if (Value* a = meta.Find("annotations"); a != nullptr && a->IsMap()) {
        a->map().Erase(key);
        if (a->map().empty()) meta.Erase("annotations");
      }
    } else {
      EnsureMap(meta, "annotations").Set(key, kept);
    }
  }
}

bool AnnotationsDiffer(const Value& a, const Value& b,
                       absl::Span<const char* const> keys) {
  for (const char* key : keys) {
    const Value* x = AnnotationOf(a, key);
    const Value* y = AnnotationOf(b, key);
    if ((x == nullptr) != (y == nullptr) || (x != nullptr && !Equals(*x, *y)))
      return true;
  }
  return false;
}

// The Priority admission plugin on a pod's update: the priority it set at
// create (and the preemption policy) stay when the update leaves them out.
void PodPriorityKept(Value& pod, const Value& live) {
  const Value* live_spec = Find(live, "spec");
  if (live_spec == nullptr) return;
  for (const char* f : {"priority", "preemptionPolicy"}) {
    const Value* kept = Find(*live_spec, f);
    if (kept == nullptr || kept->IsNull()) continue;
    const Value* spec = Find(pod, "spec");
    const Value* now = spec != nullptr ? Find(*spec, f) : nullptr;
    if (now == nullptr || now->IsNull()) {
      EnsureMap(pod.map(), "spec").Set(f, *kept);
    }
  }
}

// Sets `object`'s metadata.generation (none for 0, the encoding's
// omitempty), writing only where it differs: a write unshares the object's
// nodes.
void SetGeneration(Value& object, int64_t generation) {
  const Value* meta = Find(object, "metadata");
  const Value* now = meta != nullptr ? Find(*meta, "generation") : nullptr;
  if (generation != 0 &&
      (now == nullptr || !now->IsInt() || now->AsInt() != generation)) {
    EnsureMap(object.map(), "metadata").Set("generation", Value(generation));
  } else if (generation == 0 && now != nullptr) {
    EnsureMap(object.map(), "metadata").Erase("generation");
  }
}

// BeforeUpdate's rules for the metadata the server sets (the generic
// registry's rest.BeforeUpdate, and Store.Update before it), on `object`
// updating an object whose metadata is `live_meta`: the live uid when the
// request sends none; the live creationTimestamp and deletionTimestamp
// whatever it sends, when the live object has them; the live
// deletionGracePeriodSeconds when it sends none; and the live
// resourceVersion when it sends none (an unconditional update, which
// storage leaves as it is when nothing changed). Writes only where the
// value differs: a write unshares the object's nodes.
void KeepServerMetadata(Value& object, const Value& live_meta) {
  if (!live_meta.IsMap()) return;
  const Value* meta = Find(object, "metadata");
  auto sent = [&](absl::string_view f) -> const Value* {
    const Value* v = meta != nullptr ? Find(*meta, f) : nullptr;
    return v != nullptr && !v->IsNull() ? v : nullptr;
  };
  auto keep = [&](absl::string_view f, bool whatever_sent) {
    const Value* live = Find(live_meta, f);
    if (live == nullptr || live->IsNull()) return;
    const Value* now = sent(f);
    const bool empty_string = now != nullptr && now->IsString() &&
                              now->AsString().empty();
    if (now != nullptr && !empty_string &&
        (!whatever_sent || Equals(*now, *live))) {
      return;
    }
    EnsureMap(object.map(), "metadata").Set(f, *live);
    meta = Find(object, "metadata");
  };
  keep("uid", /*whatever_sent=*/false);
  keep("resourceVersion", /*whatever_sent=*/false);
  keep("creationTimestamp", /*whatever_sent=*/true);
  keep("deletionTimestamp", /*whatever_sent=*/true);
  keep("deletionGracePeriodSeconds", /*whatever_sent=*/false);
}

constexpr absl::string_view kTemplateGeneration =
    "deprecated.daemonset.template.generation";

}  // namespace

absl::string_view ReflectComparedField(absl::string_view api_version,
                                       absl::string_view kind) {
  if (api_version == "admissionregistration.k8s.io/v1" &&
      (kind == "ValidatingWebhookConfiguration" ||
       kind == "MutatingWebhookConfiguration")) {
    return "webhooks";
  }
  if (api_version == "networking.k8s.io/v1" && kind == "NetworkPolicy")
    return "spec";
  return "";
}

std::string FormatGoTime(absl::Time t) {
  return absl::FormatTime("%Y-%m-%d%ET%H:%M:%SZ",
                          absl::FromUnixSeconds(absl::ToUnixSeconds(t)),
                          absl::UTCTimeZone());
}

// The DeviceTaintRule strategy: a taint whose effect changes while the
// request keeps its timeAdded (metav1.Time.Equal: both nil, or the same
// time) gets the server's clock, so that the time tells when the effect
// was added.
void DeviceTaintRuleTimeAdded(Value& rule, const Value& live,
                              const std::optional<absl::Time>& now) {
  if (!now.has_value()) return;
  const Value empty;
  auto taint = [&](const Value& v) -> const Value& {
    const Value* spec = Find(v, "spec");
    const Value* t = spec != nullptr ? Find(*spec, "taint") : nullptr;
    return t != nullptr ? *t : empty;
  };
  const Value& now_taint = taint(rule);
  const Value& old_taint = taint(live);
  if (StringAt(now_taint, "effect") == StringAt(old_taint, "effect")) return;
  const Value* a = Find(now_taint, "timeAdded");
  const Value* b = Find(old_taint, "timeAdded");
  const bool a_nil = a == nullptr || a->IsNull();
  const bool b_nil = b == nullptr || b->IsNull();
  if (a_nil != b_nil || (!a_nil && !Equals(*a, *b))) return;
  EnsureMap(EnsureMap(rule.map(), "spec"), "taint")
      .Set("timeAdded", Value(FormatGoTime(*now)));
}

Value PrepareForUpdate(absl::string_view api_version, absl::string_view kind,
                       Value object, const Value& live, bool status_write,
                       bool empties_differ,
                       const std::optional<absl::Time>& now,
                       absl::string_view subresource) {
  const bool approval_write = subresource == "approval";
  if (!object.IsMap()) return object;
  if (api_version == "v1" && kind == "Pod") {
    if (subresource == "resize") {
      PodResizeAtUpdate(object, live);
    } else if (subresource == "ephemeralcontainers") {
      PodEphemeralContainersAtUpdate(object, live);
    } else if (status_write) {
      PodStatusAtUpdate(object, live);
    } else {
      PodAtUpdate(object, live);
      PodPriorityKept(object, live);
    }
  }
  // The strategies drop disabled fields before they count the generation;
  // the ResourceSlice's after.
  const bool drops_after_counting =
      (api_version == "resource.k8s.io/v1" && kind == "ResourceSlice") ||
      (api_version == "policy/v1" && kind == "PodDisruptionBudget") ||
      (api_version == "discovery.k8s.io/v1" && kind == "EndpointSlice");
  if (!drops_after_counting)
    DropDisabledFields(api_version, kind, object, &live);
  if (api_version == "v1" && kind == "PersistentVolumeClaim" && !status_write)
    PersistentVolumeClaimDataSources(object, &live);
  if (api_version == "v1" && kind == "Service") {
    if (!status_write) ServiceAtUpdate(object, live);
    ServiceAsRead(object);
  }
  if (api_version == "v1" && kind == "ServiceAccount")
    ServiceAccountSecrets(object);
  if (IsHpaV1(api_version, kind)) {
    // The main resource keeps the live status, the status subresource the
    // live spec.
    if (status_write) {
      AnnotationsOf(object, &live, kHpaSpecAnnotations);
    } else {
      AnnotationsOf(object, &live, kHpaStatusAnnotations);
    }
  }
  if (api_version == "certificates.k8s.io/v1" &&
      kind == "CertificateSigningRequest" && (status_write || approval_write)) {
    if (status_write) {
      PreserveConditionInstances(object, live, "Approved");
      PreserveConditionInstances(object, live, "Denied");
    }
    PopulateConditionTimestamps(object, live, now);
  }
  if (api_version == "resource.k8s.io/v1" && kind == "ResourceClaim" &&
      status_write) {
    ResourceClaimDeallocatedDevices(object, live);
  }
  if (api_version == "v1" && kind == "PersistentVolume" && status_write)
    PersistentVolumePhaseTime(object, live, now);
  if (api_version == "resource.k8s.io/v1" && kind == "DeviceTaintRule" &&
      !status_write) {
    DeviceTaintRuleTimeAdded(object, live, now);
  }
  if (IsCrd(api_version, kind) && !status_write) {
    CustomResourceDefinition(object.map());
  }
  const Generation rule = GenerationOf(api_version, kind);
  const Value* live_meta = Find(live, "metadata");
  const Value empty;
  const Value& lm = live_meta != nullptr ? *live_meta : empty;
  const Value* meta = Find(object, "metadata");
  const Value& om = meta != nullptr ? *meta : empty;
  bool changed = false;
  switch (rule) {
    case Generation::kNone:
    case Generation::kCreateOnly:
      break;
    case Generation::kSpec:
    case Generation::kSpecNotAtCreate:
      changed = SpecDiffers(api_version, kind, object, live) ||
                (IsHpaV1(api_version, kind) &&
                 AnnotationsDiffer(object, live, kHpaSpecAnnotations));
      break;
    case Generation::kWebhooks:
      changed = DiffersAt(object, live, "webhooks");
      break;
    case Generation::kTemplate:
      changed = DiffersAt(object, live, "template");
      break;
    case Generation::kSpecAnnotations:
      changed = DiffersAt(object, live, "spec") ||
                DiffersAt(om, lm, "annotations");
      break;
    case Generation::kDaemonSet: {
      const Value* spec = Find(object, "spec");
      const Value* live_spec = Find(live, "spec");
      const bool template_changed =
          DiffersAt(spec != nullptr ? *spec : empty,
                    live_spec != nullptr ? *live_spec : empty, "template");
      changed = template_changed || DiffersAt(object, live, "spec");
      // The annotation is the template generation, which only the
      // strategy sets (the apps/v1 conversion writes it).
      const Value* ann = Find(lm, "annotations");
      const std::string live_tg =
          ann != nullptr ? StringAt(*ann, kTemplateGeneration) : "";
      int64_t tg = std::strtoll(live_tg.c_str(), nullptr, 10);
      if (tg < 1) tg = 1;
      if (template_changed) ++tg;
      EnsureMap(EnsureMap(object.map(), "metadata"), "annotations")
          .Set(kTemplateGeneration, Value(std::to_string(tg)));
      break;
    }
    case Generation::kAllButMetadata:
      changed = ContentDiffers(object, live, /*semantic=*/true,
                               {"metadata", "apiVersion", "kind"}) ||
                DiffersAt(om, lm, "labels");
      break;
  }
  changed = changed || (empties_differ && rule != Generation::kNone &&
                        rule != Generation::kCreateOnly);
  // No status strategy counts one: a status write that changes what its
  // strategy keeps from the request (a Deployment's annotations) counts
  // nothing.
  if (status_write) changed = false;
  // BeforeUpdate: the live generation, whatever the request sent.
  SetGeneration(object, IntAt(lm, "generation") + (changed ? 1 : 0));
  KeepServerMetadata(object, lm);
  // Counted with the request's numbers; stored as storage reads them.
  if (IsCrd(api_version, kind)) StoreCrdSpecNumbers(object);
  if (drops_after_counting) {
    DropDisabledFields(api_version, kind, object, &live);
    if (kind == "PodDisruptionBudget") PodDisruptionBudgetSelector(object, &live);
    if (kind == "EndpointSlice") EndpointSliceTopology(object, &live);
  }
  return object;
}

Value CustomResourceGeneration(Value object, const Value& live, bool create,
                               bool status_write) {
  if (!object.IsMap()) return object;
  const Value* live_meta = Find(live, "metadata");
  const int64_t live_generation =
      live_meta != nullptr ? IntAt(*live_meta, "generation") : 0;
  // Unstructured content compared as it is (reflect's equality on
  // interface values: an absent field is not an empty one).
  const bool changed = !create && !status_write &&
                       ContentDiffers(object, live, /*semantic=*/false,
                                      {"metadata"});
  SetGeneration(object,
                create ? 1 : live_generation + (changed ? 1 : 0));
  if (!create && live_meta != nullptr) KeepServerMetadata(object, *live_meta);
  return object;
}

std::string PodQosClass(const Value& pod) {
  const Value* spec = Find(pod, "spec");
  // With pod-level resources (PodLevelResources) that name a resource they
  // support (cpu, memory, hugepages-*), they decide
  // (PodLevelResourcesFixKubeletQOSClass; helper.IsPodLevelResourcesSet).
  if (const Value* r = spec != nullptr ? Find(*spec, "resources") : nullptr;
      r != nullptr && r->IsMap() && SetsPodLevelResources(*r)) {
    return RequirementsQos(r);
  }
  std::string qos;
  for (const char* list : {"initContainers", "containers"}) {
    const Value* cs = spec != nullptr ? Find(*spec, list) : nullptr;
    if (cs == nullptr || !cs->IsList()) continue;
    for (const Value& c : cs->list()) {
      std::string q = RequirementsQos(Find(c, "resources"));
      if (q == "Burstable") return q;
      if (qos.empty()) {
        qos = q;
      } else if (qos != q) {
        return "Burstable";
      }
    }
  }
  return qos.empty() ? "BestEffort" : qos;
}

bool StatusWriteCreates(absl::string_view api_version, absl::string_view kind,
                        bool apply) {
  if (api_version == "v1" && kind == "Service") return true;
  return apply && api_version == "admissionregistration.k8s.io/v1" &&
         kind == "ValidatingAdmissionPolicy";
}

Value PrepareForCreate(absl::string_view api_version, absl::string_view kind,
                       Value object, const Value& request,
                       const std::optional<absl::Time>& now,
                       bool status_store) {
  if (!object.IsMap()) return object;
  DropDisabledFields(api_version, kind, object, nullptr);
  if (api_version == "v1" && kind == "Pod") PodAtCreate(object, request, now);
  if (api_version == "v1" && kind == "PersistentVolumeClaim")
    PersistentVolumeClaimDataSources(object, nullptr);
  if (api_version == "v1" && kind == "Service") {
    // The status store has none of the main store's create hooks (the
    // allocations of its beginCreate); a read is the main store's, through
    // its decorator.
    if (status_store) {
      ServiceAsRead(object);
    } else {
      ServiceAtCreate(object);
    }
  }
  if (api_version == "v1" && kind == "ServiceAccount")
    ServiceAccountSecrets(object);
  // The status a create drops takes its annotations with it.
  if (IsHpaV1(api_version, kind))
    AnnotationsOf(object, nullptr, kHpaStatusAnnotations);
  if (api_version == "policy/v1" && kind == "PodDisruptionBudget")
    PodDisruptionBudgetSelector(object, nullptr);
  if (api_version == "discovery.k8s.io/v1" && kind == "EndpointSlice")
    EndpointSliceTopology(object, nullptr);
  if (api_version == "apiregistration.k8s.io/v1" && kind == "APIService") {
    // A local APIService (no service) is available from its create
    // (NewLocalAvailableAPIServiceCondition); its status was reset.
    const Value* spec = Find(object, "spec");
    const Value* service = spec != nullptr ? Find(*spec, "service") : nullptr;
    if (service == nullptr || service->IsNull()) {
      Map condition;
      condition.Set("type", Value("Available"));
      condition.Set("status", Value("True"));
      condition.Set("lastTransitionTime",
                    now.has_value() ? Value(FormatGoTime(*now)) : Value());
      condition.Set("reason", Value("Local"));
      condition.Set("message", Value("Local APIServices are always available"));
      List conditions;
      conditions.push_back(Value(std::move(condition)));
      EnsureMap(object.map(), "status")
          .Set("conditions", Value(std::move(conditions)));
    }
  }
  if (api_version == "v1" && kind == "PersistentVolume" && now.has_value()) {
    // (Its status was reset; the phase is the defaulter's, Pending.)
    EnsureMap(object.map(), "status")
        .Set("lastPhaseTransitionTime", Value(FormatGoTime(*now)));
  }
  Map& m = object.map();
  if (api_version == "v1" && kind == "Node") NotReadyTaint(m);
  if (const Generation g = GenerationOf(api_version, kind);
      g != Generation::kNone && g != Generation::kSpecNotAtCreate) {
    EnsureMap(m, "metadata").Set("generation", Value(int64_t{1}));
  }
  if (api_version == "v1") {
    if (kind == "Namespace") Namespace(m);
    if (kind == "PersistentVolumeClaim")
      ProtectionFinalizer(m, "kubernetes.io/pvc-protection");
    if (kind == "PersistentVolume")
      ProtectionFinalizer(m, "kubernetes.io/pv-protection");
  }
  if (api_version == "storage.k8s.io/v1" && kind == "VolumeAttributesClass")
    ProtectionFinalizer(m, "kubernetes.io/vac-protection");
  if (api_version == "batch/v1" && kind == "Job") Job(m, HasLabels(request));
  if (IsCrd(api_version, kind)) {
    CustomResourceDefinition(m);
    StoreCrdSpecNumbers(object);
  }
  if (api_version == "apps/v1" && kind == "DaemonSet") {
    // PrepareForCreate's template generation, as the annotation shows it.
    EnsureMap(EnsureMap(m, "metadata"), "annotations")
        .Set("deprecated.daemonset.template.generation", Value("1"));
  }
  return object;
}

}  // namespace smdx::internal
