#include <fstream>
#include <sstream>

#include "cli/commands.h"
#include "gtest/gtest.h"
#include "testing/test_util.h"
#include "typed/parse.h"

namespace smdx::cli {
namespace {

struct Result {
  int code;
  std::string out, err;
};

Result Smdx(std::vector<std::string> args) {
  std::ostringstream out, err;
  int code = Run(args, out, err);
  return {code, out.str(), err.str()};
}

std::string Shared(const std::string& rel) {
  return smdx::testing::SharedPath(rel);
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
  EXPECT_EQ(r.out,
            smdx::testing::ReadTestFile(Shared("testdata/smd/podset.json")));
  Result types = Smdx({"list-types"});
  EXPECT_NE(types.out.find("io.k8s.api.core.v1.Pod\n"), std::string::npos);
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
  EXPECT_EQ(second.err, "error (immutable): .spec.volume: is immutable\n");
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

}  // namespace
}  // namespace smdx::cli
