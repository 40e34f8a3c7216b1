"""torch's device arguments: None, an int (a cuda index), a string or a tide.device."""

from . import _C


def device_arg(device):
    """The tide.device for a device argument (None stays None)."""
    if device is None or isinstance(device, _C.device):
        return device
    if isinstance(device, int) and not isinstance(device, bool):
        return _C.device("cuda", device)
    if isinstance(device, str):
        return _C.device(device)
    raise TypeError(
        f"expected a device (a tide.device, a string such as 'cuda:1', or an int), "
        f"found {type(device).__name__}")
