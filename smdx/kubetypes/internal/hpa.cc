#include "smdx/kubetypes/internal/hpa.h"

#include <optional>
#include <string>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "smdx/kubetypes/internal/defaulters.h"
#include "smdx/kubetypes/internal/quantity.h"
#include "smdx/value/emit.h"
#include "smdx/value/parse.h"

namespace smdx::internal {
namespace {

constexpr const char* kRoundTripAnnotations[] = {
    kHpaMetricsAnnotation,
    kHpaBehaviorAnnotation,
    "autoscaling.alpha.kubernetes.io/scale-down-tolerance",
    "autoscaling.alpha.kubernetes.io/scale-up-tolerance",
    kHpaCurrentMetricsAnnotation,
    kHpaConditionsAnnotation};

// The field `k` of `v` when it is set (present and not null).
const Value* Field(const Value* v, absl::string_view k) {
  if (v == nullptr || !v->IsMap()) return nullptr;
  const Value* f = v->map().Find(k);
  return f != nullptr && !f->IsNull() ? f : nullptr;
}

// Sets `to[k]` to `*v` when `v` is set (a pointer field, omitempty).
void Put(Map& to, absl::string_view k, const Value* v) {
  if (v != nullptr) to.Append(std::string(k), *v);
}

// A Go field that is not a pointer: `*v`, or the zero value `zero`.
void PutOr(Map& to, absl::string_view k, const Value* v, Value zero) {
  to.Append(std::string(k), v != nullptr ? *v : std::move(zero));
}

// A Quantity as encoding/json writes it: canonical.
Value Canonical(const Value& q) {
  std::optional<std::string> c = CanonicalQuantity(q);
  return c.has_value() ? Value(*std::move(c)) : q;
}
void PutQuantity(Map& to, absl::string_view k, const Value* q) {
  if (q != nullptr) to.Append(std::string(k), Canonical(*q));
}
// A Quantity that is not a pointer: "0" when unset.
void PutQuantityOr0(Map& to, absl::string_view k, const Value* q) {
  to.Append(std::string(k), q != nullptr ? Canonical(*q) : Value("0"));
}

bool IsZeroQuantity(const Value& q) {
  std::optional<std::string> c = CanonicalQuantity(q);
  return c.has_value() && *c == "0";
}

bool IsType(const Value& metric, absl::string_view type) {
  const Value* t = Field(&metric, "type");
  return t != nullptr && t->IsString() && t->AsString() == type;
}

bool IsCpu(const Value* source) {
  const Value* n = Field(source, "name");
  return n != nullptr && n->IsString() && n->AsString() == "cpu";
}

// An annotation's value, when the object has it.
const Value* Annotation(const Value& object, const char* key) {
  const Value* a = Field(Field(&object, "metadata"), "annotations");
  const Value* v = Field(a, key);
  return v != nullptr && v->IsString() ? v : nullptr;
}

// The list of structs an annotation of the object holds (HpaAnnotationList).
std::optional<List> Structs(const Value& object, const char* key) {
  const Value* a = Field(Field(&object, "metadata"), "annotations");
  return HpaAnnotationList(a != nullptr && a->IsMap() ? &a->map() : nullptr,
                           key);
}

// The object's metadata without the round-trip annotations.
Value MetadataWithoutRoundTrip(const Value& object) {
  const Value* md = Field(&object, "metadata");
  if (md == nullptr || !md->IsMap()) return Value(Map());
  Value out = *md;
  const Value* a = Field(md, "annotations");
  bool any = false;
  for (const char* k : kRoundTripAnnotations)
    any = any || (a != nullptr && a->IsMap() && a->map().Find(k) != nullptr);
  if (any) {  // (a write unshares)
    Map& annotations = out.map().Find("annotations")->map();
    for (const char* k : kRoundTripAnnotations) annotations.Erase(k);
  }
  return out;
}

// ---- v1 to v2 -------------------------------------------------------------

Value Identifier(const Value* name, const Value* selector) {
  Map m;
  PutOr(m, "name", name, Value(""));
  Put(m, "selector", selector);
  return Value(std::move(m));
}

// A v1 and a v2 CrossVersionObjectReference have the same fields.
Value ObjectReference(const Value* ref) {
  Map m;
  PutOr(m, "kind", Field(ref, "kind"), Value(""));
  PutOr(m, "name", Field(ref, "name"), Value(""));
  Put(m, "apiVersion", Field(ref, "apiVersion"));
  return Value(std::move(m));
}

// A v1 MetricSpec (`status` false) or MetricStatus (true) as v2's: the
// fields named "target..." or "current..." become the target's (with its
// type, which v1 leaves implied) or the current value's. Where v1 has a
// Quantity that is no pointer, an unset one is "0".
Value MetricToV2(const Value& in, bool status) {
  const char* values = status ? "current" : "target";
  auto named = [&](const char* suffix) {
    return std::string(values) + suffix;
  };
  // The target's type, for a spec.
  auto typed = [&](Map& t, bool first_kind, const char* first,
                   const char* other) {
    if (!status) t.Append("type", Value(first_kind ? first : other));
  };
  // A Quantity that v1 has as a value in a status, a pointer in a spec.
  auto status_value = [&](Map& t, const char* k, const Value* q) {
    if (status) {
      PutOr(t, k, q, Value("0"));
    } else {
      Put(t, k, q);
    }
  };
  Map out;
  PutOr(out, "type", Field(&in, "type"), Value(""));
  if (const Value* o = Field(&in, "object")) {
    const Value* average = Field(o, "averageValue");
    const Value* value = Field(o, named("Value"));
    Map t;
    typed(t, average == nullptr, "Value", "AverageValue");
    // A spec's targetValue is no pointer in v1 either: with an average
    // value, a zero one is taken for unset.
    if (status || average == nullptr) {
      PutOr(t, "value", value, Value("0"));
    } else if (value != nullptr && !IsZeroQuantity(*value)) {
      t.Append("value", *value);
    }
    Put(t, "averageValue", average);
    Map s;
    s.Append("describedObject", ObjectReference(Field(o, "target")));
    s.Append(values, Value(std::move(t)));
    s.Append("metric",
             Identifier(Field(o, "metricName"), Field(o, "selector")));
    out.Append("object", Value(std::move(s)));
  }
  if (const Value* p = Field(&in, "pods")) {
    Map t;
    typed(t, true, "AverageValue", "");
    PutOr(t, "averageValue", Field(p, named("AverageValue")), Value("0"));
    Map s;
    s.Append("metric",
             Identifier(Field(p, "metricName"), Field(p, "selector")));
    s.Append(values, Value(std::move(t)));
    out.Append("pods", Value(std::move(s)));
  }
  for (const char* f : {"resource", "containerResource"}) {
    if (const Value* r = Field(&in, f)) {
      const Value* utilization = Field(r, named("AverageUtilization"));
      Map t;
      typed(t, utilization != nullptr, "Utilization", "AverageValue");
      status_value(t, "averageValue", Field(r, named("AverageValue")));
      Put(t, "averageUtilization", utilization);
      Map s;
      PutOr(s, "name", Field(r, "name"), Value(""));
      s.Append(values, Value(std::move(t)));
      if (absl::string_view(f) == "containerResource")
        PutOr(s, "container", Field(r, "container"), Value(""));
      out.Append(f, Value(std::move(s)));
    }
  }
  if (const Value* e = Field(&in, "external")) {
    const Value* value = Field(e, named("Value"));
    Map t;
    typed(t, value != nullptr, "Value", "AverageValue");
    status_value(t, "value", value);
    Put(t, "averageValue", Field(e, named("AverageValue")));
    Map s;
    s.Append("metric",
             Identifier(Field(e, "metricName"), Field(e, "metricSelector")));
    s.Append(values, Value(std::move(t)));
    out.Append("external", Value(std::move(s)));
  }
  return Value(std::move(out));
}

// The field of `m` whose name is `name` to encoding/json, which matches
// names without case when none matches exactly.
const Value* GoField(const Value* m, absl::string_view name) {
  if (m == nullptr || !m->IsMap()) return nullptr;
  const Value* exact = m->map().Find(name);
  if (exact != nullptr) return exact->IsNull() ? nullptr : exact;
  for (const MapEntry& e : m->map()) {
    if (absl::EqualsIgnoreCase(e.key, name))
      return e.value.IsNull() ? nullptr : &e.value;
  }
  return nullptr;
}

// A behavior's scaling policies (a list) from the internal type's Go field
// names (matched as encoding/json matches them) to v2's JSON names, or the
// other way (`to_go`).
Value Policies(const Value& list, bool to_go) {
  constexpr std::pair<const char*, const char*> kNames[] = {
      {"type", "Type"}, {"value", "Value"}, {"periodSeconds", "PeriodSeconds"}};
  List out;
  for (const Value& p : list.list()) {
    Map policy;
    for (const auto& [json, go] : kNames) {
      PutOr(policy, to_go ? go : json,
            to_go ? Field(&p, json) : GoField(&p, go),
            absl::string_view(json) == "type" ? Value("") : Value(int64_t{0}));
    }
    out.push_back(Value(std::move(policy)));
  }
  return Value(std::move(out));
}

// The behavior annotation (the internal HorizontalPodAutoscalerBehavior as
// encoding/json writes it: untagged, its Go field names) as v2's behavior;
// nullopt when it does not decode or is empty.
std::optional<Value> BehaviorToV2(const Value& object) {
  const Value* enc = Annotation(object, kHpaBehaviorAnnotation);
  if (enc == nullptr) return std::nullopt;
  absl::StatusOr<Value> b = ParseJson(enc->AsString());
  if (!b.ok() || !b->IsMap()) return std::nullopt;
  Map out;
  for (const auto& [go, json] : {std::pair<const char*, const char*>{
                                     "ScaleUp", "scaleUp"},
                                 {"ScaleDown", "scaleDown"}}) {
    const Value* rules = GoField(&*b, go);
    if (rules == nullptr) continue;
    if (!rules->IsMap()) return std::nullopt;
    Map r;
    Put(r, "stabilizationWindowSeconds",
        GoField(rules, "StabilizationWindowSeconds"));
    Put(r, "selectPolicy", GoField(rules, "SelectPolicy"));
    if (const Value* ps = GoField(rules, "Policies"); ps != nullptr) {
      if (!ps->IsList()) return std::nullopt;
      r.Append("policies", Policies(*ps, /*to_go=*/false));
    }
    Put(r, "tolerance", GoField(rules, "Tolerance"));
    out.Append(json, Value(std::move(r)));
  }
  if (out.empty()) return std::nullopt;
  return Value(std::move(out));
}

// A resource metric of CPU utilization, spec (`target`) or status
// (`current`).
Value CpuUtilization(const char* target_or_current, const Value& percent) {
  Map t;
  if (absl::string_view(target_or_current) == "target")
    t.Append("type", Value("Utilization"));
  t.Append("averageUtilization", percent);
  Map r;
  r.Append("name", Value("cpu"));
  r.Append(target_or_current, Value(std::move(t)));
  Map m;
  m.Append("type", Value("Resource"));
  m.Append("resource", Value(std::move(r)));
  return Value(std::move(m));
}

// ---- v2 to v1 -------------------------------------------------------------

// A v2 MetricSpec (`status` false) or MetricStatus (true) as v1's: the
// target's or current value's fields named "target..." or "current...".
// Where v1 has a Quantity that is no pointer, an unset one is "0": an
// object's and pods' values, and a status's resource and external ones.
Value MetricToV1(const Value& in, bool status) {
  const char* values = status ? "current" : "target";
  auto named = [&](const char* suffix) {
    return std::string(values) + suffix;
  };
  // A Quantity field that v1 has as a value in a status, a pointer in a
  // spec.
  auto status_value = [&](Map& m, const std::string& k, const Value* q) {
    if (status) {
      PutQuantityOr0(m, k, q);
    } else {
      PutQuantity(m, k, q);
    }
  };
  Map out;
  PutOr(out, "type", Field(&in, "type"), Value(""));
  if (const Value* o = Field(&in, "object")) {
    const Value* v = Field(o, values);
    const Value* metric = Field(o, "metric");
    Map s;
    s.Append("target", ObjectReference(Field(o, "describedObject")));
    PutOr(s, "metricName", Field(metric, "name"), Value(""));
    PutQuantityOr0(s, named("Value"), Field(v, "value"));
    Put(s, "selector", Field(metric, "selector"));
    PutQuantity(s, "averageValue", Field(v, "averageValue"));
    out.Append("object", Value(std::move(s)));
  }
  if (const Value* p = Field(&in, "pods")) {
    const Value* metric = Field(p, "metric");
    Map s;
    PutOr(s, "metricName", Field(metric, "name"), Value(""));
    PutQuantityOr0(s, named("AverageValue"),
                   Field(Field(p, values), "averageValue"));
    Put(s, "selector", Field(metric, "selector"));
    out.Append("pods", Value(std::move(s)));
  }
  for (const char* f : {"resource", "containerResource"}) {
    if (const Value* r = Field(&in, f)) {
      const Value* v = Field(r, values);
      Map s;
      PutOr(s, "name", Field(r, "name"), Value(""));
      Put(s, named("AverageUtilization"), Field(v, "averageUtilization"));
      status_value(s, named("AverageValue"), Field(v, "averageValue"));
      if (absl::string_view(f) == "containerResource")
        PutOr(s, "container", Field(r, "container"), Value(""));
      out.Append(f, Value(std::move(s)));
    }
  }
  if (const Value* e = Field(&in, "external")) {
    const Value* v = Field(e, values);
    const Value* metric = Field(e, "metric");
    Map s;
    PutOr(s, "metricName", Field(metric, "name"), Value(""));
    Put(s, "metricSelector", Field(metric, "selector"));
    status_value(s, named("Value"), Field(v, "value"));
    PutQuantity(s, named("AverageValue"), Field(v, "averageValue"));
    out.Append("external", Value(std::move(s)));
  }
  return Value(std::move(out));
}

// A condition as v1 encodes it (its time is a struct: null when unset).
Value ConditionToV1(const Value& in) {
  Map c;
  PutOr(c, "type", Field(&in, "type"), Value(""));
  PutOr(c, "status", Field(&in, "status"), Value(""));
  PutOr(c, "lastTransitionTime", Field(&in, "lastTransitionTime"), Value());
  Put(c, "reason", Field(&in, "reason"));
  Put(c, "message", Field(&in, "message"));
  Put(c, "observedGeneration", Field(&in, "observedGeneration"));
  return Value(std::move(c));
}

// v2's behavior as the internal type encodes it: its Go field names, every
// field (nil ones null).
Value BehaviorToInternalJson(const Value& behavior) {
  Map out;
  for (const auto& [json, go] : {std::pair<const char*, const char*>{
                                     "scaleUp", "ScaleUp"},
                                 {"scaleDown", "ScaleDown"}}) {
    const Value* rules = Field(&behavior, json);
    if (rules == nullptr) {
      out.Append(go, Value());
      continue;
    }
    Map r;
    PutOr(r, "StabilizationWindowSeconds",
          Field(rules, "stabilizationWindowSeconds"), Value());
    PutOr(r, "SelectPolicy", Field(rules, "selectPolicy"), Value());
    const Value* ps = Field(rules, "policies");
    if (ps != nullptr && ps->IsList()) {
      r.Append("Policies", Policies(*ps, /*to_go=*/true));
    } else {
      r.Append("Policies", Value());
    }
    const Value* tolerance = Field(rules, "tolerance");
    r.Append("Tolerance",
             tolerance != nullptr ? Canonical(*tolerance) : Value());
    out.Append(go, Value(std::move(r)));
  }
  return Value(std::move(out));
}

// The fields both versions share: the object's own beside metadata, spec
// and status (apiVersion set to `api_version`); the spec's scale target and
// replicas; the status's generation, scale time and replicas.
Map Shared(const Value& object, const char* api_version) {
  Map out;
  for (const MapEntry& e : object.map()) {
    if (e.key == "spec" || e.key == "status" || e.key == "metadata") continue;
    out.Append(e.key, e.value);
  }
  out.Set("apiVersion", Value(api_version));
  return out;
}
Map SharedSpec(const Value* spec) {
  Map s;
  for (const char* f : {"scaleTargetRef", "minReplicas", "maxReplicas"})
    Put(s, f, Field(spec, f));
  return s;
}
Map SharedStatus(const Value* status) {
  Map s;
  for (const char* f : {"observedGeneration", "lastScaleTime",
                        "currentReplicas", "desiredReplicas"})
    Put(s, f, Field(status, f));
  return s;
}

// A v2 metric's CPU utilization (of its `target` or `current`), when it is
// a resource metric of CPU that has one.
const Value* CpuUtilizationOf(const Value& metric, const char* values) {
  const Value* r = Field(&metric, "resource");
  const Value* u = Field(Field(r, values), "averageUtilization");
  return IsType(metric, "Resource") && IsCpu(r) ? u : nullptr;
}

}  // namespace

bool IsHpaRoundTripAnnotation(absl::string_view key) {
  for (const char* k : kRoundTripAnnotations) {
    if (key == k) return true;
  }
  return false;
}

std::optional<List> HpaAnnotationList(const Map* annotations,
                                      const char* key) {
  const Value* enc = annotations != nullptr ? annotations->Find(key) : nullptr;
  if (enc == nullptr || !enc->IsString()) return std::nullopt;
  absl::StatusOr<Value> v = ParseJson(enc->AsString());
  if (!v.ok()) return std::nullopt;
  if (v->IsNull()) return List();
  if (!v->IsList()) return std::nullopt;
  for (const Value& item : v->list()) {
    if (!item.IsMap() && !item.IsNull()) return std::nullopt;
  }
  return std::move(v->list());
}

Value HpaV1ToV2(const Value& v1) {
  const Value* spec = Field(&v1, "spec");
  const Value* status = Field(&v1, "status");
  Map out = Shared(v1, "autoscaling/v2");
  out.Append("metadata", MetadataWithoutRoundTrip(v1));

  Map s = SharedSpec(spec);
  // The annotation's other metrics, then the CPU target; none: 80% of CPU.
  List metrics;
  if (std::optional<List> others = Structs(v1, kHpaMetricsAnnotation)) {
    for (const Value& m : *others)
      metrics.push_back(MetricToV2(m, /*status=*/false));
  }
  if (const Value* cpu = Field(spec, "targetCPUUtilizationPercentage"))
    metrics.push_back(CpuUtilization("target", *cpu));
  if (metrics.empty())
    metrics.push_back(CpuUtilization("target", Value(int64_t{80})));
  s.Append("metrics", Value(std::move(metrics)));
  if (std::optional<Value> behavior = BehaviorToV2(v1))
    s.Append("behavior", *std::move(behavior));
  out.Append("spec", Value(std::move(s)));

  Map st = SharedStatus(status);
  // The annotation's current metrics ("the ones here have more
  // information"), else the current CPU utilization.
  List current;
  if (std::optional<List> all = Structs(v1, kHpaCurrentMetricsAnnotation)) {
    for (const Value& m : *all)
      current.push_back(MetricToV2(m, /*status=*/true));
  } else if (const Value* cpu =
                 Field(status, "currentCPUUtilizationPercentage")) {
    current.push_back(CpuUtilization("current", *cpu));
  }
  if (!current.empty()) st.Append("currentMetrics", Value(std::move(current)));
  if (std::optional<List> conditions = Structs(v1, kHpaConditionsAnnotation);
      conditions.has_value() && !conditions->empty()) {
    st.Append("conditions", Value(*std::move(conditions)));
  }
  out.Append("status", Value(std::move(st)));
  return Value(std::move(out));
}

Value HpaV2ToV1(const Value& v2) {
  const Value* spec = Field(&v2, "spec");
  const Value* status = Field(&v2, "status");
  Map out = Shared(v2, "autoscaling/v1");
  Value metadata = MetadataWithoutRoundTrip(v2);

  Map s = SharedSpec(spec);
  // The first CPU utilization target is v1's; every one of them leaves the
  // other metrics.
  List others;
  const Value* metrics = Field(spec, "metrics");
  if (metrics != nullptr && metrics->IsList()) {
    for (const Value& m : metrics->list()) {
      if (const Value* u = CpuUtilizationOf(m, "target")) {
        if (s.Find("targetCPUUtilizationPercentage") == nullptr)
          s.Append("targetCPUUtilizationPercentage", *u);
        continue;
      }
      others.push_back(MetricToV1(m, /*status=*/false));
    }
  }
  out.Append("spec", Value(std::move(s)));

  Map st = SharedStatus(status);
  // The last current CPU utilization is v1's; all go to the annotation.
  List current;
  const Value* now = Field(status, "currentMetrics");
  if (now != nullptr && now->IsList()) {
    for (const Value& m : now->list()) {
      if (const Value* u = CpuUtilizationOf(m, "current"))
        st.Set("currentCPUUtilizationPercentage", *u);
      current.push_back(MetricToV1(m, /*status=*/true));
    }
  }
  List conditions;
  if (const Value* cs = Field(status, "conditions"); cs != nullptr &&
                                                      cs->IsList()) {
    for (const Value& c : cs->list()) conditions.push_back(ConditionToV1(c));
  }
  out.Append("status", Value(std::move(st)));

  Map annotations;
  if (const Value* a = Field(&metadata, "annotations"); a != nullptr &&
                                                         a->IsMap()) {
    annotations = a->map();
  }
  if (!others.empty())
    annotations.Set(kHpaMetricsAnnotation, Value(ToJson(Value(others))));
  if (!current.empty())
    annotations.Set(kHpaCurrentMetricsAnnotation,
                    Value(ToJson(Value(current))));
  if (const Value* b = Field(spec, "behavior"))
    annotations.Set(kHpaBehaviorAnnotation,
                    Value(ToJson(BehaviorToInternalJson(*b))));
  if (!conditions.empty())
    annotations.Set(kHpaConditionsAnnotation,
                    Value(ToJson(Value(conditions))));
  if (!annotations.empty())
    metadata.map().Set("annotations", Value(std::move(annotations)));
  out.Set("metadata", std::move(metadata));
  return Value(std::move(out));
}

}  // namespace smdx::internal
