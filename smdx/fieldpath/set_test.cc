#include "smdx/fieldpath/set.h"
#include "smdx/fieldpath/versioned_set.h"

#include <cstdio>
#include <random>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "smdx/fieldpath/fields_v1.h"
#include "smdx/value/emit.h"
#include "smdx/value/intern.h"
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
  EXPECT_EQ(a.key()[0].name(), "port");
  EXPECT_EQ(PathString({F("spec"), F("ports"), a}),
            ".spec.ports[port=80,protocol=\"TCP\"]");
}

TEST(PathElementTest, PrintsLikeSmd) {
  EXPECT_EQ(PathString({F("a"), PathElement::OfValue(Value("x")),
                        PathElement::Index(3)}),
            ".a[=\"x\"][3]");
}

TEST(PathElementTest, SameBitsOnlyForTheSameElement) {
  const PathElement key = K("name", "web");
  const PathElement copy = key;  // shares the key's block
  EXPECT_TRUE(copy.SameBits(key));
  // Equal, but built apart: not the same bits, and still equal.
  const PathElement rebuilt = K("name", "web");
  EXPECT_FALSE(rebuilt.SameBits(key));
  EXPECT_EQ(rebuilt, key);
  EXPECT_TRUE(F("spec").SameBits(F("spec")));  // an inline name
  EXPECT_FALSE(F("spec").SameBits(F("spex")));
  EXPECT_TRUE(PathElement::Index(3).SameBits(PathElement::Index(3)));
  EXPECT_FALSE(PathElement::Index(3).SameBits(PathElement::Index(4)));
  EXPECT_TRUE(PathElement().SameBits(PathElement::Field("")));
  const std::string long_name = "aFieldNameLongerThanFifteenBytes";
  EXPECT_FALSE(PathElement::Field(long_name).SameBits(
      PathElement::Field(long_name)));  // two blocks
  EXPECT_EQ(PathElement::Field(long_name), PathElement::Field(long_name));
}

// A name of `len` letters from `first` on, `step` apart (modulo 26).
std::string NameOfLength(size_t len, char first, size_t step) {
  std::string name;
  for (size_t i = 0; i < len; ++i)
    name.push_back(static_cast<char>(first + (i * step) % 26));
  return name;
}

TEST(PathElementTest, AShortNameHasOneFormHoweverItIsMade) {
  // Up to 15 bytes a name sits in the element, interned or not: equal
  // names are the same bits. Longer interned names are their pointer.
  for (size_t len = 0; len <= 24; ++len) {
    const std::string name = NameOfLength(len, 'a', 7);
    const PathElement made = PathElement::Field(name);
    const PathElement interned = PathElement::InternedField(InternName(name));
    const PathElement read = PathElement::FieldInternedIfKnown(name);
    EXPECT_EQ(made.field_name(), name);
    EXPECT_EQ(interned.field_name(), name);
    EXPECT_TRUE(interned.SameBits(read)) << len;
    EXPECT_EQ(made, interned) << len;
    if (len <= 15) {
      EXPECT_TRUE(made.SameBits(interned)) << len;
      EXPECT_TRUE(interned.IsInlineField()) << len;
      EXPECT_EQ(interned.interned_name(), nullptr) << len;
    } else {
      EXPECT_FALSE(interned.IsInlineField()) << len;
      EXPECT_EQ(*interned.interned_name(), name) << len;
    }
  }
}

TEST(PathElementTest, ANameReadInsideATextHasTheSameForm) {
  // Read from a text that goes on past the name (copied with whole words
  // and masks) or ends right after it (copied byte by byte): the same bits
  // as the name made alone, whatever follows it.
  for (size_t len = 0; len <= 24; ++len) {
    const std::string name = NameOfLength(len, 'A', 5);
    const PathElement made = PathElement::Field(name);
    for (size_t after : {size_t{0}, size_t{1}, size_t{15}, size_t{20}}) {
      const std::string text = name + std::string(after, '\xff');
      const PathElement read = PathElement::FieldInternedIfKnown(
          absl::string_view(text.data(), len), text.data() + text.size());
      EXPECT_EQ(read.field_name(), name) << len << " " << after;
      EXPECT_EQ(read, made) << len << " " << after;
      if (len <= 15) {
        EXPECT_TRUE(read.SameBits(made)) << len << " " << after;
      }
    }
  }
}

Value MapOf(std::vector<std::pair<const char*, Value>> entries) {
  Map m;
  for (auto& [k, v] : entries) m.Append(k, std::move(v));
  return Value(std::move(m));
}

TEST(PathElementTest, EqualElementsHashAlike) {
  // Values equal by SMD's rules, spelled apart.
  const std::pair<Value, Value> equal[] = {
      {Value(int64_t{80}), Value(80.0)},
      {Value(0.0), Value(-0.0)},
      {Value(int64_t{0}), Value(-0.0)},
      {Value("a name longer than sixteen bytes"),
       Value(std::string("a name longer than sixteen bytes"))},
      {MapOf({{"a", Value(int64_t{1})}, {"b", Value("x")}}),
       MapOf({{"b", Value("x")}, {"a", Value(1.0)}})},
      {Value(List{Value(int64_t{1}), Value("y")}),
       Value(List{Value(1.0), Value("y")})},
  };
  for (const auto& [a, b] : equal) {
    ASSERT_TRUE(Equals(a, b)) << ToJson(a);
    EXPECT_EQ(HashValue(a), HashValue(b)) << ToJson(a);
    EXPECT_EQ(HashPathElement(PathElement::OfValue(a)),
              HashPathElement(PathElement::OfValue(b)))
        << ToJson(a);
  }
  std::vector<KeyField> one = {{"port", Value(int64_t{80})},
                               {"protocol", Value("TCP")}};
  std::vector<KeyField> other = {{"protocol", Value("TCP")},
                                 {"port", Value(80.0)}};
  EXPECT_EQ(HashPathElement(PathElement::KeyFrom(absl::MakeSpan(one))),
            HashPathElement(PathElement::KeyFrom(absl::MakeSpan(other))));
  // A name owned and the same name interned.
  for (const char* name : {"spec", "aFieldNameLongerThanFifteenBytes"}) {
    EXPECT_EQ(HashPathElement(PathElement::Field(name)),
              HashPathElement(PathElement::InternedField(InternName(name))))
        << name;
  }
  EXPECT_NE(HashValue(Value("web")), HashValue(Value("wed")));
  EXPECT_NE(HashValue(Value(int64_t{80})), HashValue(Value(int64_t{81})));
}

// A key holds a scalar's bytes in its own block and a list or map as a
// Value: every kind reads back, compares, prints and outlives the element
// it was made for as a Value would.
TEST(PathElementTest, AKeyHoldsEveryKindOfValue) {
  const Value values[] = {
      Value(),
      Value(false),
      Value(true),
      Value(int64_t{-3}),
      Value(int64_t{80}),
      Value(80.5),
      Value(""),
      Value("web"),
      Value("a string value longer than sixteen bytes"),
      Value(List{Value(int64_t{1}), Value("y")}),
      MapOf({{"a", Value(int64_t{1})}}),
  };
  std::vector<PathElement> keys;
  for (const Value& v : values) {
    PathElement k;
    {
      const PathElement made = PathElement::Key(
          {KeyField{"z", Value("last")}, KeyField{"a", Value(v)}});
      k = made;  // the block outlives the element it was made for
    }
    ASSERT_EQ(k.key().size(), 2u);
    EXPECT_EQ(k.key()[0].name(), "a");
    EXPECT_EQ(k.key()[0].kind(), v.kind());
    EXPECT_TRUE(Identical(k.key()[0].value(), v)) << ToJson(v);
    EXPECT_EQ(k.key()[1].name(), "z");
    EXPECT_EQ(k.key()[1].AsString(), "last");
    EXPECT_EQ(k.ToString(), "[a=" + ValueString(v) + ",z=\"last\"]");
    keys.push_back(std::move(k));
  }
  // Keys order as their values do, and equal ones hash alike.
  for (size_t i = 0; i < keys.size(); ++i) {
    for (size_t j = 0; j < keys.size(); ++j) {
      EXPECT_EQ(Compare(keys[i], keys[j]), Compare(values[i], values[j]))
          << ToJson(values[i]) << " against " << ToJson(values[j]);
      EXPECT_EQ(keys[i] == keys[j], Equals(values[i], values[j]));
    }
  }
  const PathElement as_int =
      PathElement::Key({KeyField{"a", Value(int64_t{80})}});
  const PathElement as_float = PathElement::Key({KeyField{"a", Value(80.0)}});
  EXPECT_EQ(as_int, as_float);
  EXPECT_EQ(Compare(as_int, as_float), 0);
  EXPECT_EQ(HashPathElement(as_int), HashPathElement(as_float));
  // A name given twice stays twice, in the order given.
  const PathElement twice = PathElement::Key(
      {KeyField{"b", Value("1")}, KeyField{"a", Value("2")},
       KeyField{"b", Value("3")}});
  ASSERT_EQ(twice.key().size(), 3u);
  EXPECT_EQ(twice.ToString(), "[a=\"2\",b=\"1\",b=\"3\"]");
}

// Keys of many fields (read from text, where nothing bounds them but the
// fieldsV1 limits) are sorted as keys of a few: by name, stably.
TEST(PathElementTest, AKeyOfManyFieldsIsSortedStably) {
  KeyFields fields;
  for (int i = 39; i >= 0; --i) {
    char name[8];
    std::snprintf(name, sizeof(name), "f%02d", i);
    fields.push_back(KeyField{name, Value(int64_t{i})});
  }
  fields.push_back(KeyField{"f07", Value("again")});
  const PathElement k = PathElement::Key(fields);
  ASSERT_EQ(k.key().size(), 41u);
  for (size_t i = 1; i < k.key().size(); ++i)
    EXPECT_LE(k.key()[i - 1].name(), k.key()[i].name()) << i;
  EXPECT_EQ(k.key()[7].name(), "f07");
  EXPECT_EQ(k.key()[7].AsInt(), 7);
  EXPECT_EQ(k.key()[8].name(), "f07");
  EXPECT_EQ(k.key()[8].AsString(), "again");
}

TEST(SetTest, SetsOfElementsBuiltApartCompareByContent) {
  // The same paths, one set built here and one read back from its
  // encoding: no element shares its bits with the other set's.
  const Set a = Of({{F("spec"), F("containers"), K("name", "web"), F("image")},
                    {F("spec"), F("containers"), K("name", "db")},
                    {F("metadata"), F("aFieldNameLongerThanFifteenBytes")}});
  absl::StatusOr<Set> b = ParseFieldsV1(SerializeFieldsV1(a));
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(*b, a);
  EXPECT_TRUE(b->IsSubsetOf(a));
  EXPECT_TRUE(a.IsSubsetOf(*b));
  const Set more =
      a.Union(Of({{F("spec"), F("containers"), K("name", "cache")}}));
  EXPECT_TRUE(b->IsSubsetOf(more));
  EXPECT_FALSE(more.IsSubsetOf(*b));
  EXPECT_NE(more, *b);
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
  s.AppendEntry(F("c")).children = Of({{F("x")}});
  s.AppendEntry(F("c")).children = Of({{F("y")}});
  s.Normalize();
  EXPECT_EQ(s, Of({{F("a")}, {F("b")}, {F("c"), F("x")}, {F("c"), F("y")}}));
}

TEST(SetTest, ChildrenBuiltInPlace) {
  Set s;
  s.AppendEntry(F("a")).children.AppendMemberUnsorted(F("x"));
  s.AppendEntry(F("b"));
  EXPECT_EQ(s.PopLastEntry(), F("b"));
  EXPECT_EQ(s, Of({{F("a"), F("x")}}));
}

// `member` is a bit of the pointer to the entry's children: it belongs to
// the entry, so a node copied or moved out of an entry, or into one, never
// takes it along, while copies and moves of the entry do.
TEST(SetEntryTest, MemberStaysWithTheEntryNotWithItsChildren) {
  SetEntry a(F("a"), true, Of({{F("b")}}));
  EXPECT_TRUE(a.member());

  SetEntry moved(std::move(a));
  EXPECT_TRUE(moved.member());
  EXPECT_EQ(moved.children, Of({{F("b")}}));

  SetEntry given(F("c"), false, moved.children);
  EXPECT_FALSE(given.member());
  given.children = moved.children;
  EXPECT_FALSE(given.member());
  EXPECT_TRUE(moved.member());

  Set taken = std::move(moved.children);
  EXPECT_TRUE(moved.member());
  EXPECT_TRUE(moved.children.Empty());
  SetEntry holder(F("d"), false, std::move(taken));
  EXPECT_FALSE(holder.member());
  EXPECT_EQ(holder.children, Of({{F("b")}}));

  SetEntry copy = given;
  copy.set_member(true);
  EXPECT_TRUE(copy.member());
  EXPECT_FALSE(given.member());
  given = copy;
  EXPECT_TRUE(given.member());
  EXPECT_EQ(given.children, Of({{F("b")}}));

  // In a set: a member with children, and one without, through a union, a
  // sort and an unshared write.
  Set s = Of({{F("x")}, {F("x"), F("y")}});
  Set t = Of({{F("w"), F("v")}});
  Set u = s.Union(t);
  EXPECT_TRUE(u.Has({F("x")}));
  EXPECT_TRUE(u.Has({F("x"), F("y")}));
  EXPECT_FALSE(u.Has({F("w")}));
  Set built;
  built.AppendEntry(F("z")).set_member(true);
  built.AppendEntry(F("m")).children = Of({{F("n")}});
  built.Normalize();
  EXPECT_EQ(built, Of({{F("z")}, {F("m"), F("n")}}));
  Set shared = built;
  shared.Insert({F("z"), F("q")});
  EXPECT_TRUE(shared.Has({F("z")}));
  EXPECT_TRUE(shared.Has({F("z"), F("q")}));
  EXPECT_EQ(built, Of({{F("z")}, {F("m"), F("n")}}));
}

TEST(SetTest, NodesMoveBetweenThreadsAndOutliveThem) {
  // Node blocks are recycled per thread: a set built on one thread and
  // dropped on another, or a thread_local set dropped after its thread's
  // cache, must still be freed correctly.
  Set moved;
  std::thread t([&moved] {
    thread_local Set kept;
    kept.Insert({F("kept"), F("x")});
    for (int i = 0; i < 100; ++i) {
      Set s = Of({{F("a"), F("b")}, {F("a"), F("c")}, {F("d")}});
      moved = moved.Union(s);
    }
  });
  t.join();
  EXPECT_EQ(moved, Of({{F("a"), F("b")}, {F("a"), F("c")}, {F("d")}}));
  moved = Set();
  EXPECT_TRUE(moved.Empty());
}

TEST(VersionedSetTest, ASetIsChangedInPlaceOnlyByItsSoleOwner) {
  VersionedSet own(Of({{F("a")}, {F("b")}}), "v1", true);
  ASSERT_NE(own.MutableSetIfUnshared(), nullptr);
  own.MutableSetIfUnshared()->Subtract(Of({{F("a")}}));
  EXPECT_EQ(own.set(), Of({{F("b")}}));
  // A copy shares the set: neither may change it any more.
  VersionedSet copy = own;
  EXPECT_EQ(own.MutableSetIfUnshared(), nullptr);
  EXPECT_EQ(copy.MutableSetIfUnshared(), nullptr);
  copy = VersionedSet();
  EXPECT_NE(own.MutableSetIfUnshared(), nullptr);
  // A set handed in shared may be a const object: never changed.
  VersionedSet given(std::make_shared<const Set>(Of({{F("a")}})), "v1", true);
  EXPECT_EQ(given.MutableSetIfUnshared(), nullptr);
}

// The set operations against a model that keeps every path on its own (a
// std::set of paths), on random sets whose paths share prefixes a lot.
class SetModelTest : public ::testing::Test {
 protected:
  using Model = std::set<Path>;

  Path RandomPath() {
    static const PathElement kElements[] = {F("a"),
                                            F("b"),
                                            F("spec"),
                                            K("name", "x"),
                                            K("name", "y"),
                                            PathElement::OfValue(Value("v")),
                                            PathElement::Index(0),
                                            PathElement::Index(1)};
    Path p(1 + rng_() % 4);
    for (PathElement& pe : p) pe = kElements[rng_() % 8];
    return p;
  }
  Model RandomModel() {
    Model m;
    const size_t n = rng_() % 12;
    for (size_t i = 0; i < n; ++i) m.insert(RandomPath());
    return m;
  }
  static Set ToSet(const Model& m) {
    Set s;
    for (const Path& p : m) s.Insert(p);
    return s;
  }
  static Model ToModel(const Set& s) {
    Model m;
    s.Iterate([&](const Path& p) { m.insert(p); });
    return m;
  }
  static bool HasPrefixIn(const Path& p, const Model& m) {
    for (size_t n = 1; n <= p.size(); ++n) {
      if (m.count(Path(p.begin(), p.begin() + static_cast<ptrdiff_t>(n))))
        return true;
    }
    return false;
  }

  std::mt19937 rng_{20261123};
};

TEST_F(SetModelTest, OperationsAgreeWithTheModel) {
  for (int round = 0; round < 2000; ++round) {
    const Model ma = RandomModel(), mb = RandomModel();
    const Set a = ToSet(ma), b = ToSet(mb);
    ASSERT_EQ(ToModel(a), ma);
    ASSERT_EQ(a.Size(), ma.size());
    ASSERT_EQ(a.Empty(), ma.empty());

    Model uni = ma, inter, diff, rdiff, leaves;
    uni.insert(mb.begin(), mb.end());
    for (const Path& p : ma) {
      if (mb.count(p)) {
        inter.insert(p);
      } else {
        diff.insert(p);
      }
      if (!HasPrefixIn(p, mb)) rdiff.insert(p);
      bool extended = false;
      for (const Path& q : ma) {
        extended = extended || (q.size() > p.size() &&
                                std::equal(p.begin(), p.end(), q.begin()));
      }
      if (!extended) leaves.insert(p);
    }
    ASSERT_EQ(ToModel(a.Union(b)), uni);
    ASSERT_EQ(a.Union(b), b.Union(a));
    ASSERT_EQ(ToModel(a.Intersection(b)), inter);
    ASSERT_EQ(a.Intersection(b), b.Intersection(a));
    ASSERT_EQ(ToModel(a.Difference(b)), diff);
    Set subtracted = a;
    subtracted.Subtract(b);
    ASSERT_EQ(subtracted, a.Difference(b));
    ASSERT_EQ(ToModel(a.RecursiveDifference(b)), rdiff);
    ASSERT_EQ(ToModel(a.Leaves()), leaves);
    ASSERT_EQ(a.IsSubsetOf(b), diff.empty());
    for (const Path& p : mb) ASSERT_EQ(a.Has(p), ma.count(p) == 1);
    // Results are normalized: equal sets compare equal however built.
    ASSERT_EQ(a.Union(b).Difference(b), ToSet(diff));
    ASSERT_EQ(a.Intersection(b), ToSet(inter));

    absl::StatusOr<Set> back = ParseFieldsV1(SerializeFieldsV1(a));
    ASSERT_TRUE(back.ok()) << back.status();
    ASSERT_EQ(*back, a);
    // What the encoder writes reads back as canonical.
    bool canonical = false;
    absl::StatusOr<Set> from_value =
        FieldsV1FromValue(FieldsV1ToValue(a), Limits(), &canonical);
    ASSERT_TRUE(from_value.ok()) << from_value.status();
    ASSERT_EQ(*from_value, a);
    ASSERT_TRUE(canonical) << SerializeFieldsV1(a);
  }
}

// Copies share nodes (CompactVector counts its blocks), and results of set
// operations share the nodes of their inputs where one side has nothing.
// The same operations on sets that share nodes agree with the model, and
// writing to a copy (Insert, Subtract, Descend, Normalize) leaves every
// set it shares nodes with as it was.
TEST_F(SetModelTest, SetsSharingNodesAgreeWithTheModelAndWritesUnshare) {
  for (int round = 0; round < 2000; ++round) {
    const Model ma = RandomModel(), mb = RandomModel();
    const Set a = ToSet(ma);
    const Set b = a.Union(ToSet(mb));  // a's nodes where mb has nothing
    Model mu = ma;
    mu.insert(mb.begin(), mb.end());
    Model b_minus_a, b_rminus_a;
    for (const Path& p : mu) {
      if (!ma.count(p)) b_minus_a.insert(p);
      if (!HasPrefixIn(p, ma)) b_rminus_a.insert(p);
    }
    ASSERT_EQ(ToModel(b), mu);
    ASSERT_EQ(ToModel(a.Intersection(b)), ma);
    ASSERT_TRUE(a.Difference(b).Empty());
    ASSERT_TRUE(a.RecursiveDifference(b).Empty());
    ASSERT_EQ(ToModel(b.Difference(a)), b_minus_a);
    ASSERT_EQ(ToModel(b.RecursiveDifference(a)), b_rminus_a);
    ASSERT_TRUE(a.IsSubsetOf(b));
    ASSERT_EQ(b.IsSubsetOf(a), mu == ma);
    ASSERT_EQ(a == b, ma == mu);
    ASSERT_EQ(a.Union(b), b);

    Set c = b;
    const Path extra = RandomPath();
    c.Insert(extra);
    c.Subtract(ToSet(ma));
    Model mc = mu;
    mc.insert(extra);
    for (const Path& p : ma) mc.erase(p);
    ASSERT_EQ(ToModel(c), mc);
    Set d = a;
    d.Subtract(ToSet(mb));
    Model md;
    for (const Path& p : ma) {
      if (!mb.count(p)) md.insert(p);
    }
    ASSERT_EQ(ToModel(d), md);
    Set e = b;
    Set& below = e.Descend(F("spec"));
    below.AppendMemberUnsorted(F("z"));
    below.AppendMemberUnsorted(F("b"));
    below.Normalize();
    ASSERT_TRUE(e.Has({F("spec"), F("z")}));
    ASSERT_EQ(ToModel(a), ma);
    ASSERT_EQ(ToModel(b), mu);
  }
}

// Threads copy one set, write to their copies and drop them while the
// others read it: the counts of its shared nodes are atomic, and a write
// copies a shared node before it changes it. (ThreadSanitizer runs this.)
TEST(SetTest, ThreadsWriteToCopiesOfOneSetWhileOthersReadIt) {
  Set shared;
  for (int i = 0; i < 50; ++i) {
    const std::string name = "f" + std::to_string(i);
    shared.Insert({F("spec"), PathElement::Field(name), F("x")});
    shared.Insert({F("status"), PathElement::Field(name)});
  }
  const std::string before = SerializeFieldsV1(shared);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&shared, t] {
      for (int i = 0; i < 300; ++i) {
        Set mine = shared;
        mine.Insert({F("spec"), PathElement::Field("t" + std::to_string(t)),
                     F("y")});
        mine.Subtract(Of({{F("status"), F("f1")}}));
        Set u = mine.Union(shared);
        EXPECT_EQ(u.Size(), shared.Size() + 1);
        EXPECT_TRUE(shared.Difference(u).Empty());
        EXPECT_FALSE(mine.IsSubsetOf(shared));
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(SerializeFieldsV1(shared), before);
}

// The node of a list of thousands of items reuses the block the last such
// node left (BigBlock): nodes built one after another, of
// sizes that fit it or not, hold exactly their own entries, on this thread
// and on one that ends with its block kept.
TEST(SetTest, BigNodesBuiltOneAfterAnotherHoldTheirOwnEntries) {
  auto build = [](int n, const std::string& prefix) {
    Set s;
    for (int i = 0; i < n; ++i)
      s.AppendMemberUnsorted(PathElement::Field(prefix + std::to_string(i)));
    s.Normalize();
    return s;
  };
  for (int n : {5000, 3000, 2600, 9000, 2048, 100, 4100}) {
    const std::string prefix = "n" + std::to_string(n) + "-";
    Set s = build(n, prefix);
    ASSERT_EQ(s.Size(), static_cast<size_t>(n));
    EXPECT_TRUE(s.Has({PathElement::Field(prefix + "0")}));
    EXPECT_TRUE(s.Has({PathElement::Field(prefix + std::to_string(n - 1))}));
    Set copy = s;
    copy.Insert({F("zzz")});
    EXPECT_EQ(copy.Size(), s.Size() + 1);
  }
  std::thread t([&build] {
    Set s = build(4000, "t");
    EXPECT_EQ(s.Size(), 4000u);
  });
  t.join();
}

}  // namespace
}  // namespace smdx
