"""nn.Linear and nn.Identity. Linear draws its parameters with the C++ tide::nn::Linear
(_drawn_parameters.py)."""

from ... import _C
from .. import functional as F
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
