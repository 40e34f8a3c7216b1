"""One rank of tests/python/test_ddp.py's mpirun job: tide.nn.parallel.DistributedDataParallel
on a Python module, checked against one process that runs the whole batch (computed here, on
every rank, with rank 0's initial weights); prints "rank R ok" at the end."""

import datetime
import os
import sys
import traceback

import tide
import tide.distributed as dist
import tide.nn as nn
import tide.nn.functional as F
from tide.nn.parallel import DistributedDataParallel as DDP



def fail_fast(kind, value, tb):
    # A rank that fails exits at once: a normal exit would wait at MPI's finalize for the peer,
    # which waits in the next collective; mpirun ends the job when a rank exits non-zero.
    traceback.print_exception(kind, value, tb)
    sys.stderr.flush()
    os._exit(1)


sys.excepthook = fail_fast
dist.init_process_group(timeout=datetime.timedelta(seconds=60))
rank, world = dist.get_rank(), dist.get_world_size()
device = sys.argv[1] if len(sys.argv) > 1 else "cpu"
if device == "cuda":
    device = f"cuda:{dist.get_local_rank() % tide.cuda.device_count()}"
TOL = 1e-5
SHARD = 3  # rows per rank; the reference runs all world * SHARD rows


def make_model(seed):
    tide.manual_seed(seed)
    return nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU(),
                         nn.Linear(8, 3)).to(device)


def batch(seed):
    """The whole batch, the same on every rank, and this rank's shard of it."""
    tide.manual_seed(seed)
    x, y = tide.randn(world * SHARD, 5).to(device), tide.randn(world * SHARD, 3).to(device)
    return (x, y), (x[rank * SHARD:(rank + 1) * SHARD], y[rank * SHARD:(rank + 1) * SHARD])


def max_diff(a, b):
    return (a.detach() - b.detach()).abs().max().item()


def assert_close_params(model, reference, what, grads=False):
    for (name, p), q in zip(model.named_parameters(), reference.parameters()):
        a, b = (p.grad, q.grad) if grads else (p, q)
        assert a is not None and b is not None, (rank, what, name)
        assert max_diff(a, b) <= TOL, (rank, what, name, max_diff(a, b))


def assert_same_on_every_rank(tensors, what):
    for t in tensors:
        gathered = [tide.zeros_like(t) for _ in range(world)]
        dist.all_gather(gathered, t.detach().contiguous())
        for r, g in enumerate(gathered):
            assert g.tolist() == gathered[0].tolist(), (rank, what, r)


# ---- construction: rank 0's weights everywhere (each rank built its own from another seed)
reference = make_model(1)
model = DDP(make_model(1 + rank), bucket_cap_mb=0)  # one bucket per parameter
# No device_ids: the module's device, as torch (with one simulated GPU per rank, rank 1's is
# its cuda:0, not cuda:local_rank)
assert model.device_ids is None and model.device == tide.device(device), (rank, model.device)
assert isinstance(model.module, nn.Sequential)
assert model.reducer.bucket_count() == 6
assert list(model.state_dict())[0] == "module.0.weight"
assert_close_params(model.module, reference, "broadcast")

# ---- gradients after backward are those of the whole batch in one process, and the buckets'
# all-reduces start during backward: when it reaches the first layer (whose hooks run right
# after the reducer's), the later layers' four buckets are already launched
launched_at_first_layer = []
handles = [tide._C._testing.register_post_accumulate_grad_hook(
    p, lambda _: launched_at_first_layer.append(model.reducer.buckets_launched()))
    for p in model.module[0].parameters()]
(x, y), (xs, ys) = batch(10)
F.mse_loss(model(xs), ys).backward()
F.mse_loss(reference(x), y).backward()
assert_close_params(model.module, reference, "grad", grads=True)
for h in handles:
    h.remove()
assert len(launched_at_first_layer) == 2, launched_at_first_layer
assert min(launched_at_first_layer) >= 4 and max(launched_at_first_layer) == 6, \
    launched_at_first_layer
assert model.reducer.buckets_launched() == 0  # finalized when backward ended

# ---- several SGD steps keep the replicas identical (and equal to the reference)
opt = tide.optim.SGD(model.parameters(), lr=0.1)
ref_opt = tide.optim.SGD(reference.parameters(), lr=0.1)
for step in range(3):
    opt.step()
    ref_opt.step()
    opt.zero_grad()
    ref_opt.zero_grad()
    (x, y), (xs, ys) = batch(20 + step)
    F.mse_loss(model(xs), ys).backward()
    F.mse_loss(reference(x), y).backward()
assert_close_params(model.module, reference, "sgd")
assert_close_params(model.module, reference, "sgd grad", grads=True)
assert_same_on_every_rank(list(model.parameters()), "sgd")

# ---- no_sync: gradients accumulate locally, the next synced backward averages the sum
opt.zero_grad()
ref_opt.zero_grad()
(x1, y1), (xs1, ys1) = batch(30)
(x2, y2), (xs2, ys2) = batch(31)
local = make_model(1)
with tide.no_grad():
    for p, q in zip(local.parameters(), model.parameters()):
        p.copy_(q)
with model.no_sync():
    F.mse_loss(model(xs1), ys1).backward()
F.mse_loss(local(xs1), ys1).backward()
assert_close_params(model.module, local, "no_sync (this rank's shard only)", grads=True)
F.mse_loss(model(xs2), ys2).backward()
F.mse_loss(reference(x1), y1).backward()
F.mse_loss(reference(x2), y2).backward()
assert_close_params(model.module, reference, "after no_sync", grads=True)
with tide.no_grad():  # forward without grad arms nothing
    model(xs1)


# ---- buffers are rank 0's after each forward (broadcast_buffers)
class WithBuffer(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.register_buffer("count", tide.full([1], float(rank)))

    def forward(self, x):
        return self.fc(x) + self.count


buffered = DDP(WithBuffer().to(device))
assert buffered.module.count.tolist() == [0.0]  # broadcast at construction
buffered.module.count.fill_(5.0 + rank)
buffered(tide.ones(1, 2).to(device)).sum().backward()
assert buffered.module.count.tolist() == [5.0]
unsynced = DDP(WithBuffer().to(device), broadcast_buffers=False, init_sync=False)
unsynced(tide.ones(1, 2).to(device)).sum().backward()
assert unsynced.module.count.tolist() == [float(rank)]


# ---- unused parameters
class Branchy(nn.Module):
    def __init__(self):
        super().__init__()
        tide.manual_seed(7)
        self.used = nn.Linear(4, 2)
        self.unused = nn.Linear(4, 2)

    def forward(self, x):
        return {"out": self.used(x)}


inputs = tide.full([2, 4], float(rank + 1)).to(device)
found = DDP(Branchy().to(device), find_unused_parameters=True)
for _ in range(2):  # the second forward finds the first reduction finished
    found.zero_grad()
    found(inputs)["out"].sum().backward()
    assert found.module.unused.weight.grad is None  # no rank used it: left as it was
    # d(sum)/d(weight) is each row of the input summed: 2 * (rank + 1), averaged over ranks.
    expected = 2 * sum(r + 1 for r in range(world)) / world
    assert found.module.used.weight.grad.tolist() == [[expected] * 4] * 2, rank

strict = DDP(Branchy().to(device))
strict(inputs)["out"].sum().backward()
try:
    strict(inputs)
except RuntimeError as e:
    message = str(e)
    assert "Expected to have finished reduction in the prior iteration" in message, message
    assert f"Parameters which did not receive grad for rank {rank}: unused.weight, unused.bias" \
        in message, message
else:
    raise AssertionError("an unused parameter without find_unused_parameters should raise")

# ---- models that differ between ranks raise torch's error on every rank
try:
    DDP(nn.Linear(4, 2 + rank).to(device))
except RuntimeError as e:
    assert "DDP expects same model across all ranks" in str(e), str(e)
else:
    raise AssertionError("different models should raise on every rank")

# ---- argument checks
if device == "cpu":
    try:
        DDP(nn.Linear(2, 2), device_ids=[0])
    except ValueError as e:
        assert "device_ids and output_device arguments only work" in str(e), str(e)
    else:
        raise AssertionError("device_ids with a cpu module should raise")
else:
    index = tide.device(device).index
    moved = DDP(nn.Linear(2, 2).to(device), device_ids=[index])
    assert moved.output_device == index
    out = moved(tide.ones(3, 2))  # a cpu input goes to the module's device
    assert out.device == tide.device(device)
try:
    DDP(nn.Linear(2, 2).requires_grad_(False))
except RuntimeError as e:
    assert "doesn't have any parameter that requires a gradient" in str(e), str(e)
else:
    raise AssertionError("a module without trainable parameters should raise")

dist.destroy_process_group()
print(f"rank {rank} ok", flush=True)
