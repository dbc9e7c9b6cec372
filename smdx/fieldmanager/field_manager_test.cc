#include "smdx/fieldmanager/field_manager.h"

#include <algorithm>
#include <thread>

#include "smdx/fieldmanager/scale.h"
#include "smdx/fieldpath/fields_v1.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "smdx/schema/builtin.h"
#include "testing/test_util.h"
#include "smdx/value/emit.h"

namespace smdx {
namespace {

using smdx::testing::Same;
using smdx::testing::Yaml;

constexpr char kDeployment[] = R"(
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  labels: {app: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1
)";

class FieldManagerTest : public ::testing::Test {
 protected:
  FieldManagerTest() : clock_(*ParseManagedTime("2026-01-01T00:00:00Z")) {
    FieldManagerOptions o;
    o.api_version = "apps/v1";
    o.kind = "Deployment";
    o.clock = &clock_;
    fm_.emplace(*FieldManager::Create(
        *Type::Named(*KubernetesSchema(), "io.k8s.api.apps.v1.Deployment"), o));
  }

  // `object` with the last-applied annotation (alone) set to `annotation`.
  static Value WithLastApplied(Value object, const std::string& annotation) {
    if (!object.IsMap()) return object;
    Map annotations;
    annotations.Set(kLastAppliedAnnotation, Value(annotation));
    object.map().Find("metadata")->map().Set("annotations",
                                             Value(std::move(annotations)));
    return object;
  }

  // The entries as "manager/operation@time: fieldsV1".
  static std::vector<std::string> Entries(const Value& object) {
    std::vector<std::string> out;
    const Value* list = FindManagedFields(object);
    if (list == nullptr) return out;
    for (const Value& e : list->list()) {
      const Value* t = e.map().Find("time");
      out.push_back(e.map().Find("manager")->AsString() + "/" +
                    e.map().Find("operation")->AsString() + "@" +
                    (t != nullptr ? t->AsString().substr(17, 2) : "-") + ": " +
                    ToJson(*e.map().Find("fieldsV1")));
    }
    return out;
  }

  FieldManagerResult Apply(const Value& live, const std::string& config,
                           const std::string& manager, bool force = false) {
    clock_.Advance(absl::Seconds(1));
    return fm_->Apply(live, Yaml(config), manager, force);
  }
  // The fixture's field manager, held to `limits`.
  FieldManager Limited(const Limits& limits) {
    FieldManagerOptions o;
    o.api_version = "apps/v1";
    o.kind = "Deployment";
    o.clock = &clock_;
    o.limits = limits;
    absl::StatusOr<FieldManager> fm = FieldManager::Create(
        *Type::Named(*KubernetesSchema(), "io.k8s.api.apps.v1.Deployment"), o);
    EXPECT_TRUE(fm.ok()) << fm.status();
    return *std::move(fm);
  }
  FieldManagerResult Update(const Value& live, const std::string& object,
                            const std::string& manager) {
    clock_.Advance(absl::Seconds(1));
    return fm_->Update(live, Yaml(object), manager);
  }

  ManualClock clock_;
  std::optional<FieldManager> fm_;
};

TEST_F(FieldManagerTest, ApplyRecordsTheApplierWithoutServerFields) {
  FieldManagerResult r = Apply(Value(), kDeployment, "kubectl");
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_TRUE(r.changed);
  std::vector<std::string> e = Entries(r.object);
  ASSERT_EQ(e.size(), 1u);
  // No apiVersion, kind, metadata, metadata.name or .namespace; the
  // selector is atomic (LabelSelector is since Kubernetes 1.24).
  EXPECT_EQ(
      e[0],
      "kubectl/Apply@01: "
      R"({"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:replicas":{},"f:selector":{},"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{}}}}}}})");
}

TEST_F(FieldManagerTest, FirstApplyRecordsExistingFieldsAsBeforeFirstApply) {
  Value live = Yaml(kDeployment);
  FieldManagerResult r = Apply(live, R"(
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec: {replicas: 2}
)",
                               "kubectl");
  ASSERT_TRUE(r.ok()) << r.status;
  std::vector<std::string> e = Entries(r.object);
  ASSERT_EQ(e.size(), 2u);
  // The apply changed no value: its new entry has no time (apimachinery
  // v0.37 stamps only an apply that changed the object).
  EXPECT_EQ(e[0], R"(kubectl/Apply@-: {"f:spec":{"f:replicas":{}}})");
  EXPECT_EQ(e[1].substr(0, 32), "before-first-apply/Update@01: {\"");
  EXPECT_NE(e[1].find(R"("f:replicas":{})"), std::string::npos);  // shared
  EXPECT_NE(e[1].find(R"("f:image":{})"), std::string::npos);
}

TEST_F(FieldManagerTest, AppliedObjectMustMatchTheResource) {
  FieldManagerResult wrong =
      Apply(Value(), "apiVersion: apps/v1beta1\nkind: Deployment\n", "kubectl");
  EXPECT_EQ(wrong.kind, ErrorKind::kBadRequest);
  EXPECT_EQ(wrong.status.message(),
            "invalid object type: apps/v1beta1, Kind=Deployment");
  FieldManagerResult mf = Apply(Value(), R"(
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, managedFields: []}
)",
                                "kubectl");
  EXPECT_EQ(mf.kind, ErrorKind::kBadRequest);
  // The apiserver's words (structuredMergeManager.Apply).
  EXPECT_EQ(mf.status.message(), "metadata.managedFields must be nil");
}

TEST_F(FieldManagerTest, UpdatesJoinTheEntryAndStampItOnlyWhenTheyChangeIt) {
  Value live = Apply(Value(), kDeployment, "kubectl").object;  // @01
  std::string scaled = kDeployment;
  scaled.replace(scaled.find("replicas: 2"), 11, "replicas: 5");
  FieldManagerResult r1 = Update(live, scaled, "hpa");  // @02
  ASSERT_TRUE(r1.ok()) << r1.status;
  // Writing the same object again changes nothing, not even the time.
  FieldManagerResult r2 = Update(r1.object, scaled, "hpa");  // @03
  ASSERT_TRUE(r2.ok()) << r2.status;
  EXPECT_FALSE(r2.changed);
  std::vector<std::string> e = Entries(r2.object);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[1], R"(hpa/Update@02: {"f:spec":{"f:replicas":{}}})");
  EXPECT_EQ(e[0].find("f:replicas"), std::string::npos);
}

TEST_F(FieldManagerTest, UpdateOfAnUntrackedObjectDoesNotStartTracking) {
  Value live = Yaml(kDeployment);
  live.map().Find("metadata")->map().Set("uid", Value("1234"));
  std::string body = std::string(kDeployment) + "status: {replicas: 2}\n";
  FieldManagerResult r = Update(live, body, "kubelet");
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_EQ(FindManagedFields(r.object), nullptr);
  // A create is tracked.
  FieldManagerResult c = Update(Value(), kDeployment, "kubectl-create");
  ASSERT_TRUE(c.ok()) << c.status;
  EXPECT_EQ(Entries(c.object).size(), 1u);
}

TEST_F(FieldManagerTest, UpdateWithEmptyManagedFieldsResetsThem) {
  Value live = Apply(Value(), kDeployment, "kubectl").object;
  live.map().Find("metadata")->map().Set("uid", Value("1234"));
  Value body = StripManagedFields(live);
  body.map().Find("metadata")->map().Set("managedFields", Value::MakeList());
  clock_.Advance(absl::Seconds(1));
  FieldManagerResult r = fm_->Update(live, body, "tool");
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_EQ(FindManagedFields(r.object), nullptr);
}

TEST_F(FieldManagerTest, ElevenUpdatersAreCappedIntoAncientChanges) {
  Value live = Apply(Value(), kDeployment, "kubectl").object;
  std::string annotations;
  for (int i = 0; i < 11; ++i) {
    // Each updater adds an annotation of its own and keeps the others.
    annotations += "    u" + std::to_string(i) + ": x\n";
    std::string body = kDeployment;
    body.replace(body.find("  name: web\n"), 12,
                 "  name: web\n  annotations:\n" + annotations);
    FieldManagerResult r = Update(live, body, "u" + std::to_string(i));
    ASSERT_TRUE(r.ok()) << r.status;
    live = r.object;
  }
  std::vector<std::string> e = Entries(live);
  size_t updates = 0;
  bool ancient = false;
  for (const std::string& s : e) {
    if (s.find("/Update@") != std::string::npos) ++updates;
    if (s.rfind("ancient-changes/Update", 0) == 0) ancient = true;
  }
  EXPECT_EQ(updates, 10u);
  EXPECT_TRUE(ancient);
  // The two oldest (u0 and u1, both apps/v1) were merged into the bucket,
  // which keeps the time of the newer one.
  for (const std::string& s : e) {
    EXPECT_NE(s.rfind("u0/", 0), 0u) << s;
    EXPECT_NE(s.rfind("u1/", 0), 0u) << s;
    if (s.rfind("ancient-changes/", 0) == 0) {
      EXPECT_EQ(s.substr(0, 26), "ancient-changes/Update@03:");
      EXPECT_NE(s.find("f:u0"), std::string::npos) << s;
      EXPECT_NE(s.find("f:u1"), std::string::npos) << s;
    }
  }
}

TEST_F(FieldManagerTest, KubectlTakesOverFromItsClientSideApply) {
  // kubectl apply (client side) created the object: an Update entry and the
  // last-applied annotation.
  std::string config = kDeployment;
  Value last = Yaml(config);
  std::string annotation = ToJsonSorted(last) + "\n";
  Value live = WithLastApplied(
      Update(Value(), config, "kubectl-client-side-apply").object, annotation);
  std::string changed = config;
  changed.replace(changed.find("nginx:1"), 7, "nginx:2");
  // Another manager conflicts...
  EXPECT_EQ(Apply(live, changed, "helm").kind, ErrorKind::kConflict);
  // ...kubectl takes over what it had applied.
  FieldManagerResult r = Apply(live, changed, "kubectl");
  ASSERT_TRUE(r.ok()) << r.status;
  const Value* ann = r.object.map()
                         .Find("metadata")
                         ->map()
                         .Find("annotations")
                         ->map()
                         .Find(kLastAppliedAnnotation);
  ASSERT_NE(ann, nullptr);
  EXPECT_EQ(ann->AsString(), ToJsonSorted(Yaml(changed)) + "\n");
  EXPECT_NE(ann->AsString().find("nginx:2"), std::string::npos);
}

// The last-applied annotation allows nothing when the live object holds
// duplicate items (an update may write them): Go types the live object
// strictly there (lastappliedmanager.go, allowedConflictsFromLastApplied,
// ObjectToTyped without AllowDuplicates), fails, and every conflict
// stands. Found by random seed 10 against kube-apiserver 1.37: a
// duplicated env var, and kubectl's apply of another revisionHistoryLimit.
TEST_F(FieldManagerTest, DuplicatesInTheLiveObjectKeepKubectlsConflicts) {
  std::string config = kDeployment;
  config.replace(config.find("image: nginx:1"), 14,
                 "image: nginx:1\n        env: [{name: A, value: a}, "
                 "{name: A, value: a}]");
  Value last = Yaml(kDeployment);
  Value live = WithLastApplied(
      Update(Value(), config, "kubectl-client-side-apply").object,
      ToJsonSorted(last) + "\n");
  ASSERT_FALSE(live.IsNull());
  std::string changed = kDeployment;
  changed.replace(changed.find("replicas: 2"), 11, "replicas: 3");
  FieldManagerResult r = Apply(live, changed, "kubectl");
  EXPECT_EQ(r.kind, ErrorKind::kConflict);
  EXPECT_NE(std::string(r.status.message()).find(".spec.replicas"),
            std::string::npos)
      << r.status;
}

// The last-applied annotation kubectl's apply updates is the configuration
// with its annotations read as a string map: a null value is "" there
// (unstructured's GetAnnotations). Its labels are written as they came.
TEST_F(FieldManagerTest, TheLastAppliedOfAnApplyReadsNullAnnotationsAsEmpty) {
  std::string config = kDeployment;
  Value live = Update(Value(), config, "kubectl-client-side-apply").object;
  live.map().Find("metadata")->map().Set(
      "annotations",
      Yaml(absl::StrCat("{", kLastAppliedAnnotation, ": '{}'}")));
  Value changed = Yaml(config);
  Value* meta = changed.map().Find("metadata");
  meta->map().Set("annotations", Yaml("{note: null}"));
  meta->map().Set("labels", Yaml("{tier: null}"));
  FieldManagerResult r = Apply(live, ToJsonSorted(changed), "kubectl");
  ASSERT_TRUE(r.ok()) << r.status;
  const Value* ann = Find(*Find(r.object, "metadata"), "annotations");
  ASSERT_NE(ann, nullptr) << ToJsonSorted(r.object);
  const Value* text = ann->map().Find(kLastAppliedAnnotation);
  ASSERT_NE(text, nullptr) << ToJsonSorted(*ann);
  EXPECT_NE(text->AsString().find(R"("annotations":{"note":""})"),
            std::string::npos)
      << text->AsString();
  EXPECT_NE(text->AsString().find(R"("labels":{"tier":null})"),
            std::string::npos)
      << text->AsString();
}

TEST_F(FieldManagerTest, InvalidLiveManagedFieldsAreAnErrorAndChangeNothing) {
  Value live = Yaml(kDeployment);
  live.map()
      .Find("metadata")
      ->map()
      .Set("managedFields",
           Yaml("[{manager: a, operation: Patch, apiVersion: v1, "
                "fieldsType: FieldsV1}]"));
  FieldManagerResult r = Apply(live, kDeployment, "kubectl");
  EXPECT_EQ(r.kind, ErrorKind::kInvalid);
  EXPECT_NE(std::string(r.status.message())
                .find(".metadata.managedFields[0].operation: must be Apply or "
                      "Update, got \"Patch\""),
            std::string::npos)
      << r.status;
}

TEST_F(FieldManagerTest, ManagedFieldsOverTheLimitsAreAnErrorAndChangeNothing) {
  FieldManagerResult first = Apply(Value(), kDeployment, "a");
  ASSERT_TRUE(first.ok()) << first.status;
  Value scaled = Yaml(kDeployment);
  scaled.map().Find("spec")->map().Set("replicas", Value(int64_t{7}));
  FieldManagerResult second = fm_->Update(first.object, scaled, "b");
  ASSERT_TRUE(second.ok()) << second.status;
  const Value live = second.object;  // two entries
  Limits one;
  one.max_managed_fields_entries = 1;
  FieldManagerResult r = Limited(one).Apply(live, Yaml(kDeployment), "a", false);
  EXPECT_EQ(r.kind, ErrorKind::kInvalid);
  EXPECT_EQ(r.status.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(r.status.message(),
            ".metadata.managedFields: 2 entries is over the "
            "max_managed_fields_entries limit of 1");
  EXPECT_TRUE(Same(second.object, live));
  // A request body's managedFields count too.
  Limits ten;
  ten.max_fields_v1_bytes = 10;
  r = Limited(ten).Update(live, live, "b");
  EXPECT_EQ(r.kind, ErrorKind::kInvalid);
  EXPECT_THAT(std::string(r.status.message()),
              ::testing::HasSubstr("over the max_fields_v1_bytes limit of 10"));
}

// A re-apply of the same fields takes the applier's recorded entry without
// reading it when it is exactly their encoding; the outcome is that of
// reading it, whatever the entry's spelling, and errors keep their order:
// the live managedFields' before the configuration's.
TEST_F(FieldManagerTest, AReapplyReadsTheApplierEntryOrTakesItAsTheSame) {
  FieldManagerResult first = Apply(Value(), kDeployment, "kubectl");
  ASSERT_TRUE(first.ok()) << first.status;
  std::string changed = kDeployment;
  changed.replace(changed.find("nginx:1"), 7, "nginx:2");
  FieldManagerResult again = Apply(first.object, changed, "kubectl");
  ASSERT_TRUE(again.ok()) << again.status;
  EXPECT_EQ(Entries(again.object)[0].substr(0, 17), "kubectl/Apply@02:");
  EXPECT_EQ(Entries(again.object)[0].substr(18),
            Entries(first.object)[0].substr(18));

  // The same set, its keys in another order: read, and written canonically.
  Value unordered = first.object;
  Value* entry = &unordered.map().Find("metadata")->map().Find(
      "managedFields")->list()[0];
  Value fields = *entry->map().Find("fieldsV1");
  std::reverse(fields.map().entries().begin(), fields.map().entries().end());
  entry->map().Set("fieldsV1", fields);
  FieldManagerResult reread = Apply(unordered, changed, "kubectl");
  ASSERT_TRUE(reread.ok()) << reread.status;
  EXPECT_EQ(Entries(reread.object)[0].substr(18),
            Entries(first.object)[0].substr(18));

  // An invalid configuration is reported after invalid managedFields, and
  // a recorded entry over a limit is one even when it holds those fields.
  std::string invalid = changed;
  invalid.replace(invalid.find("replicas: 2"), 11, "replicas: x");
  FieldManagerResult bad = Apply(first.object, invalid, "kubectl");
  EXPECT_EQ(bad.kind, ErrorKind::kInvalid);
  EXPECT_THAT(std::string(bad.status.message()),
              ::testing::HasSubstr("the applied configuration is invalid"));
  Value bad_time = first.object;
  bad_time.map().Find("metadata")->map().Find("managedFields")->list()[0]
      .map().Set("time", Value("yesterday"));
  bad = Apply(bad_time, invalid, "kubectl");
  EXPECT_EQ(bad.kind, ErrorKind::kInvalid);
  EXPECT_THAT(std::string(bad.status.message()),
              ::testing::HasSubstr(".metadata.managedFields[0].time"));
  Limits small;
  small.max_fields_v1_bytes = 50;
  FieldManagerResult over =
      Limited(small).Apply(first.object, Yaml(changed), "kubectl", false);
  EXPECT_EQ(over.status.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(over.status.message()),
              ::testing::HasSubstr("over the max_fields_v1_bytes limit of 50"));
}

TEST_F(FieldManagerTest, AnInvalidLiveObjectIsRejectedByDefault) {
  Value live = Yaml(kDeployment);
  live.map().Find("spec")->map().Set("replicas", Value("two"));
  FieldManagerResult r = Apply(live, kDeployment, "kubectl");
  EXPECT_EQ(r.kind, ErrorKind::kInvalid);
  EXPECT_NE(std::string(r.status.message()).find(".spec.replicas"),
            std::string::npos)
      << r.status;
}

// A Deployment served at apps/v1 and at a made-up apps/v2 (the same object
// but for its apiVersion); apps/v0 is served no more.
class TwoVersionConverter : public Converter {
 public:
  absl::StatusOr<Value> Convert(const Value& object,
                                const std::string& version) const override {
    if (version != "apps/v1" && version != "apps/v2")
      return absl::NotFoundError(absl::StrCat("no version ", version));
    Value out = object;
    out.map().Set("apiVersion", Value(version));
    return out;
  }
};

// As the apiserver converts: an object converted for a manager at another
// version is typed again strictly (apimachinery's versionConverter ends in
// ObjectToTyped without typed.AllowDuplicates). So duplicates, which an
// update may write, fail the update there, and a live object that holds
// them fails where its entries are reconciled at their versions. Found by
// the random real-apiserver scenarios on a custom resource served at two
// versions (Kubernetes 1.37 kept the live entries).
TEST_F(FieldManagerTest, DuplicatesFailWhereConvertedToAnotherVersion) {
  TwoVersionConverter conv;
  FieldManagerOptions o;
  o.api_version = "apps/v1";
  o.kind = "Deployment";
  o.clock = &clock_;
  o.converter = &conv;
  FieldManager fm = *FieldManager::Create(
      *Type::Named(*KubernetesSchema(), "io.k8s.api.apps.v1.Deployment"), o);
  const std::string container = "\n      - name: web\n        image: nginx:1";
  std::string twice = kDeployment;
  twice.replace(twice.find(container), container.size(),
                container + "\n        env: [{name: A, value: '1'}, "
                            "{name: A, value: '1'}]");
  // kubectl's entry at apps/v2, read at apps/v1.
  Value live = fm.Apply(Value(), Yaml(kDeployment), "kubectl", false).object;
  Value entries = *FindManagedFields(live);
  entries.list()[0].map().Set("apiVersion", Value("apps/v2"));
  live.map().Find("metadata")->map().Set("managedFields", entries);

  FieldManagerResult r = fm.Update(live, Yaml(twice), "ctrl");
  ASSERT_EQ(r.kind, ErrorKind::kInternal) << r.status;
  EXPECT_EQ(r.status.message(),
            "failed to convert new object: "
            ".spec.template.spec.containers[name=\"web\"].env: duplicate "
            "entries for key [name=\"A\"]");

  // Stored so (by the entry's own version, where nothing is converted),
  // the duplicates fail an apply at the other version: the live object is
  // converted for the entry there.
  Value v2 = live;
  v2.map().Set("apiVersion", Value("apps/v2"));
  Value stored = Yaml(twice);
  stored.map().Set("apiVersion", Value("apps/v2"));
  FieldManagerOptions o2 = o;
  o2.api_version = "apps/v2";
  FieldManager fm2 = *FieldManager::Create(
      *Type::Named(*KubernetesSchema(), "io.k8s.api.apps.v1.Deployment"), o2);
  FieldManagerResult at_v2 = fm2.Update(v2, stored, "ctrl");
  ASSERT_TRUE(at_v2.ok()) << at_v2.status;
  Value back = at_v2.object;
  back.map().Set("apiVersion", Value("apps/v1"));
  FieldManagerResult a = fm.Apply(back, Yaml(kDeployment), "kubectl", false);
  ASSERT_EQ(a.kind, ErrorKind::kInternal) << a.status;
  EXPECT_EQ(a.status.message(),
            ".spec.template.spec.containers[name=\"web\"].env: duplicate "
            "entries for key [name=\"A\"]");

  // An entry at a version no longer served is dropped before anything is
  // typed: the update goes through.
  entries.list()[0].map().Set("apiVersion", Value("apps/v0"));
  live.map().Find("metadata")->map().Set("managedFields", entries);
  FieldManagerResult dropped = fm.Update(live, Yaml(twice), "ctrl");
  ASSERT_TRUE(dropped.ok()) << dropped.status;
  EXPECT_THAT(Entries(dropped.object),
              ::testing::ElementsAre(::testing::StartsWith("ctrl/Update")));
}

TEST_F(FieldManagerTest, ConcurrentAppliesOnOneManagerAgree) {
  Value live = Apply(Value(), kDeployment, "kubectl").object;
  std::string changed = kDeployment;
  changed.replace(changed.find("nginx:1"), 7, "nginx:3");
  Value config = Yaml(changed);
  FieldManagerResult want = fm_->Apply(live, config, "kubectl", false);
  ASSERT_TRUE(want.ok());
  std::vector<std::thread> threads;
  std::vector<int> same(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        FieldManagerResult r = fm_->Apply(live, config, "kubectl", false);
        same[t] += r.ok() && Equals(r.object, want.object);
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (int s : same) EXPECT_EQ(s, 50);
}

// Requests to /scale run on a Scale object in the apiserver, whose
// ScaleHandler gives the entries back the main resource's times: the entry a
// scale request writes keeps its old time (Apply) or has none (a new entry,
// any Update), as scale_test.go's TestScaleAllResources shows by their order.
TEST_F(FieldManagerTest, ScaleRequestsKeepTheMainResourcesTimes) {
  FieldManagerOptions o = fm_->options();
  o.subresource = "scale";
  o.scale_replicas_paths = BuiltinReplicasPaths("apps/v1", "Deployment");
  FieldManager scale = *FieldManager::Create(fm_->type(), o);
  FieldManagerResult created = Apply(Value(), kDeployment, "deployer");  // @01
  ASSERT_TRUE(created.ok()) << created.status;
  clock_.Advance(absl::Seconds(1));
  Value replicas = Yaml(
      "{apiVersion: apps/v1, kind: Deployment, metadata: {name: web, "
      "namespace: default}, spec: {replicas: 7}}");
  FieldManagerResult applied =
      scale.Apply(created.object, replicas, "scaler", /*force=*/true);
  ASSERT_TRUE(applied.ok()) << applied.status;
  // The new scale entry has no time and sorts before the main one.
  std::vector<std::string> entries = Entries(applied.object);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].substr(0, entries[0].find(':')), "scaler/Apply@-");
  EXPECT_EQ(entries[1].substr(0, entries[1].find(':')), "deployer/Apply@01");
  // Applied again with another value, it still has none.
  clock_.Advance(absl::Seconds(1));
  replicas.map().Find("spec")->map().Set("replicas", Value(int64_t{9}));
  FieldManagerResult again = scale.Apply(applied.object, replicas, "scaler",
                                         /*force=*/false);
  ASSERT_TRUE(again.ok()) << again.status;
  EXPECT_EQ(Entries(again.object)[0].substr(0, 14), "scaler/Apply@-");
  // An update through /scale has no time either; the main resource's
  // requests are stamped as usual.
  Value body = StripManagedFields(again.object);
  body.map().Find("spec")->map().Set("replicas", Value(int64_t{3}));
  FieldManagerResult updated = scale.Update(again.object, body, "hpa");
  ASSERT_TRUE(updated.ok()) << updated.status;
  bool seen = false;
  for (const std::string& e : Entries(updated.object)) {
    if (e.rfind("hpa/", 0) == 0) {
      EXPECT_EQ(e.substr(0, 12), "hpa/Update@-");
      seen = true;
    }
  }
  EXPECT_TRUE(seen);
  FieldManagerResult main = Update(updated.object, kDeployment, "ctl");
  ASSERT_TRUE(main.ok()) << main.status;
  bool stamped = false;
  for (const std::string& e : Entries(main.object)) {
    if (e.rfind("ctl/", 0) == 0) stamped = e.substr(0, 14) != "ctl/Update@-:";
  }
  EXPECT_TRUE(stamped);
}

}  // namespace
}  // namespace smdx
