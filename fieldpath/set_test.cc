#include "fieldpath/set.h"

#include <vector>

#include "gtest/gtest.h"

namespace smdx {
namespace {

PathElement F(const char* n) { return PathElement::Field(n); }
PathElement K(const char* n, const char* v) {
  return PathElement::Key({KeyField{n, Value(v)}});
}

Set Of(std::initializer_list<Path> paths) {
  Set s;
  for (const Path& p : paths) s.Insert(p);
  return s;
}

TEST(PathElementTest, OrdersFieldsBeforeKeysBeforeValuesBeforeIndexes) {
  PathElement f = F("z"), k = K("name", "a"),
              v = PathElement::OfValue(Value(int64_t{1}));
  PathElement i = PathElement::Index(0);
  EXPECT_LT(f, k);
  EXPECT_LT(k, v);
  EXPECT_LT(v, i);
  EXPECT_LT(F("a"), F("b"));
}

TEST(PathElementTest, KeysAreSortedByFieldName) {
  PathElement a = PathElement::Key({KeyField{"protocol", Value("TCP")},
                                    KeyField{"port", Value(int64_t{80})}});
  EXPECT_EQ(a.key()[0].name, "port");
  EXPECT_EQ(PathString({F("spec"), F("ports"), a}),
            ".spec.ports[port=80,protocol=\"TCP\"]");
}

TEST(PathElementTest, PrintsLikeSmd) {
  EXPECT_EQ(PathString({F("a"), PathElement::OfValue(Value("x")),
                        PathElement::Index(3)}),
            ".a[=\"x\"][3]");
}

TEST(SetTest, InsertAndHas) {
  Set s = Of({{F("spec"), F("replicas")}});
  EXPECT_TRUE(s.Has({F("spec"), F("replicas")}));
  EXPECT_FALSE(s.Has({F("spec")}));
  EXPECT_FALSE(s.Has({}));
  EXPECT_EQ(s.Size(), 1u);
  s.Insert(Path{});
  EXPECT_EQ(s.Size(), 1u);
}

TEST(SetTest, UnionIntersectionDifference) {
  Set a = Of({{F("a")}, {F("b"), F("c")}, {F("b"), F("d")}});
  Set b = Of({{F("b"), F("c")}, {F("e")}});
  EXPECT_EQ(a.Union(b),
            Of({{F("a")}, {F("b"), F("c")}, {F("b"), F("d")}, {F("e")}}));
  EXPECT_EQ(a.Intersection(b), Of({{F("b"), F("c")}}));
  EXPECT_EQ(a.Difference(b), Of({{F("a")}, {F("b"), F("d")}}));
  EXPECT_TRUE(a.Difference(a).Empty());
}

TEST(SetTest, IsSubsetOfAgreesWithAnEmptyDifference) {
  const std::vector<Set> sets = {
      Set(),
      Of({{F("a")}}),
      Of({{F("a")}, {F("b")}}),
      Of({{F("a"), F("b")}}),
      Of({{F("a")}, {F("a"), F("b")}}),
      Of({{F("a")}, {F("a"), F("b")}, {F("a"), F("c")}, {F("d")}}),
      Of({{F("a"), F("c")}, {F("d"), F("e"), F("f")}}),
      Of({{F("d"), F("e")}, {F("d"), F("e"), F("f")}}),
  };
  for (size_t i = 0; i < sets.size(); ++i) {
    for (size_t j = 0; j < sets.size(); ++j) {
      EXPECT_EQ(sets[i].IsSubsetOf(sets[j]),
                sets[i].Difference(sets[j]).Empty())
          << i << " " << j;
    }
  }
  EXPECT_TRUE(sets[4].IsSubsetOf(sets[5]));
  EXPECT_FALSE(sets[5].IsSubsetOf(sets[4]));
}

TEST(SetTest, DifferenceKeepsChildrenButRecursiveDifferenceDropsThem) {
  Set a = Of({{F("a")}, {F("a"), F("b")}});
  Set b = Of({{F("a")}});
  EXPECT_EQ(a.Difference(b), Of({{F("a"), F("b")}}));
  EXPECT_TRUE(a.RecursiveDifference(b).Empty());
}

TEST(SetTest, LeavesDropMembersWithChildren) {
  Set a = Of({{F("a")}, {F("a"), F("b")}, {F("c")}});
  EXPECT_EQ(a.Leaves(), Of({{F("a"), F("b")}, {F("c")}}));
}

TEST(SetTest, WithPrefixAndIterationOrder) {
  Set a = Of({{F("b")},
              {F("a"), K("name", "x"), F("image")},
              {F("a"), K("name", "x")}});
  EXPECT_EQ(a.WithPrefix(F("a")),
            Of({{K("name", "x"), F("image")}, {K("name", "x")}}));
  EXPECT_TRUE(a.WithPrefix(F("zzz")).Empty());
  EXPECT_EQ(a.ToString(), ".b\n.a[name=\"x\"]\n.a[name=\"x\"].image\n");
}

TEST(SetTest, NormalizeSortsAndMerges) {
  Set s;
  s.AppendMemberUnsorted(F("b"));
  s.AppendMemberUnsorted(F("a"));
  s.AppendMemberUnsorted(F("b"));
  s.AppendChildUnsorted(F("c"), Of({{F("x")}}));
  s.AppendChildUnsorted(F("c"), Of({{F("y")}}));
  s.Normalize();
  EXPECT_EQ(s, Of({{F("a")}, {F("b")}, {F("c"), F("x")}, {F("c"), F("y")}}));
}

TEST(SetTest, ChildrenBuiltInPlace) {
  Set s;
  s.AppendChildInPlace(F("a")).AppendMemberUnsorted(F("x"));
  s.AppendChildInPlace(F("b"));
  EXPECT_EQ(s.PopLastChild(), F("b"));
  EXPECT_EQ(s, Of({{F("a"), F("x")}}));
}

}  // namespace
}  // namespace smdx
