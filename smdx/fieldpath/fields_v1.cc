#include "smdx/fieldpath/fields_v1.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <optional>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "absl/base/attributes.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "smdx/value/emit.h"
#include "smdx/value/internal/byte_scan.h"
#include "smdx/value/internal/thread_lease.h"
#include "smdx/value/json_fast.h"
#include "smdx/value/parse.h"
#include "smdx/value/same_bytes.h"

namespace smdx {

namespace {

// A key as error messages quote it: whole up to kQuotedKeyBytes, else its
// head (cut where a UTF-8 character starts) and its size. A key's fields
// are bounded only by the fieldsV1 limit, megabytes, which a message
// naming the key would repeat in full.
constexpr size_t kQuotedKeyBytes = 120;
std::string KeyInMessage(absl::string_view key) {
  if (key.size() <= kQuotedKeyBytes) return std::string(key);
  size_t n = kQuotedKeyBytes;
  while (n > 0 && (static_cast<unsigned char>(key[n]) & 0xC0) == 0x80) --n;
  return absl::StrCat(key.substr(0, n), "... (", key.size(), " bytes)");
}

void AppendPathElementRaw(std::string* out, const PathElement& pe) {
  switch (pe.kind()) {
    case PathElement::Kind::kField:
      out->append("f:");
      out->append(pe.field_name().data(), pe.field_name().size());
      return;
    case PathElement::Kind::kKey: {
      out->append("k:{");
      bool first = true;
      for (const KeyPart& f : pe.key()) {
        if (!first) out->push_back(',');
        first = false;
        AppendJsonString(out, f.name());
        out->push_back(':');
        if (f.IsString()) {
          AppendJsonString(out, f.AsString());
        } else {
          AppendJson(out, f.value());
        }
      }
      out->push_back('}');
      return;
    }
    case PathElement::Kind::kValue:
      out->append("v:");
      AppendJson(out, pe.value());
      return;
    case PathElement::Kind::kIndex:
      absl::StrAppend(out, "i:", pe.index());
      return;
  }
}

// The heap space of encodings too big for the stack, kept per thread from
// one to the next (a ThreadLease): a large custom resource's set is tens of
// kilobytes, encoded on every apply, and growing a buffer to that size each
// time (three allocations and copies for 65 KB) made its encoding about a
// third slower. At most kKept bytes are kept.
struct SpillSpace {
  static constexpr size_t kKept = size_t{1} << 20;
  std::unique_ptr<char[]> buf;
  size_t capacity = 0;
  void AfterRead() {
    if (capacity > kKept) {
      buf.reset();
      capacity = 0;
    }
  }
};

// An output buffer written through a raw cursor: the encoding is thousands
// of tiny appends, and std::string::append's checks and call cost more than
// the copying itself.
class Out {
 public:
  Out() = default;
  Out(const Out&) = delete;
  Out& operator=(const Out&) = delete;

  // The cursor, with room for `n` more bytes: write them through it, then
  // Commit the advanced cursor. (Members are touched once per write: the
  // bytes written through char pointers could alias them otherwise.)
  char* Room(size_t n) {
    if (static_cast<size_t>(end_ - p_) < n) Grow(n);
    return p_;
  }
  void Commit(char* p) { p_ = p; }
  void Put(char c) {
    char* p = Room(1);
    *p = c;
    p_ = p + 1;
  }
  void Put(absl::string_view s) {
    char* p = Room(s.size());
    std::memcpy(p, s.data(), s.size());
    p_ = p + s.size();
  }
  std::string Finish() const {
    return std::string(buf_, static_cast<size_t>(p_ - buf_));
  }

 private:
  // Output is written into uninitialized space (on the stack while it
  // fits, then in the thread's SpillSpace) and copied into the string once
  // at the end: a string sized up front would be zero-filled first, which
  // costs as much as the writing for small sets.
  static constexpr size_t kStack = 4096;
  // Grows fourfold: a set too big for the stack is mostly much bigger
  // (tens of kilobytes for a large custom resource), and each step copies
  // what is written so far.
  __attribute__((noinline)) void Grow(size_t n) {
    const size_t len = static_cast<size_t>(p_ - buf_);
    const size_t cap =
        std::max(4 * static_cast<size_t>(end_ - buf_), len + n);
    if (!spill_.has_value()) spill_.emplace(/*take_thread_space=*/true);
    SpillSpace& s = spill_->space();
    if (s.capacity < cap) {
      std::unique_ptr<char[]> bigger(new char[cap]);
      std::memcpy(bigger.get(), buf_, len);
      s.buf = std::move(bigger);  // buf_ may be the old one: copied first
      s.capacity = cap;
    } else {
      // The kept space, bigger than anything written so far: buf_ is the
      // stack.
      std::memcpy(s.buf.get(), buf_, len);
    }
    buf_ = s.buf.get();
    p_ = buf_ + len;
    end_ = buf_ + s.capacity;
  }

  char stack_[kStack];
  std::optional<internal::ThreadLease<SpillSpace>> spill_;
  char* buf_ = stack_;
  char* p_ = stack_;
  char* end_ = stack_ + kStack;
};

// Writes `"k:{\"name\":value,...}":` and then `tail` for a key whose names
// and string values need no escaping and whose values are strings or
// integers (nearly all keys), straight into `out`: the general path builds
// the element's JSON and then escapes it once more. Returns false, having
// committed nothing, for other keys.
bool WritePlainKey(Out* out, bool comma, absl::Span<const KeyPart> key,
                   absl::string_view tail) {
  size_t n = 8 + tail.size();  // a comma, and "k:{ and }": around the fields
  for (const KeyPart& f : key) {
    n += f.name().size() + 6;  // \"name\": and a comma
    if (f.IsString()) {
      n += f.AsString().size() + 4;
    } else if (f.IsInt()) {
      n += 20;
    } else {
      return false;
    }
  }
  char* const begin = out->Room(n);
  char* p = begin;
  bool plain = true;
  auto put = [&](absl::string_view s) {
    std::memcpy(p, s.data(), s.size());
    p += s.size();
  };
  // Names and string values are checked as they are copied.
  auto put_checked = [&](absl::string_view s) {
    plain &= internal::CopyJsonPlain(p, s.data(), s.size());
    p += s.size();
  };
  if (comma) *p++ = ',';
  put("\"k:{");
  bool first = true;
  for (const KeyPart& f : key) {
    if (!first) *p++ = ',';
    first = false;
    put("\\\"");
    put_checked(f.name());
    put("\\\":");
    if (f.IsString()) {
      put("\\\"");
      put_checked(f.AsString());
      put("\\\"");
    } else {
      p = std::to_chars(p, begin + n, f.AsInt()).ptr;
    }
  }
  if (!plain) return false;
  put("}\":");
  put(tail);
  out->Commit(p);
  return true;
}

// Writes the contents of `set` (without braces). `include_self` adds the "."
// marker, used when the node is itself a member.
void WriteContents(Out* out, const Set& set, bool include_self,
                   std::string* scratch, std::string* quoted) {
  bool first = true;
  if (include_self && !set.entries().empty()) {
    out->Put("\".\":{}");
    first = false;
  }
  // Writes a comma unless first, `"<key>":` and then `tail`.
  // Inlined at both calls: as a call, saving and restoring its registers
  // cost as much as writing a short name.
  auto write_key = [&](const PathElement& pe, absl::string_view tail)
      __attribute__((always_inline)) {
    const bool comma = !first;
    first = false;
    if (pe.IsField()) {
      // The common case: a plain field name goes straight to the output.
      // An interned name knows whether it is plain; another is checked as
      // it is copied (one pass, and no call).
      const absl::string_view name = pe.field_name();
      const size_t n = name.size();
      // Room for an inline name's whole 16 bytes too (below).
      char* p = out->Room(n + 24);
      if (comma) *p++ = ',';
      bool plain;
#if defined(__SSE2__)
      if (pe.IsInlineField()) {
        // The element's bytes are the name's length and then the name:
        // stored whole where the name goes less one byte, with `"f:`
        // written after over the length. Its zeros after the name are
        // not checked, and are written over or left past the end.
        const __m128i x =
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(pe.bytes()));
        const int name_bits = (2 << n) - 2;  // bytes 1 to n
        // Nearly every name is letters: bytes from '?' to 0x7f (signed,
        // so not beyond ASCII) need no escape but '\\'. Only a name with
        // others (digits, '-', '.', '/') takes the whole check.
        const __m128i below = _mm_cmplt_epi8(x, _mm_set1_epi8('?'));
        const __m128i backslash = _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'));
        plain = (_mm_movemask_epi8(_mm_or_si128(below, backslash)) &
                 name_bits) == 0 ||
                (internal::JsonEscapeMask(x) & name_bits) == 0;
        _mm_storeu_si128(reinterpret_cast<__m128i*>(p + 2), x);
        std::memcpy(p, "\"f:", 3);
        p += 3;
      } else
#endif
      {
        std::memcpy(p, "\"f:", 3);
        p += 3;
        if (const std::string* interned = pe.interned_name()) {
          plain = InternedNameIsPlain(interned);
          internal::CopyShort(p, name.data(), n);
        } else {
          plain = internal::CopyJsonPlain(p, name.data(), n);
        }
      }
      if (plain) {
        p += n;
        // The tail is "{}" or "{": written as constants (a copy of a known
        // size is a store, not a call).
        std::memcpy(p, "\":{}", 4);
        out->Commit(p + 2 + tail.size());
        return;
      }
      // Nothing committed: the general path below writes over it.
    }
    if (pe.IsKey() && WritePlainKey(out, comma, pe.key(), tail)) return;
    scratch->clear();
    AppendPathElementRaw(scratch, pe);
    quoted->clear();
    if (comma) quoted->push_back(',');
    AppendJsonString(quoted, *scratch);
    quoted->push_back(':');
    quoted->append(tail.data(), tail.size());
    out->Put(*quoted);
  };
  for (const SetEntry& e : set.entries()) {
    if (e.children.entries().empty()) {
      // A member with nothing below (a normalized set has no entry that
      // holds nothing).
      if (e.member()) write_key(e.pe, "{}");
      continue;
    }
    write_key(e.pe, "{");
    WriteContents(out, e.children, e.member(), scratch, quoted);
    out->Put('}');
  }
}

// The `{}` of every leaf: one node per thread (its count is then written
// by that thread alone), instead of an allocation per leaf.
Value EmptyObject() {
  thread_local internal::SharedEmptyMap empty;
  return empty.Get();
}

Value ContentsToValue(const Set& set, bool include_self) {
  Map out;
  absl::Span<const SetEntry> entries = set.entries();
  out.Reserve(1 + entries.size());
  if (include_self && !entries.empty()) out.Append(".", EmptyObject());
  for (const SetEntry& e : entries) {
    if (e.children.entries().empty()) {
      if (e.member()) out.Append(SerializePathElement(e.pe), EmptyObject());
      continue;
    }
    out.Append(SerializePathElement(e.pe),
               ContentsToValue(e.children, e.member()));
  }
  return Value(std::move(out));
}


bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Bytes that end the plain run of a JSON string: its closing quote, an
// escape, and anything the general reader must check (control characters,
// and bytes beyond ASCII, whose UTF-8 it validates).
struct StringStopTable {
  bool stop[256] = {};
  constexpr StringStopTable() {
    for (int c = 0; c < 256; ++c)
      stop[c] = c == '"' || c == '\\' || c < 0x20 || c >= 0x80;
  }
};
constexpr StringStopTable kStringStop;

// The end of the plain run starting at `p` (at most `end`). Sixteen bytes
// at a time (SSE2, part of every x86-64) or eight (anywhere) while they
// last: a field name is a word or two, and a loop per byte costs a
// mispredicted branch at its end all the same.
inline const char* PlainRun(const char* p, const char* end) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i space = _mm_set1_epi8(0x20);
  while (end - p >= 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // As signed bytes, both the control characters and the bytes beyond
    // ASCII are below 0x20.
    const __m128i stops = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)),
        _mm_cmplt_epi8(x, space));
    const int mask = _mm_movemask_epi8(stops);
    if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
    p += 16;
  }
#endif
  using internal::FirstZeroByteMarks;
  using internal::kByteHighs;
  using internal::kByteOnes;
  while (end - p >= 8) {
    uint64_t x;
    std::memcpy(&x, p, 8);
    const uint64_t stops =
        (x & kByteHighs) |                               // beyond ASCII
        ((x - 0x20 * kByteOnes) & ~x & kByteHighs) |     // < 0x20
        FirstZeroByteMarks(x ^ ('"' * kByteOnes)) |
        FirstZeroByteMarks(x ^ ('\\' * kByteOnes));
    if (stops != 0) return p + __builtin_ctzll(stops) / 8;
    p += 8;
  }
  while (p < end && !kStringStop.stop[static_cast<unsigned char>(*p)]) ++p;
  return p;
}

// Reads the JSON string at `s[*pos]` (its opening quote) into `*out`:
// without copying when it has no escapes (as nearly all keys have none),
// else decoded into `*storage`. The escapes of `k:` elements, `\"` and
// `\\`, are decoded here; anything else goes to the full string reader.
bool ReadString(absl::string_view s, size_t* pos, std::string* storage,
                absl::string_view* out) {
  if (*pos >= s.size() || s[*pos] != '"') return false;
  const char* const end = s.data() + s.size();
  const char* begin = s.data() + *pos + 1;
  const char* p = PlainRun(begin, end);
  if (p < end && *p == '"') {
    *out = absl::string_view(begin, static_cast<size_t>(p - begin));
    *pos = static_cast<size_t>(p + 1 - s.data());
    return true;
  }
  // Escapes: find the closing quote first, then decode in one pass into
  // `storage` (its capacity is reused from key to key).
  const char* q = p;
  while (q + 1 < end && *q == '\\' && (q[1] == '"' || q[1] == '\\')) {
    q = PlainRun(q + 2, end);
    if (q < end && *q == '"') {
      storage->resize(static_cast<size_t>(q - begin));
      char* w = storage->data();
      for (const char* r = begin; r < q; ++w) {
        if (*r == '\\') ++r;
        *w = *r++;
      }
      storage->resize(static_cast<size_t>(w - storage->data()));
      *out = *storage;
      *pos = static_cast<size_t>(q + 1 - s.data());
      return true;
    }
  }
  if (!internal::ReadJsonString(s, pos, storage)) return false;
  *out = *storage;
  return true;
}

// Reads a JSON string or integer spanning `s[*pos]` up to the next ',' or
// '}' (or the end), as the general parser would read it: integers only as
// JSON writes them (no leading zeros, no "-0", which the general parser may
// read as a float, nothing fractional). False for anything else.
bool ParsePlainScalar(absl::string_view s, size_t* pos, std::string* storage,
                      Value* out) {
  if (*pos >= s.size()) return false;
  if (s[*pos] == '"') {
    absl::string_view str;
    if (!ReadString(s, pos, storage, &str)) return false;
    *out = Value(str);
    return true;
  }
  size_t begin = *pos, p = *pos;
  if (s[p] == '-') ++p;
  if (p >= s.size() || !IsDigit(s[p])) return false;
  if (s[p] == '0' &&
      ((p + 1 < s.size() && IsDigit(s[p + 1])) || s[begin] == '-')) {
    return false;
  }
  while (p < s.size() && IsDigit(s[p])) ++p;
  int64_t i = 0;
  auto [ptr, ec] = std::from_chars(s.data() + begin, s.data() + p, i);
  if (ec != std::errc() || ptr != s.data() + p) return false;
  *out = Value(i);
  *pos = p;
  return true;
}

// Key fields of a `k:` element, collected without allocating for the usual
// one or two.
using KeyScratch = absl::InlinedVector<KeyField, 2>;

// Reads the JSON object of a `k:` element when it has the usual shape: no
// whitespace, distinct string names, string or integer values, at most
// kPlainKeyFields fields (each name is checked against those before it,
// which for many would cost their square). Returns false for anything
// else, and the general JSON parser decides (errors included), so what is
// accepted and how it reads does not change.
//
// `*spelled_so`, when given, says whether the text is spelled exactly as the
// encoder writes the key read (fields in name order, strings without
// escapes that need none): a false there only means "not known".
constexpr size_t kPlainKeyFields = 16;
bool ParsePlainKey(absl::string_view s, KeyScratch* out,
                   bool* spelled_so = nullptr) {
  if (s.size() < 2 || s[0] != '{' || s[1] == '}') return false;
  size_t pos = 1;
  std::string storage;
  // Only worked out when asked for.
  bool so = spelled_so != nullptr;
  // Whether `str` was read in place and is written the same way.
  auto as_written = [&](absl::string_view str) {
    return str.data() >= s.data() && str.data() <= s.data() + s.size() &&
           JsonStringIsPlain(str);
  };
  while (true) {
    absl::string_view name;
    if (!ReadString(s, &pos, &storage, &name)) return false;
    if (pos >= s.size() || s[pos] != ':') return false;
    ++pos;
    if (out->size() == kPlainKeyFields) return false;
    for (const KeyField& f : *out) {
      if (f.name == name) return false;
    }
    so = so && as_written(name) && (out->empty() || out->back().name < name);
    // Built in place; the name is copied out of `storage` before the value
    // may reuse it.
    KeyField& f = out->emplace_back();
    internal::SetBytes(&f.name, name.data(), name.size());
    const size_t value_at = pos;
    if (!ParsePlainScalar(s, &pos, &storage, &f.value)) return false;
    if (so && f.value.IsString()) {
      so = pos - value_at == f.value.AsString().size() + 2 &&
           JsonStringIsPlain(f.value.AsString());
    }
    if (spelled_so != nullptr) *spelled_so = so;
    if (pos < s.size() && s[pos] == ',') {
      ++pos;
      continue;
    }
    return pos + 1 == s.size() && s[pos] == '}';
  }
}

// Parses the JSON of a `k:` or `v:` element. The reference reads every
// number there as a float64, objects' ints included; smdx keeps ints, which
// only differ for `-0`: as an int it would lose its sign, and the `-0` the
// writer emits for a float -0.0 would read back as 0 and write as "0".
// Such tokens are read as -0.0.
absl::StatusOr<Value> ParseElementJson(absl::string_view text) {
  std::string rewritten;
  size_t copied = 0;  // text before this is in `rewritten`
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') in_string = true;
    if (c != '-' || i + 1 >= text.size() || text[i + 1] != '0') continue;
    size_t end = i + 2;
    if (end < text.size() && (IsDigit(text[end]) || text[end] == '.' ||
                              text[end] == 'e' || text[end] == 'E')) {
      continue;
    }
    absl::StrAppend(&rewritten, text.substr(copied, i - copied), "-0.0");
    copied = end;
  }
  if (copied == 0) return ParseJson(text);
  absl::StrAppend(&rewritten, text.substr(copied));
  return ParseJson(rewritten);
}

}  // namespace

std::string SerializePathElement(const PathElement& pe) {
  std::string out;
  AppendPathElementRaw(&out, pe);
  return out;
}

absl::StatusOr<PathElement> ParsePathElement(absl::string_view s) {
  if (s.size() < 2 || s[1] != ':') {
    return absl::InvalidArgumentError(
        "a path element starts with f:, k:, v: or i:");
  }
  absl::string_view rest = s.substr(2);
  switch (s[0]) {
    case 'f':
      return PathElement::FieldInternedIfKnown(rest);
    case 'v': {
      size_t pos = 0;
      std::string storage;
      if (Value v;
          ParsePlainScalar(rest, &pos, &storage, &v) && pos == rest.size())
        return PathElement::OfValue(std::move(v));
      absl::StatusOr<Value> v = ParseElementJson(rest);
      if (!v.ok())
        return absl::InvalidArgumentError(
            absl::StrCat("value: ", v.status().message()));
      return PathElement::OfValue(*std::move(v));
    }
    case 'k': {
      if (KeyScratch fields; ParsePlainKey(rest, &fields))
        return PathElement::KeyFrom(absl::MakeSpan(fields));
      absl::StatusOr<Value> v = ParseElementJson(rest);
      if (!v.ok())
        return absl::InvalidArgumentError(
            absl::StrCat("key: ", v.status().message()));
      if (!v->IsMap())
        return absl::InvalidArgumentError("key: expected a JSON object");
      KeyFields fields;
      for (MapEntry& e : v->map().entries())
        fields.push_back(KeyField{e.key, std::move(e.value)});
      return PathElement::Key(std::move(fields));
    }
    case 'i': {
      int64_t i = 0;
      const char* b = rest.data();
      const char* e = rest.data() + rest.size();
      if (!rest.empty() && *b == '+') ++b;
      auto [ptr, ec] = std::from_chars(b, e, i);
      if (rest.empty() || ec != std::errc() || ptr != e) {
        return absl::InvalidArgumentError("index: expected an integer");
      }
      return PathElement::Index(i);
    }
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("unknown path element type '", s.substr(0, 1), ":'"));
  }
}

std::string SerializeFieldsV1(const Set& set) {
  Out out;
  std::string scratch, quoted;
  out.Put('{');
  WriteContents(&out, set, false, &scratch, &quoted);
  out.Put('}');
  return out.Finish();
}

Value FieldsV1ToValue(const Set& set) { return ContentsToValue(set, false); }

namespace {

// Reads the encoding from a value (a managedFields entry's fieldsV1 as an
// object holds it) straight into a Set.
class FieldsV1ValueReader {
 public:
  FieldsV1ValueReader(const Limits& limits, FieldsV1Guide* guide)
      : limits_(limits), guide_(guide) {}

  // Reads one node's object into `children`; `*member` says whether the
  // node itself is a member ("." present, or no children at all).
  absl::Status Node(const Value& v, int depth, Set* children, bool* member) {
    if (!v.IsMap()) {
      return Error(
          absl::StrCat("expected an object, got ", KindName(v.kind())));
    }
    if (static_cast<size_t>(depth) >= limits_.max_depth) {
      return Error(LimitError(absl::StrCat("nesting at level ", depth + 1),
                              "max_depth", limits_.max_depth));
    }
    const Map& m = v.map();
    *member = m.empty();
    // What the object takes in compact JSON (as if no key needed escapes):
    // braces, commas, and per entry the quoted key, a colon and, for a leaf,
    // its {}; objects below count themselves.
    bytes_ += 2 + (m.empty() ? 0 : m.size() - 1);
    for (const MapEntry& e : m) {
      bytes_ += e.key.size() + 3;
      if (e.value.IsMap() && e.value.map().empty()) bytes_ += 2;
    }
    if (bytes_ > limits_.max_fields_v1_bytes) {
      return Error(
          LimitError(absl::StrCat("field set of at least ", bytes_, " bytes"),
                     "max_fields_v1_bytes", limits_.max_fields_v1_bytes));
    }
    // A map says up front how many entries it has: the node is sized once
    // and filled in place.
    children->Reserve(m.size());
    bool first = true;
    // Whether the entries so far are fields in strictly ascending order
    // (their keys then compare as the names do): encoders write them so,
    // and the node needs no Normalize.
    bool ordered = true;
    const std::string* last_key = nullptr;
    for (const MapEntry& e : m) {
      if (e.key.size() == 1 && e.key[0] == '.') {
        if (!e.value.IsMap() || !e.value.map().empty())
          return Error("\".\" must map to {}");
        *member = true;
        // The encoder writes "." first, below the top, and only beside
        // other keys (a member with nothing below is a bare {}).
        if (!first || depth == 0 || m.size() == 1) canonical_ = false;
        first = false;
        continue;
      }
      first = false;
      PathElement pe;
      const bool field =
          e.key.size() >= 2 && e.key[0] == 'f' && e.key[1] == ':';
      if (ordered) {
        ordered = field && (last_key == nullptr || *last_key < e.key);
        last_key = &e.key;
      }
      const bool leaf = e.value.IsMap() && e.value.map().empty();
      if (field) {
        const absl::string_view name = absl::string_view(e.key).substr(2);
        const std::string* interned =
            guide_ != nullptr && !leaf ? guide_->DescendField(name) : nullptr;
        pe = interned != nullptr ? PathElement::InternedField(interned)
                                 : PathElement::FieldInternedIfKnown(name);
      } else if (absl::Status st = OtherElement(e.key, &pe); !st.ok()) {
        return st;
      } else if (guide_ != nullptr && !leaf) {
        guide_->DescendElement();
      }
      if (leaf) {
        children->AppendMemberUnsorted(std::move(pe));
        continue;
      }
      // Built in place: the node has room for all its entries, so the
      // entry stays where it is while its children are read.
      keys_.push_back(&e.key);
      SetEntry& entry = children->AppendEntry(std::move(pe));
      bool member = false;
      if (absl::Status st = Node(e.value, depth + 1, &entry.children, &member);
          !st.ok()) {
        return st;
      }
      entry.set_member(member);
      if (guide_ != nullptr) guide_->Ascend(!entry.children.entries().empty());
      keys_.pop_back();
    }
    if (!ordered && !children->Normalize()) canonical_ = false;
    return absl::OkStatus();
  }

  // Whether everything read so far is exactly what FieldsV1ToValue writes
  // for the set read (keys in order, each once, in their one spelling).
  bool canonical() const { return canonical_; }

 private:
  // The error names the keys that lead to the problem, built only now.
  absl::Status Error(
      absl::string_view what,
      absl::StatusCode code = absl::StatusCode::kInvalidArgument) const {
    std::string where;
    for (const std::string* k : keys_)
      absl::StrAppend(&where, "[", ToJson(Value(KeyInMessage(*k))), "]");
    return absl::Status(code, absl::StrCat("fieldsV1", where, ": ", what));
  }
  absl::Status Error(const absl::Status& limit) const {
    return Error(limit.message(), limit.code());
  }

  // The element of a key that is not a field (`k:`, `v:`, `i:`), and
  // whether it is spelled as the encoder writes it: keys and values have
  // more than one spelling in JSON.
  absl::Status OtherElement(const std::string& key, PathElement* pe) {
    bool spelled_so = false;
    // (A key of fewer than two bytes names no element: ParsePathElement
    // below says so.)
    const absl::string_view rest =
        key.size() >= 2 ? absl::string_view(key).substr(2) : absl::string_view();
    if (key.size() >= 2 && key[0] == 'k' && key[1] == ':') {
      key_fields_.clear();
      if (ParsePlainKey(rest, &key_fields_, &spelled_so)) {
        *pe = PathElement::KeyFrom(absl::MakeSpan(key_fields_));
        if (!spelled_so) CheckSpelling(key, *pe);
        return absl::OkStatus();
      }
    } else if (key.size() >= 2 && key[0] == 'v' && key[1] == ':') {
      size_t pos = 0;
      if (Value v; ParsePlainScalar(rest, &pos, &scratch_, &v) &&
                   pos == rest.size()) {
        spelled_so = !v.IsString() || (pos == v.AsString().size() + 2 &&
                                       JsonStringIsPlain(v.AsString()));
        *pe = PathElement::OfValue(std::move(v));
        if (!spelled_so) CheckSpelling(key, *pe);
        return absl::OkStatus();
      }
    }
    absl::StatusOr<PathElement> other = ParsePathElement(key);
    if (!other.ok()) {
      return Error(absl::StrCat("bad key \"", KeyInMessage(key), "\": ",
                                other.status().message()));
    }
    *pe = *std::move(other);
    CheckSpelling(key, *pe);
    return absl::OkStatus();
  }
  void CheckSpelling(const std::string& key, const PathElement& pe) {
    if (!canonical_) return;
    scratch_.clear();
    AppendPathElementRaw(&scratch_, pe);
    canonical_ = scratch_ == key;
  }

  const Limits& limits_;
  FieldsV1Guide* const guide_;
  size_t bytes_ = 0;
  bool canonical_ = true;
  KeyScratch key_fields_;
  std::string scratch_;  // a key's text decoded, or as the encoder spells it
  std::vector<const std::string*> keys_;  // above the current node
};

}  // namespace

absl::StatusOr<Set> FieldsV1FromValue(const Value& v, const Limits& limits,
                                      bool* canonical, FieldsV1Guide* guide) {
  Set out;
  bool is_member = false;
  FieldsV1ValueReader reader(limits, guide);
  if (absl::Status st = reader.Node(v, 0, &out, &is_member); !st.ok()) {
    return st;
  }
  if (canonical != nullptr) *canonical = reader.canonical();
  return out;
}

namespace {

// Matches a value against the encoding of a set, node by node, counting the
// bytes and the depth as FieldsV1ValueReader does.
class EncodingMatcher {
 public:
  explicit EncodingMatcher(const Limits& limits) : limits_(limits) {}

  // Whether `v` is what ContentsToValue(set, include_self) writes.
  bool Node(const Value& v, const Set& set, bool include_self, int depth) {
    if (!v.IsMap() || static_cast<size_t>(depth) >= limits_.max_depth)
      return false;
    const Map::Entries& m = v.map().entries();
    bytes_ += 2 + (m.empty() ? 0 : m.size() - 1);
    size_t at = 0;
    absl::Span<const SetEntry> entries = set.entries();
    if (include_self && !entries.empty()) {
      // (The key compared as a size and a byte: the library's compare
      // with a C string is a call.)
      if (m.empty() || m[0].key.size() != 1 || m[0].key[0] != '.' ||
          !IsEmptyMap(m[0].value))
        return false;
      bytes_ += 1 + 3 + 2;
      at = 1;
    }
    for (const SetEntry& e : entries) {
      const bool leaf = e.children.entries().empty();
      if (leaf && !e.member()) continue;  // the encoder writes nothing for it
      if (at == m.size() || !KeyIs(m[at].key, e.pe)) return false;
      const Value& below = m[at++].value;
      bytes_ += m[at - 1].key.size() + 3;
      if (leaf) {
        if (!IsEmptyMap(below)) return false;
        bytes_ += 2;
      } else if (!Node(below, e.children, e.member(), depth + 1)) {
        return false;
      }
    }
    return at == m.size() && bytes_ <= limits_.max_fields_v1_bytes;
  }

 private:
  static bool IsEmptyMap(const Value& v) {
    return v.IsMap() && v.map().empty();
  }
  bool KeyIs(const std::string& key, const PathElement& pe) {
    if (pe.IsField()) {
      const absl::string_view name = pe.field_name();
      return key.size() == name.size() + 2 && key[0] == 'f' &&
             key[1] == ':' &&
             internal::SameBytes(key.data() + 2, name.data(), name.size());
    }
    if (pe.IsKey()) {
      bool is = false;
      if (PlainKeyIs(key, pe.key(), &is)) return is;
    }
    scratch_.clear();
    AppendPathElementRaw(&scratch_, pe);
    return scratch_ == key;
  }

  // For a key whose names and string values need no escaping and whose
  // values are strings or integers (nearly all), sets `*is` to whether
  // `key` is its `k:` text, compared in place; false for other keys.
  static bool PlainKeyIs(absl::string_view key, absl::Span<const KeyPart> k,
                         bool* is) {
    *is = false;
    auto take = [&](absl::string_view s) {
      if (key.size() < s.size() ||
          !internal::SameBytes(key.data(), s.data(), s.size())) {
        return false;
      }
      key.remove_prefix(s.size());
      return true;
    };
    for (const KeyPart& f : k) {
      if (!JsonStringIsPlain(f.name())) return false;
      if (f.IsString() ? !JsonStringIsPlain(f.AsString()) : !f.IsInt())
        return false;
    }
    if (!take("k:{")) return true;
    bool first = true;
    for (const KeyPart& f : k) {
      if (!first && !take(",")) return true;
      first = false;
      if (!take("\"") || !take(f.name()) || !take("\":")) return true;
      if (f.IsString()) {
        if (!take("\"") || !take(f.AsString()) || !take("\"")) return true;
      } else {
        char digits[24];
        char* end =
            std::to_chars(digits, digits + sizeof(digits), f.AsInt()).ptr;
        if (!take(absl::string_view(digits, static_cast<size_t>(end - digits))))
          return true;
      }
    }
    *is = key == "}";
    return true;
  }

  const Limits& limits_;
  size_t bytes_ = 0;
  std::string scratch_;
};

}  // namespace

bool FieldsV1ValueEncodes(const Value& v, const Set& set,
                          const Limits& limits) {
  return EncodingMatcher(limits).Node(v, set, /*include_self=*/false, 0);
}

namespace {

// The entries of the nodes being read, on one stack: a node's entries sit
// above its parent's while it is read (nodes nest), and go into its Set,
// exactly sized, when it ends. They go by their bytes
// (Set::AppendRelocated), and the stack then forgets them: a move and a
// destruction per entry cost as much as reading a leaf's key. Each thread
// keeps one (see ThreadLease).
class EntryStack {
 public:
  EntryStack() { Resize(kInitialEntries); }
  ~EntryStack() {
    Truncate(0);
    ::operator delete(data_);
  }
  EntryStack(const EntryStack&) = delete;
  EntryStack& operator=(const EntryStack&) = delete;

  size_t size() const { return size_; }
  SetEntry& operator[](size_t i) { return data_[i]; }
  SetEntry& emplace_back(PathElement&& pe, bool member) {
    if (size_ == capacity_) Resize(2 * capacity_);
    return *new (data_ + size_++) SetEntry(std::move(pe), member);
  }
  // The entries from `base` on go into `set`, and off the stack.
  void MoveAbove(size_t base, Set* set) {
    set->AppendRelocated(absl::MakeSpan(data_ + base, size_ - base));
    size_ = base;
  }
  void AfterRead() {
    Truncate(0);  // what a failed read left
    if (capacity_ > kKeptEntries) Resize(kInitialEntries);
  }

 private:
  static constexpr size_t kInitialEntries = 64;
  static constexpr size_t kKeptEntries = 1024;

  void Truncate(size_t n) {
    while (size_ > n) data_[--size_].~SetEntry();
  }
  // REQUIRES: `capacity` >= size_.
  void Resize(size_t capacity) {
    auto* bigger =
        static_cast<SetEntry*>(::operator new(capacity * sizeof(SetEntry)));
    if (size_ != 0) {
      std::memcpy(static_cast<void*>(bigger), static_cast<void*>(data_),
                  size_ * sizeof(SetEntry));
    }
    ::operator delete(data_);
    data_ = bigger;
    capacity_ = capacity;
  }

  SetEntry* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

// The word whose bytes, in memory order, are these three and a zero.
constexpr uint32_t WordOf(unsigned char b0, unsigned char b1, unsigned char b2) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  return uint32_t{b0} << 24 | uint32_t{b1} << 16 | uint32_t{b2} << 8;
#else
  return uint32_t{b0} | uint32_t{b1} << 8 | uint32_t{b2} << 16;
#endif
}
// Whether the bytes at `p` are those of `lit` (2 or 3 bytes), tested with
// one load where a branch per byte costs more. REQUIRES: two bytes at `p`
// for a 2-byte `lit`, four for a 3-byte one.
template <size_t N>
inline bool StartsWith(const char* p, const char (&lit)[N]) {
  static_assert(N == 3 || N == 4, "two or three bytes");
  const auto byte = [&](size_t i) {
    return static_cast<unsigned char>(i < N - 1 ? lit[i] : 0);
  };
  if constexpr (N == 3) {
    uint16_t x;
    std::memcpy(&x, p, 2);
    return x == static_cast<uint16_t>(WordOf(byte(0), byte(1), 0));
  } else {
    return ((internal::LoadHalfWord(p) ^ WordOf(byte(0), byte(1), byte(2))) &
            WordOf(0xff, 0xff, 0xff)) == 0;
  }
}

// mask[n]: the top n bytes of a word.
struct HeadMasks {
  uint64_t mask[9] = {};
  constexpr HeadMasks() {
    for (int n = 1; n <= 8; ++n) mask[n] = ~uint64_t{0} << (64 - 8 * n);
  }
};
constexpr HeadMasks kHeadMasks;

// The first eight bytes of field name `s` (fewer bytes padded with zeros)
// as one number that orders as they do. `end` is where the text that holds
// `s` ends: the bytes are read as one word when the text lasts that long.
// Names compare as their heads do when those differ (a name shorter than
// eight bytes pads with zeros, and sorts before one it is a prefix of,
// whose byte there is not zero); equal heads say nothing.
inline uint64_t NameHead(absl::string_view s, const char* end) {
  uint64_t w = 0;
  if (end - s.data() >= 8) {
    w = internal::LoadWord(s.data());
  } else {
    std::memcpy(&w, s.data(), std::min<size_t>(s.size(), 8));
  }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  w = __builtin_bswap64(w);
#endif
  // The first n bytes (the top ones now), without a branch.
  return w & kHeadMasks.mask[s.size() < 8 ? s.size() : 8];
}

// Reads the text of a fieldsV1 object into a Set. Keys as encoders write
// them (`"f:name"`, `"."`, `"k:{\"name\":\"value\"}"`, no whitespace) are
// read in place, straight from the text; anything else, errors included,
// takes the general path from where the key starts, so what is accepted
// and how it reads does not depend on the shortcuts.
class FieldsV1Reader {
 public:
  FieldsV1Reader(absl::string_view text, const Limits& limits)
      : t_(text),
        end_(text.data() + text.size()),
        max_depth_(static_cast<int>(limits.max_depth)),
        lease_(/*take_thread_space=*/true),
        stack_(lease_.space()) {}

  absl::StatusOr<Set> Read() {
    const size_t base = stack_.size();
    bool member = false;
    bool ordered = true;
    SkipSpace();
    if (absl::Status st = Node(&member, &ordered, 0); !st.ok()) return st;
    SkipSpace();
    if (pos_ != t_.size()) return Error("unexpected data after the object");
    Set out;
    stack_.MoveAbove(base, &out);
    if (!ordered) out.Normalize();
    return out;
  }

 private:
  // The error names the keys that lead to the problem, built only now.
  absl::Status Error(
      absl::string_view what,
      absl::StatusCode code = absl::StatusCode::kInvalidArgument) const {
    std::vector<size_t> keys;
    for (const OpenKey* k = open_; k != nullptr; k = k->up)
      keys.push_back(k->at);
    std::string where;
    for (auto it = keys.rbegin(); it != keys.rend(); ++it) {
      size_t at = *it;
      std::string k;
      internal::ReadJsonString(t_, &at, &k);
      absl::StrAppend(&where, "[", ToJson(Value(KeyInMessage(k))), "]");
    }
    return absl::Status(code, absl::StrCat("fieldsV1", where, ": ", what,
                                           " (at byte ", pos_, ")"));
  }
  absl::Status Error(const absl::Status& limit) const {
    return Error(limit.message(), limit.code());
  }
  void SkipSpace() {
    while (pos_ < t_.size() && (t_[pos_] == ' ' || t_[pos_] == '\n' ||
                                t_[pos_] == '\t' || t_[pos_] == '\r')) {
      ++pos_;
    }
  }
  bool Eat(char c) {
    // Encoders write no whitespace: the byte is nearly always right here,
    // or another that is not whitespace either (all of which is at most
    // ' ').
    if (pos_ < t_.size()) {
      if (t_[pos_] == c) {
        ++pos_;
        return true;
      }
      if (static_cast<unsigned char>(t_[pos_]) > ' ') return false;
    }
    SkipSpace();
    if (pos_ < t_.size() && t_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  // Whether the text at the cursor starts with `s`.
  bool At(absl::string_view s) const {
    return t_.size() - pos_ >= s.size() &&
           std::memcmp(t_.data() + pos_, s.data(), s.size()) == 0;
  }

  // Reads `"f:NAME":` at `k` with no escapes in NAME, the key of nearly
  // every entry: returns where its value starts, or null at any other key.
  // (The cursor is a local pointer, not pos_: stores of set entries, which
  // hold bytes, could alias a member, which then goes back to memory.)
  const char* FieldKey(const char* k, absl::string_view* name) const {
    if (end_ - k < 5 || !StartsWith(k, "\"f:")) return nullptr;
    const char* q = PlainRun(k + 3, end_);
    if (end_ - q < 2 || !StartsWith(q, "\":")) return nullptr;
    *name = absl::string_view(k + 3, static_cast<size_t>(q - (k + 3)));
    return q + 2;
  }

  // Reads `"k:{\"name\":value,...}":`, the key of an associative-list item
  // as encoders write it: names and string values free of escapes, values
  // strings or integers as JSON writes them, names distinct. Read from the
  // escaped text as it is: a name or string value between `\"` and `\"`
  // holds no `"` or `\`, so its bytes are its text. False, having read
  // nothing, at any other key.
  bool PlainKeyKey(PathElement* pe) {
    if (!At("\"k:{\\\"")) return false;
    const char* p = t_.data() + pos_ + 4;  // at the first name's `\"`
    plain_fields_.clear();
    while (true) {
      if (end_ - p < 2 || p[0] != '\\' || p[1] != '"') return false;
      const char* const name = p + 2;
      const char* q = PlainRun(name, end_);
      if (end_ - q < 3 || q[0] != '\\' || q[1] != '"' || q[2] != ':')
        return false;
      const absl::string_view n(name, static_cast<size_t>(q - name));
      if (plain_fields_.full()) return false;
      for (const KeyFieldRef& f : plain_fields_) {
        if (f.name == n) return false;
      }
      p = q + 3;
      if (end_ - p >= 2 && p[0] == '\\' && p[1] == '"') {
        const char* const v = p + 2;
        const char* w = PlainRun(v, end_);
        if (end_ - w < 2 || w[0] != '\\' || w[1] != '"') return false;
        plain_fields_.Add().SetString(
            n, absl::string_view(v, static_cast<size_t>(w - v)));
        p = w + 2;
      } else {
        if (p == end_ || (*p != '-' && !IsDigit(*p))) return false;
        size_t at = static_cast<size_t>(p - t_.data());
        Value number;
        if (!ParsePlainScalar(t_, &at, &key_storage_, &number)) return false;
        plain_fields_.Add().SetInt(n, number.AsInt());
        p = t_.data() + at;
      }
      if (p < end_ && *p == ',') {
        ++p;
        continue;
      }
      if (end_ - p < 3 || p[0] != '}' || p[1] != '"' || p[2] != ':')
        return false;
      // Sorts the fields by name, as PlainKeyAfter reads them after.
      *pe = PathElement::KeyOf(plain_fields_.span());
      pos_ = static_cast<size_t>(p + 3 - t_.data());
      return true;
    }
  }

  // `*out` views the text, or `key_storage_` when the key has escapes (valid
  // until the next key is read).
  absl::Status Key(absl::string_view* out, size_t* at) {
    SkipSpace();
    *at = pos_;
    if (pos_ >= t_.size() || t_[pos_] != '"')
      return Error("expected a string key");
    if (!ReadString(t_, &pos_, &key_storage_, out))
      return Error("malformed string key");
    return absl::OkStatus();
  }

  // Reads any key the shortcuts decline, and the ':' after it. `*at` is
  // where the key starts; `*dot` says it is "." (and `*pe` is then unset).
  absl::Status AnyKey(size_t* at, PathElement* pe, bool* dot) {
    absl::string_view key;
    if (absl::Status st = Key(&key, at); !st.ok()) return st;
    if (!Eat(':')) return Error("expected ':'");
    if (key == ".") {
      *dot = true;
      return absl::OkStatus();
    }
    if (key.size() >= 2 && key[0] == 'f' && key[1] == ':') {
      *pe = PathElement::FieldInternedIfKnown(key.substr(2));
      return absl::OkStatus();
    }
    bool ok = true;
    *pe = OtherElement(key, &ok);
    if (!ok) {
      return Error(absl::StrCat("bad key \"", KeyInMessage(key), "\": ",
                                ParsePathElement(key).status().message()));
    }
    return absl::OkStatus();
  }

  // Reads one node's object: the entries of what is below it are left on
  // the stack, above where it stood; `member` says whether the node itself
  // is a member, and `ordered` false that its entries need Normalize.
  // `opened`: the caller read the object's `{` and saw a key's `"` next.
  absl::Status Node(bool* member, bool* ordered, int depth,
                    bool opened = false) {
    if (depth >= max_depth_) {
      return Error(LimitError(absl::StrCat("nesting at level ", depth + 1),
                              "max_depth", static_cast<size_t>(max_depth_)));
    }
    *member = false;
    if (!opened) {
      if (!Eat('{')) return Error("expected an object");
      if (Eat('}')) {
        *member = true;  // no children: the node is a member
        return absl::OkStatus();
      }
    }
    const char* const text = t_.data();
    // Whether the entries so far are fields read by FieldKey and then keys
    // read by PlainKeyKey, in strictly ascending order: encoders write
    // them so, and the node then needs no Normalize. Fields compare as
    // their names do. (The first name is compared with the empty one,
    // which every other sorts after.)
    bool in_order = true;
    absl::string_view last_name(text, 0);  // (compared: not null)
    uint64_t last_head = 0;                 // NameHead(last_name)
    // The stack entry of the last `k:` key read in place, and the last
    // field name then.
    size_t last_key = kNoKey;
    const char* name_at_key = nullptr;
    // The cursor, kept here between the keys read in place, and in pos_
    // around everything else (and before any error, which names it).
    const char* k = text + pos_;
    while (true) {
      absl::string_view name;
      if (const char* v = FieldKey(k, &name)) {
        // Sibling names mostly differ in their heads: one comparison of
        // numbers, where a branch on their lengths or bytes would often
        // go the wrong way.
        const uint64_t head = NameHead(name, end_);
        in_order = in_order &&
                   (head != last_head ? head > last_head : last_name < name);
        last_head = head;
        last_name = name;
        if (end_ - v >= 2 && StartsWith(v, "{}")) {
          // A leaf (most keys): a member with nothing below.
          stack_.emplace_back(PathElement::FieldInternedIfKnown(name, end_),
                              true);
          k = v + 2;
        } else {
          const size_t at = static_cast<size_t>(k - text);
          // An object that starts with a key, as encoders write one, is
          // read below without testing again for `{}`.
          const bool opened = end_ - v >= 2 && StartsWith(v, "{\"");
          pos_ = static_cast<size_t>(v + (opened ? 1 : 0) - text);
          PathElement pe = PathElement::FieldInternedIfKnown(name, end_);
          if (absl::Status st = opened ? ReadBelow(std::move(pe), at, depth,
                                                   /*opened=*/true)
                                       : ReadValue(std::move(pe), at, depth);
              !st.ok()) {
            return st;
          }
          k = text + pos_;
        }
      } else if (end_ - k >= 6 && std::memcmp(k, "\".\":{}", 6) == 0) {
        *member = true;
        k += 6;
      } else {
        pos_ = static_cast<size_t>(k - text);
        PathElement pe;
        size_t key_at = pos_;
        bool dot = false;
        if (PlainKeyKey(&pe)) {
          // Keys follow fields in a set (elements order by kind first):
          // the node stays in order while each key sorts after the one
          // before, and no field comes after one (checked here, against
          // the last field name at the key before, and at the end: the
          // loop over fields stays as it is).
          // The entry goes on the stack where it stands now.
          in_order =
              in_order &&
              (last_key == kNoKey ||
               (last_name.data() == name_at_key &&
                PlainKeyAfter(stack_[last_key].pe.key(), plain_fields_)));
          last_key = stack_.size();
          name_at_key = last_name.data();
        } else {
          in_order = false;
          if (absl::Status st = AnyKey(&key_at, &pe, &dot); !st.ok())
            return st;
        }
        if (dot) {
          if (!Eat('{') || !Eat('}')) return Error("\".\" must map to {}");
          *member = true;
        } else if (absl::Status st = ReadValue(std::move(pe), key_at, depth);
                   !st.ok()) {
          return st;
        }
        k = text + pos_;
      }
      // The separator, as encoders write it (no whitespace) or not.
      if (k < end_) {
        if (*k == ',') {
          ++k;
          continue;
        }
        if (*k == '}') {
          ++k;
          break;
        }
      }
      pos_ = static_cast<size_t>(k - text);
      if (Eat(',')) {
        k = text + pos_;
        continue;
      }
      if (Eat('}')) {
        k = text + pos_;
        break;
      }
      return Error("expected ',' or '}'");
    }
    pos_ = static_cast<size_t>(k - text);
    // A field after a key is out of order.
    if (last_key != kNoKey && last_name.data() != name_at_key) in_order = false;
    *ordered = in_order;
    return absl::OkStatus();
  }

  // Reads the value of the key at `at`, whose element is `pe`, onto the
  // stack: `{}` (a leaf) or an object to read as a node one level down.
  absl::Status ReadValue(PathElement&& pe, size_t at, int depth) {
    if (At("{}")) {
      pos_ += 2;
      stack_.emplace_back(std::move(pe), true);
      return absl::OkStatus();
    }
    if (const size_t before = pos_; Eat('{') && Eat('}')) {
      stack_.emplace_back(std::move(pe), true);  // `{}` with whitespace
      return absl::OkStatus();
    } else {
      pos_ = before;
    }
    return ReadBelow(std::move(pe), at, depth, /*opened=*/false);
  }

  // The same for a value that is not `{}`: pushes the entry and reads the
  // node below it (`opened` as for Node). Inline, so that the recursion
  // costs one call a level, not two.
  ABSL_ATTRIBUTE_ALWAYS_INLINE absl::Status ReadBelow(PathElement&& pe,
                                                      size_t at, int depth,
                                                      bool opened) {
    const OpenKey key{at, open_};
    open_ = &key;
    const size_t index = stack_.size();
    stack_.emplace_back(std::move(pe), false);
    bool member = false;
    bool ordered = true;
    if (absl::Status st = Node(&member, &ordered, depth + 1, opened);
        !st.ok())
      return st;  // (the read ends: open_ is not used again)
    open_ = key.up;
    // The stack may have moved: the entry is found again by its index. The
    // entries above it are what is below it.
    SetEntry& e = stack_[index];
    e.set_member(member);
    stack_.MoveAbove(index + 1, &e.children);
    if (!ordered) e.children.Normalize();
    return absl::OkStatus();
  }

  // The element a key that is not a field names; `*ok` false when it names
  // none (ParsePathElement then says why).
  PathElement OtherElement(absl::string_view key, bool* ok) {
    // Keys of the usual shape are read here, into scratch space that keeps
    // its room from key to key.
    if (key.size() >= 2 && key[0] == 'k' && key[1] == ':') {
      key_fields_.clear();
      if (ParsePlainKey(key.substr(2), &key_fields_))
        return PathElement::KeyFrom(absl::MakeSpan(key_fields_));
    }
    absl::StatusOr<PathElement> pe = ParsePathElement(key);
    if (!pe.ok()) {
      *ok = false;
      return PathElement();
    }
    return *std::move(pe);
  }

  absl::string_view t_;
  const char* const end_;
  const int max_depth_;
  size_t pos_ = 0;
  // Where the keys above the current object start (decoded for errors
  // only): a list through the frames of the nodes being read, innermost
  // first.
  struct OpenKey {
    size_t at;
    const OpenKey* up;
  };
  const OpenKey* open_ = nullptr;
  internal::ThreadLease<EntryStack> lease_;
  EntryStack& stack_;
  std::string key_storage_;
  KeyScratch key_fields_;
  // A `k:` key's fields as PlainKeyKey reads them: names and string values
  // view the text.
  // (Keys of more fields than it holds take the general path.)
  class PlainFields {
   public:
    void clear() { n_ = 0; }
    bool full() const { return n_ == kMax; }
    // The next field, to be set. REQUIRES: !full().
    KeyFieldRef& Add() { return fields_[n_++]; }
    const KeyFieldRef* begin() const { return fields_; }
    const KeyFieldRef* end() const { return fields_ + n_; }
    absl::Span<KeyFieldRef> span() { return absl::MakeSpan(fields_, n_); }
    operator absl::Span<const KeyFieldRef>() const {  // NOLINT
      return absl::MakeConstSpan(fields_, n_);
    }

   private:
    static constexpr size_t kMax = 4;
    KeyFieldRef fields_[kMax];
    size_t n_ = 0;
  };
  PlainFields plain_fields_;

  static constexpr size_t kNoKey = ~size_t{0};
  // Whether the key of fields `b`, as PlainKeyKey reads them (sorted by
  // name), sorts after key `a` as their elements compare: field by field,
  // by name and then by value. False when unsure (a string against a
  // number), which costs a Normalize and nothing else.
  static bool PlainKeyAfter(absl::Span<const KeyPart> a,
                            absl::Span<const KeyFieldRef> b) {
    for (size_t i = 0;; ++i) {
      if (i == a.size() || i == b.size()) return i == a.size() && i < b.size();
      const int c = a[i].name().compare(b[i].name);
      if (c != 0) return c < 0;
      if (a[i].kind() != b[i].kind) return false;
      if (b[i].kind == Value::Kind::kString) {
        const int d = a[i].AsString().compare(b[i].string);
        if (d != 0) return d < 0;
      } else {
        if (a[i].AsInt() != b[i].number) return a[i].AsInt() < b[i].number;
      }
    }
  }
};

}  // namespace

absl::StatusOr<Set> ParseFieldsV1(absl::string_view json,
                                  const Limits& limits) {
  if (json.size() > limits.max_fields_v1_bytes) {
    return LimitError(absl::StrCat("fieldsV1 of ", json.size(), " bytes"),
                      "max_fields_v1_bytes", limits.max_fields_v1_bytes);
  }
  return FieldsV1Reader(json, limits).Read();
}

}  // namespace smdx
