#include "smdx/fieldmanager/clock.h"

#include "absl/time/clock.h"

namespace smdx {

namespace {

class WallClock : public Clock {
 public:
  absl::Time Now() const override { return absl::Now(); }
};

}  // namespace

const Clock& SystemClock() {
  static const WallClock* const clock = new WallClock();
  return *clock;
}

}  // namespace smdx
