#include "smdx/value/node_allocator.h"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "smdx/value/value.h"

namespace smdx {
namespace {

using internal::kKeepFreedBlocks;
using internal::NodeSlabs;

// A value of `n` maps of three entries each, in a list.
Value ManyMaps(int n) {
  List l;
  for (int i = 0; i < n; ++i) {
    Map m;
    m.Set("name", Value(absl::StrCat("item-", i)));
    m.Set("port", Value(int64_t{i}));
    m.Set("labels", Value::MakeMap());
    l.push_back(Value(std::move(m)));
  }
  return Value(std::move(l));
}

bool SameSlab(const void* a, const void* b) {
  const uintptr_t mask = ~(uintptr_t{NodeSlabs::kSlabBytes} - 1);
  return (reinterpret_cast<uintptr_t>(a) & mask) ==
         (reinterpret_cast<uintptr_t>(b) & mask);
}

// Frees a block of `bytes` that the slab in use made, while a block of 16
// bytes there (returned) keeps the slab from starting over; `*freed` is
// where it was.
void* FreeOneInTheSlabInUse(size_t bytes, void** freed) {
  void* keep = NodeSlabs::Allocate(16);
  void* a = NodeSlabs::Allocate(bytes);
  if (!SameSlab(keep, a)) {
    // `keep` ended a slab; `a` started the next, with room after it.
    NodeSlabs::Deallocate(keep, 16);
    keep = NodeSlabs::Allocate(16);
  }
  EXPECT_TRUE(SameSlab(keep, a) || !kKeepFreedBlocks);
  NodeSlabs::Deallocate(a, bytes);
  *freed = a;
  return keep;
}

TEST(NodeSlabsTest, ABlockFreedInTheSlabInUseIsMadeAgainForItsClass) {
  void* a;
  void* keep = FreeOneInTheSlabInUse(48, &a);
  void* other_class = NodeSlabs::Allocate(64);
  void* same_class = NodeSlabs::Allocate(33);  // 33 to 48 bytes: one class
  if (kKeepFreedBlocks) {
    EXPECT_EQ(same_class, a);
    EXPECT_NE(other_class, a);
  }
  NodeSlabs::Deallocate(same_class, 33);
  NodeSlabs::Deallocate(other_class, 64);
  NodeSlabs::Deallocate(keep, 16);
}

TEST(NodeSlabsTest, BigBlocksHaveClassesOfTheirOwn) {
  // Above 1 KiB, classes go in steps of 256 bytes: 1,025 to 1,280 is one.
  void* a;
  void* keep = FreeOneInTheSlabInUse(1100, &a);
  void* next_class = NodeSlabs::Allocate(1281);
  void* small = NodeSlabs::Allocate(1024);
  void* same_class = NodeSlabs::Allocate(1280);
  if (kKeepFreedBlocks) {
    EXPECT_EQ(same_class, a);
    EXPECT_NE(next_class, a);
    EXPECT_NE(small, a);
  }
  // The largest block a slab makes, and the smallest it does not.
  void* largest = NodeSlabs::Allocate(NodeSlabs::kMaxBytes);
  void* beyond = NodeSlabs::Allocate(NodeSlabs::kMaxBytes + 1);
  std::memset(largest, 1, NodeSlabs::kMaxBytes);
  std::memset(beyond, 2, NodeSlabs::kMaxBytes + 1);
  NodeSlabs::Deallocate(beyond, NodeSlabs::kMaxBytes + 1);
  NodeSlabs::Deallocate(largest, NodeSlabs::kMaxBytes);
  NodeSlabs::Deallocate(same_class, 1280);
  NodeSlabs::Deallocate(small, 1024);
  NodeSlabs::Deallocate(next_class, 1281);
  NodeSlabs::Deallocate(keep, 16);
}

TEST(NodeSlabsTest, TheSlabsOfADroppedValueAreUsedAgain) {
  { Value warm = ManyMaps(20000); }
  const size_t before = NodeSlabs::SlabsInUse();
  for (int round = 0; round < 5; ++round) {
    Value v = ManyMaps(20000);  // about 120 slabs
    if (kKeepFreedBlocks) {
      EXPECT_GT(NodeSlabs::SlabsInUse(), before + 50);
    } else {
      EXPECT_EQ(NodeSlabs::SlabsInUse(), 0u);
    }
    EXPECT_EQ(v.list()[19999].map().Find("name")->AsString(), "item-19999");
  }
  // The thread keeps kKeptSlabs of them; the process's list has the rest.
  EXPECT_LE(NodeSlabs::Kept(), NodeSlabs::kKeptSlabs);
  EXPECT_LE(NodeSlabs::SlabsInUse(), before + 1);
}

TEST(NodeSlabsTest, BlocksOfOlderSlabsFreedInARunAreAllCountedOff) {
  // A value of many slabs dropped on the thread that made it, after it
  // moved on to a newer slab: the blocks of each older slab are counted
  // off together, the last run at the latest when the thread exits. Were
  // any left uncounted, their slabs would stay in use for good.
  const size_t before = NodeSlabs::SlabsInUse();
  std::thread t([] {
    for (int round = 0; round < 3; ++round) {
      Value v = ManyMaps(20000);  // about 120 slabs
      Value after = ManyMaps(20);
      v = Value();  // dropped while `after` keeps the newest slab in use
      EXPECT_EQ(after.list()[19].map().Find("port")->AsInt(), 19);
    }
  });
  t.join();
  EXPECT_EQ(NodeSlabs::SlabsInUse(), before);
}

TEST(NodeSlabsTest, ValuesMadeOnOneThreadAreDroppedOnAnother) {
  const size_t before = NodeSlabs::SlabsInUse();
  Value made;
  std::thread maker([&] { made = ManyMaps(2000); });
  maker.join();  // the maker's slabs are the process's now
  EXPECT_EQ(made.list()[1999].map().Find("port")->AsInt(), 1999);
  Value copy = made;
  std::thread dropper([&] {
    Value mine = std::move(made);
    mine.list()[0].map().Set("port", Value(int64_t{-1}));  // unshares
    Value more = ManyMaps(10);
  });
  dropper.join();
  EXPECT_EQ(copy.list()[0].map().Find("port")->AsInt(), 0);
  copy = Value();  // the last count, on this thread
  // This thread may keep some of the freed slabs; none is lost.
  EXPECT_LE(NodeSlabs::SlabsInUse(), before + NodeSlabs::kKeptSlabs + 1);
}

TEST(NodeSlabsTest, BlocksOfTheSlabInUseDroppedByAnotherThreadAreCounted) {
  { Value warm = ManyMaps(20000); }
  const size_t before = NodeSlabs::SlabsInUse();
  // Each value is made here, mostly in the slab this thread cuts from, and
  // dropped on another thread; then this thread goes on cutting. Were the
  // other thread's frees lost, no slab of these would ever be free again:
  // 400 values of about 120 KiB would keep 700 slabs.
  for (int i = 0; i < 400; ++i) {
    Value v = ManyMaps(300);
    std::thread dropper([mine = std::move(v)]() mutable { mine = Value(); });
    dropper.join();
    Value here = ManyMaps(20);
    EXPECT_EQ(here.list()[19].map().Find("port")->AsInt(), 19);
  }
  { Value moves_on = ManyMaps(20000); }
  EXPECT_LE(NodeSlabs::SlabsInUse(), before + 2);
}

// Only where the slabs are on, and not under ThreadSanitizer, which does
// not follow a fork of a process with threads. Under AddressSanitizer the
// slabs are off, so every block comes from its allocator, and GCC 12's
// does not take its own locks around fork: a child forked while the churn
// thread held one waits for it for good (gdb on such a child: a futex
// wait in SizeClassAllocator64::GetFromAllocator, from `operator new`).
#if !defined(__SANITIZE_THREAD__) && !defined(__SANITIZE_ADDRESS__)
TEST(NodeSlabsTest, AForkedChildMakesSlabsWhileItsParentsThreadsDoToo) {
  // The child must not inherit the lock of the process's list of slabs
  // held: all through the forks, one thread makes and drops values of more
  // slabs than it keeps, and another counts the slabs in use, which holds
  // the lock much of the time. Nor may it inherit the list half made: the
  // threads start just before the first fork, and this thread makes no
  // value before it, so one of them is the first to need the list. (When
  // the list was made on first use, under a guard, 23 runs in 30 had a
  // child wait on that guard for good.)
  std::atomic<bool> stop{false};
  std::thread churn([&] {
    while (!stop) Value v = ManyMaps(20000);
  });
  std::atomic<size_t> counted{0};
  std::thread counter([&] {
    while (!stop) counted += NodeSlabs::SlabsInUse();
  });
  for (int i = 0; i < 20; ++i) {
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      alarm(10);  // a deadlock ends the child, and so the test
      Value v = ManyMaps(20000);  // takes slabs from the process's list
      _exit(v.list()[19999].map().Find("port")->AsInt() == 19999 ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  }
  stop = true;
  churn.join();
  counter.join();
}
#endif

std::atomic<int> late_port{0};

// Destroyed after the thread's slabs are handed back (it is built before
// the thread makes its first block, so it is destroyed after that).
struct LateHolder {
  Value v;
  ~LateHolder() {
    v = Value();
    Value late = ManyMaps(3);
    late_port = static_cast<int>(late.list()[2].map().Find("port")->AsInt());
  }
};

TEST(NodeSlabsTest, ValuesMadeAndDroppedAfterTheThreadsExitHandlersWork) {
  const size_t before = NodeSlabs::SlabsInUse();
  std::thread t([] {
    thread_local LateHolder holder;
    holder.v = ManyMaps(500);
  });
  t.join();
  EXPECT_EQ(late_port.load(), 2);
  EXPECT_EQ(NodeSlabs::SlabsInUse(), before);
}

}  // namespace
}  // namespace smdx
