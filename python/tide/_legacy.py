"""torch's legacy tensor types (tide.FloatTensor, tide.cuda.LongTensor, ...), Tensor.type and
set_default_tensor_type. The seeds use them; either module prefix ('torch.' or 'tide.') is
accepted where a type is named by a string."""

from . import _C

# name -> dtype name
_TYPES = {"FloatTensor": "float32", "DoubleTensor": "float64", "HalfTensor": "float16",
          "BFloat16Tensor": "bfloat16", "LongTensor": "int64", "IntTensor": "int32",
          "ByteTensor": "uint8", "BoolTensor": "bool"}


class _LegacyType(type):
    """The metaclass of the legacy types: calling one makes a tensor of its dtype and device
    kind; isinstance(x, tide.cuda.FloatTensor) checks both."""

    def __call__(cls, *args, device=None):
        if device is None:
            device = "cuda" if cls.is_cuda else "cpu"
        return _C.Tensor._legacy_new(*args, dtype=cls.dtype, device=_C.device(device)
                                     if isinstance(device, str) else device)

    def __instancecheck__(cls, obj):
        return isinstance(obj, _C.Tensor) and obj.dtype == cls.dtype and obj.is_cuda == cls.is_cuda

    def __repr__(cls):
        return f"<class '{cls.__module__}.{cls.__name__}'>"


def _make(name, is_cuda):
    module = "tide.cuda" if is_cuda else "tide"
    return _LegacyType(name, (), {"dtype": getattr(_C, _TYPES[name]), "is_cuda": is_cuda,
                                  "__module__": module, "__qualname__": name})


CPU_TYPES = {name: _make(name, False) for name in _TYPES}
CUDA_TYPES = {name: _make(name, True) for name in _TYPES}


def _lookup(spec):
    if isinstance(spec, _LegacyType):
        return spec
    if isinstance(spec, str):
        for prefix, table in (("torch.cuda.", CUDA_TYPES), ("tide.cuda.", CUDA_TYPES),
                              ("torch.", CPU_TYPES), ("tide.", CPU_TYPES)):
            if spec.startswith(prefix) and spec[len(prefix):] in table:
                return table[spec[len(prefix):]]
    raise TypeError(f"invalid type: {spec!r}; expected a tensor type such as "
                    "'torch.cuda.FloatTensor' (or 'tide.cuda.FloatTensor') or tide.FloatTensor")


def _type_name(t):
    for name, dtype_name in _TYPES.items():
        if t.dtype == getattr(_C, dtype_name):
            return ("tide.cuda." if t.is_cuda else "tide.") + name
    raise AssertionError(t.dtype)


def tensor_type(self, dtype=None, non_blocking=False, **kwargs):
    """Tensor.type(): the type's name; Tensor.type(t): the tensor converted to type t."""
    if dtype is None:
        return _type_name(self)
    if isinstance(dtype, _C.dtype):
        return self._to(None, dtype, non_blocking, False)
    cls = _lookup(dtype)
    device = self.device if self.is_cuda == cls.is_cuda else _C.device(
        "cuda" if cls.is_cuda else "cpu")
    return self._to(device, cls.dtype, non_blocking, False)


def set_default_tensor_type(t):
    """torch.set_default_tensor_type: the default dtype and device kind of factories."""
    cls = _lookup(t)
    if not cls.dtype.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _C.set_default_dtype(cls.dtype)
    _C.set_default_device(_C.device("cuda" if cls.is_cuda else "cpu"))
