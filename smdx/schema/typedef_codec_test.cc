#include "smdx/schema/typedef_codec.h"

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "smdx/schema/builtin.h"
#include "smdx/value/emit.h"
#include "testing/test_util.h"

namespace smdx {
namespace {

// Every type through the codec; the schemas built from both sides must
// write the same SMD YAML (which spells out every field of a definition).
void ExpectSameAfterCodec(const std::vector<TypeDef>& types) {
  std::vector<TypeDef> originals, decoded;
  for (const TypeDef& t : types) {
    std::string bytes;
    AppendEncodedTypeDef(t, &bytes);
    absl::StatusOr<TypeDef> back = DecodeTypeDef(bytes);
    ASSERT_TRUE(back.ok()) << t.name << ": " << back.status();
    originals.push_back(CopyTypeDef(t));
    decoded.push_back(*std::move(back));
  }
  absl::StatusOr<std::shared_ptr<const Schema>> a =
      Schema::Build(std::move(originals));
  absl::StatusOr<std::shared_ptr<const Schema>> b =
      Schema::Build(std::move(decoded));
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(SchemaToSmdYaml(**a), SchemaToSmdYaml(**b));
}

TEST(TypeDefCodecTest, TheKubernetesSchemaComesBackTheSame) {
  absl::StatusOr<std::shared_ptr<const Schema>> k8s = KubernetesSchema();
  ASSERT_TRUE(k8s.ok()) << k8s.status();
  std::vector<TypeDef> types;
  for (const TypeDef& t : (*k8s)->types()) types.push_back(CopyTypeDef(t));
  ASSERT_GT(types.size(), 500u);
  ExpectSameAfterCodec(types);
}

TEST(TypeDefCodecTest, TestSchemasComeBackTheSame) {
  for (const char* file : {"k8s-schema.yaml", "apiresourceimport.yaml",
                           "k8s-schema-10pct-fieldoverride.yaml", "schema.yaml",
                           "scalar.yaml"}) {
    SCOPED_TRACE(file);
    absl::StatusOr<std::vector<TypeDef>> types = Schema::ParseSmdTypes(
        smdx::testing::ReadTestFile(smdx::testing::SharedPath(
            absl::StrCat("testdata/smd/", file))));
    ASSERT_TRUE(types.ok()) << types.status();
    ExpectSameAfterCodec(*types);
  }
}

// Every field the format has, defaults of every kind of value included
// (ints stay ints, floats keep their bits, -0.0 its sign).
constexpr absl::string_view kEverything = R"(types:
- name: root
  map:
    fields:
    - name: count
      type: {scalar: numeric}
      default: -12345678901
    - name: ratio
      type: {scalar: numeric}
      default: 0.1
    - name: negzero
      type: {scalar: numeric}
      default: -0.0
    - name: flag
      type: {scalar: boolean}
      default: true
      nullable: true
    - name: text
      type:
        scalar: string
        immutable: true
      default: "caf\u00e9 \"quoted\""
    - name: items
      type:
        namedType: item-list
        immutableKeys: true
        additionOnly: true
      default: [1, "two", {three: 3}, null, false]
    - name: tags
      type:
        list:
          elementType: {scalar: string}
          elementRelationship: associative
        deletionOnly: true
    - name: extra
      type:
        map:
          elementType:
            scalar: untyped
            default: {a: [], b: {}}
            nullable: true
          elementRelationship: atomic
    - name: override
      type:
        namedType: item
        elementRelationship: atomic
    unions:
    - discriminator: kind
      deduceInvalidDiscriminator: true
      fields:
      - fieldName: count
        discriminatorValue: Count
      - fieldName: ratio
        discriminatorValue: Ratio
    - fields:
      - fieldName: text
        discriminatorValue: Text
- name: item-list
  list:
    elementType: {namedType: item}
    elementRelationship: associative
    keys: [name, port]
- name: item
  map:
    fields:
    - name: name
      type: {scalar: string}
    - name: port
      type: {scalar: numeric}
      default: 80
    elementRelationship: separable
- name: anything
  scalar: untyped
  list:
    elementType: {namedType: __untyped_atomic_}
    elementRelationship: atomic
  map:
    elementType: {namedType: __untyped_deduced_}
    elementRelationship: separable
- name: __untyped_atomic_
  scalar: untyped
- name: __untyped_deduced_
  scalar: untyped
)";

TEST(TypeDefCodecTest, EveryFieldComesBack) {
  absl::StatusOr<std::vector<TypeDef>> types = Schema::ParseSmdTypes(
      kEverything);
  ASSERT_TRUE(types.ok()) << types.status();
  ExpectSameAfterCodec(*types);
  // Defaults, value by value: the schema's writer may print different
  // values alike (an int and a float of the same number).
  std::string bytes;
  AppendEncodedTypeDef((*types)[0], &bytes);
  absl::StatusOr<TypeDef> back = DecodeTypeDef(bytes);
  ASSERT_TRUE(back.ok()) << back.status();
  const std::vector<StructField>& want = (*types)[0].atom.map->fields;
  const std::vector<StructField>& got = back->atom.map->fields;
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE(want[i].name);
    ASSERT_EQ(got[i].default_value.has_value(),
              want[i].default_value.has_value());
    if (want[i].default_value) {
      EXPECT_TRUE(Identical(*got[i].default_value, *want[i].default_value))
          << ToJson(*got[i].default_value);
    }
  }
  EXPECT_TRUE(std::signbit(got[2].default_value->AsFloat()));
  EXPECT_TRUE(got[0].default_value->IsInt());
}

// Damaged bytes are an error, never a read past the end or a crash: every
// truncation, and random changes of every byte.
TEST(TypeDefCodecTest, DamagedBytesAreErrors) {
  absl::StatusOr<std::vector<TypeDef>> types = Schema::ParseSmdTypes(
      kEverything);
  ASSERT_TRUE(types.ok()) << types.status();
  std::string bytes;
  AppendEncodedTypeDef((*types)[0], &bytes);
  for (size_t n = 0; n < bytes.size(); ++n) {
    absl::StatusOr<TypeDef> cut = DecodeTypeDef(bytes.substr(0, n));
    EXPECT_FALSE(cut.ok()) << n;
    if (!cut.ok()) {
      EXPECT_NE(cut.status().message().find("encoded type definition"),
                std::string::npos)
          << cut.status();
    }
  }
  EXPECT_FALSE(DecodeTypeDef(bytes + "x").ok());
  std::mt19937 rng(20261127);
  for (int round = 0; round < 20000; ++round) {
    std::string damaged = bytes;
    damaged[rng() % damaged.size()] = static_cast<char>(rng());
    // Decodes or fails; either way nothing is read beyond the bytes (the
    // sanitizer builds check that).
    (void)DecodeTypeDef(damaged);
  }
  // A count far beyond the bytes left is refused before anything is sized.
  std::string huge;
  huge += '\x01';
  huge += 'r';
  huge += static_cast<char>(4);  // a map
  huge += "\xff\xff\xff\xff\x0f";
  EXPECT_FALSE(DecodeTypeDef(huge).ok());
}

}  // namespace
}  // namespace smdx
