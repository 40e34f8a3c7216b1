#include "rank_device.h"

#include "tide/error.h"

namespace tide::cli {

Device default_rank_device(const distributed::detail::LauncherEnv& env, const RankGpus& gpus) {
  TIDE_CHECK(gpus.count > 0, "--distributed --device cuda: rank ", env.rank,
             " has no cuda device (tide::cuda::is_available() is false); train on cpu "
             "(--device cpu) or check CUDA_VISIBLE_DEVICES");
  const int index = env.local_rank % gpus.count;
  const bool shares = gpus.same_for_every_process && env.local_rank >= gpus.count;
  TIDE_CHECK(!(shares && gpus.exclusive), "--distributed: rank ", env.rank, " has local rank ",
             env.local_rank, " (from ", env.local_rank_source, ") and would share cuda:", index,
             " with local rank ", index, ": every process on this machine sees the same ",
             gpus.count, " cuda device", gpus.count == 1 ? "" : "s",
             " and NCCL runs at most one rank per GPU; start at most ", gpus.count,
             " process", gpus.count == 1 ? "" : "es", " per machine, give each process a GPU of "
             "its own (CUDA_VISIBLE_DEVICES=$OMPI_COMM_WORLD_LOCAL_RANK), or train on cpu "
             "(--device cpu)");
  return Device(kCUDA, index);
}

}  // namespace tide::cli
