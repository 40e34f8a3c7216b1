"""Factories with torch's signatures: sizes as ``*size`` or one sequence, and the keyword
arguments dtype, device, requires_grad and pin_memory. The C++ side is tide._C._empty & co."""

from . import _C
from ._devices import device_arg


def _sizes(size, name):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = size[0]
    for s in size:
        if not isinstance(s, int) or isinstance(s, bool):
            raise TypeError(f"{name}(): argument 'size' must be a sequence of ints or ints, "
                            f"found {type(s).__name__}")
        if not -2 ** 63 <= s < 2 ** 63:
            raise OverflowError(f"{name}(): size {s} does not fit in int64")
    return list(size)


def _rg(t, requires_grad):
    return t.requires_grad_() if requires_grad else t


def _written_into(out, name, dtype, make):
    """torch's out= on a factory: the values made by make(dtype, device) in out's dtype (a
    dtype= that differs is refused, as torch) on out's device, then written into out, which is
    resized without a warning, as torch's factories resize it."""
    if not isinstance(out, _C.Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if dtype is not None and dtype != out.dtype:
        raise _C.Error(f"[{name}] dtype {dtype} does not match dtype of out parameter "
                       f"({out.dtype}); drop dtype= or give out that dtype")
    result = make(out.dtype, out.device)
    if tuple(out.shape) == tuple(result.shape):
        out.copy_(result)
    else:
        out.data = result
    return out


def _size_factory(name, make):
    def factory(*size, out=None, dtype=None, device=None, requires_grad=False,
                pin_memory=False):
        sizes = _sizes(size, name)
        if out is not None:
            return _written_into(out, name, dtype,
                                 lambda dt, dev: make(sizes, dt, dev, False, False))
        return make(sizes, dtype, device_arg(device), requires_grad, pin_memory)
    factory.__name__ = factory.__qualname__ = name
    factory.__doc__ = (f"tide.{name}(*size, dtype=None, device=None, requires_grad=False, "
                       f"pin_memory=False), as torch.{name}")
    return factory


def _random_factory(name, make):
    # generator= goes to C++, which draws on the device (Note [Generators] in
    # include/tide/generator.h); None draws from the device's default generator.
    def factory(*size, generator=None, out=None, dtype=None, device=None, requires_grad=False,
                pin_memory=False):
        sizes = _sizes(size, name)
        if out is not None:
            return _written_into(out, name, dtype,
                                 lambda dt, dev: make(sizes, generator, dt, dev, False, False))
        return make(sizes, generator, dtype, device_arg(device), requires_grad, pin_memory)
    factory.__name__ = factory.__qualname__ = name
    factory.__doc__ = (f"tide.{name}(*size, generator=None, dtype=None, device=None, "
                       f"requires_grad=False, pin_memory=False), as torch.{name}")
    return factory


def empty(*size, out=None, dtype=None, device=None, requires_grad=False, pin_memory=False,
          memory_format=None):
    """tide.empty(*size, dtype=None, device=None, requires_grad=False, pin_memory=False,
    memory_format=tide.contiguous_format), as torch.empty"""
    sizes = _sizes(size, "empty")
    if out is not None:
        return _written_into(out, "empty", dtype, lambda dt, dev: _C._empty(
            sizes, dt, dev, False, False, memory_format))
    return _C._empty(sizes, dtype, device_arg(device), requires_grad, pin_memory, memory_format)


zeros = _size_factory("zeros", _C._zeros)
ones = _size_factory("ones", _C._ones)
rand = _random_factory("rand", _C._rand)
randn = _random_factory("randn", _C._randn)


def full(size, fill_value, *, out=None, dtype=None, device=None, requires_grad=False,
         pin_memory=False):
    sizes = _sizes((size,), "full")
    if out is not None:
        return _written_into(out, "full", dtype,
                             lambda dt, dev: _C._full(sizes, fill_value, dt, dev, False, False))
    return _C._full(sizes, fill_value, dtype, device_arg(device), requires_grad, pin_memory)


def randint(low=0, high=None, size=None, *, generator=None, out=None, dtype=None, device=None,
            requires_grad=False):
    # torch.randint(high, size), torch.randint(high, size=...) and randint(low, high, size)
    if size is None:
        low, high, size = 0, low, high
    elif high is None:
        low, high = 0, low
    if size is None:
        raise TypeError("randint() missing required argument 'size'")
    sizes = _sizes((size,), "randint")
    if out is not None:
        return _written_into(out, "randint", dtype, lambda dt, dev: _C._randint(
            low, high, sizes, generator, dt, dev, False))
    return _C._randint(low, high, sizes, generator, dtype, device_arg(device), requires_grad)


def arange(start, end=None, step=1, *, out=None, dtype=None, device=None, requires_grad=False):
    if end is None:
        start, end = 0, start
    if out is not None:
        return _written_into(out, "arange", dtype,
                             lambda dt, dev: _C._arange(start, end, step, dt, dev, False))
    return _C._arange(start, end, step, dtype, device_arg(device), requires_grad)


def linspace(start, end, steps, *, out=None, dtype=None, device=None, requires_grad=False):
    if out is not None:
        return _written_into(out, "linspace", dtype,
                             lambda dt, dev: _C._linspace(start, end, steps, dt, dev, False))
    return _C._linspace(start, end, steps, dtype, device_arg(device), requires_grad)


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new tensor holding a copy of data: numbers, nested lists, a tensor, or an array of
    another library (NumPy, torch: read through DLPack, then copied, as torch.tensor copies)."""
    if not isinstance(data, _C.Tensor) and hasattr(data, "__dlpack__"):
        data = _foreign_tensor(data)
        if device is None:  # a tide tensor keeps its device; foreign data goes to the default
            device = _C.get_default_device()
    elif hasattr(data, "item") and getattr(data, "ndim", None) == 0:
        data = data.item()  # a NumPy scalar: its Python number
    return _C._tensor(data, dtype, device_arg(device), requires_grad, pin_memory)


def _foreign_tensor(data):
    """A tide tensor viewing `data`'s memory (to be copied by the caller). NumPy arrays that
    DLPack cannot export as they are (read-only, negative strides) are copied into a fresh
    array first, since a copy is what tide.tensor asked for anyway."""
    from ._dlpack import from_dlpack
    try:
        return from_dlpack(data)
    except (BufferError, TypeError, _C.Error):
        if type(data).__module__ != "numpy":
            raise
        import numpy
        return from_dlpack(numpy.array(data, copy=True))


def empty_like(input, *, dtype=None, device=None, requires_grad=False,
               memory_format=None):
    return _rg(_C._empty_like(input, dtype, device_arg(device), memory_format), requires_grad)


def zeros_like(input, *, dtype=None, device=None, requires_grad=False,
               memory_format=None):
    return _rg(_C._zeros_like(input, dtype, device_arg(device), memory_format), requires_grad)


def ones_like(input, *, dtype=None, device=None, requires_grad=False,
               memory_format=None):
    return _rg(_C._ones_like(input, dtype, device_arg(device), memory_format), requires_grad)


def full_like(input, fill_value, *, dtype=None, device=None, requires_grad=False,
              memory_format=None):
    return _rg(_C._full_like(input, fill_value, dtype, device_arg(device), memory_format),
               requires_grad)


def rand_like(input, *, generator=None, dtype=None, device=None, requires_grad=False,
              memory_format=None):
    return _rg(_C._rand_like(input, generator, dtype, device_arg(device), memory_format),
               requires_grad)


def randn_like(input, *, generator=None, dtype=None, device=None, requires_grad=False,
               memory_format=None):
    return _rg(_C._randn_like(input, generator, dtype, device_arg(device), memory_format),
               requires_grad)


def randint_like(input, low=0, high=None, *, generator=None, dtype=None, device=None,
                 requires_grad=False):
    """torch.randint_like(input, high) or (input, low, high): input's shape, dtype and device
    unless given."""
    if high is None:
        low, high = 0, low
    return randint(low, high, tuple(input.shape), generator=generator, dtype=dtype or input.dtype,
                   device=device if device is not None else input.device,
                   requires_grad=requires_grad)
