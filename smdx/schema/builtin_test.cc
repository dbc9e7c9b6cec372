#include "smdx/schema/builtin.h"

#include <set>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/test_util.h"

namespace smdx {
namespace {

// Every kind the v1.37 schemas declare, as (apiVersion, kind) -> type.
std::set<std::pair<std::string, std::string>> SwaggerKinds(
    std::map<std::pair<std::string, std::string>, std::string>* types) {
  Value doc = testing::Yaml(testing::ReadTestFile(testing::SourcePath(
      "smdx/schema/data/kubernetes-v1.37-openapi-v3.json")));
  std::set<std::pair<std::string, std::string>> out;
  for (const MapEntry& d :
       doc.map().Find("components")->map().Find("schemas")->map().entries()) {
    const Value* gvks = d.value.map().Find("x-kubernetes-group-version-kind");
    if (gvks == nullptr) continue;
    for (const Value& g : gvks->list()) {
      std::string group = g.map().Find("group")->AsString();
      std::string version = g.map().Find("version")->AsString();
      std::string av = group.empty() ? version : group + "/" + version;
      std::pair<std::string, std::string> key{av,
                                              g.map().Find("kind")->AsString()};
      out.insert(key);
      types->emplace(key, d.key);
    }
  }
  return out;
}

TEST(KubernetesSchemaTest, EveryGroupVersionKindOfTheDocumentResolves) {
  absl::StatusOr<std::shared_ptr<const Schema>> full = KubernetesSchema();
  ASSERT_TRUE(full.ok()) << full.status();
  std::map<std::pair<std::string, std::string>, std::string> want;
  std::set<std::pair<std::string, std::string>> kinds = SwaggerKinds(&want);
  ASSERT_GT(kinds.size(), 200u);
  for (const auto& [av, kind] : kinds) {
    absl::StatusOr<std::string> name = KubernetesTypeName(**full, av, kind);
    ASSERT_TRUE(name.ok()) << av << " " << kind << ": " << name.status();
    EXPECT_EQ(*name, want.at({av, kind})) << av << " " << kind;
  }
  std::set<std::pair<std::string, std::string>> table;
  for (const KubernetesKind& k : KubernetesKinds()) {
    table.emplace(k.api_version, k.kind);
  }
  for (const auto& k : kinds) EXPECT_EQ(table.count(k), 1u) << k.first;
}

TEST(KubernetesSchemaTest, TodaysKindsAndUnservedOldOnesResolve) {
  absl::StatusOr<std::shared_ptr<const Schema>> full = KubernetesSchema();
  ASSERT_TRUE(full.ok()) << full.status();
  const std::pair<const char*, const char*> kinds[] = {
      {"networking.k8s.io/v1", "Ingress"},
      {"batch/v1", "CronJob"},
      {"autoscaling/v2", "HorizontalPodAutoscaler"},
      {"policy/v1", "PodDisruptionBudget"},
      {"discovery.k8s.io/v1", "EndpointSlice"},
      {"node.k8s.io/v1", "RuntimeClass"},
      {"coordination.k8s.io/v1", "Lease"},
      {"admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration"},
      {"admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration"},
      // Kinds new since v1.27 (issue 23's list).
      {"admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy"},
      {"admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicyBinding"},
      {"resource.k8s.io/v1", "DeviceClass"},
      {"resource.k8s.io/v1", "ResourceClaimTemplate"},
      {"networking.k8s.io/v1", "ServiceCIDR"},
      {"storage.k8s.io/v1", "VolumeAttributesClass"},
      {"flowcontrol.apiserver.k8s.io/v1", "FlowSchema"},
      {"flowcontrol.apiserver.k8s.io/v1", "PriorityLevelConfiguration"},
      // Served no more by v1.37; from v1.27's document.
      {"flowcontrol.apiserver.k8s.io/v1beta3", "FlowSchema"},
      {"storage.k8s.io/v1beta1", "CSIStorageCapacity"},
      // Served no more by v1.27; from the older schema.
      {"extensions/v1beta1", "Deployment"},
      {"extensions/v1beta1", "Ingress"},
      {"apps/v1beta1", "Deployment"},
      {"apps/v1beta2", "StatefulSet"},
      {"batch/v1beta1", "CronJob"},
      {"policy/v1beta1", "PodDisruptionBudget"},
  };
  for (const auto& [av, kind] : kinds) {
    absl::StatusOr<std::string> name = KubernetesTypeName(**full, av, kind);
    ASSERT_TRUE(name.ok()) << av << " " << kind << ": " << name.status();
    absl::StatusOr<std::shared_ptr<const Schema>> cut =
        KubernetesSchemaFor(*name);
    ASSERT_TRUE(cut.ok()) << cut.status();
    EXPECT_NE((*cut)->Find(*name), nullptr);
    EXPECT_LT((*cut)->types().size(), (*full)->types().size());
  }
  EXPECT_EQ(KubernetesTypeName(**full, "apps/v1", "NoSuchKind").status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(KubernetesSchemaFor("io.k8s.NoSuchType").status().code(),
            absl::StatusCode::kNotFound);
}

TEST(KubernetesSchemaTest, ObjectMetaDeclaresManagedFields) {
  absl::StatusOr<std::shared_ptr<const Schema>> s =
      KubernetesSchemaFor("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
  ASSERT_TRUE(s.ok()) << s.status();
  const Atom* meta =
      (*s)->Find("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
  ASSERT_NE(meta, nullptr);
  EXPECT_NE(meta->map->FindField("managedFields"), nullptr);
}

// Of the v1.37 schemas' defaults only those of list-map keys are embedded
// (openapi/embed_kubernetes.cc): a port's protocol and a container's name
// complete keys; the Go zero values openapi-gen writes elsewhere (a
// container's resources: {}) are not what the apiserver stores.
TEST(KubernetesSchemaTest, OnlyListMapKeysKeepTheirDefaults) {
  auto field = [](const char* type, const char* name) -> const StructField* {
    absl::StatusOr<std::shared_ptr<const Schema>> s = KubernetesSchemaFor(type);
    if (!s.ok()) return nullptr;
    const Atom* a = (*s)->Find(type);
    return a != nullptr && a->map ? a->map->FindField(name) : nullptr;
  };
  const StructField* protocol =
      field("io.k8s.api.core.v1.ContainerPort", "protocol");
  ASSERT_NE(protocol, nullptr);
  ASSERT_TRUE(protocol->default_value.has_value());
  EXPECT_EQ(protocol->default_value->AsString(), "TCP");
  const StructField* name = field("io.k8s.api.core.v1.Container", "name");
  ASSERT_NE(name, nullptr);
  EXPECT_TRUE(name->default_value.has_value());
  const StructField* resources =
      field("io.k8s.api.core.v1.Container", "resources");
  ASSERT_NE(resources, nullptr);
  EXPECT_FALSE(resources->default_value.has_value());
  const StructField* spec = field("io.k8s.api.apps.v1.Deployment", "spec");
  ASSERT_NE(spec, nullptr);
  EXPECT_FALSE(spec->default_value.has_value());
  EXPECT_EQ(KubernetesVersion(), "v1.37.2");
}

TEST(KubernetesSchemaTest, KindTypeNamesAreTheTablesWithoutTheTable) {
  size_t n = 0;
  for (const KubernetesKind& k : KubernetesKinds()) {
    EXPECT_EQ(KubernetesKindTypeName(k.api_version, k.kind), k.type_name)
        << k.api_version << " " << k.kind;
    ++n;
  }
  EXPECT_GT(n, 300u);
  EXPECT_EQ(KubernetesKindTypeName("apps/v1", "Deployment"),
            "io.k8s.api.apps.v1.Deployment");
  EXPECT_EQ(KubernetesKindTypeName("apps/v1", "Nothing"), "");
  EXPECT_EQ(KubernetesKindTypeName("", "Deployment"), "");
}

// What a default kube-apiserver 1.37 serves (its /apis lists every group at
// v1, and autoscaling at v2 too): the GA versions, not the beta ones the
// document also has, nor the older apiVersions.
TEST(KubernetesSchemaTest, ServedVersionsAreTheGaOnes) {
  using ::testing::ElementsAre;
  EXPECT_THAT(KubernetesServedVersions("HorizontalPodAutoscaler"),
              ElementsAre("autoscaling/v1", "autoscaling/v2"));
  EXPECT_THAT(KubernetesServedVersions("Deployment"), ElementsAre("apps/v1"));
  EXPECT_THAT(KubernetesServedVersions("ResourceClaim"),
              ElementsAre("resource.k8s.io/v1"));
  EXPECT_THAT(KubernetesServedVersions("Event"),
              ElementsAre("events.k8s.io/v1", "v1"));
  EXPECT_THAT(KubernetesServedVersions("Pod"), ElementsAre("v1"));
  EXPECT_TRUE(KubernetesServedVersions("Nothing").empty());
  // Every built-in kind but those only older releases served has one.
  EXPECT_FALSE(KubernetesServedVersions("CronJob").empty());
}

// Kinds share their types' parsed definitions (each embedded type is
// parsed once): a kind's schema, made after others that share its types,
// holds each of its types as the whole schema does, and its own copies.
TEST(KubernetesSchemaTest, KindsThatShareTypesShareTheirDefinitions) {
  absl::StatusOr<std::shared_ptr<const Schema>> full = KubernetesSchema();
  ASSERT_TRUE(full.ok()) << full.status();
  std::vector<std::shared_ptr<const Schema>> kinds;
  for (const char* root :
       {"io.k8s.api.apps.v1.Deployment", "io.k8s.api.apps.v1.StatefulSet",
        "io.k8s.api.batch.v1.CronJob", "io.k8s.api.core.v1.Pod"}) {
    absl::StatusOr<std::shared_ptr<const Schema>> s = KubernetesSchemaFor(root);
    ASSERT_TRUE(s.ok()) << root << ": " << s.status();
    // The same types, written as the whole schema's are.
    std::vector<TypeDef> same;
    for (const TypeDef& t : (*s)->types()) {
      const Atom* whole = (*full)->Find(t.name);
      ASSERT_NE(whole, nullptr) << t.name;
      same.push_back(CopyTypeDef(TypeDef{t.name, *whole}));
    }
    absl::StatusOr<std::shared_ptr<const Schema>> rebuilt =
        Schema::Build(std::move(same));
    ASSERT_TRUE(rebuilt.ok()) << rebuilt.status();
    EXPECT_EQ(SchemaToSmdYaml(**s), SchemaToSmdYaml(**rebuilt)) << root;
    EXPECT_EQ((*s)->has_defaults(), (*rebuilt)->has_defaults()) << root;
    EXPECT_EQ((*s)->has_immutability(), (*rebuilt)->has_immutability());
    kinds.push_back(*s);
  }
  // ObjectMeta is in all four, once: each kind's schema finds the same
  // atom, and the schemas are distinct all the same.
  std::set<const Atom*> metas;
  std::set<uint64_t> ids;
  for (const auto& s : kinds) {
    const Atom* meta =
        s->Find("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
    ASSERT_NE(meta, nullptr);
    metas.insert(meta);
    ids.insert(s->id());
  }
  EXPECT_EQ(metas.size(), 1u);
  EXPECT_EQ(ids.size(), 4u);
  // A kind asked for again is the same schema.
  EXPECT_EQ(*KubernetesSchemaFor("io.k8s.api.apps.v1.Deployment"), kinds[0]);
}

}  // namespace
}  // namespace smdx
