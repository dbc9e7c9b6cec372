#include "smdx/kubetypes/internal/pod.h"

#include <functional>
#include <map>
#include <tuple>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "smdx/kubetypes/internal/defaulters.h"
#include "smdx/kubetypes/internal/quantity.h"
#include "smdx/kubetypes/internal/registry.h"

namespace smdx::internal {

namespace {

bool Set(const Value* v) { return v != nullptr && !v->IsNull(); }

bool NonEmptyList(const Value* v) {
  return v != nullptr && v->IsList() && !v->list().empty();
}

// applySchedulingGatedCondition: the status was just reset, so a pod with
// scheduling gates has no PodScheduled condition yet (UpdatePodCondition
// appends one).
void SchedulingGatedCondition(Map& pod,
                              const std::optional<absl::Time>& now) {
  const Value* spec = pod.Find("spec");
  if (spec == nullptr || !NonEmptyList(Find(*spec, "schedulingGates")))
    return;
  Map condition;
  condition.Set("type", Value("PodScheduled"));
  condition.Set("status", Value("False"));
  condition.Set("lastProbeTime", Value());
  condition.Set("lastTransitionTime",
                now.has_value() ? Value(FormatGoTime(*now)) : Value());
  condition.Set("reason", Value("SchedulingGated"));
  condition.Set("message",
                Value("Scheduling is blocked due to non-empty scheduling "
                      "gates"));
  Map& status = EnsureMap(pod, "status");
  Value* conditions = status.Find("conditions");
  if (conditions == nullptr || !conditions->IsList()) {
    status.Set("conditions", Value::MakeList());
    conditions = status.Find("conditions");
  }
  conditions->list().push_back(Value(std::move(condition)));
}

// applyLabelKeysToLabelSelector: for each key the pod's labels hold, in
// order, a requirement `key <op> [value]` joins the selector.
void ApplyLabelKeys(Map& selector, const Value* keys, const char* op,
                    const Value* labels) {
  if (!NonEmptyList(keys) || labels == nullptr || !labels->IsMap()) return;
  for (const Value& key : keys->list()) {
    if (!key.IsString()) continue;
    const Value* value = labels->map().Find(key.AsString());
    if (value == nullptr || !value->IsString()) continue;
    Map requirement;
    requirement.Set("key", key);
    requirement.Set("operator", Value(op));
    List values;
    values.push_back(*value);
    requirement.Set("values", Value(std::move(values)));
    Value* exprs = selector.Find("matchExpressions");
    if (exprs == nullptr || !exprs->IsList()) {
      selector.Set("matchExpressions", Value::MakeList());
      exprs = selector.Find("matchExpressions");
    }
    exprs->list().push_back(Value(std::move(requirement)));
  }
}

// A pod affinity term or a topology spread constraint: its label keys
// join its selector where it has one (a nil selector matches nothing).
void ApplyTermKeys(Value& term, bool mismatch_too, const Value* labels) {
  if (!term.IsMap()) return;
  const Value* match = Find(term, "matchLabelKeys");
  const Value* mismatch = mismatch_too ? Find(term, "mismatchLabelKeys")
                                       : nullptr;
  const Value* selector = Find(term, "labelSelector");
  if ((!NonEmptyList(match) && !NonEmptyList(mismatch)) || !Set(selector) ||
      !selector->IsMap()) {
    return;
  }
  // (Copies: the selector is written below.)
  const Value match_keys = match != nullptr ? *match : Value();
  const Value mismatch_keys = mismatch != nullptr ? *mismatch : Value();
  Map& s = term.map().Find("labelSelector")->map();
  ApplyLabelKeys(s, &match_keys, "In", labels);
  ApplyLabelKeys(s, &mismatch_keys, "NotIn", labels);
}

// fn(item) for each item of the list `parent` holds under `list`.
void EachItem(Map& parent, const char* list,
              const std::function<void(Value&)>& fn) {
  Value* l = parent.Find(list);
  if (l == nullptr || !l->IsList()) return;
  for (Value& item : l->list()) fn(item);
}

// mutatePodAffinity and mutateTopologySpreadConstraints.
void LabelKeys(Map& pod) {
  const Value* meta = pod.Find("metadata");
  const Value labels =
      meta != nullptr && Find(*meta, "labels") != nullptr
          ? *Find(*meta, "labels")
          : Value();
  // Only what holds label keys is written (a write unshares).
  const Value* spec = pod.Find("spec");
  if (spec == nullptr || !spec->IsMap()) return;
  bool any = false;
  auto has_keys = [&](const Value& term) {
    any = any || NonEmptyList(Find(term, "matchLabelKeys")) ||
          NonEmptyList(Find(term, "mismatchLabelKeys"));
  };
  if (const Value* tsc = Find(*spec, "topologySpreadConstraints");
      tsc != nullptr && tsc->IsList()) {
    for (const Value& c : tsc->list()) has_keys(c);
  }
  const Value* affinity = Find(*spec, "affinity");
  for (const char* kind : {"podAffinity", "podAntiAffinity"}) {
    const Value* a = affinity != nullptr ? Find(*affinity, kind) : nullptr;
    if (a == nullptr) continue;
    if (const Value* p =
            Find(*a, "preferredDuringSchedulingIgnoredDuringExecution");
        p != nullptr && p->IsList()) {
      for (const Value& w : p->list()) {
        if (const Value* t = Find(w, "podAffinityTerm")) has_keys(*t);
      }
    }
    if (const Value* r =
            Find(*a, "requiredDuringSchedulingIgnoredDuringExecution");
        r != nullptr && r->IsList()) {
      for (const Value& t : r->list()) has_keys(t);
    }
  }
  if (!any) return;
  Map& s = EnsureMap(pod, "spec");
  if (Value* aff = s.Find("affinity"); aff != nullptr && aff->IsMap()) {
    for (const char* kind : {"podAffinity", "podAntiAffinity"}) {
      Value* a = aff->map().Find(kind);
      if (a == nullptr || !a->IsMap()) continue;
      EachItem(a->map(), "preferredDuringSchedulingIgnoredDuringExecution",
               [&](Value& w) {
                 if (!w.IsMap()) return;
                 if (Value* t = w.map().Find("podAffinityTerm"))
                   ApplyTermKeys(*t, true, &labels);
               });
      EachItem(a->map(), "requiredDuringSchedulingIgnoredDuringExecution",
               [&](Value& t) { ApplyTermKeys(t, true, &labels); });
    }
  }
  EachItem(s, "topologySpreadConstraints",
           [&](Value& c) { ApplyTermKeys(c, false, &labels); });
}

// ApparmorFieldForAnnotation, with ValidateAppArmorProfileField's checks
// of a localhost profile: null where the annotation gives no valid field.
Value AppArmorProfileOf(const std::string& annotation) {
  Map m;
  if (annotation == "unconfined") {
    m.Set("type", Value("Unconfined"));
  } else if (annotation == "runtime/default") {
    m.Set("type", Value("RuntimeDefault"));
  } else if (absl::StartsWith(annotation, "localhost/")) {
    const std::string profile = annotation.substr(10);
    const size_t first = profile.find_first_not_of(" \t\n\v\f\r");
    const size_t last = profile.find_last_not_of(" \t\n\v\f\r");
    const bool padded = profile.empty() || first != 0 ||
                        last != profile.size() - 1;
    if (padded || profile.size() > 4095) return Value();
    m.Set("type", Value("Localhost"));
    m.Set("localhostProfile", Value(profile));
  } else {
    return Value();
  }
  return Value(std::move(m));
}

// applyAppArmorVersionSkew: a container's deprecated annotation becomes
// its field.
void AppArmorAnnotations(Map& pod) {
  const Value* meta = pod.Find("metadata");
  const Value* annotations = meta != nullptr ? Find(*meta, "annotations")
                                             : nullptr;
  if (annotations == nullptr || !annotations->IsMap()) return;
  const Value* spec = pod.Find("spec");
  if (spec == nullptr || !spec->IsMap()) return;
  if (const Value* os = Find(*spec, "os");
      os != nullptr && StringAt(*os, "name") == "windows") {
    return;
  }
  const Value* psc = Find(*spec, "securityContext");
  const Value* pod_profile =
      psc != nullptr ? Find(*psc, "appArmorProfile") : nullptr;
  // What goes where: (list, index, profile); written after the reads.
  std::vector<std::tuple<const char*, size_t, Value>> writes;
  for (const char* list :
       {"initContainers", "containers", "ephemeralContainers"}) {
    const Value* cs = Find(*spec, list);
    if (cs == nullptr || !cs->IsList()) continue;
    for (size_t i = 0; i < cs->list().size(); ++i) {
      const Value& c = cs->list()[i];
      const Value* a = annotations->map().Find(
          "container.apparmor.security.beta.kubernetes.io/" +
          StringAt(c, "name"));
      if (a == nullptr || !a->IsString()) continue;
      const Value* sc = Find(c, "securityContext");
      if (sc != nullptr && Set(Find(*sc, "appArmorProfile"))) continue;
      Value profile = AppArmorProfileOf(a->AsString());
      if (profile.IsNull()) continue;
      if (Set(pod_profile) && Equals(profile, *pod_profile)) continue;
      writes.emplace_back(list, i, std::move(profile));
    }
  }
  if (writes.empty()) return;
  Map& s = EnsureMap(pod, "spec");
  for (auto& [list, i, profile] : writes) {
    Value& c = s.Find(list)->list()[i];
    EnsureMap(c.map(), "securityContext")
        .Set("appArmorProfile", std::move(profile));
  }
}

// The DefaultTolerationSeconds admission plugin, with its default flags
// (300 s): a pod that does not tolerate the not-ready or the unreachable
// NoExecute taint (a toleration with that key or none, of that effect or
// none) gets a toleration of it.
void DefaultTolerations(Value& pod) {
  const Value* spec = Find(pod, "spec");
  const Value* tolerations =
      spec != nullptr ? Find(*spec, "tolerations") : nullptr;
  bool not_ready = false;
  bool unreachable = false;
  if (tolerations != nullptr && tolerations->IsList()) {
    for (const Value& t : tolerations->list()) {
      const std::string key = StringAt(t, "key");
      const std::string effect = StringAt(t, "effect");
      if (effect != "NoExecute" && !effect.empty()) continue;
      not_ready = not_ready || key.empty() || key == "node.kubernetes.io/not-ready";
      unreachable =
          unreachable || key.empty() || key == "node.kubernetes.io/unreachable";
    }
  }
  if (not_ready && unreachable) return;
  Map& s = EnsureMap(pod.map(), "spec");
  Value* list = s.Find("tolerations");
  if (list == nullptr || !list->IsList()) {
    s.Set("tolerations", Value::MakeList());
    list = s.Find("tolerations");
  }
  for (const auto& [tolerated, key] :
       {std::pair{not_ready, "node.kubernetes.io/not-ready"},
        std::pair{unreachable, "node.kubernetes.io/unreachable"}}) {
    if (tolerated) continue;
    Map t;
    t.Set("key", Value(key));
    t.Set("operator", Value("Exists"));
    t.Set("effect", Value("NoExecute"));
    t.Set("tolerationSeconds", Value(int64_t{300}));
    list->list().push_back(Value(std::move(t)));
  }
}

// DefaultPodLevelResources (PodLevelResources and its
// PodLevelResourcesFixDefaulting, both on by default in 1.37).

using ResourceList = std::map<std::string, Quantity>;

bool HugePages(const std::string& name) {
  return absl::StartsWith(name, "hugepages-");
}

// IsSupportedPodLevelResource.
bool AtPodLevel(const std::string& name) {
  return name == "cpu" || name == "memory" || HugePages(name);
}

// IsOvercommitAllowed: a native resource (no domain, or one of
// kubernetes.io) that is no huge pages.
bool Overcommits(const std::string& name) {
  return (name.find('/') == std::string::npos ||
          absl::StrContains(name, "kubernetes.io/")) &&
         !HugePages(name);
}

const Value* ResourceIn(const Value* container, const char* which,
                        absl::string_view name) {
  const Value* r = container != nullptr ? Find(*container, "resources")
                                        : nullptr;
  const Value* list = r != nullptr ? Find(*r, which) : nullptr;
  return list != nullptr && list->IsMap() ? list->map().Find(name) : nullptr;
}

// A container's resources.<which>, those that are quantities. A sum
// prints in the format its first term was written in, which the canonical
// form loses where it prints a binary quantity in decimal ("0.5Ki" is
// "512"): the format comes from the container of that name as the request
// wrote it (`asked`; a request the defaulter copied from a limit, from
// the limit).
ResourceList ListOf(const Value& container, const char* which,
                    const Value* asked) {
  ResourceList out;
  const Value* r = Find(container, "resources");
  const Value* list = r != nullptr ? Find(*r, which) : nullptr;
  if (list == nullptr || !list->IsMap()) return out;
  for (const MapEntry& e : list->map()) {
    std::optional<Quantity> q = ParseQuantity(e.value);
    if (!q.has_value()) continue;
    const Value* written = ResourceIn(asked, which, e.key);
    if (written == nullptr && absl::string_view(which) == "requests")
      written = ResourceIn(asked, "limits", e.key);
    if (written != nullptr) {
      if (std::optional<Quantity> w = ParseQuantity(*written))
        q->format = w->format;
    }
    out.emplace(std::string(e.key), *std::move(q));
  }
  return out;
}

// The item of the list `list` in `spec` named `name`.
const Value* Named(const Value* spec, const char* list,
                   const std::string& name) {
  const Value* cs = spec != nullptr ? Find(*spec, list) : nullptr;
  if (cs == nullptr || !cs->IsList()) return nullptr;
  for (const Value& c : cs->list()) {
    if (StringAt(c, "name") == name) return &c;
  }
  return nullptr;
}

// addResourceList: a sum keeps the format of the quantity it adds to.
void AddTo(ResourceList& to, const ResourceList& from) {
  for (const auto& [name, q] : from) {
    auto [it, fresh] = to.emplace(name, q);
    if (!fresh) it->second = AddQuantities(it->second, q);
  }
}

// maxResourceList.
void MaxTo(ResourceList& to, const ResourceList& from) {
  for (const auto& [name, q] : from) {
    auto [it, fresh] = to.emplace(name, q);
    if (!fresh && CompareQuantities(q, it->second) > 0) it->second = q;
  }
}

// AggregateContainerRequests / AggregateContainerLimits from the spec (the
// sidecar rule of KEP 753): the containers' sum, at least each init
// container's need while it runs, which is its own plus that of the
// restartable init containers before it.
ResourceList Aggregate(const Value& spec, const char* which,
                       const Value* asked_spec) {
  auto list_of = [&](const Value& c, const char* list) {
    return ListOf(c, which, Named(asked_spec, list, StringAt(c, "name")));
  };
  ResourceList result;
  if (const Value* cs = Find(spec, "containers"); cs != nullptr &&
                                                  cs->IsList()) {
    for (const Value& c : cs->list()) AddTo(result, list_of(c, "containers"));
  }
  ResourceList sidecars;
  ResourceList init;
  if (const Value* cs = Find(spec, "initContainers"); cs != nullptr &&
                                                      cs->IsList()) {
    for (const Value& c : cs->list()) {
      ResourceList own = list_of(c, "initContainers");
      if (StringAt(c, "restartPolicy") == "Always") {
        AddTo(result, own);
        AddTo(sidecars, own);
        MaxTo(init, sidecars);
      } else {
        AddTo(own, sidecars);
        MaxTo(init, own);
      }
    }
  }
  MaxTo(result, init);
  return result;
}

// Whether every container, of any kind, has a limit on `name`.
bool AllContainersLimit(const Value& spec, const std::string& name) {
  for (const char* list :
       {"initContainers", "containers", "ephemeralContainers"}) {
    const Value* cs = Find(spec, list);
    if (cs == nullptr || !cs->IsList()) continue;
    for (const Value& c : cs->list()) {
      const Value* r = Find(c, "resources");
      const Value* limits = r != nullptr ? Find(*r, "limits") : nullptr;
      if (limits == nullptr || !limits->IsMap() ||
          limits->map().Find(name) == nullptr) {
        return false;
      }
    }
  }
  return true;
}

bool Has(const Value& list, const std::string& name) {
  return list.IsMap() && list.map().Find(name) != nullptr;
}

void PodLevelResources(Map& pod, const Value& request) {
  const Value* spec = pod.Find("spec");
  const Value* asked = Find(request, "spec");
  const Value* resources = spec != nullptr ? Find(*spec, "resources") : nullptr;
  if (resources == nullptr || !resources->IsMap()) return;
  auto list_of = [&](const char* which) {
    const Value* l = Find(*resources, which);
    return l != nullptr && l->IsMap() ? *l : Value();
  };
  Value requests = list_of("requests");
  Value limits = list_of("limits");
  auto size = [](const Value& l) { return l.IsMap() ? l.map().size() : 0; };
  if (size(requests) == 0 && size(limits) == 0) return;
  const ResourceList container_limits = Aggregate(*spec, "limits", asked);
  const ResourceList container_requests =
      Aggregate(*spec, "requests", asked);
  auto set = [](Value& list, const std::string& name, Value v) {
    if (!list.IsMap()) list = Value::MakeMap();
    list.map().Set(name, std::move(v));
  };
  auto text = [](const Quantity& q) {
    std::optional<std::string> s = QuantityString(q);
    return s.has_value() ? Value(*std::move(s)) : Value();
  };
  // Huge pages the containers limit and the pod neither requests nor
  // limits: the containers' limit.
  for (const auto& [name, q] : container_limits) {
    if (!HugePages(name) || Has(requests, name) || Has(limits, name)) continue;
    set(limits, name, text(q));
  }
  // Requests: the containers' for cpu and memory, else the pod's limit.
  for (const auto& [name, q] : container_requests) {
    if (Has(requests, name) || !AtPodLevel(name) || !Overcommits(name))
      continue;
    set(requests, name, text(q));
  }
  if (limits.IsMap()) {
    for (const MapEntry& e : limits.map()) {
      const std::string name(e.key);
      if (!Has(requests, name) && AtPodLevel(name)) set(requests, name, e.value);
    }
  }
  // Limits: where every container limits a requested resource, the
  // containers' limit, raised to the pod's request.
  std::vector<std::pair<std::string, Value>> raised;
  if (requests.IsMap()) {
    for (const MapEntry& e : requests.map()) {
      const std::string name(e.key);
      if (!AtPodLevel(name) || Has(limits, name) ||
          !AllContainersLimit(*spec, name)) {
        continue;
      }
      auto it = container_limits.find(name);
      if (it == container_limits.end()) continue;
      std::optional<Quantity> request = ParseQuantity(e.value);
      if (request.has_value() && CompareQuantities(*request, it->second) > 0) {
        raised.emplace_back(name, e.value);
      } else {
        raised.emplace_back(name, text(it->second));
      }
    }
  }
  for (auto& [name, v] : raised) set(limits, name, std::move(v));
  if (Equals(requests, list_of("requests")) && Equals(limits, list_of("limits")))
    return;
  Map& r = EnsureMap(EnsureMap(pod, "spec"), "resources");
  if (requests.IsMap()) r.Set("requests", std::move(requests));
  if (limits.IsMap()) r.Set("limits", std::move(limits));
}

// PodLevelResourcesFixDefaulting, on update: pod-level resources a request
// left out (a client that does not know them) are the live pod's.
void LivePodLevelResourcesKept(Value& pod, const Value& live) {
  const Value* spec = Find(pod, "spec");
  const Value* live_spec = Find(live, "spec");
  if (live_spec == nullptr || !Set(Find(*live_spec, "resources"))) return;
  if (spec != nullptr && Set(Find(*spec, "resources"))) return;
  EnsureMap(pod.map(), "spec")
      .Set("resources", *Find(*live_spec, "resources"));
}

// metav1.ResetObjectMetaForStatus: these fields of the metadata are the
// live object's (absent where it has none).
void LiveMetadataForStatus(Map& pod, const Value& live) {
  const Value* live_meta = Find(live, "metadata");
  Map& meta = EnsureMap(pod, "metadata");
  for (const char* f : {"deletionTimestamp", "generation", "selfLink",
                        "labels", "annotations", "finalizers",
                        "ownerReferences"}) {
    const Value* kept = live_meta != nullptr ? Find(*live_meta, f) : nullptr;
    if (kept != nullptr) {
      meta.Set(f, *kept);
    } else {
      meta.Erase(f);
    }
  }
}

// `to[field]` is `from[field]`, or absent with it.
void CopyField(Map& to, const Value& from, const char* field) {
  if (const Value* v = Find(from, field)) {
    to.Set(field, *v);
  } else {
    to.Erase(field);
  }
}

size_t ItemsAt(const Value* spec, const char* list) {
  const Value* l = spec != nullptr ? Find(*spec, list) : nullptr;
  return l != nullptr && l->IsList() ? l->list().size() : 0;
}

// dropNonResizeUpdatesForContainers: the live list with each container's
// resources and resize policy as requested; the requested list as it is
// where a name differs (validation refuses it) or it is empty.
Value ResizedContainers(const Value* requested, const Value* live) {
  const Value asked = requested != nullptr ? *requested : Value();
  if (!asked.IsList() || asked.list().empty() || live == nullptr ||
      !live->IsList()) {
    return asked;
  }
  Value out = *live;
  for (size_t i = 0; i < asked.list().size(); ++i) {
    const Value& c = asked.list()[i];
    Value& kept = out.list()[i];
    if (StringAt(kept, "name") != StringAt(c, "name")) return asked;
    if (!kept.IsMap()) continue;
    CopyField(kept.map(), c, "resources");
    CopyField(kept.map(), c, "resizePolicy");
  }
  return out;
}

}  // namespace

void PodAtCreate(Value& pod, const Value& request,
                 const std::optional<absl::Time>& now) {
  if (!pod.IsMap()) return;
  DefaultTolerations(pod);
  Map& m = pod.map();
  Map status;
  status.Set("phase", Value("Pending"));
  m.Set("status", Value(std::move(status)));
  SchedulingGatedCondition(m, now);
  LabelKeys(m);
  AppArmorAnnotations(m);
  PodLevelResources(m, request);
  EnsureMap(m, "status").Set("qosClass", Value(PodQosClass(pod)));
}

void PodAtUpdate(Value& pod, const Value& live) {
  if (!pod.IsMap()) return;
  DefaultTolerations(pod);
  LivePodLevelResourcesKept(pod, live);
}

void PodResizeAtUpdate(Value& pod, const Value& live) {
  if (!pod.IsMap() || !live.IsMap()) return;
  const Value* spec = Find(pod, "spec");
  const Value* live_spec = Find(live, "spec");
  // dropNonResizeUpdates: a change of the number of containers is left
  // for validation to refuse.
  if (ItemsAt(spec, "containers") == ItemsAt(live_spec, "containers") &&
      ItemsAt(spec, "initContainers") ==
          ItemsAt(live_spec, "initContainers")) {
    Value resized = live_spec != nullptr ? *live_spec : Value::MakeMap();
    if (resized.IsMap()) {
      Map& r = resized.map();
      // Pod-level resources as requested
      // (InPlacePodLevelResourcesVerticalScaling, on by default); volumes
      // as they were (InPlacePodVerticalScalingMemoryBackedVolumes, off).
      const Value requested = spec != nullptr ? *spec : Value();
      CopyField(r, requested, "resources");
      for (const char* list : {"containers", "initContainers"}) {
        Value v = ResizedContainers(Find(requested, list),
                                    live_spec != nullptr
                                        ? Find(*live_spec, list)
                                        : nullptr);
        if (v.IsNull()) {
          r.Erase(list);
        } else {
          r.Set(list, std::move(v));
        }
      }
    }
    Map& m = pod.map();
    m.Set("spec", std::move(resized));
    CopyField(m, live, "status");
    LiveMetadataForStatus(m, live);
  }
  // Pod-level resources the request left out are the live pod's; present,
  // they are completed.
  LivePodLevelResourcesKept(pod, live);
  PodLevelResources(pod.map(), Value());
}

void PodEphemeralContainersAtUpdate(Value& pod, const Value& live) {
  if (!pod.IsMap() || !live.IsMap()) return;
  // dropNonEphemeralContainerUpdates.
  const Value* spec = Find(pod, "spec");
  const Value requested = spec != nullptr ? *spec : Value();
  const Value* live_spec = Find(live, "spec");
  Value kept = live_spec != nullptr ? *live_spec : Value::MakeMap();
  if (kept.IsMap()) CopyField(kept.map(), requested, "ephemeralContainers");
  Map& m = pod.map();
  m.Set("spec", std::move(kept));
  CopyField(m, live, "status");
  LiveMetadataForStatus(m, live);
}

void PodStatusAtUpdate(Value& pod, const Value& live) {
  const Value* live_status = Find(live, "status");
  if (live_status == nullptr || !live_status->IsMap() || !pod.IsMap()) return;
  const Value* status = Find(pod, "status");
  auto at = [&](const char* f) {
    return status != nullptr ? Find(*status, f) : nullptr;
  };
  // What is taken from the live status, read before anything is written.
  std::vector<std::pair<const char*, Value>> taken;
  if (StringAt(status != nullptr ? *status : Value(), "qosClass").empty() &&
      !StringAt(*live_status, "qosClass").empty()) {
    taken.emplace_back("qosClass", *Find(*live_status, "qosClass"));
  }
  for (const char* f : {"resourceClaimStatuses", "extendedResourceClaimStatus",
                        "nodeAllocatableResourceClaimStatuses"}) {
    if (!Set(at(f)) && Set(Find(*live_status, f)))
      taken.emplace_back(f, *Find(*live_status, f));
  }
  const Value* og = at("observedGeneration");
  const Value* live_og = Find(*live_status, "observedGeneration");
  if ((og == nullptr || !og->IsInt() || og->AsInt() == 0) &&
      live_og != nullptr && live_og->IsInt() && live_og->AsInt() != 0) {
    taken.emplace_back("observedGeneration", *live_og);
  }
  // preserveOldObservedGeneration: per condition type, the live ones'
  // generations in order.
  std::map<std::string, std::vector<int64_t>> by_type;
  if (const Value* lc = Find(*live_status, "conditions");
      lc != nullptr && lc->IsList()) {
    for (const Value& c : lc->list()) {
      const Value* g = Find(c, "observedGeneration");
      by_type[StringAt(c, "type")].push_back(g != nullptr && g->IsInt()
                                                 ? g->AsInt()
                                                 : 0);
    }
  }
  std::vector<std::pair<size_t, int64_t>> generations;
  if (const Value* conds = at("conditions"); conds != nullptr &&
                                             conds->IsList() &&
                                             !by_type.empty()) {
    for (size_t i = 0; i < conds->list().size(); ++i) {
      const Value& c = conds->list()[i];
      int64_t old = 0;
      auto it = by_type.find(StringAt(c, "type"));
      if (it != by_type.end() && !it->second.empty()) {
        old = it->second.front();
        it->second.erase(it->second.begin());
      }
      const Value* g = Find(c, "observedGeneration");
      if ((g == nullptr || !g->IsInt() || g->AsInt() == 0) && old != 0)
        generations.emplace_back(i, old);
    }
  }
  if (taken.empty() && generations.empty()) return;
  Map& s = EnsureMap(pod.map(), "status");
  for (auto& [f, v] : taken) s.Set(f, std::move(v));
  for (const auto& [i, g] : generations) {
    Value& c = s.Find("conditions")->list()[i];
    if (c.IsMap()) c.map().Set("observedGeneration", Value(g));
  }
}

}  // namespace smdx::internal
