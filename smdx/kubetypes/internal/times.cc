#include "smdx/kubetypes/internal/times.h"

#include <string>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace smdx::internal {

namespace {

// Whether `s` is already written as the Go type writes a time:
// "2006-01-02T15:04:05Z", or with ".000000" before the Z for a MicroTime
// (and not the zero time, which is null). Most times are; they need no
// parsing.
bool WrittenBack(absl::string_view s, bool micro) {
  const absl::string_view shape =
      micro ? "dddd-dd-ddTdd:dd:dd.ddddddZ" : "dddd-dd-ddTdd:dd:ddZ";
  if (s.size() != shape.size() || s.substr(0, 4) == "0001") return false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (shape[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != shape[i]) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::optional<Value> CanonicalTime(const Value& v, bool micro) {
  if (!v.IsString()) return std::nullopt;
  if (WrittenBack(v.AsString(), micro)) return std::nullopt;
  if (micro) {
    // RFC3339Micro's ".000000": exactly six digits of fraction.
    const std::string& s = v.AsString();
    size_t dot = s.find('.');
    if (dot == std::string::npos || s.size() < dot + 8) return std::nullopt;
    for (size_t i = dot + 1; i <= dot + 6; ++i) {
      if (s[i] < '0' || s[i] > '9') return std::nullopt;
    }
    char after = s[dot + 7];
    if (after >= '0' && after <= '9') return std::nullopt;
  }
  absl::Time t;
  std::string err;
  if (!absl::ParseTime(absl::RFC3339_full, v.AsString(), &t, &err)) {
    return std::nullopt;
  }
  // Go's zero time (year 1) encodes as null.
  static const absl::Time kZero =
      absl::FromCivil(absl::CivilSecond(1, 1, 1, 0, 0, 0), absl::UTCTimeZone());
  if (t == kZero) return Value();
  return Value(absl::FormatTime(
      micro ? "%Y-%m-%d%ET%H:%M:%E6SZ" : "%Y-%m-%d%ET%H:%M:%SZ", t,
      absl::UTCTimeZone()));
}

}  // namespace smdx::internal
