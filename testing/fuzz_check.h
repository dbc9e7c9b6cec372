// The fuzzers' checks: a broken law or rule aborts (which libFuzzer reports
// as a finding) after printing it and what the input chose.
#ifndef SMDX_TESTING_FUZZ_CHECK_H_
#define SMDX_TESTING_FUZZ_CHECK_H_

#include <cstdio>
#include <cstdlib>
#include <string>

namespace smdx::testing {

// What the input chose so far (schemas, objects, steps), printed with a
// broken check. Reset it at the start of every input.
inline std::string& FuzzContext() {
  static std::string* context = new std::string;
  return *context;
}

inline void FuzzCheck(bool holds, const char* what) {
  if (holds) return;
  std::fprintf(stderr, "broken: %s\n%s\n", what, FuzzContext().c_str());
  std::abort();
}

}  // namespace smdx::testing

// Check(law): aborts naming the law, as written, when it does not hold.
#define SMDX_FUZZ_CHECK(law) ::smdx::testing::FuzzCheck((law), #law)

#endif  // SMDX_TESTING_FUZZ_CHECK_H_
