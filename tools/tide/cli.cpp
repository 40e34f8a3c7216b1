#include "cli.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>

#include "demo.h"
#include "info.h"
#include "launch.h"
#include "memviz.h"
#include "replay.h"
#include "train.h"
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
  TrainOptions train_options;
  CLI::App* train = app.add_subcommand(
      "train", "Train an MLP on Fashion-MNIST (or any MNIST-format directory) on the devices "
               "present, with pinned batches, a device prefetcher and DataParallel over --gpus");
  train->add_option("--model", train_options.model,
                    "The model: mlp (784-256-10) or cnn (two conv-BatchNorm-ReLU-pool blocks, "
                    "a linear head)")->capture_default_str();
  train->add_option("--data", train_options.data,
                    "A directory of MNIST-format files (train-images-idx3-ubyte[.gz], ...)")
      ->capture_default_str();
  train->add_option("--device", train_options.device,
                    "auto (cuda when available, else cpu), cpu, cuda or cuda:N")
      ->capture_default_str();
  train->add_flag("--disable-cuda", train_options.disable_cuda,
                  "Train on cpu even when cuda devices exist (the seeds' argparse flag)");
  train->add_option("--gpus", train_options.gpus,
                    "nn::DataParallel over these cuda devices, e.g. 0,1 (the first is the output "
                    "device)")
      ->delimiter(',');
  train->add_option("--epochs", train_options.epochs, "Passes over the training set")
      ->capture_default_str();
  train->add_option("--batch-size", train_options.batch_size, "Samples per batch")
      ->capture_default_str();
  train->add_option("--lr", train_options.lr, "SGD learning rate (momentum 0.9)")
      ->capture_default_str();
  train->add_option("--workers", train_options.workers, "DataLoader worker threads")
      ->capture_default_str();
  bool pin_memory = false;
  CLI::Option* pin = train->add_flag("--pin-memory,!--no-pin-memory", pin_memory,
                                     "Batches in pinned memory (default: on when training on cuda)");
  train->add_option("--seed", train_options.seed, "Seeds the model, the shuffle and dropout")
      ->capture_default_str();
  train->add_option("--save", train_options.save, "Save the trained parameters (safetensors)");
  train->add_option("--memory-snapshot", train_options.memory_snapshot,
                    "Dump a cuda memory snapshot at the end (tide memviz draws it)");
  train->add_flag("--distributed", train_options.distributed,
                  "One process per device under mpirun (tide launch -n N -- tide train "
                  "--distributed): DistributedDataParallel on cuda:LOCAL_RANK % device count "
                  "(or --device) or cpu");
  train->add_option("--limit", train_options.limit,
                    "Use only the first N training and test samples (0: all)")
      ->capture_default_str();

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

  LaunchOptions launch_options;
  CLI::App* launch = app.add_subcommand(
      "launch", "Run N processes of a command under mpirun, e.g. tide launch -n 2 -- tide train "
                "--distributed");
  launch->add_option("-n,--nproc", launch_options.processes, "Processes to start (ranks)")
      ->required();
  launch->add_option("--hostfile", launch_options.hostfile,
                     "Open MPI hostfile for several machines (\"node1 slots=4\" per line)");
  launch->add_flag("--dry-run", launch_options.dry_run, "Print the mpirun command, run nothing");
  launch->add_option("command", launch_options.command, "The command, after --")->required();

  try {
    app.parse(argc, argv);
    if (!info->parsed() && !demo->parsed() && !memviz->parsed() && !replay->parsed() &&
        !train->parsed() && !launch->parsed()) {
      throw CLI::RequiredError("A subcommand (train, launch, demo, info, memviz or replay)");
    }
  } catch (const CLI::ParseError& e) {
    // --help and --version end the parse with status 0: CLI11 prints them.
    if (e.get_exit_code() == 0) return app.exit(e, out, err);
    // Every misuse exits 2 with one line (as the checks after parsing do); CLI11's own
    // statuses (104 for a value that does not convert, ...) and its second line would make
    // a conversion error look unlike the rest.
    std::string help = "tide --help";
    for (const CLI::App* sub : app.get_subcommands()) help = "tide " + sub->get_name() + " --help";
    err << "tide: " << e.what() << "; " << help << " lists the options\n";
    return 2;
  }

  if (info->parsed()) {
    print_info(out);
    return 0;
  }
  if (train->parsed()) {
    if (pin->count() > 0) train_options.pin_memory = pin_memory;
    train_options.terminal = &out == &std::cout && isatty(STDOUT_FILENO) == 1;
    return run_train(train_options, out, err);
  }
  if (launch->parsed()) return run_launch(launch_options, out, err);
  if (memviz->parsed()) return run_memviz(memviz_options, out);
  if (replay->parsed()) return run_replay(replay_options, out);
  if (!demo_options.disable_cuda) demo_options.simulated_by_default = simulate_gpus_when_none(3);
  return run_demo(demo_options, out);
}

}  // namespace tide::cli
