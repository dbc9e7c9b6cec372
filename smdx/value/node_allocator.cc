#include "smdx/value/node_allocator.h"

#include <pthread.h>
#include <sys/mman.h>

#include <cstdlib>
#include <mutex>

#include "absl/base/attributes.h"

namespace smdx {
namespace internal {

void* NodeSlabs::AllocateSlow(size_t rounded) {
  Thread& t = thread_;
  if (t.state == Thread::kDead) {
    // A value made after this thread's exit handlers ran: a slab for this
    // one block, freed with it.
    Slab* s = NewSlab();
    s->live.store(1, std::memory_order_relaxed);
    return s + 1;
  }
  if (t.state == Thread::kUnborn) Start(t);
  if (t.slab != nullptr) {
    Slab* done = t.slab;
    t.slab = nullptr;
    ForgetFreeBlocks(t);
    Release(done, kBias - (t.made - t.freed));
  }
  Slab* s = t.free;
  if (s != nullptr) {
    t.free = s->next_free;
    --t.kept;
  } else {
    s = NewSlab();
  }
  s->live.store(kBias, std::memory_order_relaxed);
  char* first = reinterpret_cast<char*>(s + 1);
  t.slab = s;
  t.made = 1;
  t.freed = 0;
  t.next = first + rounded;
  t.end = reinterpret_cast<char*>(s) + kSlabBytes;
  return first;
}

void NodeSlabs::FreeElsewhere(Slab* s) {
  Thread& t = thread_;
  Slab* const counted = t.pending;
  const int64_t n = t.pending_n;
  // Blocks left pending at the thread's exit are counted off then.
  if (t.state == Thread::kUnborn) Start(t);
  if (t.state == Thread::kAlive) {
    t.pending = s;
    t.pending_n = 1;
  } else {
    t.pending = nullptr;
    t.pending_n = 0;
    Release(s, 1);
  }
  if (counted != nullptr) Release(counted, n);
}

void NodeSlabs::Recycle(Slab* s) {
  Thread& t = thread_;
  if (t.state == Thread::kUnborn) Start(t);
  if (t.state == Thread::kAlive && t.kept < kKeptSlabs) {
    s->next_free = t.free;
    t.free = s;
    ++t.kept;
    return;
  }
  FreeSlab(s);
}

namespace {

// The process's free slabs. Taken and given on a thread's slow path only:
// once per kSlabBytes of blocks made, or freed.
//
// Constant-initialized, with no guard: a function-local static was made
// under a guard on the first thread to need it, and a fork() while that
// thread was in there left the child waiting on the guard for good (the
// registration of the fork handlers inside it waited on the fork).
struct Shared {
  std::mutex mu;
  // Room for every slab made, so that giving one back never allocates.
  void** free = nullptr;
  size_t free_count = 0;
  size_t made = 0;
};
ABSL_CONST_INIT Shared slabs;

// fork() copies only the thread that calls it: a child forked while
// another thread held the lock would wait for it forever. The lock is taken
// around every fork instead. Registered as the library loads, before any
// thread of it runs.
const int fork_handlers = pthread_atfork([] { slabs.mu.lock(); },
                                         [] { slabs.mu.unlock(); },
                                         [] { slabs.mu.unlock(); });

}  // namespace

NodeSlabs::Slab* NodeSlabs::NewSlab() {
  (void)fork_handlers;
  std::lock_guard<std::mutex> lock(slabs.mu);
  if (slabs.free_count == 0) {
    void** room = static_cast<void**>(
        std::realloc(slabs.free, (slabs.made + kChunkSlabs) * sizeof(void*)));
    if (room == nullptr) throw std::bad_alloc();
    slabs.free = room;
    char* chunk = static_cast<char*>(
        std::aligned_alloc(kSlabBytes, kSlabBytes * kChunkSlabs));
    if (chunk == nullptr) throw std::bad_alloc();
    slabs.made += kChunkSlabs;
    for (size_t i = kChunkSlabs; i-- > 0;) {
      slabs.free[slabs.free_count++] = chunk + i * kSlabBytes;
    }
  }
  return new (slabs.free[--slabs.free_count]) Slab{};
}

void NodeSlabs::FreeSlab(Slab* s) {
  s->~Slab();
  std::lock_guard<std::mutex> lock(slabs.mu);
  // Its pages go back to the kernel beyond kHotSlabs; the address stays.
  if (slabs.free_count >= kHotSlabs) madvise(s, kSlabBytes, MADV_DONTNEED);
  slabs.free[slabs.free_count++] = s;
}

size_t NodeSlabs::SlabsInUse() {
  std::lock_guard<std::mutex> lock(slabs.mu);
  return slabs.made - slabs.free_count;
}

void NodeSlabs::Start(Thread& t) {
  // Built at the thread's first slab; destroyed at its exit.
  thread_local Reaper reaper;
  (void)reaper;
  t.state = Thread::kAlive;
}

NodeSlabs::Reaper::~Reaper() {
  Thread& t = thread_;
  // Slabs freed from now on (by values the thread destroys later) go
  // straight back to malloc.
  t.state = Thread::kDead;
  t.next = t.end = nullptr;
  if (t.pending != nullptr) {
    Slab* counted = t.pending;
    t.pending = nullptr;
    Release(counted, t.pending_n);
  }
  if (t.slab != nullptr) {
    Slab* done = t.slab;
    t.slab = nullptr;
    ForgetFreeBlocks(t);
    Release(done, kBias - (t.made - t.freed));
  }
  while (t.free != nullptr) {
    Slab* s = t.free;
    t.free = s->next_free;
    FreeSlab(s);
  }
  t.kept = 0;
}

}  // namespace internal
}  // namespace smdx
