#include "smdx/fieldmanager/kubectl_apply.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "smdx/fieldmanager/patch.h"
#include "smdx/fieldmanager/test_manager.h"
#include "smdx/schema/builtin.h"
#include "smdx/value/emit.h"
#include "testing/test_util.h"

namespace smdx {
namespace {

using smdx::testing::Yaml;

// client-go's TestUpgradeCSA, every case (testdata/csaupgrade): the object
// UpgradeManagedFields makes is the one the test expects.
TEST(UpgradeManagedFieldsTest, MakesWhatClientGoTestsExpect) {
  const Value cases = Yaml(testing::ReadTestFile(
      testing::SourcePath("testdata/csaupgrade/upgrade_cases.yaml")));
  ASSERT_TRUE(cases.IsList());
  ASSERT_EQ(cases.list().size(), 9u);
  for (const Value& c : cases.list()) {
    SCOPED_TRACE(StringAt(c, "name"));
    std::vector<std::string> csa;
    for (const Value& m : Find(c, "csaManagers")->list())
      csa.push_back(m.AsString());
    absl::StatusOr<ManagedFieldsUpgrade> up =
        UpgradeManagedFields(*Find(c, "original"), csa,
                             StringAt(c, "ssaManager"),
                             StringAt(c, "subresource"));
    ASSERT_TRUE(up.ok()) << up.status();
    EXPECT_EQ(up->object, *Find(c, "expected"))
        << ToYaml(up->object) << "\nexpected:\n"
        << ToYaml(*Find(c, "expected"));
    // The test's patch is nil exactly when nothing changes.
    EXPECT_EQ(up->changed, !(up->object == *Find(c, "original")));
  }
}

constexpr char kTwoCsaEntries[] = R"(
apiVersion: v1
kind: ConfigMap
metadata:
  name: c
  managedFields:
  - {manager: kubectl-client-side-apply, operation: Update, apiVersion: v1,
     time: "2026-01-01T00:00:01Z", fieldsType: FieldsV1,
     fieldsV1: {f:data: {f:a: {}}}}
  - {manager: kubectl-client-side-apply, operation: Update, apiVersion: v2,
     time: "2026-01-01T00:00:02Z", fieldsType: FieldsV1,
     fieldsV1: {f:data: {f:b: {}}}}
  - {manager: kubectl-client-side-apply, operation: Update, apiVersion: v1,
     subresource: status, time: "2026-01-01T00:00:03Z", fieldsType: FieldsV1,
     fieldsV1: {f:status: {f:c: {}}}}
)";

// The first Update entry is renamed; the one at another apiVersion goes
// with its fields; another subresource's stays.
TEST(UpgradeManagedFieldsTest, RenamesTheFirstAndDropsOtherVersions) {
  absl::StatusOr<ManagedFieldsUpgrade> up = UpgradeManagedFields(
      Yaml(kTwoCsaEntries), {std::string(kKubectlClientSideManager)},
      "kubectl");
  ASSERT_TRUE(up.ok()) << up.status();
  EXPECT_TRUE(up->changed);
  EXPECT_EQ(*FindManagedFields(up->object), Yaml(R"(
  - {manager: kubectl, operation: Apply, apiVersion: v1,
     time: "2026-01-01T00:00:01Z", fieldsType: FieldsV1,
     fieldsV1: {f:data: {f:a: {}}}}
  - {manager: kubectl-client-side-apply, operation: Update, apiVersion: v1,
     subresource: status, time: "2026-01-01T00:00:03Z", fieldsType: FieldsV1,
     fieldsV1: {f:status: {f:c: {}}}}
)"));
  // Nothing to move: nothing changes.
  up = UpgradeManagedFields(Yaml(kTwoCsaEntries), {"someone-else"}, "kubectl");
  ASSERT_TRUE(up.ok());
  EXPECT_FALSE(up->changed);
  EXPECT_EQ(up->object, Yaml(kTwoCsaEntries));
}

TEST(UpgradeManagedFieldsTest, InvalidEntriesFailNamingThem) {
  absl::StatusOr<ManagedFieldsUpgrade> up = UpgradeManagedFields(
      Yaml(R"({apiVersion: v1, kind: ConfigMap, metadata: {name: c,
        managedFields: [{manager: m, operation: Update, apiVersion: v1,
          fieldsType: FieldsV1, fieldsV1: {"x:bad": {}}}]}})"),
      {"m"}, "kubectl");
  ASSERT_FALSE(up.ok());
  EXPECT_NE(up.status().message().find(".metadata.managedFields[0]"),
            std::string::npos)
      << up.status();
}

// A field manager of the built-in `kind` at `api_version`, as the
// apiserver runs it, stamping `clock`'s time.
FieldManager BuiltinManager(ManualClock* clock, const std::string& api_version,
                            const std::string& kind) {
  return smdx::testing::BuiltinTestManager(api_version, kind, clock);
}

class KubectlServerSideApplyTest : public ::testing::Test {
 protected:
  KubectlServerSideApplyTest()
      : clock_(*ParseManagedTime("2026-01-01T00:00:00Z")) {}

  FieldManager Make() { return BuiltinManager(&clock_, "v1", "ConfigMap"); }

  // What client-side `kubectl apply` of `config` stores over `live`: the
  // configuration with its annotation, written by its manager.
  Value ClientSideApply(const FieldManager& fm, const Value& live,
                        const std::string& config) {
    Value body = Yaml(config);
    Value* meta = body.map().Find("metadata");
    Value ann = Value::MakeMap();
    ann.map().Set(kLastAppliedAnnotation, Value(ToJson(Yaml(config))));
    meta->map().Set("annotations", ann);
    FieldManagerResult r =
        fm.Update(live, body, std::string(kKubectlClientSideManager));
    EXPECT_TRUE(r.ok()) << r.status;
    return r.object;
  }

  static std::vector<std::string> Managers(const Value& object) {
    std::vector<std::string> out;
    for (const Value& e : FindManagedFields(object)->list())
      out.push_back(absl::StrCat(StringAt(e, "manager"), " ",
                                 StringAt(e, "operation")));
    return out;
  }

  ManualClock clock_;
};

constexpr char kAB[] =
    "{apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: ns}, "
    "data: {a: '1', b: '2'}}";
constexpr char kA[] =
    "{apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: ns}, "
    "data: {a: '1'}}";

// The move from client-side apply: the apply alone keeps `b`, which the
// client-side applier still owns; kubectl's steps remove it and keep the
// annotation, owned by kubectl-last-applied.
TEST_F(KubectlServerSideApplyTest, MovesClientSideFieldsAndRemovesDropped) {
  FieldManager fm = Make();
  const Value live = ClientSideApply(fm, Value(), kAB);

  FieldManagerResult plain = fm.Apply(live, Yaml(kA), "kubectl", false);
  ASSERT_TRUE(plain.ok()) << plain.status;
  EXPECT_NE(Find(*Find(plain.object, "data"), "b"), nullptr);

  FieldManagerResult r =
      KubectlServerSideApply(fm, live, Yaml(kA), "kubectl", false);
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_TRUE(r.changed);
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_EQ(*Find(r.object, "data"), Yaml("{a: '1'}"));
  EXPECT_EQ(Managers(r.object),
            (std::vector<std::string>{"kubectl-last-applied Apply",
                                      "kubectl Apply"}));
  // The annotation holds the configuration, as the server keeps it for
  // kubectl.
  EXPECT_EQ(Yaml(StringAt(*Find(*Find(r.object, "metadata"), "annotations"),
                          std::string(kLastAppliedAnnotation))),
            Yaml(kA));

  // Once moved, kubectl's apply is the apply alone.
  FieldManagerResult again =
      KubectlServerSideApply(fm, r.object, Yaml(kA), "kubectl", false);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again.changed);
  EXPECT_EQ(again.object, r.object);
}

// Another manager takes the client-side fields too, but kubectl keeps no
// annotation for it: the annotation goes with the dropped fields.
TEST_F(KubectlServerSideApplyTest, AnotherManagerDropsTheAnnotation) {
  FieldManager fm = Make();
  const Value live = ClientSideApply(fm, Value(), kAB);
  FieldManagerResult r =
      KubectlServerSideApply(fm, live, Yaml(kA), "gitops", false);
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_EQ(*Find(r.object, "data"), Yaml("{a: '1'}"));
  EXPECT_EQ(Find(*Find(r.object, "metadata"), "annotations"), nullptr);
  EXPECT_EQ(Managers(r.object), (std::vector<std::string>{"gitops Apply"}));
}

// A conflict of the apply is the command's failure, and nothing else runs.
// (kubectl's own apply would not conflict here: the server forgives it the
// fields its annotation holds.)
TEST_F(KubectlServerSideApplyTest, ConflictOfTheApplyFailsIt) {
  FieldManager fm = Make();
  const Value live = ClientSideApply(fm, Value(), kAB);
  FieldManagerResult r = KubectlServerSideApply(
      fm, live,
      Yaml("{apiVersion: v1, kind: ConfigMap, metadata: {name: c, "
           "namespace: ns}, data: {a: '9'}}"),
      "gitops", false);
  EXPECT_EQ(r.kind, ErrorKind::kConflict);
}

// Without client-side history, the steps are the apply alone.
TEST_F(KubectlServerSideApplyTest, WithoutHistoryIsTheApply) {
  FieldManager fm = Make();
  FieldManagerResult r =
      KubectlServerSideApply(fm, Value(), Yaml(kAB), "kubectl", false);
  FieldManagerResult plain = fm.Apply(Value(), Yaml(kAB), "kubectl", false);
  ASSERT_TRUE(r.ok() && plain.ok());
  EXPECT_EQ(r.object, plain.object);
}

// ---- Client-side apply ------------------------------------------------------

class KubectlClientSideApplyTest : public ::testing::Test {
 protected:
  KubectlClientSideApplyTest()
      : clock_(*ParseManagedTime("2026-01-01T00:00:00Z")) {}

  FieldManager Deployments() {
    return BuiltinManager(&clock_, "apps/v1", "Deployment");
  }

  FieldManager Widgets() {
    FieldManagerOptions o;
    o.api_version = "example.com/v1";
    o.kind = "Widget";
    o.custom_resource = true;
    o.clock = &clock_;
    return *FieldManager::Create(Type::Deduced(), o);
  }

  static std::string Annotation(const Value& object) {
    return StringAt(*Find(*Find(object, "metadata"), "annotations"),
                    std::string(kLastAppliedAnnotation));
  }

  ManualClock clock_;
};

constexpr char kWeb[] = R"({apiVersion: apps/v1, kind: Deployment,
  metadata: {name: web, namespace: default, labels: {app: web}},
  spec: {replicas: 2, selector: {matchLabels: {app: web}},
    template: {metadata: {labels: {app: web}},
      spec: {containers: [
        {name: web, image: nginx,
         env: [{name: A, value: '1'}, {name: B, value: '2'}]},
        {name: side, image: busybox}]}}}})";
constexpr char kWebChanged[] = R"({apiVersion: apps/v1, kind: Deployment,
  metadata: {name: web, namespace: default},
  spec: {replicas: 3, selector: {matchLabels: {app: web}},
    template: {metadata: {labels: {app: web}},
      spec: {containers: [
        {name: web, image: nginx, env: [{name: B, value: '2'}]}]}}}})";

// No live object: kubectl creates the configuration with its annotation,
// which holds the configuration as kubectl's encoder writes it (sorted,
// with the annotations it had, {} for none, and a newline).
TEST_F(KubectlClientSideApplyTest, CreatesWithKubectlsAnnotation) {
  FieldManager fm = Deployments();
  FieldManagerResult r = KubectlClientSideApply(
      fm, Value(),
      Yaml("{apiVersion: v1, kind: Deployment, metadata: {name: w}, "
           "spec: {replicas: 1, selector: {matchLabels: {a: <b>}}, template: "
           "{metadata: {labels: {a: <b>}}, spec: {containers: [{name: c, "
           "image: i}]}}}}"));
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_EQ(Annotation(r.object),
            "{\"apiVersion\":\"v1\",\"kind\":\"Deployment\",\"metadata\":{"
            "\"annotations\":{},\"name\":\"w\"},\"spec\":{\"replicas\":1,"
            "\"selector\":{\"matchLabels\":{\"a\":\"\\u003cb\\u003e\"}},"
            "\"template\":{\"metadata\":{\"labels\":{\"a\":\"\\u003cb\\u003e\""
            "}},\"spec\":{\"containers\":[{\"image\":\"i\",\"name\":\"c\"}]}}}}"
            "\n");
  ASSERT_EQ(FindManagedFields(r.object)->list().size(), 1u);
  const Value& entry = FindManagedFields(r.object)->list()[0];
  EXPECT_EQ(StringAt(entry, "manager"), "kubectl-client-side-apply");
  EXPECT_EQ(StringAt(entry, "operation"), "Update");
}

// The next apply patches what the configuration changed and drops what it
// no longer holds (by the annotation: the labels go whole); what another
// manager added where the configuration still has fields stays. The same
// configuration again sends nothing.
TEST_F(KubectlClientSideApplyTest, PatchesWhatTheConfigurationChanged) {
  FieldManager fm = Deployments();
  FieldManagerResult created = KubectlClientSideApply(fm, Value(), Yaml(kWeb));
  ASSERT_TRUE(created.ok()) << created.status;
  clock_.Advance(absl::Seconds(1));
  FieldManagerResult labelled =
      Patch(fm, created.object, Yaml("{metadata: {annotations: {team: a}}}"),
            PatchType::kStrategic, "labeler");
  ASSERT_TRUE(labelled.ok()) << labelled.status;

  absl::StatusOr<ClientSideApplyRequest> req =
      KubectlClientSideRequest(fm, labelled.object, Yaml(kWebChanged));
  ASSERT_TRUE(req.ok()) << req.status();
  EXPECT_FALSE(req->create);
  EXPECT_EQ(req->type, PatchType::kStrategic);
  const Value* spec = Find(*Find(*Find(req->body, "spec"), "template"), "spec");
  ASSERT_NE(spec, nullptr) << ToJson(req->body);
  EXPECT_EQ(*Find(*spec, "$setElementOrder/containers"),
            Yaml("[{name: web}]"));
  EXPECT_TRUE(Find(*Find(req->body, "metadata"), "labels")->IsNull());

  clock_.Advance(absl::Seconds(1));
  FieldManagerResult r =
      KubectlClientSideApply(fm, labelled.object, Yaml(kWebChanged));
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(Find(*Find(r.object, "metadata"), "labels"), nullptr);
  EXPECT_EQ(
      StringAt(*Find(*Find(r.object, "metadata"), "annotations"), "team"), "a");
  const Value& containers =
      *Find(*Find(*Find(*Find(r.object, "spec"), "template"), "spec"),
            "containers");
  ASSERT_EQ(containers.list().size(), 1u);
  EXPECT_EQ(*Find(containers.list()[0], "env"),
            Yaml("[{name: B, value: '2'}]"));
  EXPECT_EQ(Find(*Find(r.object, "spec"), "replicas")->AsInt(), 3);

  FieldManagerResult again =
      KubectlClientSideApply(fm, r.object, Yaml(kWebChanged));
  ASSERT_TRUE(again.ok()) << again.status;
  EXPECT_FALSE(again.changed);
  EXPECT_EQ(again.object, r.object);
}

// kubectl fails to make its patch of a list item without its merge key;
// an object without the annotation gets kubectl's warning.
TEST_F(KubectlClientSideApplyTest, RefusesWhatKubectlCannotPatch) {
  FieldManager fm = Deployments();
  const Value live = fm.Apply(Value(), Yaml(kWeb), "other", false).object;
  Value config = Yaml(kWebChanged);
  FieldManagerResult warned = KubectlClientSideApply(fm, live, config);
  ASSERT_TRUE(warned.ok()) << warned.status;
  ASSERT_FALSE(warned.warnings.empty());
  EXPECT_NE(warned.warnings[0].find("missing"), std::string::npos);

  EXPECT_EQ(KubectlClientSideApply(fm, live, Yaml("[1]")).kind,
            ErrorKind::kBadRequest);
  FieldManagerOptions o = fm.options();
  o.subresource = "status";
  FieldManager status = *FieldManager::Create(fm.type(), o);
  EXPECT_EQ(KubectlClientSideApply(status, live, config).kind,
            ErrorKind::kBadRequest);
  Value nameless = Yaml(R"({apiVersion: apps/v1, kind: Deployment,
    metadata: {name: web, namespace: default},
    spec: {template: {spec: {containers: [{image: nginx}]}}}})");
  FieldManagerResult r = KubectlClientSideApply(fm, live, nameless);
  EXPECT_EQ(r.kind, ErrorKind::kBadRequest);
  EXPECT_NE(r.status.message().find("kubectl cannot make its patch"),
            absl::string_view::npos)
      << r.status;
  EXPECT_NE(r.status.message().find("does not contain declared merge key"),
            absl::string_view::npos)
      << r.status;
}

// A custom resource gets a merge patch: lists sent whole, dropped fields
// null; a change of kind is kubectl's refusal. Annotations' nulls read as
// empty strings, as kubectl's accessor reads them.
TEST_F(KubectlClientSideApplyTest, CustomResourcesGetMergePatches) {
  FieldManager fm = Widgets();
  FieldManagerResult created = KubectlClientSideApply(
      fm, Value(),
      Yaml("{apiVersion: example.com/v1, kind: Widget, metadata: {name: w, "
           "annotations: {note: null}}, spec: {a: 1, l: [1, 2], m: {x: 1}}}"));
  ASSERT_TRUE(created.ok()) << created.status;
  EXPECT_EQ(StringAt(*Find(*Find(created.object, "metadata"), "annotations"),
                     "note"),
            "");
  // An annotation that is no string: kubectl's accessor reads none, and
  // writes them back empty.
  absl::StatusOr<ClientSideApplyRequest> numbered = KubectlClientSideRequest(
      fm, Value(),
      Yaml("{apiVersion: example.com/v1, kind: Widget, metadata: {name: w, "
           "annotations: {n: 1, s: x}}}"));
  ASSERT_TRUE(numbered.ok()) << numbered.status();
  const Value& annotations =
      *Find(*Find(numbered->body, "metadata"), "annotations");
  EXPECT_EQ(annotations.map().size(), 1u);
  EXPECT_EQ(Find(annotations, "s"), nullptr);
  const Value config = Yaml(
      "{apiVersion: example.com/v1, kind: Widget, metadata: {name: w}, "
      "spec: {l: [1, 3], m: {x: 1.0}}}");
  absl::StatusOr<ClientSideApplyRequest> req =
      KubectlClientSideRequest(fm, created.object, config);
  ASSERT_TRUE(req.ok()) << req.status();
  EXPECT_EQ(req->type, PatchType::kMerge);
  EXPECT_EQ(*Find(req->body, "spec"), Yaml("{a: null, l: [1, 3]}"));
  FieldManagerResult r = KubectlClientSideApply(fm, created.object, config);
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_EQ(*Find(r.object, "spec"), Yaml("{l: [1, 3], m: {x: 1}}"));

  FieldManagerResult renamed = KubectlClientSideApply(
      fm, r.object,
      Yaml("{apiVersion: example.com/v1, kind: Gadget, metadata: {name: w}}"));
  EXPECT_EQ(renamed.kind, ErrorKind::kBadRequest);
  EXPECT_NE(renamed.status.message().find("apiVersion, kind and name"),
            absl::string_view::npos)
      << renamed.status;
}

}  // namespace
}  // namespace smdx
