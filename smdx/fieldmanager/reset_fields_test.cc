#include "smdx/fieldmanager/reset_fields.h"

#include <string>
#include <vector>

#include "smdx/fieldmanager/field_manager.h"
#include "smdx/fieldpath/fields_v1.h"
#include "gtest/gtest.h"
#include "smdx/schema/builtin.h"
#include "smdx/schema/schema.h"
#include "testing/test_util.h"
#include "smdx/value/emit.h"

namespace smdx {
namespace {

using testing::Yaml;

// A field manager of the built-in kind (its root type `type_name`) at the
// endpoint `subresource`, with the reset fields BuiltinResetFields gives.
FieldManager ManagerOf(const std::string& api_version, const std::string& kind,
                       const char* type_name, const std::string& subresource,
                       bool builtin_defaults = false) {
  FieldManagerOptions o;
  o.api_version = api_version;
  o.kind = kind;
  o.subresource = subresource;
  o.builtin_defaults = builtin_defaults;
  SetResetFields(BuiltinResetFields(api_version, kind, subresource), &o);
  return *FieldManager::Create(
      *Type::Named(*KubernetesSchemaFor(type_name), type_name), o);
}

FieldManager Manager(const std::string& subresource) {
  return ManagerOf("apps/v1", "Deployment", "io.k8s.api.apps.v1.Deployment",
                   subresource);
}

// obj1 and obj2 differ in one spec field and one status field, as in
// Kubernetes' TestApplyResetFields.
constexpr char kObj1[] = R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default, labels: {a: b}}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: "nginx:1"}]
status: {replicas: 1}
)";
constexpr char kObj2[] = R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default, labels: {a: c}}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: "nginx:2"}]
status: {replicas: 2}
)";

const Value* At(const Value& v, std::initializer_list<const char*> path) {
  const Value* at = &v;
  for (const char* p : path) {
    at = at->IsMap() ? at->map().Find(p) : nullptr;
    if (at == nullptr) return nullptr;
  }
  return at;
}

std::string FieldsOf(const FieldManagerResult& r, const std::string& manager) {
  for (const auto& [key, vs] : r.managed.fields) {
    if (key.find("\"" + manager + "\"") != std::string::npos)
      return SerializeFieldsV1(vs.set());
  }
  return "";
}

TEST(ResetFieldsTest, MainResourceNeitherStoresNorOwnsStatus) {
  FieldManager main = Manager("");
  FieldManagerResult created = main.Apply(Value(), Yaml(kObj1), "m1", false);
  ASSERT_TRUE(created.ok()) << created.status;
  // PrepareForCreate: no status.
  EXPECT_EQ(At(created.object, {"status"}), nullptr);
  EXPECT_EQ(FieldsOf(created, "m1").find("f:status"), std::string::npos);

  // A live status (the controller's) survives an apply that sends another.
  Value live = created.object;
  live.map().Set("status", Yaml("{replicas: 7}"));
  FieldManagerResult again = main.Apply(live, Yaml(kObj2), "m1", false);
  ASSERT_TRUE(again.ok()) << again.status;
  EXPECT_EQ(At(again.object, {"status", "replicas"})->AsInt(), 7);
  EXPECT_EQ(At(again.object, {"spec", "template", "spec", "containers"})
                ->list()[0]
                .map()
                .Find("image")
                ->AsString(),
            "nginx:2");
  FieldManagerResult update = main.Update(live, Yaml(kObj2), "writer");
  ASSERT_TRUE(update.ok()) << update.status;
  EXPECT_EQ(At(update.object, {"status", "replicas"})->AsInt(), 7);
  EXPECT_EQ(FieldsOf(update, "writer").find("f:status"), std::string::npos);
}

TEST(ResetFieldsTest, StatusEndpointResetsSpecAndLabelsWithoutConflicts) {
  // As TestApplyResetFields: obj1 to the main endpoint by m1, obj2 to the
  // status endpoint by m2: no conflict, each owns only its part.
  FieldManager main = Manager("");
  FieldManager status = Manager("status");
  FieldManagerResult r1 = main.Apply(Value(), Yaml(kObj1), "m1", false);
  ASSERT_TRUE(r1.ok()) << r1.status;
  FieldManagerResult r2 = status.Apply(r1.object, Yaml(kObj2), "m2", false);
  ASSERT_TRUE(r2.ok()) << r2.status;
  EXPECT_EQ(At(r2.object, {"status", "replicas"})->AsInt(), 2);
  EXPECT_EQ(At(r2.object, {"metadata", "labels", "a"})->AsString(), "b");
  EXPECT_EQ(At(r2.object, {"spec", "template", "spec", "containers"})
                ->list()[0]
                .map()
                .Find("image")
                ->AsString(),
            "nginx:1");
  EXPECT_EQ(FieldsOf(r2, "m2"), R"({"f:status":{"f:replicas":{}}})");
  // obj2 on the main endpoint by m2 now conflicts with m1 on the spec.
  FieldManagerResult r3 = main.Apply(r2.object, Yaml(kObj2), "m2", false);
  EXPECT_EQ(r3.kind, ErrorKind::kConflict);
  // A status request needs the object.
  FieldManagerResult none = status.Apply(Value(), Yaml(kObj2), "m2", false);
  EXPECT_EQ(none.kind, ErrorKind::kBadRequest);
}

TEST(ResetFieldsTest, TheTableCoversTheIssuesKinds) {
  const std::pair<const char*, const char*> kinds[] = {
      {"apps/v1", "Deployment"},
      {"apps/v1", "StatefulSet"},
      {"apps/v1", "DaemonSet"},
      {"apps/v1", "ReplicaSet"},
      {"batch/v1", "Job"},
      {"batch/v1", "CronJob"},
      {"v1", "Pod"},
      {"v1", "Service"},
      {"v1", "Node"},
      {"v1", "Namespace"},
      {"v1", "PersistentVolume"},
      {"v1", "PersistentVolumeClaim"},
      {"autoscaling/v2", "HorizontalPodAutoscaler"},
      {"policy/v1", "PodDisruptionBudget"},
      {"networking.k8s.io/v1", "Ingress"},
      // Served at v1 since Kubernetes 1.27 (the table was of 1.27 before
      // it was generated from 1.37's strategies).
      {"flowcontrol.apiserver.k8s.io/v1", "FlowSchema"},
      {"flowcontrol.apiserver.k8s.io/v1", "PriorityLevelConfiguration"},
      {"admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy"},
      {"resource.k8s.io/v1", "ResourceClaim"},
      {"resource.k8s.io/v1", "DeviceTaintRule"},
      {"networking.k8s.io/v1", "ServiceCIDR"},
      {"storage.k8s.io/v1", "CSINode"},
      {"storagemigration.k8s.io/v1", "StorageVersionMigration"},
      {"certificates.k8s.io/v1", "PodCertificateRequest"},
  };
  for (const auto& [av, kind] : kinds) {
    ResetFields main = BuiltinResetFields(av, kind, "");
    ASSERT_EQ(main.ignored_fields.count(av), 1u) << kind;
    EXPECT_EQ(SerializeFieldsV1(main.ignored_fields.at(av)),
              R"({"f:status":{}})")
        << kind;
    ResetFields status = BuiltinResetFields(av, kind, "status");
    ASSERT_EQ(status.ignored_fields.count(av), 1u) << kind;
    EXPECT_TRUE(status.ignored_fields.at(av).Has({PathElement::Field("spec")}))
        << kind;
  }
  // 1.37's CRD status endpoint resets the spec alone (its PrepareForUpdate
  // keeps the request's metadata: kubernetes/kubernetes#137681).
  ResetFields crd = BuiltinResetFields("apiextensions.k8s.io/v1",
                                       "CustomResourceDefinition", "status");
  EXPECT_EQ(SerializeFieldsV1(crd.ignored_fields.at("apiextensions.k8s.io/v1")),
            R"({"f:spec":{}})");
  // A CSR's main endpoint keeps its spec as well as its status.
  ResetFields csr = BuiltinResetFields("certificates.k8s.io/v1",
                                       "CertificateSigningRequest", "");
  EXPECT_EQ(SerializeFieldsV1(csr.ignored_fields.at("certificates.k8s.io/v1")),
            R"({"f:spec":{},"f:status":{}})");
  EXPECT_TRUE(BuiltinResetFields("v1", "ConfigMap", "").empty());
  EXPECT_TRUE(CustomResourceResetFields("example.com/v1", false, "").empty());
}

// namespaceStrategy.PrepareForUpdate keeps spec.finalizers (they change
// through the finalize subresource only), though GetResetFields names only
// status: a PUT without them keeps them; their owners lose them. A create
// takes them from the request.
TEST(ResetFieldsTest, ANamespacesFinalizersStayThroughItsMainEndpoint) {
  ResetFields r = BuiltinResetFields("v1", "Namespace", "");
  EXPECT_FALSE(r.ignored_fields.at("v1").Has(
      {PathElement::Field("spec"), PathElement::Field("finalizers")}));
  FieldManager fm =
      ManagerOf("v1", "Namespace", "io.k8s.api.core.v1.Namespace", "");
  FieldManagerResult created = fm.Update(
      Value(),
      Yaml("{apiVersion: v1, kind: Namespace, metadata: {name: ns1}, "
           "spec: {finalizers: [kubernetes]}}"),
      "create");
  ASSERT_TRUE(created.ok()) << created.status;
  Value body = created.object;
  body.map().Erase("spec");
  FieldManagerResult r2 = fm.Update(created.object, body, "ctrl");
  ASSERT_TRUE(r2.ok()) << r2.status;
  ASSERT_NE(At(r2.object, {"spec", "finalizers"}), nullptr) << ToJson(r2.object);
  EXPECT_EQ(ToJson(*At(r2.object, {"spec", "finalizers"})), R"(["kubernetes"])");
  // Their only owner lost them, and nobody owns anything else.
  EXPECT_EQ(FindManagedFields(r2.object), nullptr) << ToJson(r2.object);
  EXPECT_NE(ToJson(*FindManagedFields(created.object)).find("f:finalizers"),
            std::string::npos);
  EXPECT_EQ(BuiltinResetFields("v1", "Namespace", "status").kept_fields.size(),
            1u);  // spec, only
}

// A Node's create takes the request's status (nodeStrategy.PrepareForCreate
// keeps it: "Nodes allow *all* fields, including status, to be set on
// create"), which no manager owns; an update keeps the live one. Checked
// against kube-apiserver 1.37 by apply: capacity and phase stay,
// allocatable is defaulted from capacity, config goes.
TEST(ResetFieldsTest, ANodesCreateTakesTheRequestsStatus) {
  ResetFields r = BuiltinResetFields("v1", "Node", "");
  EXPECT_TRUE(r.ignored_fields.at("v1").Has({PathElement::Field("status")}));
  EXPECT_TRUE(r.kept_fields.empty());
  ASSERT_EQ(r.kept_on_update_fields.size(), 1u);
  FieldManager fm = ManagerOf("v1", "Node", "io.k8s.api.core.v1.Node", "",
                              /*builtin_defaults=*/true);
  FieldManagerResult created = fm.Apply(
      Value(),
      Yaml("{apiVersion: v1, kind: Node, metadata: {name: n1}, spec: {podCIDR: "
           "10.1.0.0/24}, status: {capacity: {cpu: '4'}, phase: Running, "
           "config: {error: x}}}"),
      "kubectl", false);
  ASSERT_TRUE(created.ok()) << created.status;
  EXPECT_EQ(ToJson(*At(created.object, {"status", "capacity"})),
            R"({"cpu":"4"})");
  EXPECT_EQ(ToJson(*At(created.object, {"status", "allocatable"})),
            R"({"cpu":"4"})");
  EXPECT_EQ(At(created.object, {"status", "config"}), nullptr);
  EXPECT_EQ(FieldsOf(created, "kubectl").find("f:status"), std::string::npos);
  Value body = created.object;
  body.map().Find("status")->map().Set("phase", Value("Terminated"));
  FieldManagerResult updated = fm.Update(created.object, body, "ctrl");
  ASSERT_TRUE(updated.ok()) << updated.status;
  EXPECT_EQ(ToJson(*At(updated.object, {"status", "phase"})), R"("Running")");
  // A CSR's approval endpoint changes its conditions alone; its status
  // endpoint resets them (no manager owns them there), but its strategy
  // settles their values (kubetypes): the live ones are not kept whole.
  const char* csr = "CertificateSigningRequest";
  ResetFields approval =
      BuiltinResetFields("certificates.k8s.io/v1", csr, "approval");
  ASSERT_EQ(approval.changed_fields_only.size(), 1u);
  EXPECT_EQ(approval.changed_fields_only[0],
            (std::vector<std::string>{"status", "conditions"}));
  EXPECT_TRUE(approval.ignored_fields.at("certificates.k8s.io/v1")
                  .Has({PathElement::Field("status"),
                        PathElement::Field("certificate")}));
  ResetFields status = BuiltinResetFields("certificates.k8s.io/v1", csr,
                                          "status");
  EXPECT_EQ(status.kept_fields,
            (std::vector<std::vector<std::string>>{{"spec"}}));
  // A CertificateSigningRequest keeps its spec at create likewise.
  EXPECT_TRUE(BuiltinResetFields("certificates.k8s.io/v1",
                                 "CertificateSigningRequest", "")
                  .kept_fields.size() == 1u);
}

TEST(ResetFieldsTest, CustomResourceStatusEndpointResetsMetadataAndSpec) {
  // registry/customresource/status_strategy.go (v0.37): GetResetFields is
  // {metadata, spec}; the main resource's is {status}.
  ResetFields status =
      CustomResourceResetFields("example.com/v1", true, "status");
  const Set& s = status.ignored_fields.at("example.com/v1");
  EXPECT_TRUE(s.Has({PathElement::Field("metadata")}));
  EXPECT_TRUE(s.Has({PathElement::Field("spec")}));
  EXPECT_FALSE(s.Has({PathElement::Field("status")}));
  ResetFields main = CustomResourceResetFields("example.com/v1", true, "");
  const Set& m = main.ignored_fields.at("example.com/v1");
  EXPECT_TRUE(m.Has({PathElement::Field("status")}));
  EXPECT_FALSE(m.Has({PathElement::Field("metadata")}));
}

TEST(ResetFieldsTest, CustomResourceStatusSubresource) {
  // The schema the apiextensions-apiserver builds for such a CRD (the
  // CRD's conversion is openapi/'s; here it is written out).
  absl::StatusOr<std::shared_ptr<const Schema>> schema =
      Schema::ParseSmd(R"(types:
- name: com.example.v1.Widget
  map:
    fields:
    - name: apiVersion
      type: {scalar: string}
    - name: kind
      type: {scalar: string}
    - name: metadata
      type: {namedType: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta}
    - name: spec
      type:
        map:
          fields:
          - name: size
            type: {scalar: numeric}
    - name: status
      type:
        map:
          fields:
          - name: ready
            type: {scalar: boolean}
- name: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta
  map:
    fields:
    - name: name
      type: {scalar: string}
    - name: annotations
      type:
        map:
          elementType: {scalar: string}
)");
  ASSERT_TRUE(schema.ok()) << schema.status();
  auto manager = [&](const std::string& sub) {
    FieldManagerOptions o;
    o.api_version = "example.com/v1";
    o.kind = "Widget";
    o.subresource = sub;
    SetResetFields(CustomResourceResetFields("example.com/v1", true, sub), &o);
    return *FieldManager::Create(*Type::Named(*schema, "com.example.v1.Widget"),
                                 o);
  };
  Value w1 = Yaml(R"(apiVersion: example.com/v1
kind: Widget
metadata: {name: w, annotations: {a: "1"}}
spec: {size: 1}
status: {ready: true}
)");
  Value w2 = Yaml(R"(apiVersion: example.com/v1
kind: Widget
metadata: {name: w, annotations: {a: "1"}}
spec: {size: 2}
status: {ready: false}
)");
  FieldManagerResult created = manager("").Apply(Value(), w1, "m1", false);
  ASSERT_TRUE(created.ok()) << created.status;
  EXPECT_EQ(At(created.object, {"status"}), nullptr);
  Value live = created.object;
  live.map().Set("status", Yaml("{ready: true}"));
  // The status endpoint changes .status alone: not the spec (no conflict
  // with m1 over it either), not metadata.
  FieldManagerResult s = manager("status").Apply(live, w2, "m2", false);
  ASSERT_TRUE(s.ok()) << ErrorKindName(s.kind) << " " << s.status;
  EXPECT_EQ(At(s.object, {"status", "ready"})->AsBool(), false);
  EXPECT_EQ(At(s.object, {"spec", "size"})->AsInt(), 1);
  // .metadata and .spec are the status endpoint's reset fields (v0.37):
  // the annotation it sent with the live value is not recorded as its.
  EXPECT_EQ(FieldsOf(s, "m2"), R"({"f:status":{"f:ready":{}}})");
  // The main endpoint keeps the live status.
  FieldManagerResult m = manager("").Apply(s.object, w2, "m1", false);
  ASSERT_TRUE(m.ok()) << ErrorKindName(m.kind) << " " << m.status;
  EXPECT_EQ(At(m.object, {"status", "ready"})->AsBool(), false);
  EXPECT_EQ(At(m.object, {"spec", "size"})->AsInt(), 2);
}

}  // namespace
// The subresources of built-in kinds that take the kind's object, as
// Kubernetes v1.37 serves them (pkg/registry/*/storage).
TEST(ResetFieldsTest, BuiltinSubresourcesAreThoseOfTheKind) {
  using V = std::vector<std::string>;
  EXPECT_EQ(BuiltinSubresources("v1", "Pod"),
            (V{"ephemeralcontainers", "resize", "status"}));
  EXPECT_EQ(BuiltinSubresources("v1", "Namespace"), (V{"finalize", "status"}));
  EXPECT_EQ(BuiltinSubresources("apps/v1", "Deployment"),
            (V{"scale", "status"}));
  EXPECT_EQ(BuiltinSubresources("v1", "ReplicationController"),
            (V{"scale", "status"}));
  EXPECT_EQ(BuiltinSubresources("certificates.k8s.io/v1",
                                "CertificateSigningRequest"),
            (V{"approval", "status"}));
  EXPECT_EQ(BuiltinSubresources("v1", "ConfigMap"), V{});
  EXPECT_EQ(BuiltinSubresources("example.com/v1", "Pod"), V{});
}

}  // namespace smdx
