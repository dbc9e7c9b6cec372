// Many objects at once (streams, Lists, standard input, directories), and
// the first minutes with the command: help, version, errors that say why.
#include "cli/objects.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/commands.h"
#include "cli/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/test_util.h"
#include "smdx/value/parse.h"

namespace smdx::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class ObjectsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "/objects-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  std::string Write(const std::string& name, const std::string& text) {
    std::string path = dir_ + "/" + name;
    std::filesystem::create_directories(
        std::filesystem::path(path).parent_path());
    std::ofstream(path) << text;
    return path;
  }
  std::string dir_;
};

constexpr char kConfigMap[] = R"(apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: prod
data:
  mode: fast
)";

constexpr char kService[] = R"(apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: prod
spec:
  selector: {app: web}
  ports:
  - port: 80
    targetPort: 8080
)";

std::string WithValue(std::string text, const std::string& from,
                      const std::string& to) {
  return text.replace(text.find(from), from.size(), to);
}

std::vector<Value> Documents(const std::string& text) {
  absl::StatusOr<std::vector<Value>> docs = ParseYamlDocuments(text);
  EXPECT_TRUE(docs.ok()) << docs.status();
  return docs.ok() ? *docs : std::vector<Value>();
}

std::string Kind(const Value& v) { return v.map().Find("kind")->AsString(); }

TEST_F(ObjectsTest, ReadsStreamsListsDirectoriesAndStandardInput) {
  std::string stream = Write(
      "stream.yaml", absl::StrCat(kConfigMap, "---\n", kService, "---\n"));
  std::string list = Write(
      "list.json",
      R"({"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Secret","metadata":{"name":"a"}},{"apiVersion":"v1","kind":"Secret","metadata":{"name":"b"}}]})");
  Write("tree/one.yaml", kConfigMap);
  Write("tree/notes.txt", "not a manifest");
  Write("tree/sub/two.yml", kService);
  std::istringstream in(kService);
  InputObjects got =
      ReadObjects({stream, list, dir_ + "/tree", "-"}, false, Limits(), in);
  ASSERT_TRUE(got.errors.empty()) << got.errors[0];
  ASSERT_EQ(got.objects.size(), 6u);
  EXPECT_EQ(Describe(got.objects[0]),
            "ConfigMap prod/settings (" + stream + ", object 1)");
  EXPECT_EQ(Describe(got.objects[2]), "Secret a (" + list + ", object 1)");
  EXPECT_EQ(Describe(got.objects[4]),
            "ConfigMap prod/settings (" + dir_ + "/tree/one.yaml)");
  EXPECT_EQ(Describe(got.objects[5]), "Service prod/web (standard input)");
  // -R goes into subdirectories.
  std::istringstream none;
  EXPECT_EQ(ReadObjects({dir_ + "/tree"}, true, Limits(), none).objects.size(),
            2u);
}

TEST_F(ObjectsTest, ABadFileIsAnErrorOfItsOwn) {
  std::string good = Write("good.yaml", kConfigMap);
  std::string bad = Write("bad.yaml", "a: [1\n");
  std::string scalar = Write("scalar.yaml", "3\n---\n" + std::string(kService));
  std::istringstream none;
  InputObjects got = ReadObjects({bad, good, dir_ + "/missing.yaml", scalar},
                                 false, Limits(), none);
  ASSERT_EQ(got.objects.size(), 2u);
  ASSERT_EQ(got.errors.size(), 3u);
  EXPECT_THAT(std::string(got.errors[0].message()),
              HasSubstr(bad + ": line 2"));
  EXPECT_EQ(std::string(got.errors[1].message()),
            dir_ +
                "/missing.yaml: cannot read the file: No such file or "
                "directory");
  EXPECT_EQ(std::string(got.errors[2].message()),
            scalar + ": document 1: expected an object, got integer");
}

TEST_F(ObjectsTest, PairsConfigurationsWithTheirLiveObjects) {
  std::string configs = Write(
      "configs.yaml",
      absl::StrCat(kConfigMap, "---\n", kService, "---\n",
                   WithValue(kConfigMap, "name: settings", "name: other")));
  Result created = Smdx({"apply", "--field-manager", "ci", "--now",
                         "2026-11-24T10:00:00Z", configs});
  ASSERT_EQ(created.code, 0) << created.err;
  std::vector<Value> live = Documents(created.out);
  ASSERT_EQ(live.size(), 3u);
  EXPECT_EQ(Kind(live[0]), "ConfigMap");
  EXPECT_EQ(Kind(live[1]), "Service");
  std::string live_path = Write("live.yaml", created.out);

  // Changes to two of them, in another order, from standard input.
  std::string change =
      absl::StrCat(WithValue(kService, "port: 80", "port: 81"), "---\n",
                   WithValue(kConfigMap, "mode: fast", "mode: safe"));
  Result applied = Smdx({"apply", "--field-manager", "ci", "--now",
                         "2026-11-24T10:05:00Z", "--live", live_path, "-"},
                        change);
  ASSERT_EQ(applied.code, 0) << applied.err;
  std::vector<Value> out = Documents(applied.out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(Kind(out[0]), "Service");
  EXPECT_EQ(out[0]
                .map()
                .Find("spec")
                ->map()
                .Find("ports")
                ->list()[0]
                .map()
                .Find("port")
                ->AsInt(),
            81);
  EXPECT_EQ(Kind(out[1]), "ConfigMap");
  EXPECT_EQ(out[1].map().Find("data")->map().Find("mode")->AsString(), "safe");
  // The live object's managedFields carried over: the time of the first
  // apply stays on the entry only when nothing changed; here both changed.
  EXPECT_THAT(applied.out, HasSubstr("2026-11-24T10:05:00Z"));

  // Diffs: the results as a kind: List are exactly what applying gives.
  Value list = Value::MakeMap();
  list.map().Set("apiVersion", Value("v1"));
  list.map().Set("kind", Value("List"));
  List items;
  for (Value& v : Documents(created.out)) items.push_back(std::move(v));
  list.map().Set("items", Value(std::move(items)));
  std::string list_path = Write("live-list.json", ToJson(list));
  Result clean =
      Smdx({"diff", "--field-manager", "ci", "--live", list_path, configs});
  EXPECT_EQ(clean.code, 0) << clean.out << clean.err;
  EXPECT_EQ(clean.out, "");
  Result changed = Smdx(
      {"diff", "--field-manager", "ci", "--color", "never", list_path, "-"},
      change);
  EXPECT_EQ(changed.code, 1) << changed.err;
  EXPECT_THAT(changed.out, HasSubstr("-  - port: 80\n+  - port: 81\n"));
  EXPECT_THAT(changed.out, HasSubstr("+  mode: safe"));
  // A conflict in one object makes the diff 2.
  Result conflict = Smdx(
      {"diff", "--field-manager", "other", "--color", "never", list_path, "-"},
      change);
  EXPECT_EQ(conflict.code, 2);
  EXPECT_THAT(conflict.out,
              HasSubstr("conflicts in ConfigMap prod/settings (standard "
                        "input, object 2) (the apply would fail; "
                        "--force-conflicts takes the fields):\n  .data.mode  "
                        "owned by \"ci\"\n"));
}

TEST_F(ObjectsTest, OneObjectsErrorNamesItAndTheOthersStillPrint) {
  std::string configs = Write(
      "configs.yaml",
      absl::StrCat(kConfigMap, "---\n",
                   "apiVersion: v1\nkind: Service\nmetadata: {name: bad}\n"
                   "spec: {ports: [{port: eighty}]}\n",
                   "---\n",
                   "apiVersion: example.com/v1\nkind: Gadget\n"
                   "metadata: {name: g}\n",
                   "---\n", kService));
  Result r = Smdx({"apply", "--field-manager", "ci", configs});
  EXPECT_EQ(r.code, 1);
  std::vector<Value> out = Documents(r.out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(Kind(out[0]), "ConfigMap");
  EXPECT_EQ(Kind(out[1]), "Service");
  EXPECT_THAT(r.err, HasSubstr("Service bad (" + configs + ", object 2): "));
  EXPECT_THAT(r.err, HasSubstr("Gadget g (" + configs +
                               ", object 3): the built-in Kubernetes schema "
                               "has no kind \"Gadget\""));
  Result v = Smdx({"validate", configs});
  EXPECT_EQ(v.code, 1);
  EXPECT_THAT(v.out, HasSubstr("ConfigMap prod/settings (" + configs +
                               ", object 1): valid io.k8s.api.core.v1."
                               "ConfigMap\n"));
  EXPECT_THAT(v.err, HasSubstr("Service bad (" + configs +
                               ", object 2): "
                               "invalid io.k8s.api.core.v1.Service"));
}

TEST_F(ObjectsTest, EveryObjectCommandTakesManyObjects) {
  std::string configs =
      Write("configs.yaml", absl::StrCat(kConfigMap, "---\n", kService));
  Result fs = Smdx({"fieldset", "--apply", configs});
  ASSERT_EQ(fs.code, 0) << fs.err;
  EXPECT_EQ(
      fs.out,
      "{\"f:apiVersion\":{},\"f:data\":{\"f:mode\":{}},\"f:kind\":{},"
      "\"f:metadata\":{\"f:name\":{},\"f:namespace\":{}}}\n---\n"
      "{\"f:apiVersion\":{},\"f:kind\":{},\"f:metadata\":{\"f:name\":{},"
      "\"f:namespace\":{}},\"f:spec\":{\"f:ports\":{\"k:{\\\"port\\\":80,"
      "\\\"protocol\\\":\\\"TCP\\\"}\":"
      "{\".\":{},\"f:port\":{},\"f:targetPort\":{}}},\"f:selector\":{}}}"
      "\n");
  Result d = Smdx({"default", configs});
  ASSERT_EQ(d.code, 0) << d.err;
  EXPECT_EQ(Documents(d.out).size(), 2u);
  Result applied = Smdx({"apply", "--field-manager", "ci", configs});
  ASSERT_EQ(applied.code, 0) << applied.err;
  std::string live = Write("live.yaml", applied.out);
  Result b = Smdx({"blame", live});
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_THAT(b.out, HasSubstr("# ConfigMap prod/settings (" + live +
                               ", object 1)\nmanagers:\n  ci  Apply"));
  EXPECT_THAT(b.out, HasSubstr("# Service prod/web (" + live + ", object 2)"));
  Result u =
      Smdx({"update", "--field-manager", "editor", "--live", live, configs});
  EXPECT_EQ(u.code, 0) << u.err;
  EXPECT_EQ(Documents(u.out).size(), 2u);
}

TEST_F(ObjectsTest, ConfigurationWithoutNamespaceFindsItsLiveObject) {
  Result created =
      Smdx({"apply", "--field-manager", "ci", Write("c.yaml", kConfigMap)});
  ASSERT_EQ(created.code, 0) << created.err;
  // Two live objects, so they pair by key: the configuration has no
  // namespace, and the one ConfigMap named "settings" is its live object.
  std::string both = Write("both.yaml", created.out + "---\n" + kService);
  std::string no_ns = WithValue(kConfigMap, "  namespace: prod\n", "");
  Result d = Smdx({"diff", "--field-manager", "ci", "--live", both,
                   Write("no-ns.yaml", no_ns)});
  EXPECT_EQ(d.code, 0) << d.out << d.err;
  // Another name is a create.
  Result other = Smdx(
      {"diff", "--field-manager", "ci", "--color", "never", "--live", both,
       Write("other.yaml", WithValue(no_ns, "name: settings", "name: fresh"))});
  EXPECT_EQ(other.code, 1);
  EXPECT_THAT(other.out, HasSubstr("+kind: ConfigMap"));
}

TEST(CommandLineTest, HelpAndVersion) {
  for (const char* cmd :
       {"apply", "update", "diff", "blame", "validate", "fieldset", "default",
        "merge", "compare", "list-types", "conformance", "managers"}) {
    Result r = Smdx({cmd, "--help"});
    EXPECT_EQ(r.code, 0) << cmd;
    EXPECT_THAT(r.out, HasSubstr("usage: smdx ")) << cmd;
    EXPECT_THAT(r.out, HasSubstr("Exit status")) << cmd;
    EXPECT_EQ(r.err, "") << cmd;
  }
  EXPECT_THAT(Smdx({"apply", "--help"}).out,
              HasSubstr("the manager (default \"kubectl\""));
  EXPECT_THAT(Smdx({"diff", "--help"}).out,
              HasSubstr("0 when nothing would change, 1 when something "
                        "would, 2 on a\nconflict or an error"));
  Result v = Smdx({"--version"});
  EXPECT_EQ(v.code, 0);
  EXPECT_THAT(v.out,
              ::testing::MatchesRegex("smdx [0-9]+\\.[0-9]+\\.[0-9]+ "
                                      "\\(Kubernetes v1\\.[0-9]+\\.[0-9]+ "
                                      "built in\\)\n"));
  EXPECT_EQ(Smdx({"help", "diff"}).out, Smdx({"diff", "--help"}).out);
  Result unknown = Smdx({"aply"});
  EXPECT_EQ(unknown.code, 2);
  EXPECT_THAT(unknown.err, HasSubstr("unknown command \"aply\""));
}

TEST(CommandLineTest, UnreadableFilesSayWhy) {
  Result missing = Smdx({"validate", "/nonexistent/x.yaml"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_EQ(missing.err,
            "error: /nonexistent/x.yaml: cannot read the file: No such file "
            "or directory\n");
  Result schema = Smdx({"validate", "--schema", "/nonexistent.json", "-"});
  EXPECT_EQ(schema.err,
            "error: /nonexistent.json: cannot read the file: No such file or "
            "directory\n");
}

TEST(CommandLineTest, ConformanceReportsMissingPathsAndEmptyFilters) {
  Result missing = Smdx({"conformance", "/nonexistent"});
  EXPECT_EQ(missing.code, 2);
  EXPECT_EQ(missing.out,
            "FAIL /nonexistent: no such file or folder\n"
            "conformance: 0 passed, 1 failed\n");
  std::string cases = smdx::testing::SourcePath("conformance/cases");
  Result none = Smdx({"conformance", "--filter", "no-case-is-named-so", cases});
  EXPECT_EQ(none.code, 1);
  EXPECT_EQ(none.err,
            "error: --filter \"no-case-is-named-so\" matches no case\n");
  Result bad = Smdx({"conformance", "--filter", "(", cases});
  EXPECT_EQ(bad.code, 2);
  EXPECT_THAT(bad.err, HasSubstr("error: --filter: "));
}

TEST_F(ObjectsTest, ConformanceComparesListOrder) {
  // A case applying [a, b] and expecting `want`: the merged list follows
  // the applied order, and objects compare lists in order.
  auto order_case = [&](const std::string& name, const std::string& want) {
    return Write(name + ".yaml", "name: " + name +
                                     "\nschema: {deduced: true}\nops:\n"
                                     "- {op: apply, manager: m, apiVersion: "
                                     "v1, object: {l: [a, b]}}\nexpect:\n"
                                     "  object: {l: " +
                                     want + "}\n");
  };
  EXPECT_EQ(Smdx({"conformance", order_case("same", "[a, b]")}).code, 0);
  Result reordered = Smdx({"conformance", order_case("order", "[b, a]")});
  EXPECT_EQ(reordered.code, 1);
  EXPECT_THAT(reordered.out, HasSubstr("object differs"));
  // The flag that compared lists in any order is gone.
  EXPECT_EQ(Smdx({"conformance", "--ignore-list-order",
                  order_case("flag", "[a, b]")}).code,
            2);
}

TEST_F(ObjectsTest, SchemasCombineAndComeFromTheEnvironment) {
  std::string crd = Write("crd.yaml", R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  names: {kind: Gadget, plural: gadgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer, default: 3}
)");
  std::string objects =
      Write("objects.yaml",
            absl::StrCat("apiVersion: example.com/v1\nkind: Gadget\nmetadata: "
                         "{name: g}\nspec: {}\n---\n",
                         kService));
  std::string swagger =
      smdx::testing::SourcePath("smdx/schema/data/kubernetes-v1.27-swagger.json");
  Result both =
      Smdx({"apply", "--field-manager", "ci", "--now", "2026-11-24T10:00:00Z",
            "--schema", swagger, "--schema", crd, objects});
  ASSERT_EQ(both.code, 0) << both.err;
  std::vector<Value> out = Documents(both.out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].map().Find("spec")->map().Find("size")->AsInt(), 3);
  // Only the CRD: it extends the built-in types.
  Result crd_only = Smdx({"apply", "--field-manager", "ci", "--now",
                          "2026-11-24T10:00:00Z", "--schema", crd, objects});
  EXPECT_EQ(crd_only.code, 0) << crd_only.err;
  std::vector<Value> only = Documents(crd_only.out);
  ASSERT_EQ(only.size(), 2u);
  EXPECT_EQ(ToJson(only[0]), ToJson(out[0]));
  // The built-in Service is v1.27's with the protocol default the v2
  // document leaves out (schema/data/kubernetes-v1.27-defaults.json): the
  // port without a protocol is the item keyed by protocol TCP.
  EXPECT_THAT(crd_only.out, HasSubstr("k:{\"port\":80,\"protocol\":\"TCP\"}"));
  EXPECT_THAT(both.out, HasSubstr("k:{\"port\":80}:"));
  Result unknown = Smdx({"validate", "--schema", crd,
                         Write("gizmo.yaml",
                               "apiVersion: example.com/v1\n"
                               "kind: Gizmo\nmetadata: {name: "
                               "g}\n")});
  EXPECT_EQ(unknown.code, 1);
  EXPECT_THAT(unknown.err, HasSubstr("Gizmo g (" + dir_ + "/gizmo.yaml): "));
  // SMDX_SCHEMA gives the default.
  std::string env = swagger + ":" + crd;
  setenv("SMDX_SCHEMA", env.c_str(), 1);
  Result from_env = Smdx({"apply", "--field-manager", "ci", "--now",
                          "2026-11-24T10:00:00Z", objects});
  unsetenv("SMDX_SCHEMA");
  EXPECT_EQ(from_env.code, 0) << from_env.err;
  EXPECT_EQ(from_env.out, both.out);
}

TEST_F(ObjectsTest, SchemaDirectoryOfOpenApiV3Documents) {
  // Config Connector's CRDs as OpenAPI v3 documents, one per file, as a
  // cluster's /openapi/v3 group documents are.
  std::string v3 = smdx::testing::SharedPath("testdata/openapi/crds/openapiv3");
  Result types = Smdx({"list-types", "--schema", v3});
  ASSERT_EQ(types.code, 0) << types.err;
  EXPECT_THAT(types.out,
              HasSubstr("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta\n"));
  size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(v3)) {
    (void)e;
    ++n;
  }
  EXPECT_GT(n, 1u);
}

}  // namespace
}  // namespace smdx::cli
