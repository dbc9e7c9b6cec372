// libFuzzer target for the schema readers: the input is a schema document
// in any format LoadAnySchema reads (SMD YAML, an OpenAPI v2 or v3
// document, an OpenAPI schema object, CRDs). Whatever loads must write back
// as SMD YAML that loads again to the same schema (the same YAML once
// more); anything else is an error, never a crash.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "smdx/openapi/openapi.h"
#include "smdx/schema/schema.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::string_view text(reinterpret_cast<const char*>(data), size);
  std::string root;
  absl::StatusOr<std::shared_ptr<const smdx::Schema>> loaded =
      smdx::LoadAnySchema(text, &root);
  if (!loaded.ok()) return 0;
  const std::string written = smdx::SchemaToSmdYaml(**loaded);
  absl::StatusOr<std::shared_ptr<const smdx::Schema>> again =
      smdx::Schema::ParseSmd(written);
  if (!again.ok()) {
    std::fprintf(stderr, "written schema does not load: %s\n%s\n",
                 std::string(again.status().message()).c_str(),
                 written.c_str());
    std::abort();
  }
  const std::string rewritten = smdx::SchemaToSmdYaml(**again);
  if (rewritten != written) {
    std::fprintf(stderr, "written schema loads differently:\n%s\n---\n%s\n",
                 written.c_str(), rewritten.c_str());
    std::abort();
  }
  return 0;
}
