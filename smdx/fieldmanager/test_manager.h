// For the field manager's tests: a FieldManager of a built-in kind, typed
// by the embedded Kubernetes schema, stamping `clock`'s times; with
// `builtin_defaults`, as the apiserver runs it. On the scale subresource
// it has the kind's replicas paths.
#ifndef SMDX_FIELDMANAGER_TEST_MANAGER_H_
#define SMDX_FIELDMANAGER_TEST_MANAGER_H_

#include <memory>
#include <string>

#include "smdx/fieldmanager/field_manager.h"
#include "smdx/fieldmanager/scale.h"
#include "smdx/schema/builtin.h"

namespace smdx {
namespace testing {

inline FieldManager BuiltinTestManager(const std::string& api_version,
                                       const std::string& kind,
                                       const Clock* clock,
                                       bool builtin_defaults = true,
                                       const std::string& subresource = "") {
  FieldManagerOptions o;
  o.api_version = api_version;
  o.kind = kind;
  o.subresource = subresource;
  if (subresource == "scale")
    o.scale_replicas_paths = BuiltinReplicasPaths(api_version, kind);
  o.clock = clock;
  o.builtin_defaults = builtin_defaults;
  absl::StatusOr<std::shared_ptr<const Schema>> schema = KubernetesSchema();
  absl::StatusOr<std::string> name =
      KubernetesTypeName(**schema, api_version, kind);
  return *FieldManager::Create(*Type::Named(*schema, *name), o);
}

}  // namespace testing
}  // namespace smdx

#endif  // SMDX_FIELDMANAGER_TEST_MANAGER_H_
