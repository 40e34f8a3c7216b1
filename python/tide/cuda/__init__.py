"""tide.cuda: devices, the current device, streams, events and the caching allocator, as
torch.cuda. Device arguments take None (the current device), an int, a string or a
tide.device; calls that wait for a device release the GIL."""

import json

from .. import _C
from .._C import OutOfMemoryError
from .. import _legacy

_c = _C._cuda

is_available = _c.is_available
device_count = _c.device_count
current_device = _c.current_device
set_device = _c.set_device
synchronize = _c.synchronize
get_device_name = _c.get_device_name
get_device_properties = _c.get_device_properties
can_device_access_peer = _c.can_device_access_peer
Stream = _c.Stream
Event = _c.Event
current_stream = _c.current_stream
default_stream = _c.default_stream
set_stream = _c.set_stream

memory_allocated = _c.memory_allocated
max_memory_allocated = _c.max_memory_allocated
memory_reserved = _c.memory_reserved
max_memory_reserved = _c.max_memory_reserved
memory_cached = _c.memory_cached
max_memory_cached = _c.max_memory_cached
empty_cache = _c.empty_cache
reset_peak_memory_stats = _c.reset_peak_memory_stats
reset_max_memory_allocated = _c.reset_peak_memory_stats
set_per_process_memory_fraction = _c.set_per_process_memory_fraction
memory_stats = _c.memory_stats
memory_summary = _c.memory_summary
mem_get_info = _c.mem_get_info
host_memory_stats = _c.host_memory_stats
enable_sanitizer = _c.enable_sanitizer
disable_sanitizer = _c.disable_sanitizer


def memory_snapshot():
    """The allocator's segments and, with history recording on, its trace (a dict, as torch's
    torch.cuda.memory._snapshot())."""
    return json.loads(_c.memory_snapshot())


def _record_memory_history(enabled="all", max_entries=100000, **kwargs):
    _c.record_memory_history(bool(enabled), max_entries)


def _dump_snapshot(filename="dump_snapshot.json"):
    _c.dump_snapshot(filename)


def manual_seed(seed):
    """Seeds every device's generator (tide has one seed for all devices, as manual_seed)."""
    _C.manual_seed(seed)


manual_seed_all = manual_seed


def init():
    """Starts the cuda backend now rather than at the first cuda call."""
    _c.device_count()


def is_initialized():
    return True


class device:
    """Context manager that makes `device` the current cuda device (torch.cuda.device);
    None or -1 changes nothing."""

    def __init__(self, device):
        self.device = device
        self._guard = _c._DeviceGuard()

    def __enter__(self):
        self._guard.enter(self.device)
        return self

    def __exit__(self, *exc):
        self._guard.exit()
        return False


class device_of(device):
    """The current device becomes the tensor's (nothing changes for a cpu tensor)."""

    def __init__(self, obj):
        super().__init__(obj.get_device() if obj.is_cuda else -1)


class StreamContext:
    """Context manager that makes `stream` current on its device (torch.cuda.stream); the
    stream's device is current inside too. None changes nothing."""

    def __init__(self, stream):
        self.stream = stream
        self._guard = _c._StreamGuard()

    def __enter__(self):
        if self.stream is not None:
            self._guard.enter(self.stream)
        return self.stream

    def __exit__(self, *exc):
        self._guard.exit()
        return False


def stream(stream):
    """`with tide.cuda.stream(s):` makes s the current stream inside the block."""
    return StreamContext(stream)


globals().update(_legacy.CUDA_TYPES)
