"""nn.Linear, nn.Bilinear and nn.Identity. Linear draws its parameters with the C++
tide::nn::Linear (_drawn_parameters.py); Bilinear from U(-1/sqrt(in1_features), ...) as
torch's reset_parameters."""

import math

from ... import _C
from ..._factories import empty
from ..._grad_mode import no_grad
from .. import functional as F
from ..parameter import Parameter
from ._drawn_parameters import redraw_parameters, set_drawn_parameters
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
        set_drawn_parameters(self, lambda: _C._linear_init(in_features, out_features,
                                                            bool(bias)), device, dtype)

    def reset_parameters(self):
        """Draws weight and bias again, as the constructor does."""
        redraw_parameters(self, lambda: _C._linear_init(self.in_features, self.out_features,
                                                        self.bias is not None))

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class Bilinear(Module):
    """y = x1^T A x2 + b: weight (out_features, in1_features, in2_features), bias
    (out_features)."""

    def __init__(self, in1_features, in2_features, out_features, bias=True, device=None,
                 dtype=None):
        super().__init__()
        self.in1_features, self.in2_features = in1_features, in2_features
        self.out_features = out_features
        kw = {"device": device, "dtype": dtype}
        self.weight = Parameter(empty((out_features, in1_features, in2_features), **kw))
        if bias:
            self.bias = Parameter(empty(out_features, **kw))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1 / math.sqrt(self.weight.size(1))
        with no_grad():
            self.weight.uniform_(-bound, bound)
            if self.bias is not None:
                self.bias.uniform_(-bound, bound)

    def forward(self, input1, input2):
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self):
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")
