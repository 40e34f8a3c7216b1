// The tide CLI: the commands in-process (tools/tide/cli.h), and the built executable where a
// fresh process matters (the runtime reads TIDE_SIM_DEVICES once per process).

#include "cli.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "backends/cuda_backend_info.h"
#include "demo.h"
#include "devices.h"
#include "info.h"
#include "runtime/registry.h"
#include "support/run_cli.h"
#include "tide/version.h"

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

namespace {

using tide::test::CliResult;
using tide::test::run_cli;
using tide::test::run_executable;

}  // namespace

TEST(TideInfo, PrintsVersionBuildOptionsAndDevices) {
  std::ostringstream out;
  tide::cli::print_info(out);
  EXPECT_THAT(out.str(), HasSubstr("tide " + tide::version() + "\n"));
  EXPECT_THAT(out.str(), HasSubstr("build:\n  version=" + tide::version() + "\n"));
  EXPECT_THAT(out.str(), HasSubstr("  build_type="));
  EXPECT_THAT(out.str(), HasSubstr("  blas="));
  EXPECT_THAT(out.str(), HasSubstr("devices:\n  cpu: available ("));
}

TEST(TideInfo, SaysWhetherTheCudaBackendIsCompiledAndWhyNoCudaDeviceIsThere) {
  tide::cli::CudaAvailability cuda = tide::cli::cuda_availability();
  if (cuda.device_count > 0) GTEST_SKIP() << "this process has cuda devices";
  std::ostringstream out;
  tide::cli::print_info(out);
  if (tide::backends::cuda_backend_compiled()) {
    EXPECT_THAT(out.str(), HasSubstr("cuda: not available (the real CUDA backend is compiled in, but found no GPU)"));
    EXPECT_THAT(out.str(), HasSubstr("cuda_backend=compiled"));
  } else {
    EXPECT_THAT(out.str(), HasSubstr("cuda: not available (no CUDA backend in this build)\n"));
    EXPECT_THAT(out.str(), HasSubstr("cuda_backend=not compiled"));
  }
  EXPECT_THAT(out.str(), HasSubstr("    why: " + cuda.no_device_reason + "\n"));
  EXPECT_THAT(cuda.no_device_reason, HasSubstr("TIDE_SIM_DEVICES"));
}

TEST(TideDemo, RunsTheSeedExamplesOnCpuAndPrintsTheirTensors) {
  std::ostringstream out;
  EXPECT_EQ(tide::cli::run_demo({.disable_cuda = true}, out), 0) << out.str();
  const std::string s = out.str();
  EXPECT_THAT(s, HasSubstr("[1] Devices are values\n"));
  EXPECT_THAT(s, HasSubstr("cuda == cuda0 -> false"));
  EXPECT_THAT(s, HasSubstr("--disable-cuda given -> args.device = cpu\n"));
  EXPECT_THAT(s, HasSubstr("    x.device is: cpu\n"));
  EXPECT_THAT(s, HasSubstr("    y_cpu = x_cpu.new_full({3, 2}, 0.3)\n"
                           "      tensor([[0.3000, 0.3000],\n"
                           "              [0.3000, 0.3000],\n"
                           "              [0.3000, 0.3000]])\n"));
  EXPECT_THAT(s, HasSubstr("      tensor([[1, 2, 3]])\n"));
  EXPECT_THAT(s, HasSubstr("      tensor([[1., 1., 1.],\n"
                           "              [1., 1., 1.]])\n"));
  EXPECT_THAT(s, HasSubstr("[0, 0, 0]], dtype=tide.int32)\n"));
  EXPECT_THAT(s, HasSubstr("      tensor([2., 4.])\n"));
  if (tide::cli::cuda_availability().device_count == 0) {
    EXPECT_THAT(s, HasSubstr("tide::tensor({1., 2.}).cuda() throws tide::Error:\n"));
  }
  EXPECT_THAT(s, Not(HasSubstr("FAILED")));
}

TEST(TideDemo, ListsTheCudaStepsItSkipsWithTheReason) {
  std::ostringstream out;
  EXPECT_EQ(tide::cli::run_demo({.disable_cuda = true}, out), 0) << out.str();
  const std::string s = out.str();
  EXPECT_THAT(s, HasSubstr("skipped 14 steps that need cuda devices:\n"));
  EXPECT_THAT(s, HasSubstr("  [10] The current device and tide::cuda::DeviceGuard (needs 2 cuda "
                           "devices)\n"));
  EXPECT_THAT(s, HasSubstr("  [2] Tensors stay where they were allocated (needs 1 cuda device "
                           "with tensors)\n"));
  EXPECT_THAT(s, HasSubstr("    why: --disable-cuda was given\n"));
  EXPECT_THAT(s, HasSubstr("    y_gpu = x_gpu.new_full({3, 2}, -5)  skipped: --disable-cuda was "
                           "given\n"));
  EXPECT_THAT(s, HasSubstr("demo: 6 steps ran, 14 skipped, 0 failed\n"));
}

TEST(TideDemo, SaysWhyThereIsNoCudaDeviceWhenThereIsNone) {
  tide::cli::CudaAvailability cuda = tide::cli::cuda_availability();
  if (cuda.device_count > 0) GTEST_SKIP() << "this process has cuda devices";
  std::ostringstream out;
  EXPECT_EQ(tide::cli::run_demo({}, out), 0) << out.str();
  EXPECT_THAT(out.str(), HasSubstr("devices: cpu, and 0 cuda devices\n"));
  EXPECT_THAT(out.str(), HasSubstr("    why: no cuda device: " + cuda.no_device_reason + "\n"));
}

TEST(TideCli, RunsInfoAndDemoSubcommands) {
  CliResult info = run_cli({"info"});
  EXPECT_EQ(info.code, 0) << info.err;
  EXPECT_THAT(info.out, HasSubstr("devices:"));
  CliResult demo = run_cli({"demo", "--disable-cuda"});
  EXPECT_EQ(demo.code, 0) << demo.out << demo.err;
  EXPECT_THAT(demo.out, HasSubstr("demo: 6 steps ran, 14 skipped, 0 failed\n"));
}

TEST(TideCli, PrintsTheVersionWithVersionFlag) {
  CliResult r = run_cli({"--version"});
  EXPECT_EQ(r.code, 0);
  EXPECT_THAT(r.out, HasSubstr(tide::version()));
}

TEST(TideCli, RejectsAnUnknownSubcommandWithCli11sError) {
  CliResult r = run_cli({"frobnicate"});
  EXPECT_NE(r.code, 0);
  EXPECT_THAT(r.err, HasSubstr("frobnicate"));
  EXPECT_THAT(r.err, HasSubstr("--help"));
}

TEST(TideCli, RejectsAnUnknownFlag) {
  CliResult r = run_cli({"demo", "--no-such-flag"});
  EXPECT_NE(r.code, 0);
  EXPECT_THAT(r.err, HasSubstr("--no-such-flag"));
}

// Issue 25 item 9: a value that does not convert is misuse like any other: status 2, one line.
TEST(TideCli, ExitsTwoWithOneLineOnAValueThatDoesNotConvert) {
  CliResult r = run_cli({"train", "--lr", "abc"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("--lr"));
  EXPECT_THAT(r.err, HasSubstr("abc"));
  EXPECT_THAT(r.err, HasSubstr("tide train --help lists the options"));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(TideCli, ExitsTwoOnAnUnknownFlag) {
  CliResult r = run_cli({"demo", "--no-such-flag"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(TideCli, RequiresASubcommand) {
  CliResult r = run_cli({});
  EXPECT_NE(r.code, 0);
  EXPECT_THAT(r.err, HasSubstr("subcommand"));
}

TEST(TideExecutable, PrintsInfoAndExitsZero) {
  CliResult r = run_executable("", "info");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("tide " + tide::version()));
  EXPECT_THAT(r.out, HasSubstr("devices:"));
}

TEST(TideExecutable, RunsTheDemoAndExitsZero) {
  CliResult r = run_executable("", "demo");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("tensor([[1, 2, 3]])"));
  EXPECT_THAT(r.out, Not(HasSubstr("FAILED")));
}

TEST(TideExecutable, ExitsNonZeroOnAnUnknownSubcommand) {
  CliResult r = run_executable("", "frobnicate");
  EXPECT_NE(r.code, 0);
  EXPECT_THAT(r.out, HasSubstr("The following argument was not expected: frobnicate"));
}

// The runtime reads TIDE_SIM_DEVICES once per process, so these run the executable.
TEST(TideExecutable, ListsSimulatedDevicesInInfo) {
  CliResult r = run_executable("TIDE_SIM_DEVICES=2", "info");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("  cuda: 2 devices\n"));
  EXPECT_THAT(r.out,
              HasSubstr("    cuda:1:\n"
                        "      name: tide simulated GPU (physical 1)\n"
                        "      total memory: 16384 MiB\n"
                        "      compute capability: 9.0\n"
                        "      streaming multiprocessors: 132\n"
                        "      simulated: yes (host memory and a worker thread per stream, "
                        "no GPU hardware; TIDE_SIM_DEVICES)\n"
                        "      _CudaDeviceProperties(name='tide simulated GPU (physical 1)', "
                        "major=9, minor=0, total_memory=16384MB, multi_processor_count=132, "
                        "simulated=True)\n"));
  EXPECT_THAT(r.out, Not(HasSubstr("    cuda:2:")));
}

TEST(TideExecutable, ListsEveryDeviceWithItsPropertiesInInfo) {
  CliResult r =
      run_executable("TIDE_SIM_DEVICES=3 TIDE_SIM_MEMORY=1GiB CUDA_VISIBLE_DEVICES=2,0,1", "info");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("  cuda: 3 devices\n"));
  EXPECT_THAT(r.out, HasSubstr("    cuda:0:\n      name: tide simulated GPU (physical 2)\n"
                               "      total memory: 1024 MiB\n"));
  EXPECT_THAT(r.out, HasSubstr("    cuda:1:\n      name: tide simulated GPU (physical 0)\n"));
  EXPECT_THAT(r.out, HasSubstr("    cuda:2:\n      name: tide simulated GPU (physical 1)\n"));
}

TEST(TideExecutable, ReportsABadTideSimDevicesInInfoAndStillExitsZero) {
  CliResult r = run_executable("TIDE_SIM_DEVICES=lots", "info");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("cuda: not available"));
  EXPECT_THAT(r.out, HasSubstr("    why: [TIDE_SIM_DEVICES]"));
}

TEST(TideExecutable, RunsTheDeviceGuardStepOnTwoSimulatedDevices) {
  CliResult r = run_executable("TIDE_SIM_DEVICES=2", "demo");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("devices: cpu, and 2 cuda devices\n"));
  EXPECT_THAT(r.out, HasSubstr("[10] The current device and tide::cuda::DeviceGuard\n"));
  EXPECT_THAT(r.out,
              HasSubstr("    Inside device is 1  (inside tide::cuda::DeviceGuard guard(1))\n"));
  EXPECT_THAT(r.out, HasSubstr("skipped 1 step that need cuda devices:\n"
                               "  [4] The device can always be named explicitly (needs 3 cuda "
                               "devices with tensors)\n"
                               "    why: needs more cuda devices than the 2 present"));
  EXPECT_THAT(r.out, HasSubstr("demo: 19 steps ran, 1 skipped, 0 failed\n"));
  EXPECT_THAT(r.out, Not(HasSubstr("FAILED")));
}

// The seeds' examples line by line on 3 simulated GPUs (issue 3: "tide demo reproduces the
// seeds' device placements and values line by line"), printed in torch's current format.
class TideDemoOnThreeSimulatedGpus : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { result_ = run_executable("TIDE_SIM_DEVICES=3", "demo"); }
  static const std::string& out() { return result_.out; }
  static CliResult result_;
};
CliResult TideDemoOnThreeSimulatedGpus::result_;

TEST_F(TideDemoOnThreeSimulatedGpus, RunsEveryStepAndExitsZero) {
  EXPECT_EQ(result_.code, 0) << out();
  EXPECT_THAT(out(), HasSubstr("devices: cpu, and 3 cuda devices\n"));
  EXPECT_THAT(out(), HasSubstr("demo: 20 steps ran, 0 skipped, 0 failed\n"));
  EXPECT_THAT(out(), Not(HasSubstr("FAILED")));
}

TEST_F(TideDemoOnThreeSimulatedGpus, MovesBatchNormsBuffersAndEvalUsesTheRunningStatistics) {
  EXPECT_THAT(out(), HasSubstr("    nn::BatchNorm2d bn(2);  bn.to(device);  // parameters and "
                               "buffers, in place\n"
                               "    buffer 'running_mean' on cuda:0\n"
                               "    buffer 'running_var' on cuda:0\n"
                               "    buffer 'num_batches_tracked' on cuda:0\n"));
  EXPECT_THAT(out(), HasSubstr("    bn.num_batches_tracked -> 1\n"));
  EXPECT_THAT(out(), HasSubstr("    bn.eval();  y = bn(x);  // the running statistics, not the "
                               "batch's\n"
                               "    y.mean(): 0.0000 in train(), "));
}

TEST_F(TideDemoOnThreeSimulatedGpus, SaysPlainlyThatTheGpusAreSimulated) {
  EXPECT_THAT(out(), HasSubstr("the cuda devices are SIMULATED GPUs (TIDE_SIM_DEVICES): they live "
                               "in host memory and run each stream on a worker thread, with the "
                               "semantics of real GPUs; no GPU hardware is used\n"));
}

TEST_F(TideDemoOnThreeSimulatedGpus, PlacesXAndYOnCuda0) {
  EXPECT_THAT(out(), HasSubstr("    x = tide::tensor({1., 2.}, tide::device(cuda0));\n"
                               "    x.device is: cuda:0\n"
                               "    y = tide::tensor({1., 2.}).cuda();\n"
                               "    y.device is: cuda:0\n"));
}

TEST_F(TideDemoOnThreeSimulatedGpus, PlacesNewTensorsOnTheGuardedDeviceAndResultsWithOperands) {
  EXPECT_THAT(out(), HasSubstr("      a.device is: cuda:1\n"));
  EXPECT_THAT(out(), HasSubstr("      b.device is: cuda:1\n"));
  EXPECT_THAT(out(), HasSubstr("      b2.device is: cuda:1\n"));
  EXPECT_THAT(out(), HasSubstr("      c = a + b;\n"
                               "      c.device is: cuda:1\n"
                               "        tensor([2., 4.], device='cuda:1')\n"
                               "      z = x + y;\n"
                               "      z.device is: cuda:0\n"
                               "        tensor([2., 4.], device='cuda:0')\n"));
}

TEST_F(TideDemoOnThreeSimulatedGpus, PlacesDEAndFOnCuda2EvenInsideTheGuard) {
  EXPECT_THAT(out(), HasSubstr("      d = tide::randn({2}, tide::device(cuda2));\n"
                               "      d.device is: cuda:2\n"
                               "      e = tide::randn({2}).to(cuda2);\n"
                               "      e.device is: cuda:2\n"
                               "      f = tide::randn({2}).cuda(cuda2);  // or .cuda(2)\n"
                               "      f.device is: cuda:2\n"));
  EXPECT_THAT(out(), HasSubstr("e and f hold the values of the cpu tensors they were copied from: "
                               "true\n"));
}

TEST_F(TideDemoOnThreeSimulatedGpus, ShowsTorchsCrossDeviceErrorAndTheCopyThatAvoidsIt) {
  EXPECT_THAT(out(), HasSubstr("    a + x throws tide::Error:\n"
                               "      [add] Expected all tensors to be on the same device, but "
                               "found at least two devices, cuda:1 and cuda:0!\n"));
  EXPECT_THAT(out(), HasSubstr("    a + x.to(a.device())  // a copy is the exception\n"
                               "      tensor([2., 4.], device='cuda:1')\n"));
}

TEST_F(TideDemoOnThreeSimulatedGpus, RaisesTheOutOfRangeTargetAtItemNamingOpAndScope) {
  EXPECT_THAT(out(), HasSubstr("    loss.item<float>() throws tide::KernelError:\n"
                               "      [cuda] kernel error in op 'nll_loss' (sequence number "));
  EXPECT_THAT(out(), HasSubstr("on stream 0 of cuda:0, enqueued in scope 'loss'): [nll_loss] "
                               "Target 5 is out of bounds."));
  EXPECT_THAT(out(), HasSubstr("    // the device stays usable:\n"
                               "      tensor([2., 4.], device='cuda:0')\n"));
}

TEST_F(TideDemoOnThreeSimulatedGpus, OrdersStreamsWithWaitStreamAndShowsTheRaceWithout) {
  EXPECT_THAT(out(), HasSubstr("    B.device is: cuda:0\n"
                               "    B equals the same sum computed on cpu (to float rounding): true\n"));
  EXPECT_THAT(out(), HasSubstr("    B = tide::sum(A) read A before normal_() filled it: 0 (A's "
                               "zeros); after normal_() ran: not 0\n"));
}

TEST_F(TideDemoOnThreeSimulatedGpus, PrintsTheSeedsDeviceContextLines) {
  EXPECT_THAT(out(), HasSubstr("    Outside device is 0  (tide::cuda::current_device())\n"
                               "    Inside device is 1  (inside tide::cuda::DeviceGuard guard(1))\n"
                               "    Outside device is still 0  (after the guard)\n"));
  EXPECT_THAT(out(), HasSubstr("-> args.device = cuda\n"
                               "    x = tide::empty({8, 42}, tide::device(args.device)) -> sizes "
                               "(8, 42)\n"
                               "    x.device is: cuda:0\n"));
}

TEST_F(TideDemoOnThreeSimulatedGpus, MovesModulesInPlaceAndTensorsByCopy) {
  EXPECT_THAT(out(), HasSubstr("    t.is_cuda() -> false, t_cuda.is_cuda() -> true\n"));
  EXPECT_THAT(out(), HasSubstr("    module.weight.is_cuda() -> true  (and a handle taken before "
                               "the move sees it too: true)\n"));
}

TEST_F(TideDemoOnThreeSimulatedGpus, MovesTheLossWeightWithCriterionCuda) {
  EXPECT_THAT(out(), HasSubstr("    criterion(inputs, target) before criterion.cuda() throws "
                               "tide::Error:\n      [cross_entropy] Expected all tensors to be on "
                               "the same device"));
  EXPECT_THAT(out(),
              HasSubstr("    criterion buffer 'weight': tensor([1., 3.], device='cuda:0')\n"));
}

TEST_F(TideDemoOnThreeSimulatedGpus, FollowsSetDeviceAndSetDefaultDevice) {
  EXPECT_THAT(out(), HasSubstr("    tide::tensor({1., 2.}).cuda().device is: cuda:1\n"));
  EXPECT_THAT(out(), HasSubstr("    tide::ones({2, 3}).is_cuda() -> true (cuda:1)\n"));
}

TEST_F(TideDemoOnThreeSimulatedGpus, CopiesPinnedDataLoaderBatchesWithNonBlocking) {
  EXPECT_THAT(out(), HasSubstr("      batch of 4: batch.data.is_pinned() -> true, x on cuda:0, "
                               "x.sum() = 28\n"
                               "      batch of 2: batch.data.is_pinned() -> true, x on cuda:0, "
                               "x.sum() = 38\n"));
}

TEST_F(TideDemoOnThreeSimulatedGpus, RunsDataParallelOverTheThreeDevices) {
  EXPECT_THAT(out(), HasSubstr("nn::DataParallel model(net);  // every cuda device present: 3\n"));
  EXPECT_THAT(out(), HasSubstr("    output.device is: cuda:0, output.sizes() = [6, 2]\n"));
  EXPECT_THAT(out(), HasSubstr("    net[0].weight.grad() on cuda:0, the module's own parameter\n"));
}

TEST_F(TideDemoOnThreeSimulatedGpus, PrintsNewFullNewTensorAndLikeFactoriesAsTorchDoes) {
  EXPECT_THAT(out(), HasSubstr("    y_cpu = x_cpu.new_full({3, 2}, 0.3)\n"
                               "      tensor([[0.3000, 0.3000],\n"
                               "              [0.3000, 0.3000],\n"
                               "              [0.3000, 0.3000]])\n"
                               "    y_gpu = x_gpu.new_full({3, 2}, -5)\n"
                               "      tensor([[-5., -5.],\n"
                               "              [-5., -5.],\n"
                               "              [-5., -5.]], device='cuda:0')\n"
                               "    y_cpu_long = x_cpu_long.new_tensor({{1, 2, 3}})\n"
                               "      tensor([[1, 2, 3]])\n"));
  EXPECT_THAT(out(),
              HasSubstr("    y_cpu = tide::ones_like(x_cpu)\n"
                        "      tensor([[1., 1., 1.],\n"
                        "              [1., 1., 1.]])\n"
                        "    y_gpu = tide::zeros_like(x_gpu)  // x_gpu = tide::empty({2, 3}, "
                        "tide::device(cuda))\n"
                        "      tensor([[0., 0., 0.],\n"
                        "              [0., 0., 0.]], device='cuda:0')\n"));
}

TEST(TideExecutable, RaisesTheAsyncErrorAtTheOpUnderLaunchBlocking) {
  CliResult r = run_executable("TIDE_SIM_DEVICES=3 CUDA_LAUNCH_BLOCKING=1", "demo");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("    cross_entropy itself (CUDA_LAUNCH_BLOCKING=1) throws "
                               "tide::KernelError:\n"));
  EXPECT_THAT(r.out,
              HasSubstr("(the seed's incorrect version is not raced here: "
                        "CUDA_LAUNCH_BLOCKING=1 makes every op finish before it returns)\n"));
  EXPECT_THAT(r.out, HasSubstr("demo: 20 steps ran, 0 skipped, 0 failed\n"));
}

TEST(TideExecutable, RunsOnThreeSimulatedGpusByDefaultWhenThereIsNoGpuAndSaysSoFirst) {
  if (tide::runtime::real_cuda_devices_present()) GTEST_SKIP() << "this machine has a real GPU";
  CliResult r = run_executable("", "demo");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, StartsWith("tide demo: this machine has no cuda device, so the demo runs on 3 "
                                "SIMULATED GPUs"));
  EXPECT_THAT(r.out, HasSubstr("devices: cpu, and 3 cuda devices\n"));
  EXPECT_THAT(r.out, HasSubstr(" 0 skipped, 0 failed\n"));
}

TEST(TideExecutable, AnExplicitCudaVisibleDevicesWinsOverTheSimulatedDefault) {
  if (tide::runtime::real_cuda_devices_present()) GTEST_SKIP() << "this machine has a real GPU";
  CliResult r = run_executable("CUDA_VISIBLE_DEVICES=", "demo");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("devices: cpu, and 0 cuda devices\n"));
  EXPECT_THAT(r.out, Not(HasSubstr("SIMULATED")));
}

TEST(TideExecutable, SkipsEveryCudaStepWithTheReasonWhenThereIsNoDevice) {
  CliResult r = run_executable("TIDE_SIM_DEVICES=0", "demo");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("devices: cpu, and 0 cuda devices\n"));
  EXPECT_THAT(r.out, Not(HasSubstr("SIMULATED")));
  EXPECT_THAT(r.out, HasSubstr("skipped 14 steps that need cuda devices:\n"
                               "  [2] Tensors stay where they were allocated (needs 1 cuda device "
                               "with tensors)\n"));
  EXPECT_THAT(r.out, HasSubstr("    why: no cuda device: "));
  EXPECT_THAT(r.out, HasSubstr("TIDE_SIM_DEVICES"));
  EXPECT_THAT(r.out,
              HasSubstr("    y_gpu = x_gpu.new_full({3, 2}, -5)  skipped: no cuda device\n"));
  EXPECT_THAT(r.out, HasSubstr("demo: 6 steps ran, 14 skipped, 0 failed\n"));
}
