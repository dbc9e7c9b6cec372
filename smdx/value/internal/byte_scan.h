// Byte scans the text readers run over whole documents: sixteen bytes at a
// time with SSE2 (part of every x86-64), eight on other little-endian
// machines, one at a time elsewhere. A loop per
// byte costs a compare and a branch for every byte of a manifest; these
// cost about one instruction per byte.
//
// Internal to the value/ readers and writers; not part of the API.
#ifndef SMDX_VALUE_INTERNAL_BYTE_SCAN_H_
#define SMDX_VALUE_INTERNAL_BYTE_SCAN_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "smdx/value/emit.h"

namespace smdx {
namespace internal {

inline constexpr uint64_t kByteOnes = 0x0101010101010101ull;
inline constexpr uint64_t kByteHighs = 0x8080808080808080ull;

// The high bit of each byte of `x` that is zero. Exact up to the first
// zero byte only: a borrow may mark bytes after it, so callers look at the
// lowest mark alone.
inline uint64_t FirstZeroByteMarks(uint64_t x) {
  return (x - kByteOnes) & ~x & kByteHighs;
}

// The number of leading bytes of [p, end) that are printable ASCII
// (0x20-0x7E), line feeds or tabs: the bytes both YAML readers take as
// they are.
inline size_t PlainAsciiPrefix(const char* p, const char* end) {
  const char* const begin = p;
#if defined(__SSE2__)
  const __m128i space = _mm_set1_epi8(0x20);
  const __m128i del = _mm_set1_epi8(0x7F);
  const __m128i newline = _mm_set1_epi8('\n');
  const __m128i tab = _mm_set1_epi8('\t');
  while (end - p >= 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // As signed bytes, control characters and the bytes beyond ASCII are
    // both below 0x20.
    const __m128i low = _mm_cmplt_epi8(x, space);
    const __m128i allowed_low =
        _mm_or_si128(_mm_cmpeq_epi8(x, newline), _mm_cmpeq_epi8(x, tab));
    const __m128i bad = _mm_or_si128(_mm_andnot_si128(allowed_low, low),
                                     _mm_cmpeq_epi8(x, del));
    const int mask = _mm_movemask_epi8(bad);
    if (mask != 0) {
      return static_cast<size_t>(p - begin) +
             static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    }
    p += 16;
  }
#endif
  for (; p != end; ++p) {
    const unsigned char c = static_cast<unsigned char>(*p);
    if (c >= 0x7F || (c < 0x20 && c != '\n' && c != '\t')) break;
  }
  return static_cast<size_t>(p - begin);
}

// The number of leading spaces of [p, end): indentation, eight bytes at a
// time.
inline size_t LeadingSpaces(const char* p, const char* end) {
  const char* const begin = p;
  constexpr uint64_t kSpaces = kByteOnes * ' ';
  while (end - p >= 8) {
    uint64_t x;
    std::memcpy(&x, p, 8);
    const uint64_t other = x ^ kSpaces;
    if (other != 0) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
      return static_cast<size_t>(p - begin) + __builtin_ctzll(other) / 8;
#else
      break;
#endif
    }
    p += 8;
  }
  while (p != end && *p == ' ') ++p;
  return static_cast<size_t>(p - begin);
}

// The first byte in [p, end) equal to `a`, `b` or `c`, or `end`.
inline const char* FindAnyOf3(const char* p, const char* end, char a, char b,
                              char c) {
#if defined(__SSE2__)
  const __m128i va = _mm_set1_epi8(a);
  const __m128i vb = _mm_set1_epi8(b);
  const __m128i vc = _mm_set1_epi8(c);
  while (end - p >= 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i hit =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb)),
                     _mm_cmpeq_epi8(x, vc));
    const int mask = _mm_movemask_epi8(hit);
    if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
    p += 16;
  }
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  while (end - p >= 8) {
    uint64_t x;
    std::memcpy(&x, p, 8);
    const uint64_t hit =
        FirstZeroByteMarks(x ^ (kByteOnes * static_cast<unsigned char>(a))) |
        FirstZeroByteMarks(x ^ (kByteOnes * static_cast<unsigned char>(b))) |
        FirstZeroByteMarks(x ^ (kByteOnes * static_cast<unsigned char>(c)));
    if (hit != 0) return p + __builtin_ctzll(hit) / 8;
    p += 8;
  }
#endif
  while (p != end && *p != a && *p != b && *p != c) ++p;
  return p;
}

#if defined(__SSE2__)
// A bit per byte of `x` that a JSON string must escape (the bytes
// JsonStringIsPlain rejects).
inline int JsonEscapeMask(__m128i x) {
  // As signed bytes, both the control characters and the bytes beyond
  // ASCII are below 0x20.
  const __m128i stops = _mm_or_si128(
      _mm_or_si128(_mm_cmplt_epi8(x, _mm_set1_epi8(0x20)),
                   _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
                                _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')))),
      _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('<')),
                                _mm_cmpeq_epi8(x, _mm_set1_epi8('>'))),
                   _mm_cmpeq_epi8(x, _mm_set1_epi8('&'))));
  return _mm_movemask_epi8(stops);
}
#endif

// The ends of a run of 4 to 16 bytes as two words that may overlap: for 8
// bytes and more the first and the last eight; for fewer, the first and the
// last four, side by side in both words. Short copies and checks load them
// instead of looping: a call to memcpy costs more than the copy.
inline void LoadEnds(const char* from, size_t n, uint64_t* a, uint64_t* b) {
  if (n >= 8) {
    std::memcpy(a, from, 8);
    std::memcpy(b, from + n - 8, 8);
    return;
  }
  uint32_t lo, hi;
  std::memcpy(&lo, from, 4);
  std::memcpy(&hi, from + n - 4, 4);
  *a = *b = uint64_t{lo} | uint64_t{hi} << 32;
}
// Writes what LoadEnds read for a run of `n` bytes.
inline void StoreEnds(char* to, size_t n, uint64_t a, uint64_t b) {
  if (n >= 8) {
    std::memcpy(to, &a, 8);
    std::memcpy(to + n - 8, &b, 8);
    return;
  }
  const uint32_t lo = static_cast<uint32_t>(a);
  const uint32_t hi = static_cast<uint32_t>(a >> 32);
  std::memcpy(to, &lo, 4);
  std::memcpy(to + n - 4, &hi, 4);
}

// Copies `n` bytes, inline for the 4 to 16 of most names.
inline void CopyShort(char* to, const char* from, size_t n) {
  if (n >= 4 && n <= 16) {
    uint64_t a, b;
    LoadEnds(from, n, &a, &b);
    StoreEnds(to, n, a, b);
  } else {
    std::memcpy(to, from, n);
  }
}

// Whether a JSON string writes the `n` bytes at `from` as they are
// (JsonStringIsPlain), copying them to `to` in the same pass when kCopy.
// Reads (and writes) only the `n` bytes.
template <bool kCopy>
inline bool ScanJsonPlain(char* to, const char* from, size_t n) {
#if defined(__SSE2__)
  if (n >= 4 && n <= 16) {
    uint64_t a, b;
    LoadEnds(from, n, &a, &b);
    if constexpr (kCopy) StoreEnds(to, n, a, b);
    return JsonEscapeMask(_mm_set_epi64x(static_cast<int64_t>(b),
                                         static_cast<int64_t>(a))) == 0;
  }
  if (n > 16) {
    int mask = 0;
    size_t i = 0;
    for (; n - i >= 16; i += 16) {
      const __m128i x =
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i));
      if constexpr (kCopy)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(to + i), x);
      mask |= JsonEscapeMask(x);
    }
    if (i < n) {
      const __m128i x =
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + n - 16));
      if constexpr (kCopy)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(to + n - 16), x);
      mask |= JsonEscapeMask(x);
    }
    return mask == 0;
  }
#endif
  bool needs = false;
  for (size_t i = 0; i < n; ++i) {
    const unsigned char c = static_cast<unsigned char>(from[i]);
    if constexpr (kCopy) to[i] = static_cast<char>(c);
    needs |= kJsonEscape.needs[c];
  }
  return !needs;
}

// Copies the `n` bytes at `from` to `to` and says whether a JSON string
// writes them as they are: the check of the writers that copy names and
// values they have not checked before, in the same pass.
inline bool CopyJsonPlain(char* to, const char* from, size_t n) {
  return ScanJsonPlain<true>(to, from, n);
}

// Whether a JSON string writes the `n` bytes at `from` as they are.
inline bool JsonBytesArePlain(const char* from, size_t n) {
  return ScanJsonPlain<false>(nullptr, from, n);
}

}  // namespace internal
}  // namespace smdx

#endif  // SMDX_VALUE_INTERNAL_BYTE_SCAN_H_
