// The input of the field-manager fuzzers: a YAML stream of up to three
// documents, the live object, the applied configuration and the written
// object (the configuration when there are only two).
#ifndef SMDX_TESTING_FUZZ_DOCUMENTS_H_
#define SMDX_TESTING_FUZZ_DOCUMENTS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "smdx/value/parse.h"
#include "smdx/value/value.h"

namespace smdx::testing {

struct FuzzDocuments {
  Value live;
  Value config;
  Value written;
};

// False when the input is no YAML stream of at least one document.
inline bool ReadFuzzDocuments(const uint8_t* data, size_t size,
                              FuzzDocuments* out) {
  absl::StatusOr<std::vector<Value>> docs = ParseYamlDocuments(
      absl::string_view(reinterpret_cast<const char*>(data), size));
  if (!docs.ok() || docs->empty()) return false;
  out->live = (*docs)[0];
  out->config = docs->size() > 1 ? (*docs)[1] : Value();
  out->written = docs->size() > 2 ? (*docs)[2] : out->config;
  return true;
}

}  // namespace smdx::testing

#endif  // SMDX_TESTING_FUZZ_DOCUMENTS_H_
