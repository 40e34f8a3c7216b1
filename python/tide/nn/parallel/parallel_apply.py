"""parallel_apply: runs each module on its inputs in its own thread, with its device current
(and the caller's grad mode and current stream there), as torch.nn.parallel.parallel_apply.
The threads overlap because tide releases the GIL in every call that waits for a device
(Note [The GIL] in python/src/bind_tensor.cpp); ops that only enqueue work keep it briefly."""

import threading

from ... import _C
from ..._devices import cuda_index
from ..._grad_mode import set_grad_enabled
from ... import cuda


def parallel_apply(modules, inputs, kwargs_tup=None, devices=None):
    """[modules[i](*inputs[i], **kwargs_tup[i]) for i], each on devices[i], in parallel."""
    if len(modules) != len(inputs):
        raise ValueError(f"parallel_apply: {len(modules)} modules but {len(inputs)} inputs; "
                         "pass one input per module")
    kwargs_tup = kwargs_tup or tuple({} for _ in modules)
    devices = [cuda_index(d, "parallel_apply: devices") for d in devices]
    grad_enabled = _C.is_grad_enabled()
    streams = [cuda.current_stream(d) for d in devices]
    results = [None] * len(modules)

    def worker(i):
        try:
            with set_grad_enabled(grad_enabled), cuda.device(devices[i]), \
                    cuda.stream(streams[i]):
                args = inputs[i] if isinstance(inputs[i], (list, tuple)) else (inputs[i],)
                results[i] = modules[i](*args, **kwargs_tup[i])
        except BaseException as e:  # re-raised on the caller's thread, naming the replica
            results[i] = e

    if len(modules) == 1:
        worker(0)
    else:
        threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(modules))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    for i, r in enumerate(results):
        if isinstance(r, BaseException):
            message = f"Caught {type(r).__name__} in replica {i} on device {devices[i]}.\n{r}"
            try:
                raised = type(r)(message)
            except Exception:
                raised = _C.Error(message)
            raise raised from r
    return results
