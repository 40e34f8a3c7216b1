"""The Python half of tide.Tensor: methods whose torch signatures take ``*sizes``, devices in
any spelling or several forms (to, cuda, type, new_*), added to the compiled class."""

import copy as _copy

from . import _C
from ._arg_errors import raise_translated
from ._devices import device_arg, parse_to
from ._factories import _sizes

Tensor = _C.Tensor


def _same_or(self, result):
    # torch returns the tensor itself when a conversion has nothing to do.
    return self if result._is_same(self) else result


def _to(self, *args, device=None, dtype=None, non_blocking=False, copy=False,
        memory_format=None):
    """to(device=None, dtype=None, non_blocking=False, copy=False, memory_format=None),
    to(dtype), to(other)."""
    device, dtype, non_blocking, copy = parse_to(args, device, dtype, non_blocking, copy)
    try:
        return _same_or(self, self._to(device, dtype, non_blocking, copy, memory_format))
    except TypeError as err:
        raise_translated(err, "to")


def _cuda(self, device=None, non_blocking=False):
    return _same_or(self, self._cuda(device_arg(device), non_blocking))


def _view(self, *shape, dtype=None):
    if dtype is not None and not shape:
        shape = (dtype,)
    if len(shape) == 1 and isinstance(shape[0], _C.dtype):
        return self._view_dtype(shape[0])  # the same bytes as another dtype
    return self._view(_sizes(shape, "view"))


def _reshape(self, *shape):
    return self._reshape(_sizes(shape, "reshape"))


def _permute(self, *dims):
    return self._permute(_sizes(dims, "permute"))


def _expand(self, *sizes):
    return self._expand(_sizes(sizes, "expand"))


def _new_kw(self, dtype, device):
    if dtype is None and device is None:
        return self
    return _C._empty([0], dtype or self.dtype, device_arg(device) or self.device, False, False)


def _new_empty(self, *size, dtype=None, device=None, requires_grad=False):
    t = _new_kw(self, dtype, device)._new_empty(_sizes(size, "new_empty"))
    return t.requires_grad_() if requires_grad else t


def _new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
    t = _new_kw(self, dtype, device)._new_zeros(_sizes(size, "new_zeros"))
    return t.requires_grad_() if requires_grad else t


def _new_ones(self, *size, dtype=None, device=None, requires_grad=False):
    t = _new_kw(self, dtype, device)._new_ones(_sizes(size, "new_ones"))
    return t.requires_grad_() if requires_grad else t


def _new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False):
    t = _new_kw(self, dtype, device)._new_full(_sizes((size,), "new_full"), fill_value)
    return t.requires_grad_() if requires_grad else t


def _new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
    t = _new_kw(self, dtype, device)._new_tensor(data)
    return t.requires_grad_() if requires_grad else t


def _new(self, *args):
    """The legacy x.new(...): same dtype and device; sizes, data or nothing."""
    return _C.Tensor._legacy_new(*args, dtype=self.dtype, device=self.device)


def _format(self, spec):
    if self.dim() == 0:
        return self.item().__format__(spec)
    return object.__format__(self, spec) if not spec else format(repr(self), spec)


def _iter(self):
    if self.dim() == 0:
        raise TypeError("iteration over a 0-d tensor")
    return iter([self[i] for i in range(self.shape[0])])


def _deepcopy(self, memo):
    """copy.deepcopy: new storage with the same values, requires_grad, gradient and class
    (a Parameter stays a Parameter), as torch's."""
    if id(self) in memo:
        return memo[id(self)]
    data = self.detach().clone()
    if type(self) is Tensor:
        result = data
    else:
        result = type(self).__new__(type(self))
        Tensor.__init__(result, data)
        result.__dict__.update(_copy.deepcopy(self.__dict__, memo))
    if self.requires_grad:
        result.requires_grad_(True)
    if self.grad is not None:
        result.grad = _copy.deepcopy(self.grad, memo)
    memo[id(self)] = result
    return result


def _register_hook(self, hook):
    """hook(grad) runs each time backward computes this tensor's gradient, before it is used;
    a Tensor it returns replaces the gradient (torch's Tensor.register_hook)."""
    if not self.requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    from .utils.hooks import RemovableHandle
    return RemovableHandle(remover=self._register_hook(hook))


def _backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    """torch's Tensor.backward: accumulates into the leaves' grad (only into inputs' when
    given)."""
    from . import autograd
    autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)


_METHODS = {
    "to": _to, "cuda": _cuda, "view": _view, "reshape": _reshape, "permute": _permute,
    "expand": _expand, "new_empty": _new_empty, "new_zeros": _new_zeros,
    "new_ones": _new_ones, "new_full": _new_full, "new_tensor": _new_tensor, "new": _new,
    "__format__": _format, "__iter__": _iter, "register_hook": _register_hook, "backward": _backward,
    "__deepcopy__": _deepcopy,
}


def _dtype_method(dtype):
    def convert(self, memory_format=None):
        return _same_or(self, self._to(None, dtype, False, False, memory_format))
    return convert


_CASTS = {"float": "float32", "double": "float64", "half": "float16", "bfloat16": "bfloat16",
          "long": "int64", "int": "int32", "bool": "bool", "byte": "uint8"}


def install():
    for name, fn in _METHODS.items():
        setattr(Tensor, name, fn)
    for name, dtype_name in _CASTS.items():
        setattr(Tensor, name, _dtype_method(getattr(_C, dtype_name)))
    Tensor.__str__ = Tensor.__repr__
    Tensor.__module__ = "tide"
