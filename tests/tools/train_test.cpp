// `tide train`, the main job: misuse is one line and exit code 2 before any work; short runs
// on cpu (the MLP and the CNN) and one with DataParallel on two simulated GPUs train and report
// test accuracy; the default run (README's main command) reaches 85% on Fashion-MNIST.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include <unistd.h>

#include "backends/cuda_backend_info.h"
#include "runtime/registry.h"
#include "support/run_cli.h"
#include "tide/serialize.h"
#include "train.h"

namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::StartsWith;
using tide::test::CliResult;
using tide::test::run_executable;

bool have_fashion_mnist() { return std::filesystem::is_directory(tide::cli::kFashionMnistDir); }

#define SKIP_WITHOUT_FASHION_MNIST()                                                     \
  if (!have_fashion_mnist())                                                             \
  GTEST_SKIP() << "Debian's dataset-fashion-mnist is not installed (scripts/install-deps " \
                  "installs it): "                                                       \
               << tide::cli::kFashionMnistDir << " is missing"

/// The misuse line: exit code 2, exactly one line, starting "tide train: ".
void expect_one_line_misuse(const CliResult& r, const std::string& says) {
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_THAT(r.out, StartsWith("tide train: "));
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr(says));
}

/// Every "test accuracy: NN.NN%" of the output, in order.
std::vector<double> accuracies(const std::string& out) {
  std::vector<double> found;
  static const std::regex line("test accuracy: ([0-9]+\\.[0-9]{2})%");
  for (auto it = std::sregex_iterator(out.begin(), out.end(), line); it != std::sregex_iterator();
       ++it) {
    found.push_back(std::stod((*it)[1]));
  }
  return found;
}


/// Writes a tiny MNIST-format directory (plain IDX files) whose class is written in the
/// image: image i of class c = i % 10 has row c of pixels lit, so a model learns it at once.
std::string write_tiny_mnist(const std::string& name, int count) {
  const std::string dir = ::testing::TempDir() + "/" + name;
  std::filesystem::create_directories(dir);
  auto be32 = [](std::ofstream& f, uint32_t v) {
    const char bytes[4] = {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
    f.write(bytes, 4);
  };
  for (const char* split : {"train", "t10k"}) {
    std::ofstream images(dir + "/" + split + "-images-idx3-ubyte", std::ios::binary);
    be32(images, 0x00000803);
    be32(images, static_cast<uint32_t>(count));
    be32(images, 28);
    be32(images, 28);
    std::ofstream labels(dir + "/" + split + "-labels-idx1-ubyte", std::ios::binary);
    be32(labels, 0x00000801);
    be32(labels, static_cast<uint32_t>(count));
    for (int i = 0; i < count; ++i) {
      const int label = i % 10;
      for (int row = 0; row < 28; ++row) {
        const char pixel = row == label ? char(255) : char(0);
        for (int col = 0; col < 28; ++col) images.put(pixel);
      }
      labels.put(static_cast<char>(label));
    }
  }
  return dir;
}

TEST(TideTrain, ARepeatedGpuIsOneLineBeforeAnyWork) {
  expect_one_line_misuse(run_executable("TIDE_SIM_DEVICES=2", "train --gpus 0,0"),
                         "--gpus: device 0 is listed twice");
}

TEST(TideTrain, AGpuThatDoesNotExistIsOneLine) {
  expect_one_line_misuse(run_executable("TIDE_SIM_DEVICES=2", "train --gpus 0,2"),
                         "--gpus: cuda:2 does not exist; there are 2 cuda devices (cuda:0..cuda:1)");
}

TEST(TideTrain, ADeviceThatDoesNotExistIsOneLine) {
  expect_one_line_misuse(run_executable("TIDE_SIM_DEVICES=2", "train --device cuda:7"),
                         "--device cuda:7: no such device; there are 2 cuda devices");
  expect_one_line_misuse(run_executable("TIDE_SIM_DEVICES=0", "train --device cuda"),
                         "there is no cuda device");
}

TEST(TideTrain, AMalformedDeviceIsOneLine) {
  expect_one_line_misuse(run_executable("", "train --device gpu0"),
                         "--device gpu0: expected auto, cpu, cuda or cuda:N");
}

TEST(TideTrain, AMissingDataDirectoryIsOneLine) {
  expect_one_line_misuse(run_executable("", "train --data /no/such/dir"),
                         "--data /no/such/dir: no such directory");
}

TEST(TideTrain, ADirectoryWithoutTheFilesIsOneLineNamingTheMissingFile) {
  const std::string dir = ::testing::TempDir() + "/tide_train_empty_data";
  std::filesystem::create_directories(dir);
  expect_one_line_misuse(run_executable("", "train --data " + dir),
                         "train-images-idx3-ubyte[.gz] is missing");
}

TEST(TideTrain, DisableCudaContradictsACudaDeviceOrGpus) {
  expect_one_line_misuse(run_executable("TIDE_SIM_DEVICES=2", "train --disable-cuda --gpus 0,1"),
                         "--gpus and --disable-cuda contradict each other");
  expect_one_line_misuse(run_executable("TIDE_SIM_DEVICES=2", "train --disable-cuda --device cuda:1"),
                         "--device cuda:1 and --disable-cuda contradict each other");
}

TEST(TideTrain, AMemorySnapshotNeedsACudaDevice) {
  expect_one_line_misuse(run_executable("TIDE_SIM_DEVICES=0", "train --memory-snapshot m.json"),
                         "memory snapshots are of cuda devices");
}

TEST(TideTrain, BadNumbersAreOneLine) {
  expect_one_line_misuse(run_executable("", "train --epochs 0"), "--epochs 0: expected at least 1");
  expect_one_line_misuse(run_executable("", "train --batch-size 0"), "--batch-size 0");
  expect_one_line_misuse(run_executable("", "train --lr -1"), "--lr -1");
}

TEST(TideTrain, ShortRunOnCpuPrintsProgressAccuracyAndSaves) {
  SKIP_WITHOUT_FASHION_MNIST();
  const std::string saved = ::testing::TempDir() + "/tide_train_short.safetensors";
  CliResult r = run_executable(
      "TIDE_SIM_DEVICES=0", "train --limit 4000 --epochs 2 --workers 1 --save " + saved);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("data: /usr/share/datasets/fashion-mnist: 4000 training and 4000 "
                               "test images\n"));
  EXPECT_THAT(r.out, HasSubstr("model: mlp 784-256-10 on cpu"));
  EXPECT_THAT(r.out, HasSubstr("epoch 1/2 ["));
  EXPECT_THAT(r.out, HasSubstr("samples/s  loss "));
  const std::vector<double> acc = accuracies(r.out);
  ASSERT_EQ(acc.size(), 2u) << r.out;
  EXPECT_GT(acc[1], 60.0) << r.out;  // 4000 samples, 2 epochs: ~75% (10 classes: 10% by chance)
  const auto state = tide::load(saved);
  EXPECT_EQ(state.at("1.weight").sizes(), (std::vector<int64_t>{256, 784}));
  EXPECT_EQ(state.at("3.bias").sizes(), (std::vector<int64_t>{10}));
}

TEST(TideTrain, AnUnknownModelIsOneLineListingTheModels) {
  expect_one_line_misuse(run_executable("", "train --model resnet"),
                         "--model resnet: the models are: mlp, cnn");
}

TEST(TideTrain, TheCnnTrainsOnASubsetAndSavesBatchNormsBuffers) {
  SKIP_WITHOUT_FASHION_MNIST();
  const std::string saved = ::testing::TempDir() + "/tide_train_cnn.safetensors";
  // OMP_WAIT_POLICY=passive: on a loaded 2-core runner, OpenMP threads spinning at the end of
  // each parallel region slowed this run from a few seconds to over a minute.
  CliResult r = run_executable("TIDE_SIM_DEVICES=0 OMP_WAIT_POLICY=passive",
                               "train --model cnn --limit 1280 --epochs 1 --workers 1 --save " +
                                   saved);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("model: cnn conv32-bn-relu-pool-conv64-bn-relu-pool-linear10 on "
                               "cpu"));
  EXPECT_THAT(r.out, HasSubstr("SGD lr 0.02 (cosine schedule over the epochs) momentum 0.9"));
  EXPECT_THAT(r.out, HasSubstr("training time: "));
  const std::vector<double> acc = accuracies(r.out);
  ASSERT_EQ(acc.size(), 1u) << r.out;
  EXPECT_GT(acc[0], 50.0) << r.out;  // 1280 samples, one epoch: ~70% (chance: 10%)
  const auto state = tide::load(saved);
  EXPECT_EQ(state.at("0.weight").sizes(), (std::vector<int64_t>{32, 1, 3, 3}));
  EXPECT_EQ(state.at("1.running_mean").sizes(), (std::vector<int64_t>{32}));
  EXPECT_EQ(state.at("5.running_var").sizes(), (std::vector<int64_t>{64}));
  EXPECT_EQ(state.at("5.num_batches_tracked").item<int64_t>(), 20);  // 1280 / 64 batches
  EXPECT_EQ(state.at("9.weight").sizes(), (std::vector<int64_t>{10, 64 * 7 * 7}));
}

TEST(TideTrain, DataParallelOnTwoSimulatedGpusTrainsAndSummarizesEachDevice) {
  SKIP_WITHOUT_FASHION_MNIST();
  const std::string snapshot = ::testing::TempDir() + "/tide_train_snapshot.json";
  CliResult r = run_executable("TIDE_SIM_DEVICES=2", "train --gpus 0,1 --limit 2000 --epochs 1 "
                                                     "--memory-snapshot " + snapshot);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("on DataParallel over cuda:0,cuda:1"));
  EXPECT_THAT(r.out, HasSubstr("pinned batches"));
  EXPECT_EQ(accuracies(r.out).size(), 1u) << r.out;
  EXPECT_THAT(r.out, HasSubstr("cuda:0 memory (tide::cuda::memory_summary):\n"));
  EXPECT_THAT(r.out, HasSubstr("cuda:1 memory (tide::cuda::memory_summary):\n"));
  EXPECT_TRUE(std::filesystem::file_size(snapshot) > 0);
}

TEST(TideTrain, TrainsOnASimulatedGpuWithPinnedBatchesThroughThePrefetcher) {
  const std::string dir = write_tiny_mnist("tide_train_tiny_sim", 640);
  CliResult r = run_executable("TIDE_SIM_DEVICES=1", "train --device cuda --epochs 2 --data " + dir);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("640 training and 640 test images"));
  EXPECT_THAT(r.out, HasSubstr("model: mlp 784-256-10 on cuda:0;"));
  EXPECT_THAT(r.out, HasSubstr("pinned batches"));
  const std::vector<double> acc = accuracies(r.out);
  ASSERT_EQ(acc.size(), 2u) << r.out;
  EXPECT_EQ(acc.back(), 100.0) << r.out;  // the class is a lit row: learned in one epoch
  EXPECT_THAT(r.out, HasSubstr("cuda:0 memory (tide::cuda::memory_summary):\n"));
}

TEST(TideTrain, TrainsOnRealGpusWithDataParallelOverAll) {
  if (!tide::runtime::real_cuda_devices_present()) {
    GTEST_SKIP() << "no real GPU here (the simulated-GPU runs above cover the same code)";
  }
  const std::string dir = write_tiny_mnist("tide_train_tiny_gpu", 640);
  CliResult one = run_executable("", "train --device cuda --epochs 2 --data " + dir);
  ASSERT_EQ(one.code, 0) << one.out;
  EXPECT_THAT(one.out, HasSubstr("on cuda:0;"));
  ASSERT_EQ(accuracies(one.out).size(), 2u) << one.out;
  EXPECT_EQ(accuracies(one.out).back(), 100.0) << one.out;
  if (tide::backends::real_cuda_device_count() < 2) return;  // one GPU: no DataParallel run
  CliResult dp = run_executable("", "train --gpus 0,1 --epochs 2 --data " + dir);
  ASSERT_EQ(dp.code, 0) << dp.out;
  EXPECT_THAT(dp.out, HasSubstr("on DataParallel over cuda:0,cuda:1"));
  EXPECT_EQ(accuracies(dp.out).back(), 100.0) << dp.out;
}

TEST(TideTrain, TheDefaultRunReaches85PercentOnFashionMnist) {
  SKIP_WITHOUT_FASHION_MNIST();
  // The README's main command on a machine without a GPU: cpu, 5 epochs, all 60000 images.
  CliResult r = run_executable("TIDE_SIM_DEVICES=0", "train");
  ASSERT_EQ(r.code, 0) << r.out;
  const std::vector<double> acc = accuracies(r.out);
  ASSERT_EQ(acc.size(), 5u) << r.out;
  EXPECT_GE(acc.back(), 85.0) << r.out;
}

}  // namespace

namespace {

// --distributed: one process per device under mpirun (tide launch), DistributedDataParallel.

/// What the ranks' environment needs beyond the test's (asan builds: Open MPI's own leaks).
#ifdef TIDE_TEST_MPI_RANK_ENV
constexpr const char* kRankEnv = TIDE_TEST_MPI_RANK_ENV " ";
#else
constexpr const char* kRankEnv = "";
#endif

/// `tide launch -n 2 -- tide ARGS` on TIDE_SIM_DEVICES=`sim_devices`, as plain mpirun starts a
/// job (no local rank but Open MPI's). With `one_gpu_per_process`, README's cluster binding:
/// each rank runs sh -c 'CUDA_VISIBLE_DEVICES=$OMPI_COMM_WORLD_LOCAL_RANK tide ARGS'.
CliResult launch_two_ranks(int sim_devices, const std::string& args,
                           bool one_gpu_per_process = false) {
  const std::string tide = std::string(TIDE_CLI_EXECUTABLE) + " " + args;
  const std::string command =
      one_gpu_per_process ? "sh -c 'CUDA_VISIBLE_DEVICES=$OMPI_COMM_WORLD_LOCAL_RANK " + tide + "'"
                          : tide;
  return run_executable(std::string("-u LOCAL_RANK -u SLURM_LOCALID ") + kRankEnv +
                            "TIDE_SIM_DEVICES=" + std::to_string(sim_devices),
                        "launch -n 2 -- " + command);
}

TEST(TideTrain, DistributedOutsideMpirunIsOneLineNamingTheLauncher) {
  const std::string dir = write_tiny_mnist("tide_train_tiny_dist_misuse", 20);
  CliResult r = run_executable("TIDE_SIM_DEVICES=0", "train --distributed --data " + dir);
  expect_one_line_misuse(r, "expected the launcher's rank and world size");
  EXPECT_THAT(r.out, HasSubstr("tide launch -n N"));
}

TEST(TideTrain, DistributedWithGpusIsOneLine) {
  const std::string dir = write_tiny_mnist("tide_train_tiny_dist_gpus", 20);
  CliResult r = run_executable("TIDE_SIM_DEVICES=2", "train --distributed --gpus 0,1 --data " + dir);
  expect_one_line_misuse(r, "--distributed and --gpus");
}

TEST(TideTrain, DistributedOnTwoCpuRanksUnderTideLaunchTrainsAndRankZeroSaves) {
  const std::string dir = write_tiny_mnist("tide_train_tiny_dist_cpu", 640);
  const std::string saved = ::testing::TempDir() + "/tide_train_dist.safetensors";
  std::filesystem::remove(saved);
  CliResult r = launch_two_ranks(0, "train --distributed --epochs 2 --workers 0 --data " + dir +
                                        " --save " + saved);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("on DistributedDataParallel, 2 processes (mpi), rank 0 on cpu"));
  // Each rank trains on half of the 640 samples; only rank 0 prints.
  EXPECT_THAT(r.out, HasSubstr("320/320"));
  const std::vector<double> acc = accuracies(r.out);
  ASSERT_EQ(acc.size(), 2u) << r.out;
  EXPECT_EQ(acc.back(), 100.0) << r.out;
  EXPECT_EQ(tide::load(saved).at("1.weight").sizes(), (std::vector<int64_t>{256, 784}));
}

// Plain mpirun (tide launch) sets no LOCAL_RANK: the local rank is Open MPI's
// OMPI_COMM_WORLD_LOCAL_RANK (Note [Launcher environment]). Each process sees the machine's 2
// (simulated) GPUs and takes cuda:(local rank % 2).
TEST(TideTrain, DistributedOnTwoRanksWithASimulatedGpuEach) {
  const std::string dir = write_tiny_mnist("tide_train_tiny_dist_sim", 640);
  CliResult r = launch_two_ranks(2, "train --distributed --epochs 2 --data " + dir);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("2 processes (mpi), rank 0 on cuda:0"));
  EXPECT_THAT(r.out, HasSubstr("pinned batches"));
  const std::vector<double> acc = accuracies(r.out);
  ASSERT_EQ(acc.size(), 2u) << r.out;
  EXPECT_EQ(acc.back(), 100.0) << r.out;
}

TEST(TideLaunch, CudaVisibleDevicesSetPerRankMasksTheSimulatedGpus) {
  CliResult r = launch_two_ranks(2, "info", /*one_gpu_per_process=*/true);
  ASSERT_EQ(r.code, 0) << r.out;
  size_t masked = 0;
  for (size_t at = r.out.find("  cuda: 1 device\n"); at != std::string::npos;
       at = r.out.find("  cuda: 1 device\n", at + 1)) {
    ++masked;
  }
  EXPECT_EQ(masked, 2u) << r.out;
}

// The command (README): with one GPU visible per process every rank trains on its
// cuda:0, where cuda:LOCAL_RANK would not exist on rank 1.
TEST(TideTrain, DistributedWithOneVisibleGpuPerProcessTrainsEveryRankOnItsCuda0) {
  const std::string dir = write_tiny_mnist("tide_train_tiny_dist_visible", 640);
  CliResult r = launch_two_ranks(2, "train --distributed --epochs 1 --workers 0 --data " + dir,
                                 /*one_gpu_per_process=*/true);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("2 processes (mpi), rank 0 on cuda:0"));
  EXPECT_THAT(r.out, HasSubstr("320/320"));
  const std::vector<double> acc = accuracies(r.out);
  ASSERT_EQ(acc.size(), 1u) << r.out;
  EXPECT_GT(acc.back(), 50.0) << r.out;
}

// More ranks than GPUs: on simulated GPUs (the group on MPI) ranks share them round-robin
// (Note [The rank's device]; on real GPUs NCCL's one rank per GPU is enforced:
// RankDevice.MoreRanksThanGpusOnNcclAreRefusedNamingTheCount).
TEST(TideTrain, DistributedRanksShareASimulatedGpuWhenThereAreMoreRanksThanGpus) {
  const std::string dir = write_tiny_mnist("tide_train_tiny_dist_shared", 640);
  CliResult r = launch_two_ranks(1, "train --distributed --epochs 1 --workers 0 --data " + dir);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("2 processes (mpi), rank 0 on cuda:0"));
  EXPECT_EQ(accuracies(r.out).size(), 1u) << r.out;
}

// A --device that names a GPU is every rank's choice (here each rank's only GPU).
TEST(TideTrain, DistributedOnANamedDevice) {
  const std::string dir = write_tiny_mnist("tide_train_tiny_dist_named", 640);
  CliResult r = launch_two_ranks(
      1, "train --distributed --device cuda:0 --epochs 1 --workers 0 --data " + dir);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("2 processes (mpi), rank 0 on cuda:0"));
}

TEST(TideTrain, DistributedOnADeviceThatDoesNotExistIsOneLine) {
  const std::string dir = write_tiny_mnist("tide_train_tiny_dist_missing", 20);
  CliResult r = run_executable("TIDE_SIM_DEVICES=1",
                               "train --distributed --device cuda:1 --data " + dir);
  expect_one_line_misuse(r, "--device cuda:1: no such device; there is 1 cuda device (cuda:0)");
  // RANK and WORLD_SIZE: as a launcher would set them, so that the check is the device's.
  CliResult none = run_executable("RANK=0 WORLD_SIZE=1 TIDE_SIM_DEVICES=0",
                                  "train --distributed --device cuda --data " + dir);
  expect_one_line_misuse(none, "--distributed --device cuda: rank");
}

TEST(TideLaunch, DryRunPrintsTheMpirunCommand) {
  CliResult r = tide::test::run_cli(
      {"launch", "-n", "64", "--dry-run", "--", "tide", "train", "--distributed"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("mpirun -np 64 "));
  EXPECT_THAT(r.out, HasSubstr(" --oversubscribe "));  // more ranks than cores, one machine
  if (geteuid() == 0) {
    EXPECT_THAT(r.out, HasSubstr(" --allow-run-as-root "));
  }
  EXPECT_THAT(r.out, ::testing::EndsWith(" tide train --distributed\n"));
}

TEST(TideLaunch, AMissingHostfileOrNoCommandIsMisuse) {
  CliResult r = tide::test::run_cli(
      {"launch", "-n", "2", "--hostfile", "/nonexistent/hosts", "--", "tide", "info"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("--hostfile /nonexistent/hosts: no such file; write one line per "
                               "machine"));
  CliResult none = tide::test::run_cli({"launch", "-n", "2"});
  EXPECT_NE(none.code, 0);
  CliResult zero = tide::test::run_cli({"launch", "-n", "0", "--", "tide", "info"});
  EXPECT_EQ(zero.code, 2);
  EXPECT_THAT(zero.err, HasSubstr("-n 0: expected at least 1 process"));
}

}  // namespace
