#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "cli/commands.h"
#include "cli/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/test_util.h"
#include "smdx/value/emit.h"
#include "smdx/value/parse.h"

namespace smdx::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using smdx::testing::Yaml;

std::string Shared(const std::string& rel) {
  return smdx::testing::SharedPath(rel);
}

// "MANAGER APIVERSION" of each of an object's managedFields entries.
std::vector<std::string> EntryVersions(const Value& object) {
  std::vector<std::string> out;
  for (const Value& e :
       object.map().Find("metadata")->map().Find("managedFields")->list()) {
    out.push_back(StringAt(e, "manager") + " " + StringAt(e, "apiVersion"));
  }
  return out;
}

// `smdx fieldset` prints what the reference's own tool prints, byte for byte.
TEST(CliTest, FieldsetMatchesReferenceFieldSets) {
  struct Case {
    std::string object, type, want;
  } cases[] = {
      {smdx::testing::SourcePath("testdata/pod.yaml"), "io.k8s.api.core.v1.Pod",
       "podset.json"},
      {Shared("testdata/smd/node.yaml"), "io.k8s.api.core.v1.Node",
       "nodeset.json"},
      {Shared("testdata/smd/endpoints.yaml"), "io.k8s.api.core.v1.Endpoints",
       "endpointsset.json"},
      {Shared("testdata/smd/prometheus-crd.yaml"),
       "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1beta1."
       "CustomResourceDefinition",
       "prometheus-crdset.json"},
  };
  for (const Case& c : cases) {
    Result r =
        Smdx({"fieldset", "--schema", Shared("testdata/smd/k8s-schema.yaml"),
              "--type", c.type, c.object});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out,
              smdx::testing::ReadTestFile(Shared("testdata/smd/" + c.want)))
        << c.object;
  }
}

TEST(CliTest, EmbeddedSchemaIsTheDefault) {
  Result r = Smdx({"fieldset", smdx::testing::SourcePath("testdata/pod.yaml")});
  ASSERT_EQ(r.code, 0) << r.err;
  // podset.json was computed with the 2018 schema; since then the API marks
  // owner references and secret key selectors atomic.
  std::string want =
      smdx::testing::ReadTestFile(Shared("testdata/smd/podset.json"));
  for (
      const char* atomic :
      {R"("k:{\"uid\":\"0a9d2b9e-779e-11e7-b422-42010a8001be\"}":{".":{},"f:apiVersion":{},"f:blockOwnerDeletion":{},"f:controller":{},"f:kind":{},"f:name":{},"f:uid":{}})",
       R"("f:secretKeyRef":{".":{},"f:key":{},"f:name":{}})"}) {
    std::string field(atomic);
    std::string leaf = field.substr(0, field.find("\":{") + 2) + "{}";
    for (size_t at = want.find(field); at != std::string::npos;
         at = want.find(field)) {
      want.replace(at, field.size(), leaf);
    }
  }
  EXPECT_EQ(r.out, want);
  Result types = Smdx({"list-types"});
  EXPECT_NE(types.out.find("io.k8s.api.core.v1.Pod\n"), std::string::npos);
}

// Built-in kinds are stored as the apiserver stores them;
// --no-builtin-defaults gives the bare merge.
TEST(CliTest, BuiltinDefaultsAndTheirSwitch) {
  std::string d = smdx::testing::SourcePath("examples/deployment.yaml");
  Result on = Smdx({"apply", "--now", "2026-01-01T00:00:00Z", d});
  ASSERT_EQ(on.code, 0) << on.err;
  EXPECT_THAT(on.out, HasSubstr("revisionHistoryLimit: 10"));
  EXPECT_THAT(on.out,
              HasSubstr("terminationMessagePath: /dev/termination-log"));
  Result off = Smdx(
      {"apply", "--no-builtin-defaults", "--now", "2026-01-01T00:00:00Z", d});
  ASSERT_EQ(off.code, 0) << off.err;
  EXPECT_THAT(off.out, ::testing::Not(HasSubstr("revisionHistoryLimit")));
  // default shows a body as the apiserver decodes it; --json, one a line.
  Result def = Smdx({"default", "--json", d});
  ASSERT_EQ(def.code, 0) << def.err;
  EXPECT_THAT(def.out, HasSubstr("\"revisionHistoryLimit\":10"));
  EXPECT_EQ(std::count(def.out.begin(), def.out.end(), '\n'), 1);
  Result bare = Smdx({"default", "--no-builtin-defaults", d});
  ASSERT_EQ(bare.code, 0) << bare.err;
  EXPECT_THAT(bare.out, ::testing::Not(HasSubstr("revisionHistoryLimit")));
  // A body the Go types cannot hold is the apiserver's 400, not an object
  // decoded in part.
  Result refused = Smdx(
      {"default", "-"},
      "{apiVersion: apps/v1, kind: Deployment, metadata: {name: d}, "
      "spec: {replicas: \"2\"}}");
  EXPECT_EQ(refused.code, 1);
  EXPECT_EQ(refused.out, "");
  EXPECT_THAT(refused.err,
              HasSubstr("Deployment in version \"v1\" cannot be handled as "
                        "a Deployment: json: cannot unmarshal string into Go "
                        "struct field DeploymentSpec.spec.replicas of type "
                        "int32"));
  // diff of a create shows what the apiserver will hold.
  Result diff = Smdx({"diff", "--color", "never", d});
  EXPECT_EQ(diff.code, 1) << diff.err;
  EXPECT_THAT(diff.out, HasSubstr("+  progressDeadlineSeconds: 600"));
}

// `smdx --version` names the Kubernetes release built in.
TEST(CliTest, VersionNamesTheKubernetesReleaseBuiltIn) {
  for (const char* arg : {"--version", "version"}) {
    Result r = Smdx({arg});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("(Kubernetes v1.37.2 built in)")) << arg;
  }
}

TEST(CliTest, ApplyConflictForceWorkflow) {
  std::string dep = smdx::testing::SourcePath("examples/deployment.yaml");
  Result first = Smdx({"apply", "--manager", "kubectl", dep});
  ASSERT_EQ(first.code, 0) << first.err;
  EXPECT_NE(first.out.find("manager: kubectl"), std::string::npos);
  EXPECT_NE(first.out.find("operation: Apply"), std::string::npos);
  std::string live = ::testing::TempDir() + "/live.yaml";
  { std::ofstream(live) << first.out; }
  Result conflict = Smdx({"apply", "--manager", "hpa", "--live", live,
                          smdx::testing::SourcePath("examples/scale.yaml")});
  // No conflict: kubectl never set replicas.
  ASSERT_EQ(conflict.code, 0) << conflict.err;
  std::string live2 = ::testing::TempDir() + "/live2.yaml";
  { std::ofstream(live2) << conflict.out; }
  Result again =
      Smdx({"apply", "--manager", "kubectl", "--live", live2,
            smdx::testing::SourcePath("examples/deployment-replicas.yaml")});
  EXPECT_EQ(again.code, 2);
  EXPECT_NE(again.err.find("Apply failed with 1 conflict: conflict with "
                           "\"hpa\": .spec.replicas"),
            std::string::npos)
      << again.err;
  Result forced = Smdx(
      {"apply", "--manager", "kubectl", "--force-conflicts", "--live", live2,
       smdx::testing::SourcePath("examples/deployment-replicas.yaml")});
  ASSERT_EQ(forced.code, 0) << forced.err;
  absl::StatusOr<Value> v = ParseYaml(forced.out);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->map().Find("spec")->map().Find("replicas")->AsInt(), 5);
}

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

// A request over a live object that changed since it was read is the
// apiserver's other 409: exit 2 with its message, and no hint to force.
TEST(CliTest, AStaleResourceVersionIsTheServersConflict) {
  const std::string live = ::testing::TempDir() + "/stale-live.yaml";
  WriteFile(live,
            "{apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: "
            "default, uid: u, resourceVersion: '215'}, data: {x: '1'}}");
  const std::string body =
      "{apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: "
      "default, resourceVersion: '214'}, data: {x: '2'}}";
  for (const char* cmd : {"update", "apply", "diff"}) {
    // (Forcing does not help.)
    std::vector<std::string> args = {cmd, "--manager", "m", "--live", live};
    if (std::string(cmd) != "update") args.push_back("--force-conflicts");
    args.push_back("-");
    Result r = Smdx(args, body);
    EXPECT_EQ(r.code, 2) << cmd << ": " << r.err;
    EXPECT_THAT(r.err,
                HasSubstr("Operation cannot be fulfilled on configmaps \"a\": "
                          "the object has been modified"))
        << cmd;
    EXPECT_THAT(r.err, ::testing::Not(HasSubstr("--force-conflicts")))
        << cmd;
  }
}

// A write that leaves an object being deleted without finalizers deletes
// it: apply says so beside the apiserver's answer, diff shows it gone.
TEST(CliTest, AWriteLeavingNoFinalizersDeletesTheObject) {
  const std::string live = ::testing::TempDir() + "/terminating-live.yaml";
  WriteFile(live,
            "{apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: "
            "default, uid: u, resourceVersion: '215', deletionTimestamp: "
            "'2026-01-01T00:00:00Z', deletionGracePeriodSeconds: 0, "
            "finalizers: [a.io/x], managedFields: [{manager: m, operation: "
            "Apply, apiVersion: v1, time: '2026-01-01T00:00:00Z', "
            "fieldsType: FieldsV1, fieldsV1: {'f:data': {'f:x': {}}, "
            "'f:metadata': {'f:finalizers': {'v:\"a.io/x\"': {}}}}}]}, "
            "data: {x: '1'}}");
  const std::string config =
      "{apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: "
      "default}, data: {x: '1'}}";
  Result applied = Smdx({"apply", "--manager", "m", "--live", live, "-"},
                        config);
  ASSERT_EQ(applied.code, 0) << applied.err;
  EXPECT_THAT(applied.err, HasSubstr("the apiserver deletes the object"));
  EXPECT_THAT(applied.out, HasSubstr("deletionTimestamp"));
  Result diff = Smdx({"diff", "--color", "never", "--manager", "m", "--live",
                      live, "-"},
                     config);
  EXPECT_EQ(diff.code, 1) << diff.err;
  EXPECT_THAT(diff.out, HasSubstr("the apiserver deletes the object"));
  EXPECT_THAT(diff.out, HasSubstr("-  x: \"1\""));
  Result html = Smdx({"diff", "--html", "--manager", "m", "--live", live,
                      "-"},
                     config);
  EXPECT_EQ(html.code, 1) << html.err;
  EXPECT_THAT(html.out, HasSubstr("the apiserver deletes the object"));
}

// --as-kubectl: after a client-side apply of data a and b, kubectl's
// server-side apply of a alone removes b (the apply alone keeps it), and
// diff shows that; update refuses the flag.
TEST(CliTest, AsKubectlMovesClientSideApplyFields) {
  const std::string dir = ::testing::TempDir();
  const std::string body = dir + "/csa-body.yaml";
  WriteFile(body,
            "apiVersion: v1\nkind: ConfigMap\n"
            "metadata:\n  name: c\n  namespace: ns\n  annotations:\n"
            "    kubectl.kubernetes.io/last-applied-configuration: "
            "'{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":"
            "{\"name\":\"c\",\"namespace\":\"ns\"},\"data\":{\"a\":\"1\","
            "\"b\":\"2\"}}'\n"
            "data: {a: '1', b: '2'}\n");
  const std::string config = dir + "/csa-config.yaml";
  WriteFile(config,
            "apiVersion: v1\nkind: ConfigMap\n"
            "metadata: {name: c, namespace: ns}\ndata: {a: '1'}\n");
  Result created =
      Smdx({"update", "--field-manager", "kubectl-client-side-apply", "--now",
            "2026-12-07T10:00:00Z", body});
  ASSERT_EQ(created.code, 0) << created.err;
  const std::string live = dir + "/csa-live.yaml";
  WriteFile(live, created.out);

  Result plain = Smdx({"apply", "--now", "2026-12-07T10:01:00Z", "--live",
                       live, config});
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_NE(plain.out.find("b: \"2\""), std::string::npos) << plain.out;
  Result moved = Smdx({"apply", "--as-kubectl", "--now",
                       "2026-12-07T10:01:00Z", "--live", live, config});
  ASSERT_EQ(moved.code, 0) << moved.err;
  EXPECT_EQ(moved.out.find("b: \"2\""), std::string::npos) << moved.out;
  EXPECT_EQ(moved.out.find("kubectl-client-side-apply"), std::string::npos);
  EXPECT_NE(moved.out.find("manager: kubectl-last-applied"),
            std::string::npos);

  Result diff = Smdx({"diff", "--as-kubectl", "--color", "never", "--live",
                      live, config});
  EXPECT_EQ(diff.code, 1) << diff.err;
  EXPECT_NE(diff.out.find("-  b: \"2\""), std::string::npos) << diff.out;

  Result update =
      Smdx({"update", "--as-kubectl", "--field-manager", "x", config});
  EXPECT_EQ(update.code, 1);
  EXPECT_NE(update.err.find("--as-kubectl is for apply and diff"),
            std::string::npos)
      << update.err;
}

// --client-side: kubectl's create with its annotation, then its patch,
// which drops what the configuration dropped; the same configuration again
// changes nothing; diff shows the change; server-side flags are refused.
TEST(CliTest, ClientSideApplyMakesKubectlsRequests) {
  const std::string dir = ::testing::TempDir();
  const std::string ab = dir + "/csa2-ab.yaml";
  WriteFile(ab,
            "apiVersion: v1\nkind: ConfigMap\n"
            "metadata: {name: c, namespace: ns}\ndata: {a: '1', b: '2'}\n");
  const std::string a = dir + "/csa2-a.yaml";
  WriteFile(a,
            "apiVersion: v1\nkind: ConfigMap\n"
            "metadata: {name: c, namespace: ns}\ndata: {a: '1'}\n");
  Result created = Smdx({"apply", "--client-side", "--now",
                         "2026-12-07T10:00:00Z", ab});
  ASSERT_EQ(created.code, 0) << created.err;
  EXPECT_NE(created.out.find("{\"apiVersion\":\"v1\",\"data\":{\"a\":\"1\","
                             "\"b\":\"2\"},\"kind\":\"ConfigMap\",\"metadata\":"
                             "{\"annotations\":{},\"name\":\"c\","
                             "\"namespace\":\"ns\"}}"),
            std::string::npos)
      << created.out;
  EXPECT_NE(created.out.find("manager: kubectl-client-side-apply"),
            std::string::npos);
  const std::string live = dir + "/csa2-live.yaml";
  WriteFile(live, created.out);

  Result diff = Smdx({"diff", "--client-side", "--color", "never", "--live",
                      live, a});
  EXPECT_EQ(diff.code, 1) << diff.err;
  EXPECT_NE(diff.out.find("-  b: \"2\""), std::string::npos) << diff.out;
  Result request = Smdx({"apply", "--client-side", "--print-request",
                         "--live", live, a});
  ASSERT_EQ(request.code, 0) << request.err;
  EXPECT_EQ(request.out.rfind(
                "# PATCH, application/strategic-merge-patch+json\n", 0),
            0u)
      << request.out;
  EXPECT_NE(request.out.find("b: null"), std::string::npos) << request.out;
  Result patched = Smdx({"apply", "--client-side", "--now",
                         "2026-12-07T10:01:00Z", "--live", live, a});
  ASSERT_EQ(patched.code, 0) << patched.err;
  EXPECT_EQ(patched.out.find("b: \"2\""), std::string::npos) << patched.out;
  WriteFile(live, patched.out);
  Result again = Smdx({"apply", "--client-side", "--now",
                       "2026-12-07T10:02:00Z", "--live", live, a});
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(again.out, patched.out);
  EXPECT_NE(again.err.find("kubectl sends no request"), std::string::npos)
      << again.err;

  EXPECT_EQ(Smdx({"apply", "--print-request", a}).code, 1);
  Result update =
      Smdx({"update", "--client-side", "--field-manager", "x", a});
  EXPECT_EQ(update.code, 1);
  EXPECT_NE(update.err.find("--client-side is for apply and diff"),
            std::string::npos)
      << update.err;
  for (const char* flag : {"--server-side", "--as-kubectl",
                           "--force-conflicts"}) {
    Result r = Smdx({"apply", "--client-side", flag, a});
    EXPECT_EQ(r.code, 1) << flag;
    EXPECT_NE(r.err.find("--client-side does not go with"), std::string::npos)
        << r.err;
  }
}

// smdx patch: merge and JSON patches of live objects, kubectl patch's
// manager by default, and its errors.
TEST(CliTest, PatchRunsMergeAndJsonPatches) {
  const std::string dir = ::testing::TempDir();
  const std::string config = dir + "/patch-config.yaml";
  WriteFile(config,
            "apiVersion: v1\nkind: ConfigMap\n"
            "metadata: {name: c, namespace: ns}\ndata: {a: '1', b: '2'}\n");
  Result created = Smdx({"apply", "--now", "2026-12-07T10:00:00Z", config});
  ASSERT_EQ(created.code, 0) << created.err;
  const std::string live = dir + "/patch-live.yaml";
  WriteFile(live, created.out);

  Result merged = Smdx({"patch", "--type", "merge", "-p",
                        "{data: {b: null, c: '3'}}", "--now",
                        "2026-12-07T10:01:00Z", live});
  ASSERT_EQ(merged.code, 0) << merged.err;
  EXPECT_NE(merged.out.find("manager: kubectl-patch"), std::string::npos)
      << merged.out;
  EXPECT_EQ(merged.out.find("b: \"2\""), std::string::npos) << merged.out;
  EXPECT_NE(merged.out.find("c: \"3\""), std::string::npos) << merged.out;

  const std::string ops = dir + "/patch-ops.json";
  WriteFile(ops, R"([{"op": "replace", "path": "/data/a", "value": "9"}])");
  Result json = Smdx({"patch", "--type=json", "--patch-file", ops,
                      "--field-manager", "ctl", live});
  ASSERT_EQ(json.code, 0) << json.err;
  EXPECT_NE(json.out.find("a: \"9\""), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("manager: ctl"), std::string::npos) << json.out;

  Result missing = Smdx({"patch", "--type", "json", "-p",
                         R"([{"op": "remove", "path": "/data/z"}])", live});
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.err.find("operation 0 (remove) does not apply"),
            std::string::npos)
      << missing.err;
  Result both = Smdx({"patch", "--type", "merge", "-p", "{}",
                      "--patch-file", ops, live});
  EXPECT_EQ(both.code, 1);
}

// A live Scaler, the custom resource of testdata/realapi/crds/scalers.yaml
// (which serves status and scale), written in `dir`; its path.
std::string WriteLiveScaler(const std::string& dir) {
  const std::string path = dir + "/scaler-live.yaml";
  WriteFile(path,
            "apiVersion: realapi.smdx.dev/v1\nkind: Scaler\n"
            "metadata: {name: s, namespace: ns}\n"
            "spec: {replicas: 2, selector: app=web}\n");
  return path;
}

// smdx patch's default type is kubectl's, strategic: a Deployment's
// containers merge by name and its finalizers as a set; a custom resource
// takes none.
TEST(CliTest, PatchRunsStrategicMergePatches) {
  const std::string dir = ::testing::TempDir();
  const std::string live = dir + "/smp-live.yaml";
  WriteFile(live,
            "apiVersion: apps/v1\nkind: Deployment\n"
            "metadata: {name: web, namespace: ns, finalizers: [a]}\n"
            "spec:\n  selector: {matchLabels: {app: web}}\n"
            "  template:\n    metadata: {labels: {app: web}}\n"
            "    spec:\n      containers:\n"
            "      - {name: app, image: 'nginx:1'}\n"
            "      - {name: side, image: busybox}\n");
  Result patched = Smdx(
      {"patch", "--now", "2026-12-07T10:00:00Z", "-p",
       R"({"metadata": {"finalizers": ["b"]}, "spec": {"template": {"spec":
           {"containers": [{"name": "side", "$patch": "delete"},
                           {"name": "app", "image": "nginx:2"}]}}}})",
       live});
  ASSERT_EQ(patched.code, 0) << patched.err;
  EXPECT_NE(patched.out.find("manager: kubectl-patch"), std::string::npos)
      << patched.out;
  EXPECT_NE(patched.out.find("  - b\n  - a\n"), std::string::npos)
      << patched.out;
  EXPECT_NE(patched.out.find("image: nginx:2"), std::string::npos)
      << patched.out;
  EXPECT_EQ(patched.out.find("busybox"), std::string::npos) << patched.out;
  // A container without its merge key: the apiserver's 500.
  Result keyless = Smdx(
      {"patch", "--type", "strategic", "-p",
       R"({"spec": {"template": {"spec": {"containers": [{"image": "x"}]}}}})",
       live});
  EXPECT_EQ(keyless.code, 1);
  EXPECT_NE(keyless.err.find(".spec.template.spec.containers: map: "
                             "{\"image\":\"x\"} does not contain declared "
                             "merge key: name"),
            std::string::npos)
      << keyless.err;

  Result cr = Smdx(
      {"patch", "-p", "{spec: {replicas: 3}}", "--schema",
       smdx::testing::SourcePath("testdata/realapi/crds/scalers.yaml"),
       WriteLiveScaler(dir)});
  EXPECT_EQ(cr.code, 1);
  EXPECT_NE(cr.err.find("415"), std::string::npos) << cr.err;
}

// The Scale of the Scaler WriteLiveScaler writes, with 5 replicas.
std::string WriteScale(const std::string& dir) {
  const std::string path = dir + "/scale.yaml";
  WriteFile(path,
            "apiVersion: autoscaling/v1\nkind: Scale\n"
            "metadata: {name: s, namespace: ns}\nspec: {replicas: 5}\n");
  return path;
}

// A custom resource's scale subresource writes its CRD's specReplicasPath,
// and an apply that changes the Scale gets the 500 Kubernetes 1.37 gives
// (fieldmanager/scale.h); an update passes.
TEST(CliTest, CustomResourceScaleFollowsItsCrd) {
  std::string dir = ::testing::TempDir();
  const std::string crd =
      smdx::testing::SourcePath("testdata/realapi/crds/scalers.yaml");
  const std::string live = WriteLiveScaler(dir);
  const std::string scale = WriteScale(dir);
  Result updated = Smdx({"update", "--schema", crd, "--field-manager", "hpa",
                         "--subresource", "scale", "--live", live,
                         scale});
  ASSERT_EQ(updated.code, 0) << updated.err;
  absl::StatusOr<Value> v = ParseYaml(updated.out);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->map().Find("spec")->map().Find("replicas")->AsInt(), 5);
  // Forced: the live object has no entries, so the Scale's
  // before-first-apply owns the replicas.
  Result applied =
      Smdx({"apply", "--schema", crd, "--field-manager", "hpa",
            "--force-conflicts", "--subresource", "scale", "--live", live,
            scale});
  EXPECT_EQ(applied.code, 1);
  EXPECT_THAT(applied.err,
              HasSubstr("request to convert CR to an invalid group/version: "
                        "autoscaling/v1"));
}

// A custom resource known only from the cluster's /openapi/v3 document of
// its group (kube-apiserver 1.37's, testdata/cluster-openapi-v3) is one:
// the main resource resets the status its path says the kind serves, its
// metadata keeps a null label as "" whichever document comes last, and a
// scale request, whose replicas field the document does not say, is
// refused unless the CRD is given too.
TEST(CliTest, ACustomResourceKnownFromAClustersOpenApiIsOne) {
  std::string dir = ::testing::TempDir();
  const std::string doc = smdx::testing::SourcePath(
      "testdata/cluster-openapi-v3/apis_realapi.smdx.dev_v1.json");
  const std::string builtin = smdx::testing::SourcePath(
      "testdata/cluster-openapi-v3/apis_scheduling.k8s.io_v1.json");
  WriteFile(dir + "/route.yaml",
            "apiVersion: realapi.smdx.dev/v1\nkind: Route\n"
            "metadata: {name: r, namespace: ns, labels: {app: null}}\n"
            "spec: {rules: [{host: a.example.com}]}\n"
            "status: {phase: Ready}\n");
  for (const auto& order : {std::vector<std::string>{doc, builtin},
                            std::vector<std::string>{builtin, doc}}) {
    Result r = Smdx({"apply", "--schema", order[0], "--schema", order[1],
                     "--field-manager", "m", dir + "/route.yaml"});
    ASSERT_EQ(r.code, 0) << r.err;
    absl::StatusOr<Value> v = ParseYaml(r.out);
    ASSERT_TRUE(v.ok()) << v.status();
    EXPECT_EQ(Find(*v, "status"), nullptr) << r.out;
    const Value* meta = Find(*v, "metadata");
    const Value* labels = Find(*meta, "labels");
    ASSERT_NE(labels, nullptr) << r.out;
    EXPECT_EQ(ToJsonSorted(*labels), R"({"app":""})");
    EXPECT_EQ(Find(*meta, "generation")->AsInt(), 1);
    // Defaults from the document's schema.
    EXPECT_EQ(ToJsonSorted(*Find(*v, "spec")),
              R"({"rules":[{"host":"a.example.com","port":443,"weight":1}],)"
              R"("timeoutSeconds":30})");
  }
  // So with a CRD before a cluster's OpenAPI document.
  WriteFile(dir + "/widget.yaml",
            "apiVersion: example.com/v1\nkind: Widget\n"
            "metadata: {name: w, namespace: ns, labels: {app: null}}\n"
            "spec: {replicas: 1}\n");
  Result widget = Smdx(
      {"apply", "--schema",
       smdx::testing::SourcePath("testdata/crds/widgets.yaml"), "--schema",
       builtin, "--field-manager", "m", dir + "/widget.yaml"});
  ASSERT_EQ(widget.code, 0) << widget.err;
  absl::StatusOr<Value> w = ParseYaml(widget.out);
  ASSERT_TRUE(w.ok()) << w.status();
  const Value* widget_labels = Find(*Find(*w, "metadata"), "labels");
  ASSERT_NE(widget_labels, nullptr) << widget.out;
  EXPECT_EQ(ToJsonSorted(*widget_labels), R"({"app":""})");
  const std::string live = WriteLiveScaler(dir);
  const std::string scale = WriteScale(dir);
  Result refused = Smdx({"update", "--schema", doc, "--field-manager", "hpa",
                         "--subresource", "scale", "--live", live,
                         scale});
  EXPECT_EQ(refused.code, 1);
  EXPECT_THAT(refused.err,
              HasSubstr("realapi.smdx.dev/v1 Scaler: the schema (a cluster's "
                        "OpenAPI) does not say which field its scale "
                        "subresource's replicas are (its CRD's "
                        "specReplicasPath)"));
  Result scaled = Smdx(
      {"update", "--schema",
       smdx::testing::SourcePath("testdata/realapi/crds/scalers.yaml"),
       "--schema", doc, "--field-manager", "hpa", "--subresource", "scale",
       "--live", live, scale});
  ASSERT_EQ(scaled.code, 0) << scaled.err;
  absl::StatusOr<Value> v = ParseYaml(scaled.out);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(Find(*Find(*v, "spec"), "replicas")->AsInt(), 5);
}

// A custom resource's status endpoint ignores the spec and metadata a write
// sends at every version of its CRD with the status subresource
// (apiextensions-apiserver's getStatusResetFields), not only the request's:
// a manager at the other version keeps the spec fields the write would
// have changed. kube-apiserver 1.37 kept them so (random scenarios of
// cr-widgets.yaml whose status writes carry a spec change).
TEST(CliTest, ACustomResourcesStatusWriteIgnoresTheSpecAtEveryVersion) {
  std::string dir = ::testing::TempDir();
  const std::string crd =
      smdx::testing::SourcePath("testdata/crds/widgets.yaml");
  WriteFile(dir + "/widget-live.yaml", R"(apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
  namespace: ns
  managedFields:
  - {manager: kubectl, operation: Apply, apiVersion: example.com/v2,
     time: "2020-01-01T00:00:00Z", fieldsType: FieldsV1,
     fieldsV1: {"f:spec": {"f:mode": {}, "f:replicas": {}}}}
spec: {replicas: 2, mode: auto}
)");
  WriteFile(dir + "/widget-status.yaml", R"(apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: ns}
spec: {replicas: 3, mode: manual}
status: {phase: Ready}
)");
  Result r = Smdx({"update", "--schema", crd, "--field-manager", "status-ctrl",
                   "--subresource", "status", "--now", "2026-01-01T00:00:00Z",
                   "--live", dir + "/widget-live.yaml",
                   dir + "/widget-status.yaml"});
  ASSERT_EQ(r.code, 0) << r.err;
  absl::StatusOr<Value> out = ParseYaml(r.out);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_THAT(EntryVersions(*out),
              ::testing::ElementsAre("kubectl example.com/v2",
                                     "status-ctrl example.com/v1"));
  const Value& kubectl =
      out->map().Find("metadata")->map().Find("managedFields")->list()[0];
  EXPECT_EQ(ToJsonSorted(*Find(kubectl, "fieldsV1")),
            R"({"f:spec":{"f:mode":{},"f:replicas":{}}})");
  EXPECT_EQ(Find(*Find(*out, "spec"), "replicas")->AsInt(), 2);
}

// A write to the status of an object that does not exist: most status
// endpoints answer 404, a Service's (apply and PUT) and a
// ValidatingAdmissionPolicy's (apply) create the object through the status
// store, with the main strategy's create (the status dropped, no cluster
// IP allocated, so no IP family policy) and the writer's entry the status
// endpoint's (the spec it sent belongs to nobody).
TEST(CliTest, AStatusWriteCreatesWhereTheKindsStatusStoreDoes) {
  std::string dir = ::testing::TempDir();
  WriteFile(dir + "/svc.yaml",
            "apiVersion: v1\nkind: Service\nmetadata: {name: s}\n"
            "spec: {selector: {app: a}, ports: [{port: 80}]}\n"
            "status: {conditions: [{type: Ready, status: 'True', "
            "lastTransitionTime: '2026-01-01T00:00:00Z', reason: R, "
            "message: M}]}\n");
  for (const char* verb : {"apply", "update"}) {
    Result r = Smdx({verb, "--field-manager", "ctrl", "--subresource",
                     "status", "--now", "2026-12-07T00:00:00Z",
                     dir + "/svc.yaml"});
    ASSERT_EQ(r.code, 0) << verb << ": " << r.err;
    absl::StatusOr<Value> v = ParseYaml(r.out);
    ASSERT_TRUE(v.ok()) << v.status();
    EXPECT_EQ(ToJsonSorted(*Find(*v, "status")), R"({"loadBalancer":{}})");
    const Value* spec = Find(*v, "spec");
    EXPECT_EQ(ToJsonSorted(*Find(*spec, "selector")), R"({"app":"a"})");
    EXPECT_EQ(Find(*spec, "ipFamilyPolicy"), nullptr) << r.out;
    EXPECT_EQ(Find(*spec, "type")->AsString(), "ClusterIP");
    const Value& entry =
        Find(*Find(*v, "metadata"), "managedFields")->list()[0];
    EXPECT_EQ(Find(entry, "subresource")->AsString(), "status");
    const bool apply = std::string(verb) == "apply";
    EXPECT_EQ(Find(entry, "operation")->AsString(), apply ? "Apply" : "Update");
    // (An update owns the list itself too.)
    EXPECT_EQ(ToJsonSorted(*Find(entry, "fieldsV1")),
              absl::StrCat(R"({"f:status":{"f:conditions":{)",
                           apply ? "" : R"(".":{},)",
                           R"("k:{\"type\":\"Ready\"}":)"
                           R"({".":{},"f:lastTransitionTime":{},"f:message":{},)"
                           R"("f:reason":{},"f:status":{},"f:type":{}}}}})"));
  }
  WriteFile(dir + "/vap.yaml",
            "apiVersion: admissionregistration.k8s.io/v1\n"
            "kind: ValidatingAdmissionPolicy\nmetadata: {name: p}\n"
            "spec: {validations: [{expression: 'true'}]}\n"
            "status: {observedGeneration: 1}\n");
  Result applied = Smdx({"apply", "--field-manager", "ctrl", "--subresource",
                         "status", dir + "/vap.yaml"});
  ASSERT_EQ(applied.code, 0) << applied.err;
  absl::StatusOr<Value> vap = ParseYaml(applied.out);
  ASSERT_TRUE(vap.ok());
  EXPECT_EQ(ToJsonSorted(*Find(*vap, "status")), "{}");
  EXPECT_EQ(Find(*Find(*vap, "metadata"), "generation")->AsInt(), 1);
  Result put = Smdx({"update", "--field-manager", "ctrl", "--subresource",
                     "status", dir + "/vap.yaml"});
  EXPECT_EQ(put.code, 1);
  EXPECT_THAT(put.err, HasSubstr("the object does not exist"));
  WriteFile(dir + "/deploy.yaml",
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n"
            "spec: {selector: {matchLabels: {a: b}}, template: {metadata: "
            "{labels: {a: b}}, spec: {containers: [{name: c, image: i}]}}}\n"
            "status: {replicas: 1}\n");
  Result deployment = Smdx({"apply", "--field-manager", "ctrl",
                            "--subresource", "status", dir + "/deploy.yaml"});
  EXPECT_EQ(deployment.code, 1);
  EXPECT_THAT(deployment.err, HasSubstr("the object does not exist"));
}

// A subresource the kind does not serve is refused (the apiserver's 404)
// rather than written as the main resource; one it serves is taken (a
// Pod's resize, kubetypes' pod.h).
TEST(CliTest, ASubresourceTheKindDoesNotServeIsRefused) {
  std::string dir = ::testing::TempDir();
  WriteFile(dir + "/cm.yaml",
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"
            "data: {a: b}\n");
  Result status = Smdx({"apply", "--field-manager", "m", "--subresource",
                        "status", "--live", dir + "/cm.yaml",
                        dir + "/cm.yaml"});
  EXPECT_EQ(status.code, 1);
  EXPECT_THAT(status.err, HasSubstr("v1 ConfigMap has no subresource "
                                    "\"status\" (it has none)"));
  const std::string scaler = WriteLiveScaler(dir);
  Result resize = Smdx(
      {"update", "--schema",
       smdx::testing::SourcePath("testdata/realapi/crds/scalers.yaml"),
       "--field-manager", "m", "--subresource", "resize", "--live", scaler,
       scaler});
  EXPECT_EQ(resize.code, 1);
  EXPECT_THAT(resize.err,
              HasSubstr("realapi.smdx.dev/v1 Scaler has no subresource "
                        "\"resize\" (it has: scale, status)"));
  WriteFile(dir + "/pod.yaml",
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {a: b}}\n"
            "spec: {containers: [{name: c, image: 'nginx:1.27'}]}\n");
  WriteFile(dir + "/resize.yaml",
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {a: c}}\n"
            "spec: {containers: [{name: c, resources: {requests: "
            "{cpu: 100m}}}]}\n");
  // (Forced: the live pod has no entries, so before-first-apply owns its
  // label.)
  Result resized = Smdx({"apply", "--field-manager", "vpa", "--subresource",
                         "resize", "--force-conflicts", "--live",
                         dir + "/pod.yaml", dir + "/resize.yaml"});
  ASSERT_EQ(resized.code, 0) << resized.err;
  absl::StatusOr<Value> v = ParseYaml(resized.out);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(ToJson(*v->map().Find("metadata")->map().Find("labels")),
            R"({"a":"b"})");
  EXPECT_EQ(ToJson(*v->map()
                        .Find("spec")
                        ->map()
                        .Find("containers")
                        ->list()[0]
                        .map()
                        .Find("resources")),
            R"({"requests":{"cpu":"100m"}})");
}

// A custom resource's metadata goes through ObjectMeta's Go type, as the
// apiextensions-apiserver decodes it: an empty map of labels is no labels.
// An update's body is decoded before the field manager (its labels' owner
// loses them); an apply's result after it (the applier owns the empty
// labels that are not stored). What kube-apiserver 1.37 stored for the
// same requests.
TEST(CliTest, CustomResourceMetadataGoesThroughObjectMeta) {
  std::string dir = ::testing::TempDir();
  const std::string crd =
      smdx::testing::SourcePath("testdata/realapi/crds/configs.yaml");
  WriteFile(dir + "/config-apply.yaml",
            "apiVersion: realapi.smdx.dev/v1\nkind: Config\n"
            "metadata: {name: c1, labels: {}, annotations: {}}\n");
  Result applied = Smdx({"apply", "--schema", crd, "--field-manager",
                         "kubectl", dir + "/config-apply.yaml"});
  ASSERT_EQ(applied.code, 0) << applied.err;
  absl::StatusOr<Value> a = ParseYaml(applied.out);
  ASSERT_TRUE(a.ok());
  const Value* md = a->map().Find("metadata");
  EXPECT_EQ(md->map().Find("labels"), nullptr) << applied.out;
  EXPECT_EQ(md->map().Find("annotations"), nullptr) << applied.out;
  EXPECT_EQ(ToJson(*md->map().Find("managedFields")->list()[0].map().Find(
                "fieldsV1")),
            R"({"f:metadata":{"f:annotations":{},"f:labels":{}}})");

  WriteFile(dir + "/config-labelled.yaml",
            "apiVersion: realapi.smdx.dev/v1\nkind: Config\n"
            "metadata: {name: c2, labels: {a: b}}\n");
  Result labelled = Smdx({"apply", "--schema", crd, "--field-manager",
                          "kubectl", dir + "/config-labelled.yaml"});
  ASSERT_EQ(labelled.code, 0) << labelled.err;
  WriteFile(dir + "/config-live.yaml", labelled.out);
  WriteFile(dir + "/config-put.yaml",
            "apiVersion: realapi.smdx.dev/v1\nkind: Config\n"
            "metadata: {name: c2, labels: {}}\n");
  Result put = Smdx({"update", "--schema", crd, "--field-manager", "ctrl",
                     "--live", dir + "/config-live.yaml",
                     dir + "/config-put.yaml"});
  ASSERT_EQ(put.code, 0) << put.err;
  absl::StatusOr<Value> u = ParseYaml(put.out);
  ASSERT_TRUE(u.ok());
  md = u->map().Find("metadata");
  EXPECT_EQ(md->map().Find("labels"), nullptr) << put.out;
  EXPECT_EQ(md->map().Find("managedFields"), nullptr) << put.out;

  // An empty managedFields list goes the same way, so it resets nothing
  // (a built-in kind's would): the live entries count.
  WriteFile(dir + "/config-put.yaml",
            "apiVersion: realapi.smdx.dev/v1\nkind: Config\n"
            "metadata: {name: c2, labels: {a: b}, managedFields: []}\n"
            "spec: {tier: gold}\n");
  Result reset = Smdx({"update", "--schema", crd, "--field-manager", "ctrl",
                       "--live", dir + "/config-live.yaml",
                       dir + "/config-put.yaml"});
  ASSERT_EQ(reset.code, 0) << reset.err;
  EXPECT_THAT(reset.out, HasSubstr("manager: kubectl")) << reset.out;
}

// A request goes to the version its body names, as kubectl sends it, and
// the apiserver reads the stored object at that version: a live object
// read at another version of the same resource is read at the request's.
// Kubernetes' TestUpdateStatusWithOldVersion: a status write at v1beta1
// that also changes the spec, over an object applied at v1. kube-apiserver
// 1.37.2 answers at v1beta1, drops the spec change, and keeps apply_test's
// v1 entry as it was (the status endpoint's resets hold at every version).
TEST(CliTest, ARequestAtAnotherVersionReadsTheLiveObjectThere) {
  std::string dir = ::testing::TempDir();
  const std::string crd =
      smdx::testing::SourcePath("testdata/crds/myresources.yaml");
  WriteFile(dir + "/mr-v1.yaml",
            "apiVersion: example.com/v1\nkind: MyResource\n"
            "metadata: {name: mytest, namespace: ns}\n"
            "spec: {a: value-for-a, b: value-for-b}\n");
  Result applied = Smdx({"apply", "--schema", crd, "--field-manager",
                         "apply_test", "--now", "2026-01-01T00:00:00Z",
                         dir + "/mr-v1.yaml"});
  ASSERT_EQ(applied.code, 0) << applied.err;
  WriteFile(dir + "/mr-live.yaml", applied.out);
  WriteFile(dir + "/mr-status.yaml",
            "apiVersion: example.com/v1beta1\nkind: MyResource\n"
            "metadata: {name: mytest, namespace: ns}\n"
            "spec: {a: value-for-a-update, b: value-for-b}\n"
            "status: {a: status-for-a}\n");
  Result status = Smdx({"update", "--schema", crd, "--field-manager",
                        "subresource_test", "--subresource", "status", "--now",
                        "2026-01-01T00:00:02Z", "--live", dir + "/mr-live.yaml",
                        dir + "/mr-status.yaml"});
  ASSERT_EQ(status.code, 0) << status.err;
  absl::StatusOr<Value> got = ParseYaml(status.out);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, Yaml(R"(apiVersion: example.com/v1beta1
kind: MyResource
metadata:
  name: mytest
  namespace: ns
  generation: 1
  managedFields:
  - manager: apply_test
    operation: Apply
    apiVersion: example.com/v1
    time: "2026-01-01T00:00:00Z"
    fieldsType: FieldsV1
    fieldsV1: {"f:spec": {"f:a": {}, "f:b": {}}}
  - manager: subresource_test
    operation: Update
    apiVersion: example.com/v1beta1
    time: "2026-01-01T00:00:02Z"
    fieldsType: FieldsV1
    fieldsV1: {"f:status": {".": {}, "f:a": {}}}
    subresource: status
spec: {a: value-for-a, b: value-for-b}
status: {a: status-for-a}
)")) << status.out;

  // An apply at v1beta1 over the object read at v1: no badRequest, and the
  // applier's entry is at v1beta1.
  WriteFile(dir + "/mr-apply.yaml",
            "apiVersion: example.com/v1beta1\nkind: MyResource\n"
            "metadata: {name: mytest, namespace: ns}\nspec: {b: other}\n");
  Result apply = Smdx({"apply", "--schema", crd, "--field-manager", "y",
                       "--force-conflicts", "--now", "2026-01-01T00:00:03Z",
                       "--live", dir + "/mr-live.yaml",
                       dir + "/mr-apply.yaml"});
  ASSERT_EQ(apply.code, 0) << apply.err;
  EXPECT_THAT(apply.out, HasSubstr("apiVersion: example.com/v1beta1\nkind"));
  EXPECT_THAT(apply.out, HasSubstr("manager: \"y\"\n    operation: Apply\n"
                                   "    apiVersion: example.com/v1beta1"))
      << apply.out;
  // diff shows the live object at the request's version too: only what the
  // apply changes differs.
  Result diff = Smdx({"diff", "--schema", crd, "--field-manager", "y",
                      "--force-conflicts", dir + "/mr-live.yaml",
                      dir + "/mr-apply.yaml"});
  EXPECT_EQ(diff.code, 1) << diff.err;
  EXPECT_THAT(diff.out,
              HasSubstr("--- live/example.com/v1beta1/MyResource/ns/mytest\n"))
      << diff.out;
  EXPECT_THAT(diff.out, Not(HasSubstr("-apiVersion"))) << diff.out;
  EXPECT_THAT(diff.out, HasSubstr("-  b: value-for-b\n+  b: other\n"))
      << diff.out;
}

// A HorizontalPodAutoscaler applied at autoscaling/v2 and its status then
// written at autoscaling/v1 over the object as read at v2: smdx reads it at
// v1 as the apiserver's scheme converts it (the CPU metric becomes
// targetCPUUtilizationPercentage). kube-apiserver 1.37.2 answered this PUT
// with the same object and entries.
TEST(CliTest, AStatusWriteAtV1ReadsAnHpaStoredAtV2AtV1) {
  std::string dir = ::testing::TempDir();
  WriteFile(dir + "/hpa-v2.yaml", R"(apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: h, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: d}
  maxReplicas: 5
  metrics:
  - type: Resource
    resource:
      name: cpu
      target: {type: Utilization, averageUtilization: 50}
)");
  Result applied = Smdx({"apply", "--now", "2026-01-01T00:00:00Z",
                         dir + "/hpa-v2.yaml"});
  ASSERT_EQ(applied.code, 0) << applied.err;
  WriteFile(dir + "/hpa-live.yaml", applied.out);
  WriteFile(dir + "/hpa-status.yaml", R"(apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: h, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: d}
  maxReplicas: 5
  targetCPUUtilizationPercentage: 50
status: {currentReplicas: 1, desiredReplicas: 2}
)");
  Result status = Smdx({"update", "--field-manager", "st", "--subresource",
                        "status", "--now", "2026-01-01T00:00:01Z", "--live",
                        dir + "/hpa-live.yaml", dir + "/hpa-status.yaml"});
  ASSERT_EQ(status.code, 0) << status.err;
  EXPECT_EQ(status.err, "");
  absl::StatusOr<Value> got = ParseYaml(status.out);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, Yaml(R"(apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata:
  name: h
  namespace: default
  generation: 1
  managedFields:
  - manager: kubectl
    operation: Apply
    apiVersion: autoscaling/v2
    time: "2026-01-01T00:00:00Z"
    fieldsType: FieldsV1
    fieldsV1: {"f:spec": {"f:maxReplicas": {}, "f:metrics": {},
      "f:scaleTargetRef": {"f:apiVersion": {}, "f:kind": {}, "f:name": {}}}}
  - manager: st
    operation: Update
    apiVersion: autoscaling/v1
    time: "2026-01-01T00:00:01Z"
    fieldsType: FieldsV1
    fieldsV1: {"f:status": {"f:currentReplicas": {}, "f:desiredReplicas": {}}}
    subresource: status
spec:
  scaleTargetRef: {kind: Deployment, name: d, apiVersion: apps/v1}
  minReplicas: 1
  maxReplicas: 5
  targetCPUUtilizationPercentage: 50
status: {currentReplicas: 1, desiredReplicas: 2}
)")) << status.out;
}

// A create or update whose owner references repeat one: the apiserver's
// request handler drops the repeat before the field manager and says so in
// a warning (dedupOwnerReferences; Kubernetes' TestDedupOwnerReferences).
// kube-apiserver 1.37.2 stored this ConfigMap with one reference and the
// same entry, and sent this warning. A reference of the same uid that
// differs stays.
TEST(CliTest, AnUpdateDropsRepeatedOwnerReferencesWithTheServersWarning) {
  std::string dir = ::testing::TempDir();
  const std::string ref =
      "{apiVersion: v1, kind: ConfigMap, name: fake-configmap, "
      "uid: 11111111-2222-3333-4444-555555555555}";
  WriteFile(dir + "/cm-dup.yaml",
            "apiVersion: v1\nkind: ConfigMap\n"
            "metadata:\n  name: dep\n  namespace: ns\n  ownerReferences:\n"
            "  - " + ref + "\n  - " + ref + "\ndata: {a: b}\n");
  Result created = Smdx({"update", "--field-manager", "creator", "--now",
                         "2026-01-01T00:00:00Z", dir + "/cm-dup.yaml"});
  ASSERT_EQ(created.code, 0) << created.err;
  EXPECT_EQ(created.err,
            "warning: ConfigMap ns/dep (" + dir +
                "/cm-dup.yaml): .metadata.ownerReferences contains duplicate "
                "entries; API server dedups owner references in 1.20+, and "
                "may reject such requests as early as 1.24; please fix your "
                "requests; duplicate UID(s) observed: "
                "11111111-2222-3333-4444-555555555555\n");
  absl::StatusOr<Value> got = ParseYaml(created.out);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, Yaml(R"(apiVersion: v1
kind: ConfigMap
metadata:
  name: dep
  namespace: ns
  ownerReferences:
  - {apiVersion: v1, kind: ConfigMap, name: fake-configmap,
     uid: 11111111-2222-3333-4444-555555555555}
  managedFields:
  - manager: creator
    operation: Update
    apiVersion: v1
    time: "2026-01-01T00:00:00Z"
    fieldsType: FieldsV1
    fieldsV1: {"f:data": {".": {}, "f:a": {}}, "f:metadata": {
      "f:ownerReferences": {".": {},
        "k:{\"uid\":\"11111111-2222-3333-4444-555555555555\"}": {}}}}
data: {a: b}
)")) << created.out;

  // The same uid under another name is no repeat: both stay, silently.
  WriteFile(dir + "/cm-same-uid.yaml",
            "apiVersion: v1\nkind: ConfigMap\n"
            "metadata:\n  name: dep\n  namespace: ns\n  ownerReferences:\n"
            "  - " + ref + "\n  - {apiVersion: v1, kind: ConfigMap, name: "
            "other, uid: 11111111-2222-3333-4444-555555555555}\n"
            "data: {a: b}\n");
  Result kept = Smdx({"update", "--field-manager", "creator", "--now",
                      "2026-01-01T00:00:00Z", dir + "/cm-same-uid.yaml"});
  ASSERT_EQ(kept.code, 0) << kept.err;
  EXPECT_EQ(kept.err, "");
  EXPECT_THAT(kept.out, HasSubstr("name: other")) << kept.out;
}

// An update that writes a list item twice, while a manager's entry is at
// another version of the custom resource: the apiserver converts the
// written object to that version, and its converter's strict typing fails
// on the duplicates, so the field manager takes nothing and the object is
// stored with the live entries (found by the random real-apiserver
// scenarios; Kubernetes 1.37 logs "failed to convert new object").
TEST(CliTest, DuplicatesWrittenWhereAnEntryIsAtAnotherVersionKeepTheEntries) {
  std::string dir = ::testing::TempDir();
  const std::string crd =
      smdx::testing::SourcePath("testdata/crds/widgets.yaml");
  WriteFile(dir + "/widget-v2.yaml",
            "apiVersion: example.com/v2\nkind: Widget\n"
            "metadata: {name: w, namespace: ns}\n"
            "spec: {env: [{name: A, value: '1'}]}\n");
  Result applied = Smdx({"apply", "--schema", crd, "--field-manager", "kubectl",
                         "--now", "2026-01-01T00:00:00Z",
                         dir + "/widget-v2.yaml"});
  ASSERT_EQ(applied.code, 0) << applied.err;
  // The object as read at v1, with its entry at v2.
  absl::StatusOr<Value> live = ParseYaml(applied.out);
  ASSERT_TRUE(live.ok());
  live->map().Set("apiVersion", Value("example.com/v1"));
  WriteFile(dir + "/widget-live.yaml", ToYaml(*live));
  Value twice = *live;
  twice.map().Find("spec")->map().Set(
      "env", Yaml("[{name: A, value: '1'}, {name: A, value: '1'}]"));
  WriteFile(dir + "/widget-put.yaml", ToYaml(twice));
  const std::vector<std::string> put = {
      "update", "--schema", crd, "--field-manager", "ctrl", "--now",
      "2026-01-01T00:01:00Z", "--live", dir + "/widget-live.yaml",
      dir + "/widget-put.yaml"};
  Result at_v1 = Smdx(put);
  ASSERT_EQ(at_v1.code, 0) << at_v1.err;
  EXPECT_THAT(at_v1.err,
              HasSubstr("the managed fields were not updated (failed to "
                        "convert new object: .spec.env: duplicate entries for "
                        "key [name=\"A\"])"));
  EXPECT_THAT(at_v1.out, Not(HasSubstr("manager: ctrl"))) << at_v1.out;
  EXPECT_THAT(at_v1.out, HasSubstr("manager: kubectl")) << at_v1.out;

  // At the entry's version nothing is converted: the writer owns the item.
  live->map().Set("apiVersion", Value("example.com/v2"));
  twice.map().Set("apiVersion", Value("example.com/v2"));
  WriteFile(dir + "/widget-live.yaml", ToYaml(*live));
  WriteFile(dir + "/widget-put.yaml", ToYaml(twice));
  Result at_v2 = Smdx(put);
  ASSERT_EQ(at_v2.code, 0) << at_v2.err;
  EXPECT_EQ(at_v2.err, "");
  EXPECT_THAT(at_v2.out, HasSubstr("manager: ctrl")) << at_v2.out;
}

// An upgraded cluster's objects carry managedFields entries of apiVersions
// the apiserver no longer serves. Its converter cannot reach them, so the
// next write drops them (structured-merge-diff's IsMissingVersionError),
// and they conflict with nothing; kube-apiserver 1.37 drops the entries of
// testdata/realapi/kinds/deployment.yaml's PUT so.
TEST(CliTest, EntriesOfVersionsNoLongerServedGoWithTheNextWrite) {
  std::string dir = ::testing::TempDir();
  WriteFile(dir + "/upgraded-live.yaml", R"(apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  namespace: ns
  labels: {app: web}
  managedFields:
  - {manager: old-kubectl, operation: Update, apiVersion: extensions/v1beta1,
     time: "2020-01-01T00:00:00Z", fieldsType: FieldsV1,
     fieldsV1: {"f:metadata": {"f:labels": {"f:app": {}}},
                "f:spec": {"f:replicas": {}}}}
  - {manager: beta-applier, operation: Apply, apiVersion: apps/v1beta2,
     time: "2020-01-01T00:00:00Z", fieldsType: FieldsV1,
     fieldsV1: {"f:spec": {"f:revisionHistoryLimit": {}}}}
  - {manager: kubectl, operation: Apply, apiVersion: apps/v1,
     time: "2020-01-01T00:00:00Z", fieldsType: FieldsV1,
     fieldsV1: {"f:metadata": {"f:labels": {"f:app": {}}}}}
spec:
  replicas: 2
  revisionHistoryLimit: 5
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: nginx}]}
)");
  WriteFile(dir + "/upgraded-config.yaml",
            "apiVersion: apps/v1\nkind: Deployment\n"
            "metadata: {name: d, namespace: ns}\n"
            "spec: {replicas: 5, revisionHistoryLimit: 3}\n");
  Result r = Smdx({"apply", "--field-manager", "scaler", "--now",
                   "2026-01-01T00:00:00Z", "--live",
                   dir + "/upgraded-live.yaml",
                   dir + "/upgraded-config.yaml"});
  ASSERT_EQ(r.code, 0) << r.err;
  absl::StatusOr<Value> out = ParseYaml(r.out);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_THAT(EntryVersions(*out), ::testing::ElementsAre("kubectl apps/v1",
                                              "scaler apps/v1"));
  const Value* replicas = Find(*Find(*out, "spec"), "replicas");
  ASSERT_NE(replicas, nullptr);
  EXPECT_EQ(replicas->AsInt(), 5);

  // A served version's entry stays and conflicts: an HPA's autoscaling/v1
  // one on an autoscaling/v2 object, where an autoscaling/v2beta2 one goes.
  WriteFile(dir + "/hpa-live.yaml", R"(apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: h
  namespace: ns
  managedFields:
  - {manager: v1-client, operation: Apply, apiVersion: autoscaling/v1,
     time: "2020-01-01T00:00:00Z", fieldsType: FieldsV1,
     fieldsV1: {"f:spec": {"f:maxReplicas": {}}}}
  - {manager: beta-client, operation: Apply, apiVersion: autoscaling/v2beta2,
     time: "2020-01-01T00:00:00Z", fieldsType: FieldsV1,
     fieldsV1: {"f:spec": {"f:minReplicas": {}}}}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: d}
  minReplicas: 2
  maxReplicas: 4
)");
  WriteFile(dir + "/hpa-config.yaml",
            "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n"
            "metadata: {name: h, namespace: ns}\n"
            "spec: {minReplicas: 3, maxReplicas: 6}\n");
  Result hpa = Smdx({"apply", "--field-manager", "kubectl", "--now",
                     "2026-01-01T00:00:00Z", "--live", dir + "/hpa-live.yaml",
                     dir + "/hpa-config.yaml"});
  EXPECT_EQ(hpa.code, 2) << hpa.err;
  EXPECT_THAT(hpa.err, HasSubstr("conflict with \"v1-client\": "
                                 ".spec.maxReplicas"));
  EXPECT_THAT(hpa.err, Not(HasSubstr("beta-client")));
}

// An Event is served in the legacy core group (v1) and in events.k8s.io/v1,
// and the apiserver's converter types objects with the OpenAPI models of
// the groups installed with the request's (the core group's alone, or all
// the others'): an entry at the other group's version cannot be converted,
// so the next write drops it and it conflicts with nothing. kube-apiserver
// 1.37 drops them so in both directions (event.yaml's and
// event-core.yaml's writes).
TEST(CliTest, AnEventsEntriesOfTheOtherGroupGoWithTheNextWrite) {
  std::string dir = ::testing::TempDir();
  const struct {
    const char* api_version;  // the live object's and the request's
    const char* other;        // the other group's
    const char* field;        // what that entry owns (a different name
                              // for the same field), which the apply sets
  } kCases[] = {{"v1", "events.k8s.io/v1", "message"},
                {"events.k8s.io/v1", "v1", "note"}};
  for (const auto& c : kCases) {
    const std::string other_field =
        std::string(c.field) == "message" ? "note" : "message";
    WriteFile(dir + "/event-live.yaml",
              absl::StrCat("apiVersion: ", c.api_version, R"(
kind: Event
metadata:
  name: e
  namespace: ns
  labels: {app: web}
  managedFields:
  - {manager: recorder, operation: Apply, apiVersion: )",
                           c.other, R"(,
     time: "2020-01-01T00:00:00Z", fieldsType: FieldsV1,
     fieldsV1: {"f:)",
                           other_field, R"(": {}, "f:metadata": {"f:labels": {"f:app": {}}}}}
  - {manager: kubectl, operation: Apply, apiVersion: )",
                           c.api_version, R"(,
     time: "2020-01-01T00:00:00Z", fieldsType: FieldsV1,
     fieldsV1: {"f:type": {}}}
reason: Started
type: Normal
)",
                           c.field, ": started\n"));
    WriteFile(dir + "/event-config.yaml",
              absl::StrCat("apiVersion: ", c.api_version,
                           "\nkind: Event\nmetadata: {name: e, namespace: ns}\n",
                           c.field, ": restarted\n"));
    Result r = Smdx({"apply", "--field-manager", "writer", "--now",
                     "2026-01-01T00:00:00Z", "--live", dir + "/event-live.yaml",
                     dir + "/event-config.yaml"});
    ASSERT_EQ(r.code, 0) << c.api_version << ": " << r.err;
    absl::StatusOr<Value> out = ParseYaml(r.out);
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_THAT(EntryVersions(*out),
                ::testing::ElementsAre(absl::StrCat("kubectl ", c.api_version),
                                       absl::StrCat("writer ", c.api_version)))
        << c.api_version;
    EXPECT_EQ(StringAt(*out, c.field), "restarted") << c.api_version;
  }
}

// A custom resource's converter takes every version its CRD declares,
// served or not, and refuses any other with an error the field manager does
// not tell from a failure (kubernetes#111937: a CRD version removed while
// objects still had entries at it). kube-apiserver 1.37 answered a PUT with
// such an entry by storing the object with the live entries, and an apply
// to an object that kept one (its version declared, then removed) with a
// 500 of these words.
TEST(CliTest, CustomResourceEntriesOfUndeclaredVersionsFailTheFieldManager) {
  std::string dir = ::testing::TempDir();
  const std::string version_schema =
      "schema: {openAPIV3Schema: {type: object, properties: {spec: {type: "
      "object, properties: {a: {type: string}, b: {type: string}}}}}}";
  WriteFile(dir + "/things-crd.yaml",
            "apiVersion: apiextensions.k8s.io/v1\n"
            "kind: CustomResourceDefinition\n"
            "metadata: {name: things.t.smdx.dev}\n"
            "spec:\n  group: t.smdx.dev\n  scope: Cluster\n"
            "  names: {plural: things, singular: thing, kind: Thing}\n"
            "  versions:\n"
            "  - {name: v1, served: true, storage: true, " +
                version_schema + "}\n"
            "  - {name: v2, served: false, storage: false, " +
                version_schema + "}\n");
  auto live = [&](const char* other_version) {
    WriteFile(dir + "/thing-live.yaml",
              absl::StrCat(R"(apiVersion: t.smdx.dev/v1
kind: Thing
metadata:
  name: t1
  managedFields:
  - {manager: creator, operation: Update, apiVersion: t.smdx.dev/v1,
     time: "2026-01-01T00:00:00Z", fieldsType: FieldsV1,
     fieldsV1: {"f:spec": {".": {}, "f:a": {}, "f:b": {}}}}
  - {manager: other, operation: Apply, apiVersion: t.smdx.dev/)",
                           other_version, R"(,
     time: "2020-01-01T00:00:00Z", fieldsType: FieldsV1,
     fieldsV1: {"f:spec": {"f:b": {}}}}
spec: {a: "1", b: "2"}
)"));
  };
  WriteFile(dir + "/thing-put.yaml",
            "apiVersion: t.smdx.dev/v1\nkind: Thing\nmetadata: {name: t1}\n"
            "spec: {a: '1', b: changed}\n");
  WriteFile(dir + "/thing-apply.yaml",
            "apiVersion: t.smdx.dev/v1\nkind: Thing\nmetadata: {name: t1}\n"
            "spec: {a: applied}\n");
  auto run = [&](const char* verb, const char* object) {
    return Smdx({verb, "--schema", dir + "/things-crd.yaml",
                 "--field-manager", "writer", "--now", "2026-01-02T00:00:00Z",
                 "--live", dir + "/thing-live.yaml", dir + "/" + object});
  };

  // Declared, though not served: compared there; the writer takes b.
  live("v2");
  Result declared = run("update", "thing-put.yaml");
  ASSERT_EQ(declared.code, 0) << declared.err;
  EXPECT_EQ(declared.err, "");
  EXPECT_THAT(declared.out, HasSubstr("manager: writer"));

  live("v9");
  Result put = run("update", "thing-put.yaml");
  ASSERT_EQ(put.code, 0) << put.err;
  EXPECT_THAT(put.err,
              HasSubstr("the managed fields were not updated (request to "
                        "convert CR to an invalid group/version: "
                        "t.smdx.dev/v9)"));
  EXPECT_THAT(put.out, HasSubstr("b: changed"));
  EXPECT_THAT(put.out, Not(HasSubstr("manager: writer")));
  EXPECT_THAT(put.out, HasSubstr("apiVersion: t.smdx.dev/v9"));

  Result apply = run("apply", "thing-apply.yaml");
  EXPECT_EQ(apply.code, 1);
  EXPECT_THAT(apply.err, HasSubstr("request to convert CR to an invalid "
                                   "group/version: t.smdx.dev/v9"));
}

// autoscaling serves the HorizontalPodAutoscaler at v1 and v2, whose
// fields differ: a manager's fields are compared at its version, the
// objects converted as the apiserver's scheme converts them. kubectl
// applied v2 metrics; an old client's v1 CPU target is v2's metrics, so
// kube-apiserver 1.37 answers its apply with conflicts on both fields.
TEST(CliTest, HpaManagersAtTheOtherVersionAreComparedThere) {
  std::string dir = ::testing::TempDir();
  // As the server gave it back at v1, after kubectl's apply at v2.
  WriteFile(dir + "/hpa-v1-live.yaml", R"(apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata:
  name: a
  namespace: h
  generation: 1
  managedFields:
  - {manager: kubectl, operation: Apply, apiVersion: autoscaling/v2,
     time: "2026-12-06T18:44:03Z", fieldsType: FieldsV1,
     fieldsV1: {"f:spec": {"f:maxReplicas": {}, "f:metrics": {},
       "f:scaleTargetRef": {"f:apiVersion": {}, "f:kind": {}, "f:name": {}}}}}
spec:
  scaleTargetRef: {kind: Deployment, name: d, apiVersion: apps/v1}
  minReplicas: 1
  maxReplicas: 5
  targetCPUUtilizationPercentage: 70
status: {currentReplicas: 0, desiredReplicas: 0}
)");
  auto config = [&](const std::string& spec) {
    WriteFile(dir + "/hpa-v1-config.yaml",
              "apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\n"
              "metadata: {name: a, namespace: h}\nspec: {scaleTargetRef: "
              "{apiVersion: apps/v1, kind: Deployment, name: d}, " +
                  spec + "}\n");
    return Smdx({"apply", "--field-manager", "old", "--now",
                 "2026-12-06T18:45:00Z", "--live", dir + "/hpa-v1-live.yaml",
                 dir + "/hpa-v1-config.yaml"});
  };
  Result both = config("maxReplicas: 6, targetCPUUtilizationPercentage: 50");
  EXPECT_EQ(both.code, 2) << both.err;
  EXPECT_THAT(both.err, HasSubstr("Apply failed with 2 conflicts: conflicts "
                                  "with \"kubectl\":\n- .spec.maxReplicas\n"
                                  "- .spec.metrics"));
  // The same target, and so the same v2 metrics: no conflict, and the old
  // client shares them.
  Result same = config("maxReplicas: 5, targetCPUUtilizationPercentage: 70");
  ASSERT_EQ(same.code, 0) << same.err;
  EXPECT_THAT(same.out, HasSubstr("manager: old"));
}

// An applier that moves from autoscaling/v2 to v1 has what it stopped
// applying pruned at v2, where it applied it, the objects typed as v2's
// there: kube-apiserver 1.37 took out its minReplicas and its behavior (the
// v1 annotation goes), and kept the metrics, which v1's CPU target and
// annotation still say.
TEST(CliTest, AnApplierThatChangesVersionIsPrunedAtItsLastOne) {
  std::string dir = ::testing::TempDir();
  WriteFile(dir + "/moved-live.yaml", R"(apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata:
  name: p
  namespace: h
  annotations:
    autoscaling.alpha.kubernetes.io/behavior: '{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15},{"Type":"Percent","Value":100,"PeriodSeconds":15}],"Tolerance":null},"ScaleDown":{"StabilizationWindowSeconds":60,"SelectPolicy":"Max","Policies":[{"Type":"Percent","Value":100,"PeriodSeconds":15}],"Tolerance":null}}'
    autoscaling.alpha.kubernetes.io/metrics: '[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10"}}]'
  managedFields:
  - manager: kubectl
    operation: Apply
    apiVersion: autoscaling/v2
    time: "2026-12-06T20:38:36Z"
    fieldsType: FieldsV1
    fieldsV1: {"f:spec": {"f:behavior": {"f:scaleDown":
      {"f:stabilizationWindowSeconds": {}}}, "f:maxReplicas": {},
      "f:metrics": {}, "f:minReplicas": {}, "f:scaleTargetRef":
      {"f:apiVersion": {}, "f:kind": {}, "f:name": {}}}}
spec:
  scaleTargetRef: {kind: Deployment, name: d, apiVersion: apps/v1}
  minReplicas: 2
  maxReplicas: 5
  targetCPUUtilizationPercentage: 60
status: {currentReplicas: 0, desiredReplicas: 0}
)");
  WriteFile(dir + "/moved-config.yaml",
            "apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\n"
            "metadata: {name: p, namespace: h}\nspec: {scaleTargetRef: "
            "{apiVersion: apps/v1, kind: Deployment, name: d}, "
            "maxReplicas: 6}\n");
  Result r = Smdx({"apply", "--field-manager", "kubectl", "--now",
                   "2026-12-06T20:39:00Z", "--live", dir + "/moved-live.yaml",
                   dir + "/moved-config.yaml"});
  ASSERT_EQ(r.code, 0) << r.err;
  absl::StatusOr<Value> out = ParseYaml(r.out);
  ASSERT_TRUE(out.ok()) << out.status();
  const Value& spec = *Find(*out, "spec");
  EXPECT_EQ(Find(spec, "minReplicas")->AsInt(), 1);  // pruned, defaulted
  EXPECT_EQ(Find(spec, "maxReplicas")->AsInt(), 6);
  EXPECT_EQ(Find(spec, "targetCPUUtilizationPercentage")->AsInt(), 60);
  const Value& annotations = *Find(*Find(*out, "metadata"), "annotations");
  EXPECT_EQ(Find(annotations, "autoscaling.alpha.kubernetes.io/behavior"),
            nullptr);
  EXPECT_NE(Find(annotations, "autoscaling.alpha.kubernetes.io/metrics"),
            nullptr);
}

// A cluster's OpenAPI says which versions it serves a built-in kind at
// (beta ones it turned on, say): there the entries of other versions go,
// and those of its versions stay. Of a kind that is not built in (an
// aggregated API's, or a custom resource's without its CRD) it does not say
// what the apiserver takes, and every entry stays.
TEST(CliTest, TheDocumentsKindsAreTheVersionsServed) {
  std::string dir = ::testing::TempDir();
  auto definition = [](const std::string& name, const std::string& group,
                       const std::string& version, const std::string& kind) {
    return absl::StrCat("\"", name, "\": {\"type\": \"object\",",
                        R"("x-kubernetes-group-version-kind": [{"group": ")",
                        group, R"(", "version": ")", version,
                        R"(", "kind": ")", kind, R"("}],
      "properties": {"apiVersion": {"type": "string"},
        "kind": {"type": "string"},
        "metadata": {"type": "object", "properties": {
          "name": {"type": "string"},
          "managedFields": {"type": "array", "items": {"type": "object",
            "x-kubernetes-preserve-unknown-fields": true}}}},
        "spec": {"type": "object", "properties": {
          "a": {"type": "string"}, "b": {"type": "string"}}}}})");
  };
  WriteFile(dir + "/cluster-openapi.json",
            absl::StrCat(
                R"({"swagger": "2.0", "info": {"title": "t", "version": "1"},
                   "paths": {}, "definitions": {)",
                definition("io.k8s.api.apps.v1.Deployment", "apps", "v1",
                           "Deployment"),
                ",",
                definition("io.k8s.api.apps.v1beta2.Deployment", "apps",
                           "v1beta2", "Deployment"),
                ",",
                definition("com.example.v1.Thing", "example.com", "v1",
                           "Thing"),
                "}}"));
  auto apply = [&](const std::string& api_version, const std::string& kind) {
    WriteFile(dir + "/docs-live.yaml", absl::StrCat(
                                           "apiVersion: ", api_version,
                                           "\nkind: ", kind, R"(
metadata:
  name: t
  managedFields:
  - {manager: at-v1beta2, operation: Apply, apiVersion: apps/v1beta2,
     time: "2020-01-01T00:00:00Z", fieldsType: FieldsV1,
     fieldsV1: {"f:spec": {"f:a": {}}}}
  - {manager: at-v1beta1, operation: Apply, apiVersion: extensions/v1beta1,
     time: "2020-01-01T00:00:00Z", fieldsType: FieldsV1,
     fieldsV1: {"f:spec": {"f:b": {}}}}
spec: {a: x, b: "y"}
)"));
    WriteFile(dir + "/docs-config.yaml",
              absl::StrCat("apiVersion: ", api_version, "\nkind: ", kind,
                           "\nmetadata: {name: t}\nspec: {b: z}\n"));
    return Smdx({"apply", "--schema", dir + "/cluster-openapi.json",
                 "--field-manager", "me", "--now", "2026-01-01T00:00:00Z",
                 "--live", dir + "/docs-live.yaml",
                 dir + "/docs-config.yaml"});
  };
  Result deployment = apply("apps/v1", "Deployment");
  ASSERT_EQ(deployment.code, 0) << deployment.err;
  EXPECT_THAT(deployment.out, HasSubstr("manager: at-v1beta2"));
  EXPECT_THAT(deployment.out, Not(HasSubstr("at-v1beta1")));
  EXPECT_THAT(deployment.out, HasSubstr("b: z"));
  // Of a Thing: the entry of extensions/v1beta1 stays, and conflicts.
  Result thing = apply("example.com/v1", "Thing");
  EXPECT_EQ(thing.code, 2) << thing.err;
  EXPECT_THAT(thing.err, HasSubstr("conflict with \"at-v1beta1\""));
}

// A custom resource's nulls as the apiserver decodes them: its metadata
// through ObjectMeta (a null label or annotation value is ""), its other
// nulls pruned where the schema gives the place a type and no default
// (int-or-string map values included) or defaulted where it gives one.
TEST(CliTest, NullsOfACustomResourceAreDecodedAsTheApiserverDoes) {
  std::string dir = ::testing::TempDir();
  const std::string crd =
      smdx::testing::SourcePath("testdata/crds/widgets.yaml");
  WriteFile(dir + "/widget-nulls.yaml",
            "apiVersion: example.com/v1\nkind: Widget\n"
            "metadata: {name: w, namespace: ns, labels: {tier: null, app: a},\n"
            "  annotations: {note: null}}\n"
            "spec: {mode: null, template: {image: x,\n"
            "  limits: {cpu: null, memory: 1Gi}}}\n");
  Result applied = Smdx({"apply", "--schema", crd, "--field-manager", "kubectl",
                         "--now", "2026-01-01T00:00:00Z",
                         dir + "/widget-nulls.yaml"});
  ASSERT_EQ(applied.code, 0) << applied.err;
  absl::StatusOr<Value> got = ParseYaml(applied.out);
  ASSERT_TRUE(got.ok()) << applied.out;
  const Value* meta = Find(*got, "metadata");
  ASSERT_NE(meta, nullptr);
  EXPECT_EQ(ToJsonSorted(*Find(*meta, "labels")),
            R"({"app":"a","tier":""})");
  EXPECT_EQ(ToJsonSorted(*Find(*meta, "annotations")), R"({"note":""})");
  const Value* spec = Find(*got, "spec");
  ASSERT_NE(spec, nullptr);
  EXPECT_EQ(ToJsonSorted(*Find(*spec, "mode")), R"("auto")");
  EXPECT_EQ(ToJsonSorted(*Find(*Find(*spec, "template"), "limits")),
            R"({"memory":"1Gi"})");
}

// A custom resource's metadata is decoded into ObjectMeta on its own: a
// label that is a number is the apiserver's 400 for a write, named from
// ObjectMeta (checked against kube-apiserver 1.37 by POST).
TEST(CliTest, ACustomResourcesMetadataTheGoTypeCannotHoldIsRefused) {
  std::string dir = ::testing::TempDir();
  const std::string crd =
      smdx::testing::SourcePath("testdata/crds/widgets.yaml");
  WriteFile(dir + "/widget-label.yaml",
            "apiVersion: example.com/v1\nkind: Widget\n"
            "metadata: {name: w, namespace: ns, labels: {tier: 7}}\n"
            "spec: {template: {image: x}}\n");
  Result r = Smdx({"update", "--schema", crd, "--field-manager", "m",
                   dir + "/widget-label.yaml"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, HasSubstr("Widget in version \"v1\" cannot be handled "
                               "as a Widget: json: cannot unmarshal number "
                               "into Go struct field ObjectMeta.labels of "
                               "type string"));
}

TEST(CliTest, ImmutabilityViolationIsReportedApartFromConflicts) {
  std::string dir = ::testing::TempDir();
  WriteFile(
      dir + "/imm-schema.yaml",
      "type: object\nproperties:\n  apiVersion: {type: string}\n"
      "  kind: {type: string}\n  spec:\n    type: object\n    properties:\n"
      "      image: {type: string}\n      volume: {type: string, "
      "x-kubernetes-immutable: true}\n");
  WriteFile(dir + "/c1.yaml",
            "apiVersion: v1\nkind: Thing\nspec: {image: a, volume: data-1}\n");
  WriteFile(dir + "/c2.yaml",
            "apiVersion: v1\nkind: Thing\nspec: {image: b, volume: data-2}\n");
  Result first = Smdx({"apply", "--schema", dir + "/imm-schema.yaml",
                       "--manager", "ctl", dir + "/c1.yaml"});
  ASSERT_EQ(first.code, 0) << first.err;
  WriteFile(dir + "/live-imm.yaml", first.out);
  Result second =
      Smdx({"apply", "--schema", dir + "/imm-schema.yaml", "--manager", "ctl",
            "--force", "--live", dir + "/live-imm.yaml", dir + "/c2.yaml"});
  EXPECT_EQ(second.code, 1);
  EXPECT_EQ(second.err, "error (immutable): Thing (" + dir +
                            "/c2.yaml): .spec.volume: is immutable\n");
}

TEST(CliTest, DefaultAndSchemaConvert) {
  std::string dir = ::testing::TempDir();
  WriteFile(dir + "/d-schema.yaml",
            "type: object\nproperties:\n  foo:\n    type: object\n    default: "
            "{b: def}\n"
            "    properties:\n      a: {type: string, default: abc}\n      b: "
            "{type: string}\n");
  WriteFile(dir + "/empty.yaml", "{}\n");
  Result d = Smdx(
      {"default", "--schema", dir + "/d-schema.yaml", dir + "/empty.yaml"});
  ASSERT_EQ(d.code, 0) << d.err;
  absl::StatusOr<Value> v = ParseYaml(d.out);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, *ParseYaml("foo: {a: abc, b: def}"));
  Result c = Smdx({"schema", "convert", dir + "/d-schema.yaml"});
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_NE(c.out.find("default: abc"), std::string::npos) << c.out;
}

TEST(CliTest, ErrorsGoToStderrWithNonZeroExit) {
  Result missing = Smdx({"validate", "/nonexistent.yaml"});
  EXPECT_NE(missing.code, 0);
  EXPECT_NE(missing.err.find("cannot read"), std::string::npos);
  Result unknown = Smdx({"frobnicate"});
  EXPECT_EQ(unknown.code, 2);
  Result bad_flag = Smdx({"validate", "--nope", "x"});
  EXPECT_EQ(bad_flag.code, 2);
  Result bad_schema =
      Smdx({"list-types", "--schema", Shared("testdata/smd/bad-schema.yaml")});
  EXPECT_NE(bad_schema.code, 0);
  EXPECT_NE(bad_schema.err.find("types[0]"), std::string::npos)
      << bad_schema.err;
}

TEST(CliTest, LimitFlagsHoldInputToThem) {
  const std::string deployment =
      smdx::testing::SourcePath("examples/deployment.yaml");
  ASSERT_EQ(Smdx({"validate", deployment}).code, 0);
  Result small = Smdx({"validate", "--max-object-bytes", "100", deployment});
  EXPECT_EQ(small.code, 1);
  EXPECT_THAT(small.err, HasSubstr("is over the max_object_bytes limit of "
                                   "100"));
  Result items = Smdx({"validate", "--max-list-items=0", deployment});
  EXPECT_EQ(items.code, 2);
  EXPECT_THAT(items.err, HasSubstr("--max-list-items: expected a positive "
                                   "whole number, got \"0\""));
  EXPECT_EQ(Smdx({"validate", "--max-depth", "x", deployment}).code, 2);
  Result shallow = Smdx({"validate", "--max-depth=3", deployment});
  EXPECT_EQ(shallow.code, 1);
  EXPECT_THAT(shallow.err, HasSubstr("is over the max_depth limit of 3"));
  EXPECT_EQ(
      Smdx({"validate", "--max-depth=100", "--max-list-items=100",
            "--max-yaml-nodes=1000", "--max-object-bytes=100000", deployment})
          .code,
      0);
}

}  // namespace
}  // namespace smdx::cli

namespace smdx::cli {
namespace {

// apply, update by another manager, then diff and blame, on the example
// Deployment with a fixed clock.
class KubeCommandsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // ctest runs the tests in parallel processes: one folder each.
    dir_ = ::testing::TempDir() + "/" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::create_directories(dir_);
    Result first = Smdx(
        {"apply", "--field-manager", "kubectl", "--now", "2026-11-23T10:00:00Z",
         smdx::testing::SourcePath("examples/deployment.yaml")});
    ASSERT_EQ(first.code, 0) << first.err;
    absl::StatusOr<Value> obj = ParseYaml(first.out);
    ASSERT_TRUE(obj.ok());
    obj->map().Find("spec")->map().Set("replicas", Value(int64_t{3}));
    WriteFile(dir_ + "/applied.yaml", first.out);
    WriteFile(dir_ + "/scaled-body.yaml", ToYaml(*obj));
    Result scaled = Smdx({"update", "--field-manager", "hpa", "--now",
                          "2026-11-23T10:05:00Z", "--live",
                          dir_ + "/applied.yaml", dir_ + "/scaled-body.yaml"});
    ASSERT_EQ(scaled.code, 0) << scaled.err;
    live_ = dir_ + "/live.yaml";
    WriteFile(live_, scaled.out);
  }

  std::string dir_, live_;
};

TEST_F(KubeCommandsTest, DiffReportsConflictsWithoutChangingAnything) {
  Result d =
      Smdx({"diff", "--field-manager", "kubectl", "--color", "never", live_,
            smdx::testing::SourcePath("examples/deployment-replicas.yaml")});
  EXPECT_EQ(d.code, 2) << d.err;
  EXPECT_EQ(d.out,
            "conflicts (the apply would fail; --force-conflicts takes the "
            "fields):\n  .spec.replicas  owned by \"hpa\" using "
            "apps/v1\n");
}

TEST_F(KubeCommandsTest, DiffShowsTheObjectAndTheOwnershipThatMoves) {
  Result d =
      Smdx({"diff", "--field-manager", "kubectl", "--force-conflicts",
            "--color", "never", live_,
            smdx::testing::SourcePath("examples/deployment-replicas.yaml")});
  EXPECT_EQ(d.code, 1) << d.err;
  EXPECT_NE(d.out.find("--- live/apps/v1/Deployment/kube-system/"
                       "kube-dns\n+++ applied/apps/v1/Deployment/"
                       "kube-system/kube-dns (field manager kubectl)\n"),
            std::string::npos)
      << d.out;
  EXPECT_NE(d.out.find("\n-  replicas: 3\n"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("\n+  replicas: 5\n"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("ownership changes:\n"
                       "  kubectl gains 1 field:\n"
                       "    .spec.replicas  (taken from hpa)\n"
                       "  hpa loses 1 field:\n"
                       "    .spec.replicas\n"),
            std::string::npos)
      << d.out;
  // managedFields are not part of the object diff.
  EXPECT_EQ(d.out.find("managedFields"), std::string::npos) << d.out;
}

TEST_F(KubeCommandsTest, DiffOfANoOpIsEmpty) {
  Result d = Smdx({"diff", "--field-manager", "kubectl", live_,
                   smdx::testing::SourcePath("examples/deployment.yaml")});
  EXPECT_EQ(d.code, 0) << d.err;
  EXPECT_EQ(d.out, "");
}

TEST_F(KubeCommandsTest, DiffWithoutALiveObjectShowsACreate) {
  Result d = Smdx({"diff", "--color", "never",
                   smdx::testing::SourcePath("examples/scale.yaml")});
  EXPECT_EQ(d.code, 1) << d.err;
  EXPECT_NE(d.out.find("--- live/apps/v1/Deployment/kube-system/"
                       "kube-dns\n"),
            std::string::npos)
      << d.out;
  EXPECT_NE(d.out.find("@@ -0,0 +1,"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("\n+  replicas: 10\n"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("  kubectl gains 1 field:\n    .spec.replicas\n"),
            std::string::npos)
      << d.out;
}

TEST_F(KubeCommandsTest, BlameNamesTheOwnerOfEveryLine) {
  Result b = Smdx({"blame", live_});
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_NE(b.out.find("managers:\n"
                       "  kubectl  Apply   apps/v1  "
                       "2026-11-23T10:00:00Z  "),
            std::string::npos)
      << b.out;
  EXPECT_NE(b.out.find("\n  hpa      Update  apps/v1  "
                       "2026-11-23T10:05:00Z  1 field\n\n"),
            std::string::npos)
      << b.out;
  EXPECT_NE(b.out.find("hpa     |   replicas: 3\n"), std::string::npos)
      << b.out;
  EXPECT_NE(b.out.find("kubectl |       - name: kubedns\n"), std::string::npos)
      << b.out;
  // Fields nobody owns have an empty owner column.
  EXPECT_NE(b.out.find("        | kind: Deployment\n"), std::string::npos)
      << b.out;
}

TEST_F(KubeCommandsTest, RequestsForAnotherResourceAreRejected) {
  WriteFile(dir_ + "/v1beta1.yaml",
            "apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata: "
            "{name: kube-dns}\n");
  Result r = Smdx({"apply", "--live", live_, dir_ + "/v1beta1.yaml"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "error (badRequest): Deployment kube-dns (" + dir_ +
                       "/v1beta1.yaml): invalid object type: "
                       "extensions/v1beta1, Kind=Deployment\n");
  Result u = Smdx({"update", "--live", live_, dir_ + "/v1beta1.yaml"});
  EXPECT_EQ(u.code, 1);
  EXPECT_NE(u.err.find("--field-manager"), std::string::npos);
}

}  // namespace
}  // namespace smdx::cli
