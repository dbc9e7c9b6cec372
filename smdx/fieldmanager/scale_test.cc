#include "smdx/fieldmanager/scale.h"

#include <string>

#include "smdx/fieldmanager/field_manager.h"
#include "gtest/gtest.h"
#include "smdx/schema/builtin.h"
#include "testing/test_util.h"
#include "smdx/value/emit.h"

namespace smdx {
namespace {

using smdx::testing::Yaml;

// Label selectors print as metav1.LabelSelectorAsSelector(...).String():
// sorted by key, In/NotIn values sorted, matchLabels before an expression
// of the same key (labels/selector_test.go's TestRequirementSelectorMatching
// and TestSetSelectorParser show the same shapes).
TEST(LabelSelectorStringTest, PrintsAsTheApiserver) {
  EXPECT_EQ(*internal::LabelSelectorString(Value()), "");
  EXPECT_EQ(*internal::LabelSelectorString(Yaml("{}")), "");
  EXPECT_EQ(*internal::LabelSelectorString(
                Yaml("{matchLabels: {tier: web, app: shop}}")),
            "app=shop,tier=web");
  EXPECT_EQ(*internal::LabelSelectorString(Yaml(R"({
    matchLabels: {b: x},
    matchExpressions: [
      {key: env, operator: In, values: [prod, dev]},
      {key: b, operator: NotIn, values: [old]},
      {key: a, operator: Exists},
      {key: c, operator: DoesNotExist}]})")),
            "a,b=x,b notin (old),!c,env in (dev,prod)");
  absl::StatusOr<std::string> bad = internal::LabelSelectorString(
      Yaml("{matchExpressions: [{key: a, operator: Like}]}"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "\"Like\" is not a valid label selector operator");
}

// scaleFromDeployment, as the typed autoscaling/v1 Scale encodes it.
TEST(ScaleOfTest, MakesTheScaleTheRegistryMakes) {
  Value d = Yaml(R"({apiVersion: apps/v1, kind: Deployment,
    metadata: {name: web, namespace: ns, uid: u1, labels: {a: b}},
    spec: {replicas: 3, selector: {matchLabels: {app: web}}},
    status: {replicas: 2, readyReplicas: 1}})");
  absl::StatusOr<Value> s =
      internal::ScaleOf(d, {"spec", "replicas"}, "Deployment");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(ToJson(*s),
            ToJson(Yaml(R"({apiVersion: autoscaling/v1, kind: Scale,
    metadata: {name: web, namespace: ns, uid: u1},
    spec: {replicas: 3}, status: {replicas: 2, selector: app=web}})")));
  // replicas 0 is left out (omitempty); status.replicas is always there.
  Value zero = Yaml(
      "{apiVersion: apps/v1, kind: Deployment, metadata: {name: web}, "
      "spec: {replicas: 0}}");
  s = internal::ScaleOf(zero, {"spec", "replicas"}, "Deployment");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(ToJson(*s),
            ToJson(Yaml("{apiVersion: autoscaling/v1, kind: Scale, metadata: "
                        "{name: web}, spec: {}, status: {replicas: 0}}")));
}

constexpr char kDeploymentType[] = "io.k8s.api.apps.v1.Deployment";

class ScaleRequestTest : public ::testing::Test {
 protected:
  ScaleRequestTest()
      : clock_(*ParseManagedTime("2026-01-01T00:00:00Z")),
        type_(*Type::Named(*KubernetesSchemaFor(kDeploymentType),
                           kDeploymentType)) {
    FieldManagerOptions o;
    o.api_version = "apps/v1";
    o.kind = "Deployment";
    o.clock = &clock_;
    o.apply_defaults = false;
    main_ = std::make_unique<FieldManager>(*FieldManager::Create(type_, o));
    o.subresource = "scale";
    o.scale_replicas_paths = BuiltinReplicasPaths("apps/v1", "Deployment");
    scale_ = std::make_unique<FieldManager>(*FieldManager::Create(type_, o));
  }

  // "manager/Operation[/subresource] apiVersion fieldsV1" per entry.
  static std::vector<std::string> Entries(const Value& object) {
    std::vector<std::string> out;
    const Value* md = Find(object, "metadata");
    const Value* mf = md != nullptr ? Find(*md, "managedFields") : nullptr;
    if (mf == nullptr) return out;
    for (const Value& e : mf->list()) {
      std::string s = StringAt(e, "manager") + "/" + StringAt(e, "operation");
      if (!StringAt(e, "subresource").empty())
        s += "/" + StringAt(e, "subresource");
      s += " " + StringAt(e, "apiVersion") + " " +
           ToJson(*Find(e, "fieldsV1"));
      out.push_back(s);
    }
    return out;
  }

  static int64_t Replicas(const Value& object) {
    return Find(*Find(object, "spec"), "replicas")->AsInt();
  }

  ManualClock clock_;
  Type type_;
  std::unique_ptr<FieldManager> main_;
  std::unique_ptr<FieldManager> scale_;
};

constexpr char kCreated[] = R"({apiVersion: apps/v1, kind: Deployment,
  metadata: {name: web},
  spec: {replicas: 2, selector: {matchLabels: {app: web}}}})";

constexpr char kScaleTo4[] = R"({apiVersion: autoscaling/v1, kind: Scale,
  metadata: {name: web}, spec: {replicas: 4}})";

// A Scale apply takes the replicas from the main resource's applier, which
// keeps its other fields; the new entry owns .spec.replicas at apps/v1.
TEST_F(ScaleRequestTest, ApplyTakesTheReplicasField) {
  FieldManagerResult created =
      main_->Apply(Value(), Yaml(kCreated), "deployer", false);
  ASSERT_TRUE(created.ok()) << created.status;
  FieldManagerResult conflict =
      scale_->Apply(created.object, Yaml(kScaleTo4), "hpa", false);
  ASSERT_EQ(conflict.kind, ErrorKind::kConflict);
  FieldManagerResult r =
      scale_->Apply(created.object, Yaml(kScaleTo4), "hpa", true);
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_EQ(Replicas(r.object), 4);
  EXPECT_EQ(Entries(r.object),
            (std::vector<std::string>{
                "hpa/Apply/scale apps/v1 {\"f:spec\":{\"f:replicas\":{}}}",
                "deployer/Apply apps/v1 "
                "{\"f:spec\":{\"f:selector\":{}}}"}));
}

// When no entry owns the replicas field, the Scale has no managedFields, so
// its field manager first records its fields as before-first-apply's: an
// apply of other replicas conflicts with that, and a forced one leaves
// before-first-apply only the Scale's status, which ToParent drops.
TEST_F(ScaleRequestTest, AScaleWithoutEntriesRecordsBeforeFirstApply) {
  Value live = Yaml(R"({apiVersion: apps/v1, kind: Deployment,
    metadata: {name: web, managedFields: [{manager: m, operation: Update,
      apiVersion: apps/v1, fieldsType: FieldsV1,
      fieldsV1: {"f:metadata": {"f:labels": {}}}}]},
    spec: {replicas: 2, selector: {matchLabels: {app: web}}}})");
  FieldManagerResult r = scale_->Apply(live, Yaml(kScaleTo4), "hpa",
                                       /*force=*/false);
  ASSERT_EQ(r.kind, ErrorKind::kConflict);
  EXPECT_EQ(KubernetesConflictMessage(r.conflicts),
            "Apply failed with 1 conflict: conflict with "
            "\"before-first-apply\" with subresource \"scale\" using "
            "autoscaling/v1: .spec.replicas");
  r = scale_->Apply(live, Yaml(kScaleTo4), "hpa", /*force=*/true);
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_EQ(Replicas(r.object), 4);
  EXPECT_EQ(Entries(r.object),
            (std::vector<std::string>{
                "hpa/Apply/scale apps/v1 {\"f:spec\":{\"f:replicas\":{}}}",
                "m/Update apps/v1 {\"f:metadata\":{\"f:labels\":{}}}"}));
}

// A custom resource's Scale without entries fails every apply there, the
// one that would change nothing too: recording before-first-apply's
// fields converts an empty, unstructured Scale, which the
// apiextensions-apiserver refuses (scale.h). Found by the random
// scenarios against kube-apiserver 1.37 (conformance/realapi/random.go).
TEST_F(ScaleRequestTest, ACustomResourcesScaleWithoutEntriesRefusesApplies) {
  FieldManagerOptions o = scale_->options();
  o.custom_resource = true;
  FieldManager cr = *FieldManager::Create(type_, o);
  const std::string message =
      "failed to create manager for existing fields: failed to convert live "
      "object (/; autoscaling/v1, Kind=Scale) to proper version: request to "
      "convert CR to an invalid group/version: autoscaling/v1";
  Value labelled = Yaml(R"({apiVersion: apps/v1, kind: Deployment,
    metadata: {name: web, managedFields: [{manager: m, operation: Update,
      apiVersion: apps/v1, fieldsType: FieldsV1,
      fieldsV1: {"f:metadata": {"f:labels": {}}}}]},
    spec: {replicas: 2, selector: {matchLabels: {app: web}}}})");
  Value bare = Yaml(R"({apiVersion: apps/v1, kind: Deployment,
    metadata: {name: web}, spec: {replicas: 2}})");
  const Value same = Yaml(
      "{apiVersion: autoscaling/v1, kind: Scale, metadata: {name: web}, "
      "spec: {replicas: 2}}");
  const Value to4 = Yaml(kScaleTo4);
  for (const Value* live : {&labelled, &bare}) {
    for (const Value* config : {&same, &to4}) {
      for (bool force : {false, true}) {
        FieldManagerResult r = cr.Apply(*live, *config, "hpa", force);
        ASSERT_EQ(r.kind, ErrorKind::kInternal) << ToJson(*config);
        EXPECT_EQ(r.status.message(), message);
      }
    }
  }
  // That failure comes before the check that the applied Scale has no
  // managedFields (the structured merge's, inside the record's manager).
  Value with_entries = to4;
  with_entries.map().Find("metadata")->map().Set("managedFields",
                                                  Yaml("[{manager: x}]"));
  FieldManagerResult first = cr.Apply(bare, with_entries, "hpa", false);
  ASSERT_EQ(first.kind, ErrorKind::kInternal) << first.status;
  EXPECT_EQ(first.status.message(), message);
  // Updates pass; the built-in kind's applies record before-first-apply
  // (above).
  Value written = *internal::ScaleOf(bare, {"spec", "replicas"}, "Deployment");
  written.map().Find("spec")->map().Set("replicas", Value(int64_t{6}));
  FieldManagerResult u = cr.Update(bare, written, "hpa");
  ASSERT_TRUE(u.ok()) << u.status;
  EXPECT_EQ(Replicas(u.object), 6);
}

// A custom resource without its replicas field: its Scale's replicas are
// the smallest int32, which the registry refuses to store back, and a
// write that leaves them out removes them from their owner (scale.h). Each
// answer was checked against kube-apiserver 1.37, whose GET of such a
// Scale fails; found by the random scenarios (conformance/realapi).
TEST_F(ScaleRequestTest, ACustomResourceWithoutReplicasMarksThemUnset) {
  FieldManagerOptions o = scale_->options();
  o.custom_resource = true;
  FieldManager cr = *FieldManager::Create(type_, o);
  // An entry may own the field that is not there (a PUT's managedFields).
  const Value live = Yaml(R"({apiVersion: apps/v1, kind: Deployment,
    metadata: {name: web, managedFields: [{manager: owner,
      operation: Update, apiVersion: apps/v1, time: "2026-12-01T00:00:00Z",
      fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:replicas": {}}}}]}})");
  auto written = [](int64_t n) {
    Value s = Yaml("{apiVersion: autoscaling/v1, kind: Scale, "
                   "metadata: {name: web}}");
    s.map().Set("spec", Value::MakeMap());
    s.map().Find("spec")->map().Set("replicas", Value(n));
    return s;
  };
  const std::string empty =
      "the spec replicas field \".spec.replicas\" cannot be empty";

  // An apply that names no replicas changes nothing on the Scale (which an
  // owner of the replicas lets through) and leaves the mark.
  FieldManagerResult a = cr.Apply(
      live, Yaml("{apiVersion: autoscaling/v1, kind: Scale, "
                 "metadata: {name: web}}"),
      "scaler", false);
  ASSERT_EQ(a.kind, ErrorKind::kBadRequest) << a.status;
  EXPECT_EQ(a.status.message(), empty);
  // So does writing the mark, on a resource with replicas too.
  FieldManagerResult m = cr.Update(live, written(-2147483648), "hpa");
  ASSERT_EQ(m.kind, ErrorKind::kBadRequest) << m.status;
  EXPECT_EQ(m.status.message(), empty);
  Value with_replicas = live;
  const Value two(int64_t{2});
  internal::SetValueAt(&with_replicas, {"spec", "replicas"}, &two);
  EXPECT_EQ(cr.Update(with_replicas, written(-2147483648), "hpa").kind,
            ErrorKind::kBadRequest);

  // Other negative counts are the resource's own validation error.
  FieldManagerResult neg = cr.Update(live, written(-1), "hpa");
  ASSERT_EQ(neg.kind, ErrorKind::kInvalid) << neg.status;
  EXPECT_EQ(neg.status.message(),
            "Deployment.apps \"web\" is invalid: .spec.replicas: Invalid "
            "value: -1: should be a non-negative integer");

  // Writing 0, which the typed Scale leaves out, removes the marked value:
  // its owner loses it, and the resource gets 0.
  FieldManagerResult zero = cr.Update(live, written(0), "hpa");
  ASSERT_TRUE(zero.ok()) << zero.status;
  EXPECT_EQ(Replicas(zero.object), 0);
  EXPECT_EQ(FindManagedFields(zero.object), nullptr)
      << ToJson(zero.object);
  // Writing a count gives it to the writer.
  FieldManagerResult three = cr.Update(live, written(3), "hpa");
  ASSERT_TRUE(three.ok()) << three.status;
  EXPECT_EQ(Replicas(three.object), 3);
  const Value* entries = FindManagedFields(three.object);
  ASSERT_NE(entries, nullptr);
  ASSERT_EQ(entries->list().size(), 1u);
  EXPECT_EQ(StringAt(entries->list()[0], "manager"), "hpa");
}

// An Update entry that owns the replicas comes back from the Scale without
// its time: the Scale names it at autoscaling/v1, a key the resource does
// not have (ToParent). A write that changes nothing else then differs from
// the live object in that time alone, which the registry store's rule
// (IgnoreManagedFieldsTimestampsTransformer, with builtin_defaults) puts
// back. Found by the random scenarios against kube-apiserver 1.37.
TEST_F(ScaleRequestTest, AWriteThatChangesNothingKeepsTheLiveTimes) {
  Value live = Yaml(R"({apiVersion: apps/v1, kind: Deployment,
    metadata: {name: web, managedFields: [
      {manager: deployer, operation: Apply, apiVersion: apps/v1,
       time: "2025-12-01T00:00:00Z", fieldsType: FieldsV1,
       fieldsV1: {"f:spec": {"f:selector": {}}}},
      {manager: ctrl, operation: Update, apiVersion: apps/v1,
       time: "2025-12-01T00:00:00Z", fieldsType: FieldsV1,
       fieldsV1: {"f:spec": {"f:replicas": {}}}}]},
    spec: {replicas: 2, selector: {matchLabels: {app: web}}}})");
  const Value written =
      *internal::ScaleOf(live, {"spec", "replicas"}, "Deployment");
  FieldManagerResult plain = scale_->Update(live, written, "hpa");
  ASSERT_TRUE(plain.ok()) << plain.status;
  const Value* entries = FindManagedFields(plain.object);
  ASSERT_NE(entries, nullptr);
  ASSERT_EQ(entries->list().size(), 2u);
  EXPECT_EQ(StringAt(entries->list()[1], "manager"), "ctrl");
  EXPECT_EQ(Find(entries->list()[1], "time"), nullptr);

  FieldManagerOptions o = scale_->options();
  o.builtin_defaults = true;
  FieldManager registry = *FieldManager::Create(type_, o);
  FieldManagerResult r = registry.Update(live, written, "hpa");
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_FALSE(r.changed);
  EXPECT_TRUE(Identical(r.object, live)) << ToJson(r.object);
}

// The Scale hands every entry back through an unstructured object: its
// fieldsV1 comes back in encoding/json's key order (k:{..443..} before
// k:{..80..}), not structured-merge-diff's (by value: 80 first). For a
// built-in kind those are the bytes stored, and the registry's no-op check
// compares them: a write that changes nothing else keeps the live times
// only when the live entries were in that order already. Found by the
// random scenarios against kube-apiserver 1.37 (a ReplicaSet's ports).
TEST_F(ScaleRequestTest, EntriesComeBackInEncodingJsonsKeyOrder) {
  Value live = Yaml(R"({apiVersion: apps/v1, kind: Deployment,
    metadata: {name: web, managedFields: [
      {manager: deployer, operation: Apply, apiVersion: apps/v1,
       time: "2025-12-01T00:00:00Z", fieldsType: FieldsV1,
       fieldsV1: {"f:spec": {"f:template": {"f:spec": {"f:containers": {
         "k:{\"name\":\"web\"}": {".": {}, "f:ports": {
           "k:{\"containerPort\":80,\"protocol\":\"TCP\"}": {".": {}},
           "k:{\"containerPort\":443,\"protocol\":\"TCP\"}": {".": {}}
         }}}}}}}},
      {manager: ctrl, operation: Update, apiVersion: apps/v1,
       time: "2025-12-01T00:00:00Z", fieldsType: FieldsV1,
       fieldsV1: {"f:spec": {"f:replicas": {}}}}]},
    spec: {replicas: 2, template: {spec: {containers: [{name: web,
      ports: [{containerPort: 80}, {containerPort: 443}]}]}}}})");
  const Value written =
      *internal::ScaleOf(live, {"spec", "replicas"}, "Deployment");
  FieldManagerOptions o = scale_->options();
  o.builtin_defaults = true;
  FieldManager registry = *FieldManager::Create(type_, o);
  FieldManagerResult r = registry.Update(live, written, "hpa");
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(
      Entries(r.object),
      (std::vector<std::string>{
          R"(deployer/Apply apps/v1 {"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:ports":{"k:{\"containerPort\":443,\"protocol\":\"TCP\"}":{},"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{}}}}}}}})",
          R"(ctrl/Update apps/v1 {"f:spec":{"f:replicas":{}}})"}));
  const Value* entries = FindManagedFields(r.object);
  EXPECT_EQ(Find(entries->list()[1], "time"), nullptr);

  // The same write again finds the entries in that order: nothing changes.
  FieldManagerResult again = registry.Update(r.object, written, "hpa");
  ASSERT_TRUE(again.ok()) << again.status;
  EXPECT_FALSE(again.changed);
  EXPECT_TRUE(Identical(again.object, r.object)) << ToJson(again.object);
}

// Entries at an apiVersion the resource does not map are dropped by a
// write to /scale (ToParent's "Drop the entry if the APIVersion is
// unknown"); apps/v1beta2 is mapped and stays.
TEST_F(ScaleRequestTest, EntriesAtUnmappedVersionsAreDropped) {
  Value live = Yaml(R"({apiVersion: apps/v1, kind: Deployment,
    metadata: {name: web, managedFields: [
      {manager: old, operation: Update, apiVersion: extensions/v1beta1,
       fieldsType: FieldsV1, fieldsV1: {"f:metadata": {"f:labels": {}}}},
      {manager: beta, operation: Update, apiVersion: apps/v1beta2,
       fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:replicas": {}}}}]},
    spec: {replicas: 2}})");
  Value body = Yaml(
      "{apiVersion: autoscaling/v1, kind: Scale, metadata: {name: web}, "
      "spec: {replicas: 5}, status: {replicas: 0}}");
  FieldManagerResult r = scale_->Update(live, body, "hpa");
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_EQ(Entries(r.object),
            (std::vector<std::string>{"hpa/Update/scale apps/v1 "
                                      "{\"f:spec\":{\"f:replicas\":{}}}"}));
  EXPECT_EQ(Replicas(r.object), 5);
}

// An applier that stops applying the replicas removes them from the Scale:
// the resource gets 0, as the typed Scale's missing replicas read.
TEST_F(ScaleRequestTest, ReplicasLeftOutBecomeZero) {
  FieldManagerResult created =
      main_->Update(Value(), Yaml(kCreated), "creator");
  FieldManagerResult set =
      scale_->Apply(created.object, Yaml(kScaleTo4), "hpa", true);
  ASSERT_TRUE(set.ok()) << set.status;
  FieldManagerResult dropped = scale_->Apply(
      set.object,
      Yaml("{apiVersion: autoscaling/v1, kind: Scale, metadata: {name: web}}"),
      "hpa", false);
  ASSERT_TRUE(dropped.ok()) << dropped.status;
  EXPECT_EQ(Replicas(dropped.object), 0);
}

// A live object that is not a map fails the request, and crashes nothing
// (found by field_manager_fuzzer).
TEST_F(ScaleRequestTest, ALiveObjectThatIsNoMapIsInvalid) {
  for (bool apply : {false, true}) {
    FieldManagerResult r =
        apply ? scale_->Apply(Value("web"), Yaml(kScaleTo4), "hpa", false)
              : scale_->Update(Value(int64_t{1}), Yaml(kScaleTo4), "hpa");
    ASSERT_EQ(r.kind, ErrorKind::kInvalid) << r.status;
    EXPECT_EQ(r.status.message().rfind(
                  "the live object is invalid: expected map, got ", 0),
              0u)
        << r.status;
  }
}

// The registry's ValidateScale: replicas must not be negative.
TEST_F(ScaleRequestTest, NegativeReplicasAreInvalid) {
  FieldManagerResult created =
      main_->Update(Value(), Yaml(kCreated), "creator");
  FieldManagerResult r = scale_->Apply(
      created.object,
      Yaml("{apiVersion: autoscaling/v1, kind: Scale, metadata: {name: web}, "
           "spec: {replicas: -1}}"),
      "hpa", true);
  ASSERT_EQ(r.kind, ErrorKind::kInvalid);
  EXPECT_EQ(r.status.message(),
            "Scale.autoscaling \"web\" is invalid: spec.replicas: Invalid "
            "value: -1: must be greater than or equal to 0");
}

// An unknown selector operator fails the request (scaleFromDeployment's
// error) and changes nothing.
TEST_F(ScaleRequestTest, AnUnknownSelectorOperatorFails) {
  Value live = Yaml(R"({apiVersion: apps/v1, kind: Deployment,
    metadata: {name: web},
    spec: {replicas: 2,
           selector: {matchExpressions: [{key: a, operator: x}]}}})");
  FieldManagerResult r = scale_->Apply(live, Yaml(kScaleTo4), "hpa", true);
  ASSERT_EQ(r.kind, ErrorKind::kInternal);
  EXPECT_EQ(r.status.message(), "\"x\" is not a valid label selector operator");
}

// Without replicas paths a request to "scale" runs on the object itself, as
// apimachinery's field manager alone runs it (fieldmanager_test.go's
// TestUpdateViaSubresources on Pods); a kind without a scale subresource
// has none.
TEST_F(ScaleRequestTest, WithoutReplicasPathsTheObjectItselfIsWritten) {
  EXPECT_TRUE(BuiltinReplicasPaths("v1", "Pod").empty());
  EXPECT_EQ(BuiltinReplicasPaths("apps/v1", "ReplicaSet").size(), 2u);
  EXPECT_EQ(BuiltinReplicasPaths("v1", "ReplicationController").size(), 1u);
  FieldManagerOptions o = main_->options();
  o.subresource = "scale";
  FieldManager plain = *FieldManager::Create(type_, o);
  FieldManagerResult r =
      plain.Update(Value(), Yaml(kCreated), "writer");  // no live object
  EXPECT_EQ(r.kind, ErrorKind::kBadRequest);
  o.scale_replicas_paths = {{"apps/v1beta2", {"spec", "replicas"}}};
  EXPECT_FALSE(FieldManager::Create(type_, o).ok());  // none at apps/v1
}

// A custom resource's scale subresource refuses an apply that changes the
// Scale, as Kubernetes 1.37 does (scale.h); one that changes nothing and
// an update pass.
TEST_F(ScaleRequestTest, ACustomResourcesScaleRefusesAChangingApply) {
  FieldManagerOptions o = scale_->options();
  o.custom_resource = true;
  FieldManager cr = *FieldManager::Create(type_, o);
  FieldManagerResult created =
      main_->Apply(Value(), Yaml(kCreated), "deployer", false);
  ASSERT_TRUE(created.ok());
  FieldManagerResult r = cr.Apply(created.object, Yaml(kScaleTo4), "hpa", true);
  ASSERT_EQ(r.kind, ErrorKind::kInternal);
  EXPECT_EQ(r.status.message(),
            "failed to convert new object (/web; autoscaling/v1, Kind=Scale) "
            "to proper version: request to convert CR to an invalid "
            "group/version: autoscaling/v1");
  Value same = Yaml(
      "{apiVersion: autoscaling/v1, kind: Scale, metadata: {name: web}, "
      "spec: {replicas: 2}}");
  EXPECT_TRUE(cr.Apply(created.object, same, "deployer", false).ok());
  Value written = *internal::ScaleOf(created.object, {"spec", "replicas"},
                                     "Deployment");
  written.map().Find("spec")->map().Set("replicas", Value(int64_t{6}));
  FieldManagerResult u = cr.Update(created.object, written, "hpa");
  ASSERT_TRUE(u.ok()) << u.status;
  EXPECT_EQ(Replicas(u.object), 6);
}

// The registry sets the replicas on a built-in kind's typed object, whose
// null spec is the zero spec; a custom resource's unstructured object fails
// there (unstructured.SetNestedField).
TEST_F(ScaleRequestTest, ReplicasGoThroughANullSpecOfABuiltInKindOnly) {
  Value live = Yaml(R"({apiVersion: apps/v1, kind: Deployment,
    metadata: {name: web, namespace: ns}, spec: null})");
  Value written = *internal::ScaleOf(live, {"spec", "replicas"}, "Deployment");
  written.map().Find("spec")->map().Set("replicas", Value(int64_t{3}));
  FieldManagerResult r = scale_->Update(live, written, "hpa");
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_EQ(Replicas(r.object), 3);

  FieldManagerOptions o = scale_->options();
  o.custom_resource = true;
  FieldManager cr = *FieldManager::Create(type_, o);
  FieldManagerResult refused = cr.Update(live, written, "hpa");
  ASSERT_EQ(refused.kind, ErrorKind::kInternal);
  EXPECT_EQ(refused.status.message(),
            "value cannot be set because .spec is not a "
            "map[string]interface{}");
}

}  // namespace
}  // namespace smdx
