// Note [tide train]: the seeds' training advice as one program. The device is chosen once,
// device-agnostically (args.device in the note's best practices), and everything follows it:
// the model is moved in place (model.to(device)), batches come from a DataLoader that pins
// them when training on cuda, and a DevicePrefetcher copies the next batch with non_blocking
// on a side stream while the current one computes. With --gpus, nn::DataParallel splits each
// batch over the devices. With --distributed (under mpirun: tide launch), each process makes
// its device current (cuda:LOCAL_RANK % device count unless --device names one: Note [The
// rank's device] in rank_device.h) and joins the process group, trains with
// DistributedDataParallel on its DistributedSampler shard (the batch size is per process, as
// torch's), sums the test counts over the ranks, and only rank 0 prints and writes files.
// Every option is checked before any work, so a misuse costs the user one line and no
// waiting. The loss is accumulated on the device and read (which synchronizes) only when the
// progress bar is redrawn, so the host stays ahead of the device.

#include "train.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <memory>
#include <numbers>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>

#include "distributed/launcher_env.h"
#include "progress_bar.h"
#include "rank_device.h"
#include "runtime/registry.h"
#include "tide/tide.h"

namespace tide::cli {
namespace {

namespace fs = std::filesystem;

/// What the options resolve to.
struct TrainPlan {
  Device device{kCPU};
  std::vector<int> gpus;
  bool pin_memory = false;
  /// With --distributed: this process's place in the job.
  int rank = 0;
  int world_size = 1;
};

/// Discards what is written to it: the output of ranks other than 0.
class NullStream : public std::ostream {
 public:
  NullStream() : std::ostream(nullptr) {}
};

/// An IDX file of the directory, compressed or not, or "" when neither exists.
std::string idx_file(const std::string& dir, const std::string& name) {
  for (const std::string& candidate : {name, name + ".gz"}) {
    const fs::path path = fs::path(dir) / candidate;
    if (fs::is_regular_file(path)) return path.string();
  }
  return "";
}

void check_data_dir(const std::string& dir) {
  TIDE_CHECK(fs::is_directory(dir), "--data ", dir,
             ": no such directory; give a directory with MNIST-format files "
             "(train-images-idx3-ubyte[.gz], ...), or install Debian's dataset-fashion-mnist for ",
             kFashionMnistDir);
  for (const char* name : {"train-images-idx3-ubyte", "train-labels-idx1-ubyte",
                           "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"}) {
    TIDE_CHECK(!idx_file(dir, name).empty(), "--data ", dir, ": ", name,
               "[.gz] is missing; an MNIST-format directory has the four files "
               "train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte and "
               "t10k-labels-idx1-ubyte, each plain or gzip-compressed");
  }
}

std::string device_list(int count) {
  if (count == 0) return "there is no cuda device (tide::cuda::is_available() is false)";
  if (count == 1) return "there is 1 cuda device (cuda:0)";
  return fmt::format("there are {} cuda devices (cuda:0..cuda:{})", count, count - 1);
}

/// --device as a Device, or nothing for auto; throws on a malformed name or a contradiction.
std::optional<Device> named_device(const TrainOptions& o) {
  if (o.device == "auto") return std::nullopt;
  std::optional<Device> device;
  try {
    device = Device(o.device);
  } catch (const Error&) {
    TIDE_CHECK(false, "--device ", o.device, ": expected auto, cpu, cuda or cuda:N");
  }
  TIDE_CHECK(!device->is_cuda() || !o.disable_cuda, "--device ", o.device,
             " and --disable-cuda contradict each other; give one of them");
  return device;
}

/// cuda:index, checked to exist.
Device checked_cuda_device(const TrainOptions& o, int index, int count) {
  TIDE_CHECK(index < count, "--device ", o.device, ": no such device; ", device_list(count));
  return Device(kCUDA, index);
}

/// Resolves --device, --disable-cuda, --gpus and --pin-memory; throws on any misuse.
TrainPlan plan_training(const TrainOptions& o) {
  TIDE_CHECK(o.model == "mlp" || o.model == "cnn", "--model ", o.model,
             ": the models are: mlp, cnn");
  TIDE_CHECK(o.epochs >= 1, "--epochs ", o.epochs, ": expected at least 1");
  TIDE_CHECK(o.batch_size >= 1, "--batch-size ", o.batch_size, ": expected at least 1");
  TIDE_CHECK(o.lr > 0, "--lr ", o.lr, ": expected a positive learning rate");
  TIDE_CHECK(o.workers >= 0, "--workers ", o.workers, ": expected 0 or more worker threads");
  TIDE_CHECK(o.limit >= 0, "--limit ", o.limit, ": expected 0 (all samples) or more");
  check_data_dir(o.data);

  TrainPlan plan;
  const int count = cuda::device_count();
  const std::optional<Device> named = named_device(o);
  if (o.distributed) {
    TIDE_CHECK(o.gpus.empty(), "--distributed and --gpus: with --distributed each process "
               "trains on one device (cuda:LOCAL_RANK % device count, or --device); drop --gpus "
               "and start one process per GPU (tide launch -n N)");
    const bool use_cuda = named ? named->is_cuda() : !o.disable_cuda && cuda::is_available();
    if (use_cuda) {
      // Note [The rank's device].
      RankGpus gpus;
      gpus.count = count;
      gpus.exclusive = runtime::native_kernels();  // real GPUs: the group's cuda side is NCCL
      gpus.same_for_every_process = std::getenv("CUDA_VISIBLE_DEVICES") == nullptr;
      plan.device = named && named->has_index()
                        ? checked_cuda_device(o, named->index(), count)
                        : default_rank_device(distributed::detail::read_launcher_env(), gpus);
      // torch.cuda.set_device(local_rank): the group (an NCCL communicator) is made on the
      // current device.
      cuda::set_device(plan.device.index());
    }
  } else if (!named) {
    plan.device = !o.disable_cuda && cuda::is_available() ? Device(kCUDA, 0) : Device(kCPU);
  } else if (named->is_cuda()) {
    plan.device = checked_cuda_device(o, named->has_index() ? named->index() : 0, count);
  } else {
    plan.device = *named;
  }

  if (!o.gpus.empty()) {
    TIDE_CHECK(!o.disable_cuda, "--gpus and --disable-cuda contradict each other; give one of them");
    TIDE_CHECK(o.device == "auto" || plan.device.is_cuda(), "--gpus with --device ", o.device,
               ": DataParallel runs on cuda devices; leave --device out");
    std::set<int> seen;
    for (int gpu : o.gpus) {
      TIDE_CHECK(gpu >= 0 && gpu < count, "--gpus: cuda:", gpu, " does not exist; ",
                 device_list(count));
      TIDE_CHECK(seen.insert(gpu).second, "--gpus: device ", gpu,
                 " is listed twice; give each device once (e.g. --gpus 0,1)");
    }
    plan.gpus = o.gpus;
    // DataParallel gathers on the first device, where the model's parameters live.
    if (o.device == "auto" || !plan.device.has_index() || plan.device.index() != o.gpus[0]) {
      TIDE_CHECK(o.device == "auto", "--device ", o.device, " and --gpus ", o.gpus[0],
                 ",...: the model lives on the first of --gpus; leave --device out");
      plan.device = Device(kCUDA, o.gpus[0]);
    }
  }
  TIDE_CHECK(o.memory_snapshot.empty() || plan.device.is_cuda(), "--memory-snapshot ",
             o.memory_snapshot, ": memory snapshots are of cuda devices, and this run trains on ",
             plan.device, "; use --device cuda (TIDE_SIM_DEVICES=1 simulates one)");
  for (const std::string& file : {o.save, o.memory_snapshot}) {
    if (file.empty()) continue;
    const fs::path parent = fs::absolute(fs::path(file)).parent_path();
    TIDE_CHECK(fs::is_directory(parent), "cannot write ", file, ": directory ", parent.string(),
               " does not exist");
  }
  plan.pin_memory = o.pin_memory.value_or(plan.device.is_cuda());
  if (o.distributed) {
    // Joined only now that every option is known good: a misuse costs no waiting for peers.
    distributed::init_process_group();
    plan.rank = distributed::get_rank();
    plan.world_size = distributed::get_world_size();
  }
  return plan;
}

/// The first `limit` samples of `data` (all when limit is 0), as a TensorDataset.
std::shared_ptr<const data::Dataset> first_samples(const data::MNIST& data, int64_t limit) {
  const int64_t n = static_cast<int64_t>(data.size());
  const int64_t keep = limit > 0 ? std::min(limit, n) : n;
  return std::make_shared<data::TensorDataset>(data.images().narrow(0, 0, keep),
                                               data.targets().narrow(0, 0, keep));
}

/// 784-256-10: a few seconds an epoch on two cores; ~88% on Fashion-MNIST after 5 epochs.
std::shared_ptr<nn::Sequential> make_mlp() {
  return std::make_shared<nn::Sequential>(nn::Flatten(), nn::Linear(28 * 28, 256), nn::ReLU(),
                                          nn::Linear(256, 10));
}

/// Two conv-BatchNorm-ReLU-pool blocks (1 -> 32 -> 64 channels, 28 -> 14 -> 7 pixels) and a
/// linear head. At a constant learning rate (SGD lr 0.02, momentum 0.9) it reached 90.74%
/// after 5 epochs, its test accuracy swinging by about 1% between epochs; it trains with a
/// cosine schedule instead (cnn_epoch_lr).
/// The convolutions have no bias: the BatchNorm after each subtracts the channel's mean, which
/// would cancel it.
std::shared_ptr<nn::Sequential> make_cnn() {
  return std::make_shared<nn::Sequential>(
      nn::Conv2d(1, 32, {3, 3}, 1, 1, 1, 1, /*bias=*/false), nn::BatchNorm2d(32), nn::ReLU(),
      nn::MaxPool2d(2),
      nn::Conv2d(32, 64, {3, 3}, 1, 1, 1, 1, /*bias=*/false), nn::BatchNorm2d(64), nn::ReLU(),
      nn::MaxPool2d(2),
      nn::Flatten(), nn::Linear(64 * 7 * 7, 10));
}

/// The cnn's learning rate for `epoch` (1-based) of `epochs`: torch's CosineAnnealingLR with
/// T_max = epochs and eta_min = 0, stepped once an epoch, so the last epochs settle with small
/// steps instead of swinging. The mlp keeps --lr throughout, as before.
double cnn_epoch_lr(double lr, int epoch, int epochs) {
  return 0.5 * lr * (1.0 + std::cos(std::numbers::pi * static_cast<double>(epoch - 1) / epochs));
}

/// How the run's model is described on its "model:" line.
const char* model_description(const std::string& model) {
  return model == "cnn" ? "cnn conv32-bn-relu-pool-conv64-bn-relu-pool-linear10"
                        : "mlp 784-256-10";
}

/// Fashion-MNIST's pixel mean and standard deviation over the training set: inputs centered
/// and scaled to unit variance train faster (torchvision's transforms.Normalize).
constexpr double kPixelMean = 0.2860, kPixelStd = 0.3530;

Tensor normalized(const Tensor& images) { return (images - kPixelMean) / kPixelStd; }

/// Batches on `device`: through a DevicePrefetcher on cuda, straight from the loader on cpu.
template <class Fn>
void for_each_batch(data::DataLoader& loader, Device device, Fn&& fn) {
  if (device.is_cuda()) {
    data::DevicePrefetcher prefetcher(loader, device);
    for (const data::Example& batch : prefetcher) fn(batch);
  } else {
    for (const data::Example& batch : loader) fn(batch);
  }
}

/// Test accuracy in percent. Distributed, each rank counts its shard and the counts are
/// summed over the ranks (on the model's device: nccl communicates GPU tensors only).
double test_accuracy(nn::Module& model, data::DataLoader& loader, Device device,
                     bool distributed) {
  NoGradGuard no_grad;
  model.eval();
  // [correct, seen], kept on the device so that only the end reads it back.
  Tensor counts = zeros({2}, tide::device(device).dtype(kInt64));
  int64_t seen = 0;
  for_each_batch(loader, device, [&](const data::Example& batch) {
    counts.select(0, 0).add_(model(normalized(batch.data)).argmax(1).eq(batch.target).sum());
    seen += batch.target.size(0);
  });
  model.train();
  counts.select(0, 1).fill_(seen);
  if (distributed) distributed::all_reduce(counts);
  const std::vector<int64_t> c = counts.cpu().tolist<int64_t>();
  return c[1] == 0 ? 0.0 : 100.0 * static_cast<double>(c[0]) / static_cast<double>(c[1]);
}

void print_memory_summaries(std::ostream& out, const TrainPlan& plan) {
  std::vector<int> devices = plan.gpus;
  if (devices.empty() && plan.device.is_cuda()) devices.push_back(plan.device.index());
  for (int d : devices) {
    out << "\ncuda:" << d << " memory (tide::cuda::memory_summary):\n"
        << cuda::memory_summary(d, /*abbreviated=*/true);
  }
}

int train(const TrainOptions& o, const TrainPlan& plan, std::ostream& rank0_out) {
  NullStream null;
  std::ostream& out = plan.rank == 0 ? rank0_out : null;
  manual_seed(o.seed);
  if (!o.memory_snapshot.empty()) cuda::record_memory_history(true);

  data::MNIST train_set(o.data, /*train=*/true), test_set(o.data, /*train=*/false);
  auto train_data = first_samples(train_set, o.limit);
  auto test_data = first_samples(test_set, o.limit);
  out << "data: " << o.data << ": " << train_data->size() << " training and "
      << test_data->size() << " test images\n";

  std::shared_ptr<nn::Sequential> model = o.model == "cnn" ? make_cnn() : make_mlp();
  model->to(plan.device);
  std::unique_ptr<nn::Module> parallel;
  if (!plan.gpus.empty()) parallel = std::make_unique<nn::DataParallel>(*model, plan.gpus);
  // Every rank starts from rank 0's parameters: the DDP broadcasts them.
  if (o.distributed) parallel = std::make_unique<nn::DistributedDataParallel>(*model);
  nn::Module& net = parallel ? *parallel : *model;
  optim::SGD optimizer(model->parameters(), optim::SGDOptions(o.lr).momentum(0.9));

  std::string where = plan.device.str();
  if (!plan.gpus.empty()) {
    where = "DataParallel over cuda:" + fmt::format("{}", fmt::join(plan.gpus, ",cuda:"));
  }
  if (o.distributed) {
    where = fmt::format("DistributedDataParallel, {} processes ({}), rank 0 on {}",
                        plan.world_size, distributed::get_backend(), plan.device.str());
  }
  out << "model: " << model_description(o.model) << " on " << where << "; SGD lr " << o.lr
      << (o.model == "cnn" ? " (cosine schedule over the epochs)" : "") << " momentum 0.9; batch " << o.batch_size << ", " << o.workers << " workers, "
      << (plan.pin_memory ? "pinned" : "pageable") << " batches\n";

  data::DataLoaderOptions train_options, test_options;
  train_options.batch_size(o.batch_size).num_workers(o.workers).pin_memory(plan.pin_memory);
  test_options.batch_size(1000).num_workers(o.workers).pin_memory(plan.pin_memory);
  // Distributed: each rank reads its own shard, reshuffled every epoch the same way on every
  // rank (torch's DistributedSampler); the test set is sharded too and the counts summed.
  std::shared_ptr<data::DistributedSampler> train_sampler;
  if (o.distributed) {
    train_sampler = std::make_shared<data::DistributedSampler>(
        train_data->size(), plan.world_size, plan.rank, /*shuffle=*/true, o.seed);
    train_options.sampler(train_sampler);
    test_options.sampler(std::make_shared<data::DistributedSampler>(
        test_data->size(), plan.world_size, plan.rank, /*shuffle=*/false));
  } else {
    train_options.shuffle(true).seed(o.seed);
  }
  data::DataLoader train_loader(train_data, train_options);
  data::DataLoader test_loader(test_data, test_options);
  const int64_t total = static_cast<int64_t>(train_sampler ? train_sampler->size()
                                                             : train_data->size());
  // Reading the loss synchronizes with the device: only every `redraw` batches.
  const int64_t redraw = o.terminal ? 20 : std::max<int64_t>(1, (total / o.batch_size) / 50);
  // The training passes' wall time, test passes excluded (the device is synchronized by the
  // epoch's last loss read before the clock stops).
  std::chrono::duration<double> training_time{0};
  for (int epoch = 1; epoch <= o.epochs; ++epoch) {
    const auto epoch_start = std::chrono::steady_clock::now();
    if (train_sampler) train_sampler->set_epoch(epoch);
    if (o.model == "cnn") optimizer.options().lr(cnn_epoch_lr(o.lr, epoch, o.epochs));
    ProgressBar bar(out, o.terminal, fmt::format("epoch {}/{}", epoch, o.epochs), total);
    Tensor window = zeros({}, tide::device(plan.device));
    int64_t done = 0, batches = 0, since = 0;
    double epoch_loss = 0;  // the sum of the batch losses read so far
    for_each_batch(train_loader, plan.device, [&](const data::Example& batch) {
      optimizer.zero_grad();
      Tensor loss = cross_entropy(net(normalized(batch.data)), batch.target);
      loss.backward();
      optimizer.step();
      window += loss.detach();
      done += batch.target.size(0);
      ++batches;
      if (++since == redraw) {
        const double sum = window.item<double>();
        epoch_loss += sum;
        window.zero_();
        since = 0;
        bar.update(done, sum / static_cast<double>(redraw));
      }
    });
    if (since > 0) epoch_loss += window.item<double>();
    bar.finish(done, epoch_loss / static_cast<double>(std::max<int64_t>(batches, 1)));
    training_time += std::chrono::steady_clock::now() - epoch_start;
    // Distributed, the plain model evaluates (torch's ddp.module): no DDP bookkeeping.
    nn::Module& evaluated = o.distributed ? static_cast<nn::Module&>(*model) : net;
    out << fmt::format("test accuracy: {:.2f}%\n",
                       test_accuracy(evaluated, test_loader, plan.device, o.distributed));
  }

  out << fmt::format("training time: {:.1f} s for {} epochs on {} ({} cpu cores)\n",
                     training_time.count(), o.epochs, where,
                     std::thread::hardware_concurrency());

  // Every rank holds the same parameters (DDP): rank 0 writes the files.
  if (!o.save.empty() && plan.rank == 0) {
    save(model->state_dict(), o.save);
    out << "saved the parameters to " << o.save << " (safetensors)\n";
  }
  if (!o.memory_snapshot.empty() && plan.rank == 0) {
    cuda::dump_snapshot(o.memory_snapshot);
    cuda::record_memory_history(false);
    out << "wrote the memory snapshot " << o.memory_snapshot << " (tide memviz draws it)\n";
  }
  print_memory_summaries(out, plan);
  return 0;
}

/// Note [Leaving a distributed job]: a rank that fails after joining the process group must
/// not reach MPI_Finalize at exit: Open MPI's finalize waits for every rank, while the other
/// ranks wait for this one in their next collective until the group's timeout (30 minutes by
/// default). Ending the process without finalizing makes mpirun stop the whole job at once,
/// with a non-zero status, which is what a failed training run should do.
[[noreturn]] void leave_job(int status, std::ostream& out, std::ostream& err) {
  out.flush();
  err.flush();
  std::fflush(nullptr);
  std::_Exit(status);
}

}  // namespace

int run_train(const TrainOptions& options, std::ostream& out, std::ostream& err) {
  TrainPlan plan;
  try {
    // --distributed joins the process group inside, after the static checks: outside mpirun
    // it fails there, naming the fix.
    plan = plan_training(options);
  } catch (const Error& e) {
    err << "tide train: " << e.what() << "\n";
    if (distributed::is_initialized()) leave_job(2, out, err);
    return 2;
  }
  int status = 0;
  try {
    status = train(options, plan, out);
  } catch (const std::exception& e) {
    if (!distributed::is_initialized()) throw;
    err << "tide train: rank " << plan.rank << ": " << e.what() << "\n";
    leave_job(1, out, err);
  }
  if (options.distributed) distributed::destroy_process_group();
  return status;
}

}  // namespace tide::cli
