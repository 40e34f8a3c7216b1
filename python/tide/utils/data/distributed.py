"""DistributedSampler: each rank's shard of a dataset, tide's C++ sampler (Note
[DistributedSampler] in include/tide/distributed/distributed_sampler.h)."""

from ... import _C
from .sampler import Sampler


class DistributedSampler(Sampler):
    """num_replicas and rank default to the process group's; call set_epoch(e) before each
    epoch for a new shuffle, the same on every rank."""

    def __init__(self, dataset, num_replicas=None, rank=None, shuffle=True, seed=0,
                 drop_last=False):
        self.dataset = dataset
        self._impl = _C._distributed._DistributedSampler(
            len(dataset), -1 if num_replicas is None else num_replicas,
            -1 if rank is None else rank, shuffle, seed, drop_last)
        self.num_replicas = self._impl.num_replicas
        self.rank = self._impl.rank
        self.shuffle = shuffle
        self.seed = seed
        self.drop_last = drop_last

    def __iter__(self):
        return iter(self._impl.indices())

    def __len__(self):
        return len(self._impl)

    @property
    def num_samples(self):
        return len(self._impl)

    @property
    def total_size(self):
        return self._impl.total_size

    def set_epoch(self, epoch):
        self._impl.set_epoch(epoch)
