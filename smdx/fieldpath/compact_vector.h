// CompactVector: the storage of a set node's entries. A vector that is one
// pointer wide (null when empty), with its size and capacity in the block
// it points to. Set entries hold a node each, most of them empty (leaves),
// so the node's width is paid once per path element in every set.
//
// Blocks are shared between copies and counted (atomically: sets are read
// from many threads); writing through a vector unshares its block first.
//
// Internal to fieldpath/; only the operations sets need.
#ifndef SMDX_FIELDPATH_COMPACT_VECTOR_H_
#define SMDX_FIELDPATH_COMPACT_VECTOR_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <utility>

#include "smdx/value/node_allocator.h"

namespace smdx {
namespace internal {

// A node's block of up to NodeSlabs::kMaxBytes is cut from the thread's
// slab (value/node_allocator.h), as values' nodes are: sets build and drop
// nodes by the thousand (every decoded managedFields entry, every result
// of a set operation), and a set's nodes then lie in the order they were
// made.
//
// Bigger blocks come from operator new, but one, the last freed of 64 KiB
// to 4 MiB, is kept per thread (BigBlock), for the node of a list of
// thousands of items that the next operation builds again. Given back to
// malloc, a block that size can free the top of the heap, which glibc then
// trims and the next operation faults in again page by page: in the order
// shared nodes are freed, applying a list of 10,000 items onto nothing
// took 40% longer for that alone (the same instructions, 30 times the page
// faults).
//
// Off under AddressSanitizer, so that it still sees every block's lifetime.
template <typename T>
class BigBlock {
 public:
  static constexpr size_t kMinBig = (size_t{64} << 10) / sizeof(T);
  static constexpr size_t kMaxBig = (size_t{4} << 20) / sizeof(T);

  // A block for at least `capacity` elements, or null; `*got` is how many
  // it holds.
  static void* Take(size_t capacity, size_t* got) {
    *got = capacity;
    if (!kEnabled || state_ == kDead || capacity < kMinBig) return nullptr;
    // The kept block, when it fits without wasting more than half.
    BigBlock& c = Get();
    if (c.block_ == nullptr || c.capacity_ < capacity ||
        c.capacity_ / 2 > capacity) {
      return nullptr;
    }
    *got = c.capacity_;
    return std::exchange(c.block_, nullptr);
  }
  // Keeps `block` (of `capacity` elements) in place of the one kept
  // before; false when it is not kept.
  static bool Give(void* block, size_t capacity) {
    if (!kEnabled || state_ == kDead || capacity < kMinBig ||
        capacity > kMaxBig) {
      return false;
    }
    BigBlock& c = Get();
    ::operator delete(c.block_);
    c.block_ = block;
    c.capacity_ = capacity;
    return true;
  }

 private:
  static constexpr bool kEnabled = kKeepFreedBlocks;

  BigBlock() { state_ = kAlive; }
  ~BigBlock() {
    // Blocks freed after this (by objects the thread destroys later) go
    // straight back to the allocator.
    state_ = kDead;
    ::operator delete(block_);
  }
  static BigBlock& Get() {
    thread_local BigBlock kept;
    return kept;
  }

  void* block_ = nullptr;
  size_t capacity_ = 0;
  // This thread's block: not built yet (Get builds it), in use, or
  // destroyed at thread exit (and not to be touched again).
  enum State : uint8_t { kUnborn, kAlive, kDead };
  static thread_local State state_;
};

template <typename T>
thread_local typename BigBlock<T>::State BigBlock<T>::state_ =
    BigBlock<T>::kUnborn;

template <typename T>
class CompactVector {
 public:
  CompactVector() = default;
  // A copy shares the block: one count more. Nodes below a set's entries
  // are copied whole by unions, differences and intersections wherever the
  // other side has nothing there; sharing makes that one increment for a
  // subtree instead of a copy of it. A writer unshares first (Unique).
  CompactVector(const CompactVector& o) noexcept : bits_(o.bits_ & kBlock) {
    if (Header* h = head()) h->refs.fetch_add(1, std::memory_order_relaxed);
  }
  CompactVector(CompactVector&& o) noexcept : bits_(o.bits_ & kBlock) {
    o.bits_ &= kFlag;
  }
  CompactVector& operator=(const CompactVector& o) noexcept {
    if (head() != o.head()) {
      CompactVector copy(o);
      SwapBlocks(&copy);
    }
    return *this;
  }
  CompactVector& operator=(CompactVector&& o) noexcept {
    if (this != &o) {
      if (head() != nullptr) Release();
      bits_ = (bits_ & kFlag) | (o.bits_ & kBlock);
      o.bits_ &= kFlag;
    }
    return *this;
  }
  // The check inline, the release out of line: most vectors of set entries
  // are empty (the nodes below leaves), and a call per entry cost more
  // than the rest of destroying a set.
  ~CompactVector() {
    if (head() != nullptr) Release();
  }

  // A bit of the vector's own, not of its elements: blocks are aligned, so
  // the pointer's lowest bit is free. It stays with the vector's place:
  // copies and moves neither carry it nor change it, and only bytes that
  // move (append_relocated) take it along. A set entry keeps its `member`
  // there, which makes it 24 bytes instead of 32.
  bool flag() const { return (bits_ & kFlag) != 0; }
  void set_flag(bool on) { bits_ = (bits_ & kBlock) | (on ? kFlag : 0); }

  size_t size() const {
    const Header* h = head();
    return h == nullptr ? 0 : h->size;
  }
  bool empty() const { return size() == 0; }
  size_t capacity() const {
    const Header* h = head();
    return h == nullptr ? 0 : h->capacity;
  }
  // Whether `o` shares this vector's block (then the two are equal).
  bool SharesWith(const CompactVector& o) const {
    return head() != nullptr && head() == o.head();
  }

  // Read access.
  const T* data() const {
    const Header* h = head();
    return h == nullptr ? nullptr : Elements(h);
  }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size(); }
  const T& operator[](size_t i) const { return data()[i]; }
  const T& back() const { return data()[size() - 1]; }

  // Write access: the block is unshared first. A pointer or reference
  // from here is good until this vector is copied or changed in size.
  T* data() {
    Unique();
    Header* h = head();
    return h == nullptr ? nullptr : Elements(h);
  }
  T* begin() { return data(); }
  T* end() { return data() + size(); }
  T& operator[](size_t i) { return data()[i]; }
  T& back() { return data()[size() - 1]; }

  void reserve(size_t n) {
    Unique();
    if (n > capacity()) Grow(n);
  }

  template <typename... Args>
  T& emplace_back(Args&&... args) {
    Unique();
    if (size() == capacity()) Grow(NextCapacity());
    Header* h = head();
    T* p = new (Elements(h) + h->size) T(std::forward<Args>(args)...);
    ++h->size;
    return *p;
  }

  // Inserts before position `i` (at most size()); returns the new element.
  template <typename... Args>
  T& emplace_at(size_t i, Args&&... args) {
    // Built first: the arguments may refer to elements that move below.
    T x(std::forward<Args>(args)...);
    Unique();
    if (size() == capacity()) Grow(NextCapacity());
    Header* h = head();
    T* d = Elements(h);
    const size_t n = h->size;
    if (i == n) {
      new (d + n) T(std::move(x));
    } else {
      new (d + n) T(std::move(d[n - 1]));
      for (size_t j = n - 1; j > i; --j) d[j] = std::move(d[j - 1]);
      d[i] = std::move(x);
    }
    ++h->size;
    return d[i];
  }

  // Appends the `n` elements at `from` by copying their bytes, with one
  // exactly sized allocation: the elements are then this vector's, and the
  // caller forgets them (neither uses nor destroys them).
  // REQUIRES: T's bytes may move (nothing points into a T, and T points
  // into no other), as for set entries.
  void append_relocated(T* from, size_t n) {
    if (n == 0) return;
    if (head() == nullptr) {
      // A reader's new node, mostly: one block, sized exactly.
      Header* h = Allocate(n);
      std::memcpy(static_cast<void*>(Elements(h)),
                  static_cast<const void*>(from), n * sizeof(T));
      h->size = n;
      set_head(h);
      return;
    }
    Unique();
    const size_t size = this->size();
    if (size + n > capacity()) Grow(size + n);
    Header* h = head();
    std::memcpy(static_cast<void*>(Elements(h) + size),
                static_cast<const void*>(from), n * sizeof(T));
    h->size = size + n;
  }

  void pop_back() {
    Unique();
    Header* h = head();
    --h->size;
    Elements(h)[h->size].~T();
  }
  // Destroys the elements from position `n` on.
  void truncate(size_t n) {
    if (size() <= n) return;
    Unique();
    Header* h = head();
    while (h->size > n) {
      --h->size;
      Elements(h)[h->size].~T();
    }
  }

 private:
  struct Header {
    std::atomic<uint32_t> refs;
    uint32_t capacity;
    size_t size;
  };

  static constexpr uintptr_t kFlag = 1;
  static constexpr uintptr_t kBlock = ~kFlag;

  Header* head() const { return reinterpret_cast<Header*>(bits_ & kBlock); }
  void set_head(Header* h) {
    bits_ = reinterpret_cast<uintptr_t>(h) | (bits_ & kFlag);
  }
  void SwapBlocks(CompactVector* o) {
    Header* mine = head();
    set_head(o->head());
    o->set_head(mine);
  }

  static T* Elements(Header* h) { return reinterpret_cast<T*>(h + 1); }
  static const T* Elements(const Header* h) {
    return reinterpret_cast<const T*>(h + 1);
  }
  static size_t Bytes(size_t capacity) {
    return sizeof(Header) + capacity * sizeof(T);
  }
  static Header* Allocate(size_t capacity) {
    static_assert(
        alignof(T) <= alignof(Header) && sizeof(Header) % alignof(T) == 0,
        "elements follow the header");
    static_assert(alignof(Header) > kFlag, "the flag bit is free");
    void* mem;
    if (Bytes(capacity) <= NodeSlabs::kMaxBytes) {
      mem = NodeSlabs::Allocate(Bytes(capacity));
    } else {
      mem = BigBlock<T>::Take(capacity, &capacity);
      if (mem == nullptr) mem = ::operator new(Bytes(capacity));
    }
    Header* h = new (mem) Header;
    h->refs.store(1, std::memory_order_relaxed);
    h->capacity = static_cast<uint32_t>(capacity);
    h->size = 0;
    return h;
  }
  static void Free(Header* h) {
    const size_t capacity = h->capacity;
    h->~Header();
    if (Bytes(capacity) <= NodeSlabs::kMaxBytes) {
      NodeSlabs::Deallocate(h, Bytes(capacity));
    } else if (!BigBlock<T>::Give(h, capacity)) {
      ::operator delete(h);
    }
  }
  size_t NextCapacity() const { return capacity() == 0 ? 1 : 2 * capacity(); }
  // REQUIRES: the block, if any, is not shared.
  __attribute__((noinline)) void Grow(size_t capacity) {
    Header* bigger = Allocate(capacity);
    const size_t n = size();
    if (n != 0) {
      T* from = Elements(head());
      for (size_t i = 0; i < n; ++i) {
        new (Elements(bigger) + i) T(std::move(from[i]));
        from[i].~T();
      }
    }
    bigger->size = n;
    if (head() != nullptr) Free(head());
    set_head(bigger);
  }
  // Makes the block this vector's alone: a shared one is copied (its
  // elements' own blocks are shared by the copies).
  void Unique() {
    const Header* h = head();
    if (h != nullptr && h->refs.load(std::memory_order_acquire) != 1)
      Unshare();
  }
  // Out of line: every write checks for sharing, few find it, and the
  // writers (emplace_back above all) must stay small enough to inline.
  __attribute__((noinline)) void Unshare() {
    const size_t n = head()->size;
    if (n == 0) {
      Release();
      return;
    }
    Header* mine = Allocate(n);
    const T* from = Elements(head());
    for (size_t i = 0; i < n; ++i) new (Elements(mine) + i) T(from[i]);
    mine->size = n;
    Release();
    set_head(mine);
  }
  // Drops this vector's count; the last one destroys the elements.
  // REQUIRES: the block is not null.
  void Release() {
    Header* h = head();
    bits_ &= kFlag;
    // A count of one is this vector's alone: no other can raise it.
    if (h->refs.load(std::memory_order_acquire) != 1 &&
        h->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) {
      return;
    }
    T* d = Elements(h);
    for (size_t i = 0, n = h->size; i < n; ++i) d[i].~T();
    Free(h);
  }

  // The block's address (null when empty), and the flag in bit 0.
  uintptr_t bits_ = 0;
};

}  // namespace internal
}  // namespace smdx

#endif  // SMDX_FIELDPATH_COMPACT_VECTOR_H_
