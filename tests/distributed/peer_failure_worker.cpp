// A small mpirun program for tests/distributed/peer_failure_test.cpp: rank 1 misbehaves, rank 0
// runs a collective and reports what it saw.
//   peer_failure_worker hang TIMEOUT_MS cpu|cuda   rank 1 sleeps; rank 0's all_reduce must raise
//   peer_failure_worker kill                        rank 1 dies by SIGKILL; mpirun must end the job

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "tide/tide.h"
#include "tide/distributed/process_group.h"

int main(int argc, char** argv) {
  namespace dist = tide::distributed;
  const std::string scenario = argc > 1 ? argv[1] : "";
  const long timeout_ms = argc > 2 ? std::atol(argv[2]) : 600000;
  const bool on_gpu = argc > 3 && std::strcmp(argv[3], "cuda") == 0;
  dist::init_process_group("mpi", std::chrono::milliseconds(timeout_ms));
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
