"""tide.utils.data from Python: Dataset subclasses, TensorDataset, default_collate, shuffling
in the C++ DataLoader's order, pinned batches and worker threads, and the GIL while they load."""

import threading
import time

import pytest

import tide
from tide.utils.data import DataLoader, Dataset, TensorDataset, default_collate


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if not 0 <= i < self.n:
            raise IndexError(i)
        return tide.tensor([float(i), float(i * i)]), i


def test_dataset_subclass_batches_in_order_with_default_collate():
    loader = DataLoader(Squares(5), batch_size=2)
    assert len(loader) == 3
    batches = list(loader)
    x, y = batches[0]
    assert x.tolist() == [[0.0, 0.0], [1.0, 1.0]] and y.tolist() == [0, 1]
    assert y.dtype is tide.int64
    assert batches[2][1].tolist() == [4]
    assert len(DataLoader(Squares(5), batch_size=2, drop_last=True)) == 2


def test_pinned_batches_from_worker_threads_on_simulated_gpus():
    loader = DataLoader(Squares(10), batch_size=3, num_workers=2, pin_memory=True)
    seen = []
    for x, y in loader:
        assert x.is_pinned() and y.is_pinned()
        x = x.cuda(non_blocking=True)
        seen += y.tolist()
    assert seen == list(range(10))


def test_tensor_dataset_fast_path_pins_and_matches_indexing():
    data = tide.arange(12.0).view(6, 2)
    target = tide.arange(6)
    ds = TensorDataset(data, target)
    assert len(ds) == 6 and ds[4][0].tolist() == [8.0, 9.0] and ds[4][1].item() == 4
    (x, y), = list(DataLoader(ds, batch_size=6, pin_memory=True))
    assert x.is_pinned() and x.tolist() == data.tolist() and y.tolist() == target.tolist()
    (only,), = [b for b in DataLoader(TensorDataset(data), batch_size=6)]
    assert only.tolist() == data.tolist()
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        TensorDataset(data, tide.arange(5))


def test_shuffle_visits_every_sample_once_per_epoch_reproducibly():
    ds = TensorDataset(tide.arange(20))
    tide.manual_seed(3)
    loader = DataLoader(ds, batch_size=4, shuffle=True)
    first = [v for (b,) in loader for v in b.tolist()]
    second = [v for (b,) in loader for v in b.tolist()]
    assert sorted(first) == list(range(20)) and first != second
    tide.manual_seed(3)
    again = DataLoader(ds, batch_size=4, shuffle=True, num_workers=2)
    assert [v for (b,) in again for v in b.tolist()] == first


def test_shuffle_order_is_the_cpp_dataloaders():
    tide.manual_seed(5)
    seed = tide._C._draw_seed()
    expected = tide._C._shuffled_order(8, seed, 0)
    tide.manual_seed(5)
    (b,), = list(DataLoader(TensorDataset(tide.arange(8)), batch_size=8, shuffle=True))
    assert b.tolist() == expected


def test_default_collate_follows_torchs_rules():
    batch = default_collate([{"a": 1.5, "b": (tide.ones(2), 3)}, {"a": 2.5, "b": (tide.zeros(2), 4)}])
    assert batch["a"].dtype is tide.float64 and batch["a"].tolist() == [1.5, 2.5]
    assert isinstance(batch["b"], list) and batch["b"][0].shape == (2, 2)
    assert default_collate(["x", "y"]) == ["x", "y"]
    with pytest.raises(RuntimeError, match="each element in list of batch should be of equal size"):
        default_collate([[1, 2], [3]])
    with pytest.raises(TypeError, match="default_collate: batch must contain tensors"):
        default_collate([object()])


def test_no_auto_batching_and_custom_collate():
    assert [x for x, _ in DataLoader(Squares(2), batch_size=None)][1].tolist() == [1.0, 1.0]
    loader = DataLoader(Squares(4), batch_size=2, collate_fn=lambda s: len(s))
    assert list(loader) == [2, 2]


def test_errors_in_a_worker_reach_the_loop_and_option_errors_are_torchs():
    class Broken(Squares):
        def __getitem__(self, i):
            if i == 3:
                raise KeyError("sample 3 is broken")
            return super().__getitem__(i)
    with pytest.raises(KeyError, match="sample 3 is broken"):
        list(DataLoader(Broken(6), batch_size=2, num_workers=2))
    with pytest.raises(ValueError, match="sampler option is mutually exclusive with shuffle"):
        DataLoader(Squares(4), sampler=[0, 1], shuffle=True)
    with pytest.raises(ValueError, match="num_workers option should be non-negative"):
        DataLoader(Squares(4), num_workers=-1)


def test_workers_run_while_the_main_thread_waits():
    # Each sample waits at a barrier of 4: it passes only when 4 worker threads are inside
    # __getitem__ at once (no clock decides it; a broken barrier reaches the loop as an error).
    barrier = threading.Barrier(4, timeout=60)

    class Together(Squares):
        def __getitem__(self, i):
            barrier.wait()
            return super().__getitem__(i)
    assert len(list(DataLoader(Together(8), batch_size=1, num_workers=4))) == 8


def test_other_threads_run_while_batches_are_pinned():
    # A smoke test: a Python thread counts while the main thread pins 16 MiB batches. (The
    # barrier check in tests/python/dist/collectives_worker.py is the sharp GIL test.)
    data = tide.ones(64, 256, 256)
    stop, count = threading.Event(), [0]

    def spin():
        while not stop.is_set():
            count[0] += 1
    t = threading.Thread(target=spin)
    t.start()
    try:
        for (x,) in DataLoader(TensorDataset(data), batch_size=64, pin_memory=True):
            assert x.is_pinned()
    finally:
        stop.set()
        t.join()
    assert count[0] > 0
