"""tide.nn.functional: the stateless forms of the layers and losses (torch.nn.functional).
linear runs the same C++ code as tide::nn::Linear (python/src/bind_nn.cpp), so Python and C++
models compute the same numbers bit for bit."""

import warnings

from .. import _C


def _reduction(size_average, reduce, reduction):
    """torch's legacy size_average/reduce arguments as a reduction name."""
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    warnings.warn("size_average and reduce args will be deprecated, please use "
                  f"reduction='{'mean' if size_average and reduce else 'sum' if reduce else 'none'}'"
                  " instead.")
    return "mean" if size_average and reduce else "sum" if reduce else "none"


def _softmax_dim(name, ndim):
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
                  "to include dim=X as an argument.")
    return 0 if ndim in (0, 1, 3) else 1


def linear(input, weight, bias=None):
    """input @ weight.T + bias."""
    return _C._linear(input, weight, bias)


def relu(input, inplace=False):
    """max(input, 0). inplace=True is accepted and computes out of place (tide has no in-place
    relu; the result is the same tensor values)."""
    return input.relu()


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim("softmax", input.dim())
    if dtype is not None:
        input = input.to(dtype=dtype)
    return input.softmax(dim)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim())
    if dtype is not None:
        input = input.to(dtype=dtype)
    return input.log_softmax(dim)


def dropout(input, p=0.5, training=True, inplace=False):
    """Zeroes elements with probability p (in training) and scales the rest by 1/(1-p)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    return _C._dropout(input, p, training)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100,
                  reduce=None, reduction="mean", label_smoothing=0.0):
    if label_smoothing != 0.0:
        raise _C.Error("[tide.nn.functional.cross_entropy] label_smoothing is not supported by "
                       f"tide (got {label_smoothing}); pass label_smoothing=0.0")
    return _C._cross_entropy(input, target, weight,
                             _reduction(size_average, reduce, reduction), ignore_index)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
             reduction="mean"):
    return _C._nll_loss(input, target, weight, _reduction(size_average, reduce, reduction),
                        ignore_index)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    return _C._mse_loss(input, target, _reduction(size_average, reduce, reduction))
