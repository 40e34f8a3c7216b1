"""How tensors cross process boundaries: registered with multiprocessing's ForkingPickler, so
a tensor put on a Queue, passed to a Process or returned from a Pool worker arrives as a tensor
over the same memory (torch.multiprocessing.reductions).

A cpu tensor is moved to shared memory when it is sent (Tensor.share_memory_(), as torch does)
and the receiver maps the same pages: writes on either side are seen by the other, nothing is
copied. The segment travels as a file descriptor (torch's file_descriptor strategy; Note
[Shared memory segments] in src/memory/shared_memory.h). A tensor on a cuda device, real or
simulated, is refused: tide has no CUDA IPC."""

import atexit
import multiprocessing.reduction

from .. import _C


def _rebuild_tensor(fd, nbytes, dtype, size, stride, offset, requires_grad, is_parameter):
    storage = _C._map_shared_segment(fd.detach(), nbytes, dtype)
    t = _C._tensor_over_storage(storage, list(size), list(stride), offset)
    if is_parameter:
        from ..nn import Parameter
        return Parameter(t, requires_grad)
    return t.requires_grad_(requires_grad) if requires_grad else t


def reduce_tensor(tensor):
    if tensor.device.type != "cpu":
        raise RuntimeError(
            f"[tide.multiprocessing] cannot send a tensor on {tensor.device} to another process: "
            "tide shares only cpu tensors between processes (it has no CUDA IPC). Send "
            "tensor.cpu() and move it to the device in the receiving process, or give each "
            "process its own device and exchange data with tide.distributed")
    if tensor.requires_grad and not tensor.is_leaf:
        raise RuntimeError(
            "Cowardly refusing to serialize non-leaf tensor which requires_grad, since autograd "
            "does not support crossing process boundaries.  If you just want to transfer the "
            "data, call detach() on the tensor before serializing (e.g., putting it on the "
            "queue).")
    _C._share_memory_(tensor)
    fd, nbytes = _C._shared_segment(tensor)
    from ..nn import Parameter
    return (_rebuild_tensor,
            (multiprocessing.reduction.DupFd(fd), nbytes, tensor.dtype, tuple(tensor.shape),
             tuple(tensor.stride()), tensor.storage_offset(), tensor.requires_grad,
             isinstance(tensor, Parameter)))


def share_memory_(self):
    """Moves the storage to shared memory, where other processes can map it (a no-op when it is
    there already, and for tensors on a cuda device, as torch). Returns self."""
    if self.device.type == "cpu":
        _C._share_memory_(self)
    return self


def is_shared(self):
    """Whether the storage is in shared memory. False on a cuda device: tide cannot share
    device memory between processes (torch answers True there)."""
    return self.device.type == "cpu" and _C._shared_segment(self) is not None


def _unregister(types):
    # multiprocessing's registry would keep tide's classes alive past the extension module's
    # teardown, which nanobind then reports as leaked types and functions.
    for t in types:
        multiprocessing.reduction.ForkingPickler._extra_reducers.pop(t, None)


def init_reductions():
    from ..nn import Parameter
    types = (_C.Tensor, Parameter)
    for t in types:
        multiprocessing.reduction.ForkingPickler.register(t, reduce_tensor)
    atexit.register(_unregister, types)
    _C.Tensor.share_memory_ = share_memory_
    _C.Tensor.is_shared = is_shared
