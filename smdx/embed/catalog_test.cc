#include "smdx/embed/catalog.h"

#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "testing/test_util.h"

namespace smdx {
namespace {

using smdx::testing::Yaml;

constexpr char kMouseCrd[] = R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: mice.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: mice, singular: mouse, kind: Mouse}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
)";

// A custom resource's messages name it by its CRD's plural, which no
// guess from the kind gives.
TEST(CatalogTest, CustomResourcesAreNamedByTheirPlural) {
  absl::StatusOr<Catalog> c = Catalog::FromDocuments({kMouseCrd});
  ASSERT_TRUE(c.ok()) << c.status();
  const SchemaKind* k = c->FindKind("example.com/v1", "Mouse");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->resource, "mice");
  ResourceOptions r;
  r.api_version = "example.com/v1";
  r.kind = "Mouse";
  absl::StatusOr<FieldManager> fm = c->NewFieldManager(r);
  ASSERT_TRUE(fm.ok()) << fm.status();
  EXPECT_EQ(fm->options().resource, "mice");
  const Value live = Yaml(
      "{apiVersion: example.com/v1, kind: Mouse, metadata: {name: m, "
      "namespace: default, uid: u, resourceVersion: '5'}}");
  FieldManagerResult res = fm->Update(
      live,
      Yaml("{apiVersion: example.com/v1, kind: Mouse, metadata: {name: m, "
           "namespace: default, resourceVersion: '4'}}"),
      "ctrl");
  EXPECT_EQ(res.kind, ErrorKind::kConflict);
  EXPECT_EQ(res.status.message(),
            "Operation cannot be fulfilled on mice.example.com \"m\": the "
            "object has been modified; please apply your changes to the "
            "latest version and try again");
  // A custom resource's strategy takes no write without a version.
  res = fm->Update(live,
                   Yaml("{apiVersion: example.com/v1, kind: Mouse, "
                        "metadata: {name: m, namespace: default}}"),
                   "ctrl");
  EXPECT_EQ(res.kind, ErrorKind::kInvalid);
  EXPECT_EQ(res.status.message(),
            "mice.example.com \"m\" is invalid: metadata.resourceVersion: "
            "Invalid value: 0: must be specified for an update");
}

// A cluster's /openapi/v3 document of custom resources names them in its
// paths.
TEST(CatalogTest, ClusterOpenApiNamesCustomResourcesByTheirPaths) {
  std::ifstream in(std::string(SMDX_SOURCE_DIR) +
                   "/testdata/cluster-openapi-v3/apis_realapi.smdx.dev_v1.json");
  std::stringstream text;
  text << in.rdbuf();
  absl::StatusOr<Catalog> c = Catalog::FromDocuments({text.str()});
  ASSERT_TRUE(c.ok()) << c.status();
  const SchemaKind* k = c->FindKind("realapi.smdx.dev/v1", "Scaler");
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(k->custom_resource);
  EXPECT_EQ(k->resource, "scalers");
}

}  // namespace
}  // namespace smdx
