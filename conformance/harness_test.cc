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

}  // namespace
}  // namespace smdx
