// The field manager with builtin_defaults: objects of built-in kinds as the
// apiserver holds them around its field manager (kubetypes/builtin_kind.h).
// What each case expects is what kube-apiserver v1.37.2 stored for the
// same requests (testdata/realapi runs them against a real one).
#include <string>
#include <vector>

#include "smdx/fieldmanager/field_manager.h"
#include "smdx/fieldmanager/reset_fields.h"
#include "smdx/fieldmanager/test_manager.h"
#include "smdx/fieldpath/fields_v1.h"
#include "gtest/gtest.h"
#include "smdx/schema/builtin.h"
#include "testing/test_util.h"
#include "smdx/value/emit.h"

namespace smdx {
namespace {

using smdx::testing::Yaml;

constexpr char kDeployment[] = R"(
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.27
)";

class BuiltinDefaultsTest : public ::testing::Test {
 protected:
  BuiltinDefaultsTest() : clock_(*ParseManagedTime("2026-01-01T00:00:00Z")) {}

  FieldManager Make(const std::string& api_version, const std::string& kind,
                    bool builtin = true, const std::string& subresource = "") {
    return smdx::testing::BuiltinTestManager(api_version, kind, &clock_,
                                             builtin, subresource);
  }

  // The fieldsV1 of `manager`'s entry, as JSON ("" when it has none).
  static std::string FieldsOf(const Value& object, const std::string& manager) {
    const Value* list = FindManagedFields(object);
    if (list == nullptr) return "";
    for (const Value& e : list->list()) {
      if (StringAt(e, "manager") == manager) {
        return ToJsonSorted(*e.map().Find("fieldsV1"));
      }
    }
    return "";
  }

  static const Value* At(const Value& v, std::vector<std::string> path) {
    const Value* at = &v;
    for (const std::string& p : path) {
      if (at == nullptr) return nullptr;
      at = Find(*at, p);
    }
    return at;
  }

  ManualClock clock_;
};

// kubectl create: the update owns what the defaulters set, and the maps of
// the Go type's zero object it starts from are not new (no ".").
TEST_F(BuiltinDefaultsTest, ACreateByUpdateOwnsTheDefaults) {
  FieldManager fm = Make("apps/v1", "Deployment");
  FieldManagerResult r =
      fm.Update(Value(), Yaml(kDeployment), "kubectl-create");
  ASSERT_TRUE(r.ok()) << r.status;
  const Value* spec = Find(r.object, "spec");
  EXPECT_EQ(ToJson(*Find(*spec, "revisionHistoryLimit")), "10");
  EXPECT_EQ(ToJson(*Find(*spec, "progressDeadlineSeconds")), "600");
  std::string fields = FieldsOf(r.object, "kubectl-create");
  EXPECT_NE(fields.find("\"f:revisionHistoryLimit\":{}"), std::string::npos)
      << fields;
  EXPECT_NE(fields.find("\"f:imagePullPolicy\":{}"), std::string::npos);
  EXPECT_NE(fields.find("\"f:maxSurge\":{}"), std::string::npos);
  // spec.strategy is {} in the zero object already: its "." is not new;
  // rollingUpdate is.
  EXPECT_EQ(fields.find("\"f:strategy\":{\".\""), std::string::npos) << fields;
  EXPECT_NE(fields.find("\"f:rollingUpdate\":{\".\":{}"), std::string::npos)
      << fields;
  // The status the strategy resets is the zero status.
  EXPECT_EQ(ToJson(*Find(r.object, "status")), "{}");
}

// kubectl apply --server-side: the applier owns what it applied; the
// defaults are set on the result after the managed fields were computed.
// A number where the Go type has an integer: a whole float is that integer
// (the apply's merged object through the unstructured converter; a YAML
// body through YAMLToJSON), any other is refused: by an apply with the
// converter's 500, by an update with encoding/json's 400. Checked against
// kube-apiserver 1.37 by apply and by POST of YAML.
TEST_F(BuiltinDefaultsTest, WholeFloatsAreIntegersAndOthersAreRefused) {
  FieldManager fm = Make("apps/v1", "Deployment");
  Value config = Yaml(kDeployment);
  config.map().Find("spec")->map().Set("replicas", Value(2.0));
  for (bool apply : {true, false}) {
    FieldManagerResult r = apply ? fm.Apply(Value(), config, "kubectl", false)
                                 : fm.Update(Value(), config, "kubectl");
    ASSERT_TRUE(r.ok()) << r.status;
    const Value* replicas = At(r.object, {"spec", "replicas"});
    ASSERT_NE(replicas, nullptr);
    EXPECT_TRUE(replicas->IsInt()) << ToJson(*replicas);
    EXPECT_EQ(ToJson(*replicas), "2");
  }
  config.map().Find("spec")->map().Set("replicas", Value(2.5));
  FieldManagerResult applied = fm.Apply(Value(), config, "kubectl", false);
  EXPECT_EQ(applied.kind, ErrorKind::kInternal);
  EXPECT_EQ(applied.status.message(),
            "failed to convert new object (default/web; apps/v1, "
            "Kind=Deployment) to proper version: unable to convert "
            "unstructured object to apps/v1, Kind=Deployment: .spec.replicas: "
            "cannot convert float64 2.5 to int32");
  FieldManagerResult updated = fm.Update(Value(), config, "kubectl");
  EXPECT_EQ(updated.kind, ErrorKind::kBadRequest);
  EXPECT_EQ(updated.status.message(),
            "Deployment in version \"v1\" cannot be handled as a Deployment: "
            "json: cannot unmarshal number 2.5 into Go struct field "
            "DeploymentSpec.spec.replicas of type int32");
  // An int32 out of range: the apply's converter wraps it around (and 2 is
  // stored), the update's encoding/json refuses it.
  config.map().Find("spec")->map().Set("replicas", Value(int64_t{4294967298}));
  applied = fm.Apply(Value(), config, "kubectl", false);
  ASSERT_TRUE(applied.ok()) << applied.status;
  EXPECT_EQ(ToJson(*At(applied.object, {"spec", "replicas"})), "2");
  EXPECT_EQ(fm.Update(Value(), config, "kubectl").kind,
            ErrorKind::kBadRequest);
}

// An update's body is decoded into the Go types first: a value of another
// JSON kind than its Go type takes is the apiserver's 400, in encoding/json's
// words, and nothing is stored (smdx used to store it with the live
// managedFields, as for an object the Go types hold but SMD refuses).
// Checked against kube-apiserver 1.37 by POST. Values that decode
// themselves (IntOrString, Quantity) take either kind.
TEST_F(BuiltinDefaultsTest, AnUpdateOfAValueItsGoTypeCannotHoldIsRefused) {
  const struct {
    const char* api_version;
    const char* kind;
    const char* body;
    const char* message;
  } kCases[] = {
      {"v1", "ConfigMap",
       R"({apiVersion: v1, kind: ConfigMap, metadata: {name: c},
           data: {a: 1}})",
       "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: json: "
       "cannot unmarshal number into Go struct field ConfigMap.data of type "
       "string"},
      {"apps/v1", "Deployment",
       R"({apiVersion: apps/v1, kind: Deployment, metadata: {name: d},
           spec: {replicas: "2", template: {spec: {containers: [{name: c,
           env: [{name: A, value: true}]}]}}}})",
       "Deployment in version \"v1\" cannot be handled as a Deployment: "
       "json: cannot unmarshal string into Go struct field "
       "DeploymentSpec.spec.replicas of type int32"},
      {"apps/v1", "Deployment",
       R"({apiVersion: apps/v1, kind: Deployment, metadata: {name: d},
           spec: {template: {spec: {containers: {name: c}}}}})",
       "Deployment in version \"v1\" cannot be handled as a Deployment: "
       "json: cannot unmarshal object into Go struct field "
       "PodSpec.spec.template.spec.containers of type []v1.Container"},
      {"v1", "Pod",
       R"({apiVersion: v1, kind: Pod, metadata: {name: p, labels: {a: true}}})",
       "Pod in version \"v1\" cannot be handled as a Pod: json: cannot "
       "unmarshal bool into Go struct field ObjectMeta.metadata.labels of "
       "type string"},
      // Decoded before the defaulters run: the rule that makes the
      // deprecated serviceAccount follow serviceAccountName would drop
      // this one (random seed 10, by kubectl's client-side create).
      {"v1", "Pod",
       R"({apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {
           serviceAccountName: 5, containers: [{name: c, image: i}]}})",
       "Pod in version \"v1\" cannot be handled as a Pod: json: cannot "
       "unmarshal number into Go struct field PodSpec.spec.serviceAccountName "
       "of type string"},
      // A zero-like value of another kind, where a default would go.
      {"v1", "Pod",
       R"({apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {
           containers: [{name: c, image: i, terminationMessagePath: false}]}})",
       "Pod in version \"v1\" cannot be handled as a Pod: json: cannot "
       "unmarshal bool into Go struct field "
       "Container.spec.containers.terminationMessagePath of type string"},
      // The first in the body's order, an element before a later field.
      {"v1", "Pod",
       R"({apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers:
           [{name: c, args: [a, 1], livenessProbe: x}]}})",
       "Pod in version \"v1\" cannot be handled as a Pod: json: cannot "
       "unmarshal number into Go struct field Container.spec.containers.args "
       "of type string"},
  };
  for (const auto& c : kCases) {
    FieldManager fm = Make(c.api_version, c.kind);
    FieldManagerResult r = fm.Update(Value(), Yaml(c.body), "m");
    EXPECT_EQ(r.kind, ErrorKind::kBadRequest) << c.body;
    EXPECT_EQ(r.status.message(), c.message);
    EXPECT_TRUE(r.object.IsNull());
  }
  // A time decodes itself from a string alone: an update's 400 names the
  // field; an apply's merged object meets the converter, whose 500 names
  // no field (smdx adds the path).
  FieldManager lease = Make("coordination.k8s.io/v1", "Lease");
  const char* kLease = R"({apiVersion: coordination.k8s.io/v1, kind: Lease,
      metadata: {name: l, namespace: default}, spec: {acquireTime: 7}})";
  FieldManagerResult updated = lease.Update(Value(), Yaml(kLease), "m");
  EXPECT_EQ(updated.kind, ErrorKind::kBadRequest);
  EXPECT_EQ(updated.status.message(),
            "Lease in version \"v1\" cannot be handled as a Lease: json: "
            "cannot unmarshal number into Go struct field "
            "LeaseSpec.spec.acquireTime of type string");
  FieldManagerResult applied = lease.Apply(Value(), Yaml(kLease), "m", false);
  EXPECT_EQ(applied.kind, ErrorKind::kInternal);
  EXPECT_EQ(applied.status.message(),
            "failed to convert new object (default/l; coordination.k8s.io/v1, "
            "Kind=Lease) to proper version: unable to convert unstructured "
            "object to coordination.k8s.io/v1, Kind=Lease: "
            ".spec.acquireTime: json: cannot unmarshal number into Go value "
            "of type string");
  // IntOrString and Quantity take strings and numbers.
  FieldManager fm = Make("apps/v1", "Deployment");
  FieldManagerResult r = fm.Update(
      Value(), Yaml(R"({apiVersion: apps/v1, kind: Deployment,
        metadata: {name: d}, spec: {strategy: {rollingUpdate:
        {maxSurge: "25%", maxUnavailable: 1}}, template: {spec: {containers:
        [{name: c, resources: {requests: {cpu: 1, memory: 1Gi}}}]}}}})"),
      "m");
  EXPECT_TRUE(r.ok()) << r.status;
}

// metadata.generation: 1 at create, one more at each write that changes
// the spec (the registry's BeforeUpdate and the strategy), nobody's.
TEST_F(BuiltinDefaultsTest, GenerationCountsSpecChanges) {
  FieldManager fm = Make("apps/v1", "Deployment");
  FieldManagerResult created = fm.Apply(Value(), Yaml(kDeployment), "kubectl",
                                        false);
  ASSERT_TRUE(created.ok()) << created.status;
  EXPECT_EQ(ToJson(*At(created.object, {"metadata", "generation"})), "1");
  Value config = Yaml(kDeployment);
  config.map().Find("spec")->map().Set("replicas", Value(int64_t{5}));
  FieldManagerResult scaled = fm.Apply(created.object, config, "kubectl", false);
  ASSERT_TRUE(scaled.ok()) << scaled.status;
  EXPECT_EQ(ToJson(*At(scaled.object, {"metadata", "generation"})), "2");
  EXPECT_EQ(FieldsOf(scaled.object, "kubectl").find("generation"),
            std::string::npos);
  FieldManagerResult again = fm.Apply(scaled.object, config, "kubectl", false);
  ASSERT_TRUE(again.ok()) << again.status;
  EXPECT_FALSE(again.changed);
  EXPECT_EQ(ToJson(*At(again.object, {"metadata", "generation"})), "2");
}

// A NetworkPolicy's strategy compares its spec with reflect.DeepEqual, so
// an apply or update whose spec holds an empty list counts as a change each
// time: storage reads the list back nil. Checked against kube-apiserver 1.37
// (three applies of the same configuration: generations 2, 3 and 4).
TEST_F(BuiltinDefaultsTest, EmptyListsChangeAReflectComparedSpecEachTime) {
  FieldManager fm = Make("networking.k8s.io/v1", "NetworkPolicy");
  const char* kPolicy = R"(apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: np, namespace: default}
spec:
  podSelector: {matchLabels: {app: a}}
  ingress: [{from: [{podSelector: {matchLabels: {app: b}}}]}]
)";
  FieldManagerResult live = fm.Apply(Value(), Yaml(kPolicy), "m", false);
  ASSERT_TRUE(live.ok()) << live.status;
  Value config = Yaml(kPolicy);
  config.map().Find("spec")->map().Set("egress", Value::MakeList());
  for (const char* generation : {"2", "3"}) {
    live = fm.Apply(live.object, config, "m", false);
    ASSERT_TRUE(live.ok()) << live.status;
    EXPECT_EQ(ToJson(*At(live.object, {"metadata", "generation"})),
              generation);
    EXPECT_EQ(At(live.object, {"spec", "egress"}), nullptr);
  }
  FieldManagerResult updated = fm.Update(live.object, config, "m");
  ASSERT_TRUE(updated.ok()) << updated.status;
  EXPECT_EQ(ToJson(*At(updated.object, {"metadata", "generation"})), "4");
  // Without the empty list, nothing changed.
  updated = fm.Update(updated.object, Yaml(kPolicy), "m");
  ASSERT_TRUE(updated.ok()) << updated.status;
  EXPECT_EQ(ToJson(*At(updated.object, {"metadata", "generation"})), "4");
}

TEST_F(BuiltinDefaultsTest, ACreateByApplyOwnsOnlyTheConfiguration) {
  FieldManager fm = Make("apps/v1", "Deployment");
  FieldManagerResult r = fm.Apply(Value(), Yaml(kDeployment), "kubectl", false);
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_EQ(
      ToJsonSorted(*At(r.object, {"spec", "template", "spec", "containers"})),
      ToJsonSorted(Yaml(R"([{name: web, image: "nginx:1.27", resources: {},
      terminationMessagePath: /dev/termination-log,
      terminationMessagePolicy: File, imagePullPolicy: IfNotPresent}])")));
  EXPECT_EQ(FieldsOf(r.object, "kubectl"),
            ToJsonSorted(Yaml(R"({"f:spec": {"f:selector": {}, "f:template": {
      "f:metadata": {"f:labels": {"f:app": {}}},
      "f:spec": {"f:containers": {"k:{\"name\":\"web\"}": {
        ".": {}, "f:image": {}, "f:name": {}}}}}}})")));
  // No before-first-apply entry: the zero object has nothing to record.
  EXPECT_EQ(r.managed.fields.size(), 1u);
}

TEST_F(BuiltinDefaultsTest, TheSwitchGivesTheBareMerge) {
  FieldManager fm = Make("apps/v1", "Deployment", /*builtin=*/false);
  FieldManagerResult r =
      fm.Update(Value(), Yaml(kDeployment), "kubectl-create");
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_EQ(Find(*Find(r.object, "spec"), "revisionHistoryLimit"), nullptr);
  EXPECT_EQ(FieldsOf(r.object, "kubectl-create").find("revisionHistoryLimit"),
            std::string::npos);
}

// A re-apply of a configuration that leaves out a default inside an atomic
// field (a fieldRef's apiVersion) changes the merged object, and defaulting
// changes it back: the registry keeps the live times
// (IgnoreManagedFieldsTimestampsTransformer).
TEST_F(BuiltinDefaultsTest, AWriteThatChangesOnlyTimesKeepsTheLiveTimes) {
  const std::string config = R"(
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  containers:
  - name: a
    image: busybox:1.36
    env:
    - {name: NODE, valueFrom: {fieldRef: {fieldPath: spec.nodeName}}}
)";
  FieldManager fm = Make("v1", "Pod");
  FieldManagerResult created =
      fm.Apply(Value(), Yaml(config), "kubectl", false);
  ASSERT_TRUE(created.ok()) << created.status;
  clock_.Set(*ParseManagedTime("2026-01-01T00:05:00Z"));
  FieldManagerResult again =
      fm.Apply(created.object, Yaml(config), "kubectl", /*force=*/true);
  ASSERT_TRUE(again.ok()) << again.status;
  EXPECT_FALSE(again.changed);
  EXPECT_TRUE(Equals(again.object, created.object)) << ToYaml(again.object);

  // The bare merge has no such rule to apply: nothing changes either.
  FieldManager bare = Make("v1", "Pod", /*builtin=*/false);
  FieldManagerResult b = bare.Apply(Value(), Yaml(config), "kubectl", false);
  ASSERT_TRUE(b.ok());
  EXPECT_FALSE(bare.Apply(b.object, Yaml(config), "kubectl", true).changed);
}

// A PUT whose body leaves out the creationTimestamp and the managedFields
// times it read changes nothing: the registry keeps the live
// creationTimestamp (BeforeUpdate), and then, the object otherwise the
// same, the live times. Found by the random scenarios against
// kube-apiserver 1.37 (a VolumeAttributesClass).
TEST_F(BuiltinDefaultsTest, APutWithoutTheServersMetadataAndTimesChangesNothing) {
  FieldManager fm = Make("v1", "ConfigMap");
  FieldManagerResult created = fm.Apply(
      Value(),
      Yaml("{apiVersion: v1, kind: ConfigMap, metadata: {name: c, "
           "namespace: d}, data: {a: '1'}}"),
      "kubectl", false);
  ASSERT_TRUE(created.ok()) << created.status;
  Value live = created.object;
  Map& meta = live.map().Find("metadata")->map();
  meta.Set("uid", Value("u-1"));
  meta.Set("resourceVersion", Value("7"));
  meta.Set("creationTimestamp", Value("2026-01-01T00:00:00Z"));
  Value body = live;
  Map& body_meta = body.map().Find("metadata")->map();
  body_meta.Erase("creationTimestamp");
  body_meta.Erase("resourceVersion");
  for (Value& e : body_meta.Find("managedFields")->list()) e.map().Erase("time");
  clock_.Set(*ParseManagedTime("2026-01-01T00:05:00Z"));
  FieldManagerResult r = fm.Update(live, body, "ctrl2");
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_FALSE(r.changed);
  EXPECT_TRUE(Equals(r.object, live)) << ToYaml(r.object);

  // With a change, the live metadata stays all the same, and the entries
  // keep the times the body left out no more than the apiserver does.
  body.map().Find("data")->map().Set("a", Value("2"));
  r = fm.Update(live, body, "ctrl2");
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_TRUE(r.changed);
  const Value& m = *Find(r.object, "metadata");
  EXPECT_EQ(StringAt(m, "uid"), "u-1");
  EXPECT_EQ(StringAt(m, "resourceVersion"), "7");
  EXPECT_EQ(StringAt(m, "creationTimestamp"), "2026-01-01T00:00:00Z");
}

// A CRD's JSON values keep their Go types through a PUT and lose them
// through an apply, as kube-apiserver 1.37 does (the real-apiserver corpus,
// customresourcedefinition.yaml's writes): a PUT of `default: 1.0` where
// `1` is stored counts a generation every time and stores `1`; an apply of
// the same goes through the unstructured converter, which writes the
// float as `1`, and counts none.
TEST_F(BuiltinDefaultsTest, ACrdsFloatCountsThroughAPutAndNotAnApply) {
  FieldManager fm = Make("apiextensions.k8s.io/v1", "CustomResourceDefinition");
  auto crd = [](const char* number) {
    return Yaml(absl::StrCat(
        "{apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition,"
        " metadata: {name: gizmos.example.com}, spec: {group: example.com,"
        " scope: Namespaced, names: {plural: gizmos, kind: Gizmo},"
        " versions: [{name: v1, served: true, storage: true, schema: {"
        "openAPIV3Schema: {type: object, properties: {size: {type: number,"
        " default: ",
        number, "}}}}}]}}"));
  };
  auto size_default = [](const Value& v) {
    const Value* at = Find(v, "spec");
    at = &Find(*at, "versions")->list()[0];
    for (const char* f : {"schema", "openAPIV3Schema", "properties", "size"})
      at = Find(*at, f);
    return *Find(*at, "default");
  };
  FieldManagerResult created = fm.Apply(Value(), crd("1.0"), "kubectl", false);
  ASSERT_TRUE(created.ok()) << created.status;
  EXPECT_TRUE(size_default(created.object).IsInt());
  EXPECT_EQ(ToJson(*At(created.object, {"metadata", "generation"})), "1");

  Value live = created.object;
  for (int generation : {2, 3}) {
    Value body = live;
    Value number = crd("1.0");
    body.map().Set("spec", *Find(number, "spec"));
    FieldManagerResult put = fm.Update(live, body, "ctrl");
    ASSERT_TRUE(put.ok()) << put.status;
    EXPECT_TRUE(put.changed);
    EXPECT_EQ(ToJson(*At(put.object, {"metadata", "generation"})),
              std::to_string(generation));
    EXPECT_TRUE(size_default(put.object).IsInt());
    live = put.object;
  }
  FieldManagerResult applied = fm.Apply(live, crd("1.0"), "kubectl", false);
  ASSERT_TRUE(applied.ok()) << applied.status;
  EXPECT_EQ(ToJson(*At(applied.object, {"metadata", "generation"})), "3");
  EXPECT_TRUE(size_default(applied.object).IsInt());
  // An integer written over the stored integer counts nothing either.
  Value body = live;
  body.map().Set("spec", *Find(crd("1"), "spec"));
  FieldManagerResult same = fm.Update(live, body, "ctrl");
  ASSERT_TRUE(same.ok()) << same.status;
  EXPECT_EQ(ToJson(*At(same.object, {"metadata", "generation"})), "3");
}

// A status write of a pod decodes the body too: unset condition times are
// null, as the Go type encodes them.
TEST_F(BuiltinDefaultsTest, AStatusWriteIsDecoded) {
  FieldManager fm = Make("v1", "Pod");
  FieldManagerResult created = fm.Update(
      Value(),
      Yaml("{apiVersion: v1, kind: Pod, metadata: {name: p, namespace: d}, "
           "spec: {containers: [{name: a, image: 'a:1'}]}}"),
      "kubectl-create");
  ASSERT_TRUE(created.ok()) << created.status;
  EXPECT_EQ(ToJsonSorted(*Find(created.object, "status")),
            ToJsonSorted(Yaml("{phase: Pending, qosClass: BestEffort}")));
  FieldManager status = Make("v1", "Pod", true, "status");
  Value body = created.object;
  body.map().Set("status", Yaml("{phase: Running, conditions: [{type: Ready, "
                                "status: 'True'}]}"));
  FieldManagerResult r = status.Update(created.object, body, "kubelet");
  ASSERT_TRUE(r.ok()) << r.status;
  const Value* cond = &(*At(r.object, {"status", "conditions"})).list()[0];
  ASSERT_NE(Find(*cond, "lastProbeTime"), nullptr);
  EXPECT_TRUE(Find(*cond, "lastProbeTime")->IsNull());
}

// The apiserver stores built-in kinds as protobuf, which keeps no empty
// list: an EndpointSlice's `endpoints: []` (no omitempty) is stored and
// read back null, whoever wrote it. Ownership is of the body as written: a
// PUT of [] where the object has null changes the field, and the writer
// owns it.
TEST_F(BuiltinDefaultsTest, AnEmptyListIsStoredNullAndItsWriterOwnsIt) {
  const std::string slice = R"(
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: s, namespace: default}
addressType: IPv4
endpoints: [{addresses: [10.0.0.1]}]
)";
  FieldManager fm = Make("discovery.k8s.io/v1", "EndpointSlice");
  FieldManagerResult created = fm.Update(Value(), Yaml(slice), "create");
  ASSERT_TRUE(created.ok()) << created.status;
  Value body = created.object;
  body.map().Set("endpoints", Value::MakeList());
  FieldManagerResult emptied = fm.Update(created.object, body, "ctrl");
  ASSERT_TRUE(emptied.ok()) << emptied.status;
  EXPECT_EQ(ToJson(*Find(emptied.object, "endpoints")), "null");
  EXPECT_EQ(FieldsOf(emptied.object, "ctrl"), R"({"f:endpoints":{}})");
  // Again, by another writer: null to [] is a change the field manager
  // sees, and null is what is stored.
  body = emptied.object;
  body.map().Set("endpoints", Value::MakeList());
  FieldManagerResult again = fm.Update(emptied.object, body, "ctrl2");
  ASSERT_TRUE(again.ok()) << again.status;
  EXPECT_EQ(ToJson(*Find(again.object, "endpoints")), "null");
  EXPECT_EQ(FieldsOf(again.object, "ctrl2"), R"({"f:endpoints":{}})");
  EXPECT_EQ(FieldsOf(again.object, "ctrl"), "");
  // An apply of [] stores null too.
  FieldManagerResult applied = fm.Apply(
      created.object,
      Yaml("{apiVersion: discovery.k8s.io/v1, kind: EndpointSlice, "
           "metadata: {name: s, namespace: default}, endpoints: []}"),
      "kubectl", /*force=*/true);
  ASSERT_TRUE(applied.ok()) << applied.status;
  EXPECT_EQ(ToJson(*Find(applied.object, "endpoints")), "null");
  // A create with [] as well.
  Value created_empty = Yaml(slice);
  created_empty.map().Set("endpoints", Value::MakeList());
  FieldManagerResult c = fm.Update(Value(), created_empty, "create");
  ASSERT_TRUE(c.ok()) << c.status;
  EXPECT_EQ(ToJson(*Find(c.object, "endpoints")), "null");
}

// An update whose body does not fit the schema (a keyed list's item
// without its key) fails in the field manager; the apiserver stores the
// body anyway, with the live object's managedFields as they were
// (UpdateNoErrors). The bare field manager refuses it.
TEST_F(BuiltinDefaultsTest, AnUpdateTheFieldManagerCannotTakeKeepsTheLiveEntries) {
  FieldManager fm = Make("v1", "ServiceAccount");
  FieldManagerResult created = fm.Update(
      Value(),
      Yaml("{apiVersion: v1, kind: ServiceAccount, metadata: {name: sa, "
           "namespace: default}, secrets: [{name: a}]}"),
      "create");
  ASSERT_TRUE(created.ok()) << created.status;
  clock_.Set(*ParseManagedTime("2026-01-01T00:05:00Z"));
  Value body = created.object;
  body.map().Set("secrets", Yaml("[{namespace: x}]"));
  FieldManagerResult r = fm.Update(created.object, body, "ctrl");
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_TRUE(r.changed);
  // (Stored as its strategy leaves it: a secret reference keeps its name
  // alone, here none.)
  EXPECT_EQ(ToJson(*Find(r.object, "secrets")), R"([{}])");
  EXPECT_TRUE(Identical(*FindManagedFields(r.object),
                        *FindManagedFields(created.object)));
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("omits all key fields"), std::string::npos)
      << r.warnings[0];

  FieldManager bare = Make("v1", "ServiceAccount", /*builtin=*/false);
  EXPECT_EQ(bare.Update(created.object, body, "ctrl").kind,
            ErrorKind::kInvalid);

  // Live entries that do not decode (which no apiserver holds) cannot be
  // kept as they are: the update fails, naming both problems (found by
  // field_manager_fuzzer).
  Value entries = *FindManagedFields(created.object);
  entries.list()[0].map().Set("extra", Value(int64_t{1}));
  Value garbled = created.object;
  garbled.map().Find("metadata")->map().Set("managedFields", entries);
  FieldManagerResult g = fm.Update(garbled, body, "ctrl");
  ASSERT_EQ(g.kind, ErrorKind::kInvalid) << g.status;
  EXPECT_NE(g.status.message().find("omits all key fields"),
            std::string::npos)
      << g.status;
  EXPECT_NE(g.status.message().find("managedFields, which the object would "
                                    "be stored with, are invalid: "),
            std::string::npos)
      << g.status;
}

// A Job created without labels has its template's, with what the
// strategy's generated selector adds to them (the Go defaulter makes the
// two one map), whether the create is a POST or an apply; a Job created
// with labels keeps its own. (The uid labels are the server's.)
TEST_F(BuiltinDefaultsTest, AJobCreatedWithoutLabelsSharesItsTemplates) {
  FieldManager fm = Make("batch/v1", "Job");
  const std::string job = R"({apiVersion: batch/v1, kind: Job,
    metadata: {name: j, namespace: default},
    spec: {template: {metadata: {labels: {app: a}},
                      spec: {restartPolicy: Never,
                             containers: [{name: c, image: busybox}]}}}})";
  const std::string generated =
      R"({"app":"a","batch.kubernetes.io/job-name":"j","job-name":"j"})";
  auto labels = [](const FieldManagerResult& r) {
    const Value* l = Find(*Find(r.object, "metadata"), "labels");
    return l == nullptr ? std::string("<none>") : ToJsonSorted(*l);
  };
  FieldManagerResult posted = fm.Update(Value(), Yaml(job), "create");
  ASSERT_TRUE(posted.ok()) << posted.status;
  EXPECT_EQ(labels(posted), generated);
  FieldManagerResult applied = fm.Apply(Value(), Yaml(job), "kubectl", false);
  ASSERT_TRUE(applied.ok()) << applied.status;
  EXPECT_EQ(labels(applied), generated);

  Value own = Yaml(job);
  own.map().Find("metadata")->map().Set("labels", Yaml("{app: a}"));
  FieldManagerResult labelled = fm.Update(Value(), own, "create");
  ASSERT_TRUE(labelled.ok()) << labelled.status;
  EXPECT_EQ(labels(labelled), R"({"app":"a"})");
}

// Custom resources are not built-in: the switch changes nothing for them.
TEST_F(BuiltinDefaultsTest, CustomResourcesAreUnaffected) {
  absl::StatusOr<Type> deduced = Type::Named(DeducedSchema(), kDeducedTypeName);
  ASSERT_TRUE(deduced.ok());
  FieldManagerOptions o;
  o.api_version = "example.com/v1";
  o.kind = "Widget";
  o.clock = &clock_;
  o.builtin_defaults = true;
  FieldManager fm = *FieldManager::Create(*deduced, o);
  Value w = Yaml(
      "{apiVersion: example.com/v1, kind: Widget, metadata: {name: w}, spec: "
      "{a: 1}}");
  FieldManagerResult r = fm.Update(Value(), w, "m");
  ASSERT_TRUE(r.ok());
  Value stripped = StripManagedFields(r.object);
  EXPECT_TRUE(Equals(stripped, w)) << ToYaml(stripped);
}

// Every read of an ExternalName Service leaves out its internalTrafficPolicy,
// which storage keeps where a write changed the type and carried it over
// (defaultOnReadInternalTrafficPolicy). An update compares its body with
// storage's object: a PUT of what a read gave takes the field from its
// owner. smdx, given the read, takes an owner's entry as the sign that
// storage holds it. Found by the corpus's service-loadbalancer.yaml against
// kube-apiserver 1.37.
TEST_F(BuiltinDefaultsTest, AReadHidesAnExternalNameServicesTrafficPolicy) {
  FieldManager fm = Make("v1", "Service");
  FieldManagerResult created = fm.Update(Value(), Yaml(R"({apiVersion: v1,
      kind: Service, metadata: {name: s, namespace: d}, spec: {type: ClusterIP,
      ports: [{port: 80}]}})"), "creator");
  ASSERT_TRUE(created.ok()) << created.status;
  EXPECT_NE(FieldsOf(created.object, "creator").find("internalTrafficPolicy"),
            std::string::npos);
  Value external = created.object;
  Map& spec = external.map().Find("spec")->map();
  spec.Set("type", Value("ExternalName"));
  spec.Set("externalName", Value("a.example"));
  FieldManagerResult changed = fm.Update(created.object, external, "ctrl");
  ASSERT_TRUE(changed.ok()) << changed.status;
  EXPECT_EQ(At(changed.object, {"spec", "internalTrafficPolicy"}), nullptr);
  // The creator still owns it: it is stored.
  EXPECT_NE(FieldsOf(changed.object, "creator").find("internalTrafficPolicy"),
            std::string::npos);
  Value read = changed.object;
  read.map().Find("metadata")->map().Set(
      "annotations", Yaml("{example.com/step: '4'}"));
  FieldManagerResult put = fm.Update(changed.object, read, "ctrl2");
  ASSERT_TRUE(put.ok()) << put.status;
  EXPECT_EQ(FieldsOf(put.object, "creator").find("internalTrafficPolicy"),
            std::string::npos)
      << FieldsOf(put.object, "creator");
  EXPECT_EQ(At(put.object, {"spec", "internalTrafficPolicy"}), nullptr);
}

}  // namespace
// ---- A Pod's resize and ephemeralcontainers, a Namespace's finalize ------

constexpr char kResizedPod[] = R"(
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default, labels: {app: web}}
spec:
  automountServiceAccountToken: false
  initContainers:
  - name: side
    image: busybox:1.36
    restartPolicy: Always
    resources: {requests: {cpu: 50m, memory: 64Mi}, limits: {memory: 64Mi}}
  containers:
  - name: c
    image: nginx:1.27
    resources: {requests: {cpu: 100m}, limits: {cpu: 200m}}
  - name: d
    image: nginx:1.27
)";

// kube-apiserver 1.37's answers, by apply to pods/resize and then to
// pods/ephemeralcontainers (by hand, against the server realapi serve
// starts): their strategies keep the live pod but what the endpoint
// changes, and the labels and annotations (ResetObjectMetaForStatus), and
// count the generation; their field managers reset nothing, since their
// REST storage offers no reset fields, so the writer owns all it sent,
// the labels and image the strategy dropped included, and conflicts on
// them.
TEST_F(BuiltinDefaultsTest, AResizeOrAnEphemeralContainerChangesOnlyThat) {
  FieldManager pods = Make("v1", "Pod");
  FieldManagerResult created = pods.Apply(Value(), Yaml(kResizedPod),
                                          "kubectl", false);
  ASSERT_TRUE(created.ok()) << created.status;
  const Value resize = Yaml(R"(
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default, labels: {x: "z"}}
spec:
  containers:
  - name: c
    image: busybox:1.36
    resources: {requests: {cpu: 150m}, limits: {cpu: 300m}}
)");
  FieldManager resizer = Make("v1", "Pod", true, "resize");
  FieldManagerResult refused =
      resizer.Apply(created.object, resize, "vpa", false);
  ASSERT_EQ(refused.conflicts.size(), 3u) << refused.status;
  EXPECT_EQ(KubernetesConflictMessage(refused.conflicts),
            "Apply failed with 3 conflicts: conflicts with \"kubectl\":\n"
            "- .spec.containers[name=\"c\"].image\n"
            "- .spec.containers[name=\"c\"].resources.limits.cpu\n"
            "- .spec.containers[name=\"c\"].resources.requests.cpu");
  clock_.Set(*ParseManagedTime("2026-01-01T00:01:00Z"));
  FieldManagerResult resized =
      resizer.Apply(created.object, resize, "vpa", true);
  ASSERT_TRUE(resized.ok()) << resized.status;
  EXPECT_EQ(ToJsonSorted(*At(resized.object, {"metadata", "labels"})),
            R"({"app":"web"})");
  EXPECT_EQ(ToJson(*At(resized.object, {"metadata", "generation"})), "2");
  const Value& c = At(resized.object, {"spec", "containers"})->list()[0];
  EXPECT_EQ(StringAt(c, "image"), "nginx:1.27");
  EXPECT_EQ(ToJsonSorted(*Find(c, "resources")),
            R"({"limits":{"cpu":"300m"},"requests":{"cpu":"150m"}})");
  EXPECT_EQ(FieldsOf(resized.object, "vpa"),
            R"({"f:metadata":{"f:labels":{"f:x":{}}},"f:spec":{)"
            R"("f:containers":{"k:{\"name\":\"c\"}":{".":{},"f:image":{},)"
            R"("f:name":{},"f:resources":{"f:limits":{"f:cpu":{}},)"
            R"("f:requests":{"f:cpu":{}}}}}}})");
  EXPECT_EQ(FieldsOf(resized.object, "kubectl"),
            R"({"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{)"
            R"("f:automountServiceAccountToken":{},"f:containers":{)"
            R"("k:{\"name\":\"c\"}":{".":{},"f:name":{}},)"
            R"("k:{\"name\":\"d\"}":{".":{},"f:image":{},"f:name":{}}},)"
            R"("f:initContainers":{"k:{\"name\":\"side\"}":{".":{},)"
            R"("f:image":{},"f:name":{},"f:resources":{"f:limits":{)"
            R"("f:memory":{}},"f:requests":{"f:cpu":{},"f:memory":{}}},)"
            R"("f:restartPolicy":{}}}}})");
  const Value* entries = FindManagedFields(resized.object);
  ASSERT_NE(entries, nullptr);
  EXPECT_EQ(StringAt(entries->list()[1], "subresource"), "resize");

  const Value debug = Yaml(R"(
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default, labels: {dbg: "yes"},
  annotations: {note: a}}
spec:
  containers:
  - name: c
    image: busybox:1.36
  ephemeralContainers:
  - {name: debug, image: "busybox:1.36", targetContainerName: c, stdin: true}
)");
  FieldManager debugger = Make("v1", "Pod", true, "ephemeralcontainers");
  FieldManagerResult unforced =
      debugger.Apply(resized.object, debug, "dbg", false);
  EXPECT_EQ(KubernetesConflictMessage(unforced.conflicts),
            "Apply failed with 1 conflict: conflict with \"vpa\" with "
            "subresource \"resize\": .spec.containers[name=\"c\"].image");
  FieldManagerResult debugged =
      debugger.Apply(resized.object, debug, "dbg", true);
  ASSERT_TRUE(debugged.ok()) << debugged.status;
  EXPECT_EQ(ToJsonSorted(*At(debugged.object, {"metadata", "labels"})),
            R"({"app":"web"})");
  EXPECT_EQ(At(debugged.object, {"metadata", "annotations"}), nullptr);
  EXPECT_EQ(ToJson(*At(debugged.object, {"metadata", "generation"})), "3");
  EXPECT_EQ(ToJsonSorted(*At(debugged.object, {"spec", "ephemeralContainers"})),
            R"([{"image":"busybox:1.36","imagePullPolicy":"IfNotPresent",)"
            R"("name":"debug","resources":{},"stdin":true,)"
            R"("targetContainerName":"c",)"
            R"("terminationMessagePath":"/dev/termination-log",)"
            R"("terminationMessagePolicy":"File"}])");
  EXPECT_EQ(StringAt(At(debugged.object, {"spec", "containers"})->list()[0],
                     "image"),
            "nginx:1.27");
  EXPECT_EQ(FieldsOf(debugged.object, "dbg"),
            R"({"f:metadata":{"f:annotations":{"f:note":{}},"f:labels":{)"
            R"("f:dbg":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"c\"}":{)"
            R"(".":{},"f:image":{},"f:name":{}}},"f:ephemeralContainers":{)"
            R"("k:{\"name\":\"debug\"}":{".":{},"f:image":{},"f:name":{},)"
            R"("f:stdin":{},"f:targetContainerName":{}}}}})");
}

// A PUT to pods/resize (as the server answered it): the image and label it
// changes stay as they were, though its writer owns them; the pod-level
// resources it left out are the live pod's, and their owner, whose fields
// the PUT removed, loses its entry.
TEST_F(BuiltinDefaultsTest, AResizeKeepsThePodLevelResourcesItLeftOut) {
  FieldManager pods = Make("v1", "Pod");
  FieldManagerResult created = pods.Apply(Value(), Yaml(R"(
apiVersion: v1
kind: Pod
metadata: {name: q, namespace: default, labels: {app: q}}
spec:
  automountServiceAccountToken: false
  resources: {requests: {cpu: 500m}, limits: {cpu: "1"}}
  containers:
  - name: c
    image: nginx:1.27
    resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {memory: 64Mi}}
)"), "kubectl", false);
  ASSERT_TRUE(created.ok()) << created.status;
  // Pod-level memory completed from the container's at create.
  EXPECT_EQ(ToJsonSorted(*At(created.object, {"spec", "resources"})),
            R"({"limits":{"cpu":"1","memory":"64Mi"},)"
            R"("requests":{"cpu":"500m","memory":"64Mi"}})");
  FieldManager resizer = Make("v1", "Pod", true, "resize");
  FieldManagerResult limited = resizer.Apply(created.object, Yaml(R"(
apiVersion: v1
kind: Pod
metadata: {name: q, namespace: default}
spec:
  resources: {limits: {cpu: "2", memory: 256Mi}}
)"), "vpa", true);
  ASSERT_TRUE(limited.ok()) << limited.status;
  EXPECT_EQ(ToJsonSorted(*At(limited.object, {"spec", "resources"})),
            R"({"limits":{"cpu":"2","memory":"256Mi"},)"
            R"("requests":{"cpu":"500m","memory":"64Mi"}})");
  EXPECT_EQ(FieldsOf(limited.object, "vpa"),
            R"({"f:spec":{"f:resources":{"f:limits":{"f:cpu":{},)"
            R"("f:memory":{}}}}})");
  Value put = limited.object;
  Map& meta = put.map().Find("metadata")->map();
  meta.Find("labels")->map().Set("app", Value("changed"));
  Map& spec = put.map().Find("spec")->map();
  spec.Erase("resources");
  spec.Set("activeDeadlineSeconds", Value(int64_t{30}));
  Map& c = spec.Find("containers")->list()[0].map();
  c.Set("image", Value("busybox:1.36"));
  c.Set("resources", Yaml(R"({requests: {cpu: 200m, memory: 64Mi},
    limits: {memory: 64Mi}})"));
  FieldManagerResult r = resizer.Update(limited.object, put, "ctl");
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_EQ(ToJsonSorted(*At(r.object, {"metadata", "labels"})),
            R"({"app":"q"})");
  EXPECT_EQ(At(r.object, {"spec", "activeDeadlineSeconds"}), nullptr);
  EXPECT_EQ(ToJsonSorted(*At(r.object, {"spec", "resources"})),
            R"({"limits":{"cpu":"2","memory":"256Mi"},)"
            R"("requests":{"cpu":"500m","memory":"64Mi"}})");
  const Value& kept = At(r.object, {"spec", "containers"})->list()[0];
  EXPECT_EQ(StringAt(kept, "image"), "nginx:1.27");
  EXPECT_EQ(ToJsonSorted(*Find(kept, "resources")),
            R"({"limits":{"memory":"64Mi"},)"
            R"("requests":{"cpu":"200m","memory":"64Mi"}})");
  EXPECT_EQ(ToJson(*At(r.object, {"metadata", "generation"})), "3");
  EXPECT_EQ(FieldsOf(r.object, "vpa"), "");
  EXPECT_EQ(FieldsOf(r.object, "ctl"),
            R"({"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{)"
            R"("f:activeDeadlineSeconds":{},"f:containers":{)"
            R"("k:{\"name\":\"c\"}":{"f:image":{},"f:resources":{)"
            R"("f:requests":{"f:cpu":{}}}}}}})");
}

// A PUT to namespaces/finalize (as the server answered it) changes the
// finalizers, which the main resource keeps, and not the status.
TEST_F(BuiltinDefaultsTest, ANamespacesFinalizeChangesItsFinalizers) {
  FieldManager namespaces = Make("v1", "Namespace");
  FieldManagerResult created = namespaces.Apply(
      Value(), Yaml("{apiVersion: v1, kind: Namespace, metadata: {name: fin, "
                    "labels: {team: a}}}"),
      "kubectl", false);
  ASSERT_TRUE(created.ok()) << created.status;
  Value put = created.object;
  put.map().Find("spec")->map().Set("finalizers", Value::MakeList());
  put.map().Find("metadata")->map().Find("labels")->map().Set("team",
                                                              Value("b"));
  put.map().Set("status", Yaml("{phase: Terminating}"));
  // As the apiserver's endpoints reset fields.
  auto endpoint = [&](const std::string& subresource) {
    FieldManagerOptions o;
    o.api_version = "v1";
    o.kind = "Namespace";
    o.subresource = subresource;
    o.clock = &clock_;
    o.builtin_defaults = true;
    SetResetFields(BuiltinResetFields("v1", "Namespace", subresource), &o);
    absl::StatusOr<std::shared_ptr<const Schema>> schema = KubernetesSchema();
    return *FieldManager::Create(
        *Type::Named(*schema, "io.k8s.api.core.v1.Namespace"), o);
  };
  FieldManager finalizer = endpoint("finalize");
  FieldManagerResult r = finalizer.Update(created.object, put, "cleaner");
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_EQ(ToJsonSorted(*Find(r.object, "spec")), "{}");
  EXPECT_EQ(ToJsonSorted(*Find(r.object, "status")), R"({"phase":"Active"})");
  EXPECT_EQ(FieldsOf(r.object, "cleaner"),
            R"({"f:metadata":{"f:labels":{"f:team":{}}}})");
  EXPECT_EQ(FieldsOf(r.object, "kubectl"), "");
  // The main resource keeps them.
  FieldManagerResult kept =
      endpoint("").Update(created.object, put, "cleaner");
  ASSERT_TRUE(kept.ok()) << kept.status;
  EXPECT_EQ(ToJsonSorted(*Find(kept.object, "spec")),
            R"({"finalizers":["kubernetes"]})");
}

}  // namespace smdx
