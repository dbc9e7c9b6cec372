// UTF-8 as Go's unicode/utf8 (and RFC 3629) defines it: overlong forms,
// surrogates and code points above U+10FFFF are not UTF-8. The one decoder
// of smdx: the JSON reader, the writers and the field manager's name check
// use it.
#ifndef SMDX_VALUE_UTF8_H_
#define SMDX_VALUE_UTF8_H_

#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"

namespace smdx {

// The length (1 to 4) of the well-formed UTF-8 sequence starting at s[i],
// with its code point in `*rune`, or 0 when the bytes there are not one
// (`*rune` is then unchanged). An ASCII byte is a sequence of 1.
// REQUIRES: i < s.size().
size_t DecodeUtf8(absl::string_view s, size_t i, uint32_t* rune);

}  // namespace smdx

#endif  // SMDX_VALUE_UTF8_H_
