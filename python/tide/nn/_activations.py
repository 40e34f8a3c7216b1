"""The activations of torch.nn.functional that tide composes from its ops (autograd comes
with them): relu6, selu, celu, hardsigmoid, hardswish, hardshrink, softshrink, softsign,
tanhshrink, threshold, logsigmoid, softmin, glu and rrelu, and the in-place forms (relu_,
elu_, ...). Each follows torch 1.13's formula, so the values agree to rounding.

Note [In-place activations]: f_(x) writes f(x) into x with copy_, computed from a clone of x:
the activation saves the clone for its backward, so the write into x does not trip the
version check (Note in autograd's saved tensors), and the gradient reaches x's earlier value
through the clone, as torch's in-place kernels' does."""

from .. import _C
from .._factories import rand
from . import functional as F

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _in_place(input, fn):
    """input with fn(input) written into it (Note [In-place activations])."""
    return input.copy_(fn(input.clone()))


def relu6(input, inplace=False):
    """min(max(x, 0), 6)."""
    if inplace:
        return _in_place(input, relu6)
    return F.hardtanh(input, 0.0, 6.0)


def selu(input, inplace=False):
    """scale * elu(x, alpha) with torch's fixed alpha and scale."""
    if inplace:
        return _in_place(input, selu)
    return F.elu(input, _SELU_ALPHA) * _SELU_SCALE


def celu(input, alpha=1.0, inplace=False):
    """max(0, x) + min(0, alpha (exp(x / alpha) - 1))."""
    if inplace:
        return _in_place(input, lambda x: celu(x, alpha))
    return F.elu(input / alpha, 1.0) * alpha


def hardsigmoid(input, inplace=False):
    """min(max(x + 3, 0), 6) / 6."""
    if inplace:
        return _in_place(input, hardsigmoid)
    return F.hardtanh(input + 3, 0.0, 6.0) / 6


def hardswish(input, inplace=False):
    """x min(max(x + 3, 0), 6) / 6."""
    if inplace:
        return _in_place(input, hardswish)
    return input * F.hardtanh(input + 3, 0.0, 6.0) / 6


def hardshrink(input, lambd=0.5):
    """x where |x| > lambd, else 0."""
    return input.masked_fill(input.abs() <= lambd, 0)


def softshrink(input, lambd=0.5):
    """x - lambd above lambd, x + lambd below -lambd, else 0."""
    if lambd < 0:
        raise _C.Error(f"lambda must be greater or equal to 0, but found to be {lambd}.")
    return input - input.clamp(-lambd, lambd)


def softsign(input):
    """x / (1 + |x|)."""
    return input / (input.abs() + 1)


def tanhshrink(input):
    """x - tanh(x)."""
    return input - input.tanh()


def threshold(input, threshold, value, inplace=False):
    """x where x > threshold, else value."""
    if inplace:
        return _in_place(input, lambda x: F.threshold(x, threshold, value))
    return input.masked_fill(input <= threshold, value)


def logsigmoid(input):
    """log(sigmoid(x)), computed stably as min(x, 0) - log1p(exp(-|x|)) (torch's kernel)."""
    return input.clamp(max=0.0) - input.abs().neg().exp().log1p()


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    """softmax(-x) along dim."""
    if dim is None:
        dim = F._softmax_dim("softmin", input.dim())
    if dtype is not None:
        input = input.to(dtype=dtype)
    return (-input).softmax(dim)


def glu(input, dim=-1):
    """a sigmoid(b), a and b the two halves of input along dim."""
    if input.dim() == 0:
        raise _C.Error("glu does not support scalars because halving size must be even")
    dim = dim + input.dim() if dim < 0 else dim
    if input.size(dim) % 2 != 0:
        raise _C.Error(f"Halving dimension must be even, but dimension {dim} is size "
                       f"{input.size(dim)}")
    a, b = input.chunk(2, dim)
    return a * b.sigmoid()


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """x where x >= 0, else a x: a drawn from U(lower, upper) for each element in training,
    (lower + upper) / 2 in eval."""
    if inplace:
        return _in_place(input, lambda x: rrelu(x, lower, upper, training))
    if not training:
        return F.leaky_relu(input, (lower + upper) / 2)
    slope = rand(input.shape, dtype=input.dtype, device=input.device) * (upper - lower) + lower
    return input * slope.masked_fill(input > 0, 1)


def relu_(input):
    return _in_place(input, F.relu)


def elu_(input, alpha=1.0):
    return _in_place(input, lambda x: F.elu(x, alpha))


def leaky_relu_(input, negative_slope=0.01):
    return _in_place(input, lambda x: F.leaky_relu(x, negative_slope))


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    return _in_place(input, lambda x: F.hardtanh(x, min_val, max_val))


def threshold_(input, threshold, value):
    return _in_place(input, lambda x: F.threshold(x, threshold, value))


def selu_(input):
    return _in_place(input, selu)


def celu_(input, alpha=1.0):
    return _in_place(input, lambda x: celu(x, alpha))


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return _in_place(input, lambda x: rrelu(x, lower, upper, training))

