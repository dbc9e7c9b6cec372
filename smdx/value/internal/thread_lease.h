// ThreadLease: a reader's scratch space, kept per thread between reads.
//
// Readers (JSON, YAML, fieldsV1) collect children in scratch space whose
// size is unknown until a read ends. Allocating it per read costs as much
// as reading a small document, so each thread keeps one space and lends it
// to one read at a time. A read that starts while its thread's space is
// lent (a read inside a read), or that asks for none, gets a space of its
// own, dropped with the lease.
//
// T is default-constructible (the thread's space) and has
// `void AfterRead()`, called when the thread's space comes back: it empties
// the space (a read that fails midway leaves things in it) and gives back
// room beyond what is worth keeping.
//
// Internal to smdx/.
#ifndef SMDX_VALUE_INTERNAL_THREAD_LEASE_H_
#define SMDX_VALUE_INTERNAL_THREAD_LEASE_H_

#include <optional>
#include <utility>

namespace smdx {
namespace internal {

template <typename T>
class ThreadLease {
 public:
  // `own_args` construct the space of a lease that does not take the
  // thread's.
  template <typename... Args>
  explicit ThreadLease(bool take_thread_space, Args&&... own_args) {
    Slot& s = ThisThread();
    if (!take_thread_space || s.lent) {
      space_ = &own_.emplace(std::forward<Args>(own_args)...);
      return;
    }
    s.lent = true;
    space_ = &s.space;
  }
  ~ThreadLease() {
    if (own_.has_value()) return;
    Slot& s = ThisThread();
    s.space.AfterRead();
    s.lent = false;
  }
  ThreadLease(const ThreadLease&) = delete;
  ThreadLease& operator=(const ThreadLease&) = delete;

  T& space() { return *space_; }

 private:
  struct Slot {
    T space;
    bool lent = false;
  };
  static Slot& ThisThread() {
    static thread_local Slot s;
    return s;
  }

  T* space_;
  std::optional<T> own_;
};

}  // namespace internal
}  // namespace smdx

#endif  // SMDX_VALUE_INTERNAL_THREAD_LEASE_H_
