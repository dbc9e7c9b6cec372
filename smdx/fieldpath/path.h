// PathElement and Path: how smdx names a field inside an object.
//
// A path element is one step down into a value: a map field by name, an
// associative-list item by its key fields, a set item by its value, or an
// atomic-list item by index. A Path is a sequence of them from the root.
//
// Elements are totally ordered as in sigs.k8s.io/structured-merge-diff
// (field names < keys < values < indexes, then by content); field sets keep
// their members in that order, which is also the order of the `fieldsV1`
// encoding.
//
// fieldpath/ depends only on value/ (value.h and intern.h).
#ifndef SMDX_FIELDPATH_PATH_H_
#define SMDX_FIELDPATH_PATH_H_

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "smdx/value/intern.h"
#include "smdx/value/value.h"

namespace smdx {

// One key field of an associative-list item, `name=value`, to make a key
// element of (PathElement::Key).
struct KeyField {
  std::string name;
  Value value;
};
using KeyFields = std::vector<KeyField>;

// A key field to make a key element of, viewed where it lies: the element
// copies what it needs. A value read from text is a string or an integer
// (SetString, SetInt); any other is given as a Value (SetValue). Each
// setter sets every member. Readers set one in place where it stays: a
// copy made just after it was set reads bytes the stores that set them
// have not yet written (in a fieldsV1 reader, that wait cost a tenth of
// the decode).
struct KeyFieldRef {
  absl::string_view name;
  Value::Kind kind;
  absl::string_view string;  // kind kString
  int64_t number;            // kind kInt
  const Value* value;        // any other kind: the value itself

  void SetValue(absl::string_view n, const Value& v) {
    if (v.IsString()) return SetString(n, v.AsString());
    if (v.IsInt()) return SetInt(n, v.AsInt());
    Set(n, v.kind(), absl::string_view(), 0, &v);
  }
  void SetString(absl::string_view n, absl::string_view s) {
    Set(n, Value::Kind::kString, s, 0, nullptr);
  }
  void SetInt(absl::string_view n, int64_t i) {
    Set(n, Value::Kind::kInt, absl::string_view(), i, nullptr);
  }

 private:
  void Set(absl::string_view n, Value::Kind k, absl::string_view s,
           int64_t i, const Value* v) {
    name = n;
    kind = k;
    string = s;
    number = i;
    value = v;
  }
};

// A field of a key element, as the element holds it (PathElement::key()):
// its name and a scalar value are bytes in the element's own block, so a
// key is made with one allocation and dropped with one free, with no
// strings or Values to make and destroy (readers make one per list item).
// A list or map value (which Kubernetes' keys never hold) is a Value in
// the block.
class KeyPart {
 public:
  absl::string_view name() const { return {name_, name_size_}; }
  Value::Kind kind() const { return kind_; }
  bool IsString() const { return kind_ == Value::Kind::kString; }
  bool IsInt() const { return kind_ == Value::Kind::kInt; }
  // REQUIRES: the value has that kind.
  absl::string_view AsString() const { return {u_.str.data, u_.str.size}; }
  int64_t AsInt() const { return u_.i; }
  // The value as a Value (a scalar's made anew).
  Value value() const;

 private:
  friend class PathElement;
  KeyPart() {}  // set field by field where the block is made

  const char* name_;
  uint32_t name_size_;
  Value::Kind kind_;
  union {
    struct {
      const char* data;
      size_t size;
    } str;
    int64_t i;
    double d;
    bool b;
    const Value* compound;  // in the block
  } u_;
};

namespace internal {

// The header of the reference-counted blocks path elements share between
// copies: a long field name, a key's fields, a set item's value. Sets copy
// elements freely (unions, differences), and a copy is then a count
// increment instead of strings and vectors. Immutable once built; the count
// is atomic because sets are shared between threads.
struct SharedBlock {
  std::atomic<uint32_t> refs;
  uint32_t size;  // name bytes, or key fields, that follow the header
};

// The block of a key element: the header, its fields (KeyPart), the Values
// of those that hold lists or maps, and then the bytes of names and
// strings.
struct KeyBlock {
  SharedBlock header;  // size: the number of fields
  uint32_t bytes;      // all of the block after `header`
  uint32_t compound;   // fields whose value is a Value in the block
};

}  // namespace internal

// A path element is 16 bytes and moves as bytes: a field name of up to 15
// bytes sits inline, a longer interned name is a pointer, and everything
// else is a pointer to a shared block (or an index). Sets hold one per
// entry, so their size and the cost of moving them is what sets cost.
//
// A name of up to 15 bytes is always inline, however it was made: two
// equal short names are then the same bits (SameBits), and reading one
// from text costs a copy of its bytes, not a look-up.
class PathElement {
 public:
  enum class Kind : uint8_t { kField, kKey, kValue, kIndex };

  static PathElement Field(std::string name) { return FieldFrom(name); }
  // The same, from a view of the name.
  static PathElement FieldFrom(absl::string_view name);
  // A field whose name is interned for good (see value/intern.h): a name
  // over 15 bytes is held by its pointer, so making and copying the element
  // costs no string copy, and two such names compare by address.
  // REQUIRES: `name` was returned by InternName or FindInternedName.
  static PathElement InternedField(const std::string* name);
  // A field named by text read from outside (a fieldsV1 key): a name over
  // 15 bytes is interned when a schema interned it (FindInternedName), else
  // owning a copy. Readers use it so that sets read back compare and encode
  // as fast as sets built against a schema.
  static PathElement FieldInternedIfKnown(absl::string_view name);
  // The same, for a name inside a text that is readable up to `end`: a
  // short name is copied with two loads and masks while 15 bytes from its
  // start are readable, without a branch on its length (which readers
  // mispredict at most names).
  static PathElement FieldInternedIfKnown(absl::string_view name,
                                          const char* end);
  // A key of `fields`, which it sorts by name (stably: a name given twice
  // stays twice, in the order given).
  static PathElement Key(const KeyFields& fields) { return KeyFrom(fields); }
  static PathElement KeyFrom(absl::Span<const KeyField> fields);
  // The same from views (for readers: nothing is copied but into the
  // element). Sorts `fields` in place.
  static PathElement KeyOf(absl::Span<KeyFieldRef> fields);
  static PathElement OfValue(Value v);
  static PathElement Index(int64_t i);

  // The field with the empty name. All 16 bytes are set (SameBits reads
  // them all).
  PathElement() noexcept { std::memset(b_, 0, sizeof(b_)); }
  PathElement(const PathElement& o) noexcept {
    std::memcpy(b_, o.b_, sizeof(b_));
    Ref();
  }
  PathElement(PathElement&& o) noexcept {
    std::memcpy(b_, o.b_, sizeof(b_));
    o.b_[0] = 0;
  }
  PathElement& operator=(const PathElement& o) noexcept {
    if (this != &o) {
      o.Ref();
      Unref();
      std::memcpy(b_, o.b_, sizeof(b_));
    }
    return *this;
  }
  PathElement& operator=(PathElement&& o) noexcept {
    if (this != &o) {
      Unref();
      std::memcpy(b_, o.b_, sizeof(b_));
      o.b_[0] = 0;
    }
    return *this;
  }
  ~PathElement() { Unref(); }

  Kind kind() const {
    const uint8_t t = tag();
    if (t <= kOwnedName) return Kind::kField;
    return t == kKeyTag ? Kind::kKey
                        : (t == kValueTag ? Kind::kValue : Kind::kIndex);
  }
  bool IsField() const { return tag() <= kOwnedName; }
  bool IsKey() const { return tag() == kKeyTag; }
  bool IsValue() const { return tag() == kValueTag; }
  bool IsIndex() const { return tag() == kIndexTag; }

  // REQUIRES: the element has that kind.
  absl::string_view field_name() const {
    const uint8_t t = tag();
    if (t <= kMaxInline)
      return absl::string_view(reinterpret_cast<const char*>(b_ + 1), t);
    if (t == kInternedName) return *static_cast<const std::string*>(ptr());
    const auto* h = static_cast<const internal::SharedBlock*>(ptr());
    return absl::string_view(reinterpret_cast<const char*>(h + 1), h->size);
  }
  // Whether the element is a field whose name it holds inline (every name
  // of up to 15 bytes).
  bool IsInlineField() const { return tag() <= kMaxInline; }
  // The element's 16 bytes. For an inline field, byte 0 is the name's
  // length and bytes 1 to 15 are the name, then zeros.
  const unsigned char* bytes() const { return b_; }
  // The interned name of a field, or null when the element holds or owns
  // its name (every name of up to 15 bytes is held inline).
  const std::string* interned_name() const {
    return tag() == kInternedName ? static_cast<const std::string*>(ptr())
                                  : nullptr;
  }
  // The key's fields, sorted by name.
  absl::Span<const KeyPart> key() const {
    const auto* h = static_cast<const internal::KeyBlock*>(ptr());
    return absl::Span<const KeyPart>(reinterpret_cast<const KeyPart*>(h + 1),
                                     h->header.size);
  }
  const Value& value() const {
    const auto* h = static_cast<const internal::SharedBlock*>(ptr());
    return *reinterpret_cast<const Value*>(h + 1);
  }
  int64_t index() const {
    int64_t i;
    std::memcpy(&i, b_ + 8, 8);
    return i;
  }

  // Whether `o` holds the same bytes: the same inline name, interned name,
  // shared block or index. Such elements are equal (equal elements need
  // not be the same bits); Compare and == try it first.
  bool SameBits(const PathElement& o) const {
    uint64_t a[2], b[2];
    std::memcpy(a, b_, sizeof(a));
    std::memcpy(b, o.b_, sizeof(b));
    return a[0] == b[0] && a[1] == b[1];
  }

  // The human form SMD prints: `.name`, `[k1="a",k2=1]`, `[="v"]`, `[3]`.
  std::string ToString() const;
  void AppendTo(std::string* out) const;

 private:
  // Byte 0 tells what the element holds: up to kMaxInline, a field name of
  // that many bytes in bytes 1 to 15; else a pointer (or the index) in
  // bytes 8 to 15.
  static constexpr uint8_t kMaxInline = 15;
  static constexpr uint8_t kInternedName = 16;  // const std::string*
  static constexpr uint8_t kOwnedName = 17;     // SharedBlock + bytes
  static constexpr uint8_t kKeyTag = 18;        // SharedBlock + KeyFields
  static constexpr uint8_t kValueTag = 19;      // SharedBlock + Value
  static constexpr uint8_t kIndexTag = 20;      // int64_t

  // A field of the `n` <= kMaxInline bytes at `name`.
  static PathElement InlineField(const char* name, size_t n);
  // The same, from 15 readable bytes at `name`.
  static PathElement InlineFieldUnbounded(const char* name, size_t n);

  uint8_t tag() const { return b_[0]; }
  const void* ptr() const {
    const void* p;
    std::memcpy(&p, b_ + 8, sizeof(p));
    return p;
  }
  // Sets all 16 bytes: the tag, zeros, then `p` (see SetWords).
  void SetPointer(uint8_t tag, const void* p) {
    uint64_t w1;
    std::memcpy(&w1, &p, sizeof(p));
    SetWords(TagWord(tag), w1);
  }
  // The word 0 of an element whose byte 0 is `tag` and bytes 1 to 7 zeros.
  static uint64_t TagWord(uint8_t tag) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return uint64_t{tag} << 56;
#else
    return tag;
#endif
  }
  // Writes the 16 bytes in one store. Elements are made and then moved at
  // once (a reader makes one per key and pushes it into a set), and the
  // move reads all 16 bytes in one load, which a pending store can serve
  // only when it holds all of them: built from narrower stores, the move
  // waited for them to reach memory, a tenth of decoding a fieldsV1.
  void SetWords(uint64_t w0, uint64_t w1) {
#if defined(__GNUC__)
    typedef uint64_t Words __attribute__((vector_size(16)));
    const Words both = {w0, w1};
    std::memcpy(b_, &both, sizeof(b_));
#else
    std::memcpy(b_, &w0, 8);
    std::memcpy(b_ + 8, &w1, 8);
#endif
  }
  bool Shared() const { return tag() >= kOwnedName && tag() <= kValueTag; }
  void Ref() const {
    if (Shared()) {
      static_cast<internal::SharedBlock*>(const_cast<void*>(ptr()))
          ->refs.fetch_add(1, std::memory_order_relaxed);
    }
  }
  void Unref() {
    if (Shared()) Release();
  }
  // Drops this element's count on its block, freeing it with the last.
  void Release();

  alignas(8) unsigned char b_[16];
};

inline PathElement PathElement::InlineField(const char* name, size_t n) {
  PathElement pe;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  // The two words from overlapping loads of the name (words, or
  // half-words), stored at once (see SetWords).
  uint64_t low = 0;   // the name's bytes 0 to 6 (bytes 1 to 7 of word 0)
  uint64_t high = 0;  // its bytes 7 to 14 (word 1)
  if (n >= 8) {
    uint64_t head, tail;
    std::memcpy(&head, name, 8);
    std::memcpy(&tail, name + n - 8, 8);
    low = head;
    high = tail >> (8 * (15 - n));  // its last n - 7 bytes
  } else if (n >= 4) {
    uint32_t head, tail;
    std::memcpy(&head, name, 4);
    std::memcpy(&tail, name + n - 4, 4);
    low = head | (uint64_t{tail} >> (8 * (8 - n)) << 32);
  } else {
    for (size_t i = 0; i < n; ++i)
      low |= uint64_t{static_cast<unsigned char>(name[i])} << (8 * i);
  }
  pe.SetWords((low << 8) | n, high);
#else
  pe.b_[0] = static_cast<uint8_t>(n);
  std::memcpy(pe.b_ + 1, name, n);
#endif
  return pe;
}

inline PathElement PathElement::InternedField(const std::string* name) {
  PathElement pe;
  if (name->size() <= kMaxInline) {
    // The interned name keeps the inline form ready (value/intern.h).
    std::memcpy(pe.b_, ShortForm(name), sizeof(pe.b_));
  } else {
    pe.SetPointer(kInternedName, name);
  }
  return pe;
}

namespace internal {
// For a name of n <= 15 bytes, the masks of the element's two words (byte
// 0 the length, then the name, then zeros): word 0 keeps bytes 0 to
// min(n, 7), word 1 the name's bytes from its eighth on.
struct InlineMasks {
  uint64_t word0[16] = {};
  uint64_t word1[16] = {};
  constexpr InlineMasks() {
    for (int n = 0; n < 16; ++n) {
      const int low = n < 7 ? n + 1 : 8;  // bytes of word 0 kept
      const int high = n > 7 ? n - 7 : 0;  // bytes of word 1 kept
      word0[n] = low == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * low)) - 1;
      word1[n] = high == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * high)) - 1;
    }
  }
};
inline constexpr InlineMasks kInlineMasks;
}  // namespace internal

inline PathElement PathElement::InlineFieldUnbounded(const char* name,
                                                     size_t n) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t w0, w1;
  std::memcpy(&w0, name, 8);
  std::memcpy(&w1, name + 7, 8);
  w0 = ((w0 << 8) | n) & internal::kInlineMasks.word0[n];
  w1 &= internal::kInlineMasks.word1[n];
  PathElement pe;
  pe.SetWords(w0, w1);
  return pe;
#else
  return InlineField(name, n);
#endif
}

inline PathElement PathElement::FieldInternedIfKnown(absl::string_view name,
                                                     const char* end) {
  if (name.size() <= kMaxInline && end - name.data() >= 15)
    return InlineFieldUnbounded(name.data(), name.size());
  return FieldInternedIfKnown(name);
}

// Inline: readers call it for every field name they read.
inline PathElement PathElement::FieldInternedIfKnown(absl::string_view name) {
  if (name.size() <= kMaxInline) return InlineField(name.data(), name.size());
  if (const std::string* interned = FindInternedName(name)) {
    PathElement pe;
    pe.SetPointer(kInternedName, interned);
    return pe;
  }
  return FieldFrom(name);
}

namespace internal {
// Compare and == for elements that are not the same bits.
int CompareDistinct(const PathElement& a, const PathElement& b);
bool EqualDistinct(const PathElement& a, const PathElement& b);
}  // namespace internal

// Elements with the same bits (copies of one element, one interned name)
// are settled inline; sets compare mostly such elements.
inline int Compare(const PathElement& a, const PathElement& b) {
  return a.SameBits(b) ? 0 : internal::CompareDistinct(a, b);
}
inline bool operator==(const PathElement& a, const PathElement& b) {
  return a.SameBits(b) || internal::EqualDistinct(a, b);
}
inline bool operator!=(const PathElement& a, const PathElement& b) {
  return !(a == b);
}
inline bool operator<(const PathElement& a, const PathElement& b) {
  return Compare(a, b) < 0;
}

using Path = std::vector<PathElement>;

// `.spec.containers[name="web"].image`; the empty path prints as "".
std::string PathString(const Path& p);

// Human rendering of a scalar or compound value inside a key, as SMD prints
// it (strings quoted, numbers plain, compound values as JSON).
std::string ValueString(const Value& v);

// Hashing support so path elements can key absl containers.
template <typename H>
H AbslHashValue(H h, const PathElement& pe);
size_t HashPathElement(const PathElement& pe);
size_t HashValue(const Value& v);

template <typename H>
H AbslHashValue(H h, const PathElement& pe) {
  return H::combine(std::move(h), HashPathElement(pe));
}

}  // namespace smdx

#endif  // SMDX_FIELDPATH_PATH_H_
