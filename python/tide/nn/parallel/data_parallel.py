"""nn.DataParallel: one process, several GPUs (torch's design). Each forward scatters the input
along dim over device_ids, runs the module on device_ids[0] and differentiable replicas on the
other devices in parallel threads, and gathers the outputs on output_device; backward brings
the gradients into the module's own parameters on device_ids[0]."""

from ... import _C
from ... import cuda
from ..._devices import cuda_index
from ..modules.module import Module
from .parallel_apply import parallel_apply
from .replicate import replicate
from .scatter_gather import gather, scatter_kwargs


def _index(device, what):
    return cuda_index(device, f"DataParallel: {what}")


class DataParallel(Module):
    """DataParallel(module, device_ids=None (all devices), output_device=None (device_ids[0]),
    dim=0). Without a cuda device, forward just calls the module."""

    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        if not isinstance(module, Module):
            raise TypeError(f"DataParallel: expected a tide.nn.Module, found "
                            f"{type(module).__name__}")
        self.module = module
        self.dim = dim
        count = cuda.device_count() if cuda.is_available() else 0
        if count == 0 and not device_ids:
            self.device_ids = []
            return
        ids = list(range(count)) if device_ids is None else \
            [_index(d, "device_ids") for d in device_ids]
        for d in ids:
            if not 0 <= d < count:
                raise _C.Error(f"[DataParallel] device_ids {ids} holds {d}, which is not a cuda "
                               f"device: this process has {count} cuda device(s); pass indices "
                               "of existing devices, or no device_ids for all of them")
        if len(set(ids)) != len(ids):
            raise _C.Error(f"[DataParallel] device_ids {ids} lists a device more than once; each "
                           "device runs one replica, so list each device once")
        self.device_ids = ids
        self.output_device = ids[0] if output_device is None else \
            _index(output_device, "output_device")
        self.src_device_obj = _C.device("cuda", ids[0])
        if len(ids) == 1:
            module.to(self.src_device_obj)

    def forward(self, *inputs, **kwargs):
        if not self.device_ids:
            return self.module(*inputs, **kwargs)
        for name, t in self.module.named_parameters():
            self._check_on_source(name, t)
        for name, t in self.module.named_buffers():
            self._check_on_source(name, t)
        inputs, kwargs = scatter_kwargs(inputs, kwargs, self.device_ids, self.dim)
        if not inputs and not kwargs:
            inputs, kwargs = ((),), ({},)
        if len(self.device_ids) == 1:
            with cuda.device(self.device_ids[0]):
                return self.module(*inputs[0], **kwargs[0])
        devices = self.device_ids[:len(inputs)]
        # The module itself runs on device_ids[0]; replicas elsewhere (as the C++ DataParallel).
        replicas = [self.module] + replicate(self.module, devices[1:], not _C.is_grad_enabled())
        outputs = parallel_apply(replicas, inputs, kwargs, devices)
        return gather(outputs, self.output_device, self.dim)

    def _check_on_source(self, name, t):
        if t.device != self.src_device_obj:
            raise _C.Error(f"[DataParallel] module must have its parameters and buffers on device "
                           f"{self.src_device_obj} (device_ids[0]) but found one of them on "
                           f"device: {t.device} (\"{name}\"); move the module there first "
                           f"(module.to(\"{self.src_device_obj}\"))")
