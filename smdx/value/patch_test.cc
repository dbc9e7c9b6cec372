#include "smdx/value/patch.h"

#include <string>

#include "gtest/gtest.h"
#include "smdx/value/emit.h"
#include "smdx/value/parse.h"
#include "testing/test_util.h"

namespace smdx {
namespace {

using smdx::testing::Yaml;

// The JSON of `v` with every integer written as a float: json-patch.v4's
// tests compare results decoded into Go's interface{}, where 1 is 1.0.
Value Floats(Value v) {
  if (v.IsInt()) return Value(static_cast<double>(v.AsInt()));
  if (v.IsMap()) {
    for (MapEntry& e : v.map()) e.value = Floats(std::move(e.value));
  } else if (v.IsList()) {
    for (Value& item : v.list()) item = Floats(std::move(item));
  }
  return v;
}

Value Json(const std::string& text) {
  absl::StatusOr<Value> v = ParseJson(text);
  EXPECT_TRUE(v.ok()) << v.status() << "\n" << text;
  return v.ok() ? *v : Value();
}

// json-patch.v4's own cases (testdata/jsonpatch): every one as its tests
// assert it.
TEST(PatchTest, JsonPatchV4Cases) {
  const Value file = Json(testing::ReadTestFile(
      testing::SourcePath("testdata/jsonpatch/cases.json")));
  int run = 0;
  for (const Value& c : Find(file, "cases")->list()) {
    const std::string kind = StringAt(c, "kind");
    const Value doc = Json(StringAt(c, "doc"));
    const Value patch = Json(StringAt(c, "patch"));
    SCOPED_TRACE(kind + ": " + ToJson(doc) + " with " + ToJson(patch));
    ++run;
    if (kind == "merge") {
      absl::StatusOr<Value> out = ApplyMergePatch(doc, patch);
      ASSERT_TRUE(out.ok()) << out.status();
      EXPECT_EQ(Floats(*out), Floats(Json(StringAt(c, "result"))))
          << ToJson(*out);
      continue;
    }
    absl::StatusOr<Value> out = ApplyJsonPatch(doc, patch, /*max_copy_bytes=*/100);
    if (kind == "ok") {
      ASSERT_TRUE(out.ok()) << out.status();
      EXPECT_EQ(Floats(*out), Floats(Json(StringAt(c, "result"))))
          << ToJson(*out);
    } else if (kind == "mutates") {
      ASSERT_TRUE(out.ok()) << out.status();
      EXPECT_FALSE(Floats(*out) == Floats(doc)) << ToJson(*out);
    } else if (kind == "bad") {
      EXPECT_FALSE(out.ok()) << ToJson(*out);
    } else {
      ASSERT_EQ(kind, "test");
      EXPECT_EQ(out.ok(), Find(c, "pass")->AsBool()) << out.status();
    }
  }
  EXPECT_EQ(run, 70);
}

// The three-way merge patches Go made (jsonmergepatch's cases and ours,
// testdata/strategicpatch/cases.json's merge_diffs): each to the letter,
// integers apart from floats, or an error where Go failed.
TEST(PatchTest, ThreeWayMergePatchesAsGoMakesThem) {
  const Value file = Json(testing::ReadTestFile(
      testing::SourcePath("testdata/strategicpatch/cases.json")));
  int run = 0;
  for (const Value& c : Find(file, "merge_diffs")->list()) {
    SCOPED_TRACE(StringAt(c, "name"));
    ++run;
    absl::StatusOr<Value> out = CreateThreeWayMergePatch(
        *Find(c, "original"), *Find(c, "modified"), *Find(c, "current"));
    const Value& answers = *Find(c, "three_way");
    ASSERT_EQ(answers.list().size(), 1u);
    const Value& go = answers.list()[0];
    if (Find(go, "error") != nullptr) {
      EXPECT_FALSE(out.ok()) << ToJson(*out);
      continue;
    }
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(ToJsonSorted(*out), ToJsonSorted(go));
  }
  EXPECT_EQ(run, 33);
}

// json-patch.v4's readings beyond the RFC, as the apiserver applies them.
TEST(PatchTest, JsonPatchV4Readings) {
  const Value doc = Json(R"({"a": {"b": 1}, "l": [1, 2, 3]})");
  auto apply = [&](const std::string& ops) {
    return ApplyJsonPatch(doc, Json(ops));
  };
  // A path's head before its first '/' is ignored.
  EXPECT_EQ(*apply(R"([{"op": "add", "path": "x/c", "value": 2}])"),
            Json(R"({"a": {"b": 1}, "l": [1, 2, 3], "c": 2})"));
  // Replace of a missing key adds it; of "" replaces the document.
  EXPECT_EQ(*apply(R"([{"op": "replace", "path": "/a/z", "value": 5}])"),
            Json(R"({"a": {"b": 1, "z": 5}, "l": [1, 2, 3]})"));
  EXPECT_EQ(*apply(R"([{"op": "replace", "path": "", "value": {"k": 1}}])"),
            Json(R"({"k": 1})"));
  // Indexes: negative from the end, Go integers, "-" appends.
  EXPECT_EQ(*apply(R"([{"op": "remove", "path": "/l/-1"}])"),
            Json(R"({"a": {"b": 1}, "l": [1, 2]})"));
  EXPECT_EQ(*apply(R"([{"op": "add", "path": "/l/+01", "value": 9}])"),
            Json(R"({"a": {"b": 1}, "l": [1, 9, 2, 3]})"));
  EXPECT_EQ(*apply(R"([{"op": "add", "path": "/l/-1", "value": 9}])"),
            Json(R"({"a": {"b": 1}, "l": [1, 2, 3, 9]})"));
  EXPECT_FALSE(apply(R"([{"op": "add", "path": "/l/5", "value": 9}])").ok());
  // Copy of a missing key copies null; a value left out is null.
  EXPECT_EQ(*apply(R"([{"op": "copy", "from": "/a/q", "path": "/a/r"}])"),
            Json(R"({"a": {"b": 1, "r": null}, "l": [1, 2, 3]})"));
  EXPECT_EQ(*apply(R"([{"op": "add", "path": "/a/n"}])"),
            Json(R"({"a": {"b": 1, "n": null}, "l": [1, 2, 3]})"));
  // Test: a missing key passes against null; integers are not floats.
  EXPECT_TRUE(apply(R"([{"op": "test", "path": "/a/q", "value": null}])").ok());
  EXPECT_FALSE(apply(R"([{"op": "test", "path": "/a/b", "value": 1.0}])").ok());
  EXPECT_TRUE(apply(R"([{"op": "test", "path": "/a/b", "value": 1}])").ok());
  // Failures: what kind each is.
  absl::StatusOr<Value> bad = apply(R"([{"op": "remove", "path": "/a/q"}])");
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(bad.status().message().find("operation 0 (remove)"),
            std::string::npos)
      << bad.status();
  EXPECT_EQ(apply(R"([{"op": "add", "path": 5}])").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(apply(R"({"op": "add"})").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(apply(R"([null])").status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(apply(R"([{"op": "frob", "path": "/a"}])").status().code(),
            absl::StatusCode::kFailedPrecondition);
  std::string many = "[";
  for (size_t i = 0; i <= kMaxJsonPatchOperations; ++i)
    many += std::string(i == 0 ? "" : ",") +
            R"({"op": "test", "path": "/a/b", "value": 1})";
  EXPECT_EQ(apply(many + "]").status().code(),
            absl::StatusCode::kResourceExhausted);
  // The document given is left as it was.
  EXPECT_EQ(doc, Json(R"({"a": {"b": 1}, "l": [1, 2, 3]})"));
}

TEST(PatchTest, MergePatchReadings) {
  const Value doc = Yaml("{a: {b: 1, c: [1, {x: 1}]}, n: null, s: str}");
  // Nulls delete; objects merge; a null where the document holds null or
  // nothing, or a non-object, lands pruned (a list's null items stay).
  EXPECT_EQ(*ApplyMergePatch(doc, Yaml("{a: {b: null}, s: {p: 1, q: null}}")),
            Yaml("{a: {c: [1, {x: 1}]}, n: null, s: {p: 1}}"));
  EXPECT_EQ(*ApplyMergePatch(doc, Yaml("{n: {p: {q: null}}, z: [null, {y: null}]}")),
            Yaml("{a: {b: 1, c: [1, {x: 1}]}, n: {p: {}}, s: str, "
                 "z: [null, {}]}"));
  // Over an object, a list is taken as it is.
  EXPECT_EQ(*ApplyMergePatch(doc, Yaml("{a: [{y: null}]}")),
            Yaml("{a: [{y: null}], n: null, s: str}"));
  for (const char* bad : {"[1]", "null", "5"}) {
    EXPECT_EQ(ApplyMergePatch(doc, Yaml(bad)).status().code(),
              absl::StatusCode::kInvalidArgument)
        << bad;
  }
}

}  // namespace
}  // namespace smdx
