#include "smdx/kubetypes/internal/registry.h"

#include <cmath>
#include <cstdlib>
#include <string>

#include "smdx/kubetypes/internal/defaulters.h"

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

// A quantity's value, for comparing requests with limits: the number times
// its suffix (binary, decimal or exponent). Quantities that do not parse
// are NaN, which equals nothing.
double QuantityValue(const Value* q) {
  if (q == nullptr || q->IsNull()) return 0;
  if (q->IsNumber()) return q->AsNumber();
  if (!q->IsString()) return std::nan("");
  const std::string& s = q->AsString();
  char* end = nullptr;
  double n = std::strtod(s.c_str(), &end);
  if (end == s.c_str()) return std::nan("");
  std::string suffix(end);
  static const struct {
    const char* suffix;
    double factor;
  } kSuffixes[] = {
      {"", 1},
      {"n", 1e-9},
      {"u", 1e-6},
      {"m", 1e-3},
      {"k", 1e3},
      {"M", 1e6},
      {"G", 1e9},
      {"T", 1e12},
      {"P", 1e15},
      {"E", 1e18},
      {"Ki", 1024.0},
      {"Mi", 1048576.0},
      {"Gi", 1073741824.0},
      {"Ti", 1099511627776.0},
      {"Pi", 1125899906842624.0},
      {"Ei", 1152921504606846976.0},
  };
  for (const auto& sfx : kSuffixes) {
    if (suffix == sfx.suffix) return n * sfx.factor;
  }
  if (!suffix.empty() && (suffix[0] == 'e' || suffix[0] == 'E')) {
    char* e2 = nullptr;
    long exp = std::strtol(suffix.c_str() + 1, &e2, 10);
    if (*e2 == '\0') return n * std::pow(10.0, static_cast<double>(exp));
  }
  return std::nan("");
}

const Value* ResourceAt(const Value* list, absl::string_view res) {
  return list != nullptr && list->IsMap() ? list->map().Find(res) : nullptr;
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
    double req = QuantityValue(ResourceAt(requests, res));
    double lim = QuantityValue(ResourceAt(limits, res));
    std::string r =
        req != lim ? "Burstable" : (req == 0 ? "BestEffort" : "Guaranteed");
    if (r == "Burstable") return r;
    if (qos.empty()) {
      qos = r;
    } else if (qos != r) {
      return "Burstable";
    }
  }
  return qos;
}

void Pod(Map& pod) {
  Map status;
  status.Set("phase", Value("Pending"));
  status.Set("qosClass", Value(PodQosClass(Value(pod))));
  pod.Set("status", Value(std::move(status)));
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

// The CustomResourceDefinition strategy's PrepareForCreate: the status
// starts empty (the field manager's reset fields keep the request's out),
// then the stored versions are the storage version.
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

// The StorageObjectInUseProtection admission plugin.
void ProtectionFinalizer(Map& obj, const char* finalizer) {
  AddToList(EnsureMap(obj, "metadata"), "finalizers", finalizer);
}

}  // namespace

std::string PodQosClass(const Value& pod) {
  const Value* spec = Find(pod, "spec");
  // With pod-level resources (PodLevelResources), they decide.
  if (const Value* r = spec != nullptr ? Find(*spec, "resources") : nullptr;
      r != nullptr && r->IsMap()) {
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

Value PrepareForCreate(absl::string_view api_version, absl::string_view kind,
                       Value object, const Value& request) {
  if (!object.IsMap()) return object;
  Map& m = object.map();
  if (api_version == "v1") {
    if (kind == "Pod") Pod(m);
    if (kind == "Namespace") Namespace(m);
    if (kind == "PersistentVolumeClaim")
      ProtectionFinalizer(m, "kubernetes.io/pvc-protection");
    if (kind == "PersistentVolume")
      ProtectionFinalizer(m, "kubernetes.io/pv-protection");
  }
  if (api_version == "batch/v1" && kind == "Job") Job(m, HasLabels(request));
  if (api_version == "apiextensions.k8s.io/v1" &&
      kind == "CustomResourceDefinition") {
    CustomResourceDefinition(m);
  }
  if (api_version == "apps/v1" && kind == "DaemonSet") {
    // PrepareForCreate's template generation, as the annotation shows it.
    EnsureMap(EnsureMap(m, "metadata"), "annotations")
        .Set("deprecated.daemonset.template.generation", Value("1"));
  }
  return object;
}

}  // namespace smdx::internal
