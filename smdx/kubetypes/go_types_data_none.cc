// No Go types' facts, for openapi/embed_kubernetes.cc: the tool that
// generates the embedded schema links the layers without the embedded data.
#include "smdx/kubetypes/internal/go_types_data.h"

namespace smdx::internal {

const EmbeddedGoType kEmbeddedGoTypes[] = {{"", ""}};
const size_t kEmbeddedGoTypeCount = 0;
const EmbeddedGoType kEmbeddedPatchTypes[] = {{"", ""}};
const size_t kEmbeddedPatchTypeCount = 0;

}  // namespace smdx::internal
