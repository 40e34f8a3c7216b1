#pragma once
// run_cli: the tide CLI run in-process, its exit code and output captured; run_executable:
// the built executable in a fresh process (the runtime reads TIDE_SIM_DEVICES once per process).

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
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

#ifdef TIDE_CLI_EXECUTABLE
/// Runs the built tide with `env` (e.g. "TIDE_SIM_DEVICES=2") added to a clean device
/// environment; stdout and stderr together in `out`.
inline CliResult run_executable(const std::string& env, const std::string& args) {
  std::string command =
      "env -u TIDE_SIM_DEVICES -u CUDA_VISIBLE_DEVICES -u CUDA_LAUNCH_BLOCKING "
      "-u TIDE_SIM_MEMORY " +
      env + " " + std::string(TIDE_CLI_EXECUTABLE) + " " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  EXPECT_NE(pipe, nullptr) << command;
  if (pipe == nullptr) return {-1, "", ""};
  std::string out;
  std::array<char, 4096> buffer;
  while (size_t n = fread(buffer.data(), 1, buffer.size(), pipe)) out.append(buffer.data(), n);
  int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out, ""};
}

#endif

}  // namespace tide::test
