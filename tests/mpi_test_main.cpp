// main() of the tests that run under mpirun (one process per rank, tests/CMakeLists.txt's
// tide_add_mpi_tests): joins the process group before the tests and leaves it after. Every
// rank runs every test; rank 0 prints gtest's full output, the others only their failures.
// A failing rank makes the job's exit status non-zero. TIDE_TEST_DIST_TIMEOUT_MS bounds each
// collective (default 60 s) so a rank that left a test early cannot hang the others forever.
// TIDE_TEST_DIST_BACKEND=nccl runs them on NCCL: that needs real GPUs, and without them the
// binary exits 77, which ctest reports as skipped (SKIP_RETURN_CODE).

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "support/env_args.h"
#include "tide/cuda.h"
#include "tide/distributed/process_group.h"
#include "tide/testing/sim_hooks.h"

int main(int argc, char** argv) {
  bool ok = true;
  std::vector<char*> rest = tide::test::apply_env_args(argc, argv, ok);
  if (!ok) return 2;
  int n = static_cast<int>(rest.size());
  rest.push_back(nullptr);
  ::testing::InitGoogleTest(&n, rest.data());

  const char* timeout_text = std::getenv("TIDE_TEST_DIST_TIMEOUT_MS");
  const std::chrono::milliseconds timeout(timeout_text ? std::stol(timeout_text) : 60000);
  const char* backend_text = std::getenv("TIDE_TEST_DIST_BACKEND");
  const std::string backend = backend_text ? backend_text : "mpi";
  if (backend == "nccl" && (tide::cuda::device_count() == 0 || tide::testing::sim_active())) {
    std::printf("skipped: the nccl configuration needs real GPUs, and this machine has none\n");
    return 77;
  }
  tide::distributed::init_process_group(backend, timeout);
  if (tide::distributed::get_rank() != 0) GTEST_FLAG_SET(brief, true);
  const int result = RUN_ALL_TESTS();
  if (tide::distributed::is_initialized()) tide::distributed::destroy_process_group();
  return result;
}
