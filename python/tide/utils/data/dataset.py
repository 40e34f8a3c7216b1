"""Datasets: Dataset (map-style, subclassable in Python), IterableDataset, TensorDataset,
Subset, ConcatDataset and random_split, as torch.utils.data."""

import bisect
import math
import warnings

from ... import _C
from ..._generator import next_key


class Dataset:
    """Samples by index: subclasses define __getitem__ and __len__."""

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")


class IterableDataset(Dataset):
    """A stream of samples: subclasses define __iter__. A DataLoader reads it on the
    consumer's thread (tide's workers are threads, which would all read the same stream)."""

    def __iter__(self):
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")


class TensorDataset(Dataset):
    """Sample i is (tensors[0][i], tensors[1][i], ...): views sharing the tensors' storage.
    With one or two tensors a DataLoader gathers whole batches in C++ (rows straight into
    pinned memory, the same batches as tide's C++ DataLoader)."""

    def __init__(self, *tensors):
        for t in tensors:
            if not isinstance(t, _C.Tensor):
                raise TypeError(f"TensorDataset(): expected tide.Tensor arguments, found "
                                f"{type(t).__name__}")
        if not tensors:
            raise ValueError("TensorDataset(): expected at least one tensor")
        if any(t.dim() == 0 for t in tensors):
            raise ValueError("TensorDataset(): every tensor needs a first dimension that indexes "
                             "the samples; unsqueeze(0) a 0-dimensional one")
        if any(tensors[0].size(0) != t.size(0) for t in tensors):
            sizes = ", ".join(str(t.size(0)) for t in tensors)
            raise AssertionError(f"Size mismatch between tensors (dim 0 sizes: {sizes}); dim 0 "
                                 "of every tensor must index the same samples")
        self.tensors = tensors
        self._batcher = (_C._TensorBatcher(tensors[0], tensors[1] if len(tensors) > 1 else None)
                         if len(tensors) <= 2 else None)

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].size(0)


class Subset(Dataset):
    """The samples of `dataset` at `indices`, in that order."""

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)


class ConcatDataset(Dataset):
    """The samples of several datasets, one after the other."""

    @staticmethod
    def cumsum(sequence):
        sizes, total = [], 0
        for d in sequence:
            total += len(d)
            sizes.append(total)
        return sizes

    def __init__(self, datasets):
        self.datasets = list(datasets)
        assert len(self.datasets) > 0, "datasets should not be an empty iterable"
        for d in self.datasets:
            assert not isinstance(d, IterableDataset), \
                "ConcatDataset does not support IterableDataset"
        self.cumulative_sizes = self.cumsum(self.datasets)

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        which = bisect.bisect_right(self.cumulative_sizes, idx)
        start = self.cumulative_sizes[which - 1] if which > 0 else 0
        return self.datasets[which][idx - start]

    def __add__(self, other):
        return ConcatDataset([self, other])


def _dataset_add(self, other):
    return ConcatDataset([self, other])


Dataset.__add__ = _dataset_add


def random_split(dataset, lengths, generator=None):
    """Splits the dataset into non-overlapping Subsets of the given lengths, or of fractions of
    its length (floors, with the remainder handed out one by one from the first split), drawn
    from one permutation. The split is reproducible from the generator's seed (or from
    tide.manual_seed), but is not torch's split for the same seed: tide draws with Philox."""
    lengths = list(lengths)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        counts = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            counts.append(int(math.floor(len(dataset) * frac)))
        for i in range(len(dataset) - sum(counts)):
            counts[i % len(counts)] += 1
        lengths = counts
        for i, length in enumerate(lengths):
            if length == 0:
                warnings.warn(f"Length of split at index {i} is 0. This might result in an "
                              "empty dataset.")
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    seed, stream = next_key(generator)
    order = _C._shuffled_order(sum(lengths), seed, stream)
    subsets, offset = [], 0
    for length in lengths:
        subsets.append(Subset(dataset, order[offset:offset + length]))
        offset += length
    return subsets
