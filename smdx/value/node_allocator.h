// NodeAllocator: the allocator of the blocks a value's maps and lists are
// made of (their shared nodes, a map's entries), with freed blocks kept per
// thread for the next ones.
//
// A parse makes a block or two per map and frees them all when the value
// goes; the next parse makes them again. malloc's per-thread cache keeps
// seven blocks of a size, so an object of a thousand maps sends most of its
// blocks through malloc's slower bins, and a parse of one (the
// apiresourceimport CR of bench/) spent a quarter of its time there.
// Here freed blocks go on per-thread lists by size (16-byte steps up to
// kMaxBytes), up to kKeptBytes a thread; the rest go back to malloc.
// A block freed by another thread than the one that made it joins that
// thread's lists.
//
// Off under AddressSanitizer, so that it still sees every block's lifetime.
//
// In namespace internal: the storage behind Value, not an API of its own.
#ifndef SMDX_VALUE_NODE_ALLOCATOR_H_
#define SMDX_VALUE_NODE_ALLOCATOR_H_

#include <cstddef>
#include <cstdint>
#include <new>

namespace smdx {
namespace internal {

// Whether the per-thread caches of freed blocks (NodeBlocks here,
// BlockCache of fieldpath/) keep any: not under AddressSanitizer, so that
// it still sees every block's lifetime.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kKeepFreedBlocks = false;
#else
inline constexpr bool kKeepFreedBlocks = true;
#endif

class NodeBlocks {
 public:
  static constexpr size_t kStep = 16;
  static constexpr size_t kMaxBytes = 1024;
  static constexpr size_t kKeptBytes = size_t{1} << 20;

  static void* Allocate(size_t bytes) {
    if (kEnabled && bytes <= kMaxBytes && state_ != kDead) {
      NodeBlocks& b = Get();
      Free*& head = b.lists_[Class(bytes)];
      if (head != nullptr) {
        Free* f = head;
        head = f->next;
        b.kept_ -= Rounded(bytes);
        return f;
      }
      return ::operator new(Rounded(bytes));
    }
    return ::operator new(bytes);
  }
  // The bytes of freed blocks this thread keeps (at most kKeptBytes).
  static size_t Kept() {
    return kEnabled && state_ == kAlive ? Get().kept_ : 0;
  }

  static void Deallocate(void* p, size_t bytes) {
    if (kEnabled && bytes <= kMaxBytes && state_ != kDead) {
      NodeBlocks& b = Get();
      if (b.kept_ + Rounded(bytes) <= kKeptBytes) {
        Free*& head = b.lists_[Class(bytes)];
        head = new (p) Free{head};
        b.kept_ += Rounded(bytes);
        return;
      }
    }
    ::operator delete(p);
  }

 private:
  static constexpr bool kEnabled = kKeepFreedBlocks;
  struct Free {
    Free* next;
  };
  // Blocks of up to kMaxBytes are made in whole steps, so that any block
  // of a class fits any request of it.
  static size_t Class(size_t bytes) { return (bytes + kStep - 1) / kStep; }
  static size_t Rounded(size_t bytes) { return Class(bytes) * kStep; }

  NodeBlocks() { state_ = kAlive; }
  ~NodeBlocks() {
    // Blocks freed after this (by values the thread destroys later) go
    // straight back to malloc.
    state_ = kDead;
    for (Free* head : lists_) {
      while (head != nullptr) {
        Free* next = head->next;
        ::operator delete(head);
        head = next;
      }
    }
  }
  static NodeBlocks& Get() {
    thread_local NodeBlocks blocks;
    return blocks;
  }

  Free* lists_[kMaxBytes / kStep + 1] = {};
  size_t kept_ = 0;
  // This thread's lists: not built yet (Get builds them), in use, or
  // destroyed at thread exit (and not to be touched again).
  enum State : uint8_t { kUnborn, kAlive, kDead };
  static inline thread_local State state_ = kUnborn;
};

template <typename T>
struct NodeAllocator {
  using value_type = T;

  NodeAllocator() = default;
  template <typename U>
  NodeAllocator(const NodeAllocator<U>&) noexcept {}  // NOLINT: rebinding

  T* allocate(size_t n) {
    return static_cast<T*>(NodeBlocks::Allocate(n * sizeof(T)));
  }
  void deallocate(T* p, size_t n) noexcept {
    NodeBlocks::Deallocate(p, n * sizeof(T));
  }

  template <typename U>
  bool operator==(const NodeAllocator<U>&) const noexcept {
    return true;
  }
  template <typename U>
  bool operator!=(const NodeAllocator<U>&) const noexcept {
    return false;
  }
};

}  // namespace internal
}  // namespace smdx

#endif  // SMDX_VALUE_NODE_ALLOCATOR_H_
