#include "smdx/value/limits.h"

#include "absl/strings/str_cat.h"

namespace smdx {

absl::Status LimitError(const std::string& what, const char* name,
                        size_t limit) {
  return absl::ResourceExhaustedError(
      absl::StrCat(what, " is over the ", name, " limit of ", limit));
}

bool WithinAliasRatio(size_t alias_nodes, size_t nodes) {
  // sigs.k8s.io/yaml's reader (yaml.v2) checks this at every node it
  // decodes; the figures are its.
  constexpr double kLow = 400'000, kHigh = 4'000'000;
  if (alias_nodes <= 100 || nodes <= 1000) return true;
  double d = static_cast<double>(nodes);
  double allowed = d <= kLow    ? 0.99
                   : d >= kHigh ? 0.10
                                : 0.99 - 0.89 * ((d - kLow) / (kHigh - kLow));
  return static_cast<double>(alias_nodes) / d <= allowed;
}

}  // namespace smdx
