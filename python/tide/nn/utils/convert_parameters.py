"""nn.utils.parameters_to_vector and vector_to_parameters (torch 1.13): all parameters as one
flat vector, and back (each parameter then views the vector's storage, as torch)."""

from ... import _C
from ..modules.module import _typename


def _check_param_device(param, old_param_device):
    """All parameters on one device: -1 for the cpu, the index of a cuda device otherwise."""
    if old_param_device is None:
        return param.get_device() if param.is_cuda else -1
    if param.is_cuda:
        warn = param.get_device() != old_param_device
    else:
        warn = old_param_device != -1
    if warn:
        raise TypeError("Found two parameters on different devices, this is currently not "
                        "supported.")
    return old_param_device


def parameters_to_vector(parameters):
    param_device = None
    vec = []
    for param in parameters:
        param_device = _check_param_device(param, param_device)
        vec.append(param.view(-1))
    return _C.cat(vec)


def vector_to_parameters(vec, parameters):
    if not isinstance(vec, _C.Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {_typename(vec)}")
    param_device = None
    pointer = 0
    for param in parameters:
        param_device = _check_param_device(param, param_device)
        num_param = param.numel()
        param.data = vec[pointer:pointer + num_param].view_as(param).data
        pointer += num_param
