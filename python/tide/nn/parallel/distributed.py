"""nn.parallel.DistributedDataParallel: one process per device (mpirun), each with a full
replica of the module and its share of the batch; gradients are averaged over the processes
during backward (torch.nn.parallel.DistributedDataParallel).

The engine is the C++ one, nn::DistributedDataParallel's (Note [DistributedDataParallel] in
include/tide/nn/distributed_data_parallel.h), bound over this module's parameter list
(python/src/bind_ddp.cpp): the construction check and broadcast from rank 0, the buckets in
reverse parameter order, the post-accumulate-grad hooks that all-reduce each full bucket while
backward goes on, and the end-of-backward callback that writes the averages into every
``.grad`` all run in C++, without the GIL. This class keeps torch's arguments and forward's
order: arm the reducer, broadcast buffers, run the module, search unused parameters.
"""

from contextlib import contextmanager

from ... import _C
from ..._devices import device_arg
from ..modules.module import Module

_d = _C._distributed


def _device_index(device):
    """torch's _get_device_index for device_ids and output_device: a cuda device with an index."""
    d = device_arg(device, "DistributedDataParallel: device_ids and output_device")
    if d.type == "cuda" and d.index is not None:
        return d.index
    raise TypeError(f"DistributedDataParallel: expected device_ids and output_device to hold "
                    f"cuda device indices, tide.device('cuda:N') or 'cuda:N' strings, found "
                    f"{device!r}")


def _to_device(obj, device):
    """The tensors in obj (recursing into tuples, lists and dicts) copied to device."""
    if isinstance(obj, _C.Tensor):
        return obj.to(device, non_blocking=True)
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):  # a namedtuple
        return type(obj)(*(_to_device(o, device) for o in obj))
    if isinstance(obj, (tuple, list)):
        return type(obj)(_to_device(o, device) for o in obj)
    if isinstance(obj, dict):
        return type(obj)((k, _to_device(v, device)) for k, v in obj.items())
    return obj


def _find_tensors(obj):
    """Every tensor in a forward's output (torch's _find_tensors)."""
    if isinstance(obj, _C.Tensor):
        return [obj]
    if isinstance(obj, (tuple, list)):
        return [t for o in obj for t in _find_tensors(o)]
    if isinstance(obj, dict):
        return [t for o in obj.values() for t in _find_tensors(o)]
    return []


class DistributedDataParallel(Module):
    """DistributedDataParallel(module, device_ids=None, output_device=None, dim=0,
    broadcast_buffers=True, init_sync=True, process_group=None, bucket_cap_mb=None (25),
    find_unused_parameters=False, ...): wraps module (as the child ``module``) after
    tide.distributed.init_process_group(); collective, every rank constructs it at the same
    point. The module must stay on its one device (cpu, or the rank's GPU, e.g.
    cuda:(local_rank % device_count)) and keep its parameters while the wrapper lives; with
    device_ids=None (the default) DDP uses the module's device, as torch."""

    def __init__(self, module, device_ids=None, output_device=None, dim=0,
                 broadcast_buffers=True, init_sync=True, process_group=None, bucket_cap_mb=None,
                 find_unused_parameters=False, check_reduction=False,
                 gradient_as_bucket_view=False, static_graph=False):
        super().__init__()
        if not isinstance(module, Module):
            raise TypeError(f"DistributedDataParallel: expected a tide.nn.Module, found "
                            f"{type(module).__name__}")
        if process_group is not None:
            raise _C.Error("[DistributedDataParallel] tide has one process group, the default "
                           "one; pass process_group=None")
        for name, on in (("gradient_as_bucket_view", gradient_as_bucket_view),
                         ("static_graph", static_graph)):
            if on:
                raise _C.Error(f"[DistributedDataParallel] tide does not implement {name}=True; "
                               f"leave it False")
        _d.get_world_size()  # raises before init_process_group, before any other check

        named = list(module.named_parameters())
        trained = [(name, p) for name, p in named if p.requires_grad]
        if not trained:
            raise RuntimeError("DistributedDataParallel is not needed when a module doesn't "
                               "have any parameter that requires a gradient.")
        devices = sorted({str(p.device) for _, p in named})
        if len({p.device.type for _, p in named}) != 1:
            raise ValueError(f"DistributedDataParallel's input module must be on the same type "
                             f"of devices, but input module parameters locate in "
                             f"{set(devices)}.")
        device = trained[0][1].device
        if device_ids is not None and len(device_ids) == 0:
            device_ids = None
        if (device_ids is None or device.type == "cpu") and \
                (device_ids is not None or output_device is not None):
            raise ValueError(f"DistributedDataParallel device_ids and output_device arguments "
                             f"only work with single-device/multiple-device GPU modules or CPU "
                             f"modules, but got device_ids {device_ids}, output_device "
                             f"{output_device}, and module parameters {set(devices)}.")
        if len(devices) != 1:
            raise _C.Error(f"[DistributedDataParallel] expected the module's parameters on one "
                           f"device, found them on {', '.join(devices)}; DDP runs one device "
                           f"per process: move the module to the process's device (its GPU, or "
                           f"cpu) first")
        if device_ids is not None:
            device_ids = [_device_index(d) for d in device_ids]
            if device_ids != [device.index]:
                raise _C.Error(f"[DistributedDataParallel] device_ids {device_ids} must name the "
                               f"one cuda device that holds the module, {device}; pass "
                               f"device_ids=[i] for a module on cuda:i, or no device_ids (the "
                               f"module's device)")
            output_device = device_ids[0] if output_device is None \
                else _device_index(output_device)

        self.module = module
        self.device = device
        self.device_ids = device_ids
        self.output_device = output_device
        self.dim = dim
        self.broadcast_buffers = broadcast_buffers
        self.find_unused_parameters = find_unused_parameters
        self.bucket_bytes_cap = int((25 if bucket_cap_mb is None else bucket_cap_mb) * 1024 * 1024)
        self.require_backward_grad_sync = True  # False under no_sync()
        self.require_forward_param_sync = True  # the last forward was a synced one

        params = [p for _, p in named]
        _d._verify_same_model_across_ranks(params, device)
        if init_sync:
            _d._broadcast_coalesced(params + list(module.buffers()), 0)
        # Named as torch's Reducer names them in its errors: the module's own names.
        self.reducer = _d._Reducer(trained, self.bucket_bytes_cap, find_unused_parameters)

    def forward(self, *inputs, **kwargs):
        # torch's _pre_forward / _post_forward, in the same order.
        grad_sync = _C.is_grad_enabled() and self.require_backward_grad_sync
        if grad_sync:
            self.reducer.prepare_for_forward()
        if self.broadcast_buffers and self.require_forward_param_sync:
            buffers = list(self.module.buffers())
            if buffers:
                _d._broadcast_coalesced(buffers, 0)
        if self.device_ids is not None:
            inputs = _to_device(inputs, self.device)
            kwargs = _to_device(kwargs, self.device)
        output = self.module(*inputs, **kwargs)
        self.require_forward_param_sync = grad_sync
        if grad_sync:
            self.reducer.prepare_for_backward(
                _find_tensors(output) if self.find_unused_parameters else [])
        return output

    @contextmanager
    def no_sync(self):
        """Within it, backward accumulates gradients locally without communicating (gradient
        accumulation); the first synced backward after it reduces what was accumulated."""
        previous = self.require_backward_grad_sync
        self.require_backward_grad_sync = False
        try:
            yield
        finally:
            self.require_backward_grad_sync = previous
