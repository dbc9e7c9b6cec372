#include "smdx/kubetypes/internal/disabled_fields.h"

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"

namespace smdx::internal {

namespace {

enum class When {
  kUnlessInUse,  // at create; at update unless the live object uses them
  kAlways,       // at every write
};

// One feature's fields, as the strategy that drops them names them. A
// path's segments are fields ('quoted' where they hold dots), `[]` (each
// item of a list) or `*` (each value of a map); `{a,b}` stands for either.
// `@spec` and `@meta` are a pod's spec and metadata, or a pod template's,
// in each kind that holds one (kPodHolders).
struct Feature {
  const char* api_version;  // "" : each kind that holds a pod spec
  const char* kind;
  const char* gate;  // (the feature gate, off by default in 1.37)
  When when;
  std::vector<std::string> paths;
  // The map that held the field goes too when the drop leaves it empty: a
  // container's lifecycle (dropContainerStopSignals sets it nil), or the
  // annotations (a Go map, which storage reads back nil when empty).
  bool prune_empty_parent = false;
};

// The kinds whose strategies call DropDisabledPodFields (a pod) or
// DropDisabledTemplateFields, and where their pod spec and its metadata are.
struct PodHolder {
  const char* api_version;
  const char* kind;
  const char* spec;
  const char* meta;
};

const PodHolder kPodHolders[] = {
    {"v1", "Pod", "spec", "metadata"},
    {"v1", "PodTemplate", "template.spec", "template.metadata"},
    {"v1", "ReplicationController", "spec.template.spec",
     "spec.template.metadata"},
    {"apps/v1", "Deployment", "spec.template.spec", "spec.template.metadata"},
    {"apps/v1", "ReplicaSet", "spec.template.spec", "spec.template.metadata"},
    {"apps/v1", "StatefulSet", "spec.template.spec", "spec.template.metadata"},
    {"apps/v1", "DaemonSet", "spec.template.spec", "spec.template.metadata"},
    {"batch/v1", "Job", "spec.template.spec", "spec.template.metadata"},
    {"batch/v1", "CronJob", "spec.jobTemplate.spec.template.spec",
     "spec.jobTemplate.spec.template.metadata"},
};

// (Read from pkg/api/pod/util.go, pkg/api/job/util.go,
// pkg/api/persistentvolumeclaim/util.go, pkg/api/resourceclaimspec/util.go
// and the strategies of pkg/registry at v1.37.2; the gates off by default
// are those of pkg/features there.)
const std::vector<Feature>& Features() {
  static const std::vector<Feature>* features = [] {
    const std::string c =
        "@spec.{containers,initContainers,ephemeralContainers}[]";
    const std::string probes = c + ".{livenessProbe,readinessProbe,startupProbe}";
    const std::string v = "@spec.volumes[]";
    const std::string statuses =
        "status.{containerStatuses,initContainerStatuses,"
        "ephemeralContainerStatuses}[]";
    return new std::vector<Feature>{
        // dropDisabledFields of a pod spec.
        {"", "", "ContainerStopSignals", When::kUnlessInUse,
         {c + ".lifecycle.stopSignal"}, /*prune_empty_parent=*/true},
        {"", "", "EmptyDirVolumeMode", When::kUnlessInUse,
         {v + ".emptyDir.mode"}},
        {"", "", "VolumeBindMountOptions", When::kUnlessInUse,
         {c + ".volumeMounts[].bindMountOptions"}},
        {"", "", "AtomicWriteVolumeUserFields", When::kUnlessInUse,
         {v + ".{secret,configMap,downwardAPI,projected}.defaultUser",
          v + ".{secret,configMap,downwardAPI}.items[].user",
          v + ".projected.sources[].{secret,configMap,downwardAPI}.items[]"
              ".user",
          v + ".projected.sources[].{serviceAccountToken,"
              "clusterTrustBundle,podCertificate}.user"}},
        {"", "", "GenericWorkload", When::kUnlessInUse,
         {"@spec.schedulingGroup"}},
        {"", "", "GRPCContainerProbeTLS", When::kUnlessInUse,
         {probes + ".grpc.mode"}},
        {"", "", "EvictionRequestAPI", When::kUnlessInUse,
         {"@spec.evictionResponders"}},
        {"", "", "H2CContainerProbe", When::kUnlessInUse,
         {probes + ".httpGet.protocol",
          c + ".lifecycle.{postStart,preStop}.httpGet.protocol"}},
        // DropInitContainerAnnotations: support ended in 1.8.
        {"", "", "", When::kAlways,
         {"@meta.annotations.{'pod.beta.kubernetes.io/init-containers',"
          "'pod.alpha.kubernetes.io/init-containers',"
          "'pod.beta.kubernetes.io/init-container-statuses',"
          "'pod.alpha.kubernetes.io/init-container-statuses'}"},
         /*prune_empty_parent=*/true},
        // dropDisabledPodStatusFields (the status endpoint's; the main
        // one keeps the live status).
        {"v1", "Pod", "ImageVolumeWithDigest", When::kUnlessInUse,
         {statuses + ".volumeMounts[].volumeStatus"}},
        {"v1", "Pod", "DRANodeAllocatableResources", When::kUnlessInUse,
         {"status.nodeAllocatableResourceClaimStatuses"}},
        {"v1", "Pod", "CSIVolumeHealth", When::kUnlessInUse,
         {"status.volumeHealth"}},
        // job.DropDisabledFields.
        {"batch/v1", "Job", "WorkloadWithJob", When::kUnlessInUse,
         {"spec.scheduling"}},
        {"batch/v1", "CronJob", "WorkloadWithJob", When::kUnlessInUse,
         {"spec.jobTemplate.spec.scheduling"}},
        // The node strategy's dropDisabledFields.
        {"v1", "Node", "InPlacePodVerticalScalingSchedulerPreemption",
         When::kUnlessInUse, {"spec.podPreemptionPolicy"}},
        {"v1", "Node", "", When::kUnlessInUse, {"spec.configSource"}},
        // (nodeStatusStrategy.PrepareForUpdate.)
        {"v1", "Node", "", When::kUnlessInUse, {"status.config"}},
        // DropDisabledFieldsFromStatus (a PVC's status endpoint).
        {"v1", "PersistentVolumeClaim", "CSIVolumeHealth", When::kUnlessInUse,
         {"status.healthStatus"}},
        {"storage.k8s.io/v1", "CSINode", "CSIVolumeHealth",
         When::kUnlessInUse, {"status.storageHealth"}},
        {"coordination.k8s.io/v1", "Lease", "CoordinatedLeaderElection",
         When::kUnlessInUse, {"spec.strategy"}},
        {"coordination.k8s.io/v1", "Lease", "CoordinatedLeaderElection",
         When::kUnlessInUse, {"spec.preferredHolder"}},
        // The ResourceSlice strategy's dropDisabledFields.
        {"resource.k8s.io/v1", "ResourceSlice", "DRAPartitionableDevicesType",
         When::kUnlessInUse, {"spec.partitionTypeAttribute"}},
        {"resource.k8s.io/v1", "ResourceSlice", "DRADeviceCompatibilityGroups",
         When::kUnlessInUse,
         {"spec.devices[].consumesCounters[].compatibilityGroups"}},
        {"resource.k8s.io/v1", "ResourceSlice", "DRANodeAllocatableResources",
         When::kUnlessInUse, {"spec.devices[].nodeAllocatableResources"}},
        {"resource.k8s.io/v1", "ResourceSlice", "DRAListTypeAttributes",
         When::kUnlessInUse,
         {"spec.devices[].attributes.*.{bools,ints,strings,versions}"}},
        {"resource.k8s.io/v1", "ResourceSlice", "DRAOptionalNodeOperations",
         When::kUnlessInUse, {"spec.skipNodeOperations"}},
        // resourceclaimspec.DropDisabledFields, and the claim's status.
        {"resource.k8s.io/v1", "ResourceClaim", "DRADerivedAttributes",
         When::kUnlessInUse,
         {"spec.devices.requests[].{exactly,firstAvailable[]}"
          ".derivedAttributes"}},
        {"resource.k8s.io/v1", "ResourceClaimTemplate", "DRADerivedAttributes",
         When::kUnlessInUse,
         {"spec.spec.devices.requests[].{exactly,firstAvailable[]}"
          ".derivedAttributes"}},
        {"resource.k8s.io/v1", "ResourceClaim", "DRAOptionalNodeOperations",
         When::kUnlessInUse,
         {"status.allocation.devices.results[].skipNodeOperations"}},
    };
  }();
  return *features;
}

// `path` with its first `{a,b}` written out each way, and theirs in turn.
void ExpandBraces(const std::string& path, std::vector<std::string>& out) {
  const size_t open = path.find('{');
  if (open == std::string::npos) {
    out.push_back(path);
    return;
  }
  const size_t close = path.find('}', open);
  const std::string head = path.substr(0, open);
  const std::string tail = path.substr(close + 1);
  size_t start = open + 1;
  while (start <= close) {
    size_t comma = path.find(',', start);
    if (comma == std::string::npos || comma > close) comma = close;
    ExpandBraces(head + path.substr(start, comma - start) + tail, out);
    start = comma + 1;
  }
}

// A path's segments: split at dots outside quotes, the quotes taken off.
std::vector<std::string> Segments(const std::string& path) {
  std::vector<std::string> segments(1);
  bool quoted = false;
  for (char ch : path) {
    if (ch == '\'') {
      quoted = !quoted;
    } else if (ch == '.' && !quoted) {
      segments.emplace_back();
    } else if (ch == '[' && !quoted) {
      segments.emplace_back("[]");  // (a "[]" segment of its own)
    } else if (ch != ']' || quoted) {
      segments.back().push_back(ch);
    }
  }
  // `a[]` gave "a", "[]"; `a[].b` gave "a", "[]", "", "b": no empty ones.
  std::vector<std::string> kept;
  for (std::string& s : segments) {
    if (!s.empty()) kept.push_back(std::move(s));
  }
  return kept;
}

// The fields of one kind's features, as a tree of their paths.
struct Node {
  enum class Step : uint8_t { kField, kItems, kValues };
  Step step = Step::kField;
  std::string key;  // (kField) the field
  std::vector<Node> next;
  int feature = -1;  // the field of features[feature] ends here
  bool prune_empty_parent = false;
};

struct KindFields {
  std::vector<const Feature*> features;
  Node root;
};

void Insert(Node& root, const std::vector<std::string>& segments, int feature,
            bool prune) {
  Node* n = &root;
  for (const std::string& s : segments) {
    const Node::Step step = s == "[]"  ? Node::Step::kItems
                            : s == "*" ? Node::Step::kValues
                                       : Node::Step::kField;
    Node* child = nullptr;
    for (Node& c : n->next) {
      if (c.step == step && c.key == s) child = &c;
    }
    if (child == nullptr) {
      n->next.push_back(Node{step, s, {}, -1, false});
      child = &n->next.back();
    }
    n = child;
  }
  n->feature = feature;
  n->prune_empty_parent = prune;
}

void Add(KindFields& k, const Feature& f, absl::string_view spec,
         absl::string_view meta) {
  const int index = static_cast<int>(k.features.size());
  k.features.push_back(&f);
  for (const std::string& path : f.paths) {
    std::vector<std::string> expanded;
    ExpandBraces(absl::StrReplaceAll(path, {{"@spec", spec}, {"@meta", meta}}),
                 expanded);
    for (const std::string& p : expanded) {
      Insert(k.root, Segments(p), index, f.prune_empty_parent);
    }
  }
}

// A kind the table names, its tree made on first use (only the kinds a
// process meets are worked out).
struct KindSlot {
  std::string api_version;
  std::string kind;
  std::string spec;  // (a kind that holds a pod spec) where it is
  std::string meta;
  std::once_flag once;
  KindFields fields;
};

const KindFields* FieldsOf(absl::string_view api_version,
                           absl::string_view kind) {
  static std::deque<KindSlot>* const slots = [] {
    auto* out = new std::deque<KindSlot>;
    auto add = [&](absl::string_view v, absl::string_view k,
                   absl::string_view spec, absl::string_view meta) {
      for (const KindSlot& s : *out) {
        if (s.api_version == v && s.kind == k) return;
      }
      KindSlot& s = out->emplace_back();
      s.api_version = std::string(v);
      s.kind = std::string(k);
      s.spec = std::string(spec);
      s.meta = std::string(meta);
    };
    for (const PodHolder& h : kPodHolders)
      add(h.api_version, h.kind, h.spec, h.meta);
    for (const Feature& f : Features()) {
      if (f.api_version[0] != '\0') add(f.api_version, f.kind, "", "");
    }
    return out;
  }();
  for (KindSlot& slot : *slots) {
    if (slot.kind != kind || slot.api_version != api_version) continue;
    std::call_once(slot.once, [&slot] {
      for (const Feature& f : Features()) {
        if (f.api_version[0] == '\0' ? !slot.spec.empty()
                                      : f.api_version == slot.api_version &&
                                            f.kind == slot.kind) {
          Add(slot.fields, f, slot.spec, slot.meta);
        }
      }
    });
    return &slot.fields;
  }
  return nullptr;
}

// A Go field that is not nil, as storage reads it back: present, not null,
// and (a slice) not empty.
bool Set(const Value& v) {
  return !v.IsNull() && !(v.IsList() && v.list().empty());
}

// Calls `f(child, node)` for each value of `v` that `n`'s child node names.
template <typename V, typename F>
void EachChild(V& v, const Node& n, F&& f) {
  for (const Node& c : n.next) {
    switch (c.step) {
      case Node::Step::kItems:
        if (v.IsList()) {
          for (auto& item : v.list()) f(item, c);
        }
        break;
      case Node::Step::kValues:
        if (v.IsMap()) {
          for (auto& e : v.map()) f(e.value, c);
        }
        break;
      case Node::Step::kField:
        if (v.IsMap()) {
          if (auto* child = v.map().Find(c.key)) f(*child, c);
        }
        break;
    }
  }
}

// Marks the features whose fields `v` (under `n`) sets.
void InUse(const Value& v, const Node& n, std::vector<bool>& in_use) {
  EachChild(v, n, [&](const Value& child, const Node& c) {
    if (c.feature >= 0 && Set(child)) in_use[c.feature] = true;
    InUse(child, c, in_use);
  });
}

// Whether `v` (under `n`) holds a field of a feature in `drop`.
bool Holds(const Value& v, const Node& n, const std::vector<bool>& drop) {
  bool found = false;
  EachChild(v, n, [&](const Value& child, const Node& c) {
    found = found || (c.feature >= 0 && drop[c.feature]) ||
            Holds(child, c, drop);
  });
  return found;
}

// Erases from `v` (under `n`) the fields of the features in `drop`;
// returns whether a field whose parent goes when left empty went.
bool Erase(Value& v, const Node& n, const std::vector<bool>& drop) {
  bool pruned = false;
  if (v.IsMap()) {
    for (const Node& c : n.next) {
      if (c.feature >= 0 && drop[c.feature] && v.map().Erase(c.key)) {
        pruned = pruned || c.prune_empty_parent;
      }
    }
  }
  // (A list's items and a map's values are visited, and so unshared, only
  // where they hold something to drop.)
  std::vector<std::string> emptied;
  for (const Node& c : n.next) {
    auto visit = [&](Value& child) {
      if (!Holds(child, c, drop)) return false;
      return Erase(child, c, drop) && child.IsMap() && child.map().empty();
    };
    if (c.step == Node::Step::kItems) {
      if (!v.IsList()) continue;
      for (Value& item : v.list()) visit(item);
    } else if (c.step == Node::Step::kValues) {
      if (!v.IsMap()) continue;
      for (MapEntry& e : v.map()) visit(e.value);
    } else if (v.IsMap() && v.map().Find(c.key) != nullptr) {
      if (visit(*v.map().Find(c.key))) emptied.push_back(c.key);
    }
  }
  for (const std::string& key : emptied) v.map().Erase(key);
  return pruned;
}

void CollectPaths(const Node& n, std::vector<std::string>& at,
                  std::vector<std::vector<std::string>>& out) {
  for (const Node& c : n.next) {
    at.push_back(c.step == Node::Step::kItems    ? "[]"
                 : c.step == Node::Step::kValues ? "*"
                                                 : c.key);
    if (c.feature >= 0) out.push_back(at);
    CollectPaths(c, at, out);
    at.pop_back();
  }
}

}  // namespace

std::vector<std::vector<std::string>> DisabledFieldPaths(
    absl::string_view api_version, absl::string_view kind) {
  std::vector<std::vector<std::string>> out;
  if (const KindFields* k = FieldsOf(api_version, kind); k != nullptr) {
    std::vector<std::string> at;
    CollectPaths(k->root, at, out);
  }
  return out;
}

void DropDisabledFields(absl::string_view api_version, absl::string_view kind,
                        Value& object, const Value* live) {
  const KindFields* k = FieldsOf(api_version, kind);
  if (k == nullptr || !object.IsMap()) return;
  // Most objects hold none of the fields: then nothing more is looked at.
  std::vector<bool> drop(k->features.size(), true);
  if (!Holds(object, k->root, drop)) return;
  std::vector<bool> in_use(k->features.size(), false);
  if (live != nullptr) InUse(*live, k->root, in_use);
  for (size_t i = 0; i < drop.size(); ++i) {
    drop[i] = false;
    switch (k->features[i]->when) {
      case When::kUnlessInUse:
        drop[i] = !in_use[i];
        break;
      case When::kAlways:
        drop[i] = true;
        break;
    }
  }
  if (Holds(object, k->root, drop)) Erase(object, k->root, drop);
}

}  // namespace smdx::internal
