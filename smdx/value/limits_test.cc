// Every reader limit of value/limits.h at its edge: the largest input it
// allows reads, one more fails with an error naming the limit, through
// every reader (the fast JSON and YAML readers and the full parsers behind
// them).
#include "smdx/value/limits.h"

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "smdx/value/internal/parse.h"
#include "smdx/value/parse.h"
#include "smdx/value/value.h"

namespace smdx {
namespace {

using ::testing::HasSubstr;

std::string Msg(const absl::Status& s) { return std::string(s.message()); }

TEST(Limits, DefaultsFollowTheApiServer) {
  Limits l;
  EXPECT_EQ(l.max_object_bytes, 3u * 1024 * 1024);  // its request body
  EXPECT_EQ(l.max_depth, 1000u);
  EXPECT_EQ(l.max_yaml_nodes, 10'000'000u);
  EXPECT_EQ(l.max_list_items, 1u << 20);
  EXPECT_EQ(l.max_managed_fields_entries, 10'000u);
  EXPECT_EQ(l.max_fields_v1_bytes, 3u * 1024 * 1024);
}

TEST(Limits, ObjectBytesHoldForEveryReader) {
  const std::string json = R"({"a":"xxxxxxxx"})";  // 16 bytes
  const std::string yaml = "a: xxxxxxxxxxxx\n";    // 16 bytes
  Limits l;
  l.max_object_bytes = 16;
  EXPECT_TRUE(ParseJson(json, l).ok());
  EXPECT_TRUE(ParseYaml(yaml, l).ok());
  EXPECT_TRUE(ParseYamlOrJson(json, l).ok());
  EXPECT_TRUE(ParseYamlDocuments(yaml, l).ok());
  l.max_object_bytes = 15;
  const std::string want =
      "document of 16 bytes is over the max_object_bytes limit of 15";
  EXPECT_EQ(Msg(ParseJson(json, l).status()), want);
  EXPECT_EQ(Msg(internal::ParseJsonWithNlohmann(json, l).status()), want);
  EXPECT_EQ(Msg(ParseYaml(yaml, l).status()), want);
  EXPECT_EQ(Msg(internal::ParseYamlWithYamlCpp(yaml, l).status()), want);
  EXPECT_EQ(Msg(ParseYamlOrJson(json, l).status()), want);
  EXPECT_EQ(Msg(ParseYamlDocuments(yaml, l).status()), want);
}

TEST(Limits, ObjectBytesHoldForEachDocumentOfAStream) {
  // Three documents of 7, 12 and 11 bytes (a marker line belongs to the
  // document after it).
  const std::string stream = "a: xxx\n---\nb: yyyy\n...\nc: zzz\n";
  Limits l;
  l.max_object_bytes = 12;
  absl::StatusOr<std::vector<Value>> docs = ParseYamlDocuments(stream, l);
  ASSERT_TRUE(docs.ok()) << docs.status();
  EXPECT_EQ(docs->size(), 3u);
  l.max_object_bytes = 11;
  EXPECT_EQ(Msg(ParseYamlDocuments(stream, l).status()),
            "document at line 2 of 12 bytes is over the max_object_bytes "
            "limit of 11");
}

std::string NestedLists(size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

TEST(Limits, DepthHoldsForEveryReader) {
  Limits l;
  l.max_depth = 5;
  const std::string block = "a:\n  b:\n    c:\n      d:\n        - x\n";
  EXPECT_TRUE(ParseJson(NestedLists(5), l).ok());
  EXPECT_TRUE(ParseYaml(NestedLists(5), l).ok());
  EXPECT_TRUE(ParseYaml(block, l).ok());
  EXPECT_EQ(Msg(ParseJson(NestedLists(6), l).status()),
            "nesting at [0][0][0][0][0] (level 6) is over the max_depth limit "
            "of 5");
  EXPECT_THAT(Msg(ParseYaml(NestedLists(6), l).status()),
              HasSubstr("nesting at [0][0][0][0][0] (level 6) is over the "
                        "max_depth limit of 5"));
  l.max_depth = 4;
  EXPECT_THAT(Msg(ParseYaml(block, l).status()),
              HasSubstr("nesting at .a.b.c.d (level 5) is over the max_depth "
                        "limit of 4"));
}

TEST(Limits, ListItemsHoldForEveryReaderAndNameTheList) {
  Limits l;
  l.max_list_items = 3;
  EXPECT_TRUE(ParseJson(R"({"a":{"b":[1,2,3]}})", l).ok());
  EXPECT_TRUE(ParseYaml("a:\n  b:\n  - 1\n  - 2\n  - 3\n", l).ok());
  EXPECT_TRUE(ParseYaml("a: {b: [1, 2, 3]}\n", l).ok());
  const std::string want =
      ".a.b: list of more than 3 items is over the max_list_items limit of 3";
  EXPECT_EQ(Msg(ParseJson(R"({"a":{"b":[1,2,3,4]}})", l).status()), want);
  EXPECT_THAT(
      Msg(ParseYaml("a:\n  b:\n  - 1\n  - 2\n  - 3\n  - 4\n", l).status()),
      HasSubstr(want));
  EXPECT_THAT(Msg(ParseYaml("a: {b: [1, 2, 3, 4]}\n", l).status()),
              HasSubstr(want));
  // A list of lists: the outer one counts its items, not theirs.
  EXPECT_TRUE(ParseJson("[[1,2,3],[1,2,3],[1,2,3]]", l).ok());
  EXPECT_EQ(Msg(ParseJson("[[1],[2],[3],[4]]", l).status()),
            ".: list of more than 3 items is over the max_list_items limit "
            "of 3");
}

TEST(Limits, AliasRuleCountsLikeTheApiServer) {
  EXPECT_TRUE(WithinAliasRatio(100, 100'000));  // 100 aliased: always fine
  EXPECT_TRUE(WithinAliasRatio(990, 1000));     // 1000 nodes: always fine
  EXPECT_TRUE(WithinAliasRatio(9900, 10'000));  // 99% exactly
  EXPECT_FALSE(WithinAliasRatio(9901, 10'000));
  // The share falls from 99% at 400,000 nodes to 10% at 4,000,000.
  EXPECT_TRUE(WithinAliasRatio(400'000, 4'000'000));
  EXPECT_FALSE(WithinAliasRatio(400'001, 4'000'000));
  // At 2,200,000 nodes: 54.5%, the most aliased nodes anywhere (1,199,000).
  EXPECT_TRUE(WithinAliasRatio(1'198'000, 2'200'000));
  EXPECT_FALSE(WithinAliasRatio(1'200'000, 2'200'000));
}

TEST(Limits, ErrorsNameTheLimitAndTheFigure) {
  EXPECT_EQ(Msg(LimitError("list of 5 items", "max_list_items", 4)),
            "list of 5 items is over the max_list_items limit of 4");
  EXPECT_EQ(LimitError("x", "max_depth", 1).code(),
            absl::StatusCode::kResourceExhausted);
  // Through the readers too, where they add a position.
  Limits l;
  l.max_list_items = 1;
  EXPECT_EQ(ParseYaml("a: [1, 2]\n", l).status().code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(ParseJson("[1,2]", l).status().code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(ParseYaml("a: [1\n", l).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace smdx
