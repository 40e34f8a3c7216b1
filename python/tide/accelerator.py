"""tide.accelerator: torch.accelerator (torch 2.6+) over tide.cuda, the one accelerator tide
has: real GPUs, or simulated ones (TIDE_SIM_DEVICES). Device-agnostic code written for
torch.accelerator runs unchanged."""

from . import _C
from . import cuda as _cuda
from ._devices import device_arg as _device_arg

__all__ = ["current_accelerator", "current_device_index", "device_count", "is_available",
           "set_device_index", "synchronize"]


def device_count():
    """How many accelerator devices there are (0 without any)."""
    return _cuda.device_count() if _cuda.is_available() else 0


def is_available():
    """Whether an accelerator device can be used."""
    return device_count() > 0


def current_accelerator(check_available=False):
    """tide.device('cuda') when GPUs (real or simulated) are there, else None. torch answers
    with the accelerator it was built for, even without devices, unless check_available;
    tide is built for cuda alone and answers None when it has no device, as
    torch.accelerator.current_accelerator(check_available=True) does."""
    return _C.device("cuda") if is_available() else None


def current_device_index():
    """This thread's current accelerator device index (tide.cuda.current_device())."""
    return _cuda.current_device()


def set_device_index(device):
    """Makes `device` (an index, 'cuda:N' or tide.device('cuda', N)) this thread's current
    accelerator device; a negative index is a no-op, as torch's."""
    if isinstance(device, int) and not isinstance(device, bool) and device < 0:
        return
    d = _device_arg(device, "tide.accelerator.set_device_index")
    if d.type != "cuda":
        raise ValueError(f"{d.type} doesn't match the current accelerator cuda.")
    _cuda.set_device(d if d.index is not None else _cuda.current_device())


set_device_idx = set_device_index  # torch 2.6's first name


def synchronize(device=None):
    """Waits for all work on every stream of `device` (the current device when None)."""
    if device is not None:
        d = _device_arg(device, "tide.accelerator.synchronize")
        if d.type != "cuda":
            raise ValueError(f"{d.type} doesn't match the current accelerator cuda.")
        device = d
    _cuda.synchronize(device)
