#include "cli.h"

#include <CLI/CLI.hpp>

#include "demo.h"
#include "info.h"
#include "tide/version.h"

namespace tide::cli {

int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"tide: a C++20 tensor runtime with PyTorch's CUDA semantics", "tide"};
  app.set_version_flag("--version", version());
  // At most one subcommand; "none" is checked after parsing so that an unknown word gets
  // CLI11's "not expected" error rather than "a subcommand is required".
  app.require_subcommand(0, 1);

  CLI::App* info =
      app.add_subcommand("info", "Print the version, build options and devices present");
  DemoOptions demo_options;
  CLI::App* demo = app.add_subcommand(
      "demo", "Walk through the examples of PyTorch's CUDA semantics note on the devices present");
  demo->add_flag("--disable-cuda", demo_options.disable_cuda,
                 "Run on cpu even when cuda devices exist (the seed's argparse flag)");

  try {
    app.parse(argc, argv);
    if (!info->parsed() && !demo->parsed()) throw CLI::RequiredError("A subcommand (info or demo)");
  } catch (const CLI::ParseError& e) {
    return app.exit(e, out, err);
  }

  if (info->parsed()) {
    print_info(out);
    return 0;
  }
  return run_demo(demo_options, out);
}

}  // namespace tide::cli
