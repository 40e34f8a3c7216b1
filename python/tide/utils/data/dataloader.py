"""DataLoader: batches of a dataset, in order, optionally shuffled, pinned and loaded ahead by
worker threads (torch.utils.data.DataLoader's arguments and defaults).

Note [Python DataLoader workers]: tide's workers are threads, not processes. A worker calls the
dataset's __getitem__ and the collate function holding the GIL, and lets it go in every tide
call that waits (pinning, copies: Note [The GIL] in python/src/bind_tensor.cpp), so workers
overlap with each other and with the training loop. At most num_workers * prefetch_factor
batches are in flight; batches are delivered strictly in order, so a run is deterministic
whatever the timing. The sample order comes from the sampler on the consumer's thread at
iter(), as the C++ DataLoader's begin(). For a TensorDataset of one or two tensors with the
default collate, a batch is gathered in C++ in one pass (TensorDataset::get_batch, straight
into pinned memory), the same batches the C++ DataLoader makes."""

import concurrent.futures
import itertools

from ... import _C
from ... import cuda
from ._collate import default_collate, default_convert, pin_memory as _pin
from .dataset import IterableDataset, TensorDataset
from .sampler import BatchSampler, RandomSampler, SequentialSampler


class DataLoader:
    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None,
                 num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None, *,
                 prefetch_factor=None, persistent_workers=False, pin_memory_device=""):
        if not isinstance(num_workers, int) or num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to "
                             "disable multiprocessing.")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in multiprocessing."
                             "let num_workers > 0 to enable multiprocessing, otherwise set "
                             "prefetch_factor to None.")
        if prefetch_factor is None:
            prefetch_factor = 2
        if prefetch_factor < 1:
            raise ValueError(f"prefetch_factor should be at least 1, got {prefetch_factor}")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.generator = generator
        self._iterable = isinstance(dataset, IterableDataset)

        if self._iterable:
            if shuffle not in (None, False):
                raise ValueError("DataLoader with IterableDataset: expected unspecified shuffle "
                                 f"option, but got shuffle={shuffle}")
            if sampler is not None or batch_sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified sampler "
                                 "and batch_sampler options")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                                 "shuffle, sampler, and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually "
                             "exclusive with drop_last")
        if sampler is None and not self._iterable:
            sampler = RandomSampler(dataset, generator=generator) if shuffle else \
                SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None and not self._iterable:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self._auto_collation = batch_sampler is not None or (self._iterable and batch_size)
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn

    def __len__(self):
        if self._iterable:
            n = len(self.dataset)
            if self.batch_size is None:
                return n
            return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
        return len(self.batch_sampler if self._auto_collation else self.sampler)

    def _pins(self):
        # As the C++ DataLoader: batches stay pageable when there is no cuda device.
        return bool(self.pin_memory) and cuda.is_available()

    def _fetch(self, indices):
        """The batch of `indices` (one index without auto-batching)."""
        pinned = self._pins()
        if (self._auto_collation and self.collate_fn is default_collate
                and type(self.dataset) is TensorDataset and self.dataset._batcher is not None):
            data, target = self.dataset._batcher.get_batch(list(indices), pinned)
            return [data] if target is None else [data, target]
        if self._auto_collation:
            batch = self.collate_fn([self.dataset[i] for i in indices])
        else:
            batch = self.collate_fn(self.dataset[indices])
        return _pin(batch) if pinned else batch

    def _iterable_batches(self):
        it = iter(self.dataset)
        while True:
            if not self._auto_collation:
                try:
                    sample = next(it)
                except StopIteration:
                    return
                batch = self.collate_fn(sample)
            else:
                samples = list(itertools.islice(it, self.batch_size))
                if not samples or (self.drop_last and len(samples) < self.batch_size):
                    return
                batch = self.collate_fn(samples)
            yield _pin(batch) if self._pins() else batch

    def __iter__(self):
        if self._iterable:
            return self._iterable_batches()
        keys = iter(self.batch_sampler if self._auto_collation else self.sampler)
        if self.num_workers == 0:
            return (self._fetch(k) for k in keys)
        return _WorkerIterator(self, keys)


class _WorkerIterator:
    """Batches built by num_workers threads, delivered in order (Note [Python DataLoader
    workers])."""

    def __init__(self, loader, keys):
        self._loader = loader
        self._keys = keys
        self._pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=loader.num_workers, thread_name_prefix="tide-dataloader",
            initializer=self._init_worker if loader.worker_init_fn else None)
        self._ids = itertools.count()
        self._pending = []
        self._timeout = loader.timeout or None
        for _ in range(loader.num_workers * loader.prefetch_factor):
            self._submit()

    def _init_worker(self):
        self._loader.worker_init_fn(next(self._ids))

    def _submit(self):
        try:
            key = next(self._keys)
        except StopIteration:
            return
        self._pending.append(self._pool.submit(self._loader._fetch, key))

    def __iter__(self):
        return self

    def __next__(self):
        if not self._pending:
            self._shutdown()
            raise StopIteration
        future = self._pending.pop(0)
        self._submit()
        try:
            # Waiting on a Python lock lets the GIL go, so the workers run meanwhile.
            return future.result(timeout=self._timeout)
        except concurrent.futures.TimeoutError:
            self._shutdown()
            raise RuntimeError(f"DataLoader timed out after {self._timeout} seconds") from None
        except BaseException:
            self._shutdown()
            raise

    def _shutdown(self):
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def __del__(self):
        self._shutdown()
