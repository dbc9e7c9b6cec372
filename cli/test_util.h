// Runs the `smdx` command in-process for the command's tests.
#ifndef SMDX_CLI_TEST_UTIL_H_
#define SMDX_CLI_TEST_UTIL_H_

#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"

namespace smdx::cli {

struct Result {
  int code;
  std::string out, err;
};

// `smdx ARGS...` with `stdin_text` on standard input.
inline Result Smdx(const std::vector<std::string>& args,
                   const std::string& stdin_text = "") {
  std::istringstream in(stdin_text);
  std::ostringstream out, err;
  int code = Run(args, in, out, err);
  return {code, out.str(), err.str()};
}

}  // namespace smdx::cli

#endif  // SMDX_CLI_TEST_UTIL_H_
