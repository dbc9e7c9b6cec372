// Allocation counting for smdx_bench: alloc_counter.cc replaces every form of
// the global operator new with one that counts the call (then mallocs), and
// operator delete with free. Linked only into the benchmark binary.
#ifndef SMDX_BENCH_ALLOC_COUNTER_H_
#define SMDX_BENCH_ALLOC_COUNTER_H_

#include <cstdint>

namespace smdx {
namespace bench {

// Calls of any global operator new made by the calling thread since it
// started.
uint64_t AllocCount();

}  // namespace bench
}  // namespace smdx

#endif  // SMDX_BENCH_ALLOC_COUNTER_H_
