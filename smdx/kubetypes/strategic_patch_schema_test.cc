#include "smdx/kubetypes/strategic_patch_schema.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "smdx/value/emit.h"
#include "smdx/value/parse.h"
#include "smdx/value/strategic_patch.h"
#include "testing/test_util.h"

namespace smdx {
namespace {

Value Json(const std::string& text) {
  absl::StatusOr<Value> v = ParseJson(text);
  EXPECT_TRUE(v.ok()) << v.status() << "\n" << text;
  return v.ok() ? *v : Value();
}

// The apiserver's code for a strategic merge patch's error.
int HttpCode(const absl::Status& st) {
  switch (st.code()) {
    case absl::StatusCode::kInvalidArgument:
      return 400;
    case absl::StatusCode::kFailedPrecondition:
      return 422;
    default:
      return 500;
  }
}

Value Cases() {
  return Json(testing::ReadTestFile(
      testing::SourcePath("testdata/strategicpatch/cases.json")));
}

// strategicpatch's own cases and ours (testdata/strategicpatch, made by
// conformance/realapi/cmd/gotypes -strategic-cases): each patch gives one
// of the answers Go gave, the document to the letter (list order, integers
// apart from floats) or the error's code.
TEST(StrategicPatchTest, GoCases) {
  const Value file = Cases();
  StrategicPatchTypes types(*Find(file, "types"));
  const StrategicPatchSchema* root = types.Find(StringAt(file, "root"));
  ASSERT_NE(root, nullptr);
  int run = 0;
  for (const Value& c : Find(file, "cases")->list()) {
    SCOPED_TRACE(StringAt(c, "name"));
    ++run;
    absl::StatusOr<Value> out =
        ApplyStrategicMergePatch(*Find(c, "doc"), *Find(c, "patch"), *root);
    const Value got =
        out.ok() ? *out : Json(absl::StrCat(R"({"error": )",
                                            HttpCode(out.status()), "}"));
    bool matched = false;
    for (const Value& answer : Find(c, "answers")->list()) {
      matched = matched || Identical(got, answer) ||
                (out.ok() && ToJsonSorted(got) == ToJsonSorted(answer));
    }
    EXPECT_TRUE(matched) << "smdx: " << ToJson(got) << " "
                         << (out.ok() ? "" : out.status().ToString())
                         << "\nGo: " << ToJson(*Find(c, "answers"));
  }
  EXPECT_EQ(run, 285);
}

// The patches a client makes of those cases' documents (and of more of
// ours): each is one of the answers Go gave, the patch to the letter (its
// keys in any order, its lists in Go's), or an error where Go failed.
TEST(StrategicPatchTest, GoMadePatches) {
  const Value file = Cases();
  StrategicPatchTypes types(*Find(file, "types"));
  const StrategicPatchSchema* root = types.Find(StringAt(file, "root"));
  ASSERT_NE(root, nullptr);
  int run = 0, failed = 0;
  auto check = [&](const absl::StatusOr<Value>& out, const Value& answers) {
    ++run;
    bool matched = false;
    for (const Value& answer : answers.list()) {
      matched = matched ||
                (out.ok() ? ToJsonSorted(*out) == ToJsonSorted(answer)
                          : Find(answer, "error") != nullptr);
    }
    failed += matched ? 0 : 1;
    EXPECT_TRUE(matched) << "smdx: "
                         << (out.ok() ? ToJsonSorted(*out)
                                      : out.status().ToString())
                         << "\nGo: " << ToJsonSorted(answers);
  };
  for (const Value& c : Find(file, "diffs")->list()) {
    SCOPED_TRACE(StringAt(c, "name"));
    const Value& original = *Find(c, "original");
    const Value& modified = *Find(c, "modified");
    {
      SCOPED_TRACE("two-way");
      check(CreateTwoWayStrategicPatch(original, modified, *root),
            *Find(c, "two_way"));
    }
    SCOPED_TRACE("three-way");
    check(CreateThreeWayStrategicPatch(original, modified, *Find(c, "current"),
                                       *root),
          *Find(c, "three_way"));
  }
  EXPECT_EQ(run, 288);
  EXPECT_EQ(failed, 0);
}

TEST(StrategicPatchTest, BuiltinTypesCarryTheirTags) {
  const StrategicPatchSchema* pod =
      BuiltinStrategicPatchSchema("io.k8s.api.core.v1.Pod");
  ASSERT_NE(pod, nullptr);
  absl::StatusOr<StrategicPatchSchema::Field> spec = pod->ForMap("spec");
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->schema->Name(), "PodSpec");
  absl::StatusOr<StrategicPatchSchema::Field> containers =
      spec->schema->ForList("containers");
  ASSERT_TRUE(containers.ok()) << containers.status();
  EXPECT_EQ(containers->merge_key, "name");
  EXPECT_EQ(containers->strategies, std::vector<std::string>{"merge"});
  EXPECT_EQ(containers->schema->Name(), "Container");
  absl::StatusOr<StrategicPatchSchema::Field> volumes =
      spec->schema->ForList("volumes");
  ASSERT_TRUE(volumes.ok());
  EXPECT_EQ(volumes->strategies,
            (std::vector<std::string>{"merge", "retainKeys"}));
  // Tolerations have no strategy: a patch replaces them.
  absl::StatusOr<StrategicPatchSchema::Field> tolerations =
      spec->schema->ForList("tolerations");
  ASSERT_TRUE(tolerations.ok());
  EXPECT_EQ(tolerations->strategies, std::vector<std::string>{""});
  // A field the type lacks, and a map's insides, fail as Go's lookups do.
  EXPECT_EQ(spec->schema->ForMap("nope").status().code(),
            absl::StatusCode::kInternal);
  absl::StatusOr<StrategicPatchSchema::Field> selector =
      spec->schema->ForMap("nodeSelector");
  ASSERT_TRUE(selector.ok());
  EXPECT_EQ(selector->schema->ForMap("a").status().code(),
            absl::StatusCode::kInternal);
  // A field that is no slice has no items.
  EXPECT_EQ(spec->schema->ForList("nodeSelector").status().code(),
            absl::StatusCode::kInternal);
  // The Scale of the scale subresource; no custom resource.
  EXPECT_NE(BuiltinStrategicPatchSchema("io.k8s.api.autoscaling.v1.Scale"),
            nullptr);
  EXPECT_EQ(BuiltinStrategicPatchSchema("dev.smdx.realapi.v1.Widget"), nullptr);
}

TEST(StrategicPatchTest, MergesAPodsContainersByName) {
  const StrategicPatchSchema* pod =
      BuiltinStrategicPatchSchema("io.k8s.api.core.v1.Pod");
  ASSERT_NE(pod, nullptr);
  const Value live = Json(R"({"metadata": {"name": "p", "finalizers": ["a"]},
    "spec": {"containers": [{"name": "app", "image": "nginx:1",
      "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}]},
      {"name": "side", "image": "busybox"}],
      "tolerations": [{"key": "k", "operator": "Exists"}]}})");
  absl::StatusOr<Value> out = ApplyStrategicMergePatch(live, Json(R"({
    "metadata": {"finalizers": ["b"]},
    "spec": {"containers": [{"name": "app", "image": "nginx:2",
      "env": [{"name": "A", "$patch": "delete"}, {"name": "C", "value": "3"}]}],
      "tolerations": [{"key": "t", "operator": "Exists"}]}})"),
                                                    *pod);
  ASSERT_TRUE(out.ok()) << out.status();
  // Items the patch names go first where the object does not order them.
  EXPECT_TRUE(Identical(*out, Json(R"({"metadata": {"name": "p",
    "finalizers": ["b", "a"]},
    "spec": {"containers": [{"name": "app", "image": "nginx:2",
      "env": [{"name": "C", "value": "3"}, {"name": "B", "value": "2"}]},
      {"name": "side", "image": "busybox"}],
      "tolerations": [{"key": "t", "operator": "Exists"}]}})")))
      << ToJson(*out);
  // An error names where it is.
  absl::StatusOr<Value> keyless = ApplyStrategicMergePatch(live, Json(R"({
    "spec": {"containers": [{"name": "app", "env": [{"value": "x"}]}]}})"),
                                                         *pod);
  EXPECT_EQ(keyless.status().code(), absl::StatusCode::kInternal);
  EXPECT_EQ(keyless.status().message(),
            R"(.spec.containers[name="app"].env: map: {"value":"x"} does not )"
            "contain declared merge key: name");
  // A patch that is no object is the apiserver's 400.
  EXPECT_EQ(ApplyStrategicMergePatch(live, Json("[1]"), *pod).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(Identical(*ApplyStrategicMergePatch(live, Value(), *pod), live));
  // A document that is no object (the apiserver's never is).
  EXPECT_EQ(ApplyStrategicMergePatch(Value("."), Json("{}"), *pod)
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace smdx
