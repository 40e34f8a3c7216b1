"""tide.backends.cudnn, as torch.backends.cudnn: `benchmark`, `deterministic` and `allow_tf32`
are module attributes that read and set the C++ switches (include/tide/backends/cudnn.h), so
`torch.backends.cudnn.benchmark = True` works unchanged. They steer convolutions on real GPUs;
cpu and simulated GPUs ignore them. `enabled` is kept for torch code that sets it; tide always
uses cuDNN for convolutions on real GPUs when it was built with it."""

import sys
import types

from .. import _C


def is_available():
    """Whether this build of tide has cuDNN."""
    return _C._cudnn_is_available()


def version():
    """The cuDNN version tide was built with (e.g. 91900), or None without cuDNN."""
    v = _C._cudnn_version()
    return v if v >= 0 else None


def _switch(name):
    return property(lambda self: _C._cudnn_get(name),
                    lambda self, value: _C._cudnn_set(name, bool(value)))


class _CudnnModule(types.ModuleType):
    benchmark = _switch("benchmark")
    deterministic = _switch("deterministic")
    allow_tf32 = _switch("allow_tf32")
    enabled = True


sys.modules[__name__].__class__ = _CudnnModule
