// A small mpirun program for tests/distributed/peer_failure_test.cpp: rank 1 misbehaves, rank 0
// runs a collective and reports what it saw.
//   peer_failure_worker hang TIMEOUT_MS cpu|cuda   rank 1 sleeps; rank 0's all_reduce must raise
//   peer_failure_worker kill                        rank 1 dies by SIGKILL; mpirun must end the job
//   peer_failure_worker stall TIMEOUT_MS cuda       rank 0's stream never reaches the collective
//                                                   (held); both ranks must raise

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "tide/tide.h"
#include "tide/distributed/process_group.h"
#include "tide/testing/sim_hooks.h"

namespace {

// Rank 0 holds its stream past the group's timeout, so its collective never gets its data:
// it must give up on its own stream, and rank 1, which never got rank 0's header, on rank 0.
// Each prints what it caught; rank 1 then waits to be stopped and rank 0 ends the job (its
// exit aborts it: the group is broken) once rank 1 surely printed, a wide margin after both
// timeouts ran out.
int stall(long timeout_ms) {
  namespace dist = tide::distributed;
  tide::Tensor t = tide::ones({4}, tide::device(tide::Device(tide::kCUDA, 0)));
  const tide::cuda::Stream stream = tide::cuda::current_stream(0);
  try {
    if (dist::get_rank() == 0) {
      std::shared_ptr<dist::Work> work;
      {
        tide::testing::StreamHold hold(stream);
        work = dist::all_reduce(t, dist::ReduceOp::SUM, true);
        // Held until the collective gave up, well past the timeout.
        while (!work->is_completed()) {
          std::this_thread::sleep_for(std::chrono::milliseconds(timeout_ms / 10 + 1));
        }
      }
      work->wait();  // the stream waits for the collective: its error comes at the read
    } else {
      dist::all_reduce(t);
    }
    std::printf("rank %d read %f\n", dist::get_rank(), t.cpu().tolist<float>()[0]);
  } catch (const tide::KernelError& e) {
    std::printf("rank %d caught KernelError: %s\n", dist::get_rank(), e.what());
    std::fflush(stdout);
    if (dist::get_rank() == 1) std::this_thread::sleep_for(std::chrono::minutes(10));
    std::this_thread::sleep_for(std::chrono::milliseconds(4 * timeout_ms));
    return 4;
  }
  std::printf("rank %d finished without an error\n", dist::get_rank());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  namespace dist = tide::distributed;
  const std::string scenario = argc > 1 ? argv[1] : "";
  const long timeout_ms = argc > 2 ? std::atol(argv[2]) : 600000;
  const bool on_gpu = argc > 3 && std::strcmp(argv[3], "cuda") == 0;
  dist::init_process_group("mpi", std::chrono::milliseconds(timeout_ms));
  if (scenario == "stall") return stall(timeout_ms);
  if (dist::get_rank() == 1) {
    if (scenario == "kill") std::raise(SIGKILL);
    std::this_thread::sleep_for(std::chrono::minutes(10));  // hangs: mpirun ends it
    return 0;
  }
  tide::Tensor t = tide::ones({4}, tide::device(on_gpu ? tide::Device(tide::kCUDA, 0)
                                                       : tide::Device(tide::kCPU)));
  try {
    dist::all_reduce(t);
    std::printf("rank 0 read %f\n", t.cpu().tolist<float>()[0]);  // a GPU raises here
  } catch (const dist::DistBackendError& e) {
    std::printf("rank 0 caught DistBackendError: %s\n", e.what());
    return 3;
  } catch (const tide::KernelError& e) {
    std::printf("rank 0 caught KernelError: %s\n", e.what());
    return 4;
  }
  std::printf("rank 0 finished without an error\n");
  return 0;
}
