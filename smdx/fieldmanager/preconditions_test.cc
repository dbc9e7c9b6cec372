#include "smdx/fieldmanager/preconditions.h"

#include <string>

#include "gtest/gtest.h"
#include "smdx/fieldmanager/field_manager.h"
#include "smdx/fieldmanager/patch.h"
#include "smdx/fieldmanager/test_manager.h"
#include "testing/test_util.h"

namespace smdx {
namespace {

using internal::GuessResource;
using smdx::testing::Yaml;

// The messages below are the apiserver's (v1.37.2), as it answered the
// same requests; conformance/realapi's `preconditions` scenarios send them
// to a real one for every kind.
class PreconditionsTest : public ::testing::Test {
 protected:
  PreconditionsTest() : clock_(*ParseManagedTime("2026-01-01T00:00:00Z")) {}

  FieldManager Make(const std::string& api_version, const std::string& kind,
                    const std::string& subresource = "",
                    bool builtin_defaults = true) {
    return smdx::testing::BuiltinTestManager(api_version, kind, &clock_,
                                             builtin_defaults, subresource);
  }

  // `object` as a server holds it: created, with a uid and version 215.
  Value Stored(const FieldManager& fm, const std::string& object) {
    FieldManagerResult r = fm.Apply(Value(), Yaml(object), "kubectl", false);
    EXPECT_TRUE(r.ok()) << r.status;
    if (!r.ok()) return Yaml("{metadata: {}}");
    Value meta = *r.object.map().Find("metadata");
    meta.map().Set("uid", Value(std::string(kUid)));
    meta.map().Set("resourceVersion", Value("215"));
    r.object.map().Set("metadata", std::move(meta));
    return r.object;
  }

  static constexpr char kUid[] = "da6ac1e1-a8a7-4c3f-bfcd-37935d75c513";
  ManualClock clock_;
};

constexpr char kConfigMap[] =
    "{apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: "
    "default}, data: {x: '1'}}";

constexpr char kStale[] =
    "the object has been modified; please apply your changes to the latest "
    "version and try again";

TEST(GuessResourceTest, IsKubernetesPluralOfEveryBuiltInKind) {
  EXPECT_EQ(GuessResource("Deployment"), "deployments");
  EXPECT_EQ(GuessResource("Ingress"), "ingresses");
  EXPECT_EQ(GuessResource("NetworkPolicy"), "networkpolicies");
  EXPECT_EQ(GuessResource("ComponentStatus"), "componentstatuses");
  EXPECT_EQ(GuessResource("Endpoints"), "endpoints");
}

TEST_F(PreconditionsTest, AStaleResourceVersionIsAConflictWithoutConflicts) {
  FieldManager fm = Make("v1", "ConfigMap");
  const Value live = Stored(fm, kConfigMap);
  Value body = live;
  body.map().Find("metadata")->map().Set("resourceVersion", Value("1"));
  body.map().Set("data", Yaml("{x: '2'}"));
  FieldManagerResult r = fm.Update(live, body, "ctrl");
  ASSERT_EQ(r.kind, ErrorKind::kConflict);
  EXPECT_TRUE(r.conflicts.empty());
  EXPECT_EQ(FailureMessage(r),
            absl::StrCat("Operation cannot be fulfilled on configmaps \"a\": ",
                         kStale));
  // The same version, written as etcd reads it (a number), is the same.
  body.map().Find("metadata")->map().Set("resourceVersion", Value("0215"));
  EXPECT_TRUE(fm.Update(live, body, "ctrl").ok());
  // An apply carries it too; without one it keeps the live one.
  r = fm.Apply(live,
               Yaml("{apiVersion: v1, kind: ConfigMap, metadata: {name: a, "
                    "namespace: default, resourceVersion: '7'}}"),
               "kubectl", /*force=*/true);
  EXPECT_EQ(r.kind, ErrorKind::kConflict);
  EXPECT_TRUE(fm.Apply(live, Yaml(kConfigMap), "kubectl", false).ok());
  // So does a patch.
  r = Patch(fm, live, Yaml("{metadata: {resourceVersion: '9'}}"),
            PatchType::kMerge, "patcher");
  EXPECT_EQ(r.kind, ErrorKind::kConflict);
  EXPECT_EQ(r.status.message(),
            absl::StrCat("Operation cannot be fulfilled on configmaps \"a\": ",
                         kStale));
}

TEST_F(PreconditionsTest, AVersionThatIsNoNumberIsTheServersParseError) {
  FieldManager fm = Make("v1", "ConfigMap");
  const Value live = Stored(fm, kConfigMap);
  FieldManagerResult r =
      fm.Apply(live,
               Yaml("{apiVersion: v1, kind: ConfigMap, metadata: {name: a, "
                    "namespace: default, resourceVersion: abc}}"),
               "kubectl", false);
  ASSERT_EQ(r.kind, ErrorKind::kInternal);
  EXPECT_EQ(r.status.message(),
            "strconv.ParseUint: parsing \"abc\": invalid syntax");
  r = Patch(fm, live,
            Yaml("{metadata: {resourceVersion: '99999999999999999999'}}"),
            PatchType::kMerge, "patcher");
  EXPECT_EQ(r.status.message(),
            "strconv.ParseUint: parsing \"99999999999999999999\": value out "
            "of range");
}

TEST_F(PreconditionsTest, WritesWithoutAVersionAreUnconditionalWhereAllowed) {
  // A ConfigMap's strategy takes them; a Lease's does not.
  FieldManager cm = Make("v1", "ConfigMap");
  Value live = Stored(cm, kConfigMap);
  Value body = live;
  body.map().Find("metadata")->map().Erase("resourceVersion");
  EXPECT_TRUE(cm.Update(live, body, "ctrl").ok());

  FieldManager lease = Make("coordination.k8s.io/v1", "Lease");
  live = Stored(lease,
                "{apiVersion: coordination.k8s.io/v1, kind: Lease, metadata: "
                "{name: l, namespace: default}, spec: {holderIdentity: a}}");
  body = live;
  body.map().Find("metadata")->map().Set("resourceVersion", Value("0"));
  FieldManagerResult r = lease.Update(live, body, "ctrl");
  ASSERT_EQ(r.kind, ErrorKind::kInvalid);
  EXPECT_EQ(r.status.message(),
            "leases.coordination.k8s.io \"l\" is invalid: "
            "metadata.resourceVersion: Invalid value: 0: must be specified "
            "for an update");
  // An apply whose configuration removes it (null) has none either.
  r = lease.Apply(live,
                  Yaml("{apiVersion: coordination.k8s.io/v1, kind: Lease, "
                       "metadata: {name: l, namespace: default, "
                       "resourceVersion: null}}"),
                  "kubectl", false);
  EXPECT_EQ(r.kind, ErrorKind::kInvalid);
}

TEST_F(PreconditionsTest, APutsUidIsAPreconditionNamingTheStorageKey) {
  FieldManager fm = Make("v1", "Service");
  const Value live = Stored(
      fm,
      "{apiVersion: v1, kind: Service, metadata: {name: web, namespace: "
      "default}, spec: {ports: [{port: 80}]}}");
  Value body = live;
  body.map().Find("metadata")->map().Set("uid", Value("u1"));
  FieldManagerResult r = fm.Update(live, body, "ctrl");
  ASSERT_EQ(r.kind, ErrorKind::kConflict);
  EXPECT_EQ(r.status.message(),
            absl::StrCat("Operation cannot be fulfilled on services \"web\": "
                         "StorageError: invalid object, Code: 4, Key: "
                         "/registry/services/specs/default/web, "
                         "ResourceVersion: 0, AdditionalErrorMsg: "
                         "Precondition failed: UID in precondition: u1, UID "
                         "in object meta: ",
                         kUid));
}

TEST_F(PreconditionsTest, AnApplyOrAPatchCannotChangeTheUid) {
  FieldManager fm = Make("apps/v1", "Deployment");
  const Value live = Stored(
      fm,
      "{apiVersion: apps/v1, kind: Deployment, metadata: {name: web, "
      "namespace: default}, spec: {selector: {matchLabels: {app: web}}, "
      "template: {metadata: {labels: {app: web}}, spec: {containers: "
      "[{name: web, image: nginx}]}}}}");
  FieldManagerResult r = Patch(fm, live, Yaml("{metadata: {uid: u1}}"),
                               PatchType::kMerge, "patcher");
  ASSERT_EQ(r.kind, ErrorKind::kInvalid);
  EXPECT_EQ(r.status.message(),
            "Deployment.apps \"web\" is invalid: metadata.uid: Invalid "
            "value: \"u1\": field is immutable");
  r = fm.Apply(live,
               Yaml("{apiVersion: apps/v1, kind: Deployment, metadata: "
                    "{name: web, namespace: default, uid: u1}}"),
               "kubectl", false);
  EXPECT_EQ(r.kind, ErrorKind::kInvalid);
  // The same uid, or none, is no change.
  EXPECT_TRUE(Patch(fm, live, Yaml(absl::StrCat("{metadata: {uid: ", kUid,
                                                "}}")),
                    PatchType::kMerge, "patcher")
                  .ok());
  EXPECT_TRUE(Patch(fm, live, Yaml("{metadata: {uid: null}}"),
                    PatchType::kMerge, "patcher")
                  .ok());
}

TEST_F(PreconditionsTest, EventsOfEventsK8sIoAreValidatedAsCoreEvents) {
  FieldManager fm = Make("events.k8s.io/v1", "Event");
  const Value live = Stored(
      fm,
      "{apiVersion: events.k8s.io/v1, kind: Event, metadata: {name: ev, "
      "namespace: default}, eventTime: '2026-12-07T22:00:00.000000Z', "
      "reportingController: a/b, reportingInstance: i, action: A, reason: "
      "R, regarding: {kind: Pod, name: p, namespace: default}, type: "
      "Normal}");
  FieldManagerResult r = Patch(fm, live, Yaml("{metadata: {uid: zz}}"),
                               PatchType::kMerge, "patcher");
  EXPECT_EQ(r.status.message(),
            "Event \"ev\" is invalid: metadata.uid: Invalid value: \"zz\": "
            "field is immutable");
  r = Patch(fm, live, Yaml("{metadata: {resourceVersion: '2'}}"),
            PatchType::kMerge, "patcher");
  EXPECT_EQ(r.status.message(),
            absl::StrCat("Operation cannot be fulfilled on "
                         "events.events.k8s.io \"ev\": ",
                         kStale));
}

TEST_F(PreconditionsTest, CreatesNameNeitherAVersionNorAUid) {
  FieldManager fm = Make("v1", "ConfigMap");
  // A POST's resourceVersion is etcd's 500 (where it parses, and is not
  // 0); an apply's create wipes it.
  FieldManagerResult r = fm.Update(
      Value(),
      Yaml("{apiVersion: v1, kind: ConfigMap, metadata: {name: a, "
           "resourceVersion: '7'}}"),
      "kubectl-create");
  ASSERT_EQ(r.kind, ErrorKind::kInternal);
  EXPECT_EQ(r.status.message(),
            "resourceVersion should not be set on objects to be created");
  for (const char* v : {"0", "abc"}) {
    EXPECT_TRUE(fm.Update(Value(),
                          Yaml(absl::StrCat("{apiVersion: v1, kind: ConfigMap, "
                                            "metadata: {name: a, "
                                            "resourceVersion: '",
                                            v, "'}}")),
                          "kubectl-create")
                    .ok())
        << v;
  }
  EXPECT_TRUE(fm.Apply(Value(),
                       Yaml("{apiVersion: v1, kind: ConfigMap, metadata: "
                            "{name: a, resourceVersion: '7'}}"),
                       "kubectl", false)
                  .ok());
  // An apply's create names no uid (the patch handler's check).
  r = fm.Apply(Value(),
               Yaml("{apiVersion: v1, kind: ConfigMap, metadata: {name: d, "
                    "uid: u9}}"),
               "kubectl", false);
  ASSERT_EQ(r.kind, ErrorKind::kConflict);
  EXPECT_EQ(r.status.message(),
            "Operation cannot be fulfilled on configmaps \"d\": uid "
            "mismatch: the provided object specified uid u9, and no "
            "existing object was found");
}

TEST_F(PreconditionsTest, AScalesVersionReachesTheObjectOnlyWhenSent) {
  FieldManager main = Make("apps/v1", "Deployment");
  const Value live = Stored(
      main,
      "{apiVersion: apps/v1, kind: Deployment, metadata: {name: web, "
      "namespace: default}, spec: {replicas: 2, selector: {matchLabels: "
      "{app: web}}, template: {metadata: {labels: {app: web}}, spec: "
      "{containers: [{name: web, image: nginx}]}}}}");
  FieldManager scale = Make("apps/v1", "Deployment", "scale");
  FieldManagerResult r = scale.Update(
      live,
      Yaml("{apiVersion: autoscaling/v1, kind: Scale, metadata: {name: web, "
           "namespace: default, resourceVersion: '1'}, spec: {replicas: "
           "3}}"),
      "hpa");
  ASSERT_EQ(r.kind, ErrorKind::kConflict);
  EXPECT_EQ(r.status.message(),
            absl::StrCat("Operation cannot be fulfilled on deployments.apps "
                         "\"web\": ",
                         kStale));
  EXPECT_TRUE(scale
                  .Update(live,
                          Yaml("{apiVersion: autoscaling/v1, kind: Scale, "
                               "metadata: {name: web, namespace: default}, "
                               "spec: {replicas: 3}}"),
                          "hpa")
                  .ok());
}

TEST_F(PreconditionsTest, NothingIsCheckedAgainstWhatTheLiveObjectLacks) {
  // A live object not read from a server: no version, no uid.
  FieldManager fm = Make("v1", "ConfigMap");
  const Value live =
      fm.Apply(Value(), Yaml(kConfigMap), "kubectl", false).object;
  Value body = live;
  body.map().Find("metadata")->map().Set("resourceVersion", Value("1"));
  body.map().Find("metadata")->map().Set("uid", Value("u1"));
  EXPECT_TRUE(fm.Update(live, body, "ctrl").ok());
}

TEST_F(PreconditionsTest, TheFieldManagerAloneChecksNothing) {
  FieldManager fm = Make("v1", "ConfigMap", "", /*builtin_defaults=*/false);
  const Value live = Stored(fm, kConfigMap);
  Value body = live;
  body.map().Find("metadata")->map().Set("resourceVersion", Value("1"));
  EXPECT_TRUE(fm.Update(live, body, "ctrl").ok());
}

// `live` being deleted, as a DELETE leaves an object with finalizers.
Value Terminating(Value live, int64_t grace = 0) {
  Value* meta = live.map().Find("metadata");
  meta->map().Set("deletionTimestamp", Value("2026-01-01T00:00:05Z"));
  meta->map().Set("deletionGracePeriodSeconds", Value(grace));
  return live;
}

TEST_F(PreconditionsTest, AWriteLeavingNoFinalizersDeletesTheObject) {
  FieldManager fm = Make("v1", "ConfigMap");
  const Value live = Terminating(Stored(
      fm,
      "{apiVersion: v1, kind: ConfigMap, metadata: {name: g, namespace: "
      "default, finalizers: [a.io/x, b.io/y]}, data: {x: '1'}}"));
  // One finalizer left: stored.
  FieldManagerResult r = Patch(fm, live, Yaml("{metadata: {finalizers: "
                                              "[b.io/y]}}"),
                               PatchType::kMerge, "ctl");
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_FALSE(r.deleted);
  // None left: deleted, the object being the apiserver's answer.
  r = Patch(fm, r.object, Yaml("{metadata: {finalizers: []}}"),
            PatchType::kMerge, "ctl");
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_TRUE(r.deleted);
  EXPECT_EQ(Find(*Find(r.object, "metadata"), "finalizers"), nullptr);
  // kubectl's apply without the finalizers it applied does the same.
  r = fm.Apply(live,
               Yaml("{apiVersion: v1, kind: ConfigMap, metadata: {name: g, "
                    "namespace: default}, data: {x: '1'}}"),
               "kubectl", false);
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_TRUE(r.deleted);
  // With a grace period left, storage waits for it.
  r = Patch(fm, Terminating(live, 30), Yaml("{metadata: {finalizers: null}}"),
            PatchType::kMerge, "ctl");
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_FALSE(r.deleted);
  // An object not being deleted is only stored without them.
  r = Patch(fm, Stored(fm, kConfigMap), Yaml("{metadata: {finalizers: []}}"),
            PatchType::kMerge, "ctl");
  EXPECT_FALSE(r.deleted);
}

TEST_F(PreconditionsTest, NoFinalizerJoinsAnObjectBeingDeleted) {
  FieldManager fm = Make("v1", "ConfigMap");
  const Value live = Terminating(Stored(
      fm,
      "{apiVersion: v1, kind: ConfigMap, metadata: {name: g, namespace: "
      "default, finalizers: [a.io/x]}}"));
  FieldManagerResult r =
      Patch(fm, live,
            Yaml("{metadata: {finalizers: [a.io/x, c.io/z, a.io/w], uid: "
                 "u2}}"),
            PatchType::kMerge, "ctl");
  ASSERT_EQ(r.kind, ErrorKind::kInvalid);
  EXPECT_EQ(r.status.message(),
            "ConfigMap \"g\" is invalid: [metadata.finalizers: Forbidden: no "
            "new finalizers can be added if the object is being deleted, "
            "found new finalizers []string{\"a.io/w\", \"c.io/z\"}, "
            "metadata.uid: Invalid value: \"u2\": field is immutable]");
}

TEST_F(PreconditionsTest, ANamespaceWaitsForItsSpecFinalizers) {
  FieldManager fm = Make("v1", "Namespace");
  const Value live = Terminating(Stored(
      fm,
      "{apiVersion: v1, kind: Namespace, metadata: {name: ns1, finalizers: "
      "[a.io/x]}, spec: {finalizers: [kubernetes]}}"));
  FieldManagerResult r = Patch(fm, live, Yaml("{metadata: {finalizers: []}}"),
                               PatchType::kMerge, "ctl");
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_FALSE(r.deleted);
}

}  // namespace
}  // namespace smdx
