// An empty embedded schema, for openapi/embed_kubernetes.cc: the tool that
// generates the real one cannot contain it.
#include "smdx/schema/builtin_data.h"

namespace smdx::internal {

const EmbeddedSchema kEmbeddedKubernetes = {};

}  // namespace smdx::internal
