"""What nn.Linear and nn.Conv2d share: their weight and bias are drawn by the C++ module
(python/src/bind_nn.cpp: _linear_init, _conv2d_init), the same draws in the same order, so a
Python and a C++ model built after the same manual_seed start from the same weights."""

from ..._grad_mode import no_grad
from ..parameter import Parameter


def set_drawn_parameters(module, draw, device=None, dtype=None):
    """Registers module.weight and module.bias (None when draw gives no bias) from
    draw() -> (weight, bias or None), converted to device/dtype when given."""
    weight, bias = draw()
    if device is not None or dtype is not None:
        weight = weight.to(device=device, dtype=dtype)
        bias = bias.to(device=device, dtype=dtype) if bias is not None else None
    module.weight = Parameter(weight)
    if bias is not None:
        module.bias = Parameter(bias)
    else:
        module.register_parameter("bias", None)


def redraw_parameters(module, draw):
    """reset_parameters(): draws again and copies into the existing parameters in place (so
    optimizers holding them see the new values)."""
    weight, bias = draw()
    with no_grad():
        module.weight.copy_(weight)
        if bias is not None:
            module.bias.copy_(bias)
