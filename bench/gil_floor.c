/* A native call that does no Python work: bench/python_bench.py calls it
 * through ctypes (which releases the GIL around it) from one and from two
 * Python threads, for as long as one apply takes. What two threads gain on
 * it is what CPython lets any call of that length gain: the smdx calls can
 * only lose to it by the Python work they do with the GIL held. */
#include <stdint.h>

uint64_t smdx_bench_spin(uint64_t rounds) {
  uint64_t x = 0x9e3779b97f4a7c15u;
  for (uint64_t i = 0; i < rounds; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    /* Keeps the loop a loop: the compiler may not fold the rounds. */
    __asm__ volatile("" : "+r"(x));
  }
  return x;
}
