// The Go types' facts (schema/data/kubernetes-v1.37-go-types.json) as
// kubetypes/embed_go_types.cc writes them at build time. Internal to
// kubetypes/go_types.cc.
#ifndef SMDX_KUBETYPES_INTERNAL_GO_TYPES_DATA_H_
#define SMDX_KUBETYPES_INTERNAL_GO_TYPES_DATA_H_

#include <cstddef>

namespace smdx::internal {

// One Go struct: its OpenAPI name and its fields as compact JSON,
// {"field": [kind, flags, zero], ...} (the data file's format).
struct EmbeddedGoType {
  const char* name;
  const char* fields;
};

// Sorted by name.
extern const EmbeddedGoType kEmbeddedGoTypes[];
extern const size_t kEmbeddedGoTypeCount;

// What strategic merge patches read of each struct type (the data file's
// "patch" section, {"field": "target|strategy|key", ...}; see
// kubetypes/patch_meta.h), sorted by name.
extern const EmbeddedGoType kEmbeddedPatchTypes[];
extern const size_t kEmbeddedPatchTypeCount;

}  // namespace smdx::internal

#endif  // SMDX_KUBETYPES_INTERNAL_GO_TYPES_DATA_H_
