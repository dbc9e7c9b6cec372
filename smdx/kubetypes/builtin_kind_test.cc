#include "smdx/kubetypes/builtin_kind.h"

#include "smdx/kubetypes/internal/go_types_data.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "smdx/kubetypes/internal/defaulters.h"
#include "smdx/kubetypes/internal/disabled_fields.h"
#include "smdx/kubetypes/internal/go_types.h"
#include "smdx/kubetypes/internal/quantity.h"
#include "smdx/kubetypes/internal/registry.h"
#include "smdx/schema/builtin.h"
#include "smdx/value/emit.h"
#include "smdx/value/parse.h"
#include "testing/test_util.h"

namespace smdx {
namespace {

using smdx::testing::Yaml;

std::shared_ptr<const BuiltinKind> KindOf(const std::string& api_version,
                                          const std::string& kind) {
  absl::StatusOr<std::shared_ptr<const Schema>> schema = KubernetesSchema();
  EXPECT_TRUE(schema.ok());
  absl::StatusOr<std::string> name =
      KubernetesTypeName(**schema, api_version, kind);
  EXPECT_TRUE(name.ok()) << name.status();
  absl::StatusOr<Type> type = Type::Named(*schema, *name);
  EXPECT_TRUE(type.ok());
  return BuiltinKind::For(*type, api_version, kind);
}

// `yaml` decoded as an object of api_version/kind.
Value Decoded(const std::string& api_version, const std::string& kind,
              const std::string& yaml) {
  std::shared_ptr<const BuiltinKind> k = KindOf(api_version, kind);
  EXPECT_NE(k, nullptr);
  if (k == nullptr) return Value();
  absl::Status error;
  Value v = k->Decode(Yaml(yaml), nullptr, nullptr, &error);
  EXPECT_TRUE(error.ok()) << error << "\n" << yaml;
  return v;
}

// The value at a dotted path ("spec.template.spec.dnsPolicy"; "containers.0"
// indexes a list), or nullptr.
const Value* ValueAt(const Value& v, const std::string& path) {
  const Value* at = &v;
  size_t start = 0;
  while (start <= path.size()) {
    size_t dot = path.find('.', start);
    std::string part = path.substr(
        start, dot == std::string::npos ? std::string::npos : dot - start);
    if (at->IsList()) {
      size_t i = std::stoul(part);
      if (i >= at->list().size()) return nullptr;
      at = &at->list()[i];
    } else {
      at = Find(*at, part);
      if (at == nullptr) return nullptr;
    }
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return at;
}

// The value at a dotted path, or "<absent>", as JSON (where a whole float
// reads as an integer: ValueAt tells them apart).
std::string At(const Value& v, const std::string& path) {
  const Value* at = ValueAt(v, path);
  return at == nullptr ? "<absent>" : ToJsonSorted(*at);
}

// `json` with its maps' keys sorted, to compare with At; "<absent>" as is.
std::string Canon(const std::string& json) {
  return json == "<absent>" ? json : ToJsonSorted(Yaml(json));
}

// ---- The Go types ---------------------------------------------------------

TEST(GoTypesTest, KnowsTheBuiltInStructs) {
  const internal::GoStruct* spec =
      internal::FindGoStruct("io.k8s.api.apps.v1.DeploymentSpec");
  ASSERT_NE(spec, nullptr);
  const internal::GoField* replicas = spec->Find("replicas");
  ASSERT_NE(replicas, nullptr);
  EXPECT_EQ(replicas->kind, internal::GoKind::kPointer);
  EXPECT_TRUE(replicas->omitempty);
  const internal::GoField* tmpl = spec->Find("template");
  ASSERT_NE(tmpl, nullptr);
  EXPECT_EQ(tmpl->kind, internal::GoKind::kStruct);
  EXPECT_FALSE(tmpl->omitempty);
  // ObjectMeta's creationTimestamp is omitzero: a zero time is left out.
  const internal::GoField* ts =
      internal::FindGoStruct("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")
          ->Find("creationTimestamp");
  ASSERT_NE(ts, nullptr);
  EXPECT_TRUE(ts->omitzero);
  EXPECT_EQ(internal::FindGoStruct("com.example.v1.Widget"), nullptr);
}

TEST(GoTypesTest, EmptinessFollowsEncodingJson) {
  using internal::GoKind;
  using internal::IsGoEmpty;
  EXPECT_TRUE(IsGoEmpty(GoKind::kString, Value("")));
  EXPECT_TRUE(IsGoEmpty(GoKind::kInt, Value(0)));
  EXPECT_TRUE(IsGoEmpty(GoKind::kBool, Value(false)));
  EXPECT_TRUE(IsGoEmpty(GoKind::kSlice, Value::MakeList()));
  EXPECT_TRUE(IsGoEmpty(GoKind::kMap, Value::MakeMap()));
  // A pointer is empty only when nil; a struct never is.
  EXPECT_FALSE(IsGoEmpty(GoKind::kPointer, Value(0)));
  EXPECT_FALSE(IsGoEmpty(GoKind::kPointer, Value::MakeMap()));
  EXPECT_TRUE(IsGoEmpty(GoKind::kPointer, Value()));
  EXPECT_FALSE(IsGoEmpty(GoKind::kStruct, Value::MakeMap()));
  EXPECT_FALSE(IsGoEmpty(GoKind::kMarshaler, Value()));
}

// Through the Go type: fields that are not omitempty get their zero values
// (a struct's zero object, null for slices and pointers, null for a zero
// metav1.Time), omitempty fields with empty values and undeclared fields
// go, nulls of value types become zeros.
TEST(BuiltinKindTest, DecodesThroughTheGoTypes) {
  Value pod = Decoded("v1", "Pod", R"({apiVersion: v1, kind: Pod,
    metadata: {name: p, labels: {}, annotations: null, generateName: ""},
    spec: {containers: [{name: a, image: "nginx:1", args: [], ports: null}],
           nodeName: "", hostNetwork: false},
    status: {conditions: [{type: Ready, status: "True"}]}})");
  EXPECT_EQ(At(pod, "metadata"), Canon(R"({"name":"p"})"));
  EXPECT_EQ(At(pod, "spec.containers.0.args"), Canon("<absent>"));
  EXPECT_EQ(At(pod, "spec.containers.0.ports"), Canon("<absent>"));
  EXPECT_EQ(At(pod, "spec.containers.0.resources"), Canon("{}"));
  EXPECT_EQ(At(pod, "spec.nodeName"), Canon("<absent>"));
  EXPECT_EQ(At(pod, "spec.hostNetwork"), Canon("<absent>"));
  EXPECT_EQ(At(pod, "status.conditions.0.lastProbeTime"), Canon("null"));
  EXPECT_EQ(At(pod, "status.conditions.0.lastTransitionTime"), Canon("null"));

  // A Deployment's spec.template and status are structs: always there.
  Value d =
      Decoded("apps/v1", "Deployment",
              "{apiVersion: apps/v1, kind: Deployment, metadata: {name: d}}");
  EXPECT_EQ(At(d, "spec.template.spec.containers"), Canon("null"));
  EXPECT_EQ(At(d, "spec.selector"), Canon("null"));
  EXPECT_EQ(At(d, "status"), Canon("{}"));
}

// The apiserver stores built-in kinds as protobuf, which keeps no empty
// slice or map: an empty one that the JSON encoding writes (no omitempty)
// reads back null. The request body's decoding keeps it (the field manager
// sees it) and says so. A struct stays, empty or not.
TEST(BuiltinKindTest, EmptySlicesAndMapsReadBackNull) {
  std::shared_ptr<const BuiltinKind> k =
      KindOf("discovery.k8s.io/v1", "EndpointSlice");
  ASSERT_NE(k, nullptr);
  const Value body = Yaml(R"({apiVersion: discovery.k8s.io/v1,
    kind: EndpointSlice, metadata: {name: s, labels: {}}, addressType: IPv4,
    endpoints: [{addresses: [], conditions: {}}], ports: []})");
  bool otherwise = false;
  Value decoded = k->Decode(body, nullptr, &otherwise);
  EXPECT_TRUE(otherwise);
  EXPECT_EQ(At(decoded, "endpoints.0.addresses"), Canon("[]"));
  EXPECT_EQ(At(decoded, "ports"), Canon("[]"));
  Value stored = k->ReadBack(body);
  EXPECT_EQ(At(stored, "endpoints.0.addresses"), Canon("null"));
  EXPECT_EQ(At(stored, "endpoints.0.conditions"), Canon("{}"));
  EXPECT_EQ(At(stored, "ports"), Canon("null"));
  EXPECT_EQ(At(stored, "metadata.labels"), Canon("<absent>"));  // omitempty
  EXPECT_EQ(ToJsonSorted(k->ReadBack(decoded)), ToJsonSorted(stored));

  std::shared_ptr<const BuiltinKind> limit_range = KindOf("v1", "LimitRange");
  ASSERT_NE(limit_range, nullptr);
  EXPECT_EQ(At(limit_range->ReadBack(Yaml(R"({apiVersion: v1,
    kind: LimitRange, metadata: {name: l}, spec: {limits: []}})")),
               "spec.limits"),
            Canon("null"));
  // Nothing empty: nothing reads back otherwise.
  otherwise = true;
  Value pod = KindOf("v1", "Pod")->Decode(Yaml(R"({apiVersion: v1, kind: Pod,
    metadata: {name: p}, spec: {containers: [{name: a, image: b}]}})"),
                                          nullptr, &otherwise);
  EXPECT_FALSE(otherwise);
  EXPECT_EQ(At(pod, "spec.containers.0.name"), Canon("a"));
}

// A null element of a map or slice decodes to the element type's zero value
// (encoding/json and the unstructured converter alike): "" in a
// map[string]string or a []string, a zero struct in a slice of structs,
// "0" in a resource list; null where the element is nilable (a []byte),
// which storage (protobuf) reads back as an empty byte slice, "".
TEST(BuiltinKindTest, NullElementsDecodeToTheirZeroValue) {
  const internal::GoStruct* meta =
      internal::FindGoStruct("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
  ASSERT_NE(meta, nullptr);
  EXPECT_EQ(ToJsonSorted(meta->Find("labels")->element_zero), "\"\"");
  EXPECT_TRUE(meta->Find("ownerReferences")->element_zero.IsMap());
  EXPECT_TRUE(meta->Find("creationTimestamp")->element_zero.IsNull());
  const internal::GoField* binary =
      internal::FindGoStruct("io.k8s.api.core.v1.ConfigMap")->Find("binaryData");
  EXPECT_TRUE(binary->byte_elements);
  EXPECT_TRUE(binary->element_zero.IsNull());

  std::shared_ptr<const BuiltinKind> cm = KindOf("v1", "ConfigMap");
  ASSERT_NE(cm, nullptr);
  const Value body = Yaml(R"({apiVersion: v1, kind: ConfigMap,
    metadata: {name: c, labels: {a: null, b: x}, annotations: {c: null},
               finalizers: [null]},
    data: {k: null}, binaryData: {z: null}})");
  Value decoded = cm->Decode(body);
  EXPECT_EQ(At(decoded, "metadata.labels"), Canon(R"({"a":"","b":"x"})"));
  EXPECT_EQ(At(decoded, "metadata.annotations"), Canon(R"({"c":""})"));
  EXPECT_EQ(At(decoded, "metadata.finalizers"), Canon(R"([""])"));
  EXPECT_EQ(At(decoded, "data"), Canon(R"({"k":""})"));
  EXPECT_EQ(At(decoded, "binaryData"), Canon(R"({"z":null})"));
  EXPECT_EQ(At(cm->ReadBack(decoded), "binaryData"), Canon(R"({"z":""})"));
  EXPECT_EQ(At(cm->ReadBack(body), "binaryData"), Canon(R"({"z":""})"));

  Value pod = Decoded("v1", "Pod", R"({apiVersion: v1, kind: Pod,
    metadata: {name: p},
    spec: {nodeSelector: {a: null},
           containers: [{name: a, image: b, args: [null, x],
                         resources: {limits: {cpu: null}}}],
           tolerations: [null]}})");
  EXPECT_EQ(At(pod, "spec.nodeSelector"), Canon(R"({"a":""})"));
  EXPECT_EQ(At(pod, "spec.containers.0.args"), Canon(R"(["","x"])"));
  EXPECT_EQ(At(pod, "spec.containers.0.resources.limits"),
            Canon(R"({"cpu":"0"})"));
  EXPECT_EQ(At(pod, "spec.tolerations"), Canon("[{}]"));
  // A zero struct is then decoded as any other: its fields and defaults.
  Value d = Decoded("apps/v1", "Deployment", R"({apiVersion: apps/v1,
    kind: Deployment, metadata: {name: d},
    spec: {template: {spec: {containers: [null]}}}})");
  EXPECT_EQ(At(d, "spec.template.spec.containers.0.name"), Canon(R"("")"));
  EXPECT_EQ(At(d, "spec.template.spec.containers.0.terminationMessagePath"),
            Canon(R"("/dev/termination-log")"));
}

// A whole float where the Go type has an integer (the field, what it points
// to, or its elements) is that integer; floats where the Go type has a
// float stay. The first other float is the error, with its path.
TEST(BuiltinKindTest, WholeFloatsWhereTheGoTypeHasIntegers) {
  std::shared_ptr<const BuiltinKind> pod = KindOf("v1", "Pod");
  ASSERT_NE(pod, nullptr);
  absl::Status error;
  Value decoded = pod->Decode(Yaml(R"({apiVersion: v1, kind: Pod,
    metadata: {name: p},
    spec: {terminationGracePeriodSeconds: 10.0,
           securityContext: {runAsUser: 1e3, supplementalGroups: [1000.0, 7]},
           containers: [{name: a, image: b, ports: [{containerPort: 8e1}]}]}})"),
                              nullptr, nullptr, &error);
  ASSERT_TRUE(error.ok()) << error;
  EXPECT_EQ(At(decoded, "spec.terminationGracePeriodSeconds"), "10");
  EXPECT_EQ(At(decoded, "spec.securityContext.runAsUser"), "1000");
  EXPECT_EQ(At(decoded, "spec.securityContext.supplementalGroups"),
            "[1000,7]");
  EXPECT_EQ(At(decoded, "spec.containers.0.ports.0.containerPort"), "80");
  EXPECT_TRUE(Find(*Find(decoded, "spec"), "terminationGracePeriodSeconds")
                  ->IsInt());

  const Value bad = Yaml(R"({apiVersion: v1, kind: Pod, metadata: {name: p},
    spec: {containers: [{name: a, image: b,
                         ports: [{containerPort: 80}, {containerPort: 80.5}]}]}})");
  pod->Decode(bad, nullptr, nullptr, &error);
  EXPECT_EQ(error.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(error.message(),
            "json: cannot unmarshal number 80.5 into Go struct field "
            "ContainerPort.spec.containers.ports.containerPort of type int32");
  pod->ReadBack(bad, nullptr, &error);
  EXPECT_EQ(error.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(error.message(),
            ".spec.containers[0].ports[1].containerPort: cannot convert "
            "float64 80.5 to int32");
  pod->ReadBack(Yaml(R"({apiVersion: v1, kind: Pod, metadata: {name: p},
    spec: {securityContext: {supplementalGroups: [1, 2.5]}}})"),
                nullptr, &error);
  EXPECT_EQ(error.message(),
            ".spec.securityContext.supplementalGroups[1]: cannot convert "
            "float64 2.5 to int64");
  // An int32 out of range: encoding/json refuses it, the unstructured
  // converter (an apply's merged object) wraps it around.
  const Value big = Yaml(R"({apiVersion: v1, kind: Pod, metadata: {name: p},
    spec: {terminationGracePeriodSeconds: 4294967298,
           containers: [{name: a, image: b,
                         ports: [{containerPort: 4294967298}]}]}})");
  pod->Decode(big, nullptr, nullptr, &error);
  EXPECT_EQ(error.message(),
            "json: cannot unmarshal number 4294967298 into Go struct field "
            "ContainerPort.spec.containers.ports.containerPort of type int32");
  Value wrapped = pod->ReadBack(big, nullptr, &error);
  ASSERT_TRUE(error.ok()) << error;
  EXPECT_EQ(At(wrapped, "spec.containers.0.ports.0.containerPort"), "2");
  EXPECT_EQ(At(wrapped, "spec.terminationGracePeriodSeconds"), "4294967298");
  // An int64 holds more than an int32.
  pod->Decode(Yaml(R"({apiVersion: v1, kind: Pod, metadata: {name: p},
    spec: {activeDeadlineSeconds: 3e9}})"),
              nullptr, nullptr, &error);
  EXPECT_TRUE(error.ok()) << error;
  pod->Decode(Yaml(R"({apiVersion: v1, kind: Pod, metadata: {name: p},
    spec: {terminationGracePeriodSeconds: 1e30}})"),
              nullptr, nullptr, &error);
  EXPECT_FALSE(error.ok());

  // A CRD's schema holds floats (JSONSchemaProps.maximum): they stay.
  std::shared_ptr<const BuiltinKind> crd =
      KindOf("apiextensions.k8s.io/v1", "CustomResourceDefinition");
  ASSERT_NE(crd, nullptr);
  Value c = crd->Decode(Yaml(R"({apiVersion: apiextensions.k8s.io/v1,
    kind: CustomResourceDefinition, metadata: {name: a.b.c},
    spec: {group: b.c, scope: Namespaced, names: {plural: a, kind: A},
           versions: [{name: v1, served: true, storage: true,
                       schema: {openAPIV3Schema: {type: number,
                                                  maximum: 2.5}}}]}})"),
                        nullptr, nullptr, &error);
  ASSERT_TRUE(error.ok()) << error;
  EXPECT_EQ(At(c, "spec.versions.0.schema.openAPIV3Schema.maximum"), "2.5");
}

TEST(BuiltinKindTest, NewObjectIsTheGoZeroObject) {
  std::shared_ptr<const BuiltinKind> k = KindOf("apps/v1", "Deployment");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(ToJsonSorted(k->NewObject()),
            ToJsonSorted(Yaml(R"({apiVersion: apps/v1, kind: Deployment,
      metadata: {}, status: {},
      spec: {selector: null, strategy: {},
             template: {metadata: {}, spec: {containers: null}}}})")));
}

TEST(BuiltinKindTest, CustomResourcesAndOtherReleasesAreNotBuiltIn) {
  absl::StatusOr<Type> deduced = Type::Named(DeducedSchema(), kDeducedTypeName);
  ASSERT_TRUE(deduced.ok());
  EXPECT_EQ(BuiltinKind::For(*deduced, "example.com/v1", "Widget"), nullptr);
  // A Job type without v1.37's fields (as an older cluster's OpenAPI has
  // it): the Go types do not fit it.
  absl::StatusOr<std::shared_ptr<const Schema>> old = Schema::ParseSmd(R"(
types:
- name: io.k8s.api.batch.v1.Job
  map:
    fields:
    - name: apiVersion
      type: {scalar: string}
    - name: kind
      type: {scalar: string}
)");
  ASSERT_TRUE(old.ok()) << old.status();
  absl::StatusOr<Type> job = Type::Named(*old, "io.k8s.api.batch.v1.Job");
  ASSERT_TRUE(job.ok());
  EXPECT_EQ(BuiltinKind::For(*job, "batch/v1", "Job"), nullptr);
}

// ---- The defaulters, one test per rule, after Kubernetes' defaults_test.go

TEST(DefaultersTest, ImagePullPolicyFollowsTheTag) {
  // core/v1 TestSetDefaults_Volume and the Container defaulter's cases.
  EXPECT_EQ(internal::ImageTag("nginx"), "latest");
  EXPECT_EQ(internal::ImageTag("nginx:latest"), "latest");
  EXPECT_EQ(internal::ImageTag("nginx:1.27"), "1.27");
  EXPECT_EQ(internal::ImageTag("localhost:5000/nginx"), "latest");
  EXPECT_EQ(internal::ImageTag("registry.example.com:5000/team/app:v2"), "v2");
  EXPECT_EQ(
      internal::ImageTag(
          "nginx@sha256:"
          "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"),
      "");
  // References that do not parse (uppercase repository, empty) default as
  // a tag would: IfNotPresent.
  EXPECT_EQ(internal::ImageTag("Nginx"), "");
  EXPECT_EQ(internal::ImageTag(""), "");

  Value pod = Decoded("v1", "Pod", R"({apiVersion: v1, kind: Pod,
    spec: {containers: [{name: a, image: nginx}, {name: b, image: "nginx:1.2"},
                        {name: c, image: "nginx:latest"},
                        {name: d, image: "nginx:1.2", imagePullPolicy: Always}],
           initContainers: [{name: i, image: busybox}],
           volumes: [{name: v, image: {reference: "image:v1"}},
                     {name: w, image: {reference: "image"}}]}})");
  EXPECT_EQ(At(pod, "spec.containers.0.imagePullPolicy"), Canon(R"("Always")"));
  EXPECT_EQ(At(pod, "spec.containers.1.imagePullPolicy"),
            Canon(R"("IfNotPresent")"));
  EXPECT_EQ(At(pod, "spec.containers.2.imagePullPolicy"), Canon(R"("Always")"));
  EXPECT_EQ(At(pod, "spec.containers.3.imagePullPolicy"), Canon(R"("Always")"));
  EXPECT_EQ(At(pod, "spec.initContainers.0.imagePullPolicy"),
            Canon(R"("Always")"));
  EXPECT_EQ(At(pod, "spec.volumes.0.image.pullPolicy"),
            Canon(R"("IfNotPresent")"));
  EXPECT_EQ(At(pod, "spec.volumes.1.image.pullPolicy"), Canon(R"("Always")"));
  EXPECT_EQ(At(pod, "spec.containers.0.terminationMessagePath"),
            Canon(R"("/dev/termination-log")"));
  EXPECT_EQ(At(pod, "spec.containers.0.terminationMessagePolicy"),
            Canon(R"("File")"));
}

TEST(DefaultersTest, PodSpecAndPod) {
  Value pod = Decoded("v1", "Pod", R"({apiVersion: v1, kind: Pod,
    spec: {serviceAccount: legacy, hostNetwork: true,
           containers: [{name: a, image: "a:1", ports: [{containerPort: 8080}],
                         resources: {limits: {cpu: "1"}},
                         livenessProbe: {httpGet: {port: 80}}}]}})");
  EXPECT_EQ(At(pod, "spec.dnsPolicy"), Canon(R"("ClusterFirst")"));
  EXPECT_EQ(At(pod, "spec.restartPolicy"), Canon(R"("Always")"));
  EXPECT_EQ(At(pod, "spec.securityContext"), Canon("{}"));
  EXPECT_EQ(At(pod, "spec.terminationGracePeriodSeconds"), Canon("30"));
  EXPECT_EQ(At(pod, "spec.schedulerName"), Canon(R"("default-scheduler")"));
  // TestSetDefaultServiceAccountAlias: the deprecated name fills the new.
  EXPECT_EQ(At(pod, "spec.serviceAccountName"), Canon(R"("legacy")"));
  EXPECT_EQ(At(pod, "spec.serviceAccount"), Canon(R"("legacy")"));
  // A Pod's own: service links, requests from limits, host ports on the
  // host network (the probe's HTTP protocol waits for H2CContainerProbe,
  // alpha in 1.37).
  EXPECT_EQ(At(pod, "spec.enableServiceLinks"), Canon("true"));
  EXPECT_EQ(At(pod, "spec.containers.0.resources.requests"),
            Canon(R"({"cpu":"1"})"));
  EXPECT_EQ(At(pod, "spec.containers.0.ports.0.hostPort"), Canon("8080"));
  EXPECT_EQ(At(pod, "spec.containers.0.ports.0.protocol"), Canon(R"("TCP")"));
  EXPECT_EQ(At(pod, "spec.containers.0.livenessProbe.httpGet"),
            Canon(R"({"port":80,"path":"/","scheme":"HTTP"})"));
  EXPECT_EQ(At(pod, "spec.containers.0.livenessProbe.timeoutSeconds"),
            Canon("1"));
  EXPECT_EQ(At(pod, "spec.containers.0.livenessProbe.periodSeconds"),
            Canon("10"));
  EXPECT_EQ(At(pod, "spec.containers.0.livenessProbe.successThreshold"),
            Canon("1"));
  EXPECT_EQ(At(pod, "spec.containers.0.livenessProbe.failureThreshold"),
            Canon("3"));

  // TestDefaultRequestIsNotSetForReplicationController: templates keep
  // their requests unset, and get no service links.
  Value rc = Decoded("v1", "ReplicationController", R"({apiVersion: v1,
    kind: ReplicationController, metadata: {name: rc},
    spec: {template: {metadata: {labels: {app: a}},
           spec: {containers: [{name: a, image: "a:1",
                                resources: {limits: {cpu: "1"}}}]}}}})");
  EXPECT_EQ(At(rc, "spec.template.spec.containers.0.resources.requests"),
            Canon("<absent>"));
  EXPECT_EQ(At(rc, "spec.template.spec.enableServiceLinks"), Canon("<absent>"));
  // TestSetDefaultReplicationController: selector and labels from the
  // template; replicas 1.
  EXPECT_EQ(At(rc, "spec.selector"), Canon(R"({"app":"a"})"));
  EXPECT_EQ(At(rc, "metadata.labels"), Canon(R"({"app":"a"})"));
  EXPECT_EQ(At(rc, "spec.replicas"), Canon("1"));

  // TestSetDefaultPodTerminationGracePeriodSeconds: negative becomes 1.
  Value neg = Decoded("v1", "Pod", R"({apiVersion: v1, kind: Pod,
    spec: {terminationGracePeriodSeconds: -5, containers: []}})");
  EXPECT_EQ(At(neg, "spec.terminationGracePeriodSeconds"), Canon("1"));
}

TEST(DefaultersTest, PodStatusIPsAndVolumes) {
  Value pod = Decoded("v1", "Pod", R"({apiVersion: v1, kind: Pod,
    spec: {containers: [], volumes: [
      {name: empty}, {name: s, secret: {secretName: x}},
      {name: c, configMap: {name: x}}, {name: d, downwardAPI: {items: [
        {path: p, fieldRef: {fieldPath: metadata.name}}]}},
      {name: h, hostPath: {path: /x}},
      {name: pr, projected: {sources: [{serviceAccountToken: {path: t}}]}}]},
    status: {podIP: 10.0.0.1}})");
  EXPECT_EQ(At(pod, "spec.volumes.0.emptyDir"), Canon("{}"));
  EXPECT_EQ(At(pod, "spec.volumes.1.secret.defaultMode"), Canon("420"));
  EXPECT_EQ(At(pod, "spec.volumes.2.configMap.defaultMode"), Canon("420"));
  EXPECT_EQ(At(pod, "spec.volumes.3.downwardAPI.defaultMode"), Canon("420"));
  EXPECT_EQ(At(pod, "spec.volumes.3.downwardAPI.items.0.fieldRef.apiVersion"),
            Canon(R"("v1")"));
  EXPECT_EQ(At(pod, "spec.volumes.4.hostPath.type"), Canon(R"("")"));
  EXPECT_EQ(At(pod, "spec.volumes.5.projected.defaultMode"), Canon("420"));
  EXPECT_EQ(At(pod,
               "spec.volumes.5.projected.sources.0.serviceAccountToken."
               "expirationSeconds"),
            Canon("3600"));
  EXPECT_EQ(At(pod, "status.podIPs"), Canon(R"([{"ip":"10.0.0.1"}])"));
  Value from_list = Decoded("v1", "Pod", R"({apiVersion: v1, kind: Pod,
    spec: {containers: []}, status: {podIPs: [{ip: 10.0.0.2}, {ip: "fd00::2"}]}})");
  EXPECT_EQ(At(from_list, "status.podIP"), Canon(R"("10.0.0.2")"));
}

TEST(DefaultersTest, Service) {
  // TestSetDefaultService, ...TargetPort, ...ExternalTraffic,
  // ...InternalTrafficPolicy, ...SessionAffinityConfig.
  Value svc = Decoded("v1", "Service", R"({apiVersion: v1, kind: Service,
    spec: {ports: [{port: 80}, {port: 443, targetPort: https}]}})");
  EXPECT_EQ(At(svc, "spec.type"), Canon(R"("ClusterIP")"));
  EXPECT_EQ(At(svc, "spec.sessionAffinity"), Canon(R"("None")"));
  EXPECT_EQ(At(svc, "spec.internalTrafficPolicy"), Canon(R"("Cluster")"));
  EXPECT_EQ(At(svc, "spec.externalTrafficPolicy"), Canon("<absent>"));
  EXPECT_EQ(At(svc, "spec.ports.0.targetPort"), Canon("80"));
  EXPECT_EQ(At(svc, "spec.ports.0.protocol"), Canon(R"("TCP")"));
  EXPECT_EQ(At(svc, "spec.ports.1.targetPort"), Canon(R"("https")"));

  Value lb = Decoded("v1", "Service", R"({apiVersion: v1, kind: Service,
    spec: {type: LoadBalancer, sessionAffinity: ClientIP, ports: [{port: 80}]},
    status: {loadBalancer: {ingress: [{ip: 1.2.3.4}, {hostname: lb.example}]}}})");
  EXPECT_EQ(At(lb, "spec.externalTrafficPolicy"), Canon(R"("Cluster")"));
  EXPECT_EQ(At(lb, "spec.allocateLoadBalancerNodePorts"), Canon("true"));
  EXPECT_EQ(At(lb, "spec.sessionAffinityConfig"),
            Canon(R"({"clientIP":{"timeoutSeconds":10800}})"));
  EXPECT_EQ(At(lb, "status.loadBalancer.ingress.0.ipMode"), Canon(R"("VIP")"));
  EXPECT_EQ(At(lb, "status.loadBalancer.ingress.1.ipMode"), Canon("<absent>"));

  // ExternalName gets no internal traffic policy; None drops the config.
  Value ext = Decoded("v1", "Service", R"({apiVersion: v1, kind: Service,
    spec: {type: ExternalName, externalName: db.example,
           sessionAffinityConfig: {clientIP: {timeoutSeconds: 5}}}})");
  EXPECT_EQ(At(ext, "spec.internalTrafficPolicy"), Canon("<absent>"));
  EXPECT_EQ(At(ext, "spec.sessionAffinityConfig"), Canon("<absent>"));
}

TEST(DefaultersTest, NamespaceNodeVolumesAndLimits) {
  Value ns =
      Decoded("v1", "Namespace",
              "{apiVersion: v1, kind: Namespace, metadata: {name: team}}");
  EXPECT_EQ(At(ns, "metadata.labels"),
            Canon(R"({"kubernetes.io/metadata.name":"team"})"));
  EXPECT_EQ(At(ns, "status.phase"), Canon(R"("Active")"));

  Value node = Decoded("v1", "Node", R"({apiVersion: v1, kind: Node,
    status: {capacity: {cpu: "4"}}})");
  EXPECT_EQ(At(node, "status.allocatable"), Canon(R"({"cpu":"4"})"));

  Value pv = Decoded("v1", "PersistentVolume", R"({apiVersion: v1,
    kind: PersistentVolume, spec: {hostPath: {path: /x},
    rbd: {monitors: [m], image: i}}})");
  EXPECT_EQ(At(pv, "spec.persistentVolumeReclaimPolicy"), Canon(R"("Retain")"));
  EXPECT_EQ(At(pv, "spec.volumeMode"), Canon(R"("Filesystem")"));
  EXPECT_EQ(At(pv, "status.phase"), Canon(R"("Pending")"));
  EXPECT_EQ(At(pv, "spec.rbd.pool"), Canon(R"("rbd")"));
  EXPECT_EQ(At(pv, "spec.rbd.user"), Canon(R"("admin")"));
  EXPECT_EQ(At(pv, "spec.rbd.keyring"), Canon(R"("/etc/ceph/keyring")"));

  Value pvc = Decoded("v1", "PersistentVolumeClaim",
                      "{apiVersion: v1, kind: PersistentVolumeClaim}");
  EXPECT_EQ(At(pvc, "spec.volumeMode"), Canon(R"("Filesystem")"));
  EXPECT_EQ(At(pvc, "status.phase"), Canon(R"("Pending")"));

  // TestSetDefaultLimitRangeItem: Default from Max, DefaultRequest from
  // Default, then Min.
  Value lr = Decoded("v1", "LimitRange", R"({apiVersion: v1, kind: LimitRange,
    spec: {limits: [{type: Container, max: {cpu: "2"}, min: {memory: 1Mi}},
                    {type: Pod, max: {cpu: "4"}}]}})");
  EXPECT_EQ(At(lr, "spec.limits.0.default"), Canon(R"({"cpu":"2"})"));
  EXPECT_EQ(At(lr, "spec.limits.0.defaultRequest"),
            Canon(R"({"cpu":"2","memory":"1Mi"})"));
  EXPECT_EQ(At(lr, "spec.limits.1.default"), Canon("<absent>"));

  Value secret = Decoded("v1", "Secret", "{apiVersion: v1, kind: Secret}");
  EXPECT_EQ(At(secret, "type"), Canon(R"("Opaque")"));
  Value ep = Decoded("v1", "Endpoints", R"({apiVersion: v1, kind: Endpoints,
    subsets: [{ports: [{port: 80}]}]})");
  EXPECT_EQ(At(ep, "subsets.0.ports.0.protocol"), Canon(R"("TCP")"));
}

TEST(DefaultersTest, Apps) {
  // apps/v1 TestSetDefaultDeployment.
  Value d = Decoded("apps/v1", "Deployment",
                    "{apiVersion: apps/v1, kind: Deployment}");
  EXPECT_EQ(At(d, "spec.replicas"), Canon("1"));
  EXPECT_EQ(
      At(d, "spec.strategy"),
      Canon(
          R"({"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"25%","maxSurge":"25%"}})"));
  EXPECT_EQ(At(d, "spec.revisionHistoryLimit"), Canon("10"));
  EXPECT_EQ(At(d, "spec.progressDeadlineSeconds"), Canon("600"));
  Value recreate = Decoded("apps/v1", "Deployment", R"({apiVersion: apps/v1,
    kind: Deployment, spec: {strategy: {type: Recreate}, replicas: 0}})");
  EXPECT_EQ(At(recreate, "spec.strategy"), Canon(R"({"type":"Recreate"})"));
  EXPECT_EQ(At(recreate, "spec.replicas"), Canon("0"));

  Value ds =
      Decoded("apps/v1", "DaemonSet", "{apiVersion: apps/v1, kind: DaemonSet}");
  EXPECT_EQ(
      At(ds, "spec.updateStrategy"),
      Canon(
          R"({"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":1,"maxSurge":0}})"));
  EXPECT_EQ(At(ds, "spec.revisionHistoryLimit"), Canon("10"));
  EXPECT_EQ(At(ds, "metadata.annotations"),
            Canon(R"({"deprecated.daemonset.template.generation":"0"})"));

  Value sts = Decoded("apps/v1", "StatefulSet",
                      "{apiVersion: apps/v1, kind: StatefulSet}");
  EXPECT_EQ(At(sts, "spec.podManagementPolicy"), Canon(R"("OrderedReady")"));
  EXPECT_EQ(
      At(sts, "spec.updateStrategy"),
      Canon(
          R"({"type":"RollingUpdate","rollingUpdate":{"partition":0,"maxUnavailable":1}})"));
  EXPECT_EQ(At(sts, "spec.persistentVolumeClaimRetentionPolicy"),
            Canon(R"({"whenDeleted":"Retain","whenScaled":"Retain"})"));
  // OnDelete gets no rolling update.
  Value on_delete = Decoded("apps/v1", "StatefulSet", R"({apiVersion: apps/v1,
    kind: StatefulSet, spec: {updateStrategy: {type: OnDelete}}})");
  EXPECT_EQ(At(on_delete, "spec.updateStrategy"),
            Canon(R"({"type":"OnDelete"})"));

  Value rs = Decoded("apps/v1", "ReplicaSet",
                     "{apiVersion: apps/v1, kind: ReplicaSet}");
  EXPECT_EQ(At(rs, "spec.replicas"), Canon("1"));
}

TEST(DefaultersTest, Batch) {
  // batch/v1 TestSetDefaultJob.
  Value job = Decoded("batch/v1", "Job", R"({apiVersion: batch/v1, kind: Job,
    spec: {template: {metadata: {labels: {app: a}}, spec: {containers: []}}}})");
  EXPECT_EQ(At(job, "spec.completions"), Canon("1"));
  EXPECT_EQ(At(job, "spec.parallelism"), Canon("1"));
  EXPECT_EQ(At(job, "spec.backoffLimit"), Canon("6"));
  EXPECT_EQ(At(job, "spec.completionMode"), Canon(R"("NonIndexed")"));
  EXPECT_EQ(At(job, "spec.suspend"), Canon("false"));
  EXPECT_EQ(At(job, "spec.podReplacementPolicy"),
            Canon(R"("TerminatingOrFailed")"));
  EXPECT_EQ(At(job, "spec.manualSelector"), Canon("false"));
  EXPECT_EQ(At(job, "metadata.labels"), Canon(R"({"app":"a"})"));
  Value indexed = Decoded("batch/v1", "Job", R"({apiVersion: batch/v1,
    kind: Job, spec: {parallelism: 3, backoffLimitPerIndex: 1,
    podFailurePolicy: {rules: [{action: Ignore, onPodConditions: [{type: X}]}]}}})");
  EXPECT_EQ(At(indexed, "spec.completions"), Canon("<absent>"));
  EXPECT_EQ(At(indexed, "spec.backoffLimit"), Canon("2147483647"));
  EXPECT_EQ(At(indexed, "spec.podReplacementPolicy"), Canon(R"("Failed")"));
  EXPECT_EQ(
      At(indexed, "spec.podFailurePolicy.rules.0.onPodConditions.0.status"),
      Canon(R"("True")"));

  Value cj =
      Decoded("batch/v1", "CronJob", "{apiVersion: batch/v1, kind: CronJob}");
  EXPECT_EQ(At(cj, "spec.concurrencyPolicy"), Canon(R"("Allow")"));
  EXPECT_EQ(At(cj, "spec.suspend"), Canon("false"));
  EXPECT_EQ(At(cj, "spec.successfulJobsHistoryLimit"), Canon("3"));
  EXPECT_EQ(At(cj, "spec.failedJobsHistoryLimit"), Canon("1"));
}

TEST(DefaultersTest, OtherGroups) {
  Value np = Decoded("networking.k8s.io/v1", "NetworkPolicy", R"({
    apiVersion: networking.k8s.io/v1, kind: NetworkPolicy,
    spec: {egress: [{ports: [{port: 53}]}]}})");
  EXPECT_EQ(At(np, "spec.policyTypes"), Canon(R"(["Ingress","Egress"])"));
  EXPECT_EQ(At(np, "spec.egress.0.ports.0.protocol"), Canon(R"("TCP")"));

  Value hpa = Decoded("autoscaling/v2", "HorizontalPodAutoscaler", R"({
    apiVersion: autoscaling/v2, kind: HorizontalPodAutoscaler,
    spec: {behavior: {scaleDown: {stabilizationWindowSeconds: 60}}}})");
  EXPECT_EQ(At(hpa, "spec.minReplicas"), Canon("1"));
  EXPECT_EQ(
      At(hpa, "spec.metrics"),
      Canon(
          R"([{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":80}}}])"));
  EXPECT_EQ(
      At(hpa, "spec.behavior.scaleUp"),
      Canon(
          R"({"stabilizationWindowSeconds":0,"selectPolicy":"Max","policies":[{"type":"Pods","value":4,"periodSeconds":15},{"type":"Percent","value":100,"periodSeconds":15}]})"));
  EXPECT_EQ(
      At(hpa, "spec.behavior.scaleDown"),
      Canon(
          R"({"selectPolicy":"Max","policies":[{"type":"Percent","value":100,"periodSeconds":15}],"stabilizationWindowSeconds":60})"));

  Value crb = Decoded("rbac.authorization.k8s.io/v1", "ClusterRoleBinding", R"({
    apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRoleBinding,
    roleRef: {kind: ClusterRole, name: view},
    subjects: [{kind: User, name: a}, {kind: ServiceAccount, name: b, namespace: c}]})");
  EXPECT_EQ(At(crb, "roleRef.apiGroup"),
            Canon(R"("rbac.authorization.k8s.io")"));
  EXPECT_EQ(At(crb, "subjects.0.apiGroup"),
            Canon(R"("rbac.authorization.k8s.io")"));
  EXPECT_EQ(At(crb, "subjects.1.apiGroup"), Canon("<absent>"));

  Value sc = Decoded("storage.k8s.io/v1", "StorageClass",
                     "{apiVersion: storage.k8s.io/v1, kind: StorageClass}");
  EXPECT_EQ(At(sc, "reclaimPolicy"), Canon(R"("Delete")"));
  EXPECT_EQ(At(sc, "volumeBindingMode"), Canon(R"("Immediate")"));

  Value vwc = Decoded("admissionregistration.k8s.io/v1",
                      "ValidatingWebhookConfiguration", R"({
    apiVersion: admissionregistration.k8s.io/v1,
    kind: ValidatingWebhookConfiguration,
    webhooks: [{name: w, clientConfig: {service: {name: s, namespace: ns}},
                rules: [{operations: [CREATE], apiGroups: [""],
                         apiVersions: [v1], resources: [pods]}]}]})");
  EXPECT_EQ(At(vwc, "webhooks.0.failurePolicy"), Canon(R"("Fail")"));
  EXPECT_EQ(At(vwc, "webhooks.0.matchPolicy"), Canon(R"("Equivalent")"));
  EXPECT_EQ(At(vwc, "webhooks.0.namespaceSelector"), Canon("{}"));
  EXPECT_EQ(At(vwc, "webhooks.0.timeoutSeconds"), Canon("10"));
  EXPECT_EQ(At(vwc, "webhooks.0.rules.0.scope"), Canon(R"("*")"));
  EXPECT_EQ(At(vwc, "webhooks.0.clientConfig.service.port"), Canon("443"));

  Value pc = Decoded("scheduling.k8s.io/v1", "PriorityClass",
                     "{apiVersion: scheduling.k8s.io/v1, kind: PriorityClass}");
  EXPECT_EQ(At(pc, "preemptionPolicy"), Canon(R"("PreemptLowerPriority")"));

  Value plc = Decoded("flowcontrol.apiserver.k8s.io/v1",
                      "PriorityLevelConfiguration", R"({
    apiVersion: flowcontrol.apiserver.k8s.io/v1,
    kind: PriorityLevelConfiguration,
    spec: {type: Limited, limited: {limitResponse: {type: Queue, queuing: {}}}}})");
  EXPECT_EQ(At(plc, "spec.limited.nominalConcurrencyShares"), Canon("30"));
  EXPECT_EQ(At(plc, "spec.limited.lendablePercent"), Canon("0"));
  EXPECT_EQ(At(plc, "spec.limited.limitResponse.queuing"),
            Canon(R"({"handSize":8,"queues":64,"queueLengthLimit":50})"));

  Value claim = Decoded("resource.k8s.io/v1", "ResourceClaim", R"({
    apiVersion: resource.k8s.io/v1, kind: ResourceClaim,
    spec: {devices: {requests: [{name: r, exactly: {deviceClassName: gpu,
      tolerations: [{key: k}]}}]}}})");
  EXPECT_EQ(At(claim, "spec.devices.requests.0.exactly.allocationMode"),
            Canon(R"("ExactCount")"));
  EXPECT_EQ(At(claim, "spec.devices.requests.0.exactly.count"), Canon("1"));
  EXPECT_EQ(At(claim, "spec.devices.requests.0.exactly.tolerations.0.operator"),
            Canon(R"("Equal")"));
}

// The apiextensions-apiserver's and kube-aggregator's defaulters (their
// v1 defaults.go): a CRD's names and conversion, its stored versions, and
// the port of the services both name. Checked against kube-apiserver 1.37
// by apply.
TEST(DefaultersTest, CustomResourceDefinitionsAndApiServices) {
  Value crd = Decoded("apiextensions.k8s.io/v1", "CustomResourceDefinition",
                      R"({apiVersion: apiextensions.k8s.io/v1,
    kind: CustomResourceDefinition, metadata: {name: gizmos.example.com},
    spec: {group: example.com, names: {plural: gizmos, kind: Gizmo},
           scope: Namespaced,
           versions: [{name: v1, served: true, storage: false},
                      {name: v2, served: true, storage: true}]}})");
  EXPECT_EQ(At(crd, "spec.names.singular"), Canon(R"("gizmo")"));
  EXPECT_EQ(At(crd, "spec.names.listKind"), Canon(R"("GizmoList")"));
  EXPECT_EQ(At(crd, "spec.conversion"), Canon(R"({"strategy":"None"})"));
  EXPECT_EQ(At(crd, "status.storedVersions"), Canon(R"(["v2"])"));
  // Set ones stay; a webhook's service gets the port.
  Value set = Decoded("apiextensions.k8s.io/v1", "CustomResourceDefinition",
                      R"({apiVersion: apiextensions.k8s.io/v1,
    kind: CustomResourceDefinition, metadata: {name: gizmos.example.com},
    spec: {group: example.com,
           names: {plural: gizmos, kind: Gizmo, singular: g, listKind: Gs},
           scope: Namespaced,
           conversion: {strategy: Webhook, webhook: {
             conversionReviewVersions: [v1],
             clientConfig: {service: {name: s, namespace: ns}}}},
           versions: [{name: v1, served: true, storage: true}]},
    status: {storedVersions: [v0]}})");
  EXPECT_EQ(At(set, "spec.names.singular"), Canon(R"("g")"));
  EXPECT_EQ(At(set, "spec.names.listKind"), Canon(R"("Gs")"));
  EXPECT_EQ(At(set, "spec.conversion.strategy"), Canon(R"("Webhook")"));
  EXPECT_EQ(At(set, "spec.conversion.webhook.clientConfig.service.port"),
            "443");
  EXPECT_EQ(At(set, "status.storedVersions"), Canon(R"(["v0"])"));

  Value api = Decoded("apiregistration.k8s.io/v1", "APIService",
                      R"({apiVersion: apiregistration.k8s.io/v1,
    kind: APIService, metadata: {name: v1.m.example.com},
    spec: {group: m.example.com, version: v1, groupPriorityMinimum: 100,
           versionPriority: 100, service: {name: m, namespace: ns}}})");
  EXPECT_EQ(At(api, "spec.service.port"), "443");
}

TEST(DefaultersTest, ClusterKinds) {
  Value ic = Decoded("networking.k8s.io/v1", "IngressClass", R"({
    apiVersion: networking.k8s.io/v1, kind: IngressClass,
    spec: {controller: c, parameters: {kind: K, name: nm}}})");
  EXPECT_EQ(At(ic, "spec.parameters.scope"), Canon(R"("Cluster")"));

  Value csi = Decoded("storage.k8s.io/v1", "CSIDriver",
                      "{apiVersion: storage.k8s.io/v1, kind: CSIDriver}");
  EXPECT_EQ(At(csi, "spec"), Canon(R"({"attachRequired":true,
    "podInfoOnMount":false,"storageCapacity":false,
    "fsGroupPolicy":"ReadWriteOnceWithFSType",
    "volumeLifecycleModes":["Persistent"],"requiresRepublish":false,
    "seLinuxMount":false,"preventPodSchedulingIfMissing":false})"));

  Value mwc = Decoded("admissionregistration.k8s.io/v1",
                      "MutatingWebhookConfiguration", R"({
    apiVersion: admissionregistration.k8s.io/v1,
    kind: MutatingWebhookConfiguration,
    webhooks: [{name: w, clientConfig: {url: "https://x"}}]})");
  EXPECT_EQ(At(mwc, "webhooks.0.reinvocationPolicy"), Canon(R"("Never")"));
  EXPECT_EQ(At(mwc, "webhooks.0.objectSelector"), Canon("{}"));

  Value vap = Decoded("admissionregistration.k8s.io/v1",
                      "ValidatingAdmissionPolicy", R"({
    apiVersion: admissionregistration.k8s.io/v1,
    kind: ValidatingAdmissionPolicy, spec: {matchConstraints: {}}})");
  EXPECT_EQ(At(vap, "spec.failurePolicy"), Canon(R"("Fail")"));
  EXPECT_EQ(
      At(vap, "spec.matchConstraints"),
      Canon(
          R"({"matchPolicy":"Equivalent","namespaceSelector":{},"objectSelector":{}})"));

  Value fs = Decoded("flowcontrol.apiserver.k8s.io/v1", "FlowSchema", R"({
    apiVersion: flowcontrol.apiserver.k8s.io/v1, kind: FlowSchema,
    spec: {priorityLevelConfiguration: {name: p}}})");
  EXPECT_EQ(At(fs, "spec.matchingPrecedence"), Canon("1000"));
  Value exempt = Decoded("flowcontrol.apiserver.k8s.io/v1",
                         "PriorityLevelConfiguration", R"({
    apiVersion: flowcontrol.apiserver.k8s.io/v1,
    kind: PriorityLevelConfiguration, spec: {type: Exempt, exempt: {}}})");
  EXPECT_EQ(At(exempt, "spec.exempt"),
            Canon(R"({"nominalConcurrencyShares":0,"lendablePercent":0})"));

  Value first = Decoded("resource.k8s.io/v1", "ResourceClaim", R"({
    apiVersion: resource.k8s.io/v1, kind: ResourceClaim,
    spec: {devices: {requests: [{name: r, firstAvailable: [
      {name: a, deviceClassName: c}, {name: b, deviceClassName: c,
       allocationMode: All}]}]}}})");
  EXPECT_EQ(At(first, "spec.devices.requests.0.firstAvailable.0.count"),
            Canon("1"));
  EXPECT_EQ(At(first, "spec.devices.requests.0.firstAvailable.1.count"),
            Canon("<absent>"));

  Value pcr = Decoded("certificates.k8s.io/v1", "PodCertificateRequest", R"({
    apiVersion: certificates.k8s.io/v1, kind: PodCertificateRequest,
    spec: {signerName: s}})");
  EXPECT_EQ(At(pcr, "spec.maxExpirationSeconds"), Canon("86400"));

  Value vol = Decoded("v1", "Pod", R"({apiVersion: v1, kind: Pod,
    spec: {containers: [], volumes: [
      {name: a, azureDisk: {diskName: d, diskURI: u}},
      {name: i, iscsi: {targetPortal: t, iqn: q, lun: 0}},
      {name: s, scaleIO: {gateway: g, system: sy, secretRef: {name: x}}}]}})");
  EXPECT_EQ(At(vol, "spec.volumes.0.azureDisk"),
            Canon(R"({"diskName":"d","diskURI":"u","cachingMode":"ReadWrite",
      "fsType":"ext4","readOnly":false,"kind":"Shared"})"));
  EXPECT_EQ(At(vol, "spec.volumes.1.iscsi.iscsiInterface"),
            Canon(R"("default")"));
  EXPECT_EQ(At(vol, "spec.volumes.2.scaleIO.storageMode"),
            Canon(R"("ThinProvisioned")"));
  EXPECT_EQ(At(vol, "spec.volumes.2.scaleIO.fsType"), Canon(R"("xfs")"));
}

// Quantities as ParseQuantity and Quantity.String leave them (the defaulting
// differential compares these with Go's own).
TEST(QuantityTest, CanonicalFormsAndTheTextGoKeeps) {
  auto q = [](const Value& v, bool milli = false) {
    std::optional<std::string> c = internal::CanonicalQuantity(v, milli);
    return c ? *c : std::string("<none>");
  };
  EXPECT_EQ(q(Value("1000m")), "1");
  EXPECT_EQ(q(Value("0.5")), "500m");
  EXPECT_EQ(q(Value("1024Mi")), "1Gi");
  EXPECT_EQ(q(Value("1.5Gi")), "1536Mi");
  EXPECT_EQ(q(Value("1.000")), "1");
  EXPECT_EQ(q(Value("1e-3")), "1e-3");  // kept: an exponent, scale -3
  EXPECT_EQ(q(Value("1.5e3")), "1500");
  EXPECT_EQ(q(Value("1000000k")), "1G");
  // Text already in a printable form is kept as written.
  EXPECT_EQ(q(Value("5.")), "5.");
  EXPECT_EQ(q(Value("+2")), "+2");
  EXPECT_EQ(q(Value("1E3")), "1E3");
  EXPECT_EQ(q(Value("1Ki")), "1Ki");
  EXPECT_EQ(q(Value(" 3 ")), "3");
  // Below a nanounit rounds up; resource lists round up to a thousandth.
  EXPECT_EQ(q(Value("2e-10")), "1e-9");
  EXPECT_EQ(q(Value("0.0000000002")), "1n");
  EXPECT_EQ(q(Value("100u")), "100u");
  EXPECT_EQ(q(Value("100u"), true), "1m");
  EXPECT_EQ(q(Value("1n"), true), "1m");
  // Binary quantities cap at the largest int64.
  EXPECT_EQ(q(Value("8Ei")), "9223372036854775807");
  // JSON numbers are quantities too.
  EXPECT_EQ(q(Value(int64_t{1})), "1");
  EXPECT_EQ(q(Value(0.5)), "500m");
  EXPECT_EQ(q(Value("x")), "<none>");
  EXPECT_EQ(q(Value("1Z")), "<none>");
  // Sums keep the format of their first term (of the second where the
  // first is zero); comparisons are exact.
  auto parsed = [](const char* text) {
    return *internal::ParseQuantity(Value(text));
  };
  auto sum = [&](const char* a, const char* b) {
    return *internal::QuantityString(
        internal::AddQuantities(parsed(a), parsed(b)));
  };
  EXPECT_EQ(sum("0.5Ki", "512"), "1Ki");
  EXPECT_EQ(sum("512", "0.5Ki"), "1024");
  EXPECT_EQ(sum("0", "1Mi"), "1Mi");
  EXPECT_EQ(sum("100m", "900m"), "1");
  EXPECT_EQ(sum("1.5e3", "1.5e3"), "3e3");
  EXPECT_EQ(sum("1", "-3"), "-2");
  EXPECT_EQ(sum("-1", "1"), "0");
  EXPECT_EQ(sum("1n", "1Ei"), "1152921504606846976000000001n");
  EXPECT_EQ(internal::CompareQuantities(parsed("1000m"), parsed("1")), 0);
  EXPECT_EQ(internal::CompareQuantities(parsed("1Ki"), parsed("1k")), 1);
  EXPECT_EQ(internal::CompareQuantities(parsed("-2"), parsed("1n")), -1);
  EXPECT_EQ(internal::CompareQuantities(parsed("-2"), parsed("-3")), 1);

  Value pod = Decoded("v1", "Pod", R"({apiVersion: v1, kind: Pod,
    spec: {containers: [{name: a, image: "a:1",
      resources: {limits: {cpu: 1000m, memory: 1024Mi}, requests: {cpu: 0.25}}}]}})");
  EXPECT_EQ(
      At(pod, "spec.containers.0.resources"),
      Canon(
          R"({"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"250m","memory":"1Gi"}})"));

  // A null in a resource list is the zero Quantity, "0" (a map of values:
  // kube-apiserver 1.37 stores `memory: null` so, applied or written).
  Value nulled = Decoded("v1", "Pod", R"({apiVersion: v1, kind: Pod,
    spec: {containers: [{name: a, image: "a:1",
      resources: {limits: {cpu: 1, memory: null}}}]}})");
  EXPECT_EQ(At(nulled, "spec.containers.0.resources.limits"),
            Canon(R"({"cpu":"1","memory":"0"})"));
}

// Times as metav1.Time and MicroTime write them back.
TEST(TimesTest, UtcToTheSecondOrMicrosecond) {
  Value pod = Decoded("v1", "Pod", R"({apiVersion: v1, kind: Pod,
    spec: {containers: []}, status: {conditions: [
      {type: A, status: "True", lastTransitionTime: "2026-01-02T03:04:05.9+01:00"},
      {type: B, status: "True", lastTransitionTime: "0001-01-01T00:00:00Z"},
      {type: C, status: "True", lastTransitionTime: "not a time"}]}})");
  EXPECT_EQ(At(pod, "status.conditions.0.lastTransitionTime"),
            Canon(R"("2026-01-02T02:04:05Z")"));
  EXPECT_EQ(At(pod, "status.conditions.1.lastTransitionTime"), Canon("null"));
  EXPECT_EQ(At(pod, "status.conditions.2.lastTransitionTime"),
            Canon(R"("not a time")"));
  Value lease = Decoded("coordination.k8s.io/v1", "Lease", R"({
    apiVersion: coordination.k8s.io/v1, kind: Lease,
    spec: {renewTime: "2026-01-02T03:04:05.000001-02:00",
           acquireTime: "2026-01-02T03:04:05Z"}})");
  EXPECT_EQ(At(lease, "spec.renewTime"),
            Canon(R"("2026-01-02T05:04:05.000001Z")"));
  // A MicroTime needs its six digits of fraction; the apiserver refuses
  // this one, and smdx leaves it to validation.
  EXPECT_EQ(At(lease, "spec.acquireTime"), Canon(R"("2026-01-02T03:04:05Z")"));
}

// What the conversion to the internal version and back does to a body
// (pkg/apis/*/v1/conversion.go); the defaulting differential
// (conformance/realapi/cmd/defaulting) found each.
TEST(ConversionsTest, ABodyComesBackFromTheInternalVersion) {
  Value secret = Decoded("v1", "Secret", R"({apiVersion: v1, kind: Secret,
    data: {a: YQ==}, stringData: {b: hello, a: x}})");
  EXPECT_EQ(At(secret, "stringData"), Canon("<absent>"));
  EXPECT_EQ(At(secret, "data"), Canon(R"({"a":"eA==","b":"aGVsbG8="})"));

  Value node = Decoded("v1", "Node", R"({apiVersion: v1, kind: Node,
    spec: {podCIDR: 10.0.0.0/24}})");
  EXPECT_EQ(At(node, "spec.podCIDRs"), Canon(R"(["10.0.0.0/24"])"));
  Value node2 = Decoded("v1", "Node", R"({apiVersion: v1, kind: Node,
    spec: {podCIDRs: [10.0.1.0/24, "fd00::/64"]}})");
  EXPECT_EQ(At(node2, "spec.podCIDR"), Canon(R"("10.0.1.0/24")"));

  Value sts = Decoded("apps/v1", "StatefulSet", R"({apiVersion: apps/v1,
    kind: StatefulSet, spec: {volumeClaimTemplates: [{metadata: {name: data}}]}})");
  EXPECT_EQ(At(sts, "spec.volumeClaimTemplates.0.apiVersion"),
            Canon(R"("v1")"));
  EXPECT_EQ(At(sts, "spec.volumeClaimTemplates.0.kind"),
            Canon(R"("PersistentVolumeClaim")"));

  // A rolling update of another strategy type keeps its values: zeros.
  Value d = Decoded("apps/v1", "Deployment", R"({apiVersion: apps/v1,
    kind: Deployment, spec: {strategy: {type: Recreate, rollingUpdate: {}},
    template: {spec: {containers: []}}},
    metadata: {annotations: {deprecated.deployment.rollback.to: "007"}}})");
  EXPECT_EQ(At(d, "spec.strategy.rollingUpdate"),
            Canon(R"({"maxSurge":0,"maxUnavailable":0})"));
  EXPECT_EQ(At(d, "metadata.annotations"),
            Canon(R"({"deprecated.deployment.rollback.to":"7"})"));

  Value hpa = Decoded("autoscaling/v1", "HorizontalPodAutoscaler", R"({
    apiVersion: autoscaling/v1, kind: HorizontalPodAutoscaler,
    spec: {maxReplicas: 3}})");
  EXPECT_EQ(At(hpa, "spec.targetCPUUtilizationPercentage"), Canon("80"));

  Value pod = Decoded("v1", "Pod", R"({apiVersion: v1, kind: Pod,
    spec: {containers: [{name: a, image: "a:1",
      readinessProbe: {grpc: {port: 9000}},
      env: [{name: E, valueFrom: {fileKeyRef: {path: p, key: k, volumeName: v}}}]}]}})");
  EXPECT_EQ(At(pod, "spec.containers.0.readinessProbe.grpc.service"),
            Canon(R"("")"));
  EXPECT_EQ(At(pod, "spec.containers.0.env.0.valueFrom.fileKeyRef.optional"),
            Canon("false"));
}

// ---- What a create gets from the registry and admission --------------------

// `object` (YAML) created as its request gave it.
Value Created(const char* api_version, const char* kind, const char* object) {
  const Value v = Yaml(object);
  return KindOf(api_version, kind)->PrepareForCreate(v, v);
}

TEST(PrepareForCreateTest, StatusFinalizersAndLabels) {
  Value p = Created("v1", "Pod", R"({apiVersion: v1, kind: Pod,
    spec: {containers: [{name: a, resources: {requests: {cpu: 1, memory: 1Gi},
                                              limits: {cpu: 1, memory: 1Gi}}}]}})");
  EXPECT_EQ(At(p, "status"),
            Canon(R"({"phase":"Pending","qosClass":"Guaranteed"})"));
  EXPECT_EQ(internal::PodQosClass(
                Yaml("{spec: {containers: [{name: a}, {name: b, resources: "
                     "{requests: {cpu: 100m}}}]}}")),
            "Burstable");
  EXPECT_EQ(internal::PodQosClass(Yaml("{spec: {containers: [{name: a}]}}")),
            "BestEffort");
  // Pod-level resources decide only where they name cpu, memory or huge
  // pages (helper.IsPodLevelResourcesSet).
  EXPECT_EQ(internal::PodQosClass(Yaml(
                "{spec: {resources: {}, containers: [{name: a, resources: "
                "{requests: {cpu: 1}}}]}}")),
            "Burstable");
  EXPECT_EQ(internal::PodQosClass(Yaml(
                "{spec: {resources: {limits: {example.com/gpu: 1}}, "
                "containers: [{name: a, resources: {requests: {cpu: 1}, "
                "limits: {cpu: 1}}}]}}")),
            "Burstable");
  EXPECT_EQ(internal::PodQosClass(Yaml(
                "{spec: {resources: {requests: {hugepages-2Mi: 1Gi}, limits: "
                "{hugepages-2Mi: 1Gi}}, containers: [{name: a, resources: "
                "{requests: {cpu: 1}}}]}}")),
            "BestEffort");
  // 1000m and 1 are the same quantity.
  EXPECT_EQ(internal::PodQosClass(
                Yaml("{spec: {containers: [{name: a, resources: {requests: "
                     "{cpu: 1000m, memory: 1024Mi}, limits: {cpu: '1', memory: "
                     "1Gi}}}]}}")),
            "Guaranteed");

  Value ns = Created("v1", "Namespace", "{apiVersion: v1, kind: Namespace}");
  EXPECT_EQ(At(ns, "spec.finalizers"), Canon(R"(["kubernetes"])"));
  Value pvc = Created("v1", "PersistentVolumeClaim", R"({apiVersion: v1,
    kind: PersistentVolumeClaim, metadata: {finalizers: [a]}})");
  EXPECT_EQ(At(pvc, "metadata.finalizers"),
            Canon(R"(["a","kubernetes.io/pvc-protection"])"));
  Value job = Created("batch/v1", "Job", R"({apiVersion: batch/v1, kind: Job,
    metadata: {name: j, labels: {app: a}},
    spec: {template: {metadata: {labels: {app: a}}}}})");
  const std::string generated =
      R"({"app":"a","job-name":"j","batch.kubernetes.io/job-name":"j"})";
  EXPECT_EQ(At(job, "spec.template.metadata.labels"), Canon(generated));
  EXPECT_EQ(At(job, "metadata.labels"), Canon(R"({"app":"a"})"));
  // A request without labels for the Job has the template's defaulted in:
  // the Go defaulter shares their map, so the Job's labels take what the
  // strategy adds to the template's. (Checked against kube-apiserver
  // 1.37, by create and by apply; the uid labels join both there.)
  const char* unlabelled = R"({apiVersion: batch/v1, kind: Job,
    metadata: {name: j, labels: {app: a}},
    spec: {template: {metadata: {labels: {app: a}}}}})";
  Value defaulted = Yaml(unlabelled);  // as decoding left it
  Value request = Yaml(unlabelled);
  request.map().Find("metadata")->map().Erase("labels");
  Value shared =
      KindOf("batch/v1", "Job")->PrepareForCreate(defaulted, request);
  EXPECT_EQ(At(shared, "metadata.labels"), Canon(generated));
  EXPECT_EQ(At(shared, "spec.template.metadata.labels"), Canon(generated));
  Value pv = Created("v1", "PersistentVolume",
                     "{apiVersion: v1, kind: PersistentVolume}");
  EXPECT_EQ(At(pv, "metadata.finalizers"),
            Canon(R"(["kubernetes.io/pv-protection"])"));
  EXPECT_EQ(At(Created("storage.k8s.io/v1", "VolumeAttributesClass",
                       "{apiVersion: storage.k8s.io/v1, kind: "
                       "VolumeAttributesClass, driverName: d}"),
               "metadata.finalizers"),
            Canon(R"(["kubernetes.io/vac-protection"])"));
  // The DaemonSet strategy's first template generation.
  Value ds =
      Created("apps/v1", "DaemonSet", "{apiVersion: apps/v1, kind: DaemonSet}");
  EXPECT_EQ(At(ds, "metadata.annotations"),
            Canon(R"({"deprecated.daemonset.template.generation":"1"})"));
  Value manual = Created("batch/v1", "Job",
                         "{apiVersion: batch/v1, kind: Job, metadata: {name: "
                         "j}, spec: {manualSelector: true}}");
  EXPECT_EQ(At(manual, "spec.template"), Canon("<absent>"));
  EXPECT_EQ(At(manual, "metadata.labels"), Canon("<absent>"));
  // A CRD's status starts over, with its storage version stored.
  Value crd = Created("apiextensions.k8s.io/v1", "CustomResourceDefinition",
                      R"({apiVersion: apiextensions.k8s.io/v1,
    kind: CustomResourceDefinition, metadata: {name: g.example.com},
    spec: {versions: [{name: v1, storage: false}, {name: v2, storage: true}]},
    status: {acceptedNames: {plural: '', kind: ''}}})");
  EXPECT_EQ(At(crd, "status.storedVersions"), Canon(R"(["v2"])"));
}

// metadata.generation as the registry keeps it: 1 at create for the kinds
// whose strategy counts changes, then the live one (BeforeUpdate), one more
// where the strategy counts a change. Checked against kube-apiserver 1.37
// by the real-apiserver corpus, whose masks no longer hide it.
TEST(PrepareForUpdateTest, GenerationCountsWhatTheStrategyCounts) {
  EXPECT_EQ(At(Created("apps/v1", "Deployment",
                       "{apiVersion: apps/v1, kind: Deployment}"),
               "metadata.generation"),
            "1");
  // DeviceTaintRule (resource.k8s.io/v1, served by default in 1.37).
  EXPECT_EQ(At(Created("resource.k8s.io/v1", "DeviceTaintRule",
                       "{apiVersion: resource.k8s.io/v1, kind: "
                       "DeviceTaintRule}"),
               "metadata.generation"),
            "1");
  // CSIDriver counts from 0: its strategy has no PrepareForCreate.
  EXPECT_EQ(At(Created("storage.k8s.io/v1", "CSIDriver",
                       "{apiVersion: storage.k8s.io/v1, kind: CSIDriver}"),
               "metadata.generation"),
            "<absent>");
  EXPECT_EQ(At(Created("v1", "ConfigMap", "{apiVersion: v1, kind: ConfigMap}"),
               "metadata.generation"),
            "<absent>");

  auto updated = [](const char* api_version, const char* kind,
                    const char* object, const char* live) {
    return KindOf(api_version, kind)->PrepareForUpdate(Yaml(object),
                                                       Yaml(live));
  };
  const char* live = R"({apiVersion: apps/v1, kind: Deployment,
    metadata: {name: d, generation: 4, labels: {a: b}, annotations: {x: y}},
    spec: {replicas: 1, template: {spec: {containers: [{name: c}]}}}})";
  EXPECT_EQ(At(updated("apps/v1", "Deployment", R"({metadata: {name: d,
    generation: 9, labels: {a: c}, annotations: {x: y}},
    spec: {replicas: 1, template: {spec: {containers: [{name: c}]}}}})",
                       live),
               "metadata.generation"),
            "4");  // the request's is not taken; labels count for nothing
  EXPECT_EQ(At(updated("apps/v1", "Deployment", R"({metadata: {name: d,
    labels: {a: b}, annotations: {x: y}},
    spec: {replicas: 2, template: {spec: {containers: [{name: c}]}}}})",
                       live),
               "metadata.generation"),
            "5");
  // A Deployment's annotations count too.
  EXPECT_EQ(At(updated("apps/v1", "Deployment", R"({metadata: {name: d,
    labels: {a: b}, annotations: {x: z}},
    spec: {replicas: 1, template: {spec: {containers: [{name: c}]}}}})",
                       live),
               "metadata.generation"),
            "5");

  // A DaemonSet's template change counts in its template generation too.
  const char* ds = R"({apiVersion: apps/v1, kind: DaemonSet,
    metadata: {name: d, generation: 2,
      annotations: {deprecated.daemonset.template.generation: "2"}},
    spec: {minReadySeconds: 1, template: {spec: {containers: [{name: c}]}}}})";
  Value t = updated("apps/v1", "DaemonSet", R"({metadata: {name: d},
    spec: {minReadySeconds: 1, template: {spec: {containers: [{name: e}]}}}})",
                    ds);
  EXPECT_EQ(At(t, "metadata.generation"), "3");
  EXPECT_EQ(At(t, "metadata.annotations"),
            Canon(R"({"deprecated.daemonset.template.generation":"3"})"));
  Value m = updated("apps/v1", "DaemonSet", R"({metadata: {name: d,
    annotations: {deprecated.daemonset.template.generation: "7"}},
    spec: {minReadySeconds: 2, template: {spec: {containers: [{name: c}]}}}})",
                    ds);
  EXPECT_EQ(At(m, "metadata.generation"), "3");
  EXPECT_EQ(At(m, "metadata.annotations"),
            Canon(R"({"deprecated.daemonset.template.generation":"2"})"));

  // apiequality.Semantic: an empty slice is a nil one. An EndpointSlice
  // counts anything but its metadata, and its labels.
  const char* eps = R"({apiVersion: discovery.k8s.io/v1, kind: EndpointSlice,
    metadata: {name: e, generation: 1, labels: {a: b}}, addressType: IPv4,
    endpoints: null, ports: [{port: 80}]})";
  EXPECT_EQ(At(updated("discovery.k8s.io/v1", "EndpointSlice",
                       R"({metadata: {name: e, labels: {a: b}},
    addressType: IPv4, endpoints: [], ports: [{port: 80}]})",
                       eps),
               "metadata.generation"),
            "1");
  EXPECT_EQ(At(updated("discovery.k8s.io/v1", "EndpointSlice",
                       R"({metadata: {name: e, labels: {a: c}},
    addressType: IPv4, ports: [{port: 80}]})",
                       eps),
               "metadata.generation"),
            "2");

  // The Priority admission plugin keeps a pod's priority on update (and
  // DefaultTolerationSeconds gives the request its tolerations again).
  Value pod = updated("v1", "Pod", R"({metadata: {name: p},
    spec: {containers: [{name: c}]}})",
                      R"({apiVersion: v1, kind: Pod,
    metadata: {name: p, generation: 1},
    spec: {containers: [{name: c}], priority: 0,
           preemptionPolicy: PreemptLowerPriority, tolerations: [
      {key: node.kubernetes.io/not-ready, operator: Exists,
       effect: NoExecute, tolerationSeconds: 300},
      {key: node.kubernetes.io/unreachable, operator: Exists,
       effect: NoExecute, tolerationSeconds: 300}]}})");
  EXPECT_EQ(At(pod, "spec.priority"), "0");
  EXPECT_EQ(At(pod, "metadata.generation"), "1");

  // A CRD's new storage version joins its stored versions, but on a write
  // to its status (checked against kube-apiserver 1.37 by apply).
  const char* crd_live = R"({apiVersion: apiextensions.k8s.io/v1,
    kind: CustomResourceDefinition, metadata: {name: b, generation: 1},
    spec: {versions: [{name: v1, storage: true}, {name: v2, storage: false}]},
    status: {storedVersions: [v1]}})";
  const char* crd_new = R"({apiVersion: apiextensions.k8s.io/v1,
    kind: CustomResourceDefinition, metadata: {name: b},
    spec: {versions: [{name: v1, storage: false}, {name: v2, storage: true}]},
    status: {storedVersions: [v1]}})";
  Value moved = updated("apiextensions.k8s.io/v1", "CustomResourceDefinition",
                        crd_new, crd_live);
  EXPECT_EQ(At(moved, "status.storedVersions"), Canon(R"(["v1","v2"])"));
  EXPECT_EQ(At(moved, "metadata.generation"), "2");
  BuiltinKind::UpdateContext status_write;
  status_write.status_write = true;
  Value status = KindOf("apiextensions.k8s.io/v1", "CustomResourceDefinition")
                     ->PrepareForUpdate(Yaml(crd_new), Yaml(crd_live),
                                        status_write);
  EXPECT_EQ(At(status, "status.storedVersions"), Canon(R"(["v1"])"));

  // No status strategy counts a generation: a Deployment's status write
  // keeps the annotations it sends (its strategy resets the spec and the
  // labels alone), which its main strategy would count. Checked against
  // kube-apiserver 1.37 (the corpus's status writes that change metadata).
  const char* deployment_live = R"({apiVersion: apps/v1, kind: Deployment,
    metadata: {name: d, generation: 2, annotations: {a: "1"}},
    spec: {replicas: 1}})";
  const char* deployment_new = R"({apiVersion: apps/v1, kind: Deployment,
    metadata: {name: d, annotations: {a: "2"}}, spec: {replicas: 1},
    status: {replicas: 1}})";
  Value deployment_status =
      KindOf("apps/v1", "Deployment")
          ->PrepareForUpdate(Yaml(deployment_new), Yaml(deployment_live),
                             status_write);
  EXPECT_EQ(At(deployment_status, "metadata.generation"), "2");
  EXPECT_EQ(At(deployment_status, "metadata.annotations"),
            Canon(R"({"a":"2"})"));
  EXPECT_EQ(At(updated("apps/v1", "Deployment", deployment_new,
                       deployment_live),
               "metadata.generation"),
            "3");

  // Kinds whose strategy counts nothing keep the live generation, or none.
  EXPECT_EQ(At(updated("v1", "ConfigMap", "{metadata: {generation: 3}}",
                       "{apiVersion: v1, kind: ConfigMap, metadata: {}}"),
               "metadata.generation"),
            "<absent>");
}

// A DRA device taint's timeAdded is the server's clock: the defaulter
// stamps it when unset (SetDefaults_DeviceTaint), and the DeviceTaintRule
// strategy again when the effect changes and the request kept the time.
// Without a clock nothing is stamped. Checked against kube-apiserver 1.37
// (random scenarios of devicetaintrule.yaml, where the writer of an update
// that leaves the time out comes to own it).
TEST(PrepareForUpdateTest, ADeviceTaintsTimeAddedIsTheServersClock) {
  std::shared_ptr<const BuiltinKind> k =
      KindOf("resource.k8s.io/v1", "DeviceTaintRule");
  const absl::Time now = absl::FromUnixSeconds(1796554754) +
                         absl::Milliseconds(700);  // 2026-12-06T10:59:14.7Z
  const char* rule = R"({apiVersion: resource.k8s.io/v1, kind: DeviceTaintRule,
    metadata: {name: r}, spec: {deviceSelector: {driver: d.example.com},
    taint: {key: k, effect: NoSchedule}}})";
  EXPECT_EQ(At(k->Decode(Yaml(rule), nullptr, nullptr, nullptr, now),
               "spec.taint.timeAdded"),
            "\"2026-12-06T10:59:14Z\"");
  EXPECT_EQ(At(k->Decode(Yaml(rule)), "spec.taint.timeAdded"), "<absent>");

  const char* live = R"({apiVersion: resource.k8s.io/v1, kind: DeviceTaintRule,
    metadata: {name: r, generation: 1}, spec: {taint: {key: k,
    effect: NoSchedule, timeAdded: "2026-01-01T00:00:00Z"}}})";
  BuiltinKind::UpdateContext context;
  context.now = now;
  auto updated = [&](const char* taint) {
    return At(k->PrepareForUpdate(
                  Yaml(absl::StrCat("{apiVersion: resource.k8s.io/v1, kind: "
                                    "DeviceTaintRule, metadata: {name: r}, "
                                    "spec: {taint: ",
                                    taint, "}}")),
                  Yaml(live), context),
              "spec.taint.timeAdded");
  };
  EXPECT_EQ(updated(R"({key: k, effect: NoExecute,
    timeAdded: "2026-01-01T00:00:00Z"})"),
            "\"2026-12-06T10:59:14Z\"");
  // A new time the request sets, or the same effect, stays as it is.
  EXPECT_EQ(updated(R"({key: k, effect: NoExecute,
    timeAdded: "2026-02-01T00:00:00Z"})"),
            "\"2026-02-01T00:00:00Z\"");
  EXPECT_EQ(updated(R"({key: j, effect: NoSchedule,
    timeAdded: "2026-01-01T00:00:00Z"})"),
            "\"2026-01-01T00:00:00Z\"");
}

// A CRD's JSON values (a schema's default, example and enum items) pass
// through the apiextensions internal type, an interface{} that keeps
// integers: the strategy counts a generation where a value's Go type
// changes (`1.0` against the stored `1`), and storage gives back whole
// floats as integers, as the schemas' float64 fields (maximum). Checked
// against kube-apiserver 1.37: a PUT of `default: 1.0` over a stored `1`
// bumps the generation each time, and a create of `1.0`, `1e3`, `-0.0`
// and `2.0` inside a default map stores 1, 1000, 0 and 2.
TEST(PrepareForUpdateTest, ACrdsJsonValuesCountWithTheirGoTypes) {
  const std::string head = R"({apiVersion: apiextensions.k8s.io/v1,
    kind: CustomResourceDefinition, metadata: {name: b, generation: 1},
    spec: {versions: [{name: v1, storage: true, schema: {openAPIV3Schema: {
      type: object, properties: {num: )";
  const std::string tail = "}}}}]}, status: {storedVersions: [v1]}}";
  auto crd = [&](const std::string& n) { return head + n + tail; };
  const std::string live =
      crd("{type: number, default: 1, example: 1000, enum: [1, 2], "
          "items: {properties: {x: {default: {a: 2}}}}}");
  std::shared_ptr<const BuiltinKind> k =
      KindOf("apiextensions.k8s.io/v1", "CustomResourceDefinition");
  auto generation = [&](const std::string& n) {
    return At(k->PrepareForUpdate(Yaml(crd(n)), Yaml(live), {}),
              "metadata.generation");
  };
  EXPECT_EQ(generation("{type: number, default: 1, example: 1000, "
                       "enum: [1, 2], items: {properties: {x: {default: "
                       "{a: 2}}}}}"),
            "1");
  EXPECT_EQ(generation("{type: number, default: 1.0, example: 1000, "
                       "enum: [1, 2], items: {properties: {x: {default: "
                       "{a: 2}}}}}"),
            "2");
  EXPECT_EQ(generation("{type: number, default: 1, example: 1e3, "
                       "enum: [1, 2], items: {properties: {x: {default: "
                       "{a: 2}}}}}"),
            "2");
  EXPECT_EQ(generation("{type: number, default: 1, example: 1000, "
                       "enum: [1, 2.0], items: {properties: {x: {default: "
                       "{a: 2}}}}}"),
            "2");
  EXPECT_EQ(generation("{type: number, default: 1, example: 1000, "
                       "enum: [1, 2], items: {properties: {x: {default: "
                       "{a: 2.0}}}}}"),
            "2");
  // A nil *JSON is a null or no value; `[]` and `{a: null}` are values.
  EXPECT_EQ(generation("{type: number, default: 1, example: 1000, "
                       "enum: [1, 2], items: {properties: {x: {default: "
                       "{a: 2}, example: null}}}}"),
            "1");
  EXPECT_EQ(generation("{type: number, default: 1, example: 1000, "
                       "enum: [1, 2], items: {properties: {x: {default: "
                       "{a: 2}, example: []}}}}"),
            "2");
  EXPECT_EQ(generation("{type: number, default: 1, example: 1000, "
                       "enum: [1, 2], items: {properties: {x: {default: "
                       "{a: 2, b: null}}}}}"),
            "2");

  // Stored: whole floats below 2^63 as integers, whatever counted.
  auto number_at = [](const Value& v, const std::string& path) {
    const Value* at = ValueAt(v, path);
    return at == nullptr          ? "<absent>"
           : at->IsInt()          ? absl::StrCat("int ", at->AsInt())
           : at->IsFloat()        ? absl::StrCat("float ", at->AsFloat())
                                  : ToJsonSorted(*at);
  };
  Value stored = k->PrepareForUpdate(
      Yaml(crd("{type: number, default: 1.0, maximum: 10.0, minimum: 0.5, "
               "enum: [2.0, -0.0, 1e21], items: {properties: {x: {default: "
               "{a: 2.0}}}}}")),
      Yaml(live), {});
  const std::string n = "spec.versions.0.schema.openAPIV3Schema.properties.num.";
  EXPECT_EQ(number_at(stored, n + "default"), "int 1");
  EXPECT_EQ(number_at(stored, n + "maximum"), "int 10");
  EXPECT_EQ(number_at(stored, n + "minimum"), "float 0.5");
  EXPECT_EQ(number_at(stored, n + "enum.0"), "int 2");
  EXPECT_EQ(number_at(stored, n + "enum.1"), "int 0");
  EXPECT_EQ(number_at(stored, n + "enum.2"), "float 1e+21");
  EXPECT_EQ(number_at(stored, n + "items.properties.x.default.a"), "int 2");

  // At create, and through the converter (an apply's merged object).
  Value created = Created("apiextensions.k8s.io/v1", "CustomResourceDefinition",
                          crd("{type: number, example: 1e3}").c_str());
  EXPECT_EQ(number_at(created, n + "example"), "int 1000");
  Value read = k->ReadBack(Yaml(crd("{type: number, default: 1.0}")));
  EXPECT_EQ(number_at(read, n + "default"), "int 1");
  // (A live object as the request has it: the float, unconverted.)
  EXPECT_EQ(number_at(Yaml(crd("{default: 1.0}")), n + "default"), "float 1");
}

// The metadata the generic registry's BeforeUpdate keeps from the live
// object, for built-in kinds and custom resources alike: its uid and, for
// an unconditional update, resourceVersion where the request sends none;
// its creationTimestamp and deletionTimestamp whatever the request sends;
// its deletionGracePeriodSeconds where the request sends none. Checked
// against kube-apiserver 1.37 (configmap.yaml's and cr-widgets.yaml's
// writes without them; random scenarios met a PUT whose only change was
// the missing creationTimestamp and managedFields times, which the server
// stored as no change at all).
TEST(PrepareForUpdateTest, BeforeUpdateKeepsTheMetadataTheServerSet) {
  const char* live = R"({apiVersion: v1, kind: ConfigMap, metadata: {
    name: c, uid: u-1, resourceVersion: "7",
    creationTimestamp: "2026-01-01T00:00:00Z",
    deletionTimestamp: "2026-01-02T00:00:00Z",
    deletionGracePeriodSeconds: 0, finalizers: [f]}})";
  std::shared_ptr<const BuiltinKind> k = KindOf("v1", "ConfigMap");
  const char* kept[] = {"uid", "resourceVersion", "creationTimestamp",
                        "deletionTimestamp", "deletionGracePeriodSeconds"};
  auto metadata = [&](const Value& object) {
    std::string out;
    for (const char* f : kept) {
      absl::StrAppend(&out, f, "=", At(object, absl::StrCat("metadata.", f)),
                      " ");
    }
    return out;
  };
  const std::string all_live =
      "uid=\"u-1\" resourceVersion=\"7\" "
      "creationTimestamp=\"2026-01-01T00:00:00Z\" "
      "deletionTimestamp=\"2026-01-02T00:00:00Z\" "
      "deletionGracePeriodSeconds=0 ";
  // A built-in kind's registry and a custom resource's alike.
  auto expect_both = [&](const char* body, const std::string& want) {
    EXPECT_EQ(metadata(k->PrepareForUpdate(Yaml(body), Yaml(live))), want);
    EXPECT_EQ(metadata(CustomResourceMetadata::AsStored(Yaml(body), Yaml(live),
                                                        false)),
              want);
  };
  const char* bare =
      "{apiVersion: v1, kind: ConfigMap, metadata: {name: c, "
      "finalizers: [f]}}";
  expect_both(bare, all_live);
  // What the request sends of the uid, resourceVersion and grace period
  // stays (the server refuses another uid, and another resourceVersion as
  // a conflict; smdx checks neither); its times do not.
  const char* sent = R"({apiVersion: v1, kind: ConfigMap, metadata: {name: c,
    uid: u-2, resourceVersion: "6", creationTimestamp: "2020-01-01T00:00:00Z",
    deletionTimestamp: null, deletionGracePeriodSeconds: 30}})";
  const std::string mixed =
      "uid=\"u-2\" resourceVersion=\"6\" "
      "creationTimestamp=\"2026-01-01T00:00:00Z\" "
      "deletionTimestamp=\"2026-01-02T00:00:00Z\" "
      "deletionGracePeriodSeconds=30 ";
  expect_both(sent, mixed);
  // A live object without them gives none; a create (no live object) none
  // either.
  const char* plain = "{apiVersion: v1, kind: ConfigMap, metadata: {name: c}}";
  EXPECT_EQ(metadata(k->PrepareForUpdate(Yaml(bare), Yaml(plain))),
            "uid=<absent> resourceVersion=<absent> "
            "creationTimestamp=<absent> deletionTimestamp=<absent> "
            "deletionGracePeriodSeconds=<absent> ");
  EXPECT_EQ(metadata(CustomResourceMetadata::AsStored(Yaml(bare), Value(),
                                                      false)),
            "uid=<absent> resourceVersion=<absent> "
            "creationTimestamp=<absent> deletionTimestamp=<absent> "
            "deletionGracePeriodSeconds=<absent> ");
}

// A Service's IP family fields on an update that leaves them out: the IP
// allocator's initIPFamilyFields takes the live policy and the family of
// each cluster IP (which patchAllocatedValues keeps); what the cluster's
// configuration decides comes from the live Service. Checked against
// kube-apiserver 1.37 (service.yaml's writes; random scenarios whose PUTs
// left them out).
TEST(PrepareForUpdateTest, AServicesIpFamiliesComeFromTheLiveService) {
  std::shared_ptr<const BuiltinKind> k = KindOf("v1", "Service");
  auto families = [&](const std::string& spec, const std::string& live_spec) {
    Value v = k->PrepareForUpdate(
        Yaml("{apiVersion: v1, kind: Service, metadata: {name: s}, spec: " +
             spec + "}"),
        Yaml("{apiVersion: v1, kind: Service, metadata: {name: s}, spec: " +
             live_spec + "}"));
    return At(v, "spec.ipFamilyPolicy") + " " + At(v, "spec.ipFamilies") +
           " " + At(v, "spec.clusterIPs");
  };
  const std::string live =
      "{type: ClusterIP, clusterIP: 10.0.0.9, clusterIPs: [10.0.0.9], "
      "ipFamilies: [IPv4], ipFamilyPolicy: SingleStack, selector: {a: b}}";
  EXPECT_EQ(families("{type: ClusterIP, selector: {a: b}}", live),
            "\"SingleStack\" [\"IPv4\"] [\"10.0.0.9\"]");
  // The family of an IPv6 address; the policy the request names stays.
  EXPECT_EQ(families("{type: ClusterIP, clusterIP: 'fd00::9', "
                     "ipFamilyPolicy: PreferDualStack, selector: {a: b}}",
                     "{type: ClusterIP, clusterIP: 'fd00::9', clusterIPs: "
                     "['fd00::9'], ipFamilies: [IPv6], selector: {a: b}}"),
            "\"PreferDualStack\" [\"IPv6\"] [\"fd00::9\"]");
  // SingleStack keeps the first IP and family of the live ones.
  EXPECT_EQ(families("{type: ClusterIP, clusterIPs: [10.0.0.9, 'fd00::9'], "
                     "ipFamilies: [IPv4, IPv6], ipFamilyPolicy: SingleStack, "
                     "selector: {a: b}}",
                     "{type: ClusterIP, clusterIP: 10.0.0.9, clusterIPs: "
                     "[10.0.0.9, 'fd00::9'], ipFamilies: [IPv4, IPv6], "
                     "ipFamilyPolicy: PreferDualStack, selector: {a: b}}"),
            "\"SingleStack\" [\"IPv4\"] [\"10.0.0.9\"]");
  // A headless Service without a selector: RequireDualStack when the live
  // one has no policy, its first family and the other.
  EXPECT_EQ(families("{type: ClusterIP, clusterIP: None}",
                     "{type: ClusterIP, clusterIP: None, clusterIPs: [None], "
                     "ipFamilies: [IPv4]}"),
            "\"RequireDualStack\" [\"IPv4\",\"IPv6\"] [\"None\"]");
  // An ExternalName Service has none.
  EXPECT_EQ(families("{type: ExternalName, externalName: a.example.com}",
                     "{type: ExternalName, externalName: a.example.com}"),
            "<absent> <absent> <absent>");
  // A live Service without families (smdx left them to the cluster): the
  // cluster IPs' own family, and the policy from the object.
  EXPECT_EQ(families("{type: ClusterIP, selector: {a: b}}",
                     "{type: ClusterIP, clusterIP: 'fd00::9', clusterIPs: "
                     "['fd00::9'], selector: {a: b}}"),
            "\"SingleStack\" [\"IPv6\"] [\"fd00::9\"]");
  // Leaving ExternalName, the policy comes from the object; the families
  // are the cluster's (the live Service shows none).
  EXPECT_EQ(families("{type: ClusterIP, selector: {a: b}}",
                     "{type: ExternalName, externalName: a.example.com}"),
            "\"SingleStack\" <absent> <absent>");
  EXPECT_EQ(families("{type: ClusterIP, clusterIP: None}",
                     "{type: ExternalName, externalName: a.example.com}"),
            "\"RequireDualStack\" <absent> [\"None\"]");
}

// A created Service's IP family policy depends on the object alone
// (initIPFamilyFields): SingleStack, RequireDualStack for a headless
// Service without a selector, the policy the request names, none for
// ExternalName. Checked against kube-apiserver 1.37 (every Service
// scenario's create, and random ones).
TEST(PrepareForCreateTest, AServicesIpFamilyPolicy) {
  auto policy = [](const std::string& spec) {
    const std::string service =
        "{apiVersion: v1, kind: Service, metadata: {name: s}, spec: " + spec +
        "}";
    return At(Created("v1", "Service", service.c_str()), "spec.ipFamilyPolicy");
  };
  EXPECT_EQ(policy("{type: ClusterIP, selector: {a: b}}"), "\"SingleStack\"");
  EXPECT_EQ(policy("{type: LoadBalancer, ports: [{port: 80}]}"),
            "\"SingleStack\"");
  EXPECT_EQ(policy("{type: ClusterIP, clusterIP: None, selector: {a: b}}"),
            "\"SingleStack\"");
  EXPECT_EQ(policy("{type: ClusterIP, clusterIP: None}"),
            "\"RequireDualStack\"");
  EXPECT_EQ(policy("{type: ClusterIP, clusterIP: None, selector: {}}"),
            "\"RequireDualStack\"");
  EXPECT_EQ(policy("{type: ClusterIP, ipFamilyPolicy: PreferDualStack}"),
            "\"PreferDualStack\"");
  EXPECT_EQ(policy("{type: ExternalName, externalName: a.example.com}"),
            "<absent>");
}

// A DeviceClass's opaque parameters are a runtime.RawExtension: the
// strategy's DeepEqual compares their raw JSON, where a null is a value, so
// a null there counts as a change; elsewhere in the spec a null is the
// field's zero value. Checked against kube-apiserver 1.37 (random
// scenarios; deviceclass.yaml's write).
TEST(PrepareForUpdateTest, ANullInOpaqueParametersCountsAsAChange) {
  std::shared_ptr<const BuiltinKind> k =
      KindOf("resource.k8s.io/v1", "DeviceClass");
  const std::string live =
      "{apiVersion: resource.k8s.io/v1, kind: DeviceClass, metadata: {name: "
      "c, generation: 3}, spec: {config: [{opaque: {driver: d, parameters: "
      "{apiVersion: v1, sharing: {strategy: S}}}}]}}";
  auto generation = [&](const std::string& spec) {
    return At(k->PrepareForUpdate(
                  Yaml("{apiVersion: resource.k8s.io/v1, kind: DeviceClass, "
                       "metadata: {name: c}, spec: " +
                       spec + "}"),
                  Yaml(live)),
              "metadata.generation");
  };
  EXPECT_EQ(generation("{config: [{opaque: {driver: d, parameters: "
                       "{apiVersion: v1, sharing: {strategy: S}}}}]}"),
            "3");
  EXPECT_EQ(generation("{config: [{opaque: {driver: d, parameters: "
                       "{apiVersion: v1, kind: null, sharing: {strategy: "
                       "S}}}}]}"),
            "4");
  EXPECT_EQ(generation("{config: [{opaque: {driver: d, parameters: "
                       "{apiVersion: v1, sharing: {strategy: S, n: null}}}}]}"),
            "4");
  // Outside the parameters a null is no change.
  EXPECT_EQ(generation("{extendedResourceName: null, config: [{opaque: "
                       "{driver: d, parameters: {apiVersion: v1, sharing: "
                       "{strategy: S}}}}]}"),
            "3");
}

// ---- Fields of features off by default (disabled_fields.h) ---------------

// Every field the table names is a field of its kind in the embedded 1.37
// schema (a misspelt name would drop nothing).
TEST(DisabledFieldsTest, EveryFieldIsInTheSchema) {
  absl::StatusOr<std::shared_ptr<const Schema>> schema = KubernetesSchema();
  ASSERT_TRUE(schema.ok());
  size_t kinds = 0, paths = 0;
  for (const KubernetesKind& k : KubernetesKinds()) {
    const auto fields = internal::DisabledFieldPaths(k.api_version, k.kind);
    if (fields.empty()) continue;
    ++kinds;
    for (const std::vector<std::string>& path : fields) {
      ++paths;
      const Atom* at = (*schema)->Find(k.type_name);
      std::string where = k.kind;
      for (const std::string& step : path) {
        where += "." + step;
        if (at == nullptr) break;
        if (step == "[]") {
          at = at->list != nullptr ? at->list->element_type.resolved : nullptr;
        } else if (step == "*" || at->map == nullptr) {
          at = at->map != nullptr && at->map->element_type.has_value()
                   ? at->map->element_type->resolved
                   : nullptr;
        } else {
          at = at->map->EntryAtom(step);
        }
      }
      EXPECT_NE(at, nullptr) << where;
    }
  }
  // The kinds that hold a pod spec, Node, PVC, CSINode, Lease and the
  // three DRA kinds.
  EXPECT_EQ(kinds, 16u);
  EXPECT_GT(paths, 100u);
}

// The Lease strategy drops the fields of CoordinatedLeaderElection at
// create, and on update unless the live Lease has them, each on its own.
// Checked against kube-apiserver 1.37 (the corpus's lease.yaml).
TEST(DisabledFieldsTest, ALeaseDropsEachFieldUnlessTheLiveLeaseHasIt) {
  const char* lease = R"({apiVersion: coordination.k8s.io/v1, kind: Lease,
    metadata: {name: l}, spec: {holderIdentity: a, strategy:
    OldestEmulationVersion, preferredHolder: b}})";
  Value created = Created("coordination.k8s.io/v1", "Lease", lease);
  EXPECT_EQ(At(created, "spec"), Canon(R"({"holderIdentity":"a"})"));
  std::shared_ptr<const BuiltinKind> k = KindOf("coordination.k8s.io/v1",
                                                "Lease");
  EXPECT_EQ(At(k->PrepareForUpdate(Yaml(lease), created), "spec"),
            Canon(R"({"holderIdentity":"a"})"));
  // A live Lease that has them (written while the feature was on) keeps
  // taking them.
  Value updated = k->PrepareForUpdate(
      Yaml(lease), Yaml(R"({apiVersion: coordination.k8s.io/v1, kind: Lease,
    metadata: {name: l}, spec: {strategy: OldestEmulationVersion}})"));
  EXPECT_EQ(At(updated, "spec"),
            Canon(R"({"holderIdentity":"a","strategy":"OldestEmulationVersion"})"));
}

// A Deployment's pod template loses the fields of pod features off in 1.37
// (pkg/api/pod/util.go dropDisabledFields), wherever they are: in each
// container list, probe, lifecycle handler and volume source.
TEST(DisabledFieldsTest, APodTemplateLosesTheFieldsOfDisabledFeatures) {
  const char* deployment = R"({apiVersion: apps/v1, kind: Deployment,
    metadata: {name: d}, spec: {selector: {matchLabels: {a: b}}, template: {
      metadata: {labels: {a: b}, annotations: {keep: x,
        pod.beta.kubernetes.io/init-containers: "[]"}},
      spec: {schedulingGroup: {podGroupName: g}, evictionResponders: [{name: r}],
        containers: [
          {name: a, image: i, lifecycle: {stopSignal: SIGUSR1},
           livenessProbe: {httpGet: {port: 80, protocol: H2C}},
           readinessProbe: {grpc: {port: 81, mode: TLS}},
           volumeMounts: [{name: s, mountPath: /s, bindMountOptions: [ro]}]},
          {name: b, image: i, lifecycle: {stopSignal: SIGUSR1,
           preStop: {httpGet: {port: 80, protocol: H2C}}}}],
        initContainers: [{name: c, image: i, lifecycle: {stopSignal: SIGTERM}}],
        volumes: [
          {name: e, emptyDir: {mode: 0700, sizeLimit: 1Gi}},
          {name: s, secret: {secretName: s, defaultUser: 1000,
           items: [{key: k, path: p, user: 1001}]}},
          {name: p, projected: {defaultUser: 5, sources: [
            {serviceAccountToken: {path: t, user: 7}},
            {configMap: {name: c, items: [{key: k, path: q, user: 8}]}}]}}]}}}})";
  Value created = Created("apps/v1", "Deployment", deployment);
  const std::string t = "spec.template.";
  EXPECT_EQ(At(created, t + "metadata.annotations"),
            Canon(R"({"keep":"x"})"));
  EXPECT_EQ(At(created, t + "spec.schedulingGroup"), "<absent>");
  EXPECT_EQ(At(created, t + "spec.evictionResponders"), "<absent>");
  // A lifecycle left empty goes with its stop signal.
  EXPECT_EQ(At(created, t + "spec.containers.0.lifecycle"), "<absent>");
  EXPECT_EQ(At(created, t + "spec.containers.1.lifecycle"),
            Canon(R"({"preStop":{"httpGet":{"port":80}}})"));
  EXPECT_EQ(At(created, t + "spec.initContainers.0.lifecycle"), "<absent>");
  EXPECT_EQ(At(created, t + "spec.containers.0.livenessProbe"),
            Canon(R"({"httpGet":{"port":80}})"));
  EXPECT_EQ(At(created, t + "spec.containers.0.readinessProbe"),
            Canon(R"({"grpc":{"port":81}})"));
  EXPECT_EQ(At(created, t + "spec.containers.0.volumeMounts"),
            Canon(R"([{"name":"s","mountPath":"/s"}])"));
  EXPECT_EQ(At(created, t + "spec.volumes"), Canon(R"([
    {"name":"e","emptyDir":{"sizeLimit":"1Gi"}},
    {"name":"s","secret":{"secretName":"s","items":[{"key":"k","path":"p"}]}},
    {"name":"p","projected":{"sources":[{"serviceAccountToken":{"path":"t"}},
      {"configMap":{"name":"c","items":[{"key":"k","path":"q"}]}}]}}])"));
  // Nothing else moved: what the request had but these fields is all there.
  EXPECT_EQ(At(created, t + "spec.containers.0.image"), Canon(R"("i")"));
}

// On update a feature the live template uses keeps all its fields, in every
// place (one in-use check covers them); the others still go, and the
// legacy init container annotations go whatever the live object held.
TEST(DisabledFieldsTest, AFeatureTheLiveObjectUsesKeepsItsFields) {
  std::shared_ptr<const BuiltinKind> k = KindOf("batch/v1", "CronJob");
  const char* request = R"({apiVersion: batch/v1, kind: CronJob,
    metadata: {name: c}, spec: {schedule: "* * * * *", jobTemplate: {spec: {
      scheduling: {podGroupName: g},
      template: {metadata: {annotations: {pod.alpha.kubernetes.io/init-containers: x}},
      spec: {restartPolicy: Never,
        containers: [{name: a, image: i, lifecycle: {stopSignal: SIGUSR1},
          startupProbe: {httpGet: {port: 80, protocol: H2C}}}],
        volumes: [{name: s, configMap: {name: m, defaultUser: 3}}]}}}}}})";
  const char* live = R"({apiVersion: batch/v1, kind: CronJob,
    metadata: {name: c}, spec: {schedule: "* * * * *", jobTemplate: {spec: {
      template: {metadata: {annotations: {pod.alpha.kubernetes.io/init-containers: x}},
      spec: {restartPolicy: Never,
        containers: [{name: z, image: i, lifecycle: {stopSignal: SIGINT}}],
        volumes: [{name: d, downwardAPI: {items: [{path: p, user: 9,
          fieldRef: {fieldPath: metadata.name}}]}}]}}}}}})";
  Value updated = k->PrepareForUpdate(Yaml(request), Yaml(live));
  const std::string t = "spec.jobTemplate.spec.template.";
  EXPECT_EQ(At(updated, t + "spec.containers.0.lifecycle"),
            Canon(R"({"stopSignal":"SIGUSR1"})"));
  EXPECT_EQ(At(updated, t + "spec.volumes.0.configMap"),
            Canon(R"({"name":"m","defaultUser":3})"));
  EXPECT_EQ(At(updated, t + "spec.containers.0.startupProbe"),
            Canon(R"({"httpGet":{"port":80}})"));
  EXPECT_EQ(At(updated, t + "metadata.annotations"), "<absent>");
  EXPECT_EQ(At(updated, "spec.jobTemplate.spec.scheduling"), "<absent>");
  // An empty list is no use (storage reads it back as nil), null neither.
  Value unused = k->PrepareForUpdate(Yaml(request), Yaml(R"({apiVersion:
    batch/v1, kind: CronJob, metadata: {name: c}, spec: {jobTemplate: {spec: {
    scheduling: null, template: {spec: {containers: [{name: z, lifecycle: {
    stopSignal: null}, volumeMounts: [{name: v, bindMountOptions: []}]}]}}}}}})"));
  EXPECT_EQ(At(unused, t + "spec.containers.0.lifecycle"), "<absent>");
  EXPECT_EQ(At(unused, "spec.jobTemplate.spec.scheduling"), "<absent>");
}

// A pod's status endpoint: the status fields of disabled features go
// unless the live status has them; the main endpoint keeps the live status.
TEST(DisabledFieldsTest, APodStatusWriteLosesDisabledStatusFields) {
  std::shared_ptr<const BuiltinKind> k = KindOf("v1", "Pod");
  const char* request = R"({apiVersion: v1, kind: Pod, metadata: {name: p},
    spec: {containers: [{name: a, image: i}]}, status: {phase: Running,
    volumeHealth: [{name: v}], containerStatuses: [{name: a, volumeMounts: [
    {name: v, mountPath: /v, volumeStatus: {image: {imageRef: r}}}]}]}})";
  BuiltinKind::UpdateContext status_write;
  status_write.status_write = true;
  Value updated = k->PrepareForUpdate(Yaml(request), Yaml(R"({apiVersion: v1,
    kind: Pod, metadata: {name: p}, status: {phase: Pending}})"), status_write);
  EXPECT_EQ(At(updated, "status.volumeHealth"), "<absent>");
  EXPECT_EQ(At(updated, "status.containerStatuses.0.volumeMounts.0"),
            Canon(R"({"name":"v","mountPath":"/v"})"));
  Value kept = k->PrepareForUpdate(Yaml(request), Yaml(R"({apiVersion: v1,
    kind: Pod, metadata: {name: p}, status: {ephemeralContainerStatuses: [
    {name: e, volumeMounts: [{name: v, volumeStatus: {image: {}}}]}]}})"),
                                   status_write);
  EXPECT_EQ(At(kept, "status.containerStatuses.0.volumeMounts.0.volumeStatus"),
            Canon(R"({"image":{"imageRef":"r"}})"));
  EXPECT_EQ(At(kept, "status.volumeHealth"), "<absent>");
}

// A Node's config source, and its status's config, go at create, and on
// update unless the live node has them (the status strategy's; the main
// endpoint keeps the live status).
TEST(DisabledFieldsTest, ANodesConfigSource) {
  const char* node = R"({apiVersion: v1, kind: Node, metadata: {name: n},
    spec: {podPreemptionPolicy: {disableResizePreemption: [a]},
    configSource: {configMap: {name: c, namespace: kube-system,
    kubeletConfigKey: k}}}, status: {config: {error: e}, phase: Running}})";
  Value created = Created("v1", "Node", node);
  // (TaintNodesByCondition's taint alone is left.)
  EXPECT_EQ(At(created, "spec"), Canon(R"({"taints":[{
    "key":"node.kubernetes.io/not-ready","effect":"NoSchedule"}]})"));
  EXPECT_EQ(At(created, "status"), Canon(R"({"phase":"Running"})"));
  std::shared_ptr<const BuiltinKind> k = KindOf("v1", "Node");
  Value updated = k->PrepareForUpdate(Yaml(node), Yaml(R"({apiVersion: v1,
    kind: Node, metadata: {name: n}, spec: {configSource: {configMap: {}}},
    status: {config: {}}})"));
  EXPECT_EQ(At(updated, "spec.configSource.configMap.name"), Canon(R"("c")"));
  EXPECT_EQ(At(updated, "spec.podPreemptionPolicy"), "<absent>");
  EXPECT_EQ(At(updated, "status.config"), Canon(R"({"error":"e"})"));
  Value unused = k->PrepareForUpdate(Yaml(node), created);
  EXPECT_EQ(At(unused, "spec"), "{}");  // (the taint is added at create)
  EXPECT_EQ(At(unused, "status.config"), "<absent>");
}

// DRA: a ResourceSlice's list-type attribute values (one feature, four
// fields) and a claim's derived attributes, under `exactly` and each of
// `firstAvailable`.
TEST(DisabledFieldsTest, DynamicResourceAllocationFields) {
  Value slice = Created("resource.k8s.io/v1", "ResourceSlice", R"({
    apiVersion: resource.k8s.io/v1, kind: ResourceSlice, metadata: {name: s},
    spec: {driver: d, pool: {name: p, resourceSliceCount: 1,
      generation: 1}, allNodes: true, skipNodeOperations: [Prepare],
      devices: [{name: x, attributes: {a: {ints: [1, 2]},
        b: {string: s}}, consumesCounters: [{counterSet: c,
        compatibilityGroups: [g], counters: {m: {value: "1"}}}]}]}})");
  EXPECT_EQ(At(slice, "spec.devices.0.attributes"),
            Canon(R"({"a":{},"b":{"string":"s"}})"));
  EXPECT_EQ(At(slice, "spec.devices.0.consumesCounters.0"),
            Canon(R"({"counterSet":"c","counters":{"m":{"value":"1"}}})"));
  EXPECT_EQ(At(slice, "spec.skipNodeOperations"), "<absent>");
  // Its strategy counts the generation before it drops them: a request
  // that adds only such a field counts as a change.
  Value updated = KindOf("resource.k8s.io/v1", "ResourceSlice")
                      ->PrepareForUpdate(Yaml(R"({apiVersion:
    resource.k8s.io/v1, kind: ResourceSlice, metadata: {name: s,
    generation: 1}, spec: {driver: d, partitionTypeAttribute: p}})"),
                                         Yaml(R"({apiVersion:
    resource.k8s.io/v1, kind: ResourceSlice, metadata: {name: s,
    generation: 1}, spec: {driver: d}})"));
  EXPECT_EQ(At(updated, "spec"), Canon(R"({"driver":"d"})"));
  EXPECT_EQ(At(updated, "metadata.generation"), "2");
  Value claim = Created("resource.k8s.io/v1", "ResourceClaimTemplate", R"({
    apiVersion: resource.k8s.io/v1, kind: ResourceClaimTemplate,
    metadata: {name: t}, spec: {spec: {devices: {requests: [
      {name: r, exactly: {deviceClassName: c, derivedAttributes: [x]}},
      {name: q, firstAvailable: [{name: f, deviceClassName: c,
        derivedAttributes: [y]}]}]}}}})");
  EXPECT_EQ(At(claim, "spec.spec.devices.requests"), Canon(R"([
    {"name":"r","exactly":{"deviceClassName":"c"}},
    {"name":"q","firstAvailable":[{"name":"f","deviceClassName":"c"}]}])"));
}

// A PersistentVolumeClaim's data sources (KEP 1495): each of dataSource and
// dataSourceRef fills the other; a dataSourceRef that names a namespace
// goes (CrossNamespaceVolumeDataSource is off); a dataSource that is no
// claim or snapshot goes unless a dataSourceRef or the live claim says
// otherwise.
TEST(DisabledFieldsTest, AClaimsDataSources) {
  auto created = [](const std::string& spec) {
    return At(Created("v1", "PersistentVolumeClaim",
                      ("{apiVersion: v1, kind: PersistentVolumeClaim, "
                       "metadata: {name: c}, spec: " + spec + "}").c_str()),
              "spec");
  };
  EXPECT_EQ(created("{dataSource: {kind: PersistentVolumeClaim, name: a}}"),
            Canon(R"({"dataSource":{"kind":"PersistentVolumeClaim","name":"a"},
              "dataSourceRef":{"apiGroup":null,"kind":"PersistentVolumeClaim",
              "name":"a"}})"));
  EXPECT_EQ(created("{dataSourceRef: {apiGroup: example.com, kind: P, "
                    "name: a}}"),
            Canon(R"({"dataSourceRef":{"apiGroup":"example.com","kind":"P","name":"a"},
              "dataSource":{"apiGroup":"example.com","kind":"P","name":"a"}})"));
  EXPECT_EQ(created("{dataSource: {apiGroup: example.com, kind: P, name: a}}"),
            "{}");
  EXPECT_EQ(created("{dataSource: {apiGroup: snapshot.storage.k8s.io, kind: "
                    "VolumeSnapshot, name: a}, dataSourceRef: {apiGroup: "
                    "snapshot.storage.k8s.io, kind: VolumeSnapshot, name: a, "
                    "namespace: other}}"),
            Canon(R"({"dataSource":{"apiGroup":"snapshot.storage.k8s.io",
              "kind":"VolumeSnapshot","name":"a"},
              "dataSourceRef":{"apiGroup":"snapshot.storage.k8s.io",
              "kind":"VolumeSnapshot","name":"a"}})"));
  // An update fills them again where the request left one out (a PUT of
  // an older client), and keeps a populator's dataSource the live claim
  // has.
  std::shared_ptr<const BuiltinKind> k = KindOf("v1", "PersistentVolumeClaim");
  const char* populated = R"({apiVersion: v1, kind: PersistentVolumeClaim,
    metadata: {name: c}, spec: {dataSource: {apiGroup: example.com, kind: P,
    name: a}}})";
  EXPECT_EQ(At(k->PrepareForUpdate(Yaml(populated), Yaml(populated)),
               "spec.dataSourceRef"),
            Canon(R"({"apiGroup":"example.com","kind":"P","name":"a"})"));
  // (Found by a random scenario: a PUT that left out the filled
  // dataSourceRef and set the dataSource's apiGroup null.)
  const char* clone = R"({apiVersion: v1, kind: PersistentVolumeClaim,
    metadata: {name: c}, spec: {dataSource: {apiGroup: null,
    kind: PersistentVolumeClaim, name: a}}})";
  EXPECT_EQ(At(k->PrepareForUpdate(Yaml(clone), Created("v1",
               "PersistentVolumeClaim", clone)), "spec.dataSourceRef"),
            Canon(R"({"apiGroup":null,"kind":"PersistentVolumeClaim",
              "name":"a"})"));
}

// ---- autoscaling/v1 HorizontalPodAutoscaler's round trip ------------------

// The scheme's conversion of an HorizontalPodAutoscaler between its two
// versions, as the field manager converts objects for managers at the other
// one. testdata/hpa-conversion/rich-v2.json is an HPA kube-apiserver 1.37
// stored from rich-request.yaml and rich-status-request.yaml (every metric
// source type, behavior, current metrics, conditions) as it gave it back at
// autoscaling/v2, and rich-v1.json the same object read at autoscaling/v1:
// each converts into the other, the annotations' JSON byte for byte.
TEST(HorizontalPodAutoscalerConversionTest, EachVersionConvertsIntoTheOther) {
  std::shared_ptr<const BuiltinKind> v1 =
      KindOf("autoscaling/v1", "HorizontalPodAutoscaler");
  std::shared_ptr<const BuiltinKind> v2 =
      KindOf("autoscaling/v2", "HorizontalPodAutoscaler");
  ASSERT_NE(v1, nullptr);
  ASSERT_NE(v2, nullptr);
  auto read = [](const char* name) {
    absl::StatusOr<Value> v = ParseJson(smdx::testing::ReadTestFile(
        smdx::testing::SourcePath(std::string("testdata/hpa-conversion/") +
                                  name)));
    EXPECT_TRUE(v.ok()) << v.status();
    return v.ok() ? *std::move(v) : Value();
  };
  const Value at_v1 = read("rich-v1.json");
  const Value at_v2 = read("rich-v2.json");
  ASSERT_TRUE(v2->ConvertsTo(*v1));
  ASSERT_TRUE(v1->ConvertsTo(*v2));
  std::optional<Value> to_v1 = v2->ConvertTo(at_v2, *v1);
  ASSERT_TRUE(to_v1.has_value());
  EXPECT_EQ(ToJsonSorted(*to_v1), ToJsonSorted(at_v1));
  EXPECT_TRUE(Equals(*to_v1, at_v1));
  std::optional<Value> to_v2 = v1->ConvertTo(at_v1, *v2);
  ASSERT_TRUE(to_v2.has_value());
  // Back at v2 the CPU target comes after the annotation's metrics
  // (Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler
  // appends it), where the request had it first.
  Value cpu_last = at_v2;
  List& metrics = cpu_last.map().Find("spec")->map().Find("metrics")->list();
  std::rotate(metrics.begin(), metrics.begin() + 1, metrics.end());
  EXPECT_EQ(ToJsonSorted(*to_v2), ToJsonSorted(cpu_last));
  // Other kinds and versions have no conversion.
  std::shared_ptr<const BuiltinKind> deployment =
      KindOf("apps/v1", "Deployment");
  EXPECT_FALSE(v1->ConvertsTo(*v1));
  EXPECT_FALSE(v1->ConvertsTo(*deployment));
  EXPECT_FALSE(v1->ConvertTo(at_v1, *deployment).has_value());
}

// A v2 body's round-trip annotations go with its conversion to the internal
// version (v2/conversion.go): kube-apiserver 1.37 stored a PUT at v2 that
// carried v1's metrics and current-metrics annotations without them, and
// its writer owned neither. Other annotations stay.
TEST(HorizontalPodAutoscalerConversionTest, V2DropsTheRoundTripAnnotations) {
  Value v = Decoded("autoscaling/v2", "HorizontalPodAutoscaler", R"({
      apiVersion: autoscaling/v2, kind: HorizontalPodAutoscaler,
      metadata: {name: h, annotations: {
        example.com/owner: team-a,
        autoscaling.alpha.kubernetes.io/metrics: '[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10"}}]',
        autoscaling.alpha.kubernetes.io/scale-up-tolerance: '0.1'}},
      spec: {scaleTargetRef: {kind: Deployment, name: d}, maxReplicas: 5}})");
  EXPECT_EQ(At(v, "metadata.annotations"),
            Canon(R"({"example.com/owner": "team-a"})"));
  Value only = Decoded("autoscaling/v2", "HorizontalPodAutoscaler", R"({
      apiVersion: autoscaling/v2, kind: HorizontalPodAutoscaler,
      metadata: {name: h, annotations: {
        autoscaling.alpha.kubernetes.io/conditions: '[]'}},
      spec: {scaleTargetRef: {kind: Deployment, name: d}, maxReplicas: 5}})");
  EXPECT_EQ(At(only, "metadata"), Canon(R"({"name": "h"})"));
}

// A v1 object without annotations: its CPU target is v2's only metric, or
// 80% of CPU without one, as the conversion says v1 always meant; its CPU
// utilization the one current metric.
TEST(HorizontalPodAutoscalerConversionTest, V1SaysCpuOnly) {
  std::shared_ptr<const BuiltinKind> v1 =
      KindOf("autoscaling/v1", "HorizontalPodAutoscaler");
  std::shared_ptr<const BuiltinKind> v2 =
      KindOf("autoscaling/v2", "HorizontalPodAutoscaler");
  const std::string head =
      "{apiVersion: autoscaling/v1, kind: HorizontalPodAutoscaler, "
      "metadata: {name: h}, spec: {scaleTargetRef: {kind: Deployment, name: "
      "d}, maxReplicas: 5";
  std::optional<Value> cpu = v1->ConvertTo(
      Yaml(head + ", targetCPUUtilizationPercentage: 55}, status: "
                  "{currentReplicas: 1, desiredReplicas: 2, "
                  "currentCPUUtilizationPercentage: 30}}"),
      *v2);
  ASSERT_TRUE(cpu.has_value());
  EXPECT_EQ(At(*cpu, "apiVersion"), R"("autoscaling/v2")");
  EXPECT_EQ(At(*cpu, "spec.metrics"),
            Canon(R"([{"type": "Resource", "resource": {"name": "cpu",
              "target": {"type": "Utilization",
                         "averageUtilization": 55}}}])"));
  EXPECT_EQ(At(*cpu, "status"),
            Canon(R"({"currentReplicas": 1, "desiredReplicas": 2,
              "currentMetrics": [{"type": "Resource", "resource": {
                "name": "cpu", "current": {"averageUtilization": 30}}}]})"));
  std::optional<Value> none = v1->ConvertTo(Yaml(head + "}}"), *v2);
  ASSERT_TRUE(none.has_value());
  EXPECT_EQ(At(*none, "spec.metrics.0.resource.target.averageUtilization"),
            "80");
  // The status's zero replicas: v1 writes both, v2 only the desired, and
  // its current metrics null (as kube-apiserver 1.37 reads such an object
  // back at autoscaling/v2).
  EXPECT_EQ(At(*none, "status"),
            Canon(R"({"desiredReplicas": 0, "currentMetrics": null})"));
}

// A v1 HorizontalPodAutoscaler goes through the internal (v2) one, what
// v1 cannot say kept in round-trip annotations (autoscaling/v1
// conversion.go). Each as kube-apiserver 1.37 gave it back (by hand, and
// the corpus's horizontalpodautoscaler-v1.yaml).
TEST(HorizontalPodAutoscalerV1Test, RoundTripAnnotationsFollowTheInternalObject) {
  const char* kHpa = "autoscaling/v1";
  const std::string head =
      "{apiVersion: autoscaling/v1, kind: HorizontalPodAutoscaler, "
      "metadata: {name: h";
  const std::string ref =
      "scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: d}, "
      "maxReplicas: 5";
  // A status's CPU utilization is a current metric, which v1 writes back
  // as an annotation too.
  Value status = Decoded(kHpa, "HorizontalPodAutoscaler",
                         head + "}, spec: {" + ref +
                             ", targetCPUUtilizationPercentage: 70}, status: "
                             "{currentCPUUtilizationPercentage: 85}}");
  EXPECT_EQ(At(status, "metadata.annotations"),
            Canon(R"({"autoscaling.alpha.kubernetes.io/current-metrics":
    "[{\"type\":\"Resource\",\"resource\":{\"name\":\"cpu\",\"currentAverageUtilization\":85,\"currentAverageValue\":\"0\"}}]"})"));
  // The annotation has "more information": its CPU utilization wins.
  Value stale = Decoded(
      kHpa, "HorizontalPodAutoscaler",
      head + ", annotations: {autoscaling.alpha.kubernetes.io/current-metrics: "
             "'[{\"type\":\"Resource\",\"resource\":{\"name\":\"cpu\","
             "\"currentAverageUtilization\":85,\"currentAverageValue\":\"0\"}}]'"
             "}}, spec: {" + ref + "}, status: "
             "{currentCPUUtilizationPercentage: 90}}");
  EXPECT_EQ(At(stale, "status.currentCPUUtilizationPercentage"), "85");
  // Other metrics: a CPU utilization among them is the target, before the
  // spec's; the tolerances go.
  Value metrics = Decoded(
      kHpa, "HorizontalPodAutoscaler",
      head + ", annotations: {autoscaling.alpha.kubernetes.io/metrics: "
             "'[{\"type\":\"Pods\",\"pods\":{\"metricName\":\"qps\","
             "\"targetAverageValue\":\"10\"}},{\"type\":\"Resource\","
             "\"resource\":{\"name\":\"cpu\",\"targetAverageUtilization\":60}}]'"
             ", autoscaling.alpha.kubernetes.io/scale-up-tolerance: '0.1'}}, "
             "spec: {" + ref + ", targetCPUUtilizationPercentage: 70}}");
  EXPECT_EQ(At(metrics, "spec.targetCPUUtilizationPercentage"), "60");
  EXPECT_EQ(At(metrics, "metadata.annotations"),
            Canon(R"({"autoscaling.alpha.kubernetes.io/metrics":
    "[{\"type\":\"Pods\",\"pods\":{\"metricName\":\"qps\",\"targetAverageValue\":\"10\"}}]"})"));
  // Other metrics and no CPU target: none (no 80% default).
  Value pods_only = Decoded(
      kHpa, "HorizontalPodAutoscaler",
      head + ", annotations: {autoscaling.alpha.kubernetes.io/metrics: "
             "'[{\"type\":\"Pods\",\"pods\":{\"metricName\":\"qps\","
             "\"targetAverageValue\":\"10\"}}]'}}, spec: {" + ref + "}}");
  EXPECT_EQ(At(pods_only, "spec.targetCPUUtilizationPercentage"), "<absent>");
  // A create drops the status, and the annotations of it.
  const std::string conditions =
      "autoscaling.alpha.kubernetes.io/conditions: '[{\"type\":"
      "\"AbleToScale\",\"status\":\"True\",\"lastTransitionTime\":"
      "\"2026-01-01T00:00:00Z\",\"reason\":\"ReadyForNewScale\"}]'";
  const std::string with_conditions = head + ", annotations: {" +
                                      conditions + "}}, spec: {" + ref + "}}";
  std::shared_ptr<const BuiltinKind> k = KindOf(kHpa, "HorizontalPodAutoscaler");
  Value decoded = Decoded(kHpa, "HorizontalPodAutoscaler", with_conditions);
  EXPECT_NE(At(decoded, "metadata.annotations"), "<absent>");
  EXPECT_EQ(At(k->PrepareForCreate(decoded, Yaml(with_conditions)),
               "metadata.annotations"),
            "<absent>");
  // An update keeps the live status's annotations and counts a change of
  // the other metrics as one of the spec; a status write keeps the live
  // spec's.
  Value live = status;
  live.map().Find("metadata")->map().Set("generation", Value(int64_t{1}));
  Value update = Decoded(
      kHpa, "HorizontalPodAutoscaler",
      head + ", annotations: {autoscaling.alpha.kubernetes.io/metrics: "
             "'[{\"type\":\"Pods\",\"pods\":{\"metricName\":\"qps\","
             "\"targetAverageValue\":\"10\"}}]'}}, spec: {" + ref +
             ", targetCPUUtilizationPercentage: 70}, status: "
             "{currentCPUUtilizationPercentage: 10}}");
  Value updated = k->PrepareForUpdate(update, live);
  EXPECT_EQ(At(updated, "metadata.annotations"),
            Canon(R"({"autoscaling.alpha.kubernetes.io/metrics":
    "[{\"type\":\"Pods\",\"pods\":{\"metricName\":\"qps\",\"targetAverageValue\":\"10\"}}]",
    "autoscaling.alpha.kubernetes.io/current-metrics":
    "[{\"type\":\"Resource\",\"resource\":{\"name\":\"cpu\",\"currentAverageUtilization\":85,\"currentAverageValue\":\"0\"}}]"})"));
  EXPECT_EQ(At(updated, "metadata.generation"), "2");
  BuiltinKind::UpdateContext status_write;
  status_write.status_write = true;
  Value written = k->PrepareForUpdate(update, live, status_write);
  EXPECT_EQ(At(written, "metadata.annotations"),
            Canon(R"({"autoscaling.alpha.kubernetes.io/current-metrics":
    "[{\"type\":\"Resource\",\"resource\":{\"name\":\"cpu\",\"currentAverageUtilization\":10,\"currentAverageValue\":\"0\"}}]"})"));
}

// ---- The Pod strategy (pod.h) ----------------------------------------------

// What a pod's create gets from its strategy, as kube-apiserver 1.37 gave
// it for this pod by apply (the condition's time is the field manager's
// clock there): the SchedulingGated condition, the label keys joining
// their selectors, the AppArmor annotations as fields.
TEST(PodStrategyTest, ACreateAppliesLabelKeysAppArmorAndSchedulingGates) {
  Value pod = KindOf("v1", "Pod")->PrepareForCreate(
      Yaml(R"({apiVersion: v1, kind: Pod, metadata: {name: p1,
    labels: {app: web, pod-template-hash: abc, tier: fe}, annotations: {
      container.apparmor.security.beta.kubernetes.io/web: runtime/default,
      container.apparmor.security.beta.kubernetes.io/side: localhost/prof,
      container.apparmor.security.beta.kubernetes.io/init: unconfined}},
    spec: {schedulingGates: [{name: example.com/gate}],
      initContainers: [{name: init, image: "busybox:1.36"}],
      containers: [{name: web, image: "nginx:1.27"}, {name: side,
        image: "busybox:1.36", securityContext: {runAsUser: 1000}}],
      topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone,
        whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels:
        {app: web}}, matchLabelKeys: [pod-template-hash, missing]},
        {maxSkew: 1, topologyKey: host, whenUnsatisfiable: ScheduleAnyway,
         labelSelector: {matchLabels: {tier: fe}}}],
      affinity: {podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: host,
          labelSelector: {matchLabels: {app: web}}, matchLabelKeys:
          [pod-template-hash], mismatchLabelKeys: [tier]}],
        preferredDuringSchedulingIgnoredDuringExecution: [{weight: 10,
          podAffinityTerm: {topologyKey: zone, labelSelector: {},
          mismatchLabelKeys: [app]}}]}}}})"),
      Value(), absl::FromUnixSeconds(1796565387));  // 2026-12-06T13:56:27Z
  EXPECT_EQ(At(pod, "status"), Canon(R"({"phase":"Pending","conditions":[{
    "type":"PodScheduled","status":"False","lastProbeTime":null,
    "lastTransitionTime":"2026-12-06T13:56:27Z","reason":"SchedulingGated",
    "message":"Scheduling is blocked due to non-empty scheduling gates"}],
    "qosClass":"BestEffort"})"));
  EXPECT_EQ(At(pod, "spec.topologySpreadConstraints.0.labelSelector"),
            Canon(R"({"matchLabels":{"app":"web"},"matchExpressions":[
    {"key":"pod-template-hash","operator":"In","values":["abc"]}]})"));
  EXPECT_EQ(At(pod, "spec.topologySpreadConstraints.1.labelSelector"),
            Canon(R"({"matchLabels":{"tier":"fe"}})"));
  const std::string anti = "spec.affinity.podAntiAffinity.";
  EXPECT_EQ(At(pod, anti + "requiredDuringSchedulingIgnoredDuringExecution.0"
                           ".labelSelector.matchExpressions"),
            Canon(R"([{"key":"pod-template-hash","operator":"In",
    "values":["abc"]},{"key":"tier","operator":"NotIn","values":["fe"]}])"));
  EXPECT_EQ(At(pod, anti + "preferredDuringSchedulingIgnoredDuringExecution"
                           ".0.podAffinityTerm.labelSelector"),
            Canon(R"({"matchExpressions":[{"key":"app","operator":"NotIn",
    "values":["web"]}]})"));
  EXPECT_EQ(At(pod, "spec.containers.0.securityContext"),
            Canon(R"({"appArmorProfile":{"type":"RuntimeDefault"}})"));
  EXPECT_EQ(At(pod, "spec.containers.1.securityContext"),
            Canon(R"({"runAsUser":1000,"appArmorProfile":{"type":"Localhost",
    "localhostProfile":"prof"}})"));
  EXPECT_EQ(At(pod, "spec.initContainers.0.securityContext"),
            Canon(R"({"appArmorProfile":{"type":"Unconfined"}})"));
  // No field where the pod's own profile says the same.
  Value same = Created("v1", "Pod", R"({apiVersion: v1, kind: Pod,
    metadata: {annotations: {
      container.apparmor.security.beta.kubernetes.io/a: runtime/default}},
    spec: {securityContext: {appArmorProfile: {type: RuntimeDefault}},
      containers: [{name: a}]}})");
  EXPECT_EQ(At(same, "spec.containers.0.securityContext"), "<absent>");
}

// The admission plugins on by default that add to what is written, with
// their default flags: DefaultTolerationSeconds gives a pod (at create and
// update) tolerations of a not-ready and an unreachable node for 300 s,
// but where a toleration covers the taint already (its key or none, with
// NoExecute or no effect); TaintNodesByCondition gives a created Node the
// not-ready NoSchedule taint. Checked against kube-apiserver 1.37 by the
// corpus, which now runs them.
TEST(PodStrategyTest, DefaultTolerationsAndANewNodesTaint) {
  Value pod = Created("v1", "Pod", R"({apiVersion: v1, kind: Pod,
    spec: {containers: [{name: a}], tolerations: [{key: example.com/k,
    operator: Exists}]}})");
  EXPECT_EQ(At(pod, "spec.tolerations"), Canon(R"([
    {"key":"example.com/k","operator":"Exists"},
    {"key":"node.kubernetes.io/not-ready","operator":"Exists",
     "effect":"NoExecute","tolerationSeconds":300},
    {"key":"node.kubernetes.io/unreachable","operator":"Exists",
     "effect":"NoExecute","tolerationSeconds":300}])"));
  Value tolerant = Created("v1", "Pod", R"({apiVersion: v1, kind: Pod,
    spec: {containers: [{name: a}], tolerations: [{operator: Exists,
    effect: NoExecute}]}})");
  EXPECT_EQ(At(tolerant, "spec.tolerations"),
            Canon(R"([{"operator":"Exists","effect":"NoExecute"}])"));
  Value unreachable = KindOf("v1", "Pod")->PrepareForUpdate(
      Yaml(R"({apiVersion: v1, kind: Pod, spec: {containers: [{name: a}],
    tolerations: [{key: node.kubernetes.io/not-ready, operator: Exists}]}})"),
      pod);
  EXPECT_EQ(At(unreachable, "spec.tolerations.1.key"),
            Canon(R"("node.kubernetes.io/unreachable")"));
  Value tainted = Created("v1", "Node", R"({apiVersion: v1, kind: Node,
    spec: {taints: [{key: node.kubernetes.io/not-ready, value: x,
    effect: NoSchedule}]}})");
  EXPECT_EQ(At(tainted, "spec.taints"), Canon(R"([{
    "key":"node.kubernetes.io/not-ready","value":"x","effect":"NoSchedule"}])"));
}

// An update that leaves out pod-level resources (a client that does not
// know them) keeps the live pod's.
TEST(PodStrategyTest, AnUpdateKeepsPodLevelResourcesItLeftOut) {
  const Value live = Yaml(R"({apiVersion: v1, kind: Pod, metadata: {name: p},
    spec: {resources: {limits: {cpu: "1"}}, containers: [{name: a}]}})");
  Value updated = KindOf("v1", "Pod")->PrepareForUpdate(
      Yaml(R"({apiVersion: v1, kind: Pod, metadata: {name: p},
    spec: {containers: [{name: a}]}})"), live);
  EXPECT_EQ(At(updated, "spec.resources"), Canon(R"({"limits":{"cpu":"1"}})"));
}

// A create completes pod-level resources from the containers'
// (DefaultPodLevelResources), before the QoS class. Each pod as
// kube-apiserver 1.37 gave it back from a POST: requests from the
// containers' (a sidecar counts with the containers and before the init
// containers after it) or from the pod's limits; huge pages the
// containers limit; limits where every container limits the resource, at
// least the pod's request. A sum prints in the format its first term was
// written in: "0.5Ki" twice is "1Ki" where each alone prints "512".
TEST(PodStrategyTest, ACreateCompletesPodLevelResources) {
  auto resources = [](const char* spec) {
    const std::string pod =
        absl::StrCat("{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: ",
                     spec, "}");
    Value created = KindOf("v1", "Pod")->PrepareForCreate(
        Decoded("v1", "Pod", pod.c_str()), Yaml(pod));
    return At(created, "spec.resources") + " " +
           At(created, "status.qosClass");
  };
  EXPECT_EQ(resources(R"({resources: {limits: {cpu: "2", memory: 1Gi}},
    containers: [{name: c, image: nginx}]})"),
            Canon(R"({"limits":{"cpu":"2","memory":"1Gi"},
    "requests":{"cpu":"2","memory":"1Gi"}})") + R"( "Guaranteed")");
  EXPECT_EQ(resources(R"({resources: {requests: {cpu: 1500m}}, containers: [
    {name: a, image: nginx, resources: {limits: {cpu: 500m, memory: 256Mi}}},
    {name: b, image: nginx, resources: {limits: {cpu: 700m,
      memory: 0.5Gi}}}]})"),
            Canon(R"({"requests":{"cpu":"1500m","memory":"768Mi"},
    "limits":{"cpu":"1500m","memory":"768Mi"}})") + R"( "Guaranteed")");
  EXPECT_EQ(resources(R"({resources: {requests: {memory: 3Gi}},
    initContainers: [{name: side, image: busybox, restartPolicy: Always,
      resources: {requests: {cpu: 100m, memory: 100Mi},
                  limits: {memory: 200Mi}}},
      {name: init, image: busybox, resources: {limits: {memory: 2Gi,
        cpu: "1"}}}],
    containers: [{name: c1, image: nginx, resources: {requests: {cpu: 200m,
      memory: 300Mi}, limits: {memory: 300Mi}}}]})"),
            Canon(R"({"requests":{"memory":"3Gi","cpu":"1100m"},
    "limits":{"memory":"3Gi"}})") + R"( "Burstable")");
  EXPECT_EQ(resources(R"({resources: {requests: {cpu: "1", memory: 1Gi}},
    containers: [{name: a, image: nginx, resources: {limits: {cpu: "1",
      memory: 1Gi, hugepages-2Mi: 100Mi, example.com/gpu: "1"}}}]})"),
            Canon(R"({"requests":{"cpu":"1","memory":"1Gi",
    "hugepages-2Mi":"100Mi"},"limits":{"hugepages-2Mi":"100Mi","cpu":"1",
    "memory":"1Gi"}})") + R"( "Guaranteed")");
  EXPECT_EQ(resources(R"({resources: {limits: {cpu: "3"}}, containers: [
    {name: a, image: nginx, resources: {requests: {memory: 0.5Ki, cpu: 0.5}}},
    {name: b, image: nginx, resources: {requests: {memory: 0.5Ki,
      cpu: 0.5}}}]})"),
            Canon(R"({"limits":{"cpu":"3"},"requests":{"cpu":"1",
    "memory":"1Ki"}})") + R"( "Burstable")");
  EXPECT_EQ(resources(R"({resources: {limits: {memory: 3Gi}},
    initContainers: [{name: s1, image: busybox, restartPolicy: Always,
      resources: {requests: {memory: 1.5Ki}, limits: {memory: 1.5Ki}}}],
    containers: [{name: c1, image: nginx, resources: {limits: {memory: 1.5Ki,
      cpu: "1.5e3"}}}, {name: c2, image: nginx, resources: {limits: {
      cpu: "1.5e3"}}}]})"),
            Canon(R"({"limits":{"memory":"3Gi"},"requests":{"memory":"3Ki",
    "cpu":"3e3"}})") + R"( "Burstable")");
  // Nothing to complete with empty ones (the server's answer too).
  EXPECT_EQ(resources(R"({resources: {requests: {}}, containers: [{name: a,
    image: nginx, resources: {limits: {cpu: "1"}}}]})"),
            "{} \"Burstable\"");
}

// The resize endpoint keeps the live pod but its containers' resources and
// resize policies; where the request has other containers (more, fewer or
// renamed), dropNonResizeUpdates leaves it as it is for validation to
// refuse (the list, where only names differ).
TEST(PodStrategyTest, AResizeKeepsAllButResources) {
  BuiltinKind::UpdateContext resize;
  resize.subresource = "resize";
  const Value live = Yaml(R"({apiVersion: v1, kind: Pod, metadata: {name: p,
    labels: {a: b}, generation: 1}, spec: {containers: [{name: c, image: x,
    resources: {requests: {cpu: 100m}}}], initContainers: [{name: i,
    image: q}], nodeName: node1}, status: {phase: Running}})");
  Value resized = KindOf("v1", "Pod")->PrepareForUpdate(
      Yaml(R"({apiVersion: v1, kind: Pod, metadata: {name: p, labels: {a: c}},
    spec: {containers: [{name: c, image: z, resources: {requests: {cpu: 200m}},
    resizePolicy: [{resourceName: cpu, restartPolicy: NotRequired}]}],
    initContainers: [{name: i, image: w}]}})"),
      live, resize);
  EXPECT_EQ(At(resized, "spec"), Canon(R"({"containers":[{"name":"c",
    "image":"x","resources":{"requests":{"cpu":"200m"}},"resizePolicy":[
    {"resourceName":"cpu","restartPolicy":"NotRequired"}]}],"initContainers":[
    {"name":"i","image":"q"}],"nodeName":"node1"})"));
  EXPECT_EQ(At(resized, "metadata.labels"), Canon(R"({"a":"b"})"));
  EXPECT_EQ(At(resized, "metadata.generation"), "2");
  EXPECT_EQ(At(resized, "status"), Canon(R"({"phase":"Running"})"));
  // A renamed container: that list as requested.
  Value renamed = KindOf("v1", "Pod")->PrepareForUpdate(
      Yaml(R"({apiVersion: v1, kind: Pod, metadata: {name: p},
    spec: {containers: [{name: d, image: z}], initContainers: [{name: i,
    image: w}]}})"),
      live, resize);
  EXPECT_EQ(At(renamed, "spec.containers"), Canon(R"([{"name":"d",
    "image":"z"}])"));
  EXPECT_EQ(At(renamed, "spec.initContainers"), Canon(R"([{"name":"i",
    "image":"q"}])"));
  // Another container: the request as it is.
  Value more = KindOf("v1", "Pod")->PrepareForUpdate(
      Yaml(R"({apiVersion: v1, kind: Pod, metadata: {name: p,
    labels: {a: c}}, spec: {containers: [{name: c, image: z}, {name: e,
    image: z}]}})"),
      live, resize);
  EXPECT_EQ(At(more, "metadata.labels"), Canon(R"({"a":"c"})"));
  EXPECT_EQ(At(more, "spec.containers.1.name"), Canon(R"("e")"));
}

// The pod status endpoint keeps what a status write left out or zeroed:
// the QoS class, DRA claim statuses, and the observed generations (the
// status's and each condition's, matched by type in order). As the server
// gave it for two kubelet PUTs.
TEST(PodStrategyTest, AStatusWriteKeepsTheQosClassAndObservedGenerations) {
  BuiltinKind::UpdateContext status_write;
  status_write.status_write = true;
  Value updated = KindOf("v1", "Pod")->PrepareForUpdate(
      Yaml(R"({apiVersion: v1, kind: Pod, metadata: {name: p}, status: {
    phase: Running, conditions: [{type: Ready, status: "False"},
    {type: PodScheduled, status: "True", observedGeneration: 3}]}})"),
      Yaml(R"({apiVersion: v1, kind: Pod, metadata: {name: p}, status: {
    phase: Running, qosClass: BestEffort, observedGeneration: 1,
    resourceClaimStatuses: [{name: c}], conditions: [
    {type: Ready, status: "True", observedGeneration: 1},
    {type: PodScheduled, status: "True", observedGeneration: 1}]}})"),
      status_write);
  EXPECT_EQ(At(updated, "status"), Canon(R"({"phase":"Running",
    "conditions":[{"type":"Ready","status":"False","observedGeneration":1},
    {"type":"PodScheduled","status":"True","observedGeneration":3}],
    "qosClass":"BestEffort","resourceClaimStatuses":[{"name":"c"}],
    "observedGeneration":1})"));
}

// ---- Other strategies' rewrites (registry.cc) -----------------------------

// Each as kube-apiserver 1.37 gave it for the same object by apply.
TEST(PrepareForCreateTest, StrategiesThatRewriteWhatTheyAreGiven) {
  // A ServiceAccount's secret references keep their names alone.
  EXPECT_EQ(At(Created("v1", "ServiceAccount", R"({apiVersion: v1,
    kind: ServiceAccount, secrets: [{name: s1, namespace: t, kind: Secret,
    uid: x}, {name: s2}]})"), "secrets"),
            Canon(R"([{"name":"s1"},{"name":"s2"}])"));
  // An EndpointSlice written through v1 loses its deprecated topology.
  EXPECT_EQ(At(Created("discovery.k8s.io/v1", "EndpointSlice", R"({
    apiVersion: discovery.k8s.io/v1, kind: EndpointSlice, addressType: IPv4,
    endpoints: [{addresses: [10.0.0.1], deprecatedTopology: {
      kubernetes.io/hostname: node-a, zone: z}}]})"), "endpoints"),
            Canon(R"([{"addresses":["10.0.0.1"]}])"));
  // A PodDisruptionBudget's selector loses the policy/v1beta1 match-all
  // label, but where it is the whole match-none selector.
  EXPECT_EQ(At(Created("policy/v1", "PodDisruptionBudget", R"({
    apiVersion: policy/v1, kind: PodDisruptionBudget, spec: {selector: {
    matchLabels: {a: b}, matchExpressions: [{key:
    pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match,
    operator: Exists}, {key: x, operator: Exists}]}}})"), "spec.selector"),
            Canon(R"({"matchLabels":{"a":"b"},"matchExpressions":[{"key":"x",
    "operator":"Exists"}]})"));
  const char* none = R"({apiVersion: policy/v1, kind: PodDisruptionBudget,
    spec: {selector: {matchExpressions: [{key:
    pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match,
    operator: Exists}]}}})";
  EXPECT_EQ(At(Created("policy/v1", "PodDisruptionBudget", none),
               "spec.selector"),
            At(Yaml(none), "spec.selector"));
  // A local APIService (no service) is available from its create.
  Value api = KindOf("apiregistration.k8s.io/v1", "APIService")
                  ->PrepareForCreate(Yaml(R"({apiVersion:
    apiregistration.k8s.io/v1, kind: APIService, spec: {group: example.com,
    version: v1}})"), Value(), absl::FromUnixSeconds(1796566820));
  EXPECT_EQ(At(api, "status"), Canon(R"({"conditions":[{"type":"Available",
    "status":"True","lastTransitionTime":"2026-12-06T14:20:20Z",
    "reason":"Local","message":"Local APIServices are always available"}]})"));
  // A PersistentVolume's phase time is the clock's at create; a status
  // write that keeps the phase and sets none keeps it.
  std::shared_ptr<const BuiltinKind> pv = KindOf("v1", "PersistentVolume");
  const absl::Time now = absl::FromUnixSeconds(1796565721);
  Value created = pv->PrepareForCreate(
      Yaml("{apiVersion: v1, kind: PersistentVolume, status: {phase: "
           "Pending}}"),
      Value(), now);
  EXPECT_EQ(At(created, "status"), Canon(R"({"phase":"Pending",
    "lastPhaseTransitionTime":"2026-12-06T14:02:01Z"})"));
  BuiltinKind::UpdateContext status_write;
  status_write.status_write = true;
  status_write.now = now + absl::Seconds(60);
  const struct {
    const char* status;  // the write's
    const char* time;    // the phase time it leaves
  } kWrites[] = {
      {"{phase: Pending, message: m}", R"("2026-12-06T14:02:01Z")"},
      {"{phase: Available}", R"("2026-12-06T14:03:01Z")"},
  };
  for (const auto& w : kWrites) {
    Value written = pv->PrepareForUpdate(
        Yaml(absl::StrCat("{apiVersion: v1, kind: PersistentVolume, status: ",
                          w.status, "}")),
        created, status_write);
    EXPECT_EQ(At(written, "status.lastPhaseTransitionTime"), Canon(w.time))
        << w.status;
  }
}

// A ResourceClaim's status write that deallocates a device drops that
// device's status (dropDeallocatedStatusDevices); the others stay.
TEST(PrepareForUpdateTest, AClaimDropsTheStatusOfDeallocatedDevices) {
  BuiltinKind::UpdateContext status_write;
  status_write.status_write = true;
  const Value live = Yaml(R"({apiVersion: resource.k8s.io/v1,
    kind: ResourceClaim, status: {allocation: {devices: {results: [
      {request: r, driver: d, pool: p, device: a},
      {request: r, driver: d, pool: p, device: b}]}},
    devices: [{driver: d, pool: p, device: a}, {driver: d, pool: p,
      device: b}]}})");
  std::shared_ptr<const BuiltinKind> k =
      KindOf("resource.k8s.io/v1", "ResourceClaim");
  Value one = k->PrepareForUpdate(Yaml(R"({apiVersion: resource.k8s.io/v1,
    kind: ResourceClaim, status: {allocation: {devices: {results: [
      {request: r, driver: d, pool: p, device: b}]}},
    devices: [{driver: d, pool: p, device: a}, {driver: d, pool: p,
      device: b}]}})"), live, status_write);
  EXPECT_EQ(At(one, "status.devices"),
            Canon(R"([{"driver":"d","pool":"p","device":"b"}])"));
  Value none = k->PrepareForUpdate(Yaml(R"({apiVersion: resource.k8s.io/v1,
    kind: ResourceClaim, status: {devices: [{driver: d, pool: p,
      device: a}]}})"), live, status_write);
  EXPECT_EQ(At(none, "status.devices"), "<absent>");
}

// A CertificateSigningRequest's status write keeps the live Approved and
// Denied conditions where it keeps their number, and takes the others it
// writes; conditions get their times (the approval endpoint's too). As
// kube-apiserver 1.37 gave it for a signer's PUT after an approval.
TEST(PrepareForUpdateTest, ACsrStatusWriteKeepsItsApprovalAndStampsTimes) {
  std::shared_ptr<const BuiltinKind> k =
      KindOf("certificates.k8s.io/v1", "CertificateSigningRequest");
  const Value live = Yaml(R"({apiVersion: certificates.k8s.io/v1,
    kind: CertificateSigningRequest, status: {conditions: [{type: Approved,
    status: "True", reason: OK, message: approved,
    lastUpdateTime: "2026-12-06T14:18:52Z",
    lastTransitionTime: "2026-12-06T14:18:52Z"}]}})");
  BuiltinKind::UpdateContext status_write;
  status_write.status_write = true;
  status_write.now = absl::FromUnixSeconds(1796566800);  // 14:20:00
  Value updated = k->PrepareForUpdate(Yaml(R"({apiVersion:
    certificates.k8s.io/v1, kind: CertificateSigningRequest, status: {
    conditions: [{type: Approved, status: "True", reason: Changed},
    {type: Failed, status: "True", reason: SignerFailed, message: "no"}]}})"),
                                      live, status_write);
  EXPECT_EQ(At(updated, "status.conditions"), Canon(R"([{"type":"Approved",
    "status":"True","reason":"OK","message":"approved",
    "lastUpdateTime":"2026-12-06T14:18:52Z",
    "lastTransitionTime":"2026-12-06T14:18:52Z"},{"type":"Failed",
    "status":"True","reason":"SignerFailed","message":"no",
    "lastUpdateTime":"2026-12-06T14:20:00Z",
    "lastTransitionTime":"2026-12-06T14:20:00Z"}])"));
  // The approval endpoint stamps what it writes; an unchanged status keeps
  // the live transition time.
  BuiltinKind::UpdateContext approval;
  approval.subresource = "approval";
  approval.now = status_write.now;
  Value approved = k->PrepareForUpdate(Yaml(R"({apiVersion:
    certificates.k8s.io/v1, kind: CertificateSigningRequest, status: {
    conditions: [{type: Approved, status: "True", reason: Again}]}})"),
                                       live, approval);
  EXPECT_EQ(At(approved, "status.conditions.0"), Canon(R"({"type":"Approved",
    "status":"True","reason":"Again","lastUpdateTime":"2026-12-06T14:20:00Z",
    "lastTransitionTime":"2026-12-06T14:18:52Z"})"));
}

// The update side of those rewrites, transcribed from the Go strategies
// (pkg/registry/discovery/endpointslice dropTopologyOnV1,
// policy/poddisruptionbudget dropDisabledFields).
TEST(PrepareForUpdateTest, RewritesThatDependOnTheLiveObject) {
  std::shared_ptr<const BuiltinKind> eps =
      KindOf("discovery.k8s.io/v1", "EndpointSlice");
  // A stored slice from before v1 (its topology names the host) and an
  // update that changes the endpoints: an endpoint without a nodeName takes
  // the host, where it is a valid node name (a label may be longer than 63
  // characters in a subdomain); the topology goes.
  const std::string host = "node-" + std::string(70, 'a') + ".example";
  const Value live = Yaml(absl::StrCat(R"({apiVersion: discovery.k8s.io/v1,
    kind: EndpointSlice, addressType: IPv4, endpoints: [
    {addresses: [10.0.0.1], deprecatedTopology: {kubernetes.io/hostname: )",
                                       host, R"(}},
    {addresses: [10.0.0.2], deprecatedTopology: {kubernetes.io/hostname:
      Bad_Name}}]})"));
  Value changed = eps->PrepareForUpdate(Yaml(absl::StrCat(R"({apiVersion:
    discovery.k8s.io/v1, kind: EndpointSlice, addressType: IPv4, endpoints: [
    {addresses: [10.0.0.3], deprecatedTopology: {kubernetes.io/hostname: )",
                                                          host, R"(}},
    {addresses: [10.0.0.4], deprecatedTopology: {kubernetes.io/hostname:
      Bad_Name}}]})")),
                                        live);
  EXPECT_EQ(At(changed, "endpoints"),
            Canon(absl::StrCat(R"([{"addresses":["10.0.0.3"],"nodeName":")",
                               host, R"("},{"addresses":["10.0.0.4"]}])")));
  // Endpoints left as they were keep their topology.
  EXPECT_EQ(At(eps->PrepareForUpdate(live, live), "endpoints.0"),
            At(live, "endpoints.0"));
  // A PodDisruptionBudget's selector left as it was keeps the label.
  const Value pdb = Yaml(R"({apiVersion: policy/v1,
    kind: PodDisruptionBudget, spec: {selector: {matchLabels: {a: b},
    matchExpressions: [{key:
    pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match,
    operator: Exists}]}}})");
  EXPECT_EQ(At(KindOf("policy/v1", "PodDisruptionBudget")
                   ->PrepareForUpdate(pdb, pdb),
               "spec.selector"),
            At(pdb, "spec.selector"));
}

// normalizeClusterIPs on update: clusterIPs follow a clusterIP changed
// alone. A clusterIP cleared alone is the live one again: the storage's
// patchAllocatedValues runs first.
TEST(ServiceRegistryTest, ClusterIpsFollowAClusterIpChangedAlone) {
  std::shared_ptr<const BuiltinKind> k = KindOf("v1", "Service");
  const Value live = Yaml(R"({apiVersion: v1, kind: Service, spec: {
    type: ClusterIP, clusterIP: 10.96.0.5, clusterIPs: [10.96.0.5],
    ipFamilies: [IPv4], ipFamilyPolicy: SingleStack}})");
  EXPECT_EQ(At(k->PrepareForUpdate(Yaml(R"({apiVersion: v1, kind: Service,
    spec: {type: ClusterIP, clusterIP: 10.96.0.9, clusterIPs: [10.96.0.5]}})"),
                                   live),
               "spec.clusterIPs"),
            Canon(R"(["10.96.0.9"])"));
  EXPECT_EQ(At(k->PrepareForUpdate(Yaml(R"({apiVersion: v1, kind: Service,
    spec: {type: ClusterIP, clusterIP: "", clusterIPs: [10.96.0.5],
    ipFamilies: [IPv4], ipFamilyPolicy: SingleStack}})"),
                                   live),
               "spec"),
            At(live, "spec"));
}

// ---- The Service registry (service.h) ------------------------------------

// A type change drops what the old type needed and the new one does not,
// where the request left it as it was (dropTypeDependentFields); a type
// other than LoadBalancer empties status.loadBalancer. Each case is one
// checked against kube-apiserver 1.37 (an apply whose merged object kept
// the live values).
TEST(ServiceRegistryTest, ATypeChangeDropsWhatTheOldTypeNeeded) {
  std::shared_ptr<const BuiltinKind> k = KindOf("v1", "Service");
  const Value lb = Yaml(R"({apiVersion: v1, kind: Service, metadata: {name: s},
    spec: {type: LoadBalancer, clusterIP: 10.96.0.5, clusterIPs: [10.96.0.5],
      ipFamilies: [IPv4], ipFamilyPolicy: SingleStack,
      allocateLoadBalancerNodePorts: true, loadBalancerClass: example.com/lb,
      externalTrafficPolicy: Local, healthCheckNodePort: 32756,
      internalTrafficPolicy: Cluster,
      ports: [{name: http, port: 80, nodePort: 31405}]},
    status: {loadBalancer: {ingress: [{ip: 203.0.113.1}]}}})");
  Value to_cluster_ip = lb;
  to_cluster_ip.map().Find("spec")->map().Set("type", Value("ClusterIP"));
  Value updated = k->PrepareForUpdate(to_cluster_ip, lb);
  EXPECT_EQ(At(updated, "spec"), Canon(R"({"type":"ClusterIP",
    "clusterIP":"10.96.0.5","clusterIPs":["10.96.0.5"],"ipFamilies":["IPv4"],
    "ipFamilyPolicy":"SingleStack","internalTrafficPolicy":"Cluster",
    "ports":[{"name":"http","port":80}]})"));
  EXPECT_EQ(At(updated, "status"), Canon(R"({"loadBalancer":{}})"));
  // To ExternalName: the cluster IPs and IP families go too, and every read
  // leaves out the internalTrafficPolicy.
  Value to_external = lb;
  to_external.map().Find("spec")->map().Set("type", Value("ExternalName"));
  to_external.map().Find("spec")->map().Set("externalName", Value("a.example"));
  EXPECT_EQ(At(k->PrepareForUpdate(to_external, lb), "spec"), Canon(R"({
    "type":"ExternalName","externalName":"a.example",
    "ports":[{"name":"http","port":80}]})"));
  // What the request changed stays (validation judges it).
  Value changed = to_cluster_ip;
  changed.map().Find("spec")->map().Set("loadBalancerClass", Value("other"));
  EXPECT_EQ(At(k->PrepareForUpdate(changed, lb), "spec.loadBalancerClass"),
            Canon(R"("other")"));
}

// A PUT that leaves out what the server allocated gets it back from the
// live Service (patchAllocatedValues): cluster IPs, node ports by port
// name, the health check node port.
TEST(ServiceRegistryTest, AnUpdateKeepsTheAllocatedValuesItLeftOut) {
  std::shared_ptr<const BuiltinKind> k = KindOf("v1", "Service");
  const Value live = Yaml(R"({apiVersion: v1, kind: Service, metadata: {name: s},
    spec: {type: LoadBalancer, clusterIP: 10.96.0.7, clusterIPs: [10.96.0.7],
      ipFamilies: [IPv4], ipFamilyPolicy: SingleStack,
      externalTrafficPolicy: Local, healthCheckNodePort: 31366,
      ports: [{name: http, port: 80, nodePort: 32740},
              {name: https, port: 443, nodePort: 32741}]}})");
  Value updated = k->PrepareForUpdate(Yaml(R"({apiVersion: v1, kind: Service,
    metadata: {name: s}, spec: {type: LoadBalancer,
      externalTrafficPolicy: Local, ports: [{name: http, port: 8080},
      {name: https, port: 443, nodePort: 32740}]}})"), live);
  // https's old node port went to no port; http's is https's now: taken.
  EXPECT_EQ(At(updated, "spec"), Canon(R"({"type":"LoadBalancer",
    "clusterIP":"10.96.0.7","clusterIPs":["10.96.0.7"],
    "ipFamilies":["IPv4"],"ipFamilyPolicy":"SingleStack",
    "externalTrafficPolicy":"Local","healthCheckNodePort":31366,
    "ports":[{"name":"http","port":8080},
             {"name":"https","port":443,"nodePort":32740}]})"));
  // A headless Service's "None" fills clusterIPs at create.
  EXPECT_EQ(At(Created("v1", "Service", R"({apiVersion: v1, kind: Service,
    spec: {clusterIP: None}})"), "spec.clusterIPs"), Canon(R"(["None"])"));
}

// The webhook configurations and NetworkPolicy count changes with
// reflect.DeepEqual: an empty slice or map the request decodes to (`[]`,
// `{}`, a byte slice's "") differs from the nil one storage reads back, so
// such a request counts as a change each time, however often it is sent.
// Checked against kube-apiserver 1.37 by apply and by update (a random
// scenario found it: a webhook PUT with `rules: []`).
TEST(PrepareForUpdateTest, ReflectComparedEmptiesCountAsChanges) {
  auto empties = [](const char* api_version, const char* kind,
                    const char* request) {
    std::shared_ptr<const BuiltinKind> k = KindOf(api_version, kind);
    return k->EmptiesDiffer(Yaml(request), k->Decode(Yaml(request)));
  };
  const char* vwc = "admissionregistration.k8s.io/v1";
  EXPECT_TRUE(empties(vwc, "ValidatingWebhookConfiguration",
                      "{webhooks: [{name: a, rules: []}]}"));
  EXPECT_TRUE(empties(vwc, "MutatingWebhookConfiguration",
                      "{webhooks: [{name: a, clientConfig: {caBundle: ''}}]}"));
  EXPECT_TRUE(empties(vwc, "MutatingWebhookConfiguration",
                      "{webhooks: [{name: a, objectSelector: "
                      "{matchLabels: {}}}]}"));
  EXPECT_TRUE(empties(vwc, "MutatingWebhookConfiguration",
                      "{webhooks: [{name: a, rules: [{apiGroups: []}]}]}"));
  EXPECT_TRUE(empties(vwc, "ValidatingWebhookConfiguration", "{webhooks: []}"));
  // An empty struct is no slice; a null is nil; the metadata is not compared.
  EXPECT_FALSE(empties(vwc, "ValidatingWebhookConfiguration",
                       "{webhooks: [{name: a, objectSelector: {}, "
                       "rules: null}]}"));
  EXPECT_FALSE(empties(vwc, "ValidatingWebhookConfiguration",
                       "{metadata: {labels: {}}, webhooks: [{name: a}]}"));
  EXPECT_TRUE(empties("networking.k8s.io/v1", "NetworkPolicy",
                      "{spec: {ingress: [{from: [{podSelector: {}}], "
                      "ports: []}]}}"));
  EXPECT_FALSE(empties("networking.k8s.io/v1", "NetworkPolicy",
                       "{spec: {podSelector: {}, ingress: [{}]}}"));
  // An empty slice a defaulter fills is no longer empty (a random PUT of
  // `policyTypes: []` found this: SetDefaults_NetworkPolicy sets Ingress).
  EXPECT_FALSE(empties("networking.k8s.io/v1", "NetworkPolicy",
                       "{apiVersion: networking.k8s.io/v1, kind: "
                       "NetworkPolicy, spec: {podSelector: {}, "
                       "policyTypes: []}}"));
  // apiequality.Semantic's kinds: an empty slice is a nil one.
  EXPECT_FALSE(empties("apps/v1", "Deployment",
                       "{spec: {template: {spec: {containers: []}}}}"));

  const char* live = R"({apiVersion: networking.k8s.io/v1,
    kind: NetworkPolicy, metadata: {name: n, generation: 2},
    spec: {podSelector: {}, policyTypes: [Ingress]}})";
  const char* request = R"({apiVersion: networking.k8s.io/v1,
    kind: NetworkPolicy, metadata: {name: n},
    spec: {podSelector: {}, policyTypes: [Ingress], ingress: []}})";
  std::shared_ptr<const BuiltinKind> np =
      KindOf("networking.k8s.io/v1", "NetworkPolicy");
  BuiltinKind::UpdateContext context;
  context.empties_differ =
      np->EmptiesDiffer(Yaml(request), np->Decode(Yaml(request)));
  EXPECT_EQ(At(np->PrepareForUpdate(np->ReadBack(Yaml(request)), Yaml(live),
                                    context),
               "metadata.generation"),
            "3");
  EXPECT_EQ(At(np->PrepareForUpdate(np->ReadBack(Yaml(request)), Yaml(live)),
               "metadata.generation"),
            "2");
}

// A custom resource's generation (the apiextensions-apiserver's strategy):
// 1 at create, then one more for any change but the metadata's, and none
// for a write to the status subresource.
TEST(PrepareForUpdateTest, ACustomResourceCountsAnyChangeButItsMetadata) {
  const Value live = Yaml(R"({apiVersion: example.com/v1, kind: Widget,
    metadata: {name: w, generation: 3, labels: {a: b}},
    spec: {size: 1}, status: {ready: true}})");
  auto generation = [&](const char* object, const Value& from, bool status) {
    return At(CustomResourceMetadata::AsStored(Yaml(object), from,
                                                     status),
              "metadata.generation");
  };
  EXPECT_EQ(generation(R"({apiVersion: example.com/v1, kind: Widget,
    metadata: {name: w}, spec: {size: 1}})",
                       Value(), false),
            "1");
  EXPECT_EQ(generation(R"({apiVersion: example.com/v1, kind: Widget,
    metadata: {name: w, generation: 7, labels: {a: c}},
    spec: {size: 1}, status: {ready: true}})",
                       live, false),
            "3");
  EXPECT_EQ(generation(R"({apiVersion: example.com/v1, kind: Widget,
    metadata: {name: w}, spec: {size: 2}, status: {ready: true}})",
                       live, false),
            "4");
  // An absent field is not an empty one (unstructured content).
  EXPECT_EQ(generation(R"({apiVersion: example.com/v1, kind: Widget,
    metadata: {name: w}, spec: {size: 1}, status: {ready: true}, extra: []})",
                       live, false),
            "4");
  EXPECT_EQ(generation(R"({apiVersion: example.com/v1, kind: Widget,
    metadata: {name: w}, spec: {size: 1}, status: {ready: false}})",
                       live, true),
            "3");
}

// Storage writes a custom resource as JSON, where encoding/json prints a
// whole float without its fraction, and reads it back as unstructured
// content, where such a number is an int64: kube-apiserver 1.37 answers an
// apply of a Widget's `replicas: 3.0` with `replicas: 3`. Floats with a
// fraction, and whole ones beyond an int64, stay floats.
TEST(PrepareForUpdateTest, ACustomResourceStoresWholeFloatsAsIntegers) {
  const Value stored = CustomResourceMetadata::AsStored(
      Yaml(R"({apiVersion: example.com/v1, kind: Widget, metadata: {name: w},
    spec: {replicas: 3.0, ratio: 2.5, big: 1.0e19, low: -9.0e18, zero: -0.0,
      keep: 7, ports: [{port: 80.0}, {port: 81}], name: "3.0"}})"),
      Value(), false);
  const Value* spec = Find(stored, "spec");
  ASSERT_NE(spec, nullptr);
  auto kind = [&](const char* f) {
    const Value* v = Find(*spec, f);
    if (v == nullptr) return "absent";
    return v->IsInt() ? "int" : v->IsFloat() ? "float" : "other";
  };
  EXPECT_STREQ(kind("replicas"), "int");
  EXPECT_STREQ(kind("ratio"), "float");
  EXPECT_STREQ(kind("big"), "float");
  EXPECT_STREQ(kind("low"), "int");
  EXPECT_STREQ(kind("zero"), "int");
  EXPECT_STREQ(kind("keep"), "int");
  EXPECT_STREQ(kind("name"), "other");
  EXPECT_EQ(Find(*spec, "low")->AsInt(), -9000000000000000000);
  EXPECT_EQ(Find(*spec, "zero")->AsInt(), 0);
  EXPECT_TRUE(Find(*spec, "ports")->list()[0].map().Find("port")->IsInt());
  EXPECT_EQ(At(stored, "spec"),
            Canon(R"({"replicas":3,"ratio":2.5,"big":1e19,
    "low":-9000000000000000000,"zero":0,"keep":7,
    "ports":[{"port":80},{"port":81}],"name":"3.0"})"));
  EXPECT_EQ(At(stored, "metadata.generation"), "1");
}

// A command over a whole cluster's manifests makes a field manager per
// object; the kinds' plans are kept for at least 40 kinds, so a stream that
// cycles through them makes each plan once (with room for 16 only, nearly
// every object made its kind's plan again).
TEST(BuiltinKindTest, PlansOfManyKindsAreKept) {
  std::vector<std::pair<std::string, std::string>> kinds;
  std::vector<Type> types;
  for (const KubernetesKind& k : KubernetesKinds()) {
    if (kinds.size() == 40) break;
    if (k.api_version != "v1" && k.api_version != "apps/v1" &&
        k.api_version != "batch/v1" &&
        k.api_version != "networking.k8s.io/v1" &&
        k.api_version != "rbac.authorization.k8s.io/v1") {
      continue;
    }
    absl::StatusOr<std::shared_ptr<const Schema>> schema =
        KubernetesSchemaFor(k.type_name);
    ASSERT_TRUE(schema.ok()) << schema.status();
    absl::StatusOr<Type> type = Type::Named(*schema, k.type_name);
    ASSERT_TRUE(type.ok()) << type.status();
    if (BuiltinKind::For(*type, k.api_version, k.kind) == nullptr) continue;
    kinds.emplace_back(k.api_version, k.kind);
    types.push_back(*type);
  }
  ASSERT_GE(kinds.size(), 30u);
  std::vector<std::shared_ptr<const BuiltinKind>> first;
  for (size_t i = 0; i < kinds.size(); ++i) {
    first.push_back(
        BuiltinKind::For(types[i], kinds[i].first, kinds[i].second));
  }
  for (size_t i = 0; i < kinds.size(); ++i) {
    EXPECT_EQ(BuiltinKind::For(types[i], kinds[i].first, kinds[i].second),
              first[i])
        << kinds[i].first << " " << kinds[i].second;
  }
}

// The direct reader of the Go types' facts agrees with the JSON reader on
// every embedded struct, and on texts of other shapes (which it hands over).
TEST(GoTypesTest, TheDirectReaderAgreesWithTheJsonReader) {
  auto same = [](const char* text) {
    std::unique_ptr<internal::GoStruct> a = internal::ParseGoStruct(text);
    std::unique_ptr<internal::GoStruct> b =
        internal::ParseGoStructGeneral(text);
    if (a->fields.size() != b->fields.size()) return false;
    for (size_t i = 0; i < a->fields.size(); ++i) {
      const internal::GoField& x = a->fields[i];
      const internal::GoField& y = b->fields[i];
      if (x.name != y.name || x.kind != y.kind || x.omitempty != y.omitempty ||
          x.omitzero != y.omitzero || !Identical(x.zero, y.zero) ||
          !Identical(x.element_zero, y.element_zero) ||
          x.byte_elements != y.byte_elements || x.int_bits != y.int_bits) {
        return false;
      }
    }
    return a->by_name == b->by_name;
  };
  size_t checked = 0;
  for (size_t i = 0; i < internal::kEmbeddedGoTypeCount; ++i) {
    const internal::EmbeddedGoType& t = internal::kEmbeddedGoTypes[i];
    EXPECT_TRUE(same(t.fields)) << t.name;
    checked += internal::ParseGoStruct(t.fields)->fields.size();
  }
  EXPECT_GT(checked, 4000u);  // 4,985 fields in v1.37
  for (const char* text : {
           R"({})",
           R"({"a":["s","e",""],"b":["i","",0],"c":["t","",{"x":null}]})",
           R"({"b":["s","e",""],"a":["i","",0]})",   // names out of order
           R"({"a":["s","e",""],"a":["i","",0]})",   // a name twice
           R"({"a\u0062":["s","e",""]})",            // an escaped name
           R"({ "a": ["s", "e", ""] })",             // spaces
           R"({"a":["ss","e",""],"b":["i","z",-1.5]})",  // a bad kind
           R"({"a":"s","b":["b","ez",false]})",      // not a list
           R"({"a":["s","e"]})",                     // two items
           R"({"a":["l","e",null,""],"b":["m","ey",null]})",  // elements
           R"({"a":["i","4",0],"b":["p","e8",null]})",      // integers
           R"({"a":["l","e",null,{"k":[1]}]})",
           R"({"a":["l","e",null,"",0]})",           // five items
           R"({"a":["l","e",null,]})",               // an empty fourth
           R"({"a":["l","e",[1,"]",{"k":"}"}]]})",   // brackets in strings
           R"({"a":["s","e",""]} x)",                // text after the end
           R"([1,2])",
       }) {
    EXPECT_TRUE(same(text)) << text;
  }
}

}  // namespace
}  // namespace smdx
