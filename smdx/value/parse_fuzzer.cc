// libFuzzer target for the YAML and JSON readers: any input either parses
// or fails with a status, and what parses writes back as text that reads
// back as the same value (JSON always; YAML for valid UTF-8 strings). The
// fast readers in front (value/json_fast.h, value/yaml_fast.h) give exactly
// what the full parsers behind them give: the same values, or the same
// error. Documents of a YAML stream also patch one another (value/patch.h):
// a result or a status, the document patched left as it was.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "smdx/value/emit.h"
#include "smdx/value/internal/parse.h"
#include "smdx/value/parse.h"
#include "smdx/value/patch.h"
#include "smdx/value/value.h"

namespace {

void SameResult(const absl::StatusOr<smdx::Value>& fast,
                const absl::StatusOr<smdx::Value>& full) {
  if (fast.ok() != full.ok()) std::abort();
  if (!fast.ok() ? fast.status() != full.status()
                 : !smdx::Identical(*fast, *full)) {
    std::abort();
  }
}

void SameResults(const absl::StatusOr<std::vector<smdx::Value>>& fast,
                 const absl::StatusOr<std::vector<smdx::Value>>& full) {
  if (fast.ok() != full.ok()) std::abort();
  if (!fast.ok()) {
    if (fast.status() != full.status()) std::abort();
    return;
  }
  if (fast->size() != full->size()) std::abort();
  for (size_t i = 0; i < fast->size(); ++i) {
    if (!smdx::Identical((*fast)[i], (*full)[i])) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<smdx::Value> json = smdx::ParseJson(text);
  SameResult(json, smdx::internal::ParseJsonWithNlohmann(text));
  if (json.ok()) {
    absl::StatusOr<smdx::Value> again = smdx::ParseJson(smdx::ToJson(*json));
    if (!again.ok() || !(*again == *json)) std::abort();
  }
  absl::StatusOr<std::vector<smdx::Value>> docs =
      smdx::ParseYamlDocuments(text);
  SameResults(docs, smdx::internal::ParseYamlDocumentsWithYamlCpp(text));
  if (docs.ok()) {
    for (const smdx::Value& v : *docs) (void)smdx::ToYaml(v);
    if (docs->size() >= 2) {
      const smdx::Value& doc = (*docs)[0];
      const smdx::Value before = doc;
      (void)smdx::ApplyMergePatch(doc, (*docs)[1]);
      (void)smdx::ApplyJsonPatch(doc, (*docs)[1], /*max_copy_bytes=*/4096);
      if (!smdx::Identical(doc, before)) std::abort();
    }
  }
  (void)smdx::ParseYamlOrJson(text);
  return 0;
}
