// The full parsers behind value/parse.h's readers, without the fast
// readers in front: for the tests and fuzzers that check the fast readers
// agree with them. Not installed.
#ifndef SMDX_VALUE_INTERNAL_PARSE_H_
#define SMDX_VALUE_INTERNAL_PARSE_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "smdx/value/limits.h"
#include "smdx/value/value.h"

namespace smdx {
namespace internal {

// The parsers behind ParseJson, ParseYaml and ParseYamlDocuments without
// their fast readers (value/json_fast.h, value/yaml_fast.h): nlohmann's and
// yaml-cpp's. They define the results the fast readers must match; exposed
// for the tests that check that they do.
absl::StatusOr<Value> ParseJsonWithNlohmann(absl::string_view text,
                                            const Limits& limits = Limits());
absl::StatusOr<Value> ParseYamlWithYamlCpp(absl::string_view text,
                                           const Limits& limits = Limits());
absl::StatusOr<std::vector<Value>> ParseYamlDocumentsWithYamlCpp(
    absl::string_view text, const Limits& limits = Limits());

}  // namespace internal

}  // namespace smdx

#endif  // SMDX_VALUE_INTERNAL_PARSE_H_
