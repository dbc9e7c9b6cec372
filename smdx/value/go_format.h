// Numbers and text the way Go writes them, for output that must match the
// reference byte for byte: floats as strconv.AppendFloat, code points as
// UTF-8.
//
// Internal to value/; not part of the API.
#ifndef SMDX_VALUE_GO_FORMAT_H_
#define SMDX_VALUE_GO_FORMAT_H_

#include <cstdint>
#include <string>

namespace smdx {
namespace internal {

// Appends the UTF-8 encoding of `code_point` (used by the readers to decode
// \u escapes).
void AppendUtf8(std::string* out, uint32_t code_point);

// Appends `f` as Go's strconv.AppendFloat(dst, f, fmt, -1, bit_size) does:
// the shortest digits that read back as the same float of `bit_size` (32 or
// 64) bits, in format 'e', 'f' or 'g'. NaN and infinities are written as Go
// does ("NaN", "+Inf", "-Inf"). Used for JSON numbers and for the text form
// of float map keys in YAML.
void AppendGoFloat(std::string* out, double f, char fmt, int bit_size);

}  // namespace internal
}  // namespace smdx

#endif  // SMDX_VALUE_GO_FORMAT_H_
