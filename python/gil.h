// smdx::python::WithoutGil: work without the GIL, and the GIL taken back
// with a short spin before sleeping for it.
//
// A thread that wants the GIL while another holds it sleeps in CPython's
// take_gil on a condition variable until the holder lets go. On the 2-CPU
// virtual machines we measure, that sleep and its wake-up leave the CPU
// idle for about 30 µs, twice a pod apply's whole time. Two threads
// applying Objects meet like that on 3% of calls, and pod dicts, whose
// conversions hold the GIL for half of each call, ran slower on two threads
// than on one (0.8x) because of it.
//
// So a thread coming back from its work waits a little, spinning, while a
// call of this module that took the GIL back recently still holds it: the
// holder is most likely in the short Python stretch between two calls and
// about to release it again. The spin is bounded (kMaxSpin) and is not tried
// when the holder has held the GIL for long (kLongHold: then it is doing
// something else), when another thread is already spinning, on one CPU, or
// in a free-threaded CPython.
// Then the thread takes the GIL as before. It never changes who may run:
// the GIL is taken with PyEval_RestoreThread either way.
//
// Example:
//   Value result;
//   {
//     WithoutGil unlocked;  // REQUIRES: the GIL held, no Python object used
//     result = Work(input);
//   }                       // the GIL held again
#ifndef SMDX_PYTHON_GIL_H_
#define SMDX_PYTHON_GIL_H_

#include <Python.h>

namespace smdx::python {

class WithoutGil {
 public:
  // Releases the GIL. REQUIRES: this thread holds it.
  WithoutGil();
  // Takes the GIL back, after a short spin while a recent holder has it.
  ~WithoutGil();

  WithoutGil(const WithoutGil&) = delete;
  WithoutGil& operator=(const WithoutGil&) = delete;

 private:
  PyThreadState* state_;
};

}  // namespace smdx::python

#endif  // SMDX_PYTHON_GIL_H_
