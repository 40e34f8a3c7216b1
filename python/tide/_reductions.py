"""Issue 25's reductions, scans and sorts as torch's free functions (tide.prod(x, 1) is
x.prod(1)); the methods that return (values, indices) as torch's named tuples (x.sort(),
x.topk(k), x.aminmax(), ...); tide.var_mean/std_mean (plain tuples, as torch), tide.unique and
tide.linalg.vector_norm. The methods are bound in python/src/bind_reductions.cpp."""

from . import _C
from . import return_types

_METHOD_FORMS = ["prod", "all", "any", "amax", "amin", "aminmax", "var", "std", "norm",
                 "logsumexp", "count_nonzero", "cumsum", "cumprod", "cummax", "cummin", "sort",
                 "argsort", "topk", "kthvalue", "median", "mode", "isclose", "allclose", "equal",
                 "bincount", "histc"]


def _aminmax(self, *, dim=None, keepdim=False):
    return return_types.aminmax(*self._aminmax(dim=dim, keepdim=keepdim))


def _cummax(self, dim):
    return return_types.cummax(*self._cummax(dim))


def _cummin(self, dim):
    return return_types.cummin(*self._cummin(dim))


def _sort(self, dim=-1, descending=False, *, stable=False):
    # tide's sort is always stable, which is one of the orders torch's unstable sort gives
    return return_types.sort(*self._sort(dim, descending))


def _topk(self, k, dim=-1, largest=True, sorted=True):
    return return_types.topk(*self._topk(k, dim, largest, sorted))


def _kthvalue(self, k, dim=-1, keepdim=False):
    return return_types.kthvalue(*self._kthvalue(k, dim, keepdim))


def _median(self, dim=None, keepdim=False):
    if dim is None:
        return self._median()
    return return_types.median(*self._median(dim, keepdim))


def _mode(self, dim=-1, keepdim=False):
    return return_types.mode(*self._mode(dim, keepdim))


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """torch.unique over the flattened input (dim=None): the values, then the inverse indices
    and the counts when asked for."""
    if dim is not None:
        raise NotImplementedError("tide.unique: dim is not supported yet; call it with dim=None "
                                  "(the flattened input)")
    values, inverse, counts = input._unique(sorted, return_inverse, return_counts)
    if not return_inverse and not return_counts:
        return values
    out = (values,) + ((inverse,) if return_inverse else ()) + ((counts,) if return_counts else ())
    return out


def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """torch.var_mean: (var, mean) over dim, as one call."""
    return input._var_mean(dim, unbiased, keepdim, correction=correction)


def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """torch.std_mean: (std, mean) over dim, as one call."""
    return input._std_mean(dim, unbiased, keepdim, correction=correction)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    """torch.linalg.vector_norm: ord 0, inf, -inf or any other number over dim (every dim when
    None)."""
    return x._vector_norm(ord, dim, keepdim, dtype=dtype)


def install(namespace):
    from ._ops import _method_form, _PYTHON_FORMS, bind_directly
    _C.Tensor.aminmax = _aminmax
    _C.Tensor.cummax = _cummax
    _C.Tensor.cummin = _cummin
    _C.Tensor.sort = _sort
    # Tensor.topk is bound in C++ (Note [Free functions bound directly]); _topk takes the rest.
    _PYTHON_FORMS["Tensor.topk"] = _topk
    _C.Tensor.kthvalue = _kthvalue
    _C.Tensor.median = _median
    _C.Tensor.mode = _mode
    _C.Tensor.unique = unique
    for name in _METHOD_FORMS:
        namespace[name] = _method_form(name)
    bind_directly(namespace, "topk")
    namespace["var_mean"] = var_mean
    namespace["std_mean"] = std_mean
    namespace["unique"] = unique
