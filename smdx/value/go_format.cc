#include "smdx/value/go_format.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"

namespace smdx {
namespace internal {
namespace {

// A finite float as decimal digits d[0..nd) with value 0.d0d1... * 10^dp,
// as Go's strconv keeps it. Zero has no digits.
struct ShortestDecimal {
  char d[32];
  int nd = 0;
  int dp = 0;
  bool neg = false;
};

// std::to_chars without a precision yields the shortest digits that read
// back exactly (ties broken toward the exact value), the same digits Go's
// shortest formatting picks; the scientific form makes them easy to lift.
ShortestDecimal Shortest(double f, int bit_size) {
  char buf[64];
  std::to_chars_result r;
  if (bit_size == 32) {
    r = std::to_chars(buf, buf + sizeof(buf), static_cast<float>(f),
                      std::chars_format::scientific);
  } else {
    r = std::to_chars(buf, buf + sizeof(buf), f, std::chars_format::scientific);
  }
  ShortestDecimal out;
  const char* p = buf;
  const char* end = r.ptr;
  if (p < end && *p == '-') {
    out.neg = true;
    ++p;
  }
  for (; p < end && *p != 'e'; ++p) {
    if (*p != '.') out.d[out.nd++] = *p;
  }
  int exp = 0;
  if (p < end) std::from_chars(p + (p[1] == '+' ? 2 : 1), end, exp);
  if (out.nd == 1 && out.d[0] == '0') {
    out.nd = 0;
    out.dp = 0;
  } else {
    out.dp = exp + 1;
  }
  return out;
}

void FormatE(std::string* out, const ShortestDecimal& s, int prec) {
  if (s.neg) out->push_back('-');
  out->push_back(s.nd == 0 ? '0' : s.d[0]);
  if (prec > 0) {
    out->push_back('.');
    int i = 1;
    int m = std::min(s.nd, prec + 1);
    if (i < m) {
      out->append(s.d + i, m - i);
      i = m;
    }
    for (; i <= prec; ++i) out->push_back('0');
  }
  out->push_back('e');
  int exp = s.nd == 0 ? 0 : s.dp - 1;
  if (exp < 0) {
    out->push_back('-');
    exp = -exp;
  } else {
    out->push_back('+');
  }
  // Go writes at least two exponent digits.
  if (exp < 10) out->push_back('0');
  absl::StrAppend(out, exp);
}

void FormatF(std::string* out, const ShortestDecimal& s, int prec) {
  if (s.neg) out->push_back('-');
  if (s.dp > 0) {
    int m = std::min(s.nd, s.dp);
    out->append(s.d, m);
    for (; m < s.dp; ++m) out->push_back('0');
  } else {
    out->push_back('0');
  }
  if (prec > 0) {
    out->push_back('.');
    for (int i = 1; i <= prec; ++i) {
      int j = s.dp + i - 1;
      out->push_back(0 <= j && j < s.nd ? s.d[j] : '0');
    }
  }
}

}  // namespace

void AppendGoFloat(std::string* out, double f, char fmt, int bit_size) {
  if (std::isnan(f)) {
    out->append("NaN");
    return;
  }
  // Converting a double beyond float's range to float is undefined
  // behaviour in C++; Go's conversion yields an infinity.
  if (std::isinf(f) ||
      (bit_size == 32 && std::fabs(f) > std::numeric_limits<float>::max())) {
    out->append(f > 0 ? "+Inf" : "-Inf");
    return;
  }
  ShortestDecimal s = Shortest(f, bit_size);
  switch (fmt) {
    case 'e':
      FormatE(out, s, std::max(s.nd - 1, 0));
      return;
    case 'g': {
      // Go decides with precision 6 when asked for the shortest form.
      int exp = s.dp - 1;
      if (exp < -4 || exp >= 6) {
        FormatE(out, s, s.nd - 1);
      } else {
        FormatF(out, s, std::max(s.nd - s.dp, 0));
      }
      return;
    }
    default:
      FormatF(out, s, std::max(s.nd - s.dp, 0));
      return;
  }
}

}  // namespace internal

namespace internal {

void AppendUtf8(std::string* out, uint32_t code_point) {
  uint32_t cp = code_point;
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace internal

}  // namespace smdx
