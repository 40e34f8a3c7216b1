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


# ---- convolution, pooling, normalization (NCHW; the C++ ops of tide/ops.h)


def _ints(value, name):
    """torch's int[N] arguments: one int, or a tuple/list of ints (passed on as a list)."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an int or a tuple of ints, not bool")
    if isinstance(value, int):
        return [value]
    return [int(v) for v in value]


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-d convolution over (N, C, H, W) or (C, H, W); padding may be "same" or "valid"."""
    if not isinstance(padding, str):
        padding = _ints(padding, "padding")
    return _C._conv2d(input, weight, bias, _ints(stride, "stride"), padding,
                      _ints(dilation, "dilation"), groups)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-d convolution over (N, C, L) or (C, L)."""
    if isinstance(padding, str):
        if padding == "valid":
            padding = 0
        else:
            raise _C.Error(f"[tide.nn.functional.conv1d] padding={padding!r} is not supported "
                           "by tide's conv1d; pass the padding as an int (or use conv2d)")
    return _C._conv1d(input, weight, bias, _ints(stride, "stride"), _ints(padding, "padding"),
                      _ints(dilation, "dilation"), groups)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    args = (input, _ints(kernel_size, "kernel_size"),
            [] if stride is None else _ints(stride, "stride"), _ints(padding, "padding"),
            _ints(dilation, "dilation"), bool(ceil_mode))
    if return_indices:
        return _C._max_pool2d_with_indices(*args)
    return _C._max_pool2d(*args)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=False):
    return max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    return _C._avg_pool2d(input, _ints(kernel_size, "kernel_size"),
                          [] if stride is None else _ints(stride, "stride"),
                          _ints(padding, "padding"), bool(ceil_mode), bool(count_include_pad),
                          divisor_override)


def adaptive_avg_pool2d(input, output_size):
    """output_size: an int, or two (None keeps the input's size in that dim)."""
    size = [output_size, output_size] if isinstance(output_size, int) else list(output_size)
    if len(size) == 2:
        size = [input.shape[-2 + i] if s is None else int(s) for i, s in enumerate(size)]
    return _C._adaptive_avg_pool2d(input, size)


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-05):
    """Normalizes dim 1 of (N, C, ...); in training by the batch's statistics, updating the
    running ones in place (when given), otherwise by the running ones."""
    return _C._batch_norm(input, running_mean, running_var, weight, bias, bool(training),
                          float(momentum), float(eps))
