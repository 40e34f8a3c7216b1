#include "cli.h"

#include <CLI/CLI.hpp>

#include "demo.h"
#include "info.h"
#include "memviz.h"
#include "replay.h"
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
  MemvizOptions memviz_options;
  CLI::App* memviz = app.add_subcommand(
      "memviz", "Draw a memory snapshot (tide's or torch's JSON) as one self-contained HTML page");
  memviz->add_option("snapshot", memviz_options.snapshot,
                     "Snapshot JSON: tide::cuda::dump_snapshot, or json.dump(torch.cuda.memory._snapshot())")
      ->required();
  memviz->add_option("-o,--output", memviz_options.output, "The HTML page to write")
      ->capture_default_str();
  ReplayOptions replay_options;
  CLI::App* replay = app.add_subcommand(
      "replay", "Replay a snapshot's allocations through tide's caching allocator and print "
                "peak allocated, peak reserved and fragmentation");
  replay->add_option("snapshot", replay_options.snapshot,
                     "Snapshot JSON: tide::cuda::dump_snapshot, or json.dump(torch.cuda.memory._snapshot())")
      ->required();
  replay->add_option("--alloc-conf", replay_options.alloc_confs,
                     "Allocator settings in TIDE_CUDA_ALLOC_CONF syntax (max_split_size_mb:128,...); "
                     "repeat to compare several; none: torch's defaults");

  try {
    app.parse(argc, argv);
    if (!info->parsed() && !demo->parsed() && !memviz->parsed() && !replay->parsed()) {
      throw CLI::RequiredError("A subcommand (info, demo, memviz or replay)");
    }
  } catch (const CLI::ParseError& e) {
    return app.exit(e, out, err);
  }

  if (info->parsed()) {
    print_info(out);
    return 0;
  }
  if (memviz->parsed()) return run_memviz(memviz_options, out);
  if (replay->parsed()) return run_replay(replay_options, out);
  if (!demo_options.disable_cuda) demo_options.simulated_by_default = simulate_gpus_when_none(3);
  return run_demo(demo_options, out);
}

}  // namespace tide::cli
