"""The padding layers (torch.nn's ConstantPad1d/2d/3d, ZeroPad2d, ReflectionPad1d/2d/3d and
ReplicationPad1d/2d/3d): F.pad with the module's amounts, one int for every side or a tuple
(left, right, top, bottom, front, back)."""

from .. import functional as F
from .module import Module


class _PadNd(Module):
    _dims = 1
    _mode = "constant"

    def __init__(self, padding, value=0.0):
        super().__init__()
        self.padding = (padding,) * (2 * self._dims) if isinstance(padding, int) \
            else tuple(padding)
        self.value = value

    def forward(self, input):
        if self._mode == "constant":
            return F.pad(input, self.padding, "constant", self.value)
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self):
        if self._mode == "constant":
            return f"padding={self.padding}, value={self.value}"
        return f"{self.padding}"


class ConstantPad1d(_PadNd):
    def __init__(self, padding, value):
        super().__init__(padding, value)


class ConstantPad2d(ConstantPad1d):
    _dims = 2


class ConstantPad3d(ConstantPad1d):
    _dims = 3


class ZeroPad2d(_PadNd):
    _dims = 2

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ReflectionPad1d(_PadNd):
    _mode = "reflect"

    def __init__(self, padding):
        super().__init__(padding)


class ReflectionPad2d(ReflectionPad1d):
    _dims = 2


class ReflectionPad3d(ReflectionPad1d):
    _dims = 3


class ReplicationPad1d(ReflectionPad1d):
    _mode = "replicate"


class ReplicationPad2d(ReplicationPad1d):
    _dims = 2


class ReplicationPad3d(ReplicationPad1d):
    _dims = 3
