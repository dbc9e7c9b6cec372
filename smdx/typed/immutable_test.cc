#include "smdx/typed/immutable.h"

#include "smdx/fieldpath/fields_v1.h"
#include "gtest/gtest.h"
#include "testing/test_util.h"

namespace smdx {
namespace {

using testing::Yaml;

absl::StatusOr<Type> MakeType(const std::string& fields) {
  absl::StatusOr<std::shared_ptr<const Schema>> s =
      Schema::ParseSmd("types:\n- name: root\n  map:\n    fields:\n" + fields);
  if (!s.ok()) return s.status();
  return Type::Named(*s, "root");
}

std::vector<std::string> Paths(const std::vector<ImmutabilityViolation>& v) {
  std::vector<std::string> out;
  for (const ImmutabilityViolation& x : v) out.push_back(PathString(x.path));
  return out;
}

constexpr char kFields[] = R"(    - name: foo
      type:
        immutable: true
        map:
          fields:
          - name: bar
            type: {scalar: string}
    - name: tags
      type:
        list:
          elementType: {scalar: string, immutable: true}
    - name: keys
      type:
        immutableKeys: true
        map:
          elementType: {scalar: string}
    - name: set
      type:
        immutable: true
        list:
          elementType: {scalar: string}
          elementRelationship: associative
    - name: free
      type: {scalar: string}
)";

TEST(ImmutableTest, SubtreeChangeNamesTheMarkedNode) {
  Type t = *MakeType(kFields);
  EXPECT_EQ(
      Paths(CheckImmutability(t, Yaml("foo: {bar: a}"), Yaml("foo: {bar: b}"))),
      std::vector<std::string>{".foo"});
  EXPECT_TRUE(CheckImmutability(t, Yaml("foo: {bar: a}\nfree: x"),
                                Yaml("foo: {bar: a}\nfree: y"))
                  .empty());
  EXPECT_EQ(
      Paths(CheckImmutability(t, Yaml("free: x"), Yaml("foo: {}\nfree: x"))),
      std::vector<std::string>{".foo"});
}

TEST(ImmutableTest, ItemsMatchedByIndexAndSetsIgnoreOrder) {
  Type t = *MakeType(kFields);
  EXPECT_EQ(Paths(CheckImmutability(t, Yaml("tags: [a, b]"),
                                    Yaml("tags: [a, c, d]"))),
            std::vector<std::string>{".tags[1]"});
  EXPECT_TRUE(
      CheckImmutability(t, Yaml("set: [a, b]"), Yaml("set: [b, a]")).empty());
  EXPECT_EQ(Paths(CheckImmutability(t, Yaml("set: [a, b]"), Yaml("set: [a]"))),
            std::vector<std::string>{".set"});
}

TEST(ImmutableTest, ImmutableKeys) {
  Type t = *MakeType(kFields);
  EXPECT_TRUE(
      CheckImmutability(t, Yaml("keys: {a: '1'}"), Yaml("keys: {a: '2'}"))
          .empty());
  EXPECT_EQ(Paths(CheckImmutability(t, Yaml("keys: {a: '1'}"),
                                    Yaml("keys: {b: '1'}"))),
            (std::vector<std::string>{".keys.a", ".keys.b"}));
}

TEST(ImmutableTest, CreationNeverViolates) {
  Type t = *MakeType(kFields);
  EXPECT_TRUE(CheckImmutability(t, Value(), Yaml("foo: {bar: a}")).empty());
}

TEST(ImmutableTest, MarkerRulesAreSchemaErrors) {
  EXPECT_FALSE(MakeType("    - name: s\n      type:\n        immutableKeys: "
                        "true\n        list:\n"
                        "          elementType: {scalar: string}\n          "
                        "elementRelationship: associative\n")
                   .ok());
  EXPECT_FALSE(
      MakeType("    - name: m\n      type:\n        immutable: true\n        "
               "immutableKeys: true\n"
               "        map:\n          elementType: {scalar: string}\n")
          .ok());
  absl::StatusOr<Type> meta = MakeType(
      "    - name: metadata\n      type:\n        map:\n          fields:\n    "
      "      - name: name\n"
      "            type: {scalar: string, immutable: true}\n");
  ASSERT_FALSE(meta.ok());
  EXPECT_NE(std::string(meta.status().message()).find(".metadata.name"),
            std::string::npos)
      << meta.status();
}

TEST(ImmutableTest, SchemaRoundTripKeepsMarkers) {
  Type t = *MakeType(kFields);
  EXPECT_TRUE(t.schema().has_immutability());
  Type plain = *MakeType("    - name: a\n      type: {scalar: string}\n");
  EXPECT_FALSE(plain.schema().has_immutability());
}

}  // namespace
}  // namespace smdx
