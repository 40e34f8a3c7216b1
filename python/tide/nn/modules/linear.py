"""nn.Linear and nn.Identity. Linear draws its parameters with the C++ tide::nn::Linear
(python/src/bind_nn.cpp): the same random draws in the same order, so a Python model and a C++
model built after the same manual_seed start from the same weights."""

from ... import _C
from ..._grad_mode import no_grad
from .. import functional as F
from ..parameter import Parameter
from .module import Module


class Identity(Module):
    """Returns its input; takes and ignores any arguments (torch.nn.Identity)."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    """y = x W^T + b, with weight (out_features, in_features) and bias (out_features) drawn
    from U(-1/sqrt(in_features), 1/sqrt(in_features)) as torch."""

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        for name, value in (("in_features", in_features), ("out_features", out_features)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"Linear(): argument '{name}' must be int, not "
                                f"{type(value).__name__}")
        self.in_features = in_features
        self.out_features = out_features
        weight, b = _C._linear_init(in_features, out_features, bool(bias))
        if device is not None or dtype is not None:
            weight = weight.to(device=device, dtype=dtype)
            b = b.to(device=device, dtype=dtype) if b is not None else None
        self.weight = Parameter(weight)
        if b is not None:
            self.bias = Parameter(b)
        else:
            self.register_parameter("bias", None)

    def reset_parameters(self):
        """Draws weight and bias again, as the constructor does."""
        weight, b = _C._linear_init(self.in_features, self.out_features, self.bias is not None)
        with no_grad():
            self.weight.copy_(weight)
            if b is not None:
                self.bias.copy_(b)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")
