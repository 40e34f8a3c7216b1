"""scatter and gather: split inputs along a dim onto devices, and bring outputs back onto one
device, recursing into tuples, lists and dicts; other objects are passed to every replica."""

import warnings

from ... import _C
from ..._devices import device_arg


def scatter(inputs, target_gpus, dim=0):
    """A list with one entry per device that received a piece of every tensor in `inputs`
    (fewer entries than devices when a tensor has fewer rows than there are devices)."""
    devices = [device_arg(d) for d in target_gpus]

    def scatter_map(obj):
        if isinstance(obj, _C.Tensor):
            pieces = obj.chunk(len(devices), dim)
            return [p.to(d, non_blocking=True) for p, d in zip(pieces, devices)]
        if isinstance(obj, tuple) and len(obj) > 0:
            return list(zip(*map(scatter_map, obj)))
        if isinstance(obj, list) and len(obj) > 0:
            return [list(i) for i in zip(*map(scatter_map, obj))]
        if isinstance(obj, dict) and len(obj) > 0:
            return [type(obj)(i) for i in zip(*map(scatter_map, obj.items()))]
        return [obj for _ in devices]

    return scatter_map(inputs)


def scatter_kwargs(inputs, kwargs, target_gpus, dim=0):
    inputs = scatter(inputs, target_gpus, dim) if inputs else []
    kwargs = scatter(kwargs, target_gpus, dim) if kwargs else []
    if len(inputs) < len(kwargs):
        inputs.extend(() for _ in range(len(kwargs) - len(inputs)))
    elif len(kwargs) < len(inputs):
        kwargs.extend({} for _ in range(len(inputs) - len(kwargs)))
    return tuple(inputs), tuple(kwargs)


def gather(outputs, target_device, dim=0):
    """The replicas' outputs concatenated along dim on target_device (scalars become a
    vector, with torch's warning)."""
    target = device_arg(target_device)

    def gather_map(outs):
        out = outs[0]
        if isinstance(out, _C.Tensor):
            if all(o.dim() == 0 for o in outs) and dim == 0:
                warnings.warn("Was asked to gather along dimension 0, but all input tensors were "
                              "scalars; will instead unsqueeze and return a vector.")
                outs = [o.view(1) for o in outs]
            return _C.cat([o.to(target, non_blocking=True) for o in outs], dim)
        if out is None:
            return None
        if isinstance(out, dict):
            if not all(len(out) == len(d) for d in outs):
                raise ValueError("All dicts must have the same number of keys")
            return type(out)((k, gather_map([d[k] for d in outs])) for k in out)
        return type(out)(map(gather_map, zip(*outs)))

    return gather_map(outputs)
