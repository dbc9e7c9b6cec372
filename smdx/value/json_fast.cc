#include "smdx/value/json_fast.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <system_error>

#include "absl/container/flat_hash_set.h"
#include "smdx/value/emit.h"
#include "smdx/value/go_format.h"
#include "smdx/value/same_bytes.h"
#include "smdx/value/utf8.h"

namespace smdx {
namespace internal {

bool ContainerStack::FinishList(size_t start, size_t max_items, Value* out) {
  if (items_.size() - start > max_items) return false;
  List list(std::make_move_iterator(items_.begin() + start),
            std::make_move_iterator(items_.end()));
  items_.erase(items_.begin() + start, items_.end());
  *out = Value(std::move(list));
  return true;
}

bool ContainerStack::FinishMap(size_t start, Value* out) {
  const size_t n = entries_.size() - start;
  if (n == 0) {
    *out = EmptyMap();
    return true;
  }
  const MapEntry* e = entries_.data() + start;
  auto same = [](const std::string& a, const std::string& b) {
    return a.size() == b.size() && (a.empty() || a[0] == b[0]) && a == b;
  };
  // Pairwise comparison is cheapest for the small maps of real objects,
  // and needed only when two keys share a cheap fingerprint (length and
  // last byte): in most maps none do. Big maps get a hash set so that
  // parsing stays linear.
  constexpr size_t kHashThreshold = 16;
  if (n <= kHashThreshold) {
    auto fingerprint = [](const std::string& k) {
      const size_t last = k.empty() ? 0 : static_cast<unsigned char>(k.back());
      return uint64_t{1} << ((k.size() * 7 + last) & 63);
    };
    uint64_t seen = 0;
    bool clash = false;
    for (size_t i = 0; i < n && !clash; ++i) {
      const uint64_t bit = fingerprint(e[i].key);
      clash = (seen & bit) != 0;
      seen |= bit;
    }
    for (size_t i = 1; clash && i < n; ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (same(e[i].key, e[j].key)) return false;
      }
    }
  } else {
    absl::flat_hash_set<absl::string_view> seen;
    seen.reserve(n);
    for (size_t i = 0; i < n; ++i) {
      if (!seen.insert(e[i].key).second) return false;
    }
  }
  Map map;
  Map::Entries& dest = map.entries();
  dest.reserve(n);
  dest.insert(dest.end(), std::make_move_iterator(entries_.begin() + start),
              std::make_move_iterator(entries_.end()));
  entries_.erase(entries_.begin() + start, entries_.end());
  *out = Value(std::move(map));
  return true;
}

namespace {

// Every method returns false as soon as the input is anything the full
// parser has to judge; the reader is then abandoned.
class JsonReader {
 public:
  JsonReader(const char* begin, const char* end, const Limits& limits)
      : p_(begin),
        end_(end),
        lease_(InitialCapacity(end - begin)),
        stack_(lease_.stack()) {
    max_depth_ =
        static_cast<int>(std::min<size_t>(kFastJsonMaxDepth, limits.max_depth));
    max_items_ = limits.max_list_items;
  }

  // Reads the JSON string whose opening quote is at `begin` into `*out`;
  // `*after` is then just past its closing quote.
  static bool ReadStringAt(const char* begin, const char* end, std::string* out,
                           const char** after) {
    JsonReader r(begin, end, /*stack_capacity=*/0);
    absl::string_view view;
    if (!r.ReadString(&view, out)) return false;
    if (view.data() != out->data()) out->assign(view.data(), view.size());
    *after = r.p_;
    return true;
  }

  bool ReadDocument(Value* out) {
    SkipSpace();
    if (p_ == end_) return false;  // "empty document"
    if (!ReadValue(out, 0)) return false;
    SkipSpace();
    return p_ == end_;
  }

 private:
  // Room for the children of the open containers, sized by the text so
  // that small documents (fieldsV1 keys) do not pay for big ones.
  JsonReader(const char* begin, const char* end, size_t stack_capacity)
      : p_(begin),
        end_(end),
        lease_(stack_capacity),
        stack_(lease_.stack()) {}

  static size_t InitialCapacity(ptrdiff_t text_size) {
    return static_cast<size_t>(std::clamp<ptrdiff_t>(text_size / 16, 4, 64));
  }

  static bool IsSpace(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
  }
  static bool IsDigit(char c) { return c >= '0' && c <= '9'; }

  void SkipSpace() {
    while (p_ != end_ && IsSpace(*p_)) ++p_;
  }

  // REQUIRES: p_ != end_.
  bool ReadValue(Value* out, int depth) {
    switch (*p_) {
      case '{':
        return ReadObject(out, depth + 1);
      case '[':
        return ReadArray(out, depth + 1);
      case '"': {
        absl::string_view s;
        std::string buf;
        if (!ReadString(&s, &buf)) return false;
        if (s.data() == buf.data()) {
          out->TakeString(std::move(buf));
        } else {
          out->SetString(s);
        }
        return true;
      }
      case 't':
        if (!ReadLiteral("true")) return false;
        out->SetBool(true);
        return true;
      case 'f':
        if (!ReadLiteral("false")) return false;
        out->SetBool(false);
        return true;
      case 'n':
        if (!ReadLiteral("null")) return false;
        out->SetNull();
        return true;
      default:
        return ReadNumber(out);
    }
  }

  bool ReadLiteral(absl::string_view word) {
    if (static_cast<size_t>(end_ - p_) < word.size() ||
        absl::string_view(p_, word.size()) != word) {
      return false;
    }
    p_ += word.size();
    return true;
  }

  bool ReadObject(Value* out, int depth) {
    if (depth > max_depth_) return false;
    ++p_;  // '{'
    SkipSpace();
    const size_t start = stack_.MapStart();
    if (p_ != end_ && *p_ == '}') {
      ++p_;
      *out = stack_.EmptyMap();
      return true;
    }
    while (true) {
      if (p_ == end_ || *p_ != '"') return false;
      const size_t entry = stack_.StartEntry();
      absl::string_view key;
      std::string& key_buf = stack_.KeyAt(entry);
      if (!ReadString(&key, &key_buf)) return false;
      if (key.data() != key_buf.data())
        internal::SetBytes(&key_buf, key.data(), key.size());
      SkipSpace();
      if (p_ == end_ || *p_ != ':') return false;
      ++p_;
      SkipSpace();
      if (p_ == end_) return false;
      Value v;
      if (!ReadValue(&v, depth)) return false;
      stack_.SetValue(entry, std::move(v));
      SkipSpace();
      if (p_ == end_) return false;
      if (*p_ == ',') {
        ++p_;
        SkipSpace();
        continue;
      }
      if (*p_ != '}') return false;
      ++p_;
      return stack_.FinishMap(start, out);
    }
  }

  bool ReadArray(Value* out, int depth) {
    if (depth > max_depth_) return false;
    ++p_;  // '['
    SkipSpace();
    const size_t start = stack_.ListStart();
    if (p_ != end_ && *p_ == ']') {
      ++p_;
      *out = Value::MakeList();
      return true;
    }
    while (true) {
      if (p_ == end_) return false;
      Value v;
      if (!ReadValue(&v, depth)) return false;
      stack_.PushItem(std::move(v));
      SkipSpace();
      if (p_ == end_) return false;
      if (*p_ == ',') {
        ++p_;
        SkipSpace();
        continue;
      }
      if (*p_ != ']') return false;
      ++p_;
      return stack_.FinishList(start, max_items_, out);
    }
  }

  static int HexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  // Reads the four hex digits of a \u escape.
  bool ReadHex4(uint32_t* out) {
    if (end_ - p_ < 4) return false;
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      int d = HexDigit(p_[i]);
      if (d < 0) return false;
      v = v * 16 + static_cast<uint32_t>(d);
    }
    p_ += 4;
    *out = v;
    return true;
  }

  // The length of the well-formed UTF-8 sequence at p_ (as nlohmann
  // checks it), or 0.
  size_t Utf8Length() const {
    uint32_t rune;
    return DecodeUtf8(absl::string_view(p_, static_cast<size_t>(end_ - p_)), 0,
                      &rune);
  }

  // Reads the string at p_ into `*view`: a view of the text when the
  // string has no escapes and is ASCII (the common case), else of `*buf`.
  // REQUIRES: *p_ == '"'.
  bool ReadString(absl::string_view* view, std::string* buf) {
    ++p_;
    const char* start = p_;
    while (p_ != end_) {
      unsigned char c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        *view = absl::string_view(start, p_ - start);
        ++p_;
        return true;
      }
      if (c == '\\' || c < 0x20 || c >= 0x80) break;
      ++p_;
    }
    std::string* out = buf;
    out->assign(start, p_);
    while (p_ != end_) {
      unsigned char c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        ++p_;
        *view = *out;
        return true;
      }
      if (c < 0x20) return false;
      if (c < 0x80 && c != '\\') {
        out->push_back(static_cast<char>(c));
        ++p_;
        continue;
      }
      if (c >= 0x80) {
        size_t n = Utf8Length();
        if (n == 0) return false;
        out->append(p_, n);
        p_ += n;
        continue;
      }
      ++p_;  // '\\'
      if (p_ == end_) return false;
      char e = *p_++;
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out->push_back(e);
          break;
        case 'b':
          out->push_back('\b');
          break;
        case 'f':
          out->push_back('\f');
          break;
        case 'n':
          out->push_back('\n');
          break;
        case 'r':
          out->push_back('\r');
          break;
        case 't':
          out->push_back('\t');
          break;
        case 'u': {
          uint32_t cp;
          if (!ReadHex4(&cp)) return false;
          if (cp >= 0xDC00 && cp <= 0xDFFF) return false;
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return false;
            p_ += 2;
            uint32_t lo;
            if (!ReadHex4(&lo) || lo < 0xDC00 || lo > 0xDFFF) return false;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          internal::AppendUtf8(out, cp);
          break;
        }
        default:
          return false;
      }
    }
    return false;
  }

  // Integers that fit int64 are ints, larger unsigned ones become the
  // nearest double, and anything with a fraction or an exponent (or an
  // integer beyond uint64/int64) is a double; as nlohmann reads them.
  bool ReadNumber(Value* out) {
    const char* start = p_;
    bool negative = false;
    if (*p_ == '-') {
      negative = true;
      ++p_;
      if (p_ == end_) return false;
    }
    uint64_t mag = 0;
    bool overflow = false;
    if (*p_ == '0') {
      ++p_;
    } else if (*p_ >= '1' && *p_ <= '9') {
      while (p_ != end_ && IsDigit(*p_)) {
        uint64_t d = static_cast<uint64_t>(*p_ - '0');
        if (mag > (std::numeric_limits<uint64_t>::max() - d) / 10) {
          overflow = true;
        } else {
          mag = mag * 10 + d;
        }
        ++p_;
      }
    } else {
      return false;
    }
    bool is_float = false;
    if (p_ != end_ && *p_ == '.') {
      is_float = true;
      ++p_;
      if (p_ == end_ || !IsDigit(*p_)) return false;
      while (p_ != end_ && IsDigit(*p_)) ++p_;
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      is_float = true;
      ++p_;
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ == end_ || !IsDigit(*p_)) return false;
      while (p_ != end_ && IsDigit(*p_)) ++p_;
    }
    if (!is_float && !overflow) {
      constexpr uint64_t kMaxInt = std::numeric_limits<int64_t>::max();
      if (!negative) {
        if (mag <= kMaxInt) {
          out->SetInt(static_cast<int64_t>(mag));
        } else {
          out->SetFloat(static_cast<double>(mag));
        }
        return true;
      }
      if (mag <= kMaxInt + 1) {
        out->SetInt(mag == kMaxInt + 1 ? std::numeric_limits<int64_t>::min()
                                       : -static_cast<int64_t>(mag));
        return true;
      }
    }
    double d;
    auto [ptr, ec] = std::from_chars(start, p_, d);
    // Out of range (overflow, or underflow, which from_chars also reports)
    // is the full parser's to judge.
    if (ec != std::errc() || ptr != p_ || !std::isfinite(d)) return false;
    out->SetFloat(d);
    return true;
  }

  const char* p_;
  const char* const end_;
  ContainerStackLease lease_;
  ContainerStack& stack_;
  int max_depth_ = kFastJsonMaxDepth;
  size_t max_items_ = SIZE_MAX;
};

}  // namespace

bool ReadJsonString(absl::string_view text, size_t* pos, std::string* out) {
  if (*pos >= text.size() || text[*pos] != '"') return false;
  const char* after = nullptr;
  if (!JsonReader::ReadStringAt(text.data() + *pos, text.data() + text.size(),
                                out, &after)) {
    return false;
  }
  *pos = static_cast<size_t>(after - text.data());
  return true;
}

std::optional<Value> FastParseJson(absl::string_view text,
                                   const Limits& limits) {
  // A byte order mark (which nlohmann skips) is left to the full parser.
  if (!text.empty() && static_cast<unsigned char>(text[0]) == 0xEF) {
    return std::nullopt;
  }
  JsonReader reader(text.data(), text.data() + text.size(), limits);
  Value v;
  if (!reader.ReadDocument(&v)) return std::nullopt;
  return v;
}

}  // namespace internal
}  // namespace smdx
