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


def _check_out(out, name):
    if out is not None:
        raise TypeError(f"{name}(): out= is not supported by tide; assign the result instead")


def _drawn_with(generator, device, make):
    """make(cpu) under the generator's stream, moved to device (Note [Drawing from a Generator]
    in _creation.py): the same numbers on every device."""
    from ._creation import _drawing_from
    with _drawing_from(generator):
        t = make(_C.device("cpu"))
    return t.to(device_arg(device) or _C.get_default_device())


def _size_factory(name, make):
    def factory(*size, out=None, dtype=None, device=None, requires_grad=False,
                pin_memory=False):
        _check_out(out, name)
        return make(_sizes(size, name), dtype, device_arg(device), requires_grad, pin_memory)
    factory.__name__ = factory.__qualname__ = name
    factory.__doc__ = (f"tide.{name}(*size, dtype=None, device=None, requires_grad=False, "
                       f"pin_memory=False), as torch.{name}")
    return factory


def _random_factory(name, make):
    plain = _size_factory(name, make)

    def factory(*size, generator=None, out=None, dtype=None, device=None, requires_grad=False,
                pin_memory=False):
        if generator is None:
            return plain(*size, out=out, dtype=dtype, device=device,
                         requires_grad=requires_grad, pin_memory=pin_memory)
        _check_out(out, name)
        sizes = _sizes(size, name)
        t = _drawn_with(generator, device, lambda cpu: make(sizes, dtype, cpu, False, False))
        return _rg(t.pin_memory() if pin_memory else t, requires_grad)
    factory.__name__ = factory.__qualname__ = name
    factory.__doc__ = (f"tide.{name}(*size, generator=None, dtype=None, device=None, "
                       f"requires_grad=False, pin_memory=False), as torch.{name}")
    return factory


def empty(*size, out=None, dtype=None, device=None, requires_grad=False, pin_memory=False,
          memory_format=None):
    """tide.empty(*size, dtype=None, device=None, requires_grad=False, pin_memory=False,
    memory_format=tide.contiguous_format), as torch.empty"""
    _check_out(out, "empty")
    return _C._empty(_sizes(size, "empty"), dtype, device_arg(device), requires_grad, pin_memory,
                     memory_format)
zeros = _size_factory("zeros", _C._zeros)
ones = _size_factory("ones", _C._ones)
rand = _random_factory("rand", _C._rand)
randn = _random_factory("randn", _C._randn)


def full(size, fill_value, *, out=None, dtype=None, device=None, requires_grad=False,
         pin_memory=False):
    _check_out(out, "full")
    return _C._full(_sizes((size,), "full"), fill_value, dtype, device_arg(device),
                    requires_grad, pin_memory)


def randint(low=0, high=None, size=None, *, generator=None, dtype=None, device=None,
            requires_grad=False):
    # torch.randint(high, size), torch.randint(high, size=...) and randint(low, high, size)
    if size is None:
        low, high, size = 0, low, high
    elif high is None:
        low, high = 0, low
    if size is None:
        raise TypeError("randint() missing required argument 'size'")
    if generator is not None:
        sizes = _sizes((size,), "randint")
        t = _drawn_with(generator, device,
                        lambda cpu: _C._randint(low, high, sizes, dtype, cpu, False))
        return _rg(t, requires_grad)
    return _C._randint(low, high, _sizes((size,), "randint"), dtype, device_arg(device),
                       requires_grad)


def arange(start, end=None, step=1, *, out=None, dtype=None, device=None, requires_grad=False):
    _check_out(out, "arange")
    if end is None:
        start, end = 0, start
    return _C._arange(start, end, step, dtype, device_arg(device), requires_grad)


def linspace(start, end, steps, *, out=None, dtype=None, device=None, requires_grad=False):
    _check_out(out, "linspace")
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


def rand_like(input, *, dtype=None, device=None, requires_grad=False,
               memory_format=None):
    return _rg(_C._rand_like(input, dtype, device_arg(device), memory_format), requires_grad)


def randn_like(input, *, dtype=None, device=None, requires_grad=False,
               memory_format=None):
    return _rg(_C._randn_like(input, dtype, device_arg(device), memory_format), requires_grad)


def randint_like(input, low=0, high=None, *, dtype=None, device=None, requires_grad=False):
    """torch.randint_like(input, high) or (input, low, high): input's shape, dtype and device
    unless given."""
    if high is None:
        low, high = 0, low
    return randint(low, high, tuple(input.shape), dtype=dtype or input.dtype,
                   device=device if device is not None else input.device,
                   requires_grad=requires_grad)
