#pragma once
// `tide train`, the main job: trains an MLP on Fashion-MNIST (or any MNIST-format directory)
// on whatever devices exist, the way the seeds recommend — device-agnostic (--device,
// --disable-cuda), pinned DataLoader batches copied with non_blocking on a side stream,
// DataParallel over --gpus — and prints test accuracy after each epoch and each cuda
// device's memory summary at the end. With --distributed, one such process per device under
// mpirun trains one model with DistributedDataParallel.

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace tide::cli {

/// Where Debian's dataset-fashion-mnist package puts the data.
inline constexpr const char* kFashionMnistDir = "/usr/share/datasets/fashion-mnist";

struct TrainOptions {
  std::string model = "mlp";
  std::string data = kFashionMnistDir;
  /// auto | cpu | cuda | cuda:N; auto = cuda when tide::cuda::is_available(), else cpu.
  std::string device = "auto";
  bool disable_cuda = false;
  /// DataParallel over these cuda devices (the first is the output device); empty: none.
  std::vector<int> gpus;
  int epochs = 5;
  int64_t batch_size = 64;
  double lr = 0.02;
  int workers = 2;
  /// Default: on when training on cuda.
  std::optional<bool> pin_memory;
  uint64_t seed = 0;
  /// Where to save the trained parameters (safetensors); empty: not saved.
  std::string save;
  /// Where to dump a cuda memory snapshot (tide memviz draws it); empty: none.
  std::string memory_snapshot;
  /// Use only the first N training and test samples (0: all); for quick runs and tests.
  int64_t limit = 0;
  /// One process per device under mpirun (tide launch): joins the process group, trains an
  /// nn::DistributedDataParallel on cuda:LOCAL_RANK % device count (Note [The rank's device];
  /// or --device, or cpu) with a DistributedSampler shard of the data; rank 0 prints and saves.
  bool distributed = false;
  /// Whether `out` is a terminal: a redrawn progress bar instead of plain lines.
  bool terminal = false;
};

/// Checks every option before any work; a misuse prints one line to `err` ("tide train: ...")
/// and returns 2. Otherwise trains and returns 0.
int run_train(const TrainOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tide::cli
