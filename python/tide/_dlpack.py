"""Sharing memory without copies: tide.from_dlpack, Tensor.__dlpack__ / __dlpack_device__,
Tensor.numpy and tide.from_numpy, as torch's. The buffers are shared, not copied: a write
through either side is seen by the other, and each side keeps the other's memory alive (Note
[DLPack lifetimes] in python/src/bind_dlpack.cpp). Simulated GPUs' tensors cannot be shared as
CUDA memory (Note [DLPack on simulated GPUs]): copy them to the cpu first."""

from . import _C

_DL_CUDA = 2


def _consumer_stream(device_index):
    """The stream argument a CUDA producer gets: tide's current stream on that device as its
    cudaStream_t (Stream.cuda_stream), or 1, the protocol's legacy default stream, for tide's
    default stream (cuda_stream 0, which the protocol forbids as ambiguous), as torch does."""
    from . import cuda
    handle = cuda.current_stream(device_index).cuda_stream
    return handle if handle else 1


def from_dlpack(ext_tensor):
    """A tide tensor sharing the memory of `ext_tensor`: an object with __dlpack__ (a NumPy
    array, a torch tensor, ...) or a legacy DLPack capsule (used up by this call)."""
    if isinstance(ext_tensor, _C.Tensor):
        return ext_tensor
    if hasattr(ext_tensor, "__dlpack__"):
        kind, index = ext_tensor.__dlpack_device__()
        if kind == _DL_CUDA:
            if _C._cuda.get_device_properties(index).simulated:
                # A real GPU's memory, in a process whose cuda devices are simulated.
                raise BufferError(
                    f"[tide.from_dlpack] the array is on real GPU {index}, but this process's "
                    "cuda devices are simulated (TIDE_SIM_DEVICES); copy it to the cpu first")
            return _C._from_dlpack(ext_tensor.__dlpack__(stream=_consumer_stream(index)))
    return _C._from_dlpack(ext_tensor)


def _dlpack(self, *, stream=None, max_version=None, dl_device=None, copy=None):
    """Tensor.__dlpack__: a DLPack capsule sharing the tensor's memory. On a real GPU the
    consumer's stream (None: the legacy default stream; 1, 2 or a cudaStream_t as an int) is
    made to wait for tide's current stream first, unless stream=-1 (Note [DLPack streams] in
    python/src/bind_dlpack.cpp)."""
    array = _C._to_dlpack(self, stream)
    kwargs = {}
    if max_version is not None:
        kwargs["max_version"] = max_version
    if dl_device is not None:
        kwargs["dl_device"] = dl_device
    if copy is not None:
        kwargs["copy"] = copy
    return array.__dlpack__(**kwargs)


def _dlpack_device(self):
    """Tensor.__dlpack_device__: (1, 0) for cpu, (2, index) for a real GPU."""
    return _C._dlpack_device(self)


def _numpy(self, *, force=False):
    """A NumPy array sharing a cpu tensor's memory (force=True: copies to the cpu first, as
    torch)."""
    if force:
        return _C._numpy(self.detach().cpu())
    return _C._numpy(self)


_NUMPY_TYPES = ("float64, float32, float16, int64, int32, uint8, and bool")


def from_numpy(ndarray):
    """A cpu tensor sharing the NumPy array's memory (torch.from_numpy)."""
    import numpy
    if not isinstance(ndarray, numpy.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(ndarray).__name__})")
    if ndarray.dtype.name not in ("float64", "float32", "float16", "int64", "int32", "uint8",
                                  "bool"):
        raise TypeError(f"can't convert np.ndarray of type numpy.{ndarray.dtype.name}. The only "
                        f"supported types are: {_NUMPY_TYPES}.")
    if any(s < 0 for s in ndarray.strides):
        raise ValueError("At least one stride in the given numpy array is negative, and tensors "
                         "with negative strides are not currently supported. (You can probably "
                         "work around this by making a copy of your array  with array.copy().) ")
    if not ndarray.flags.writeable:
        raise ValueError("[tide.from_numpy] the array is read-only and tide tensors are always "
                         "writable; share a writable array or copy it (arr.copy())")
    return _C._from_dlpack(ndarray)


def install():
    _C.Tensor.__dlpack__ = _dlpack
    _C.Tensor.__dlpack_device__ = _dlpack_device
    _C.Tensor.numpy = _numpy
