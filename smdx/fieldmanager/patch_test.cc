#include "smdx/fieldmanager/patch.h"

#include <string>

#include "gtest/gtest.h"
#include "smdx/fieldmanager/scale.h"
#include "smdx/fieldmanager/test_manager.h"
#include "smdx/schema/builtin.h"
#include "smdx/value/emit.h"
#include "smdx/value/parse.h"
#include "testing/test_util.h"

namespace smdx {
namespace {

using smdx::testing::Yaml;

class PatchRequestTest : public ::testing::Test {
 protected:
  PatchRequestTest() : clock_(*ParseManagedTime("2026-01-01T00:00:00Z")) {}

  FieldManager Make(const std::string& api_version, const std::string& kind,
                    const std::string& subresource = "") {
    return smdx::testing::BuiltinTestManager(api_version, kind, &clock_,
                                             /*builtin_defaults=*/true,
                                             subresource);
  }

  // A Deployment of two replicas, as kubectl's apply creates it.
  Value LiveDeployment() {
    return Make("apps/v1", "Deployment")
        .Apply(Value(), Yaml(R"({apiVersion: apps/v1,
    kind: Deployment, metadata: {name: web, namespace: default},
    spec: {replicas: 2, selector: {matchLabels: {app: web}},
      template: {metadata: {labels: {app: web}},
        spec: {containers: [{name: web, image: nginx}]}}}})"),
               "kubectl", false)
        .object;
  }

  ManualClock clock_;
};

constexpr char kConfigMap[] =
    "{apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: ns}, "
    "data: {a: '1', b: '2'}}";

// A patch is the update of its result: the patcher owns what it changed.
TEST_F(PatchRequestTest, IsTheUpdateOfItsResult) {
  FieldManager fm = Make("v1", "ConfigMap");
  const Value live = fm.Apply(Value(), Yaml(kConfigMap), "kubectl", false).object;
  clock_.Advance(absl::Seconds(1));
  FieldManagerResult merged = Patch(
      fm, live, Yaml("{data: {b: null, c: '3'}}"), PatchType::kMerge, "ctl");
  ASSERT_TRUE(merged.ok()) << merged.status;
  FieldManagerResult updated = fm.Update(
      live,
      Yaml("{apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: "
           "ns, managedFields: " +
           ToJson(*FindManagedFields(live)) + "}, data: {a: '1', c: '3'}}"),
      "ctl");
  ASSERT_TRUE(updated.ok()) << updated.status;
  EXPECT_EQ(merged.object, updated.object) << ToYaml(merged.object);

  FieldManagerResult json = Patch(
      fm, live,
      Yaml("[{op: remove, path: /data/b}, {op: add, path: /data/c, value: '3'}]"),
      PatchType::kJson, "ctl");
  ASSERT_TRUE(json.ok()) << json.status;
  EXPECT_EQ(json.object, merged.object);
}

// The handler's checks, and what each failure is.
TEST_F(PatchRequestTest, ChecksAsTheHandler) {
  FieldManager fm = Make("v1", "ConfigMap");
  const Value live = fm.Apply(Value(), Yaml(kConfigMap), "kubectl", false).object;
  // The namespace removed is put back.
  FieldManagerResult r = Patch(fm, live, Yaml("{metadata: {namespace: null}}"),
                               PatchType::kMerge, "ctl");
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_EQ(StringAt(*Find(r.object, "metadata"), "namespace"), "ns");
  // Another name or namespace is a bad request.
  r = Patch(fm, live, Yaml("{metadata: {name: d}}"), PatchType::kMerge, "ctl");
  EXPECT_EQ(r.kind, ErrorKind::kBadRequest);
  EXPECT_EQ(r.status.message(),
            "the name of the object (d) does not match the name on the URL (c)");
  r = Patch(fm, live, Yaml("{metadata: {namespace: other}}"),
            PatchType::kMerge, "ctl");
  EXPECT_EQ(r.kind, ErrorKind::kBadRequest);
  // An operation that does not apply is invalid (422); a malformed patch,
  // or one of nothing, a bad request.
  r = Patch(fm, live, Yaml("[{op: remove, path: /data/z}]"), PatchType::kJson,
            "ctl");
  EXPECT_EQ(r.kind, ErrorKind::kInvalid);
  r = Patch(fm, live, Yaml("{op: remove}"), PatchType::kJson, "ctl");
  EXPECT_EQ(r.kind, ErrorKind::kBadRequest);
  r = Patch(fm, Value(), Yaml("{data: {a: x}}"), PatchType::kMerge, "ctl");
  EXPECT_EQ(r.kind, ErrorKind::kBadRequest);
  // A document replaced with a list is no object.
  r = Patch(fm, live, Yaml("[{op: replace, path: '', value: [1]}]"),
            PatchType::kJson, "ctl");
  EXPECT_EQ(r.kind, ErrorKind::kInvalid);
  EXPECT_EQ(*ParsePatchType("strategic"), PatchType::kStrategic);
  EXPECT_EQ(*ParsePatchType("json"), PatchType::kJson);
  EXPECT_FALSE(ParsePatchType("smp").ok());
}

// Built-in kinds: the patched object is decoded and defaulted as any
// update's (a Deployment's strategy removed comes back defaulted, owned by
// nobody).
TEST_F(PatchRequestTest, BuiltInKindsAreDecodedAsUpdates) {
  FieldManager fm = Make("apps/v1", "Deployment");
  const Value live = fm.Apply(Value(), Yaml(R"({apiVersion: apps/v1,
    kind: Deployment, metadata: {name: web, namespace: default},
    spec: {selector: {matchLabels: {app: web}}, strategy: {type: Recreate},
      template: {metadata: {labels: {app: web}},
        spec: {containers: [{name: web, image: nginx}]}}}})"),
                                "kubectl", false)
                          .object;
  FieldManagerResult r = Patch(fm, live,
                               Yaml("[{op: remove, path: /spec/strategy}]"),
                               PatchType::kJson, "ctl");
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_EQ(StringAt(*Find(*Find(r.object, "spec"), "strategy"), "type"),
            "RollingUpdate");
}

// On the scale subresource a patch applies to the Scale: the replicas it
// writes go back into the object, owned by the patcher's scale entry.
TEST_F(PatchRequestTest, ScalePatchesApplyToTheScale) {
  const Value live = LiveDeployment();
  FieldManager scale = Make("apps/v1", "Deployment", "scale");
  FieldManagerResult r =
      Patch(scale, live,
            Yaml("[{op: test, path: /kind, value: Scale}, "
                 "{op: replace, path: /spec/replicas, value: 5}]"),
            PatchType::kJson, "autoscaler");
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_EQ(Find(*Find(r.object, "spec"), "replicas")->AsInt(), 5);
  bool owned = false;
  for (const Value& e : FindManagedFields(r.object)->list()) {
    if (StringAt(e, "manager") == "autoscaler") {
      owned = StringAt(e, "subresource") == "scale" &&
              ToJson(*Find(e, "fieldsV1")) == R"({"f:spec":{"f:replicas":{}}})";
    }
  }
  EXPECT_TRUE(owned) << ToYaml(r.object);
}

// Strategic merge patches read the kind's Go type (the Scale's on the
// scale subresource); their errors carry the handler's codes, and a custom
// resource has no Go type to read (the apiserver's 415).
TEST_F(PatchRequestTest, StrategicPatchesReadTheGoType) {
  FieldManager deployments = Make("apps/v1", "Deployment");
  const Value live = LiveDeployment();
  FieldManagerResult r = Patch(deployments, live, Yaml(R"({spec: {template:
      {spec: {containers: [{name: sidecar, image: busybox}]}}}})"),
                               PatchType::kStrategic, "ctl");
  ASSERT_TRUE(r.ok()) << r.status;
  const Value* containers = Find(
      *Find(*Find(*Find(r.object, "spec"), "template"), "spec"), "containers");
  ASSERT_EQ(containers->list().size(), 2u) << ToYaml(r.object);
  EXPECT_EQ(StringAt(containers->list()[0], "name"), "sidecar");
  EXPECT_EQ(StringAt(containers->list()[1], "name"), "web");

  r = Patch(deployments, live, Yaml("{spec: {template: {spec: {containers: "
                                    "[{$patch: merge}]}}}}"),
            PatchType::kStrategic, "ctl");
  EXPECT_EQ(r.kind, ErrorKind::kInternal);
  r = Patch(deployments, live, Yaml("{metadata: {$retainKeys: 1}}"),
            PatchType::kStrategic, "ctl");
  EXPECT_EQ(r.kind, ErrorKind::kBadRequest);
  // (Items of two types: Go's 500.)
  r = Patch(deployments, live,
            Yaml("{spec: {template: {spec: {containers: [[1]]}}}}"),
            PatchType::kStrategic, "ctl");
  EXPECT_EQ(r.kind, ErrorKind::kInternal);

  // An object that does not decode: a 422 from the patch handler.
  r = Patch(deployments, live, Yaml("{spec: {replicas: '3'}}"),
            PatchType::kStrategic, "ctl");
  EXPECT_EQ(r.kind, ErrorKind::kInvalid) << r.status;
  EXPECT_EQ(Patch(deployments, live, Yaml("{spec: {replicas: 3.5}}"),
                  PatchType::kMerge, "ctl")
                .kind,
            ErrorKind::kInvalid);
  r = Patch(Make("apps/v1", "Deployment", "scale"), live,
            Yaml("{spec: {replicas: 7}}"), PatchType::kStrategic, "hpa");
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_EQ(Find(*Find(r.object, "spec"), "replicas")->AsInt(), 7);

  FieldManagerOptions o;
  o.api_version = "realapi.smdx.dev/v1";
  o.kind = "Widget";
  o.custom_resource = true;
  o.clock = &clock_;
  FieldManager widgets = *FieldManager::Create(Type::Deduced(), o);
  r = Patch(widgets, Yaml("{apiVersion: realapi.smdx.dev/v1, kind: Widget, "
                          "metadata: {name: w}}"),
            Yaml("{spec: {a: 1}}"), PatchType::kStrategic, "ctl");
  EXPECT_EQ(r.kind, ErrorKind::kBadRequest);
  EXPECT_NE(r.status.message().find("415"), absl::string_view::npos)
      << r.status;
}

// A patch applies to the object storage holds: an ExternalName Service's
// internalTrafficPolicy, which reads leave out, stays with its owner.
TEST_F(PatchRequestTest, PatchesApplyToTheStoredObject) {
  FieldManager services = Make("v1", "Service");
  Value live = services
                   .Update(Value(), Yaml(R"({apiVersion: v1, kind: Service,
    metadata: {name: s, namespace: default},
    spec: {type: ClusterIP, ports: [{port: 80}], selector: {app: web}}})"),
                           "creator")
                   .object;
  ASSERT_NE(live.IsNull(), true);
  // A patch of the type keeps the field in storage.
  live = Patch(services, live,
               Yaml("{spec: {type: ExternalName, externalName: example.com}}"),
               PatchType::kMerge, "creator")
             .object;
  ASSERT_NE(ToJson(live).find("internalTrafficPolicy"), std::string::npos);
  // The read, as a GET gives it.
  live.map().Find("spec")->map().Erase("internalTrafficPolicy");
  FieldManagerResult r = Patch(services, live, Yaml("{metadata: {labels: "
                                                    "{a: b}}}"),
                               PatchType::kStrategic, "labeler");
  ASSERT_TRUE(r.ok()) << r.status;
  bool kept = false;
  for (const Value& e : FindManagedFields(r.object)->list()) {
    if (StringAt(e, "manager") == "creator") {
      kept = ToJson(*Find(e, "fieldsV1")).find("f:internalTrafficPolicy") !=
             std::string::npos;
    }
  }
  EXPECT_TRUE(kept) << ToYaml(r.object);
}

}  // namespace
}  // namespace smdx
