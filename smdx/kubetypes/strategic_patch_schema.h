// The schema strategic merge patches of the built-in kinds read: the Go
// types' patchStrategy and patchMergeKey tags and what each field's type
// is to strategicpatch's lookups (PatchMetaFromStruct over the apiserver's
// versioned Go types), as data from reflection over them
// (schema/data/kubernetes-v1.37-go-types.json, its "patch" section;
// conformance/realapi/cmd/gotypes writes it).
//
// Example:
//   const StrategicPatchSchema* s =
//       BuiltinStrategicPatchSchema("io.k8s.api.apps.v1.Deployment");
//   if (s != nullptr) v = ApplyStrategicMergePatch(live, patch, *s);
#ifndef SMDX_KUBETYPES_STRATEGIC_PATCH_SCHEMA_H_
#define SMDX_KUBETYPES_STRATEGIC_PATCH_SCHEMA_H_

#include <memory>

#include "absl/strings/string_view.h"
#include "smdx/value/strategic_patch.h"
#include "smdx/value/value.h"

namespace smdx {

namespace internal {
class PatchTypeSource;
}  // namespace internal

// The Go struct type with OpenAPI name `openapi_name` (a kind's, or
// io.k8s.api.autoscaling.v1.Scale), or nullptr when the built-in API has
// none (a custom resource's type). Nodes live as long as the process.
// Thread-safe.
const StrategicPatchSchema* BuiltinStrategicPatchSchema(
    absl::string_view openapi_name);

// Go types given as data in the same form: `types` maps each struct's name
// to its fields, {"field": "target|strategy|key", ...}, where a target is
// "@" and a struct's name, "[" and its items' target for a slice ("[!" a
// slice of slices), "*" and its target for another pointer, or the Go kind
// of anything else ("map", "string"). For
// Go types other than the built-in API's (strategicpatch's own tests).
class StrategicPatchTypes {
 public:
  explicit StrategicPatchTypes(Value types);
  ~StrategicPatchTypes();
  StrategicPatchTypes(const StrategicPatchTypes&) = delete;
  StrategicPatchTypes& operator=(const StrategicPatchTypes&) = delete;

  // The struct `name`, or nullptr; it lives as long as this.
  const StrategicPatchSchema* Find(absl::string_view name) const;

 private:
  std::unique_ptr<internal::PatchTypeSource> source_;
};

}  // namespace smdx

#endif  // SMDX_KUBETYPES_STRATEGIC_PATCH_SCHEMA_H_
