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
// This layer depends only on typed/value.h and typed/intern.h.
#ifndef SMDX_FIELDPATH_PATH_H_
#define SMDX_FIELDPATH_PATH_H_

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "typed/intern.h"
#include "typed/value.h"

namespace smdx {

// One key field of an associative-list item: `name=value`.
struct KeyField {
  std::string name;
  Value value;
};
// Key fields, sorted by name.
using KeyFields = std::vector<KeyField>;

namespace internal {

// The key fields of a key element, in one reference-counted block that all
// copies of the element share: sets copy elements freely (unions,
// differences, members that are also parents), and a key is then a count
// increment instead of a vector and its strings. Immutable once built; the
// count is atomic because sets are shared between threads.
class SharedKeyFields {
 public:
  // Moves the fields out of `fields`.
  explicit SharedKeyFields(absl::Span<KeyField> fields);
  SharedKeyFields(const SharedKeyFields& o) : b_(o.b_) { Ref(); }
  SharedKeyFields(SharedKeyFields&& o) noexcept : b_(o.b_) { o.b_ = nullptr; }
  SharedKeyFields& operator=(const SharedKeyFields& o) {
    SharedKeyFields copy(o);
    std::swap(b_, copy.b_);
    return *this;
  }
  SharedKeyFields& operator=(SharedKeyFields&& o) noexcept {
    std::swap(b_, o.b_);
    return *this;
  }
  ~SharedKeyFields() { Unref(); }

  absl::Span<const KeyField> fields() const;

 private:
  struct Block;
  void Ref();
  void Unref();
  Block* b_;
};

}  // namespace internal

class PathElement {
 public:
  enum class Kind : uint8_t { kField, kKey, kValue, kIndex };

  static PathElement Field(std::string name);
  // The same, with the name built in place from `name` (no moves of the
  // string: a short string's move is a copy).
  static PathElement FieldFrom(absl::string_view name);
  // A field whose name is interned for good (see InternName in
  // schema/schema.h): the element holds the pointer, so making and copying
  // it costs no string copy, and two interned names compare by address.
  // REQUIRES: `*name` is never destroyed or changed.
  static PathElement InternedField(const std::string* name);
  // A field named by text read from outside (a fieldsV1 key): interned when
  // a schema interned that name (FindInternedName), else owning a copy.
  // Readers use it so that sets read back compare and encode as fast as
  // sets built against a schema.
  static PathElement FieldInternedIfKnown(absl::string_view name);
  // Sorts `fields` by name.
  static PathElement Key(KeyFields fields);
  // The same, moving the fields out of `fields` (which may live anywhere,
  // e.g. in a reader's scratch space).
  static PathElement KeyFrom(absl::Span<KeyField> fields);
  static PathElement OfValue(Value v);
  static PathElement Index(int64_t i);

  PathElement() : v_(std::string()) {}

  Kind kind() const {
    size_t i = v_.index();
    return i == kInternedIndex ? Kind::kField : static_cast<Kind>(i);
  }
  bool IsField() const { return kind() == Kind::kField; }
  bool IsKey() const { return kind() == Kind::kKey; }
  bool IsValue() const { return kind() == Kind::kValue; }
  bool IsIndex() const { return kind() == Kind::kIndex; }

  // REQUIRES: the element has that kind.
  const std::string& field_name() const {
    return v_.index() == kInternedIndex ? *std::get<kInternedIndex>(v_)
                                        : std::get<std::string>(v_);
  }
  // The interned name of a field, or null when the element owns its name.
  const std::string* interned_name() const {
    return v_.index() == kInternedIndex ? std::get<kInternedIndex>(v_)
                                        : nullptr;
  }
  absl::Span<const KeyField> key() const {
    return std::get<internal::SharedKeyFields>(v_).fields();
  }
  const Value& value() const {
    return *std::get<std::shared_ptr<const Value>>(v_);
  }
  int64_t index() const { return std::get<int64_t>(v_); }

  // The human form SMD prints: `.name`, `[k1="a",k2=1]`, `[="v"]`, `[3]`.
  std::string ToString() const;
  void AppendTo(std::string* out) const;

 private:
  static constexpr size_t kInternedIndex = 4;
  // Values (set items, rare) are held out of line, shared by copies, which
  // keeps every element, field names above all, small.
  using Rep =
      std::variant<std::string, internal::SharedKeyFields,
                   std::shared_ptr<const Value>, int64_t, const std::string*>;
  explicit PathElement(Rep v) : v_(std::move(v)) {}
  Rep v_;
};

int Compare(const PathElement& a, const PathElement& b);
bool operator==(const PathElement& a, const PathElement& b);
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
