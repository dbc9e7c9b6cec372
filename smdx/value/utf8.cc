#include "smdx/value/utf8.h"

namespace smdx {

size_t DecodeUtf8(absl::string_view s, size_t i, uint32_t* rune) {
  auto byte = [&](size_t k) -> unsigned {
    return static_cast<unsigned char>(s[k]);
  };
  unsigned b0 = byte(i);
  if (b0 < 0x80) {
    *rune = b0;
    return 1;
  }
  size_t n;
  unsigned lo = 0x80, hi = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  unsigned b1 = byte(i + 1);
  if (b1 < lo || b1 > hi) return 0;
  uint32_t r = (b0 & (0xFF >> (n + 1))) << 6 | (b1 & 0x3F);
  for (size_t k = 2; k < n; ++k) {
    unsigned b = byte(i + k);
    if (b < 0x80 || b > 0xBF) return 0;
    r = r << 6 | (b & 0x3F);
  }
  *rune = r;
  return n;
}

}  // namespace smdx
