"""nn.Conv1d and nn.Conv2d. Their parameters are drawn by the C++ tide::nn::Conv2d
(_drawn_parameters.py): Conv1d's as a Conv2d's of kernel (1, k), whose fan_in, and so whose
bounds, are the same."""

from ... import _C
from .. import functional as F
from ._drawn_parameters import redraw_parameters, set_drawn_parameters
from .module import Module


def _check_arguments(in_channels, out_channels, groups, padding):
    """torch's _ConvNd checks of the channels, groups and a padding string."""
    if in_channels % groups != 0:
        raise ValueError("in_channels must be divisible by groups")
    if out_channels % groups != 0:
        raise ValueError("out_channels must be divisible by groups")
    if isinstance(padding, str) and padding not in ("same", "valid"):
        raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                         "{'valid', 'same'}")


def _pair(value):
    return tuple(value) if isinstance(value, (tuple, list)) else (value, value)


class Conv2d(Module):
    """torch.nn.Conv2d: weight (out_channels, in_channels / groups, kH, kW) and bias
    (out_channels) from U(-1/sqrt(fan_in), 1/sqrt(fan_in)), fan_in = in_channels / groups *
    kH * kW. padding may be numbers or "same" / "valid"; padding_mode "zeros" only."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode="zeros", device=None, dtype=None):
        super().__init__()
        _check_arguments(in_channels, out_channels, groups, padding)
        if padding_mode != "zeros":
            raise _C.Error(f"[tide.nn.Conv2d] padding_mode={padding_mode!r} is not supported "
                           "by tide; use padding_mode='zeros'")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride = _pair(kernel_size), _pair(stride)
        self.padding = padding if isinstance(padding, str) else _pair(padding)
        self.dilation, self.groups = _pair(dilation), groups
        self.padding_mode = padding_mode
        set_drawn_parameters(self, lambda: _C._conv2d_init(
            in_channels, out_channels, list(self.kernel_size), groups, bool(bias)), device, dtype)

    def reset_parameters(self):
        redraw_parameters(self, lambda: _C._conv2d_init(
            self.in_channels, self.out_channels, list(self.kernel_size), self.groups,
            self.bias is not None))

    def forward(self, input):
        return F.conv2d(input, self.weight, self.bias, self.stride, self.padding, self.dilation,
                        self.groups)

    def extra_repr(self):
        s = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
             f"stride={self.stride}")
        if self.padding != (0, 0):
            s += f", padding={self.padding!r}" if isinstance(self.padding, str) \
                else f", padding={self.padding}"
        if self.dilation != (1, 1):
            s += f", dilation={self.dilation}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        return s


class Conv1d(Module):
    """torch.nn.Conv1d: weight (out_channels, in_channels / groups, k) and bias (out_channels)
    from U(-1/sqrt(fan_in), 1/sqrt(fan_in)), fan_in = in_channels / groups * k. padding may
    be a number, "same" or "valid"; padding_mode "zeros", "reflect", "replicate" or
    "circular" (F.pad, then the convolution without padding, as torch)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode="zeros", device=None, dtype=None):
        super().__init__()
        _check_arguments(in_channels, out_channels, groups, padding)
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            raise ValueError("padding_mode must be one of ['zeros', 'reflect', 'replicate', "
                             f"'circular'], but got padding_mode='{padding_mode}'")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride = _single(kernel_size), _single(stride)
        self.padding = padding if isinstance(padding, str) else _single(padding)
        self.dilation, self.groups = _single(dilation), groups
        self.padding_mode = padding_mode
        set_drawn_parameters(self, lambda: self._draw(bool(bias)), device, dtype)

    def _draw(self, bias):
        weight, bias = _C._conv2d_init(self.in_channels, self.out_channels,
                                       [1, self.kernel_size[0]], self.groups, bias)
        return weight.squeeze(2), bias

    def reset_parameters(self):
        redraw_parameters(self, lambda: self._draw(self.bias is not None))

    def _padding_amounts(self):
        """(left, right) of the input, for padding_mode other than zeros."""
        if self.padding == "valid":
            return (0, 0)
        if self.padding == "same":
            total = self.dilation[0] * (self.kernel_size[0] - 1)
            return (total // 2, total - total // 2)
        return (self.padding[0], self.padding[0])

    def forward(self, input):
        if self.padding_mode != "zeros":
            return F.conv1d(F.pad(input, self._padding_amounts(), mode=self.padding_mode),
                            self.weight, self.bias, self.stride, 0, self.dilation, self.groups)
        return F.conv1d(input, self.weight, self.bias, self.stride, self.padding, self.dilation,
                        self.groups)

    def extra_repr(self):
        s = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
             f"stride={self.stride}")
        if self.padding != (0,):
            s += f", padding={self.padding!r}" if isinstance(self.padding, str) \
                else f", padding={self.padding}"
        if self.dilation != (1,):
            s += f", dilation={self.dilation}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


def _single(value):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)
