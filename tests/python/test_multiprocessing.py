"""tide.multiprocessing: cpu tensors cross processes through shared memory (the receiver maps
the sender's pages: writes are seen both ways), through Queue, Process arguments and Pool;
Module.share_memory for Hogwild; spawn() and its errors; a tensor on a simulated GPU is refused
with a message naming the supported way. Every child process uses the spawn start method."""

import os

import pytest

import tide
import tide.multiprocessing as mp


def _fill_and_report(i, shared, queue):
    shared[i] = float(i + 1)  # written into the parent's pages
    queue.put((i, shared.is_shared(), shared.sum().item()))


def _add_one(t):
    t.add_(1)
    return t


def _fail(i):
    if i == 1:
        raise ValueError("rank one failed on purpose")


def _exit_code(i):
    os._exit(3 if i == 0 else 0)


def _train_hogwild(rank, model):
    with tide.no_grad():
        for p in model.parameters():
            p.add_(1.0)


def test_share_memory_moves_the_storage_and_keeps_views_and_values():
    t = tide.arange(12, dtype=tide.float32)
    view = t[4:8]
    assert not t.is_shared()
    assert t.share_memory_() is t
    assert t.is_shared() and view.is_shared()
    assert t.tolist() == [float(v) for v in range(12)]
    view.fill_(-1.0)  # the view still shares the moved storage
    assert t[4:8].tolist() == [-1.0] * 4
    t.share_memory_()  # a no-op once shared
    assert t.is_shared()


def test_queue_and_process_arguments_share_the_parents_memory():
    ctx = mp.get_context("spawn")
    shared = tide.zeros(3)
    queue = ctx.Queue()
    procs = [ctx.Process(target=_fill_and_report, args=(i, shared, queue)) for i in range(3)]
    for p in procs:
        p.start()
    reports = sorted(queue.get(timeout=120) for _ in procs)
    for p in procs:
        p.join(timeout=120)
        assert p.exitcode == 0
    assert [r[0] for r in reports] == [0, 1, 2] and all(r[1] for r in reports)
    assert shared.tolist() == [1.0, 2.0, 3.0]


def test_pool_returns_tensors_over_shared_memory():
    with mp.get_context("spawn").Pool(2) as pool:
        inputs = [tide.full((4,), float(i)) for i in range(3)]
        outputs = pool.map(_add_one, inputs)
    assert [o.tolist() for o in outputs] == [[float(i + 1)] * 4 for i in range(3)]
    assert [i.tolist() for i in inputs] == [[float(i + 1)] * 4 for i in range(3)]  # in place


def test_module_share_memory_trains_one_set_of_parameters_from_several_processes():
    model = tide.nn.Linear(3, 2)
    before = [p.detach().clone() for p in model.parameters()]
    model.share_memory()
    assert all(p.is_shared() for p in model.parameters())
    mp.spawn(_train_hogwild, args=(model,), nprocs=2)
    for p, b in zip(model.parameters(), before):
        assert (p.detach() - (b + 2.0)).abs().max().item() < 1e-6
        assert p.requires_grad


def test_spawn_raises_with_the_failing_process_and_its_traceback():
    with pytest.raises(mp.ProcessRaisedException,
                       match="(?s)Process 1 terminated with the following error.*on purpose"):
        mp.spawn(_fail, nprocs=2)
    with pytest.raises(mp.ProcessExitedException, match="process 0 terminated with exit code 3"):
        mp.spawn(_exit_code, nprocs=2)
    ctx = mp.spawn(_train_hogwild, args=(tide.nn.Linear(1, 1),), nprocs=1, join=False)
    while not ctx.join():
        pass
    with pytest.raises(ValueError, match="start_method 'spawn'"):
        mp.spawn(_fail, nprocs=1, start_method="fork")


def test_a_tensor_on_a_simulated_gpu_is_refused_naming_the_supported_way():
    if not tide.cuda.is_available():
        pytest.skip("needs a cuda device, real or simulated (TIDE_SIM_DEVICES)")
    queue = mp.get_context("spawn").Queue()
    with pytest.raises(RuntimeError, match=r"cannot send a tensor on cuda:0.*tensor\.cpu\(\)"):
        mp.reductions.reduce_tensor(tide.ones(2, device="cuda"))
    queue.close()


def test_non_leaf_tensors_that_require_grad_are_refused_as_torch():
    x = tide.ones(2, requires_grad=True) * 2
    with pytest.raises(RuntimeError, match="Cowardly refusing to serialize non-leaf tensor"):
        mp.reductions.reduce_tensor(x)


def test_sharing_strategies_and_torchs_names():
    assert mp.get_sharing_strategy() == "file_descriptor"
    assert mp.get_all_sharing_strategies() == {"file_descriptor"}
    with pytest.raises(RuntimeError, match="file descriptors only"):
        mp.set_sharing_strategy("file_system")
    for name in ("Process", "Queue", "Pool", "SimpleQueue", "get_context", "set_start_method",
                 "spawn", "start_processes", "ProcessContext"):
        assert hasattr(mp, name), name
    assert tide.multiprocessing is mp
