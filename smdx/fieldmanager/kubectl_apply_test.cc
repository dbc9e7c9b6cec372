#include "smdx/fieldmanager/kubectl_apply.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
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

class KubectlServerSideApplyTest : public ::testing::Test {
 protected:
  KubectlServerSideApplyTest()
      : clock_(*ParseManagedTime("2026-01-01T00:00:00Z")) {}

  FieldManager Make() {
    FieldManagerOptions o;
    o.api_version = "v1";
    o.kind = "ConfigMap";
    o.clock = &clock_;
    o.builtin_defaults = true;
    absl::StatusOr<std::shared_ptr<const Schema>> schema = KubernetesSchema();
    absl::StatusOr<std::string> name =
        KubernetesTypeName(**schema, "v1", "ConfigMap");
    return *FieldManager::Create(*Type::Named(*schema, *name), o);
  }

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

}  // namespace
}  // namespace smdx
