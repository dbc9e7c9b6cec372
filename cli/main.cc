// smdx: the command-line tool. See cli/commands.h.
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return smdx::cli::Run(args, std::cin, std::cout, std::cerr);
}
