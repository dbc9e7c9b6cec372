// The embedded Kubernetes schema (schema/builtin.h) typing real objects.
#include "gtest/gtest.h"
#include "smdx/schema/builtin.h"
#include "testing/test_util.h"
#include "smdx/typed/typed.h"

namespace smdx {
namespace {

TEST(KubernetesTypesTest, OldKindsUseTodaysCoreTypes) {
  // extensions/v1beta1 Deployment comes from the older schema, but its pod
  // template is today's: topologySpreadConstraints validates.
  absl::StatusOr<std::shared_ptr<const Schema>> s =
      KubernetesSchemaFor("io.k8s.api.extensions.v1beta1.Deployment");
  ASSERT_TRUE(s.ok()) << s.status();
  absl::StatusOr<Type> t =
      Type::Named(*s, "io.k8s.api.extensions.v1beta1.Deployment");
  ASSERT_TRUE(t.ok()) << t.status();
  Value d = testing::Yaml(R"(apiVersion: extensions/v1beta1
kind: Deployment
metadata: {name: web}
spec:
  template:
    spec:
      containers: [{name: web, image: nginx}]
      topologySpreadConstraints:
      - maxSkew: 1
        topologyKey: topology.kubernetes.io/zone
        whenUnsatisfiable: DoNotSchedule
)");
  EXPECT_TRUE(Validate(*t, d).ok()) << Validate(*t, d);
}

TEST(KubernetesTypesTest, CutDownSchemaTypesAValueAsTheWholeDoes) {
  const char* name = "io.k8s.api.apps.v1.Deployment";
  absl::StatusOr<std::shared_ptr<const Schema>> full = KubernetesSchema();
  absl::StatusOr<std::shared_ptr<const Schema>> cut = KubernetesSchemaFor(name);
  ASSERT_TRUE(full.ok() && cut.ok());
  absl::StatusOr<Type> a = Type::Named(*full, name);
  absl::StatusOr<Type> b = Type::Named(*cut, name);
  ASSERT_TRUE(a.ok() && b.ok());
  Value d = testing::Yaml(R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app: web}}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx
        ports: [{containerPort: 80, protocol: TCP}]
)");
  EXPECT_EQ(ToFieldSet(*a, d), ToFieldSet(*b, d));
  Value bad = testing::Yaml(
      "apiVersion: apps/v1\nkind: Deployment\nspec: {replicas: x}\n");
  EXPECT_EQ(Validate(*a, bad).message(), Validate(*b, bad).message());
  EXPECT_FALSE(Validate(*b, bad).ok());
  // Cached: the same schema each time.
  EXPECT_EQ(KubernetesSchemaFor(name)->get(), cut->get());
}

}  // namespace
}  // namespace smdx
