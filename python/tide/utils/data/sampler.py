"""Samplers: the order in which a DataLoader visits a dataset. RandomSampler's permutation is
the C++ DataLoader's (Note [Shuffle order] in include/tide/data/data_loader.h): each epoch
draws a seed from tide's default cpu generator (or uses the generator's seed) and shuffles with
(seed, epoch), so a Python loop and a C++ loop after the same manual_seed see the same order."""

from ... import _C


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
    """A new permutation of the dataset at every iter(). generator: None (a seed drawn from
    the default generator each epoch, as torch), or an object with initial_seed() (a fixed seed;
    the epoch number still changes the order)."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        if replacement or num_samples is not None:
            raise _C.Error("[tide.utils.data.RandomSampler] replacement and num_samples are not "
                           "supported by tide; sample without replacement over the dataset")
        self.data_source = data_source
        self.replacement = replacement
        self.generator = generator
        self.epoch = 0

    def __iter__(self):
        seed = self.generator.initial_seed() if self.generator is not None else _C._draw_seed()
        order = _C._shuffled_order(len(self.data_source), seed, self.epoch)
        self.epoch += 1
        return iter(order)

    def __len__(self):
        return len(self.data_source)


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
