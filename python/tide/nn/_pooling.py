"""The pooling functions of torch.nn.functional that tide builds on its 2-d kernels and
ops: max_pool1d, avg_pool1d and adaptive_avg_pool1d run the 2-d ones over a height of 1;
adaptive_max_pool1d/2d take the max of each adaptive window (torch's windows: from
floor(i * in / out) to ceil((i + 1) * in / out)); lp_pool1d/2d are torch's formula over
avg_pool."""

from .. import _C
from . import functional as F


def _single(value, name):
    values = F._ints(value, name)
    if len(values) != 1:
        raise _C.Error(f"[tide.nn.functional] expected {name} to be one int, found {values}")
    return values[0]


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    k = _single(kernel_size, "kernel_size")
    s = k if stride is None or F._ints(stride, "stride") == [] else _single(stride, "stride")
    out = F.max_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, _single(padding, "padding")),
                       (1, _single(dilation, "dilation")), ceil_mode, return_indices)
    if return_indices:
        return out[0].squeeze(-2), out[1].squeeze(-2)
    return out.squeeze(-2)


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=False):
    return max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True):
    k = _single(kernel_size, "kernel_size")
    s = k if stride is None or F._ints(stride, "stride") == [] else _single(stride, "stride")
    return F.avg_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, _single(padding, "padding")),
                        ceil_mode, count_include_pad).squeeze(-2)


def adaptive_avg_pool1d(input, output_size):
    size = _single(output_size, "output_size")
    return F.adaptive_avg_pool2d(input.unsqueeze(-2), (1, size)).squeeze(-2)


def _windows(in_size, out_size):
    return [(i * in_size // out_size, -(-(i + 1) * in_size // out_size))
            for i in range(out_size)]


def _adaptive_max(input, sizes):
    """Values and flat indices (into the pooled dims) of the max of each adaptive window over
    input's last len(sizes) dims (1 or 2)."""
    spatial = list(input.shape[input.dim() - len(sizes):])
    sizes = [spatial[i] if s is None else int(s) for i, s in enumerate(sizes)]
    lead = list(input.shape[:input.dim() - len(sizes)])
    if len(sizes) == 1:
        spatial, sizes = [1] + spatial, [1] + sizes
        input = input.unsqueeze(-2)
    width = spatial[1]
    values, indices = [], []
    for h0, h1 in _windows(spatial[0], sizes[0]):
        for w0, w1 in _windows(spatial[1], sizes[1]):
            window = input.narrow(-2, h0, h1 - h0).narrow(-1, w0, w1 - w0)
            value, local = window.reshape(lead + [-1]).max(-1)
            cols = w1 - w0
            values.append(value)
            indices.append((local // cols + h0) * width + local % cols + w0)
    shape = lead + sizes
    value = _C.stack(values, -1).reshape(shape)
    index = _C.stack(indices, -1).reshape(shape)
    return value, index


def _adaptive_max_pool(input, output_size, dims, return_indices):
    sizes = [output_size] * dims if isinstance(output_size, int) or output_size is None \
        else list(output_size)
    if input.dim() not in (dims + 1, dims + 2):
        raise _C.Error(f"adaptive_max_pool{dims}d(): Expected {dims + 1}D or {dims + 2}D "
                       f"tensor, but got {list(input.shape)}")
    value, index = _adaptive_max(input, sizes)
    if dims == 1:
        value, index = value.squeeze(-2), index.squeeze(-2)
    return (value, index) if return_indices else value


def adaptive_max_pool1d(input, output_size, return_indices=False):
    return _adaptive_max_pool(input, output_size, 1, return_indices)


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    return _adaptive_max_pool(input, output_size, 1, True)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    return _adaptive_max_pool(input, output_size, 2, return_indices)


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    return _adaptive_max_pool(input, output_size, 2, True)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The norm_type-norm of each window: (sum of x^p)^(1/p), through avg_pool1d (torch's)."""
    out = avg_pool1d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    return (out.sign() * out.abs().relu()).mul(kernel_size).pow(1.0 / norm_type)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    kw, kh = (kernel_size, kernel_size) if isinstance(kernel_size, int) else kernel_size
    out = F.avg_pool2d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    return (out.sign() * out.abs().relu()).mul(kw * kh).pow(1.0 / norm_type)

