// The `smdx` command: subcommands over the library.
#ifndef SMDX_CLI_COMMANDS_H_
#define SMDX_CLI_COMMANDS_H_

#include <iosfwd>
#include <string>
#include <vector>

namespace smdx::cli {

// Runs `smdx ARGS...` (args excludes the program name) reading `-` from
// `in` and writing to out/err; returns the exit status.
int Run(const std::vector<std::string>& args, std::istream& in,
        std::ostream& out, std::ostream& err);
// The same with nothing on standard input.
int Run(const std::vector<std::string>& args, std::ostream& out,
        std::ostream& err);

}  // namespace smdx::cli

#endif  // SMDX_CLI_COMMANDS_H_
