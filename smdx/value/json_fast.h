// A fast reader for the JSON documents ParseJson accepts.
//
// ParseJson (value/parse.h) first tries this reader: one pass over the
// bytes, building the Value directly. It accepts exactly the documents that
// the full parser (nlohmann's, in value/parse.cc) accepts without error and
// builds the same Value for them; for anything else — a syntax error, a
// duplicate key, a number out of range, nesting deeper than it handles, a
// byte order mark — it declines, and the full parser runs and produces the
// error message. Declining is always safe; the reader never reports errors
// of its own.
//
// Internal to the value/ readers; not part of the API.
#ifndef SMDX_VALUE_JSON_FAST_H_
#define SMDX_VALUE_JSON_FAST_H_

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/strings/string_view.h"
#include "smdx/value/internal/thread_lease.h"
#include "smdx/value/limits.h"
#include "smdx/value/value.h"

namespace smdx {
namespace internal {

// The deepest nesting the fast reader handles itself (it recurses); deeper
// documents go to the full parser, which has no recursion.
inline constexpr int kFastJsonMaxDepth = 200;

// Parses one JSON document, or returns nullopt when the full parser must
// decide (see the file comment).
// Declines documents over `limits` too: the full parser reports them.
std::optional<Value> FastParseJson(absl::string_view text,
                                   const Limits& limits);

// Reads the JSON string at `text[*pos]` (its opening quote) into `*out`,
// escapes decoded, and moves `*pos` past its closing quote. False for a
// malformed string (bad escape, control character, invalid UTF-8).
bool ReadJsonString(absl::string_view text, size_t* pos, std::string* out);

// Scratch space for the fast readers (this one and value/yaml_fast.h),
// which build lists and maps whose sizes are unknown until they end.
// Children collect on two stacks shared by all open containers (containers
// nest, so their children form a stack) and move into an exactly-sized
// List or Map when the container ends: one allocation per container instead
// of a vector growing by doubling.
class ContainerStack {
 public:
  // Room for the children of a manifest, as the readers ask for it.
  static constexpr size_t kInitialCapacity = 64;
  // Room a thread keeps between reads.
  static constexpr size_t kKeptCapacity = 1024;

  ContainerStack() : ContainerStack(kInitialCapacity) {}
  // `capacity`: how many open children to make room for at once (small
  // documents fit in the stacks' inline space and allocate nothing).
  explicit ContainerStack(size_t capacity) {
    items_.reserve(capacity);
    entries_.reserve(capacity);
  }

  // Removes every child, keeping the room for them.
  void Clear() {
    items_.erase(items_.begin(), items_.end());
    entries_.erase(entries_.begin(), entries_.end());
  }
  // Room for how many children it holds now.
  size_t Capacity() const {
    return std::max(items_.capacity(), entries_.capacity());
  }
  // For ThreadLease: emptied, and room beyond kKeptCapacity given back.
  void AfterRead() {
    Clear();
    if (Capacity() > kKeptCapacity) *this = ContainerStack();
  }

  size_t ListStart() const { return items_.size(); }
  void PushItem(Value&& v) { items_.push_back(std::move(v)); }
  // Moves the items pushed since `start` into a list. Returns false if
  // there are more than `max_items`.
  bool FinishList(size_t start, size_t max_items, Value* out);

  size_t MapStart() const { return entries_.size(); }
  // Adds an entry (with an empty key and a null value) to the innermost map
  // and returns its index: keys are read straight into KeyAt(index).
  // Indices stay valid while containers nest; references do not.
  size_t StartEntry() {
    entries_.emplace_back();
    return entries_.size() - 1;
  }
  // Removes the entry StartEntry just added.
  void CancelEntry() { entries_.pop_back(); }
  std::string& KeyAt(size_t index) { return entries_[index].key; }
  void SetValue(size_t index, Value&& v) {
    entries_[index].value = std::move(v);
  }
  // The value of the entry at `index`, to read a scalar into: valid until
  // the next entry is added.
  Value& ValueAt(size_t index) { return entries_[index].value; }
  // Moves the entries added since `start` into a map, in order. Returns
  // false if two of them have the same key.
  bool FinishMap(size_t start, Value* out);
  // An empty map: one node for every empty map this stack's reads give,
  // where each would be an allocation (fieldsV1 holds one per leaf).
  // Values are copy-on-write, so a writer unshares it.
  Value EmptyMap() { return empty_map_.Get(); }

 private:
  absl::InlinedVector<Value, 8> items_;
  absl::InlinedVector<MapEntry, 8> entries_;
  SharedEmptyMap empty_map_;
};

// A ContainerStack for one read: the thread's (see ThreadLease), or a
// fresh one when the thread's is lent or `capacity` is 0.
class ContainerStackLease {
 public:
  explicit ContainerStackLease(size_t capacity)
      : lease_(capacity != 0, capacity) {}

  ContainerStack& stack() { return lease_.space(); }

 private:
  ThreadLease<ContainerStack> lease_;
};

}  // namespace internal
}  // namespace smdx

#endif  // SMDX_VALUE_JSON_FAST_H_
