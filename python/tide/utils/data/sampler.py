"""Samplers: the order in which a DataLoader visits a dataset. RandomSampler's permutation is
the C++ DataLoader's (Note [Shuffle order] in include/tide/data/data_loader.h): each epoch
draws a seed from tide's default cpu generator (or uses the generator's seed) and shuffles with
(seed, epoch), so a Python loop and a C++ loop after the same manual_seed see the same order."""

import random as _random

from ... import _C
from ..._factories import tensor as _tensor
from ..._generator import next_key


def _rng(seed, epoch):
    # Python's generator, seeded by (seed, epoch) alone: the same draws in every process and
    # run (hash() of a tuple is not, for strings).
    return _random.Random((seed << 64) | (epoch & ((1 << 64) - 1)))


class Sampler:
    """Yields dataset indices (subclasses define __iter__ and, usually, __len__)."""

    def __init__(self, data_source=None):
        pass

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    """A new permutation of the dataset at every iter() (num_samples of them, concatenated
    permutations when more than the dataset's length), or num_samples indices drawn with
    replacement. generator: None (a seed drawn from the default generator each epoch, as torch),
    a tide.Generator (its next draw), or an object with initial_seed() (a fixed seed; the epoch
    number still changes the order)."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        if not isinstance(replacement, bool):
            raise TypeError("replacement should be a boolean value, but got "
                            f"replacement={replacement}")
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        self.epoch = 0
        if not isinstance(self.num_samples, int) or isinstance(self.num_samples, bool) or \
                self.num_samples <= 0:
            raise ValueError("num_samples should be a positive integer value, but got "
                             f"num_samples={self.num_samples}")

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        seed, stream = next_key(self.generator)
        epoch = self.epoch + stream
        self.epoch += 1
        n = len(self.data_source)
        if self.replacement:
            rng = _rng(seed, epoch)
            return iter([rng.randrange(n) for _ in range(self.num_samples)])
        order = []
        while len(order) < self.num_samples:  # torch repeats permutations past the length
            order += _C._shuffled_order(n, seed, epoch + len(order))
        return iter(order[:self.num_samples])

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices in a new random order at every iter()."""

    def __init__(self, indices, generator=None):
        self.indices = indices
        self.generator = generator
        self.epoch = 0

    def __iter__(self):
        seed, stream = next_key(self.generator)
        order = _C._shuffled_order(len(self.indices), seed, self.epoch + stream)
        self.epoch += 1
        return (self.indices[i] for i in order)

    def __len__(self):
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """num_samples indices in [0, len(weights)), index i with probability proportional to
    weights[i]; without replacement each index at most once (sequential weighted draws, as
    torch.multinomial)."""

    def __init__(self, weights, num_samples, replacement=True, generator=None):
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError("num_samples should be a positive integer value, but got "
                             f"num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError("replacement should be a boolean value, but got "
                             f"replacement={replacement}")
        values = weights.tolist() if isinstance(weights, _C.Tensor) else list(weights)
        if not values or any(isinstance(v, (list, tuple)) for v in values):
            raise ValueError("weights should be a 1d sequence but given weights have shape "
                             f"{tuple(weights.shape) if isinstance(weights, _C.Tensor) else '?'}")
        values = [float(v) for v in values]
        if any(not (v >= 0) or v == float("inf") for v in values):
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        if sum(values) <= 0:
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        if not replacement and num_samples > sum(1 for v in values if v > 0):
            raise RuntimeError("invalid multinomial distribution (with replacement=False, not "
                               "enough non-negative category to sample)")
        self.weights = _tensor(values, dtype=_C.float64)
        self._values = values
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator
        self.epoch = 0

    def __iter__(self):
        seed, stream = next_key(self.generator)
        rng = _rng(seed, self.epoch + stream)
        self.epoch += 1
        population = range(len(self._values))
        if self.replacement:
            return iter(rng.choices(population, weights=self._values, k=self.num_samples))
        # Without replacement: each draw is weighted among the indices not drawn yet, which is
        # what ordering the indices by u ** (1 / w) gives (Efraimidis and Spirakis), in one pass.
        keys = [(rng.random() ** (1.0 / w) if w > 0 else -1.0, i)
                for i, w in zip(population, self._values)]
        keys.sort(reverse=True)
        return iter([i for _, i in keys[:self.num_samples]])

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    """Groups another sampler's indices into lists of batch_size."""

    def __init__(self, sampler, batch_size, drop_last):
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError("batch_size should be a positive integer value, but got "
                             f"batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError("drop_last should be a boolean value, but got "
                             f"drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        # The sampler's order is drawn now, at iter(), not at the first batch (as C++ begin()).
        return self._batches(iter(self.sampler))

    def _batches(self, indices):
        batch = []
        for idx in indices:
            batch.append(idx)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self):
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else (n + self.batch_size - 1) // self.batch_size
