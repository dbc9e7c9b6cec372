#include "smdx/value/yaml_scalar.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <system_error>
#include <vector>

#include "absl/strings/str_cat.h"
#include "smdx/value/go_format.h"
#include "smdx/value/same_bytes.h"

namespace smdx {
namespace internal {
namespace {

// ---------------------------------------------------------------------------
// YAML scalar resolution (gopkg.in/yaml.v2's resolve()).

// Go's strconv.ParseUint(s, 0, 64): optional 0x/0o/0b prefix or a leading 0
// for octal, no sign, no underscores (the caller removed them).
bool ParseGoUint(absl::string_view s, uint64_t* out) {
  if (s.empty()) return false;
  int base = 10;
  if (s[0] == '0') {
    char p = s.size() >= 3 ? static_cast<char>(s[1] | 0x20) : '\0';
    if (p == 'x') {
      base = 16;
      s.remove_prefix(2);
    } else if (p == 'o') {
      base = 8;
      s.remove_prefix(2);
    } else if (p == 'b') {
      base = 2;
      s.remove_prefix(2);
    } else {
      base = 8;
      s.remove_prefix(1);
    }
  }
  uint64_t n = 0;
  for (char c : s) {
    int d;
    if (c >= '0' && c <= '9') {
      d = c - '0';
    } else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') {
      d = (c | 0x20) - 'a' + 10;
    } else {
      return false;
    }
    if (d >= base) return false;
    if (n > (std::numeric_limits<uint64_t>::max() - d) / base) return false;
    n = n * base + d;
  }
  *out = n;
  return true;
}

// Go's strconv.ParseInt(s, 0, 64).
bool ParseGoInt(absl::string_view s, int64_t* out) {
  bool neg = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  uint64_t u;
  if (!ParseGoUint(s, &u)) return false;
  constexpr uint64_t kMax = std::numeric_limits<int64_t>::max();
  if (neg) {
    if (u > kMax + 1) return false;
    *out = u == kMax + 1 ? std::numeric_limits<int64_t>::min()
                         : -static_cast<int64_t>(u);
  } else {
    if (u > kMax) return false;
    *out = static_cast<int64_t>(u);
  }
  return true;
}

bool AllDigits(absl::string_view s) {
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
bool IsYamlStyleFloat(absl::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  size_t e = s.find_first_of("eE");
  absl::string_view mant = s.substr(0, e);
  if (e != absl::string_view::npos) {
    absl::string_view exp = s.substr(e + 1);
    if (!exp.empty() && (exp[0] == '+' || exp[0] == '-')) exp.remove_prefix(1);
    if (exp.empty() || !AllDigits(exp)) return false;
  }
  size_t dot = mant.find('.');
  if (dot == absl::string_view::npos) return !mant.empty() && AllDigits(mant);
  absl::string_view whole = mant.substr(0, dot);
  absl::string_view frac = mant.substr(dot + 1);
  if (!AllDigits(whole) || !AllDigits(frac)) return false;
  return whole.empty() ? !frac.empty() : true;
}

// Go's strconv.ParseFloat(s, 64) for text matching IsYamlStyleFloat: fails
// on overflow, while underflow quietly yields zero or a subnormal.
bool ParseGoFloat(absl::string_view s, double* out) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  double d;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
  if (ptr != s.data() + s.size()) return false;
  if (ec == std::errc()) {
    *out = d;
    return true;
  }
  if (ec != std::errc::result_out_of_range) return false;
  // from_chars does not say which way the range was exceeded. The text is
  // plain decimal, so strtod cannot be confused by locale-specific forms
  // other than the decimal point, which the "C" locale programs run in
  // keeps as '.'.
  std::string copy(s);
  d = std::strtod(copy.c_str(), nullptr);
  if (std::isinf(d)) return false;
  *out = d;
  return true;
}

struct Constant {
  absl::string_view text;
  enum { kNull, kTrue, kFalse, kNaN, kPosInf, kNegInf } kind;
};

constexpr Constant kConstants[] = {
    {"", Constant::kNull},        {"~", Constant::kNull},
    {"null", Constant::kNull},    {"Null", Constant::kNull},
    {"NULL", Constant::kNull},    {"y", Constant::kTrue},
    {"Y", Constant::kTrue},       {"yes", Constant::kTrue},
    {"Yes", Constant::kTrue},     {"YES", Constant::kTrue},
    {"true", Constant::kTrue},    {"True", Constant::kTrue},
    {"TRUE", Constant::kTrue},    {"on", Constant::kTrue},
    {"On", Constant::kTrue},      {"ON", Constant::kTrue},
    {"n", Constant::kFalse},      {"N", Constant::kFalse},
    {"no", Constant::kFalse},     {"No", Constant::kFalse},
    {"NO", Constant::kFalse},     {"false", Constant::kFalse},
    {"False", Constant::kFalse},  {"FALSE", Constant::kFalse},
    {"off", Constant::kFalse},    {"Off", Constant::kFalse},
    {"OFF", Constant::kFalse},    {".nan", Constant::kNaN},
    {".NaN", Constant::kNaN},     {".NAN", Constant::kNaN},
    {".inf", Constant::kPosInf},  {".Inf", Constant::kPosInf},
    {".INF", Constant::kPosInf},  {"+.inf", Constant::kPosInf},
    {"+.Inf", Constant::kPosInf}, {"+.INF", Constant::kPosInf},
    {"-.inf", Constant::kNegInf}, {"-.Inf", Constant::kNegInf},
    {"-.INF", Constant::kNegInf},
};

// Whether a plain scalar surely resolves to a string, decided from its
// first character and length alone: the constants above are at most five
// characters long and start with one of a few characters, and numbers
// start with a sign, a dot or a digit. Most keys and values pass this.
bool SurelyString(absl::string_view text) {
  if (text.empty()) return false;
  char c = text[0];
  if (c == '+' || c == '-' || c == '.' || (c >= '0' && c <= '9')) {
    return false;
  }
  if (text.size() > 5) return true;
  switch (c) {
    case '~':
    case 'n':
    case 'N':
    case 'y':
    case 'Y':
    case 't':
    case 'T':
    case 'o':
    case 'O':
    case 'f':
    case 'F':
      return false;
    default:
      return true;
  }
}

// The constants by their length, each as its bytes in one word: a lookup
// compares a word with at most a dozen others.
constexpr size_t kLongestConstant = 5;

constexpr bool ConstantsFitAWord() {
  for (const Constant& c : kConstants) {
    if (c.text.size() > kLongestConstant) return false;
  }
  return true;
}
static_assert(ConstantsFitAWord());

uint64_t PackShort(absl::string_view text) {
  uint64_t v = 0;
  std::memcpy(&v, text.data(), text.size());
  return v;
}

struct ConstantIndex {
  struct Entry {
    uint64_t bytes;
    const Constant* constant;
  };
  std::vector<Entry> by_size[kLongestConstant + 1];

  ConstantIndex() {
    for (const Constant& c : kConstants) {
      by_size[c.text.size()].push_back(Entry{PackShort(c.text), &c});
    }
  }
};

const Constant* FindConstant(absl::string_view text) {
  if (text.size() > kLongestConstant) return nullptr;
  static const ConstantIndex* const index = new ConstantIndex();
  const uint64_t bytes = PackShort(text);
  for (const ConstantIndex::Entry& e : index->by_size[text.size()]) {
    if (e.bytes == bytes) return e.constant;
  }
  return nullptr;
}

bool IsNumberStart(char c) {
  return c == '+' || c == '-' || c == '.' || (c >= '0' && c <= '9');
}

// Whether a plain scalar resolves to a string: SurelyString, and the
// short words that turn out to be no constant ("name", "tcp").
bool ResolvesToString(absl::string_view text) {
  return SurelyString(text) || (!text.empty() && !IsNumberStart(text[0]) &&
                                FindConstant(text) == nullptr);
}

// Whether every byte of `text` can occur in a number yaml.v2 reads: digits,
// signs, '.', '_', exponents and the base prefixes and hex digits of
// strconv.ParseInt(s, 0, 64). Quantities ("20Mi", "150m") and flags
// ("--v=2") fail here, before the number readers copy them, and so do
// addresses ("10.0.0.1": no number has two dots) and UIDs (a sign inside a
// number follows its exponent's 'e', underscores aside).
bool MayBeNumber(absl::string_view text) {
  int dots = 0;
  char before = '\0';  // the byte before, underscores skipped
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '_') continue;
    if ((c == '+' || c == '-') && i > 0 && before != 'e' && before != 'E') {
      return false;
    }
    dots += c == '.';
    const bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
                    (c >= 'A' && c <= 'F') || c == '+' || c == '-' ||
                    c == '.' || c == 'x' || c == 'X' || c == 'o' || c == 'O';
    if (!ok) return false;
    before = c;
  }
  return dots <= 1;
}

// Decimal digits with no leading zero and at most 18 of them: an int64 in
// every reading (yaml.v2's and Go's strconv agree), worked out here
// without the general path's copy.
bool SmallDecimal(absl::string_view text, int64_t* out) {
  if (text.empty() || text.size() > 18 || text[0] < '1' || text[0] > '9') {
    return false;
  }
  int64_t n = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    n = n * 10 + (c - '0');
  }
  *out = n;
  return true;
}

// yaml.v2 resolves a uint64 beyond int64 to a uint64, which a float
// represents; `*is_uint` tells the !!int check that it was one. Sets `*out`
// in place (a reader's node is made where it stays).
void ResolvePlain(absl::string_view text, bool* is_uint, Value* out) {
  *is_uint = false;
  if (SurelyString(text)) return out->SetString(text);
  if (int64_t small; SmallDecimal(text, &small)) return out->SetInt(small);
  if (const Constant* c = FindConstant(text)) {
    switch (c->kind) {
      case Constant::kNull:
        return out->SetNull();
      case Constant::kTrue:
        return out->SetBool(true);
      case Constant::kFalse:
        return out->SetBool(false);
      case Constant::kNaN:
        return out->SetFloat(std::numeric_limits<double>::quiet_NaN());
      case Constant::kPosInf:
        return out->SetFloat(std::numeric_limits<double>::infinity());
      case Constant::kNegInf:
        return out->SetFloat(-std::numeric_limits<double>::infinity());
    }
  }
  // Only text starting like a number can be one.
  char c = text[0];
  if (!IsNumberStart(c) || !MayBeNumber(text)) return out->SetString(text);
  std::string plain;
  plain.reserve(text.size());
  for (char ch : text) {
    if (ch != '_') plain.push_back(ch);
  }
  if (c != '.') {
    int64_t i;
    if (ParseGoInt(plain, &i)) return out->SetInt(i);
    uint64_t u;
    if (ParseGoUint(plain, &u)) {
      *is_uint = true;
      return out->SetFloat(static_cast<double>(u));
    }
  }
  double d;
  if (IsYamlStyleFloat(plain) && ParseGoFloat(plain, &d)) {
    return out->SetFloat(d);
  }
  out->SetString(text);
}

Value ResolvePlain(absl::string_view text, bool* is_uint) {
  Value v;
  ResolvePlain(text, is_uint, &v);
  return v;
}

// The map key a scalar becomes when Kubernetes converts YAML to JSON
// (sigs.k8s.io/yaml's convertToJSONableObject): floats use
// strconv.FormatFloat(f, 'g', -1, 32).
std::string KeyTextOf(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kString:
      return v.AsString();
    case Value::Kind::kInt:
      return absl::StrCat(v.AsInt());
    case Value::Kind::kBool:
      return v.AsBool() ? "true" : "false";
    case Value::Kind::kFloat: {
      std::string s;
      AppendGoFloat(&s, v.AsFloat(), 'g', 32);
      if (s == "+Inf") return ".inf";
      if (s == "-Inf") return "-.inf";
      if (s == "NaN") return ".nan";
      return s;
    }
    default:
      return "null";
  }
}

// How a scalar with yaml-cpp's tag `tag` resolves; nullopt if it cannot be
// read as the tag's type.
std::optional<Value> ResolveTagged(absl::string_view tag,
                                   absl::string_view text) {
  if (tag == "?") {
    bool is_uint;
    return ResolvePlain(text, &is_uint);
  }
  if (tag.size() <= kYamlTagPrefix.size() ||
      tag.substr(0, kYamlTagPrefix.size()) != kYamlTagPrefix) {
    // "!" (quoted and block scalars) and tags of no meaning to us.
    return Value(text);
  }
  absl::string_view name = tag.substr(kYamlTagPrefix.size());
  if (name == "null") return Value();
  if (name != "bool" && name != "int" && name != "float") {
    return Value(text);  // !!str, !!binary, !!timestamp, ...
  }
  bool is_uint = false;
  Value v = text.empty() ? Value() : ResolvePlain(text, &is_uint);
  if (name == "bool" && v.IsBool()) return v;
  if (name == "int" && (v.IsInt() || is_uint)) return v;
  if (name == "float" && v.IsNumber()) return Value(v.AsNumber());
  return std::nullopt;
}

}  // namespace

Value ResolvePlainYamlScalar(absl::string_view text) {
  bool is_uint;
  return ResolvePlain(text, &is_uint);
}

void ResolvePlainYamlScalar(absl::string_view text, Value* out) {
  bool is_uint;
  ResolvePlain(text, &is_uint, out);
}

std::optional<Value> ResolveTaggedYamlScalar(absl::string_view tag,
                                             absl::string_view text) {
  return ResolveTagged(tag, text);
}

void YamlPlainKeyText(absl::string_view text, std::string* key) {
  if (ResolvesToString(text)) {
    SetBytes(key, text.data(), text.size());
    return;
  }
  bool is_uint;
  *key = KeyTextOf(ResolvePlain(text, &is_uint));
}

std::string YamlKeyText(const Value& v) { return KeyTextOf(v); }

}  // namespace internal
}  // namespace smdx
