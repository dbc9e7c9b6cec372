#include "smdx/value/emit.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <system_error>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "smdx/value/go_format.h"
#include "smdx/value/internal/byte_scan.h"
#include "smdx/value/utf8.h"
#include "smdx/value/yaml_scalar.h"

namespace smdx {

namespace {

constexpr char kHex[] = "0123456789abcdef";

void AppendUnicodeEscape(std::string* out, uint32_t r) {
  char buf[6] = {'\\',
                 'u',
                 kHex[(r >> 12) & 0xF],
                 kHex[(r >> 8) & 0xF],
                 kHex[(r >> 4) & 0xF],
                 kHex[r & 0xF]};
  out->append(buf, sizeof(buf));
}

void AppendJsonFloat(std::string* out, double f) {
  if (!std::isfinite(f)) {
    out->append("null");
    return;
  }
  double abs = std::fabs(f);
  char fmt = 'f';
  if (abs != 0 && (abs < 1e-6 || abs >= 1e21)) fmt = 'e';
  size_t start = out->size();
  internal::AppendGoFloat(out, f, fmt, 64);
  if (fmt == 'e') {
    // encoding/json turns "e-07" into "e-7".
    size_t n = out->size() - start;
    char* b = out->data() + start;
    if (n >= 4 && b[n - 4] == 'e' && b[n - 3] == '-' && b[n - 2] == '0') {
      b[n - 2] = b[n - 1];
      out->pop_back();
    }
  }
}

std::vector<const MapEntry*> SortedByKey(const Map& m) {
  std::vector<const MapEntry*> sorted;
  sorted.reserve(m.size());
  for (const MapEntry& e : m) sorted.push_back(&e);
  std::sort(
      sorted.begin(), sorted.end(),
      [](const MapEntry* a, const MapEntry* b) { return a->key < b->key; });
  return sorted;
}

void AppendJsonImpl(std::string* out, const Value& v, bool sorted) {
  switch (v.kind()) {
    case Value::Kind::kNull:
      out->append("null");
      return;
    case Value::Kind::kBool:
      out->append(v.AsBool() ? "true" : "false");
      return;
    case Value::Kind::kInt:
      absl::StrAppend(out, v.AsInt());
      return;
    case Value::Kind::kFloat:
      AppendJsonFloat(out, v.AsFloat());
      return;
    case Value::Kind::kString:
      AppendJsonString(out, v.AsString());
      return;
    case Value::Kind::kList: {
      out->push_back('[');
      bool first = true;
      for (const Value& item : v.list()) {
        if (!first) out->push_back(',');
        first = false;
        AppendJsonImpl(out, item, sorted);
      }
      out->push_back(']');
      return;
    }
    case Value::Kind::kMap: {
      out->push_back('{');
      auto entry = [&](const MapEntry& e, bool first) {
        if (!first) out->push_back(',');
        AppendJsonString(out, e.key);
        out->push_back(':');
        AppendJsonImpl(out, e.value, sorted);
      };
      if (sorted) {
        bool first = true;
        for (const MapEntry* e : SortedByKey(v.map())) {
          entry(*e, first);
          first = false;
        }
      } else {
        bool first = true;
        for (const MapEntry& e : v.map()) {
          entry(e, first);
          first = false;
        }
      }
      out->push_back('}');
      return;
    }
  }
}

// ---------------------------------------------------------------------------
// YAML

// Characters that YAML must see escaped inside double quotes to keep them
// (line breaks it would fold, and characters it does not allow raw).
bool IsYamlSpecialRune(uint32_t r) {
  return r < 0x20 || r == 0x7F || (r >= 0x80 && r <= 0x9F) || r == 0x2028 ||
         r == 0x2029 || r == 0xFEFF || r == 0xFFFE || r == 0xFFFF;
}

// Whether `s` has a character that cannot appear raw in a plain or literal
// scalar: invalid UTF-8, control characters (tab and newline are judged by
// the callers) or Unicode line separators.
bool HasSpecialChars(absl::string_view s, bool allow_tab_newline) {
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7F) {
        if (!(allow_tab_newline && (c == '\t' || c == '\n'))) return true;
      }
      ++i;
      continue;
    }
    uint32_t r;
    size_t n = DecodeUtf8(s, i, &r);
    if (n == 0 || IsYamlSpecialRune(r)) return true;
    i += n;
  }
  return false;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Strings YAML 1.1 parsers other than ours would read as something else:
// timestamps (`2001-12-14...`) and base-60 numbers (`1:20`). Quoting them
// keeps the output meaning the same for kubectl and friends.
bool LooksLikeTimestampOrBase60(absl::string_view s) {
  if (s.size() >= 10 && IsDigit(s[0]) && IsDigit(s[1]) && IsDigit(s[2]) &&
      IsDigit(s[3]) && s[4] == '-') {
    return true;
  }
  size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  if (i >= s.size() || !IsDigit(s[i])) return false;
  bool colon = false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c == ':') {
      colon = true;
    } else if (!IsDigit(c) && c != '_' && c != '.') {
      return false;
    }
  }
  return colon;
}

// Bytes of the strings most keys and values are: letters, digits and -_./
struct PlainSafeTable {
  bool safe[256] = {};
  constexpr PlainSafeTable() {
    for (int c = 0; c < 256; ++c) {
      safe[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' ||
                c == '/';
    }
  }
};
constexpr PlainSafeTable kPlainSafe;

// Whether `s` is surely written plain: a letter first, only bytes of
// kPlainSafe and colons (not last: with no space, a colon then starts no
// mapping value), and not one of the words YAML 1.1 reads as a boolean or
// null (those begin with one of "nNyYtTfFoO" and have at most 5 bytes).
// Nothing NeedsQuotes looks for can be in such a string: the numbers,
// timestamps and base-60 numbers it quotes begin with a digit, a sign or a
// dot. fieldsV1's "f:name" keys are such strings.
bool SurelyPlain(absl::string_view s) {
  const unsigned char c0 = static_cast<unsigned char>(s[0]);
  if (!((c0 >= 'a' && c0 <= 'z') || (c0 >= 'A' && c0 <= 'Z'))) return false;
  if (s.size() <= 5 && absl::string_view("nNyYtTfFoO").find(static_cast<char>(
                           c0)) != absl::string_view::npos) {
    return false;
  }
  if (s.back() == ':') return false;
  for (char c : s) {
    if (!kPlainSafe.safe[static_cast<unsigned char>(c)] && c != ':')
      return false;
  }
  return true;
}

bool NeedsQuotes(absl::string_view s) {
  if (s.empty()) return true;
  if (SurelyPlain(s)) return false;
  // A leading '-' followed by more text ("--port=80") is plain in YAML, and
  // kubectl prints it so; a lone "-", "- x" and "---" are not.
  if (s[0] == '-') {
    if (s.size() == 1 || s[1] == ' ' || s.substr(0, 3) == "---") return true;
  } else {
    static constexpr absl::string_view kIndicators = "?:,[]{}#&*!|>'\"%@`";
    if (kIndicators.find(s[0]) != absl::string_view::npos) return true;
  }
  if (s.front() == ' ' || s.back() == ' ') return true;
  if (s.back() == ':') return true;
  if (s.find(": ") != absl::string_view::npos ||
      s.find(" #") != absl::string_view::npos) {
    return true;
  }
  if (s.substr(0, 3) == "..." || s == "<<") return true;
  if (HasSpecialChars(s, /*allow_tab_newline=*/false)) return true;
  if (!internal::ResolvePlainYamlScalar(s).IsString()) return true;
  return LooksLikeTimestampOrBase60(s);
}

void AppendDoubleQuoted(std::string* out, absl::string_view s) {
  out->push_back('"');
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      switch (c) {
        case '"':
          out->append("\\\"");
          break;
        case '\\':
          out->append("\\\\");
          break;
        case '\n':
          out->append("\\n");
          break;
        case '\r':
          out->append("\\r");
          break;
        case '\t':
          out->append("\\t");
          break;
        default:
          if (c < 0x20 || c == 0x7F) {
            AppendUnicodeEscape(out, c);
          } else {
            out->push_back(static_cast<char>(c));
          }
      }
      ++i;
      continue;
    }
    uint32_t r;
    size_t n = DecodeUtf8(s, i, &r);
    if (n == 0) {
      AppendUnicodeEscape(out, 0xFFFD);
      ++i;
      continue;
    }
    if (IsYamlSpecialRune(r)) {
      AppendUnicodeEscape(out, r);
    } else {
      out->append(s.data() + i, n);
    }
    i += n;
  }
  out->push_back('"');
}

// Whether a multi-line string reads back exactly from a literal block (`|`
// or `|-`) indented under its key. Excluded: leading blank lines or
// indentation (they would change the detected indentation), trailing
// whitespace on a line (easy to lose, and yaml.v2 avoids it too), more than
// one trailing newline (needs `|+`, which the end of a document complicates)
// and characters that are not allowed raw.
bool CanUseLiteralBlock(absl::string_view s) {
  if (s.find('\n') == absl::string_view::npos) return false;
  if (s[0] == '\n' || s[0] == ' ' || s[0] == '\t') return false;
  if (s.size() >= 2 && s[s.size() - 1] == '\n' && s[s.size() - 2] == '\n') {
    return false;
  }
  for (size_t i = 0; i < s.size(); ++i) {
    if ((s[i] == '\n' || i + 1 == s.size()) && i > 0) {
      char before = s[i] == '\n' ? s[i - 1] : s[i];
      if (before == ' ' || before == '\t') return false;
    }
  }
  return !HasSpecialChars(s, /*allow_tab_newline=*/true);
}

void AppendIndent(std::string* out, int n) { out->append(n, ' '); }

// Appends a scalar value (or an empty collection) that follows "key:" or
// "- " or starts the document, including the final newline. `indent` is the
// column for literal block content. `top` forbids literal blocks, which
// would need an indentation indicator at the top level.
void AppendYamlScalar(std::string* out, const Value& v, int indent, bool top) {
  switch (v.kind()) {
    case Value::Kind::kNull:
      out->append("null");
      break;
    case Value::Kind::kBool:
      out->append(v.AsBool() ? "true" : "false");
      break;
    case Value::Kind::kInt:
      absl::StrAppend(out, v.AsInt());
      break;
    case Value::Kind::kFloat: {
      double f = v.AsFloat();
      if (std::isnan(f)) {
        out->append(".nan");
      } else if (std::isinf(f)) {
        out->append(f > 0 ? ".inf" : "-.inf");
      } else {
        size_t start = out->size();
        AppendJsonFloat(out, f);
        // Go writes 1.0 as "1", which YAML would read as an int.
        if (out->find_first_of(".e", start) == std::string::npos) {
          out->append(".0");
        }
      }
      break;
    }
    case Value::Kind::kString: {
      const std::string& s = v.AsString();
      if (!NeedsQuotes(s)) {
        out->append(s);
      } else if (!top && CanUseLiteralBlock(s)) {
        out->append(s.back() == '\n' ? "|" : "|-");
        absl::string_view rest = s;
        if (!rest.empty() && rest.back() == '\n') rest.remove_suffix(1);
        while (true) {
          size_t nl = rest.find('\n');
          absl::string_view line = rest.substr(0, nl);
          out->push_back('\n');
          if (!line.empty()) {
            AppendIndent(out, indent);
            out->append(line.data(), line.size());
          }
          if (nl == absl::string_view::npos) break;
          rest.remove_prefix(nl + 1);
        }
      } else {
        AppendDoubleQuoted(out, s);
      }
      break;
    }
    case Value::Kind::kList:
      out->append("[]");
      break;
    case Value::Kind::kMap:
      out->append("{}");
      break;
  }
  out->push_back('\n');
}

bool IsBlockCollection(const Value& v) {
  return (v.IsList() && !v.list().empty()) || (v.IsMap() && !v.map().empty());
}

void AppendYamlMap(std::string* out, const Map& m, int col, bool inline_first);
void AppendYamlList(std::string* out, const List& l, int col,
                    bool inline_first);

// Appends the value of a map entry whose key (and the ':') has just been
// written at column `col`.
void AppendYamlEntryValue(std::string* out, const Value& v, int col) {
  if (v.IsMap() && !v.map().empty()) {
    out->push_back('\n');
    AppendYamlMap(out, v.map(), col + 2, /*inline_first=*/false);
  } else if (v.IsList() && !v.list().empty()) {
    // kubectl style: the items' dashes line up with the key.
    out->push_back('\n');
    AppendYamlList(out, v.list(), col, /*inline_first=*/false);
  } else {
    out->push_back(' ');
    AppendYamlScalar(out, v, col + 2, /*top=*/false);
  }
}

// YAML only recognizes implicit keys up to 1024 characters; longer ones
// need the explicit "? key" form.
constexpr size_t kMaxImplicitKeyLength = 1000;

void AppendYamlMap(std::string* out, const Map& m, int col, bool inline_first) {
  bool first = true;
  for (const MapEntry& e : m) {
    if (!(first && inline_first)) AppendIndent(out, col);
    first = false;
    std::string quoted;
    absl::string_view key = e.key;
    if (NeedsQuotes(e.key)) {
      AppendDoubleQuoted(&quoted, e.key);
      key = quoted;
    }
    if (key.size() > kMaxImplicitKeyLength) {
      out->append("? ");
      out->append(key.data(), key.size());
      out->push_back('\n');
      AppendIndent(out, col);
      out->push_back(':');
    } else {
      out->append(key.data(), key.size());
      out->push_back(':');
    }
    AppendYamlEntryValue(out, e.value, col);
  }
}

void AppendYamlList(std::string* out, const List& l, int col,
                    bool inline_first) {
  bool first = true;
  for (const Value& item : l) {
    if (!(first && inline_first)) AppendIndent(out, col);
    first = false;
    out->append("- ");
    if (item.IsMap() && IsBlockCollection(item)) {
      AppendYamlMap(out, item.map(), col + 2, /*inline_first=*/true);
    } else if (item.IsList() && IsBlockCollection(item)) {
      AppendYamlList(out, item.list(), col + 2, /*inline_first=*/true);
    } else {
      AppendYamlScalar(out, item, col + 2, /*top=*/false);
    }
  }
}

}  // namespace

bool JsonStringIsPlain(absl::string_view s) {
  return internal::JsonBytesArePlain(s.data(), s.size());
}

void AppendJsonString(std::string* out, absl::string_view s) {
  out->push_back('"');
  size_t start = 0;
  auto flush = [&](size_t i) { out->append(s.data() + start, i - start); };
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' &&
          c != '&') {
        ++i;
        continue;
      }
      flush(i);
      switch (c) {
        case '"':
        case '\\':
          out->push_back('\\');
          out->push_back(static_cast<char>(c));
          break;
        case '\n':
          out->append("\\n");
          break;
        case '\r':
          out->append("\\r");
          break;
        case '\t':
          out->append("\\t");
          break;
        default:
          AppendUnicodeEscape(out, c);
      }
      start = ++i;
      continue;
    }
    uint32_t r;
    size_t n = DecodeUtf8(s, i, &r);
    if (n == 0) {
      flush(i);
      AppendUnicodeEscape(out, 0xFFFD);
      start = ++i;
      continue;
    }
    if (r == 0x2028 || r == 0x2029) {
      flush(i);
      AppendUnicodeEscape(out, r);
      start = i + n;
    }
    i += n;
  }
  flush(s.size());
  out->push_back('"');
}

void AppendJson(std::string* out, const Value& v) {
  AppendJsonImpl(out, v, /*sorted=*/false);
}

std::string ToJson(const Value& v) {
  std::string out;
  AppendJsonImpl(&out, v, /*sorted=*/false);
  return out;
}

std::string ToJsonSorted(const Value& v) {
  std::string out;
  AppendJsonImpl(&out, v, /*sorted=*/true);
  return out;
}

std::string ToYaml(const Value& v) {
  std::string out;
  if (v.IsMap() && !v.map().empty()) {
    AppendYamlMap(&out, v.map(), 0, /*inline_first=*/false);
  } else if (v.IsList() && !v.list().empty()) {
    AppendYamlList(&out, v.list(), 0, /*inline_first=*/false);
  } else {
    AppendYamlScalar(&out, v, 2, /*top=*/true);
  }
  return out;
}

std::string DebugString(const Value& v) {
  std::string s = ToJson(v);
  constexpr size_t kMax = 120;
  if (s.size() > kMax) {
    s.resize(kMax);
    s += "...";
  }
  return s;
}

}  // namespace smdx
