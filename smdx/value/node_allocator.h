// NodeAllocator: the allocator of the blocks a value's maps and lists are
// made of (their shared nodes, a map's entries), and of the small blocks of
// fieldpath/ (set nodes; names, keys and values of path elements).
//
// A parse makes a block or two per map and frees them all when the value
// goes; the next parse makes them again. malloc's per-thread cache keeps
// seven blocks of a size, so an object of a thousand maps sends most of its
// blocks through malloc's slower bins: a parse of one (the
// apiresourceimport CR of bench/) spent a quarter of its time there.
//
// Here each thread cuts its blocks, one after the other, from a slab of
// kSlabBytes of its own (NodeSlabs), so a value's nodes lie in the order
// they were made, which is the order a walk visits them in. A block the
// thread frees while it still cuts from the block's slab goes on a list by
// size and is made again before the slab's free room; when all of the
// slab's blocks are free, the slab starts over. (Lists of freed blocks
// over the whole heap, tried before this, scattered the next value's nodes,
// and walks over big values got slower.)
//
// A slab counts its blocks in use. A block freed later, or on another
// thread, takes one off with a locked instruction (one for each run of
// blocks of the same slab that a thread frees); the block that takes the
// count to zero, on whatever thread, frees the slab. That thread keeps
// it for its next slabs (up to kKeptSlabs) or gives it to the process's
// list, for any thread.
//
// The price is memory: a slab is free only when every block in it is, so
// a few long-lived nodes among many short-lived ones keep their slabs; a
// thread holds back the slab of its last run of blocks freed until it
// frees a block of another or exits (one slab at most); and slabs are not
// given back to malloc (see kChunkSlabs).
//
// Off under AddressSanitizer, so that it still sees every block's lifetime.
//
// In namespace internal: the storage behind Value, not an API of its own.
#ifndef SMDX_VALUE_NODE_ALLOCATOR_H_
#define SMDX_VALUE_NODE_ALLOCATOR_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>

namespace smdx {
namespace internal {

// Whether the per-thread caches of freed blocks (NodeSlabs here, BigBlock
// of fieldpath/) keep any: not under AddressSanitizer, so that it still
// sees every block's lifetime.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kKeepFreedBlocks = false;
#else
inline constexpr bool kKeepFreedBlocks = true;
#endif

class NodeSlabs {
 public:
  static constexpr size_t kSlabBytes = size_t{64} << 10;
  // Bigger blocks come from operator new.
  static constexpr size_t kMaxBytes = 4096;
  // Free slabs a thread keeps for its next ones. The rest go to a list of
  // the process's, to be taken by any thread.
  static constexpr size_t kKeptSlabs = 16;
  // Slabs are made kChunkSlabs at a time, and never given back to malloc:
  // made one by one, each of them (64 KiB aligned to 64 KiB) went to the
  // kernel and back. The process's list keeps the memory of kHotSlabs
  // slabs; of slabs beyond those it gives the pages back (madvise) and
  // keeps the addresses.
  static constexpr size_t kChunkSlabs = 16;
  static constexpr size_t kHotSlabs = 512;

  static void* Allocate(size_t bytes) {
    if (!kEnabled || bytes > kMaxBytes) return ::operator new(bytes);
    const size_t c = Class(bytes);
    Thread& t = thread_;
    if (FreeBlock* f = t.lists[c]) {
      t.lists[c] = f->next;
      ++t.made;
      return f;
    }
    const size_t rounded = ClassBytes(c);
    if (rounded <= static_cast<size_t>(t.end - t.next)) {
      void* p = t.next;
      t.next += rounded;
      ++t.made;
      return p;
    }
    return AllocateSlow(rounded);
  }

  static void Deallocate(void* p, size_t bytes) {
    if (!kEnabled || bytes > kMaxBytes) {
      ::operator delete(p);
      return;
    }
    Slab* s = reinterpret_cast<Slab*>(reinterpret_cast<uintptr_t>(p) &
                                      ~(uintptr_t{kSlabBytes} - 1));
    Thread& t = thread_;
    if (s != t.slab) {
      // A block of another slab: counted off with the blocks of the same
      // slab freed next, in one locked instruction for the run of them (a
      // set or value destroyed frees its blocks slab by slab).
      if (s == t.pending) {
        ++t.pending_n;
        return;
      }
      FreeElsewhere(s);
      return;
    }
    // A block of the slab this thread cuts from, so made here: counted
    // without a locked instruction, and made again in the same slab. When
    // every block made in it is free, blocks are cut from its start again.
    if (++t.freed == t.made) {
      t.next = reinterpret_cast<char*>(s + 1);
      t.made = t.freed = 0;
      ForgetFreeBlocks(t);
      return;
    }
    const size_t c = Class(bytes);
    t.lists[c] = new (p) FreeBlock{t.lists[c]};
    t.listed[c / 64] |= uint64_t{1} << (c % 64);
  }

  // The free slabs this thread keeps (at most kKeptSlabs).
  static size_t Kept() { return kEnabled ? thread_.kept : 0; }
  // Slabs that hold blocks or that a thread keeps, over all threads.
  static size_t SlabsInUse();

 private:
  static constexpr bool kEnabled = kKeepFreedBlocks;
  static constexpr size_t kAlign = 16;
  // Blocks are made in whole steps, so that a block of a class fits any
  // request of it: kAlign up to kSmallBytes (the nodes, small maps'
  // entries), kBigStep above (the entries of maps of 15 to 56).
  static constexpr size_t kSmallBytes = 1024;
  static constexpr size_t kBigStep = 256;
  static constexpr size_t kSmallClasses = kSmallBytes / kAlign;
  static constexpr size_t kClasses =
      kSmallClasses + (kMaxBytes - kSmallBytes) / kBigStep;
  static_assert(kClasses <= 128, "Thread::listed has a bit per class");
  static size_t Class(size_t bytes) {
    if (bytes <= kSmallBytes) return bytes == 0 ? 0 : (bytes - 1) / kAlign;
    return kSmallClasses + (bytes - kSmallBytes - 1) / kBigStep;
  }
  static size_t ClassBytes(size_t c) {
    return c < kSmallClasses ? (c + 1) * kAlign
                             : kSmallBytes + (c - kSmallClasses + 1) * kBigStep;
  }
  // The count of a slab a thread still cuts from: so big that frees from
  // other threads never take it to zero. The thread counts its own frees
  // of the slab's blocks apart (Thread::freed), and takes the rest off when
  // it moves on to another slab: kBias less the blocks still in use.
  static constexpr int64_t kBias = int64_t{1} << 40;

  struct alignas(kAlign) Slab {
    std::atomic<int64_t> live;
    Slab* next_free;  // in the list of the slabs a thread keeps
  };
  struct FreeBlock {
    FreeBlock* next;
  };
  // What a thread cuts from. Trivial, so that a thread's first use needs
  // no guard; Reaper frees what is left at thread exit.
  struct Thread {
    char* next;
    char* end;
    Slab* slab;
    int64_t made;   // blocks made from `slab`, again or not
    int64_t freed;  // of them, freed by this thread
    // Blocks of `slab` this thread freed, by class, to be made again;
    // `listed` has the bit of every class that may have any.
    FreeBlock* lists[kClasses];
    uint64_t listed[2];
    // The slab, not `slab`, of the last blocks this thread freed, and how
    // many it has not yet counted off (a slab with uncounted blocks is not
    // free, so it cannot come back as `slab` meanwhile).
    Slab* pending;
    int64_t pending_n;
    Slab* free;
    size_t kept;
    enum State : uint8_t { kUnborn, kAlive, kDead } state;
  };
  struct Reaper {
    ~Reaper();
  };

  static void* AllocateSlow(size_t rounded);
  // Counts off the pending blocks and makes `s` the pending slab.
  static void FreeElsewhere(Slab* s);
  // Empties the lists of free blocks (when `slab` changes or starts over).
  static void ForgetFreeBlocks(Thread& t) {
    for (size_t w = 0; w < 2; ++w) {
      for (uint64_t m = t.listed[w]; m != 0; m &= m - 1) {
        t.lists[w * 64 + static_cast<size_t>(__builtin_ctzll(m))] = nullptr;
      }
      t.listed[w] = 0;
    }
  }
  static void Release(Slab* s, int64_t n) {
    if (s->live.fetch_sub(n, std::memory_order_acq_rel) == n) Recycle(s);
  }
  static void Recycle(Slab* s);
  // The process's list of free slabs.
  static Slab* NewSlab();
  static void FreeSlab(Slab* s);
  static void Start(Thread& t);

  static inline thread_local Thread thread_{};
};

template <typename T>
struct NodeAllocator {
  using value_type = T;

  NodeAllocator() = default;
  template <typename U>
  NodeAllocator(const NodeAllocator<U>&) noexcept {}  // NOLINT: rebinding

  T* allocate(size_t n) {
    return static_cast<T*>(NodeSlabs::Allocate(n * sizeof(T)));
  }
  void deallocate(T* p, size_t n) noexcept {
    NodeSlabs::Deallocate(p, n * sizeof(T));
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
