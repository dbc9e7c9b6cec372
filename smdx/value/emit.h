// Writing Values as JSON and YAML text.
//
// JSON output is byte-for-byte what Go's encoding/json (and json-iterator's
// ConfigCompatibleWithStandardLibrary, which structured-merge-diff uses)
// writes for the equivalent interface{} value, because some of it ends up in
// places that are compared as bytes (managedFields' fieldsV1):
//  - compact, no whitespace;
//  - strings escaped as Go does: \" \\ \n \r \t, other bytes below 0x20 as
//    \u00XX (lower-case hex), <, > and & as \u003c \u003e \u0026, U+2028 and
//    U+2029 as \u2028 \u2029, and each byte of invalid UTF-8 as \ufffd;
//  - ints in decimal; floats in the shortest form that reads back exactly,
//    in exponent form when |f| < 1e-6 or |f| >= 1e21 (`1e+21`, `1e-7`: Go
//    drops the leading zero of a negative two-digit exponent) and plain
//    otherwise (`1` for 1.0, `0.5`, `-0` for negative zero);
//  - NaN and infinities, which Go refuses to encode, are written as `null`.
//
// ToJson keeps each map's insertion order; ToJsonSorted sorts keys bytewise
// at every level as Go does when it encodes a map.
//
// YAML output is block style as `kubectl get -o yaml` prints it, and reads
// back through ParseYaml as exactly the same Value (same kinds, ints and
// floats kept apart; strings with invalid UTF-8 excepted, see ToYaml).
//
// Example:
//   smdx::Value v = smdx::Value::MakeMap();
//   v.map().Set("a", smdx::Value("<b>"));
//   smdx::ToJson(v);  // {"a":"\u003cb\u003e"}
//   smdx::ToYaml(v);  // a: <b>\n
#ifndef SMDX_VALUE_EMIT_H_
#define SMDX_VALUE_EMIT_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "smdx/value/value.h"

namespace smdx {

// Compact JSON, map keys in insertion order.
std::string ToJson(const Value& v);
// Compact JSON, map keys sorted bytewise at every level (Go's map order).
std::string ToJsonSorted(const Value& v);

// Appends ToJson(v) to *out.
void AppendJson(std::string* out, const Value& v);
// Appends `s` as a quoted JSON string with Go's escaping.
void AppendJsonString(std::string* out, absl::string_view s);
// Whether AppendJsonString writes `s` as it is between the quotes: it holds
// no quote, backslash, control character, HTML character (<, >, &) or byte
// beyond ASCII (which the general path checks as UTF-8).
bool JsonStringIsPlain(absl::string_view s);

namespace internal {

// The bytes JsonStringIsPlain rejects, as a table (for writers that check
// while they copy).
struct JsonEscapeTable {
  bool needs[256] = {};
  constexpr JsonEscapeTable() {
    for (int c = 0; c < 256; ++c) {
      needs[c] = c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' ||
                 c == '>' || c == '&';
    }
  }
};
inline constexpr JsonEscapeTable kJsonEscape;

}  // namespace internal

// Block-style YAML ending in a newline:
//
//   metadata:
//     name: web
//   spec:
//     containers:
//     - name: web
//       ports: []
//
// Lists nested in a map sit at the key's indentation; empty maps and lists
// are `{}` and `[]`; null is `null`. Strings are plain when they read back
// as the same string under YAML 1.1 rules and contain nothing YAML would
// misread; multi-line strings use a literal block (`|`, `|-`) when that is
// exact, and everything else is double-quoted with escapes. Integral floats
// keep a fraction (`1.0`) so they read back as floats; NaN and infinities
// are `.nan`, `.inf`, `-.inf`. Keys longer than YAML's 1024-character limit
// for implicit keys use the explicit `? key` form.
//
// YAML text must be Unicode, so bytes of invalid UTF-8 in a string are
// written as U+FFFD; only such strings do not read back unchanged.
std::string ToYaml(const Value& v);

// A short human-readable rendering for error messages (compact JSON,
// truncated when long).
std::string DebugString(const Value& v);

}  // namespace smdx

#endif  // SMDX_VALUE_EMIT_H_
