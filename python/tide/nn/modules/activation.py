"""The activation modules (torch.nn's names and arguments). PReLU is the one with a parameter.
As relu, inplace=True is accepted and computes out of place (the same values)."""

from .. import functional as F
from ..._factories import full
from ..parameter import Parameter
from .module import Module


class ReLU(Module):
    """max(x, 0) elementwise (inplace=True is accepted: see functional.relu)."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class Softmax(Module):
    """exp(x) / sum(exp(x)) along dim."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class Softmax2d(Module):
    """Softmax over the channels at each spatial position of a (C, H, W) or (N, C, H, W)
    input (torch.nn.Softmax2d)."""

    def forward(self, input):
        assert input.dim() == 4 or input.dim() == 3, \
            "Softmax2d requires a 3D or 4D tensor as input"
        return F.softmax(input, -3, _stacklevel=5)


class LogSoftmax(Module):
    """log(softmax(x)) along dim, computed stably."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.log_softmax(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class GELU(Module):
    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate='{self.approximate}'"


class SiLU(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.silu(input)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class Mish(SiLU):
    def forward(self, input):
        return F.mish(input)


class Tanh(Module):
    def forward(self, input):
        return input.tanh()


class Sigmoid(Module):
    def forward(self, input):
        return input.sigmoid()


class Softplus(Module):
    def __init__(self, beta=1, threshold=20):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class LeakyReLU(Module):
    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class ELU(Module):
    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.elu(input, self.alpha)

    def extra_repr(self):
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class Hardtanh(Module):
    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace
        assert self.max_val > self.min_val

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val)

    def extra_repr(self):
        return f"min_val={self.min_val}, max_val={self.max_val}" + (
            ", inplace=True" if self.inplace else "")


class PReLU(Module):
    """x where x > 0, else weight * x; weight: num_parameters values (1, or the channels)."""

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        super().__init__()
        self.num_parameters = num_parameters
        self.init = init
        self.weight = Parameter(full((num_parameters,), init, device=device, dtype=dtype))

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


class _Elementwise(Module):
    """An activation without arguments: forward is the functional _fn."""

    def forward(self, input):
        return type(self)._fn(input)


class _InplaceElementwise(Module):
    """An activation whose only argument is inplace (F._fn(input, inplace))."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return type(self)._fn(input, self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class ReLU6(_InplaceElementwise):
    """min(max(x, 0), 6)."""
    _fn = F.relu6


class SELU(_InplaceElementwise):
    _fn = F.selu


class Hardsigmoid(_InplaceElementwise):
    _fn = F.hardsigmoid


class Hardswish(_InplaceElementwise):
    _fn = F.hardswish


class Softsign(_Elementwise):
    _fn = F.softsign


class Tanhshrink(_Elementwise):
    _fn = F.tanhshrink


class LogSigmoid(_Elementwise):
    _fn = F.logsigmoid


class CELU(Module):
    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class Hardshrink(Module):
    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.hardshrink(input, self.lambd)

    def extra_repr(self):
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    def forward(self, input):
        return F.softshrink(input, self.lambd)


class Threshold(Module):
    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        return f"threshold={self.threshold}, value={self.value}" + (
            ", inplace=True" if self.inplace else "")


class Softmin(Softmax):
    """exp(-x) / sum(exp(-x)) along dim."""

    def forward(self, input):
        return F.softmin(input, self.dim, _stacklevel=5)


class GLU(Module):
    """a sigmoid(b), a and b the halves of the input along dim."""

    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.glu(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class RReLU(Module):
    """Leaky ReLU with a slope drawn from U(lower, upper) per element in training, their mean
    in eval."""

    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def forward(self, input):
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self):
        return f"lower={self.lower}, upper={self.upper}" + (
            ", inplace=True" if self.inplace else "")
