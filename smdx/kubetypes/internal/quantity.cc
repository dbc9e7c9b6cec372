#include "smdx/kubetypes/internal/quantity.h"

#include <cstdint>
#include <algorithm>
#include <cstdlib>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "smdx/value/emit.h"

namespace smdx::internal {

namespace {

// A non-negative integer as its decimal digits, without leading zeros ("0"
// is zero).
using Digits = std::string;

Digits Trim(Digits d) {
  size_t i = d.find_first_not_of('0');
  return i == std::string::npos ? "0" : d.substr(i);
}

Digits MultiplySmall(const Digits& d, uint32_t m) {
  std::string out(d.size() + 10, '0');
  uint64_t carry = 0;
  size_t o = out.size();
  for (size_t i = d.size(); i-- > 0;) {
    uint64_t x = static_cast<uint64_t>(d[i] - '0') * m + carry;
    out[--o] = static_cast<char>('0' + x % 10);
    carry = x / 10;
  }
  while (carry > 0) {
    out[--o] = static_cast<char>('0' + carry % 10);
    carry /= 10;
  }
  return Trim(out.substr(o));
}

// d / m and whether it divides exactly.
Digits DivideSmall(const Digits& d, uint32_t m, bool* exact) {
  std::string out;
  uint64_t rem = 0;
  for (char c : d) {
    rem = rem * 10 + static_cast<uint64_t>(c - '0');
    out += static_cast<char>('0' + rem / m);
    rem %= m;
  }
  *exact = rem == 0;
  return Trim(out);
}

Digits AddOne(Digits d) {
  for (size_t i = d.size(); i-- > 0;) {
    if (d[i] == '9') {
      d[i] = '0';
    } else {
      ++d[i];
      return d;
    }
  }
  return "1" + d;
}

// value = digits * 10^exponent, rounded away from zero to 10^at when finer.
void RoundUpTo(Digits* digits, int64_t* exponent, int64_t at) {
  if (*exponent >= at) return;
  size_t drop = static_cast<size_t>(at - *exponent);
  bool rest = false;
  Digits kept;
  if (drop >= digits->size()) {
    rest = *digits != "0";
    kept = "0";
  } else {
    kept = digits->substr(0, digits->size() - drop);
    rest = digits->find_first_not_of('0', digits->size() - drop) !=
           std::string::npos;
    kept = Trim(kept);
  }
  *digits = rest ? AddOne(kept) : kept;
  *exponent = at;
}

// |a| against |b| for digits without leading zeros.
int CompareDigits(const Digits& a, const Digits& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  int c = a.compare(b);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

Digits AddDigits(const Digits& a, const Digits& b) {
  std::string out;
  int carry = 0;
  for (size_t i = 0; i < a.size() || i < b.size() || carry != 0; ++i) {
    int x = carry;
    if (i < a.size()) x += a[a.size() - 1 - i] - '0';
    if (i < b.size()) x += b[b.size() - 1 - i] - '0';
    out += static_cast<char>('0' + x % 10);
    carry = x / 10;
  }
  return Trim(std::string(out.rbegin(), out.rend()));
}

// a - b where a >= b.
Digits SubtractDigits(const Digits& a, const Digits& b) {
  std::string out;
  int borrow = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    int x = (a[a.size() - 1 - i] - '0') - borrow;
    if (i < b.size()) x -= b[b.size() - 1 - i] - '0';
    borrow = x < 0 ? 1 : 0;
    out += static_cast<char>('0' + (x + 10) % 10);
  }
  return Trim(std::string(out.rbegin(), out.rend()));
}

// The digits of `q` scaled to 10^exponent (exponent <= q.exponent).
Digits At(const Quantity& q, int64_t exponent) {
  if (q.digits == "0") return "0";
  return q.digits + std::string(static_cast<size_t>(q.exponent - exponent), '0');
}

}  // namespace

Quantity AddQuantities(const Quantity& a, const Quantity& b) {
  Quantity sum;
  sum.format = a.digits == "0" ? b.format : a.format;
  const int64_t e = std::min(a.exponent, b.exponent);
  const Digits x = At(a, e);
  const Digits y = At(b, e);
  if (a.negative == b.negative) {
    sum.digits = AddDigits(x, y);
    sum.negative = a.negative;
  } else if (CompareDigits(x, y) >= 0) {
    sum.digits = SubtractDigits(x, y);
    sum.negative = a.negative;
  } else {
    sum.digits = SubtractDigits(y, x);
    sum.negative = b.negative;
  }
  sum.exponent = e;
  if (sum.digits == "0") {
    sum.negative = false;
    sum.exponent = 0;
  }
  return sum;
}

int CompareQuantities(const Quantity& a, const Quantity& b) {
  const bool a_neg = a.negative && a.digits != "0";
  const bool b_neg = b.negative && b.digits != "0";
  if (a_neg != b_neg) return a_neg ? -1 : 1;
  const int64_t e = std::min(a.exponent, b.exponent);
  const int c = CompareDigits(At(a, e), At(b, e));
  return a_neg ? -c : c;
}

std::optional<Quantity> ParseQuantity(const Value& v, bool round_up_milli) {
  std::string text;
  if (v.IsString()) {
    text = std::string(absl::StripAsciiWhitespace(v.AsString()));
  } else if (v.IsInt()) {
    text = std::to_string(v.AsInt());
  } else if (v.IsFloat()) {
    text = ToJson(v);  // as a JSON body holds it
  } else {
    return std::nullopt;
  }
  if (text.empty()) return std::nullopt;
  Quantity q;
  if (text == "0") {
    q.text = text;
    return q;
  }
  // parseQuantityString: sign, digits, fraction, suffix.
  size_t pos = 0;
  bool negative = false;
  if (text[0] == '-' || text[0] == '+') {
    negative = text[0] == '-';
    pos = 1;
  }
  size_t start = pos;
  while (pos < text.size() && text[pos] == '0') ++pos;  // leading zeros
  size_t digits_start = pos;
  while (pos < text.size() && absl::ascii_isdigit(text[pos])) ++pos;
  std::string num = text.substr(digits_start, pos - digits_start);
  if (num.empty()) num = "0";
  std::string denom;
  if (pos < text.size() && text[pos] == '.') {
    size_t f = ++pos;
    while (pos < text.size() && absl::ascii_isdigit(text[pos])) ++pos;
    denom = text.substr(f, pos - f);
  }
  std::string suffix = text.substr(pos);
  // The suffix: decimal SI, binary SI, or an exponent.
  using Format = Quantity::Format;
  Format format = Format::kDecimalSI;
  int64_t exponent10 = 0;
  int binary = 0;  // powers of 1024
  static const struct {
    const char* s;
    int exp10;
    int bin;
  } kSuffixes[] = {{"", 0, 0},    {"n", -9, 0},  {"u", -6, 0},  {"m", -3, 0},
                   {"k", 3, 0},   {"M", 6, 0},   {"G", 9, 0},   {"T", 12, 0},
                   {"P", 15, 0},  {"E", 18, 0},  {"Ki", 0, 1},  {"Mi", 0, 2},
                   {"Gi", 0, 3},  {"Ti", 0, 4},  {"Pi", 0, 5},  {"Ei", 0, 6}};
  bool known = false;
  for (const auto& s : kSuffixes) {
    if (suffix == s.s) {
      exponent10 = s.exp10;
      binary = s.bin;
      format = binary > 0 ? Format::kBinarySI : Format::kDecimalSI;
      known = true;
      break;
    }
  }
  if (!known) {
    if (suffix.size() < 2 || (suffix[0] != 'e' && suffix[0] != 'E')) {
      return std::nullopt;
    }
    int64_t e = 0;
    absl::string_view rest = absl::string_view(suffix).substr(1);
    if (!rest.empty() && rest[0] == '+') rest.remove_prefix(1);
    if (!absl::SimpleAtoi(rest, &e) || e > 1000 || e < -1000) {
      return std::nullopt;
    }
    exponent10 = e;
    format = Format::kDecimalExponent;
  }
  if (pos == start) return std::nullopt;  // no number at all
  // ParseQuantity's fast path (an int64 at a scale of nanounits or more)
  // keeps the string as written when it is already in a form it would
  // print, and Quantity.String then gives it back: "5.", "+2", "1E3",
  // "00012" and "1Ki" stay; "1000m", "0.5" and "1024Mi" do not.
  const std::string shifted = num + denom;
  bool fast = false;
  bool keeps_text = false;
  int64_t fast_scale = 0;
  if (format == Format::kBinarySI) {
    int exp2 = binary * 10;
    int precision = 15 - static_cast<int>(num.size()) - exp2 * 3 / 10 - 1;
    if (denom.empty() && precision >= 0) {
      int64_t value = 0;
      if (absl::SimpleAtoi(num, &value) &&
          value <= (INT64_MAX >> exp2)) {
        fast = true;
        keeps_text = (value & 0x07) != 0;
      }
    }
  } else {
    int precision = 18 - static_cast<int>(num.size() + denom.size());
    fast_scale = exponent10 - static_cast<int64_t>(denom.size());
    if (precision >= 0 && fast_scale >= -9) {
      fast = true;
      keeps_text = fast_scale % 3 == 0 && shifted.size() >= 1 &&
                   shifted[0] != '0' &&
                   !(shifted.size() >= 3 &&
                     shifted.compare(shifted.size() - 3, 3, "000") == 0);
    }
  }
  // RoundUp(milli) keeps the text unless it has to round.
  if (round_up_milli && (!fast || fast_scale < -3)) keeps_text = false;
  if (keeps_text) q.text = text;
  // value = digits * 10^exponent * 1024^binary
  Digits digits = Trim(shifted);
  int64_t exponent = exponent10 - static_cast<int64_t>(denom.size());
  for (int i = 0; i < binary; ++i) digits = MultiplySmall(digits, 1024);
  RoundUpTo(&digits, &exponent, -9);  // ParseQuantity keeps nanounits
  if (round_up_milli) RoundUpTo(&digits, &exponent, -3);
  q.format = format;
  if (digits == "0") {
    q.text = "0";
    return q;
  }
  if (format == Format::kBinarySI && !fast) {
    // The slow path caps binary quantities at the largest int64.
    const Digits kMax = "9223372036854775807";
    Digits whole = exponent >= 0 ? digits + std::string(exponent, '0') : "";
    if (exponent >= 0 && (whole.size() > kMax.size() ||
                          (whole.size() == kMax.size() && whole > kMax))) {
      digits = kMax;
      exponent = 0;
    }
  }
  q.negative = negative;
  q.digits = std::move(digits);
  q.exponent = exponent;
  return q;
}

std::optional<std::string> QuantityString(const Quantity& q) {
  if (!q.text.empty()) return q.text;
  if (q.digits == "0") return std::string("0");
  using Format = Quantity::Format;
  Digits digits = q.digits;
  int64_t exponent = q.exponent;
  Format format = q.format;
  const bool negative = q.negative;
  // Trailing zeros move into the exponent.
  while (digits.size() > 1 && digits.back() == '0') {
    digits.pop_back();
    ++exponent;
  }
  if (format == Format::kBinarySI) {
    // As an integer, and 1024 or more: base 1024; else decimal.
    bool integral = exponent >= 0;
    Digits whole = digits + std::string(integral ? exponent : 0, '0');
    bool small = whole.size() < 4 || (whole.size() == 4 && whole < "1024");
    if (integral && !small) {
      static const char* const kBin[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
      int k = 0;
      bool exact = true;
      while (k < 6) {
        Digits q = DivideSmall(whole, 1024, &exact);
        if (!exact) break;
        whole = q;
        ++k;
      }
      return absl::StrCat(negative ? "-" : "", whole, kBin[k]);
    }
    format = Format::kDecimalSI;
  }
  // A multiple of 3 for the exponent, by zeros on the digits.
  while (((exponent % 3) + 3) % 3 != 0) {
    digits += '0';
    --exponent;
  }
  std::string sfx;
  if (format == Format::kDecimalExponent) {
    if (exponent != 0) sfx = absl::StrCat("e", exponent);
  } else {
    static const struct {
      int e;
      const char* s;
    } kDec[] = {{-9, "n"}, {-6, "u"}, {-3, "m"}, {0, ""},   {3, "k"},
                {6, "M"},  {9, "G"},  {12, "T"}, {15, "P"}, {18, "E"}};
    bool found = false;
    for (const auto& d : kDec) {
      if (d.e == exponent) {
        sfx = d.s;
        found = true;
      }
    }
    if (!found) return std::nullopt;  // beyond the suffixes: left as it is
  }
  return absl::StrCat(negative ? "-" : "", digits, sfx);
}

std::optional<std::string> CanonicalQuantity(const Value& v,
                                             bool round_up_milli) {
  std::optional<Quantity> q = ParseQuantity(v, round_up_milli);
  if (!q.has_value()) return std::nullopt;
  return QuantityString(*q);
}

}  // namespace smdx::internal
