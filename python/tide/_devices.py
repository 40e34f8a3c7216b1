"""torch's device arguments: None, an int (a cuda index), a string or a tide.device; and the
argument forms of Tensor.to and Module.to. Every Python module converts through these."""

from . import _C


def device_arg(device, what="device"):
    """The tide.device for a device argument (None stays None)."""
    if device is None or isinstance(device, _C.device):
        return device
    if isinstance(device, int) and not isinstance(device, bool):
        return _C.device("cuda", device)
    if isinstance(device, str):
        return _C.device(device)
    raise TypeError(f"{what}: expected a device (a tide.device, a string such as 'cuda:1' or "
                    f"an int), found {type(device).__name__}")


def cuda_index(device, what="device"):
    """The index of a cuda device argument ('cuda' alone: the current device)."""
    d = device_arg(device, what)
    if d is None or d.type != "cuda":
        raise TypeError(f"{what}: expected a cuda device (an index, 'cuda:N' or "
                        f"tide.device('cuda', N)), found {device!r}")
    return d.index if d.index is not None else _C._cuda.current_device()


def parse_to(args, device=None, dtype=None, non_blocking=False, copy=False):
    """(device, dtype, non_blocking, copy) of torch's to() forms: to(device, dtype),
    to(dtype), to(tensor), with keywords, the positional non_blocking included."""
    for a in args:
        if isinstance(a, _C.dtype):
            dtype = a
        elif isinstance(a, _C.Tensor):
            device, dtype = a.device, a.dtype
        elif isinstance(a, bool):
            non_blocking = a
        else:
            device = a
    return device_arg(device), dtype, non_blocking, copy
