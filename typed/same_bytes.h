// SameBytes: equality of short byte strings (field names, keys, scalar
// strings) without a call to memcmp, which costs more than the compare for
// the few bytes most of them have.
#ifndef SMDX_TYPED_SAME_BYTES_H_
#define SMDX_TYPED_SAME_BYTES_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace smdx {
namespace internal {

// Whether the `n` bytes at `a` and `b` are equal. Words are compared whole,
// the last one overlapping the one before.
inline bool SameBytes(const char* a, const char* b, size_t n) {
  auto word = [](const char* p) {
    uint64_t x;
    std::memcpy(&x, p, 8);
    return x;
  };
  auto half = [](const char* p) {
    uint32_t x;
    std::memcpy(&x, p, 4);
    return x;
  };
  if (n >= 8) {
    for (; n > 8; a += 8, b += 8, n -= 8) {
      if (word(a) != word(b)) return false;
    }
    return word(a + n - 8) == word(b + n - 8);
  }
  if (n >= 4) {
    return half(a) == half(b) && half(a + n - 4) == half(b + n - 4);
  }
  for (; n > 0; ++a, ++b, --n) {
    if (*a != *b) return false;
  }
  return true;
}

inline bool SameString(const std::string& a, const std::string& b) {
  return a.size() == b.size() && SameBytes(a.data(), b.data(), a.size());
}

}  // namespace internal
}  // namespace smdx

#endif  // SMDX_TYPED_SAME_BYTES_H_
