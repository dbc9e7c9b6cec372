#include "typed/value.h"

#include <algorithm>
#include <vector>

#include "gtest/gtest.h"
#include "testing/test_util.h"

namespace smdx {
namespace {

using testing::Yaml;

TEST(ValueTest, IntsAndFloatsAreEqualWhenNumericallyEqual) {
  EXPECT_TRUE(Equals(Value(int64_t{1}), Value(1.0)));
  EXPECT_FALSE(Equals(Value(int64_t{1}), Value(1.5)));
  EXPECT_FALSE(Equals(Value(int64_t{1}), Value("1")));
}

TEST(ValueTest, NullAbsentAndEmptyAreDistinct) {
  EXPECT_FALSE(Equals(Yaml("a: null"), Yaml("{}")));
  EXPECT_FALSE(Equals(Yaml("a: {}"), Yaml("a: []")));
  EXPECT_FALSE(Equals(Yaml("a: {}"), Yaml("a: null")));
  EXPECT_TRUE(Equals(Yaml("a: 1\nb: 2"), Yaml("b: 2\na: 1")));
}

TEST(ValueTest, TotalOrderFollowsSmd) {
  // numbers < strings < booleans < lists < maps < null
  std::vector<Value> sorted = {
      Value(int64_t{-3}), Value(0.5),  Value(int64_t{2}),
      Value("a"),         Value("b"),  Value(false),
      Value(true),        Yaml("[1]"), Yaml("[1, 2]"),
      Yaml("{a: 1}"),     Value()};
  for (size_t i = 0; i < sorted.size(); ++i) {
    for (size_t j = 0; j < sorted.size(); ++j) {
      int want = i < j ? -1 : (i > j ? 1 : 0);
      EXPECT_EQ(Compare(sorted[i], sorted[j]), want) << i << " vs " << j;
    }
  }
}

TEST(ValueTest, MapsCompareByKeysInLexicalOrder) {
  EXPECT_EQ(Compare(Yaml("{a: 1}"), Yaml("{a: 2}")), -1);
  EXPECT_EQ(Compare(Yaml("{a: 1}"), Yaml("{a: 1, b: 1}")), -1);
  EXPECT_EQ(Compare(Yaml("{b: 1}"), Yaml("{a: 1}")), 1);
  EXPECT_EQ(Compare(Yaml("{b: 1, a: 2}"), Yaml("{a: 2, b: 1}")), 0);
}

TEST(ValueTest, MapSetReplacesInPlaceAndEraseRemoves) {
  Map m;
  m.Set("a", Value(int64_t{1}));
  m.Set("b", Value(int64_t{2}));
  m.Set("a", Value(int64_t{3}));
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m.entries()[0].key, "a");
  EXPECT_EQ(m.Find("a")->AsInt(), 3);
  EXPECT_TRUE(m.Erase("a"));
  EXPECT_FALSE(m.Erase("a"));
  EXPECT_EQ(m.Find("a"), nullptr);
}

TEST(ValueTest, NodeCountCountsEveryNode) {
  EXPECT_EQ(Yaml("{a: [1, 2], b: {c: x}}").NodeCount(), 6u);
}

}  // namespace
}  // namespace smdx
