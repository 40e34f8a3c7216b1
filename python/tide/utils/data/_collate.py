"""default_collate and pin_memory: how a DataLoader turns samples into a batch (torch's rules:
tensors are stacked, numbers become tensors, tuples/lists/dicts are collated element-wise) and
puts a batch in pinned memory (recursively, tensors only)."""

import collections.abc

from ... import _C

_ERR = ("default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; "
        "found {}")


def _from_numpy(array):
    dtype = getattr(_C, str(array.dtype), None)
    if not isinstance(dtype, _C.dtype):
        raise TypeError(_ERR.format(f"a numpy array of dtype {array.dtype}"))
    return _C._tensor(array.tolist(), dtype, None, False, False)


def default_convert(data):
    """A sample without batching: numpy arrays become tensors, containers are converted
    element-wise, everything else is returned as it is."""
    if type(data).__module__ == "numpy" and type(data).__name__ == "ndarray":
        return _from_numpy(data)
    if isinstance(data, collections.abc.Mapping):
        return type(data)({k: default_convert(v) for k, v in data.items()})
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return [default_convert(d) for d in data]
    return data


def default_collate(batch):
    """Samples -> one batch, with torch's rules (a list of samples in, a batch out)."""
    elem = batch[0]
    if isinstance(elem, _C.Tensor):
        return _C.stack(list(batch), 0)
    if type(elem).__module__ == "numpy":
        if type(elem).__name__ == "ndarray":
            return default_collate([_from_numpy(b) for b in batch])
        if hasattr(elem, "item"):  # a numpy scalar
            return default_collate([b.item() for b in batch])
    if isinstance(elem, bool):
        return _C._tensor(list(batch), _C.bool, None, False, False)
    if isinstance(elem, float):
        return _C._tensor(list(batch), _C.float64, None, False, False)
    if isinstance(elem, int):
        return _C._tensor(list(batch), _C.int64, None, False, False)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        return type(elem)({key: default_collate([d[key] for d in batch]) for key in elem})
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # namedtuple
        return type(elem)(*(default_collate(samples) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        size = len(elem)
        if not all(len(e) == size for e in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        transposed = [default_collate(list(samples)) for samples in zip(*batch)]
        if isinstance(elem, tuple):
            return transposed  # torch returns a list for tuples of samples
        try:
            return type(elem)(transposed)
        except TypeError:
            return transposed
    raise TypeError(_ERR.format(type(elem)))


def pin_memory(data):
    """The batch with every tensor in pinned host memory (releases the GIL while it copies)."""
    if isinstance(data, _C.Tensor):
        return data.pin_memory()
    if isinstance(data, (str, bytes)):
        return data
    if isinstance(data, collections.abc.Mapping):
        return type(data)({k: pin_memory(v) for k, v in data.items()})
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(pin_memory(d) for d in data))
    if isinstance(data, tuple):
        return tuple(pin_memory(d) for d in data)
    if isinstance(data, list):
        return [pin_memory(d) for d in data]
    return data
