// SameBytes and HashBytes: equality and hashes of short byte strings (field
// names, keys, scalar strings) without a call to memcmp or to the standard
// library's hash, which cost more than the work for the few bytes most of
// them have.
#ifndef SMDX_VALUE_SAME_BYTES_H_
#define SMDX_VALUE_SAME_BYTES_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

#if defined(__SSE2__)
// Which of the 16 bytes at `a` and at `b` are equal: bit i for byte i.
inline uint32_t SameMask16(const char* a, const char* b) {
  const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a));
  const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b));
  uint32_t m = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)));
  // Bytes past a string's end may never have been written: the compiler is
  // not to reason about them, only to mask them off.
  asm("" : "+r"(m));
  return m;
}
#endif

inline bool SameString(const std::string& a, const std::string& b) {
  const size_t n = a.size();
  if (n != b.size()) return false;
#if defined(__GLIBCXX__) && defined(__SSE2__)
  // libstdc++ keeps every string's bytes in a buffer of at least 16: its
  // own of 15 and the terminator, or one from the heap with room for more
  // than 15 (a string outgrows its own only past 15, and a heap buffer is
  // never made smaller than that). So 16 bytes may be read at data(), and
  // a string of up to 16 is compared with no branch on its length.
  const char* p = a.data();
  const char* q = b.data();
  if (n <= 16) return (~SameMask16(p, q) & ((uint32_t{1} << n) - 1)) == 0;
  for (size_t i = 0; i + 16 < n; i += 16) {
    if (SameMask16(p + i, q + i) != 0xFFFF) return false;
  }
  return SameMask16(p + n - 16, q + n - 16) == 0xFFFF;
#else
  return SameBytes(a.data(), b.data(), n);
#endif
}

// Sets `*s` to the `n` bytes at `p`, which lie outside `*s`. For the few
// bytes of a key this is cheaper than std::string::assign: libstdc++ keeps
// assign and append out of line (assign's general replace costs about 30
// instructions more than an append to an emptied string), where its
// constructor from bytes is made here, inline. Up to 15 bytes, which the
// string holds in itself, the constructor allocates nothing and cannot
// throw, so the string is made anew in place.
inline void SetBytes(std::string* s, const char* p, size_t n) {
  if (n <= 15) {
    s->~basic_string();
    new (s) std::string(p, n);
    return;
  }
  s->clear();
  s->append(p, n);
}

// The `n` bytes at `p`, 0 < n < 8, in one word that differs for any two
// strings of that length: the first and last four bytes (which overlap
// below 8), or below 4 the first, middle and last bytes (all of them).
inline uint64_t ShortWord(const char* p, size_t n) {
  if (n >= 4) return uint64_t{LoadHalfWord(p)} << 32 | LoadHalfWord(p + n - 4);
  return uint64_t{static_cast<unsigned char>(p[0])} |
         uint64_t{static_cast<unsigned char>(p[n / 2])} << 8 |
         uint64_t{static_cast<unsigned char>(p[n - 1])} << 16;
}

// A hash of the `n` bytes at `p`: each word multiplied in, the last one
// overlapping the one before, then the high bits folded into the low ones
// (hash tables take their buckets from both). Not seeded, as std::hash is
// not.
inline size_t HashBytes(const char* p, size_t n) {
  constexpr uint64_t kMul = 0x9E3779B97F4A7C15ull;
  uint64_t h = n * kMul;
  if (n >= 8) {
    for (; n > 8; p += 8, n -= 8) h = (h ^ LoadWord(p)) * kMul;
    h = (h ^ LoadWord(p + n - 8)) * kMul;
  } else if (n > 0) {
    h = (h ^ ShortWord(p, n)) * kMul;
  }
  return static_cast<size_t>(h ^ (h >> 31));
}

inline size_t HashString(const std::string& s) {
  return HashBytes(s.data(), s.size());
}

}  // namespace internal
}  // namespace smdx

#endif  // SMDX_VALUE_SAME_BYTES_H_
