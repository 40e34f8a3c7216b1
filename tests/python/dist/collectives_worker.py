"""One rank of tests/python/test_distributed.py's mpirun job: torch.distributed's calls from
Python, each checked on every rank; prints "rank R ok" at the end."""

import sys
import threading

import tide
import tide.distributed as dist

dist.init_process_group()
rank, world = dist.get_rank(), dist.get_world_size()
assert dist.is_initialized() and dist.get_backend() == "mpi"
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

# A barrier releases the GIL: a Python thread keeps running while this rank waits for the
# slower one.
ticks = [0]
stop = threading.Event()


def tick():
    while not stop.is_set():
        ticks[0] += 1
        stop.wait(0.001)


thread = threading.Thread(target=tick)
thread.start()
if rank == 0:
    import time
    time.sleep(0.3)
dist.barrier()
stop.set()
thread.join()
assert rank == 0 or ticks[0] > 10, ticks

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
