#include "smdx/schema/schema.h"

#include <vector>

#include "gtest/gtest.h"
#include "smdx/schema/builtin.h"
#include "testing/test_util.h"

namespace smdx {
namespace {

std::string ErrorOf(const std::string& yaml) {
  absl::StatusOr<std::shared_ptr<const Schema>> s = Schema::ParseSmd(yaml);
  EXPECT_FALSE(s.ok()) << yaml;
  return s.ok() ? "" : std::string(s.status().message());
}

TEST(SchemaTest, ParsesRecursiveTypesAndResolvesReferences) {
  absl::StatusOr<std::shared_ptr<const Schema>> s = Schema::ParseSmd(R"(types:
- name: node
  map:
    fields:
    - name: children
      type:
        list:
          elementType:
            namedType: node
          elementRelationship: associative
          keys: [name]
    - name: name
      type:
        scalar: string
      default: x
)");
  ASSERT_TRUE(s.ok()) << s.status();
  const Atom* node = (*s)->Find("node");
  ASSERT_NE(node, nullptr);
  const StructField* children = node->map->FindField("children");
  ASSERT_NE(children, nullptr);
  const Atom* list = children->type.resolved;
  ASSERT_NE(list, nullptr);
  EXPECT_TRUE(list->IsAssociativeList());
  EXPECT_EQ(list->list->element_type.resolved, node);
  EXPECT_EQ(node->map->FindField("name")->default_value->AsString(), "x");
}

TEST(SchemaTest, FieldLevelOverrideChangesOnlyThatReference) {
  absl::StatusOr<std::shared_ptr<const Schema>> s = Schema::ParseSmd(R"(types:
- name: root
  map:
    fields:
    - name: a
      type:
        namedType: m
        elementRelationship: atomic
    - name: b
      type:
        namedType: m
- name: m
  map:
    elementType:
      scalar: string
)");
  ASSERT_TRUE(s.ok()) << s.status();
  const MapType& root = *(*s)->Find("root")->map;
  EXPECT_TRUE(root.FindField("a")->type.resolved->IsAtomicMap());
  EXPECT_FALSE(root.FindField("b")->type.resolved->IsAtomicMap());
}

// CopyTypeDef: a linked type copied into another schema shares no list,
// map or inline type with it, and links anew there.
TEST(SchemaTest, CopiedTypesShareNothingAndLinkAnew) {
  const char* text = R"(types:
- name: root
  map:
    fields:
    - name: items
      type:
        list:
          elementType:
            map:
              fields:
              - name: name
                type:
                  scalar: string
          elementRelationship: associative
          keys: [name]
    - name: m
      type:
        namedType: m
        elementRelationship: atomic
- name: m
  map:
    elementType:
      scalar: string
)";
  absl::StatusOr<std::vector<TypeDef>> defs = Schema::ParseSmdTypes(text);
  ASSERT_TRUE(defs.ok()) << defs.status();
  ASSERT_EQ(defs->size(), 2u);
  absl::StatusOr<std::shared_ptr<const Schema>> a = Schema::ParseSmd(text);
  ASSERT_TRUE(a.ok()) << a.status();
  std::vector<TypeDef> copies;
  for (const TypeDef& t : (*a)->types()) copies.push_back(CopyTypeDef(t));
  absl::StatusOr<std::shared_ptr<const Schema>> b =
      Schema::Build(std::move(copies));
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(SchemaToSmdYaml(**a), SchemaToSmdYaml(**b));
  const MapType& ra = *(*a)->Find("root")->map;
  const MapType& rb = *(*b)->Find("root")->map;
  EXPECT_NE(&ra, &rb);
  const TypeRef& items_a = ra.FindField("items")->type;
  const TypeRef& items_b = rb.FindField("items")->type;
  EXPECT_NE(items_a.inlined.get(), items_b.inlined.get());
  EXPECT_NE(items_a.inlined->list.get(), items_b.inlined->list.get());
  EXPECT_NE(items_a.inlined->list->element_type.resolved,
            items_b.inlined->list->element_type.resolved);
  // The override resolves to an atom of b, atomic, over b's m.
  const Atom* m_b = rb.FindField("m")->type.resolved;
  EXPECT_TRUE(m_b->IsAtomicMap());
  EXPECT_EQ(m_b->map.get(), (*b)->Find("m")->map.get());
  EXPECT_NE(m_b->map.get(), (*a)->Find("m")->map.get());
}

TEST(SchemaTest, ErrorsNameTheProblem) {
  EXPECT_NE(ErrorOf("types:\n- name: a\n  map:\n    fields:\n    - name: x\n   "
                    "   type:\n        namedType: missing\n")
                .find("no type found matching \"missing\""),
            std::string::npos);
  EXPECT_NE(ErrorOf("types:\n- name: a\n  list:\n    elementType:\n      "
                    "scalar: string\n    keys: [k]\n")
                .find("not associative"),
            std::string::npos);
  EXPECT_NE(
      ErrorOf(
          "types:\n- name: a\n  list:\n    elementType:\n      scalar: string\n"
          "    elementRelationship: associative\n    keys: [k]\n")
          .find("must have map elements"),
      std::string::npos);
  EXPECT_NE(ErrorOf("types:\n- name: a\n  scalar: float\n")
                .find("unknown scalar type"),
            std::string::npos);
  EXPECT_NE(
      ErrorOf(
          "types:\n- name: a\n  scalar: string\n- name: a\n  scalar: string\n")
          .find("defined twice"),
      std::string::npos);
  EXPECT_NE(ErrorOf("types:\n- name: a\n").find("invalid atom"),
            std::string::npos);
  EXPECT_NE(ErrorOf("types: [").find("schema:"), std::string::npos);
}

TEST(SchemaTest, EmptyFieldNameIsANameAndRoundTrips) {
  // A JSON object may have the key "", and OpenAPI a property of that name
  // (found by the schema fuzzer: such a schema wrote back as SMD YAML that
  // did not load). An absent name is still an error.
  const char* text =
      "types:\n- name: a\n  map:\n    fields:\n    - name: \"\"\n      type:\n"
      "        scalar: string\n";
  absl::StatusOr<std::shared_ptr<const Schema>> s = Schema::ParseSmd(text);
  ASSERT_TRUE(s.ok()) << s.status();
  const Atom* a = (*s)->Find("a");
  ASSERT_NE(a, nullptr);
  ASSERT_TRUE(a->map);
  ASSERT_EQ(a->map->fields.size(), 1u);
  EXPECT_EQ(a->map->fields[0].name, "");
  std::string written = SchemaToSmdYaml(**s);
  absl::StatusOr<std::shared_ptr<const Schema>> again =
      Schema::ParseSmd(written);
  ASSERT_TRUE(again.ok()) << again.status() << "\n" << written;
  EXPECT_EQ(SchemaToSmdYaml(**again), written);
  EXPECT_NE(ErrorOf("types:\n- name: a\n  map:\n    fields:\n    - type:\n"
                    "        scalar: string\n")
                .find("field has no name"),
            std::string::npos);
}

TEST(SchemaTest, BadSchemaFileGivesReadableError) {
  std::string msg = ErrorOf(testing::ReadTestFile(
      testing::SharedPath("testdata/smd/bad-schema.yaml")));
  EXPECT_NE(msg.find("types[0]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("apple"), std::string::npos) << msg;
}

TEST(SchemaTest, EmbeddedKubernetesSchemaLoadsAndMapsKinds) {
  absl::StatusOr<std::shared_ptr<const Schema>> s = KubernetesSchema();
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(*KubernetesTypeName(**s, "v1", "Pod"), "io.k8s.api.core.v1.Pod");
  EXPECT_EQ(*KubernetesTypeName(**s, "apps/v1", "Deployment"),
            "io.k8s.api.apps.v1.Deployment");
  EXPECT_EQ(*KubernetesTypeName(**s, "rbac.authorization.k8s.io/v1", "Role"),
            "io.k8s.api.rbac.v1.Role");
  EXPECT_FALSE(KubernetesTypeName(**s, "example.com/v1", "Widget").ok());
}

TEST(SchemaTest, DeducedSchemaHasUntypedRoot) {
  std::shared_ptr<const Schema> s = DeducedSchema();
  const Atom* root = s->Find(kDeducedTypeName);
  ASSERT_NE(root, nullptr);
  EXPECT_TRUE(root->scalar && root->list && root->map);
  EXPECT_FALSE(root->IsAtomicMap());
  EXPECT_TRUE(root->IsAtomicList());
}

}  // namespace
}  // namespace smdx
