"""nn.Conv2d. Its parameters are drawn by the C++ tide::nn::Conv2d (_drawn_parameters.py)."""

from ... import _C
from .. import functional as F
from ._drawn_parameters import redraw_parameters, set_drawn_parameters
from .module import Module


def _pair(value):
    return tuple(value) if isinstance(value, (tuple, list)) else (value, value)


class Conv2d(Module):
    """torch.nn.Conv2d: weight (out_channels, in_channels / groups, kH, kW) and bias
    (out_channels) from U(-1/sqrt(fan_in), 1/sqrt(fan_in)), fan_in = in_channels / groups *
    kH * kW. padding may be numbers or "same" / "valid"; padding_mode "zeros" only."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode="zeros", device=None, dtype=None):
        super().__init__()
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if padding_mode != "zeros":
            raise _C.Error(f"[tide.nn.Conv2d] padding_mode={padding_mode!r} is not supported "
                           "by tide; use padding_mode='zeros'")
        if isinstance(padding, str) and padding not in ("same", "valid"):
            raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                             "{'valid', 'same'}")
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
