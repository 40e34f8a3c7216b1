#pragma once
// run_cli: the tide CLI run in-process, its exit code and output captured.

#include <sstream>
#include <string>
#include <vector>

#include "cli.h"

namespace tide::test {

struct CliResult {
  int code;
  std::string out, err;
};

/// Runs `tide args...` through tide::cli::run.
inline CliResult run_cli(std::vector<const char*> args) {
  args.insert(args.begin(), "tide");
  std::ostringstream out, err;
  int code = tide::cli::run(static_cast<int>(args.size()), args.data(), out, err);
  return {code, out.str(), err.str()};
}

}  // namespace tide::test
