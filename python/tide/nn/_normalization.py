"""instance_norm, local_response_norm and the feature and alpha dropouts of
torch.nn.functional, composed from tide's batch_norm, avg_pool2d and ops as torch 1.13
composes them."""

import math
import warnings

from .. import _C
from .._factories import rand
from .._grad_mode import no_grad
from . import functional as F


def _repeated(t, n):
    """t (C,) repeated n times: (n C,), the gradient summed back (torch's repeat)."""
    return None if t is None else t.unsqueeze(0).expand(n, t.size(0)).reshape(-1)


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.1, eps=1e-5):
    """Normalizes each (sample, channel) of (N, C, ...) by its own statistics: batch_norm
    over the input seen as (1, N C, ...), as torch; the running statistics, when given, take
    the mean of the N updates."""
    if use_input_stats:
        spatial = math.prod(input.shape[2:])
        if spatial == 1:
            raise ValueError(f"Expected more than 1 spatial element when training, got input "
                             f"size {list(input.shape)}")
    n, c = input.size(0), input.size(1)
    shape = [1, n * c] + list(input.shape[2:])
    mean, var = _repeated(running_mean, n), _repeated(running_var, n)
    out = F.batch_norm(input.reshape(shape), mean, var, _repeated(weight, n),
                       _repeated(bias, n), use_input_stats, momentum, eps)
    if use_input_stats:
        with no_grad():
            if running_mean is not None:
                running_mean.copy_(mean.reshape(n, c).mean(0))
            if running_var is not None:
                running_var.copy_(var.reshape(n, c).mean(0))
    return out.reshape(input.shape)


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """x / (k + alpha * mean of x^2 over `size` neighbouring channels)^beta."""
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    sizes = list(input.shape)
    div = input.mul(input).reshape(sizes[0], 1, sizes[1], -1)
    div = F.pad(div, (0, 0, size // 2, (size - 1) // 2))
    div = F.avg_pool2d(div, (size, 1), stride=1).reshape(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _noise(input, p, feature):
    """Bernoulli(1 - p) draws: one per element, or per channel of (N, C, ...) when feature."""
    shape = list(input.shape[:2]) + [1] * (input.dim() - 2) if feature else list(input.shape)
    return (rand(shape, device=input.device) >= p).to(dtype=input.dtype)


def _dropout(input, p, training, alpha, feature):
    """torch's _dropout_impl: zero (or, for alpha dropout, the SELU's negative saturation,
    then an affine correction keeping mean and variance) with probability p."""
    _check_p(p)
    if p == 0 or not training or input.numel() == 0:
        return input
    if p == 1:
        return input * 0.0
    noise = _noise(input, p, feature)
    if not alpha:
        return input * (noise / (1 - p))
    a_const = 1.7580993408473766
    a = 1.0 / math.sqrt((a_const * a_const * p + 1) * (1 - p))
    b = (noise - 1) * (a_const * a) + a_const * a * p
    return input * (noise * a) + b


def _feature_dropout(input, p, training, batched_dim, name):
    """dropout1d/2d/3d: whole channels of (N, C, ...) or of an unbatched (C, ...)."""
    _check_p(p)
    if input.dim() not in (batched_dim - 1, batched_dim):
        raise _C.Error(f"{name}: Expected {batched_dim - 1}D or {batched_dim}D input, but "
                       f"received a {input.dim()}D input. Note that {name} exists to provide "
                       "channel-wise dropout on inputs with 1 spatial dimension, a channel "
                       "dimension, and an optional batch dimension (i.e. "
                       f"{batched_dim - 1}D or {batched_dim}D inputs).")
    unbatched = input.dim() == batched_dim - 1
    x = input.unsqueeze(0) if unbatched else input
    out = _dropout(x, p, training, False, True)
    return out.squeeze(0) if unbatched else out


def dropout1d(input, p=0.5, training=True, inplace=False):
    return _feature_dropout(input, p, training, 3, "dropout1d")


def _warn_unexpected_dims(input, name, spatial):
    """torch's warning for an input of neither spatial + 1 nor spatial + 2 dims."""
    if input.dim() not in (spatial + 1, spatial + 2):
        warnings.warn(f"{name}: Received a {input.dim()}-D input to {name}, which is "
                      "deprecated and will result in an error in a future release. To retain "
                      "the behavior and silence this warning, please use dropout instead. Note "
                      f"that {name} exists to provide channel-wise dropout on inputs with "
                      f"{spatial} spatial dimensions, a channel dimension, and an optional "
                      f"batch dimension (i.e. {spatial + 1}D or {spatial + 2}D inputs).")


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Whole channels of (N, C, H, W); a 3-d input is taken as (N, C, L), as torch 1.13."""
    _warn_unexpected_dims(input, "dropout2d", 2)
    if input.dim() == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-"
                      "wise 1D dropout behavior is desired - input is interpreted as shape "
                      "(N, C, L), where C is the channel dim. This behavior will change in a "
                      "future release to interpret the input as one without a batch dimension, "
                      "i.e. shape (C, H, W). To maintain the 1D channel-wise dropout behavior, "
                      "please switch to using dropout1d instead.")
    return _dropout(input, p, training, False, True)


def dropout3d(input, p=0.5, training=True, inplace=False):
    """Whole channels of (N, C, D, H, W) or of an unbatched (C, D, H, W)."""
    _warn_unexpected_dims(input, "dropout3d", 3)
    _check_p(p)
    unbatched = input.dim() == 4
    x = input.unsqueeze(0) if unbatched else input
    out = _dropout(x, p, training, False, True)
    return out.squeeze(0) if unbatched else out


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    return _dropout(input, p, training, True, False)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    return _dropout(input, p, training, True, True)
