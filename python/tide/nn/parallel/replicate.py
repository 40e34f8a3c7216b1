"""replicate: copies of a module on other devices whose parameters are differentiable copies of
the original's (``param.to(device)`` recorded by autograd), so the gradients of a replica's
forward flow back into the original parameters, as torch.nn.parallel.replicate."""

from ..._devices import device_arg
from ..._grad_mode import no_grad


def _copies(tensors, device, differentiable):
    out = {}
    for t in tensors:
        if differentiable and t.requires_grad:
            out[id(t)] = t.to(device)
        else:
            with no_grad():
                out[id(t)] = t.to(device)
    return out


def replicate(network, devices, detach=False):
    """One replica of `network` per device (a tide.device, an int or a string). Submodules shared
    inside the network stay shared inside each replica."""
    modules = list(network.modules())
    position = {id(m): i for i, m in enumerate(modules)}
    params = list(network.parameters())
    buffers = list(network.buffers())
    replicas = []
    for device in devices:
        device = device_arg(device, "replicate: devices")
        param_copies = _copies(params, device, not detach)
        buffer_copies = _copies(buffers, device, False)
        copies = [m._replicate_for_data_parallel() for m in modules]
        for module, replica in zip(modules, copies):
            for key, child in module._modules.items():
                replica._modules[key] = None if child is None else copies[position[id(child)]]
            for key, param in module._parameters.items():
                # A plain attribute, as torch's replicas: a non-leaf copy is no Parameter.
                replica.__dict__[key] = None if param is None else param_copies[id(param)]
            for key, buf in module._buffers.items():
                replica._buffers[key] = None if buf is None else buffer_copies[id(buf)]
        replicas.append(copies[0])
    return replicas
