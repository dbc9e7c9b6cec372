#include "smdx/typed/default.h"

#include "gtest/gtest.h"
#include "testing/test_util.h"
#include "smdx/value/emit.h"

namespace smdx {
namespace {

using testing::Yaml;

Type MakeType() {
  absl::StatusOr<std::shared_ptr<const Schema>> s = Schema::ParseSmd(R"(types:
- name: root
  map:
    fields:
    - name: foo
      default: {b: def}
      type:
        map:
          fields:
          - name: a
            default: abc
            type: {scalar: string}
          - name: b
            type: {scalar: string}
    - name: list
      type:
        list:
          elementType: {scalar: string, default: apple}
    - name: plain
      type:
        list:
          elementType: {scalar: string}
    - name: labels
      type:
        map:
          elementType: {scalar: string, default: banana}
    - name: opt
      type: {scalar: string}
    - name: keep
      nullable: true
      type: {scalar: string}
)");
  EXPECT_TRUE(s.ok()) << s.status();
  return *Type::Named(*s, "root");
}

TEST(DefaultTest, TopDownDefaulting) {
  EXPECT_EQ(ApplyDefaults(MakeType(), Yaml("{}")),
            Yaml("foo: {a: abc, b: def}"));
}

TEST(DefaultTest, NullHandlingFollowsKep1929) {
  Value got = ApplyDefaults(
      MakeType(), Yaml("foo: null\nopt: null\nkeep: null\nlist: [null, x]\n"
                       "plain: [null]\nlabels: {a: null, b: c}"));
  EXPECT_EQ(
      got,
      Yaml(
          "foo: {a: abc, b: def}\nkeep: null\nlist: [apple, x]\nplain: [null]\n"
          "labels: {a: banana, b: c}"));
}

// As the apiserver's PruneNonNullableNullsWithoutDefaults: a null map value
// goes where the values have a schema, int-or-string included, and stays
// where they are anything (additionalProperties: true, undeclared fields
// that x-kubernetes-preserve-unknown-fields keeps).
TEST(DefaultTest, NullMapValuesGoWhereTheValuesHaveASchema) {
  absl::StatusOr<std::shared_ptr<const Schema>> s = Schema::ParseSmd(R"(types:
- name: root
  map:
    fields:
    - name: limits
      type: {map: {elementType: {scalar: untyped}}}
    - name: free
      type: {map: {elementType: {namedType: anything}}}
- name: anything
  scalar: untyped
  list:
    elementType: {namedType: anything}
    elementRelationship: atomic
  map:
    elementType: {namedType: anything}
)");
  ASSERT_TRUE(s.ok()) << s.status();
  Value got = ApplyDefaults(
      *Type::Named(*s, "root"),
      Yaml("{limits: {cpu: null, memory: 1Gi}, free: {a: null, b: {c: null}}}"));
  EXPECT_EQ(got, Yaml("{limits: {memory: 1Gi}, free: {a: null, b: {c: null}}}"));
}

TEST(DefaultTest, ExplicitValuesAndEmptyContainersAreKept) {
  Value in = Yaml("foo: {a: '', b: x}\nlist: []");
  EXPECT_EQ(ApplyDefaults(MakeType(), in), in);
}

TEST(DefaultTest, RootDefaultAppliesToNull) {
  RootNode root;
  root.default_value = Yaml("{}");
  EXPECT_EQ(ApplyDefaults(MakeType(), Value(), root),
            Yaml("foo: {a: abc, b: def}"));
  root.nullable = true;
  EXPECT_EQ(ApplyDefaults(MakeType(), Value(), root), Value());
}

TEST(DefaultTest, PruneDropsUndeclaredFieldsOnly) {
  Value in = Yaml("foo: {a: x, zzz: 1}\nunknown: 2\nlabels: {any: thing}");
  EXPECT_EQ(PruneUndeclared(MakeType(), in),
            Yaml("foo: {a: x}\nlabels: {any: thing}"));
  Value deduced = Yaml("a: {b: 1}");
  EXPECT_EQ(PruneUndeclared(Type::Deduced(), deduced), deduced);
}

}  // namespace
}  // namespace smdx

namespace smdx {
namespace {

TEST(DefaultTest, IncrementalSkipsWhatThePreviousVersionShares) {
  Type t = MakeType();
  // `previous` was never defaulted, so what the new version shares with it
  // stays as it is; only the changed part is defaulted.
  Value previous = testing::Yaml("foo: {b: x}");
  Value next = previous;
  next.map().Set("labels", testing::Yaml("{a: null}"));
  Value got = ApplyDefaultsIncremental(t, next, previous);
  EXPECT_EQ(got, testing::Yaml("foo: {b: x}\nlabels: {a: banana}"));
}

TEST(DefaultTest, SharedNodesAreCopiedNotChanged) {
  // Whoever else holds a node keeps it as it was: the caller's value passed
  // by copy, and a node held elsewhere below a root that is moved in.
  Value in = Yaml("foo: {a: null, b: x}\nlist: [null]\nlabels: {a: null}");
  const Value before = Yaml(ToJson(in));
  const Value want =
      Yaml("foo: {a: abc, b: x}\nlist: [apple]\nlabels: {a: banana}");
  EXPECT_EQ(ApplyDefaults(MakeType(), in), want);
  EXPECT_EQ(in, before);
  const Value foo = *in.map().Find("foo");
  const Value list = *in.map().Find("list");
  EXPECT_EQ(ApplyDefaults(MakeType(), std::move(in)), want);
  EXPECT_EQ(foo, Yaml("{a: null, b: x}"));
  EXPECT_EQ(list, Yaml("[null]"));
}

TEST(DefaultTest, OwnedNodesChangeInPlace) {
  // A value moved in, whose nodes nothing else holds, is defaulted without
  // copies; only the result is observable, and it is the same.
  Value in = Yaml("foo: {a: null, b: x}\nlist: [null, y]\nlabels: {a: null}");
  Value got = ApplyDefaults(MakeType(), std::move(in));
  EXPECT_EQ(got,
            Yaml("foo: {a: abc, b: x}\nlist: [apple, y]\nlabels: {a: banana}"));
  // The same under a previous version that shares nothing.
  Value again =
      Yaml("foo: {a: null, b: x}\nlist: [null, y]\nlabels: {a: null}");
  Value prev = Yaml("foo: {a: abc, b: x}");
  EXPECT_EQ(ApplyDefaultsIncremental(MakeType(), std::move(again), prev), got);
}

}  // namespace
}  // namespace smdx
