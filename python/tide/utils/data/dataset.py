"""Datasets: Dataset (map-style, subclassable in Python), IterableDataset, TensorDataset and
Subset, as torch.utils.data."""

from ... import _C


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
