#include "python/gil.h"

#include <atomic>
#include <chrono>
#include <thread>

namespace smdx::python {
namespace {

// How long a thread spins for the GIL at most, and the longest hold it
// spins for: a pod apply holds the GIL about 1 µs between calls on Objects
// or text and 15 µs on dicts (the two conversions); holders past kLongHold
// are taken to be doing other work. Two threads applying pod dicts did
// 1.39-1.41x one thread with these bounds, 1.26-1.35x with half of them,
// 1.27-1.41x with two and a half times them.
constexpr int64_t kMaxSpinNs = 20'000;
constexpr int64_t kLongHoldNs = 40'000;

// When a call of this module last took the GIL back (steady clock, ns; 1 at
// least), or 0 once that holder released it again. Only the thread holding
// the GIL sets a stamp; a release clears only its own (compare-exchange),
// after the GIL is free, so that a spinner that sees 0 finds it free.
std::atomic<int64_t> taken_at{0};
// Whether a thread is spinning: one at a time, so that spinners do not take
// the CPUs of other threads that have work.
std::atomic<bool> spinning{false};

int64_t NowNs() {
  const int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                         std::chrono::steady_clock::now().time_since_epoch())
                         .count();
  return ns > 0 ? ns : 1;
}

void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Whether spinning can pay: not on one CPU, where the holder cannot run
// while this thread spins, nor in a free-threaded CPython, where threads
// between calls hold nothing to wait for.
bool SpinCanPay() {
#ifdef Py_GIL_DISABLED
  return false;
#else
  static const bool many = std::thread::hardware_concurrency() > 1;
  return many;
#endif
}

// Spins while the stamp says a recent holder has the GIL, within the bounds.
void SpinWhileHeld() {
  int64_t stamp = taken_at.load(std::memory_order_relaxed);
  if (stamp == 0 || !SpinCanPay()) return;
  const int64_t start = NowNs();
  if (start - stamp > kLongHoldNs) return;
  if (spinning.exchange(true, std::memory_order_relaxed)) return;
  for (int i = 1;; ++i) {
    CpuRelax();
    stamp = taken_at.load(std::memory_order_relaxed);
    if (stamp == 0) break;
    if (i % 8 == 0) {  // the clock costs more than a pause
      const int64_t now = NowNs();
      if (now - start > kMaxSpinNs || now - stamp > kLongHoldNs) break;
    }
  }
  spinning.store(false, std::memory_order_relaxed);
}

}  // namespace

WithoutGil::WithoutGil() {
  // Read while this thread holds the GIL, so the stamp is its own (or a
  // stale one); cleared once the GIL is free, unless a thread that took it
  // since has set a new one.
  int64_t mine = taken_at.load(std::memory_order_relaxed);
  state_ = PyEval_SaveThread();
  if (mine != 0) {
    taken_at.compare_exchange_strong(mine, 0, std::memory_order_relaxed);
  }
}

WithoutGil::~WithoutGil() {
  SpinWhileHeld();
  PyEval_RestoreThread(state_);
  taken_at.store(NowNs(), std::memory_order_relaxed);
}

}  // namespace smdx::python
