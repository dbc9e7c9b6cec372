// Clock: where the field manager gets "now" for managedFields timestamps.
//
// The apiserver stamps an entry with the time its fields last changed.
// Injecting the clock makes results reproducible (tests, replays, diffs).
//
// Thread safety: implementations must be safe to call from many threads;
// a FieldManager shares its clock between concurrent operations.
//
// Example:
//   ManualClock clock(absl::FromUnixSeconds(1700000000));
//   FieldManagerOptions opts;
//   opts.clock = &clock;
//   clock.Advance(absl::Seconds(1));
#ifndef SMDX_FIELDMANAGER_CLOCK_H_
#define SMDX_FIELDMANAGER_CLOCK_H_

#include <atomic>
#include <cstdint>

#include "absl/time/time.h"

namespace smdx {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual absl::Time Now() const = 0;
};

// The system's wall clock.
const Clock& SystemClock();

// A clock that says what it is told; Set and Advance may race with Now.
class ManualClock : public Clock {
 public:
  explicit ManualClock(absl::Time start) : nanos_(ToNanos(start)) {}
  absl::Time Now() const override {
    return absl::FromUnixNanos(nanos_.load(std::memory_order_relaxed));
  }
  void Set(absl::Time t) {
    nanos_.store(ToNanos(t), std::memory_order_relaxed);
  }
  void Advance(absl::Duration d) {
    nanos_.fetch_add(absl::ToInt64Nanoseconds(d), std::memory_order_relaxed);
  }

 private:
  static int64_t ToNanos(absl::Time t) { return absl::ToUnixNanos(t); }
  std::atomic<int64_t> nanos_;
};

}  // namespace smdx

#endif  // SMDX_FIELDMANAGER_CLOCK_H_
