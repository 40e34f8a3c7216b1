"""One rank of tests/python/test_distributed.py's mpirun job: torch.distributed's calls from
Python, each checked on every rank; prints "rank R ok" at the end."""

import sys
import threading

import tide
import tide.distributed as dist

dist.init_process_group()
rank, world = dist.get_rank(), dist.get_world_size()
# On real GPUs the default backend serves cuda tensors on nccl too (torch's "cpu:gloo,cuda:nccl").
real_gpus = tide.cuda.is_available() and not tide.cuda.get_device_properties(0).simulated
assert dist.is_initialized() and dist.get_backend() == ("cpu:mpi,cuda:nccl" if real_gpus else "mpi")
device = sys.argv[1] if len(sys.argv) > 1 else "cpu"
if device == "cuda":
    device = f"cuda:{dist.get_local_rank() % tide.cuda.device_count()}"

t = tide.full([4], float(rank + 1), device=device)
assert dist.all_reduce(t) is None
assert t.tolist() == [float(world * (world + 1) / 2)] * 4

t = tide.full([2], float(rank), device=device)
work = dist.all_reduce(t, op=dist.ReduceOp.MAX, async_op=True)
assert work.wait() is True
# On cpu wait() blocks until the collective is done; on a GPU it orders the stream (Note [Work]).
assert work.is_completed() or device != "cpu"
assert t.tolist() == [float(world - 1)] * 2

b = tide.full([3], float(rank * 10), device=device)
dist.broadcast(b, src=1)
assert b.tolist() == [10.0] * 3

outs = [tide.zeros(2, device=device) for _ in range(world)]
dist.all_gather(outs, tide.full([2], float(rank), device=device))
assert [o.tolist() for o in outs] == [[float(r)] * 2 for r in range(world)]

out = tide.zeros(2, device=device)
dist.reduce_scatter(out, [tide.full([2], float(r + rank), device=device) for r in range(world)])
assert out.tolist() == [float(sum(rank + r for r in range(world)))] * 2

# A barrier releases the GIL. Rank 1 enters the barrier first; once its main thread is inside,
# a Python thread of rank 1 counts 10 ticks and then writes a file; rank 0 enters the barrier
# only after that file exists. If the barrier held the GIL, the ticks could not run, the file
# would never appear and rank 0 would fail its wait, a clear assertion rather than a hang.
# No sleep decides the outcome: the file is a handshake.
import os
import time

handshake = os.path.join(os.environ["TIDE_TEST_HANDSHAKE_DIR"], f"ticking-{device}")
inside = threading.Event()


def tick():
    inside.wait()
    for _ in range(10):
        time.sleep(0.001)
    with open(handshake, "w") as f:
        f.write("ticked")


if rank == 1:
    thread = threading.Thread(target=tick)
    thread.start()
    inside.set()
    dist.barrier()
    thread.join()
else:
    deadline = time.monotonic() + 60
    while not os.path.exists(handshake):
        assert time.monotonic() < deadline, "rank 1's thread never ran while rank 1 was in barrier()"
        time.sleep(0.01)
    dist.barrier()

sampler = tide.utils.data.DistributedSampler(list(range(10)), shuffle=False)
assert list(sampler) == list(range(rank, 10, world)) and len(sampler) == 5

try:
    dist.all_reduce(tide.ones(1), group="other")
except tide._C.Error as e:
    assert "one process group" in str(e)
else:
    raise AssertionError("group= should have raised")

dist.destroy_process_group()
assert not dist.is_initialized()
print(f"rank {rank} ok", flush=True)
