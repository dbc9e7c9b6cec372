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

// GrowingSchema: groups of types linked once; views share them.
TEST(GrowingSchemaTest, ViewsShareTheTypesAndReadLikeBuiltSchemas) {
  const std::string shared = R"(types:
- name: meta
  map:
    fields:
    - name: name
      type: {scalar: string}
    - name: labels
      type: {map: {elementType: {scalar: string}}}
)";
  const std::string a = R"(types:
- name: a
  map:
    fields:
    - name: metadata
      type: {namedType: meta}
    - name: ports
      type:
        list:
          elementType: {namedType: port}
          elementRelationship: associative
          keys: [port]
- name: port
  map:
    fields:
    - name: port
      type: {scalar: numeric}
    - name: protocol
      type: {scalar: string}
      default: TCP
)";
  const std::string b = R"(types:
- name: b
  map:
    fields:
    - name: metadata
      type: {namedType: meta}
    - name: frozen
      type:
        scalar: string
        immutable: true
)";
  GrowingSchema all;
  for (const std::string* text : {&shared, &a, &b}) {
    absl::StatusOr<std::vector<TypeDef>> types = Schema::ParseSmdTypes(*text);
    ASSERT_TRUE(types.ok()) << types.status();
    ASSERT_TRUE(all.Add(*std::move(types)).ok());
  }
  EXPECT_TRUE(all.Has("port"));
  EXPECT_FALSE(all.Has("c"));
  absl::StatusOr<std::shared_ptr<const Schema>> va =
      all.View({"a", "meta", "port"});
  absl::StatusOr<std::shared_ptr<const Schema>> vb = all.View({"b", "meta"});
  ASSERT_TRUE(va.ok()) << va.status();
  ASSERT_TRUE(vb.ok()) << vb.status();
  // Each reads as the schema built from the same types would.
  for (const auto& [view, texts] :
       {std::make_pair(*va, std::vector<const std::string*>{&a, &shared}),
        std::make_pair(*vb, std::vector<const std::string*>{&b, &shared})}) {
    std::vector<TypeDef> types;
    for (const std::string* text : texts) {
      absl::StatusOr<std::vector<TypeDef>> parsed =
          Schema::ParseSmdTypes(*text);
      ASSERT_TRUE(parsed.ok()) << parsed.status();
      for (TypeDef& t : *parsed) types.push_back(std::move(t));
    }
    absl::StatusOr<std::shared_ptr<const Schema>> built =
        Schema::Build(std::move(types));
    ASSERT_TRUE(built.ok()) << built.status();
    EXPECT_EQ(view->types().size(), (*built)->types().size());
    EXPECT_EQ(view->has_defaults(), (*built)->has_defaults());
    EXPECT_EQ(view->has_immutability(), (*built)->has_immutability());
    // The built schema's types in the view's order, written out.
    std::vector<TypeDef> same;
    for (const TypeDef& t : view->types())
      same.push_back(CopyTypeDef(TypeDef{t.name, *(*built)->Find(t.name)}));
    absl::StatusOr<std::shared_ptr<const Schema>> ordered =
        Schema::Build(std::move(same));
    ASSERT_TRUE(ordered.ok()) << ordered.status();
    EXPECT_EQ(SchemaToSmdYaml(*view), SchemaToSmdYaml(**ordered));
  }
  EXPECT_TRUE((*va)->has_defaults());
  EXPECT_FALSE((*va)->has_immutability());
  EXPECT_FALSE((*vb)->has_defaults());
  EXPECT_TRUE((*vb)->has_immutability());
  // One atom per type, whichever view finds it; walks reach it too.
  EXPECT_EQ((*va)->Find("meta"), (*vb)->Find("meta"));
  EXPECT_EQ((*va)->Find("a")->map->fields[0].type.resolved,
            (*vb)->Find("meta"));
  EXPECT_NE((*va)->id(), (*vb)->id());
  EXPECT_EQ((*va)->Find("b"), nullptr);
  // A view's references resolve all the way down.
  const Atom* ports = (*va)->Find("a")->map->fields[1].type.resolved;
  ASSERT_NE(ports, nullptr);
  ASSERT_TRUE(ports->IsAssociativeList());
  EXPECT_EQ(ports->list->element_type.resolved, (*va)->Find("port"));
}

TEST(GrowingSchemaTest, AFailedAddAddsNothingAndViewsCheckTheirNames) {
  GrowingSchema all;
  ASSERT_TRUE(all.Add(*Schema::ParseSmdTypes(R"(types:
- name: leaf
  scalar: string
- name: lmap
  map: {elementType: {scalar: string}}
)")).ok());
  const char* bad[] = {
      // A reference to nothing (the first type is fine on its own, and
      // linking it made an atom for its override).
      R"(types:
- name: fine
  map:
    fields:
    - name: fx
      type: {namedType: lmap, elementRelationship: atomic}
- name: dangling
  map: {fields: [{name: fy, type: {namedType: nowhere}}]}
)",
      // A name taken already.
      R"(types:
- name: fine
  scalar: numeric
- name: leaf
  scalar: numeric
)",
      // A keyed list of scalars.
      R"(types:
- name: fine
  list:
    elementType: {namedType: leaf}
    elementRelationship: associative
    keys: [b]
)",
  };
  for (const char* text : bad) {
    absl::Status st = all.Add(*Schema::ParseSmdTypes(text));
    EXPECT_FALSE(st.ok()) << text;
    EXPECT_FALSE(all.Has("fine")) << text;
    EXPECT_FALSE(all.Has("dangling")) << text;
    EXPECT_TRUE(all.Has("leaf"));
  }
  // The failures left nothing behind: the same names add fine now.
  ASSERT_TRUE(all.Add(*Schema::ParseSmdTypes(R"(types:
- name: fine
  map: {fields: [{name: fx, type: {namedType: leaf}}]}
)")).ok());
  EXPECT_TRUE(all.View({"fine", "leaf"}).ok());
  absl::StatusOr<std::shared_ptr<const Schema>> open = all.View({"fine"});
  ASSERT_FALSE(open.ok());
  EXPECT_EQ(open.status().message(),
            "type \"fine\" refers to \"leaf\", which is not named");
  EXPECT_FALSE(all.View({"fine", "leaf", "missing"}).ok());
  EXPECT_FALSE(all.View({"leaf", "leaf"}).ok());
}

TEST(SchemaTest, LinkErrorsNameWhereTheReferenceIs) {
  // A field of an inline map of a field, and a list's element type.
  EXPECT_NE(ErrorOf("types:\n- name: a\n  map:\n    fields:\n    - name: x\n"
                    "      type:\n        map:\n          fields:\n"
                    "          - name: z\n            type: {namedType: gone}\n")
                .find("a.x.z: no type found matching \"gone\""),
            std::string::npos);
  EXPECT_NE(ErrorOf("types:\n- name: b\n  list:\n    elementType: "
                    "{namedType: gone}\n    elementRelationship: atomic\n")
                .find("b.elementType: no type found matching \"gone\""),
            std::string::npos);
  EXPECT_NE(ErrorOf("types:\n- name: c\n  map:\n    elementType: {}\n")
                .find("c.elementType: inline type declares no scalar"),
            std::string::npos);
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
