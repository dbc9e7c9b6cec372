// SameBytes: equality of short byte strings (field names, keys, scalar
// strings) without a call to memcmp, which costs more than the compare for
// the few bytes most of them have.
#ifndef SMDX_VALUE_SAME_BYTES_H_
#define SMDX_VALUE_SAME_BYTES_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace smdx {
namespace internal {

// The 8 (4) bytes at `p` as one unaligned word.
inline uint64_t LoadWord(const char* p) {
  uint64_t x;
  std::memcpy(&x, p, 8);
  return x;
}
inline uint32_t LoadHalfWord(const char* p) {
  uint32_t x;
  std::memcpy(&x, p, 4);
  return x;
}

// Whether the `n` bytes at `a` and `b` are equal. Words are compared whole,
// the last one overlapping the one before.
inline bool SameBytes(const char* a, const char* b, size_t n) {
  if (n >= 8) {
    for (; n > 8; a += 8, b += 8, n -= 8) {
      if (LoadWord(a) != LoadWord(b)) return false;
    }
    return LoadWord(a + n - 8) == LoadWord(b + n - 8);
  }
  if (n >= 4) {
    return LoadHalfWord(a) == LoadHalfWord(b) &&
           LoadHalfWord(a + n - 4) == LoadHalfWord(b + n - 4);
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

#endif  // SMDX_VALUE_SAME_BYTES_H_
