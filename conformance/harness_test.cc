#include "conformance/harness.h"

#include "gtest/gtest.h"
#include "testing/test_util.h"

namespace smdx {
namespace {

constexpr char kCase[] = R"(name: ok
schema:
  deduced: true
ops:
- op: apply
  manager: a
  apiVersion: v1
  object: {x: 1}
expect:
  object: {x: 1}
  managed:
    a: {apiVersion: v1, operation: Apply, fieldsV1: {"f:x": {}}}
---
name: wrong
schema:
  deduced: true
ops:
- op: apply
  manager: a
  apiVersion: v1
  object: {x: 1}
expect:
  object: {x: 2}
  managed:
    b: {apiVersion: v1, operation: Apply, fieldsV1: {"f:x": {}}}
---
name: skipped
skip: not today
schema:
  deduced: true
---
name: future-format
format: 2
schema:
  deduced: true
ops: []
)";

TEST(HarnessTest, ReportsPassFailSkipAndUnknownFormat) {
  ConformanceReport rep;
  RunConformanceText("cases.yaml", kCase, {}, &rep);
  EXPECT_EQ(rep.passed, 1);
  EXPECT_EQ(rep.failed, 2);
  EXPECT_EQ(rep.skipped, 1);
  std::string text = FormatReportText(rep);
  EXPECT_NE(text.find("FAIL cases.yaml#wrong: final state: object differs"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("FAIL cases.yaml#future-format: unknown format version"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("conformance: 1 passed, 2 failed, 1 skipped\n"),
            std::string::npos)
      << text;
  std::string json = FormatReportJson(rep);
  EXPECT_NE(json.find(R"("passed":1,"failed":2,"skipped":1)"),
            std::string::npos)
      << json;
}

TEST(HarnessTest, FilterSelectsCases) {
  ConformanceReport rep;
  ConformanceOptions o;
  o.filter = "#ok$";
  RunConformanceText("cases.yaml", kCase, o, &rep);
  EXPECT_EQ(rep.passed, 1);
  EXPECT_EQ(rep.failed, 0);
}

TEST(HarnessTest, UnreadableFileIsAFileError) {
  ConformanceReport rep;
  RunConformanceText("bad.yaml", "a: [", {}, &rep);
  EXPECT_TRUE(rep.file_error);
  EXPECT_EQ(rep.failed, 1);
}

TEST(HarnessTest, ManagedDiffNamesManagerAndPath) {
  ConformanceReport rep;
  RunConformanceText("cases.yaml", kCase, {}, &rep);
  ASSERT_GE(rep.cases.size(), 2u);
  // The object differs first; fix the object and the managers diff shows.
  ConformanceReport rep2;
  RunConformanceText("c.yaml", R"(name: m
schema: {deduced: true}
ops:
- {op: apply, manager: a, apiVersion: v1, object: {x: 1}}
expect:
  managed:
    a: {apiVersion: v1, operation: Apply, fieldsV1: {"f:y": {}}}
)",
                     {}, &rep2);
  ASSERT_EQ(rep2.failed, 1);
  EXPECT_NE(rep2.cases[0].message.find("manager \"a\": missing .y"),
            std::string::npos)
      << rep2.cases[0].message;
  EXPECT_NE(rep2.cases[0].message.find("manager \"a\": unexpected .x"),
            std::string::npos);
}

// A fieldManager case applying data {a, b} to a ConfigMap, expecting
// `fields` as its entry's fieldsV1 text.
std::string ExactCase(bool exact, const std::string& fields) {
  return std::string(R"(name: exact
schema: {kubernetes: true}
type: io.k8s.api.core.v1.ConfigMap
fieldManager: {apiVersion: v1, kind: ConfigMap, defaults: false, exactFieldsV1: )") +
         (exact ? "true" : "false") + R"(}
ops:
- op: apply
  manager: m
  object: '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "1", "b": "2"}}'
  expect:
    managedFields:
    - manager: m
      fieldsV1: ')" + fields + "'\n";
}

TEST(HarnessTest, ExactFieldsV1ComparesTheStoredText) {
  const std::string stored = R"({"f:data":{"f:a":{},"f:b":{}}})";
  const std::string reordered = R"({"f:data":{"f:b":{},"f:a":{}}})";
  ConformanceReport same, other, as_set;
  RunConformanceText("e.yaml", ExactCase(true, stored), {}, &same);
  EXPECT_EQ(same.passed, 1) << same.cases[0].message;
  // The same set in another order is another text.
  RunConformanceText("e.yaml", ExactCase(true, reordered), {}, &other);
  EXPECT_EQ(other.failed, 1);
  EXPECT_NE(other.cases[0].message.find("fieldsV1 want"), std::string::npos)
      << other.cases[0].message;
  // Without the flag a fieldsV1 is compared as a set.
  RunConformanceText("e.yaml", ExactCase(false, reordered), {}, &as_set);
  EXPECT_EQ(as_set.passed, 1) << as_set.cases[0].message;
}

TEST(HarnessTest, ExpectedMessageIsComparedExactly) {
  auto refused = [](const std::string& message) {
    return std::string(R"(name: refused
schema: {kubernetes: true}
type: io.k8s.api.core.v1.ConfigMap
fieldManager: {apiVersion: v1, kind: ConfigMap}
ops:
- op: apply
  manager: m
  object: '{"apiVersion": "v2", "kind": "ConfigMap", "metadata": {"name": "c"}}'
  expect:
    error: badRequest
    message: ")") + message + "\"\n";
  };
  ConformanceReport right, wrong;
  RunConformanceText("m.yaml", refused("invalid object type: /v2, Kind=ConfigMap"),
                     {}, &right);
  EXPECT_EQ(right.passed, 1) << right.cases[0].message;
  RunConformanceText("m.yaml", refused("invalid object type"), {}, &wrong);
  EXPECT_EQ(wrong.failed, 1);
  EXPECT_NE(wrong.cases[0].message.find("error message differs"),
            std::string::npos)
      << wrong.cases[0].message;
}

}  // namespace
}  // namespace smdx
