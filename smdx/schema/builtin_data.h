// The embedded Kubernetes schema as openapi/embed_kubernetes.cc generates it
// at build time. Internal to schema/builtin.cc.
#ifndef SMDX_SCHEMA_BUILTIN_DATA_H_
#define SMDX_SCHEMA_BUILTIN_DATA_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace smdx::internal {

// One type: its definition is binary[begin, end) (schema/typedef_codec.h),
// and it refers to the types deps[deps_begin, deps_end).
struct EmbeddedType {
  const char* name;
  uint32_t begin;
  uint32_t end;
  uint32_t deps_begin;
  uint32_t deps_end;
};

// An apiVersion and kind and the index of its root type.
struct EmbeddedKind {
  const char* api_version;
  const char* kind;
  uint32_t type;
};

struct EmbeddedSchema {
  absl::string_view binary;  // the types' definitions, one after another
  absl::Span<const EmbeddedType> types;  // in the schema's order
  absl::Span<const uint32_t> deps;
  absl::Span<const uint32_t> by_name;  // the types' indexes, by name
  absl::Span<const EmbeddedKind> kinds;  // sorted by apiVersion, then kind
  // The Kubernetes release of the newest document (its info.version).
  absl::string_view kubernetes_version;
};

extern const EmbeddedSchema kEmbeddedKubernetes;

}  // namespace smdx::internal

#endif  // SMDX_SCHEMA_BUILTIN_DATA_H_
