#include "smdx/openapi/openapi.h"

#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "smdx/merge/updater.h"
#include "smdx/schema/builtin.h"
#include "testing/test_util.h"
#include "smdx/typed/typed.h"
#include "smdx/value/parse.h"

namespace smdx {
namespace {

using ::smdx::testing::ReadTestFile;
using ::absl::StrCat;
using ::smdx::testing::SharedPath;
using ::smdx::testing::SourcePath;
using ::smdx::testing::Yaml;

Value ReadDoc(const std::string& path) {
  absl::StatusOr<Value> v =
      ParseYamlOrJson(ReadTestFile(path), SchemaDocumentLimits());
  EXPECT_TRUE(v.ok()) << path << ": " << v.status();
  return v.ok() ? *std::move(v) : Value();
}

// Schema comparison by meaning: the same types in the same order, and for
// each the same atoms, fields (order included), relationships, keys,
// defaults, unions and smdx extensions. Returns the first difference, or
// "" when there is none.
std::string DiffAtom(const Atom& a, const Atom& b, const std::string& where);

std::string DiffRef(const TypeRef& a, const TypeRef& b,
                    const std::string& where) {
  if (a.named_type != b.named_type) {
    return absl::StrCat(where, ": namedType \"", a.named_type, "\" vs \"",
                        b.named_type, "\"");
  }
  if (a.named_type.empty()) {
    if (!a.inlined || !b.inlined)
      return absl::StrCat(where, ": no inline type");
    if (std::string d = DiffAtom(*a.inlined, *b.inlined, where); !d.empty())
      return d;
  }
  if (a.element_relationship != b.element_relationship)
    return absl::StrCat(where, ": relationship override differs");
  if (a.default_value.has_value() != b.default_value.has_value() ||
      (a.default_value && *a.default_value != *b.default_value)) {
    return absl::StrCat(where, ": default differs");
  }
  if (a.nullable != b.nullable)
    return absl::StrCat(where, ": nullable differs");
  const Immutability &x = a.immutability, &y = b.immutability;
  if (x.immutable != y.immutable || x.immutable_keys != y.immutable_keys ||
      x.addition_only != y.addition_only ||
      x.deletion_only != y.deletion_only) {
    return absl::StrCat(where, ": immutability differs");
  }
  return "";
}

std::string DiffAtom(const Atom& a, const Atom& b, const std::string& where) {
  if (a.scalar != b.scalar) return absl::StrCat(where, ": scalar differs");
  if (!a.list != !b.list) return absl::StrCat(where, ": list vs no list");
  if (a.list) {
    if (a.list->element_relationship != b.list->element_relationship) {
      return absl::StrCat(where, ": list relationship ",
                          RelationshipName(a.list->element_relationship),
                          " vs ",
                          RelationshipName(b.list->element_relationship));
    }
    if (a.list->keys != b.list->keys)
      return absl::StrCat(where, ": keys differ");
    if (std::string d = DiffRef(a.list->element_type, b.list->element_type,
                                absl::StrCat(where, ".list.elementType"));
        !d.empty()) {
      return d;
    }
  }
  if (!a.map != !b.map) return absl::StrCat(where, ": map vs no map");
  if (a.map) {
    const MapType &m = *a.map, &n = *b.map;
    if (m.element_relationship != n.element_relationship) {
      return absl::StrCat(where, ": map relationship ",
                          RelationshipName(m.element_relationship), " vs ",
                          RelationshipName(n.element_relationship));
    }
    if (m.fields.size() != n.fields.size())
      return absl::StrCat(where, ": ", m.fields.size(), " vs ", n.fields.size(),
                          " fields");
    for (size_t i = 0; i < m.fields.size(); ++i) {
      const StructField &f = m.fields[i], &g = n.fields[i];
      std::string fw = absl::StrCat(where, ".", f.name);
      if (f.name != g.name)
        return absl::StrCat(where, ": field ", f.name, " vs ", g.name);
      if (std::string d = DiffRef(f.type, g.type, fw); !d.empty()) return d;
      if (f.default_value.has_value() != g.default_value.has_value() ||
          (f.default_value && *f.default_value != *g.default_value)) {
        return absl::StrCat(fw, ": default differs");
      }
      if (f.nullable != g.nullable)
        return absl::StrCat(fw, ": nullable differs");
    }
    if (m.element_type.has_value() != n.element_type.has_value())
      return absl::StrCat(where, ": elementType vs none");
    if (m.element_type) {
      if (std::string d = DiffRef(*m.element_type, *n.element_type,
                                  absl::StrCat(where, ".map.elementType"));
          !d.empty()) {
        return d;
      }
    }
    if (m.unions.size() != n.unions.size())
      return absl::StrCat(where, ": union count differs");
    for (size_t i = 0; i < m.unions.size(); ++i) {
      const Union &u = m.unions[i], &v = n.unions[i];
      bool same =
          u.discriminator == v.discriminator &&
          u.deduce_invalid_discriminator == v.deduce_invalid_discriminator &&
          u.fields.size() == v.fields.size();
      for (size_t j = 0; same && j < u.fields.size(); ++j) {
        same =
            u.fields[j].field_name == v.fields[j].field_name &&
            u.fields[j].discriminator_value == v.fields[j].discriminator_value;
      }
      if (!same) return absl::StrCat(where, ": unions[", i, "] differ");
    }
  }
  return "";
}

template <typename A, typename B>
std::string DiffTypes(const A& want, const B& got) {
  size_t n = std::min(want.size(), got.size());
  for (size_t i = 0; i < n; ++i) {
    if (want[i].name != got[i].name) {
      return absl::StrCat("types[", i, "]: \"", want[i].name, "\" vs \"",
                          got[i].name, "\"");
    }
    if (std::string d = DiffAtom(want[i].atom, got[i].atom, want[i].name);
        !d.empty()) {
      return d;
    }
  }
  if (want.size() != got.size())
    return absl::StrCat(want.size(), " vs ", got.size(), " types");
  return "";
}

std::shared_ptr<const Schema> MustBuild(std::vector<TypeDef> types) {
  absl::StatusOr<std::shared_ptr<const Schema>> s =
      Schema::Build(std::move(types));
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *s : nullptr;
}

std::shared_ptr<const Schema> MustParseSmd(const std::string& text) {
  absl::StatusOr<std::shared_ptr<const Schema>> s = Schema::ParseSmd(text);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *s : nullptr;
}

// --- Kubernetes' own expected outputs ------------------------------------

struct GoldenCase {
  const char* input;
  const char* expected;
};

class KubernetesGoldenTest : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(KubernetesGoldenTest, ConvertsLikeKubernetes) {
  const GoldenCase& c = GetParam();
  Value doc = ReadDoc(SharedPath(absl::StrCat("testdata/openapi/", c.input)));
  absl::StatusOr<std::vector<TypeDef>> types = TypesFromOpenApiV2(doc);
  ASSERT_TRUE(types.ok()) << types.status();
  std::shared_ptr<const Schema> want = MustParseSmd(
      ReadTestFile(SharedPath(absl::StrCat("testdata/openapi/", c.expected))));
  ASSERT_NE(want, nullptr);
  EXPECT_EQ(DiffTypes(want->types(), *types), "");
  std::shared_ptr<const Schema> got = MustBuild(*std::move(types));
  ASSERT_NE(got, nullptr);
  // The written form reads back as the same schema.
  std::shared_ptr<const Schema> again = MustParseSmd(SchemaToSmdYaml(*got));
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(DiffTypes(want->types(), again->types()), "");
}

INSTANTIATE_TEST_SUITE_P(
    Pairs, KubernetesGoldenTest,
    ::testing::Values(GoldenCase{"swagger.json", "new-schema.yaml"},
                      GoldenCase{"atomic-types.json", "atomic-types.yaml"},
                      GoldenCase{"defaults.json", "defaults.yaml"},
                      GoldenCase{"preserve-unknown.json",
                                 "preserve-unknown.yaml"}),
    [](const ::testing::TestParamInfo<GoldenCase>& info) {
      std::string name = info.param.input;
      name = name.substr(0, name.find('.'));
      for (char& ch : name)
        if (ch == '-') ch = '_';
      return name;
    });

TEST(OpenApiV2, FieldLevelMapTypeOverridesTheReferencedType) {
  Value doc =
      ReadDoc(SharedPath("testdata/openapi/field-level-annotation.json"));
  absl::StatusOr<std::vector<TypeDef>> types = TypesFromOpenApiV2(doc);
  ASSERT_TRUE(types.ok()) << types.status();
  std::shared_ptr<const Schema> s = MustBuild(*std::move(types));
  ASSERT_NE(s, nullptr);
  const Atom* address = s->Find("io.k8s.api.core.v1.EndpointAddress");
  ASSERT_NE(address, nullptr);
  const StructField* target = address->map->FindField("targetRef");
  ASSERT_NE(target, nullptr);
  EXPECT_EQ(target->type.named_type, "io.k8s.api.core.v1.ObjectReference");
  ASSERT_TRUE(target->type.element_relationship.has_value());
  EXPECT_EQ(*target->type.element_relationship, ElementRelationship::kAtomic);
  EXPECT_TRUE(target->type.resolved->IsAtomicMap());
  // The referenced type itself stays granular.
  EXPECT_FALSE(s->Find("io.k8s.api.core.v1.ObjectReference")->IsAtomicMap());
}

// --- The ten CRDs: OpenAPI v2 and v3 give the same schema -----------------

class CrdV2V3Test : public ::testing::TestWithParam<const char*> {};

TEST_P(CrdV2V3Test, SameSchemaFromBothVersions) {
  std::string file = GetParam();
  absl::StatusOr<std::vector<TypeDef>> v2 = TypesFromOpenApiV2(
      ReadDoc(SharedPath("testdata/openapi/crds/openapiv2/" + file)));
  ASSERT_TRUE(v2.ok()) << v2.status();
  absl::StatusOr<std::vector<TypeDef>> v3 = TypesFromOpenApiV3(
      ReadDoc(SharedPath("testdata/openapi/crds/openapiv3/" + file)));
  ASSERT_TRUE(v3.ok()) << v3.status();
  // The v2 documents also carry definitions nothing refers to (the CRD API
  // itself, Status, DeleteOptions...); the v3 ones do not.
  std::map<std::string, const TypeDef*> v3_names;
  for (const TypeDef& t : *v3) v3_names[t.name] = &t;
  std::vector<TypeDef> shared;
  for (const TypeDef& t : *v2) {
    if (v3_names.count(t.name) != 0) {
      shared.push_back(t);
      continue;
    }
    bool orphan =
        absl::StartsWith(
            t.name, "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.") ||
        t.name == "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions" ||
        t.name == "io.k8s.apimachinery.pkg.apis.meta.v1.Patch" ||
        t.name == "io.k8s.apimachinery.pkg.apis.meta.v1.Preconditions" ||
        absl::StartsWith(t.name, "io.k8s.apimachinery.pkg.apis.meta.v1.Status");
    EXPECT_TRUE(orphan) << t.name << " is only in the v2 document";
  }
  EXPECT_EQ(shared.size(), v3->size());
  EXPECT_GE(v3->size(), 10u);
  EXPECT_EQ(DiffTypes(shared, *v3), "");
  std::shared_ptr<const Schema> built = MustBuild(*std::move(v3));
  ASSERT_NE(built, nullptr);
  std::shared_ptr<const Schema> again = MustParseSmd(SchemaToSmdYaml(*built));
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(DiffTypes(built->types(), again->types()), "");
  EXPECT_TRUE(built->has_defaults());  // ObjectMeta's, in these documents
}

INSTANTIATE_TEST_SUITE_P(
    Crds, CrdV2V3Test,
    ::testing::Values("accesscontextmanager_v1beta1_"
                      "accesscontextmanagerserviceperimeter.json",
                      "container_v1beta1_containercluster.json",
                      "dataproc_v1beta1_dataprocworkflowtemplate.json",
                      "dlp_v1beta1_dlpdeidentifytemplate.json",
                      "monitoring_v1beta1_monitoringalertpolicy.json",
                      "monitoring_v1beta1_monitoringdashboard.json",
                      "privateca_v1beta1_privatecacertificate.json",
                      "privateca_v1beta1_privatecacertificateauthority.json",
                      "storagetransfer_v1beta1_storagetransferjob.json",
                      "vpcaccess_v1beta1_vpcaccessconnector.json"),
    [](const ::testing::TestParamInfo<const char*>& info) {
      std::string name = info.param;
      name = name.substr(0, name.find('.'));
      for (char& ch : name)
        if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
      return name;
    });

// --- Conversion rules ------------------------------------------------------

// The root type of a one-object schema.
const Atom* Root(const std::shared_ptr<const Schema>& s) {
  return s == nullptr ? nullptr : s->Find("root");
}

std::shared_ptr<const Schema> FromObject(const std::string& yaml) {
  absl::StatusOr<std::shared_ptr<const Schema>> s =
      SchemaFromOpenApiObject(Yaml(yaml), "root");
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *s : nullptr;
}

std::string ObjectError(const std::string& yaml) {
  absl::StatusOr<std::shared_ptr<const Schema>> s =
      SchemaFromOpenApiObject(Yaml(yaml), "root");
  return s.ok() ? "" : std::string(s.status().message());
}

TEST(OpenApiObject, FieldsAreSortedAndTyped) {
  std::shared_ptr<const Schema> s = FromObject(R"(
type: object
properties:
  zeta: {type: integer}
  alpha: {type: string, format: date-time}
  mid: {type: boolean}
  num: {type: number}
  raw: {type: string, format: byte}
  ios: {x-kubernetes-int-or-string: true, anyOf: [{type: integer}, {type: string}]}
  iosFormat: {type: string, format: int-or-string}
  any: {}
)");
  const Atom* root = Root(s);
  ASSERT_NE(root, nullptr);
  std::vector<std::string> names;
  for (const StructField& f : root->map->fields) names.push_back(f.name);
  EXPECT_EQ(names, (std::vector<std::string>{"alpha", "any", "ios", "iosFormat",
                                             "mid", "num", "raw", "zeta"}));
  auto scalar = [&](const char* f) {
    return *root->map->FindField(f)->type.resolved->scalar;
  };
  // Inline formats are value validations, which the API server strips
  // from CRD schemas; only int-or-string changes the type.
  EXPECT_EQ(scalar("alpha"), ScalarType::kString);
  EXPECT_EQ(scalar("zeta"), ScalarType::kNumeric);
  EXPECT_EQ(scalar("num"), ScalarType::kNumeric);
  EXPECT_EQ(scalar("mid"), ScalarType::kBoolean);
  EXPECT_EQ(scalar("raw"), ScalarType::kString);
  EXPECT_EQ(scalar("iosFormat"), ScalarType::kUntyped);
  const Atom* ios = root->map->FindField("ios")->type.resolved;
  EXPECT_EQ(*ios->scalar, ScalarType::kUntyped);
  EXPECT_FALSE(ios->list || ios->map);
  const Atom* any = root->map->FindField("any")->type.resolved;
  EXPECT_TRUE(any->scalar && any->list && any->map);
  EXPECT_FALSE(root->map->element_type.has_value());
}

TEST(OpenApiObject, ListAndMapTypes) {
  std::shared_ptr<const Schema> s = FromObject(R"(
type: object
properties:
  atomicByDefault: {type: array, items: {type: string}}
  set: {type: array, x-kubernetes-list-type: set, items: {type: string}}
  keyed:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [name, port]
    items:
      type: object
      properties:
        name: {type: string}
        port: {type: integer}
  merged:
    type: array
    x-kubernetes-patch-strategy: merge
    x-kubernetes-patch-merge-key: name
    items: {type: object, properties: {name: {type: string}}}
  mergedSet:
    type: array
    x-kubernetes-patch-strategy: merge
    items: {type: string}
  retained:
    type: array
    x-kubernetes-patch-strategy: retainKeys
    items: {type: string}
  labels: {type: object, additionalProperties: {type: string}}
  atomicMap:
    type: object
    x-kubernetes-map-type: atomic
    properties: {a: {type: string}}
  free: {type: object}
  closed: {type: object, additionalProperties: false}
)");
  const Atom* root = Root(s);
  ASSERT_NE(root, nullptr);
  auto atom = [&](const char* f) {
    return root->map->FindField(f)->type.resolved;
  };
  EXPECT_TRUE(atom("atomicByDefault")->IsAtomicList());
  EXPECT_TRUE(atom("set")->IsAssociativeList());
  EXPECT_TRUE(atom("set")->list->keys.empty());
  EXPECT_EQ(atom("keyed")->list->keys,
            (std::vector<std::string>{"name", "port"}));
  EXPECT_TRUE(atom("keyed")->IsAssociativeList());
  EXPECT_EQ(atom("merged")->list->keys, std::vector<std::string>{"name"});
  EXPECT_TRUE(atom("mergedSet")->IsAssociativeList());
  EXPECT_TRUE(atom("retained")->IsAtomicList());
  EXPECT_EQ(*atom("labels")->map->element_type->resolved->scalar,
            ScalarType::kString);
  EXPECT_TRUE(atom("atomicMap")->IsAtomicMap());
  EXPECT_FALSE(atom("atomicMap")->map->element_type.has_value());
  ASSERT_TRUE(atom("free")->map->element_type.has_value());
  EXPECT_TRUE(atom("free")->map->element_type->resolved->scalar);
  EXPECT_FALSE(atom("closed")->map->element_type.has_value());
  EXPECT_FALSE(atom("labels")->IsAtomicMap());
}

TEST(OpenApiObject, PreserveUnknownFieldsReachesNestedObjects) {
  std::shared_ptr<const Schema> s = FromObject(R"(
type: object
properties:
  open:
    type: object
    x-kubernetes-preserve-unknown-fields: true
    properties:
      inner: {type: object, properties: {a: {type: string}}}
  shut: {type: object, properties: {a: {type: string}}}
)");
  const Atom* root = Root(s);
  ASSERT_NE(root, nullptr);
  const Atom* open = root->map->FindField("open")->type.resolved;
  ASSERT_TRUE(open->map->element_type.has_value());
  EXPECT_EQ(open->map->element_type->named_type, kDeducedTypeName);
  const Atom* inner = open->map->FindField("inner")->type.resolved;
  ASSERT_TRUE(inner->map->element_type.has_value());
  EXPECT_EQ(inner->map->element_type->named_type, kDeducedTypeName);
  EXPECT_FALSE(root->map->FindField("shut")
                   ->type.resolved->map->element_type.has_value());
  EXPECT_FALSE(root->map->element_type.has_value());
}

TEST(OpenApiObject, DefaultsNullableAndImmutability) {
  std::shared_ptr<const Schema> s = FromObject(R"(
type: object
properties:
  name: {type: string, default: web, nullable: true, x-kubernetes-immutable: true}
  ports:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [port]
    x-kubernetes-addition-only: true
    items:
      type: object
      default: {protocol: TCP}
      x-kubernetes-immutable: true
      properties:
        port: {type: integer}
        protocol: {type: string, default: TCP}
  labels:
    type: object
    x-kubernetes-immutable-keys: true
    x-kubernetes-deletion-only: true
    additionalProperties: {type: string, default: "", nullable: true}
)");
  const Atom* root = Root(s);
  ASSERT_NE(root, nullptr);
  EXPECT_TRUE(s->has_defaults());
  EXPECT_TRUE(s->has_immutability());
  const StructField* name = root->map->FindField("name");
  EXPECT_EQ(*name->default_value, Value("web"));
  EXPECT_TRUE(name->nullable);
  EXPECT_TRUE(name->type.immutability.immutable);
  EXPECT_FALSE(name->type.default_value.has_value());
  const StructField* ports = root->map->FindField("ports");
  EXPECT_TRUE(ports->type.immutability.addition_only);
  const TypeRef& item = ports->type.resolved->list->element_type;
  EXPECT_EQ(*item.default_value, Yaml("{protocol: TCP}"));
  EXPECT_TRUE(item.immutability.immutable);
  EXPECT_EQ(*item.resolved->map->FindField("protocol")->default_value,
            Value("TCP"));
  const StructField* labels = root->map->FindField("labels");
  EXPECT_TRUE(labels->type.immutability.immutable_keys);
  EXPECT_TRUE(labels->type.immutability.deletion_only);
  const TypeRef& value = *labels->type.resolved->map->element_type;
  EXPECT_EQ(*value.default_value, Value(""));
  EXPECT_TRUE(value.nullable);

  // All of it survives writing and reading back.
  std::shared_ptr<const Schema> again = MustParseSmd(SchemaToSmdYaml(*s));
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(DiffTypes(s->types(), again->types()), "");
}

TEST(OpenApiObject, Unions) {
  std::shared_ptr<const Schema> s = FromObject(R"(
type: object
properties:
  type: {type: string}
  localhost: {type: string}
  remote: {type: string}
x-kubernetes-unions:
- discriminator: type
  fields-to-discriminateBy: {remote: Remote, localhost: Localhost}
)");
  const Atom* root = Root(s);
  ASSERT_NE(root, nullptr);
  ASSERT_EQ(root->map->unions.size(), 1u);
  const Union& u = root->map->unions[0];
  EXPECT_EQ(*u.discriminator, "type");
  ASSERT_EQ(u.fields.size(), 2u);
  EXPECT_EQ(u.fields[0].field_name, "localhost");
  EXPECT_EQ(u.fields[0].discriminator_value, "Localhost");
  EXPECT_EQ(u.fields[1].field_name, "remote");
}

TEST(OpenApiV3, RefsAllOfAndOverrides) {
  Value doc = Yaml(R"(
openapi: 3.0.0
components:
  schemas:
    a.Ref:
      type: object
      properties:
        x: {type: string}
    a.List:
      type: array
      items: {type: string}
    a.Alias:
      $ref: '#/components/schemas/a.Ref'
    a.Holder:
      type: object
      properties:
        direct: {$ref: '#/components/schemas/a.Ref'}
        wrapped:
          allOf: [{$ref: '#/components/schemas/a.Ref'}]
          x-kubernetes-map-type: atomic
          default: {x: z}
        viaAlias: {$ref: '#/components/schemas/a.Alias'}
        atomicList:
          $ref: '#/components/schemas/a.List'
          x-kubernetes-list-type: atomic
        raw: {$ref: '#/components/schemas/io.k8s.apimachinery.pkg.runtime.RawExtension'}
    io.k8s.apimachinery.pkg.runtime.RawExtension: {type: object}
)");
  absl::StatusOr<std::vector<TypeDef>> types = TypesFromOpenApiV3(doc);
  ASSERT_TRUE(types.ok()) << types.status();
  std::vector<std::string> names;
  for (const TypeDef& t : *types) names.push_back(t.name);
  EXPECT_EQ(names, (std::vector<std::string>{
                       "a.Holder", "a.List", "a.Ref",
                       "io.k8s.apimachinery.pkg.runtime.RawExtension",
                       "__untyped_atomic_", "__untyped_deduced_"}));
  std::shared_ptr<const Schema> s = MustBuild(*std::move(types));
  ASSERT_NE(s, nullptr);
  const MapType& h = *s->Find("a.Holder")->map;
  EXPECT_EQ(h.FindField("direct")->type.named_type, "a.Ref");
  EXPECT_FALSE(h.FindField("direct")->type.element_relationship.has_value());
  const StructField* wrapped = h.FindField("wrapped");
  EXPECT_EQ(wrapped->type.named_type, "a.Ref");
  EXPECT_TRUE(wrapped->type.resolved->IsAtomicMap());
  EXPECT_EQ(*wrapped->default_value, Yaml("{x: z}"));
  EXPECT_EQ(h.FindField("viaAlias")->type.named_type, "a.Ref");
  EXPECT_EQ(h.FindField("atomicList")->type.named_type, "a.List");
  EXPECT_EQ(h.FindField("raw")->type.named_type, kUntypedAtomicTypeName);
}

// --- Contradictions are errors naming the node -----------------------------

struct BadCase {
  const char* name;
  const char* doc;
  const char* error;
};

class BadSchemaTest : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadSchemaTest, ClearError) {
  const BadCase& c = GetParam();
  Value doc = Yaml(c.doc);
  std::string message;
  if (DetectSchemaFormat(doc) == SchemaFormat::kOpenApiV2) {
    absl::StatusOr<std::vector<TypeDef>> t = TypesFromOpenApiV2(doc);
    ASSERT_FALSE(t.ok());
    message = std::string(t.status().message());
  } else {
    message = ObjectError(c.doc);
  }
  EXPECT_TRUE(absl::StrContains(message, c.error))
      << "got: " << message << "\nwant: " << c.error;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BadSchemaTest,
    ::testing::Values(
        BadCase{"MapKeyNotAProperty", R"(
swagger: "2.0"
definitions:
  io.k8s.api.core.v1.Container:
    type: object
    properties: {name: {type: string}}
  io.k8s.api.core.v1.PodSpec:
    type: object
    properties:
      containers:
        type: array
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [nme]
        items: {$ref: '#/definitions/io.k8s.api.core.v1.Container'}
)",
                "definitions.io.k8s.api.core.v1.PodSpec.properties.containers: "
                "x-kubernetes-list-map-keys names \"nme\", which is not a "
                "property of the items"},
        BadCase{"MapKeyNotScalar", R"(
type: array
x-kubernetes-list-type: map
x-kubernetes-list-map-keys: [spec]
items: {type: object, properties: {spec: {type: object}}}
)",
                "root: x-kubernetes-list-map-keys names \"spec\", which is not "
                "a scalar property of the items"},
        BadCase{"ListMapWithoutKeys", R"(
type: object
properties:
  l: {type: array, x-kubernetes-list-type: map, items: {type: object}}
)",
                "root.properties.l: x-kubernetes-list-type is map but "
                "x-kubernetes-list-map-keys is missing"},
        BadCase{"UnknownListType", R"(
type: array
x-kubernetes-list-type: bag
items: {type: string}
)",
                "root: unknown x-kubernetes-list-type \"bag\""},
        BadCase{"ListTypeOnObject", R"(
type: object
properties:
  o: {type: object, x-kubernetes-list-type: set, properties: {a: {type: string}}}
)",
                "root.properties.o: x-kubernetes-list-type \"set\" is set on a "
                "schema of type object"},
        BadCase{"ListTypeSetOnScalar", R"(
type: object
properties:
  s: {type: string, x-kubernetes-list-type: set}
)",
                "root.properties.s: x-kubernetes-list-type \"set\" is set on a "
                "schema of type scalar"},
        BadCase{"MapTypeOnArray", R"(
type: array
x-kubernetes-map-type: atomic
items: {type: string}
)",
                "root: x-kubernetes-map-type \"atomic\" is set on a schema of "
                "type array"},
        BadCase{"UnknownMapType", R"(
type: object
x-kubernetes-map-type: partial
)",
                "root: unknown x-kubernetes-map-type \"partial\""},
        BadCase{
            "DanglingRef", R"(
swagger: "2.0"
definitions:
  a.B:
    type: object
    properties:
      c: {$ref: '#/definitions/a.Missing'}
)",
            "definitions.a.B.properties.c: $ref \"#/definitions/a.Missing\" "
            "names no definition"},
        BadCase{"MapTypeBesideRefToScalar", R"(
swagger: "2.0"
definitions:
  a.S: {type: string}
  a.B:
    type: object
    properties:
      c: {$ref: '#/definitions/a.S', x-kubernetes-map-type: granular}
)",
                "definitions.a.B.properties.c: x-kubernetes-map-type is set "
                "beside a $ref to \"a.S\", which is not an object"},
        BadCase{
            "DefaultOfWrongType", R"(
type: object
properties:
  replicas: {type: integer, default: "three"}
)",
            "root.properties.replicas: default \"three\" does not match the "
            "schema: expected numeric"},
        BadCase{
            "DefaultWithUndeclaredField", R"(
type: object
properties:
  spec:
    type: object
    default: {nme: x}
    properties: {name: {type: string}}
)",
            "root.properties.spec: default {\"nme\":\"x\"} does not match the "
            "schema: .nme: field not declared in schema"},
        BadCase{"ItemDefaultOfWrongType", R"(
type: array
items: {type: boolean, default: 1}
)",
                "root.items: default 1 does not match the schema"},
        BadCase{"UnknownPatchStrategy", R"(
type: array
x-kubernetes-patch-strategy: replace
items: {type: string}
)",
                "root: unknown x-kubernetes-patch-strategy \"replace\""},
        BadCase{"UnionNamesMissingField", R"(
type: object
properties: {type: {type: string}}
x-kubernetes-unions:
- discriminator: type
  fields-to-discriminateBy: {gone: Gone}
)",
                "root.x-kubernetes-unions: \"gone\" is not a property of the "
                "object"},
        BadCase{"ArrayWithoutItems", R"(
type: object
properties:
  l: {type: array}
)",
                "root.properties.l: an array needs `items`"},
        BadCase{"UnknownType", R"(
type: object
properties:
  f: {type: file}
)",
                "root.properties.f: unrecognized type \"file\""},
        BadCase{
            "RefInObject", R"(
type: object
properties:
  f: {$ref: '#/definitions/x'}
)",
            "root.properties.f: $ref \"#/definitions/x\" cannot be resolved"},
        BadCase{"ImmutableNotBool", R"(
type: object
properties:
  f: {type: string, x-kubernetes-immutable: "yes"}
)",
                "root.properties.f: x-kubernetes-immutable must be a boolean"},
        BadCase{"ImmutableFalse", R"(
type: object
properties:
  f: {type: string, x-kubernetes-immutable: false}
)",
                "root.properties.f: x-kubernetes-immutable: false is not "
                "allowed, true is the only valid value"},
        BadCase{"ImmutableKeysFalse", R"(
type: object
properties:
  l:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [name]
    x-kubernetes-immutable-keys: false
    items:
      type: object
      required: [name]
      properties: {name: {type: string}}
)",
                "root.properties.l: x-kubernetes-immutable-keys: false is not "
                "allowed, true is the only valid value"}),
    [](const ::testing::TestParamInfo<BadCase>& info) {
      return std::string(info.param.name);
    });

TEST(BadSchema, EveryProblemIsReported) {
  std::string message = ObjectError(R"(
type: object
properties:
  a: {type: array, x-kubernetes-list-type: map, items: {type: object}}
  b: {type: object, x-kubernetes-map-type: sometimes}
)");
  EXPECT_TRUE(absl::StrContains(message, "root.properties.a:")) << message;
  EXPECT_TRUE(absl::StrContains(message, "\nroot.properties.b:")) << message;
}

TEST(OpenApiV2, KubernetesQuirksAreAccepted) {
  // Byte strings marked atomic, patch markers on non-arrays, a map type
  // beside a reference: all in Kubernetes' own API.
  absl::StatusOr<std::vector<TypeDef>> t = TypesFromOpenApiV2(Yaml(R"(
swagger: "2.0"
definitions:
  a.Ref: {type: object, properties: {x: {type: string}}}
  a.T:
    type: object
    properties:
      bytes: {type: string, format: byte, x-kubernetes-list-type: atomic}
      key: {type: string, x-kubernetes-patch-strategy: merge, x-kubernetes-patch-merge-key: key}
      strategy: {$ref: '#/definitions/a.Ref', x-kubernetes-patch-strategy: retainKeys}
      claim: {$ref: '#/definitions/a.Ref', x-kubernetes-map-type: granular}
)"));
  EXPECT_TRUE(t.ok()) << t.status();
}

// --- CRDs -----------------------------------------------------------------

TEST(Crd, PrometheusConvertsValidatesAndApplies) {
  Value crd = ReadDoc(SharedPath("testdata/smd/prometheus-crd.yaml"));
  absl::StatusOr<std::vector<CrdVersionSchema>> versions = SchemasFromCrd(crd);
  ASSERT_TRUE(versions.ok()) << versions.status();
  ASSERT_EQ(versions->size(), 1u);
  const CrdVersionSchema& v = (*versions)[0];
  EXPECT_EQ(v.api_version, "monitoring.coreos.com/v1");
  EXPECT_EQ(v.kind, "Prometheus");
  EXPECT_EQ(v.type_name, "com.coreos.monitoring.v1.Prometheus");
  ASSERT_NE(v.schema->Find("com.coreos.monitoring.v1.PrometheusList"), nullptr);
  const Atom* root = v.schema->Find(v.type_name);
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->map->FindField("metadata")->type.named_type,
            "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
  EXPECT_EQ(*root->map->FindField("kind")->type.resolved->scalar,
            ScalarType::kString);
  // v1beta1 defaults spec.preserveUnknownFields to true.
  ASSERT_TRUE(root->map->element_type.has_value());

  absl::StatusOr<Type> type = Type::Named(v.schema, v.type_name);
  ASSERT_TRUE(type.ok()) << type.status();
  Value cr = Yaml(R"(
apiVersion: monitoring.coreos.com/v1
kind: Prometheus
metadata:
  name: main
  namespace: monitoring
  labels: {app: prometheus}
spec:
  replicas: 2
  version: v2.5.0
  serviceAccountName: prometheus
  retention: 15d
  containers:
  - name: sidecar
    image: example/sidecar:1
    ports:
    - containerPort: 8080
      name: http
  ruleSelector:
    matchLabels: {role: alert-rules}
  resources:
    requests: {memory: 400Mi}
)");
  EXPECT_TRUE(Validate(*type, cr).ok()) << Validate(*type, cr);
  Value bad = Yaml(R"(
apiVersion: monitoring.coreos.com/v1
kind: Prometheus
spec:
  replicas: two
)");
  EXPECT_FALSE(Validate(*type, bad).ok());

  Updater updater(*type);
  OpResult created = updater.Apply(Value(), cr, "monitoring.coreos.com/v1", {},
                                   "kubectl", false);
  ASSERT_TRUE(created.ok()) << created.status;
  Value change = Yaml(R"(
apiVersion: monitoring.coreos.com/v1
kind: Prometheus
metadata: {name: main, namespace: monitoring}
spec:
  replicas: 3
)");
  OpResult conflict =
      updater.Apply(created.object, change, "monitoring.coreos.com/v1",
                    created.managers, "autoscaler", false);
  EXPECT_EQ(conflict.kind, ErrorKind::kConflict);
  OpResult forced =
      updater.Apply(created.object, change, "monitoring.coreos.com/v1",
                    created.managers, "autoscaler", true);
  ASSERT_TRUE(forced.ok()) << forced.status;
  EXPECT_EQ(*forced.object.map().Find("spec")->map().Find("replicas"),
            Value(3));

  std::shared_ptr<const Schema> again =
      MustParseSmd(SchemaToSmdYaml(*v.schema));
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(DiffTypes(v.schema->types(), again->types()), "");
}

constexpr const char* kWidgetCrd = R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          metadata:
            type: object
            properties:
              name: {type: string, maxLength: 10}
          spec:
            type: object
            properties:
              size: {type: integer, default: 1}
              template:
                type: object
                x-kubernetes-embedded-resource: true
                x-kubernetes-preserve-unknown-fields: true
              tags:
                type: array
                x-kubernetes-list-type: set
                items: {type: string}
  - name: v2
    served: true
    storage: false
)";

TEST(Crd, V1VersionsEmbeddedResourcesAndTypeMeta) {
  absl::StatusOr<std::vector<CrdVersionSchema>> versions =
      SchemasFromCrd(Yaml(kWidgetCrd));
  ASSERT_TRUE(versions.ok()) << versions.status();
  ASSERT_EQ(versions->size(), 2u);
  const CrdVersionSchema& v1 = (*versions)[0];
  EXPECT_EQ(v1.api_version, "example.com/v1");
  EXPECT_EQ(v1.type_name, "com.example.v1.Widget");
  const Atom* root = v1.schema->Find(v1.type_name);
  ASSERT_NE(root, nullptr);
  std::vector<std::string> fields;
  for (const StructField& f : root->map->fields) fields.push_back(f.name);
  EXPECT_EQ(fields, (std::vector<std::string>{"apiVersion", "kind", "metadata",
                                              "spec"}));
  // The CRD's own metadata schema is replaced by ObjectMeta.
  EXPECT_EQ(root->map->FindField("metadata")->type.named_type,
            "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
  EXPECT_FALSE(root->map->element_type.has_value());  // v1: pruning
  const Atom* spec = root->map->FindField("spec")->type.resolved;
  EXPECT_EQ(*spec->map->FindField("size")->default_value, Value(1));
  const Atom* tmpl = spec->map->FindField("template")->type.resolved;
  ASSERT_NE(tmpl->map->FindField("metadata"), nullptr);
  EXPECT_EQ(tmpl->map->FindField("metadata")->type.named_type,
            "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
  ASSERT_NE(tmpl->map->FindField("apiVersion"), nullptr);
  ASSERT_TRUE(tmpl->map->element_type.has_value());

  // A version without a schema takes anything.
  const CrdVersionSchema& v2 = (*versions)[1];
  const Atom* any = v2.schema->Find("com.example.v2.Widget");
  ASSERT_NE(any, nullptr);
  ASSERT_TRUE(any->map->element_type.has_value());

  absl::StatusOr<Type> type = Type::Named(v1.schema, v1.type_name);
  ASSERT_TRUE(type.ok());
  Value cr = Yaml(R"(
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, labels: {a: b}}
spec:
  size: 2
  tags: [a, b]
  template: {apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {x: 1}}
)");
  EXPECT_TRUE(Validate(*type, cr).ok()) << Validate(*type, cr);
  EXPECT_FALSE(Validate(*type, Yaml("spec: {colour: red}")).ok());
}

TEST(Crd, V1beta1TopLevelValidationAndPerVersionSchemas) {
  absl::StatusOr<std::vector<CrdVersionSchema>> versions =
      SchemasFromCrd(Yaml(R"(
apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  names: {kind: Gadget, plural: gadgets, listKind: GadgetCollection}
  preserveUnknownFields: false
  validation:
    openAPIV3Schema:
      type: object
      properties:
        spec: {type: object, properties: {a: {type: string}}}
  versions:
  - name: v1alpha1
  - name: v1beta1
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {b: {type: integer}}}
)"));
  ASSERT_TRUE(versions.ok()) << versions.status();
  ASSERT_EQ(versions->size(), 2u);
  const Atom* a = (*versions)[0].schema->Find("com.example.v1alpha1.Gadget");
  const Atom* b = (*versions)[1].schema->Find("com.example.v1beta1.Gadget");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_NE(a->map->FindField("spec")->type.resolved->map->FindField("a"),
            nullptr);
  EXPECT_NE(b->map->FindField("spec")->type.resolved->map->FindField("b"),
            nullptr);
  EXPECT_FALSE(
      a->map->element_type.has_value());  // preserveUnknownFields: false
  EXPECT_NE(
      (*versions)[0].schema->Find("com.example.v1alpha1.GadgetCollection"),
      nullptr);
}

TEST(Crd, ScaleSubresourceGivesTheReplicasPathPerVersion) {
  absl::StatusOr<std::vector<CrdVersionSchema>> versions =
      SchemasFromCrd(Yaml(R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: scalers.example.com}
spec:
  group: example.com
  names: {kind: Scaler, plural: scalers}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      scale:
        specReplicasPath: .spec.size.replicas
        statusReplicasPath: .status.replicas
    schema: {openAPIV3Schema: {type: object}}
  - name: v2
    served: true
    storage: false
    schema: {openAPIV3Schema: {type: object}}
)"));
  ASSERT_TRUE(versions.ok()) << versions.status();
  ASSERT_EQ(versions->size(), 2u);
  EXPECT_EQ((*versions)[0].scale_replicas_path,
            (std::vector<std::string>{"spec", "size", "replicas"}));
  EXPECT_TRUE((*versions)[1].scale_replicas_path.empty());
}

TEST(Crd, ErrorsNameTheCrdAndTheNode) {
  absl::StatusOr<std::vector<CrdVersionSchema>> versions =
      SchemasFromCrd(Yaml(R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  names: {kind: Thing, plural: things}
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        type: object
        properties:
          items: {type: array, x-kubernetes-list-type: map, items: {type: object}}
)"));
  ASSERT_FALSE(versions.ok());
  EXPECT_EQ(versions.status().message(),
            "CustomResourceDefinition things.example.com: "
            "spec.versions[0].schema.openAPIV3Schema.properties.items: "
            "x-kubernetes-list-type is map but x-kubernetes-list-map-keys is "
            "missing");
}

// --- Format detection and loading -------------------------------------------

TEST(LoadAnySchema, DetectsEveryFormat) {
  EXPECT_EQ(DetectSchemaFormat(Yaml("types: []")), SchemaFormat::kSmd);
  EXPECT_EQ(DetectSchemaFormat(Yaml("swagger: '2.0'\ndefinitions: {}")),
            SchemaFormat::kOpenApiV2);
  EXPECT_EQ(DetectSchemaFormat(Yaml("openapi: 3.0.0\ncomponents: {}")),
            SchemaFormat::kOpenApiV3);
  EXPECT_EQ(DetectSchemaFormat(Yaml("type: object\nproperties: {}")),
            SchemaFormat::kOpenApiObject);
  EXPECT_EQ(DetectSchemaFormat(Yaml(kWidgetCrd)), SchemaFormat::kCrd);
  EXPECT_EQ(DetectSchemaFormat(Yaml("a: 1")), SchemaFormat::kUnknown);

  std::string root;
  absl::StatusOr<std::shared_ptr<const Schema>> s =
      LoadAnySchema("type: object\nproperties: {a: {type: string}}\n", &root);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(root, "root");
  s = LoadAnySchema(
      ReadTestFile(SharedPath("testdata/smd/prometheus-crd.yaml")), &root);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(root, "com.coreos.monitoring.v1.Prometheus");
  s = LoadAnySchema(kWidgetCrd, &root);  // two versions: no default type
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(root, "");
  EXPECT_NE((*s)->Find("com.example.v1.Widget"), nullptr);
  EXPECT_NE((*s)->Find("com.example.v2.Widget"), nullptr);
  s = LoadAnySchema(
      ReadTestFile(SharedPath("testdata/openapi/atomic-types.json")), &root);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_NE((*s)->Find("io.k8s.testcase.DeclaredAtomicMap"), nullptr);
  s = LoadAnySchema(ReadTestFile(SharedPath("testdata/openapi/defaults.yaml")),
                    &root);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_NE((*s)->Find("List"), nullptr);
  s = LoadAnySchema("a: 1\n", &root);
  EXPECT_FALSE(s.ok());
}

// A cluster's /openapi/v3 document of a group of custom resources (the
// apiextensions-apiserver's, titled so) declares them custom resources,
// with the subresources its paths serve; a built-in group's declares none.
TEST(OpenApiKinds, ACustomResourceGroupsDocumentDeclaresCustomResources) {
  absl::StatusOr<Value> doc = ParseJson(ReadTestFile(SourcePath(
      "testdata/cluster-openapi-v3/apis_realapi.smdx.dev_v1.json")));
  ASSERT_TRUE(doc.ok()) << doc.status();
  std::map<std::string, SchemaKind> kinds;
  for (SchemaKind& k : OpenApiKinds(*doc)) {
    std::string key = StrCat(k.api_version, " ", k.kind);
    kinds.emplace(std::move(key), std::move(k));
  }
  for (const char* name : {"Config", "ConfigList", "Route", "RouteList",
                           "Scaler", "ScalerList"}) {
    auto it = kinds.find(StrCat("realapi.smdx.dev/v1 ", name));
    ASSERT_NE(it, kinds.end()) << name;
    EXPECT_TRUE(it->second.custom_resource) << name;
  }
  const SchemaKind& scaler = kinds.at("realapi.smdx.dev/v1 Scaler");
  EXPECT_TRUE(scaler.status_subresource);
  EXPECT_TRUE(scaler.scale_replicas_unknown);
  EXPECT_TRUE(scaler.scale_replicas_path.empty());
  const SchemaKind& route = kinds.at("realapi.smdx.dev/v1 Route");
  EXPECT_TRUE(route.status_subresource);
  EXPECT_FALSE(route.scale_replicas_unknown);
  const SchemaKind& config = kinds.at("realapi.smdx.dev/v1 Config");
  EXPECT_FALSE(config.status_subresource);
  EXPECT_FALSE(config.scale_replicas_unknown);
  EXPECT_FALSE(kinds.at("realapi.smdx.dev/v1 ScalerList").status_subresource);
  // The meta kinds the document holds too (Status, DeleteOptions at the
  // built-in groups) are not.
  size_t others = 0;
  for (const auto& [key, k] : kinds) {
    if (absl::StartsWith(key, "realapi.smdx.dev/")) continue;
    ++others;
    EXPECT_FALSE(k.custom_resource) << key;
  }
  EXPECT_GT(others, 0u);

  absl::StatusOr<Value> builtin = ParseJson(ReadTestFile(SourcePath(
      "testdata/cluster-openapi-v3/apis_scheduling.k8s.io_v1.json")));
  ASSERT_TRUE(builtin.ok()) << builtin.status();
  bool priority_class = false;
  for (const SchemaKind& k : OpenApiKinds(*builtin)) {
    EXPECT_FALSE(k.custom_resource) << k.api_version << " " << k.kind;
    priority_class |= k.kind == "PriorityClass";
  }
  EXPECT_TRUE(priority_class);
}

// The CRD says where the scale's replicas are, which the cluster's OpenAPI
// cannot: the kind keeps the CRD's path whichever of the two comes last.
TEST(SchemaSetBuilder, TheCrdsReplicasPathOutlivesALaterClusterOpenApi) {
  const std::string crd =
      ReadTestFile(SourcePath("testdata/realapi/crds/scalers.yaml"));
  const std::string doc = ReadTestFile(SourcePath(
      "testdata/cluster-openapi-v3/apis_realapi.smdx.dev_v1.json"));
  for (bool crd_first : {true, false}) {
    SchemaSetBuilder b;
    ASSERT_TRUE(b.Add(crd_first ? crd : doc).ok());
    ASSERT_TRUE(b.Add(crd_first ? doc : crd).ok());
    absl::StatusOr<SchemaSet> set = std::move(b).Build();
    ASSERT_TRUE(set.ok()) << set.status();
    const SchemaKind* k = set->FindKind("realapi.smdx.dev/v1", "Scaler");
    ASSERT_NE(k, nullptr);
    EXPECT_TRUE(k->custom_resource);
    EXPECT_TRUE(k->status_subresource);
    EXPECT_FALSE(k->scale_replicas_unknown) << crd_first;
    EXPECT_EQ(k->scale_replicas_path,
              (std::vector<std::string>{"spec", "replicas"}))
        << crd_first;
  }
}

// --- Writing SMD ------------------------------------------------------------

TEST(SchemaToSmdYaml, WritesTheKubernetesLayout) {
  std::shared_ptr<const Schema> s =
      MustParseSmd(ReadTestFile(SharedPath("testdata/openapi/defaults.yaml")));
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(SchemaToSmdYaml(*s), R"(types:
- name: List
  list:
    elementType:
      map:
        fields:
        - name: foo
          type:
            scalar: string
          default: buz
    elementRelationship: associative
    keys:
    - foo
- name: __untyped_atomic_
  scalar: untyped
  list:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
  map:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
- name: __untyped_deduced_
  scalar: untyped
  list:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
  map:
    elementType:
      namedType: __untyped_deduced_
)");
}

TEST(SchemaToSmdYaml, QuotesNamesAndWritesStructuredDefaults) {
  std::shared_ptr<const Schema> s = FromObject(R"(
type: object
properties:
  "yes": {type: string, default: "on"}
  "$ref": {type: string}
  "a: b": {type: object, default: {k: [1, 2], "n": null}, properties: {k: {type: array, items: {type: integer}}, "n": {type: string}}}
  multi: {type: string, default: "line1\nline2\n"}
  empty: {type: object, additionalProperties: false}
)");
  ASSERT_NE(s, nullptr);
  std::string yaml = SchemaToSmdYaml(*s);
  std::shared_ptr<const Schema> again = MustParseSmd(yaml);
  ASSERT_NE(again, nullptr) << yaml;
  EXPECT_EQ(DiffTypes(s->types(), again->types()), "") << yaml;
}

TEST(SchemaToSmdYaml, RoundTripsTheBuiltInSchema) {
  absl::StatusOr<std::shared_ptr<const Schema>> k8s = KubernetesSchema();
  ASSERT_TRUE(k8s.ok());
  std::shared_ptr<const Schema> again = MustParseSmd(SchemaToSmdYaml(**k8s));
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(DiffTypes((*k8s)->types(), again->types()), "");
}

}  // namespace
}  // namespace smdx
