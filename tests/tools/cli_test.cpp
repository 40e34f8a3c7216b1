// The tide CLI: the commands in-process (tools/tide/cli.h), and the built executable where a
// fresh process matters (the runtime reads TIDE_SIM_DEVICES once per process).

#include "cli.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "backends/cuda_backend_info.h"
#include "demo.h"
#include "devices.h"
#include "info.h"
#include "tide/version.h"

using ::testing::HasSubstr;
using ::testing::Not;

namespace {

struct CliResult {
  int code;
  std::string out, err;
};

CliResult run_cli(std::vector<const char*> args) {
  args.insert(args.begin(), "tide");
  std::ostringstream out, err;
  int code = tide::cli::run(static_cast<int>(args.size()), args.data(), out, err);
  return {code, out.str(), err.str()};
}

/// Runs the built tide with `env` (e.g. "TIDE_SIM_DEVICES=2") added to a clean device
/// environment; stdout and stderr together in `out`.
CliResult run_executable(const std::string& env, const std::string& args) {
  std::string command = "env -u TIDE_SIM_DEVICES -u CUDA_VISIBLE_DEVICES " + env + " " +
                        std::string(TIDE_CLI_EXECUTABLE) + " " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  EXPECT_NE(pipe, nullptr) << command;
  if (pipe == nullptr) return {-1, "", ""};
  std::string out;
  std::array<char, 4096> buffer;
  while (size_t n = fread(buffer.data(), 1, buffer.size(), pipe)) out.append(buffer.data(), n);
  int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out, ""};
}

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
    EXPECT_THAT(out.str(), HasSubstr("cuda: not available (the CUDA backend is compiled: "));
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
  EXPECT_THAT(s, HasSubstr("    y_cpu = x_cpu.new_full({3, 2}, 0.3)\n"
                           "      tensor([[0.3000, 0.3000],\n"
                           "              [0.3000, 0.3000],\n"
                           "              [0.3000, 0.3000]])\n"));
  EXPECT_THAT(s, HasSubstr("      tensor([[1, 2, 3]])\n"));
  EXPECT_THAT(s, HasSubstr("      tensor([[1., 1., 1.],\n"
                           "              [1., 1., 1.]])\n"));
  EXPECT_THAT(s, HasSubstr("[0, 0, 0]], dtype=tide.int32)\n"));
  EXPECT_THAT(s, HasSubstr("      tensor([2., 4.])\n"));
  EXPECT_THAT(s, HasSubstr("tide::tensor({1., 2.}).cuda() throws tide::Error:\n"));
  EXPECT_THAT(s, Not(HasSubstr("FAILED")));
}

TEST(TideDemo, ListsTheCudaStepsItSkipsWithTheReason) {
  std::ostringstream out;
  EXPECT_EQ(tide::cli::run_demo({.disable_cuda = true}, out), 0) << out.str();
  const std::string s = out.str();
  EXPECT_THAT(s, HasSubstr("skipped 5 steps that need cuda devices:\n"));
  EXPECT_THAT(s, HasSubstr("  [6] The current device and tide::cuda::DeviceGuard (needs 2 cuda "
                           "devices)\n"));
  EXPECT_THAT(s, HasSubstr("  [7] Tensors stay where they were allocated (needs 1 cuda device "
                           "with tensors)\n"));
  EXPECT_THAT(s, HasSubstr("    why: --disable-cuda was given\n"));
  EXPECT_THAT(s, HasSubstr("demo: 5 steps ran, 5 skipped, 0 failed\n"));
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
  EXPECT_THAT(demo.out, HasSubstr("demo: 5 steps ran"));
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
  EXPECT_THAT(r.out, HasSubstr("    cuda:1: _CudaDeviceProperties(name='tide simulated GPU"));
  EXPECT_THAT(r.out, HasSubstr("simulated=True"));
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
  EXPECT_THAT(r.out, HasSubstr("[6] The current device and tide::cuda::DeviceGuard\n"));
  EXPECT_THAT(r.out, HasSubstr("    inside tide::cuda::DeviceGuard guard(1): "
                               "tide::cuda::current_device() -> 1\n"));
  EXPECT_THAT(r.out, HasSubstr("  [10] The device can always be named explicitly (needs 3 cuda "
                               "devices with tensors)\n"
                               "    why: needs more cuda devices than the 2 present"));
  EXPECT_THAT(r.out, Not(HasSubstr("FAILED")));
}
