#pragma once
// The device a `tide train --distributed` process trains on when the user names none.

#include "distributed/launcher_env.h"
#include "tide/device.h"

namespace tide::cli {

/// What a process knows about its GPUs, for default_rank_device.
struct RankGpus {
  /// cuda devices this process sees.
  int count = 0;
  /// Whether two ranks on one GPU fail: NCCL's rule, so real GPUs. Simulated GPUs may be
  /// shared (each process simulates its own, and the group runs on MPI).
  bool exclusive = false;
  /// Whether every process on the machine sees the same GPUs (CUDA_VISIBLE_DEVICES unset):
  /// only then does a local rank past the count tell that two ranks would share one.
  bool same_for_every_process = true;
};

/// Note [The rank's device]: torch leaves the GPU to the program: a collective runs on its
/// tensor's device, the process group on the current device, and programs call
/// torch.cuda.set_device(local_rank) first. `tide train --distributed` does the same with a
/// default that also fits one visible GPU per process: unless --device cuda:N names a device,
/// a rank trains on cuda:(local_rank % count), made current before the group is joined. So
/// both usual bindings work: every GPU visible to every process (local rank r on cuda:r), and
/// `CUDA_VISIBLE_DEVICES=$OMPI_COMM_WORLD_LOCAL_RANK`, one GPU per process (every rank on its
/// own cuda:0).
/// More local ranks than GPUs make ranks share one. NCCL refuses two ranks of a communicator
/// on one GPU ("Duplicate GPU detected", at the group's creation), so on real GPUs a rank that
/// can tell it would share (every process sees the same GPUs and its local rank is past their
/// count) refuses before joining, naming the count; behind CUDA_VISIBLE_DEVICES the binding is
/// the launcher's, and NCCL's own check stands. Simulated GPUs may be shared, as torch's gloo
/// allows: 4 ranks can train on 2 of them.
/// Raises tide::Error (the CLI's one-line misuse) when there is no cuda device, or when the
/// rank would share one that is exclusive.
Device default_rank_device(const distributed::detail::LauncherEnv& env, const RankGpus& gpus);

}  // namespace tide::cli
