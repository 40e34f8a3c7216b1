#pragma once
// The `tide` command line: subcommands `info` and `demo`, parsed by CLI11.

#include <ostream>

namespace tide::cli {

/// Parses argv as main() receives it and runs the subcommand; returns the process exit code.
/// Parse errors (unknown subcommand or flag, none given) print CLI11's message to `err` and
/// return CLI11's non-zero code; --help and --version print to `out` and return 0.
int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace tide::cli
