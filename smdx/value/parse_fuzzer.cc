// libFuzzer target for the YAML and JSON readers: any input either parses
// or fails with a status, and what parses writes back as text that reads
// back as the same value (JSON always; YAML for valid UTF-8 strings).
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "smdx/value/emit.h"
#include "smdx/value/parse.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<smdx::Value> json = smdx::ParseJson(text);
  if (json.ok()) {
    absl::StatusOr<smdx::Value> again = smdx::ParseJson(smdx::ToJson(*json));
    if (!again.ok() || !(*again == *json)) std::abort();
  }
  absl::StatusOr<std::vector<smdx::Value>> docs =
      smdx::ParseYamlDocuments(text);
  if (docs.ok()) {
    for (const smdx::Value& v : *docs) (void)smdx::ToYaml(v);
  }
  (void)smdx::ParseYamlOrJson(text);
  return 0;
}
