// Value: an untyped JSON-like value (null, bool, int64, double, string, list,
// map), the data model every other part of smdx works on.
//
// This is the bottom layer of the library: it depends on nothing else in
// smdx. Maps keep their keys in insertion order (the order a document was
// written in) while equality and ordering ignore that order. Lists and maps
// are shared, immutable-while-shared nodes: copying a Value is cheap, and a
// write through a non-const accessor first copies the node if another Value
// still refers to it (copy-on-write). Values are not synchronized: one
// Value object must not be written by one thread while another uses it.
//
// The total order is the one sigs.k8s.io/structured-merge-diff uses to sort
// set items and associative keys (value.Compare): numbers (ints and floats
// compared numerically) < strings < booleans < lists < maps < null. Lists
// compare lexicographically; maps compare key by key in sorted key order.
//
// Example:
//   smdx::Value v = smdx::Value::MakeMap();
//   v.map().Set("replicas", smdx::Value(int64_t{3}));
//   const smdx::Value* r = v.map().Find("replicas");  // r->AsInt() == 3
#ifndef SMDX_VALUE_VALUE_H_
#define SMDX_VALUE_VALUE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/strings/string_view.h"
#include "smdx/value/node_allocator.h"
#include "smdx/value/same_bytes.h"

namespace smdx {

class Value;
struct MapEntry;

// List is an ordered sequence of values.
using List = std::vector<Value>;

// Map is a string-keyed mapping that remembers insertion order. Lookups are
// linear scans, which beats hashing for the small maps that make up
// Kubernetes objects; algorithms over large maps build their own index.
class Map {
 public:
  // Its entries' room comes from internal::NodeAllocator (blocks kept per
  // thread for the next maps).
  using Entries = std::vector<MapEntry, internal::NodeAllocator<MapEntry>>;

  Map() = default;

  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }

  // Returns the value stored under `key`, or nullptr.
  const Value* Find(absl::string_view key) const;
  Value* Find(absl::string_view key);

  // Sets `key` to `v`, replacing an existing value in place.
  void Set(absl::string_view key, Value v);
  // Appends without checking for an existing key. REQUIRES: key is absent.
  void Append(std::string key, Value v);
  // Removes `key`; returns whether it was present.
  bool Erase(absl::string_view key);

  Entries& entries() { return entries_; }
  const Entries& entries() const { return entries_; }
  void Reserve(size_t n) { entries_.reserve(n); }

  auto begin() const { return entries_.begin(); }
  auto end() const { return entries_.end(); }
  auto begin() { return entries_.begin(); }
  auto end() { return entries_.end(); }

 private:
  Entries entries_;
};

class Value {
 public:
  enum class Kind : uint8_t {
    kNull,
    kBool,
    kInt,
    kFloat,
    kString,
    kList,
    kMap
  };

  Value() = default;  // null
  explicit Value(bool b) : v_(b) {}
  explicit Value(int64_t i) : v_(i) {}
  explicit Value(int i) : v_(int64_t{i}) {}
  explicit Value(double d) : v_(d) {}
  explicit Value(std::string s) : v_(std::move(s)) {}
  explicit Value(absl::string_view s)
      : v_(std::in_place_type<std::string>, s.data(), s.size()) {}
  explicit Value(const char* s) : v_(std::in_place_type<std::string>, s) {}
  explicit Value(List l) : v_(NewNode<List>(std::move(l))) {}
  explicit Value(Map m) : v_(NewNode<Map>(std::move(m))) {}

  static Value MakeList() { return Value(List{}); }
  static Value MakeMap() { return Value(Map{}); }

  // Setting a value in place, for readers that build a tree node by node:
  // no temporary Value is made, moved from and destroyed. SetMap and
  // SetList make a new empty node and return it to be filled.
  // REQUIRES: `s` does not point into this value (what it held goes first).
  void SetNull() { v_.emplace<std::monostate>(); }
  void SetBool(bool b) { v_.emplace<bool>(b); }
  void SetInt(int64_t i) { v_.emplace<int64_t>(i); }
  void SetFloat(double d) { v_.emplace<double>(d); }
  void SetString(absl::string_view s) {
    // Made empty in place and then filled: emplaced from bytes (which may
    // throw), a string is made in a temporary variant and moved in.
    internal::SetBytes(&v_.emplace<std::string>(), s.data(), s.size());
  }
  // The string itself, moved in.
  void TakeString(std::string&& s) { v_.emplace<std::string>(std::move(s)); }
  Map& SetMap() { return *v_.emplace<kMapIndex>(NewNode<Map>()); }
  List& SetList() { return *v_.emplace<kListIndex>(NewNode<List>()); }

  Kind kind() const { return static_cast<Kind>(v_.index()); }
  bool IsNull() const { return kind() == Kind::kNull; }
  bool IsBool() const { return kind() == Kind::kBool; }
  bool IsInt() const { return kind() == Kind::kInt; }
  bool IsFloat() const { return kind() == Kind::kFloat; }
  bool IsNumber() const { return IsInt() || IsFloat(); }
  bool IsString() const { return kind() == Kind::kString; }
  bool IsList() const { return kind() == Kind::kList; }
  bool IsMap() const { return kind() == Kind::kMap; }
  bool IsScalar() const { return !IsList() && !IsMap() && !IsNull(); }

  // Accessors. REQUIRES: the value has that kind.
  bool AsBool() const { return std::get<bool>(v_); }
  int64_t AsInt() const { return std::get<int64_t>(v_); }
  double AsFloat() const { return std::get<double>(v_); }
  // Int or float as a double. REQUIRES: IsNumber().
  double AsNumber() const {
    return IsInt() ? static_cast<double>(AsInt()) : AsFloat();
  }
  const std::string& AsString() const { return std::get<std::string>(v_); }
  const List& list() const { return *std::get<kListIndex>(v_); }
  const Map& map() const { return *std::get<kMapIndex>(v_); }
  // Mutable access unshares the node first (copy-on-write): lists and maps
  // are shared between copies of a Value until one of them is written.
  List& list() { return Unshare<List, kListIndex>(); }
  Map& map() { return Unshare<Map, kMapIndex>(); }

  // Whether this is a list or map whose node no other Value shares: writes
  // through list() and map() then change it in place instead of copying it.
  bool OwnsNode() const {
    if (IsList()) return std::get<kListIndex>(v_).use_count() == 1;
    if (IsMap()) return std::get<kMapIndex>(v_).use_count() == 1;
    return false;
  }

  // Whether `a` and `b` are the same list or map node (then they are equal
  // without looking inside).
  friend bool SameNode(const Value& a, const Value& b) {
    if (a.v_.index() != b.v_.index()) return false;
    if (a.IsList())
      return std::get<kListIndex>(a.v_) == std::get<kListIndex>(b.v_);
    if (a.IsMap())
      return std::get<kMapIndex>(a.v_) == std::get<kMapIndex>(b.v_);
    return false;
  }

  // Number of nodes in the tree (for budgets and tests).
  size_t NodeCount() const;

 private:
  static constexpr size_t kListIndex = 5;
  static constexpr size_t kMapIndex = 6;
  // A list or map node, with its count, in one block of NodeAllocator's.
  template <typename T, typename... Args>
  static std::shared_ptr<T> NewNode(Args&&... args) {
    return std::allocate_shared<T>(internal::NodeAllocator<T>(),
                                   std::forward<Args>(args)...);
  }
  template <typename T, size_t I>
  T& Unshare() {
    std::shared_ptr<T>& p = std::get<I>(v_);
    if (p.use_count() > 1) p = NewNode<T>(*p);
    return *p;
  }

  std::variant<std::monostate, bool, int64_t, double, std::string,
               std::shared_ptr<List>, std::shared_ptr<Map>>
      v_;
};

struct MapEntry {
  std::string key;
  Value value;
};

// Deep equality with SMD's rules: ints and floats equal when numerically
// equal, map key order ignored, null distinct from absent and from empty.
bool Equals(const Value& a, const Value& b);
// Equality to the letter: kinds (an int is not a float), floats by value
// and sign (NaN is NaN, -0 is not 0), list items and map entries in order.
// Identical values are interchangeable in a result, where Equals-equal ones
// are not (the result would not hold what was written).
bool Identical(const Value& a, const Value& b);
inline bool operator==(const Value& a, const Value& b) { return Equals(a, b); }
inline bool operator!=(const Value& a, const Value& b) { return !Equals(a, b); }

// Three-way comparison in SMD's total order (see the file comment).
int Compare(const Value& a, const Value& b);

// The kind name used in error messages ("map", "list", "string", ...).
absl::string_view KindName(Value::Kind k);

// Reading documents whose shape is not known yet (manifests, schemas,
// cases): the entry `key` of `v` when `v` is a map, else nullptr.
const Value* Find(const Value& v, absl::string_view key);
// The entry `key` of `v` when it is a string, else nullptr.
const std::string* FindString(const Value& v, absl::string_view key);
// The entry `key` of `v` when it is a string, else "".
std::string StringAt(const Value& v, absl::string_view key);

namespace internal {

// Equals, for walks that go on below two values that differ: where false,
// `where` receives the positions that lead from `a` to the first
// difference found, innermost first (a map entry by its index in `a`'s
// entries, a list item by its index); nothing past a node whose kinds or
// sizes differ. Everything before each position is equal.
bool EqualsNoting(const Value& a, const Value& b, std::vector<uint32_t>* where);

// One empty map node, made at the first Get and handed out again and
// again: values are copy-on-write, so the empty maps a reader or writer
// makes by the hundred (fieldsV1 holds one per leaf) can share it, and a
// writer unshares it. Not thread-safe: one per thread, or per call.
class SharedEmptyMap {
 public:
  Value Get() {
    if (node_.IsNull()) node_ = Value::MakeMap();
    return node_;
  }

 private:
  Value node_;
};

}  // namespace internal
}  // namespace smdx

#endif  // SMDX_VALUE_VALUE_H_
