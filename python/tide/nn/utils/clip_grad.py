"""nn.utils.clip_grad_norm_ and clip_grad_value_ (torch.nn.utils.clip_grad, torch 1.13): the
total norm is the norm of the per-gradient norms, and every gradient is scaled in place by
min(1, max_norm / (total_norm + 1e-6)) without a host round trip, as torch."""

import math
import warnings

from ... import _C
from ..._factories import tensor as _tensor


def _norm(t, p):
    """torch.norm(t, p) of a flattened tensor, for the p that clip_grad_norm_ allows."""
    if p == math.inf:
        return t.abs().max()
    if p == -math.inf:
        return t.abs().min()
    if p == 0:
        return (t != 0).to(dtype=t.dtype).sum()
    if p == 1:
        return t.abs().sum()
    if p == 2:
        return (t * t).sum().sqrt()
    return t.abs().pow(p).sum().pow(1.0 / p)


def _grads(parameters):
    if isinstance(parameters, _C.Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Scales the gradients of parameters (a tensor or an iterable of them) so that their
    total norm is at most max_norm; returns the total norm before clipping."""
    grads = _grads(parameters)
    max_norm = float(max_norm)
    norm_type = float(norm_type)
    if len(grads) == 0:
        return _tensor(0.0)
    device = grads[0].device
    norms = [_norm(g.detach().reshape(-1), norm_type).to(device) for g in grads]
    total_norm = _norm(_C.stack(norms), norm_type) if len(norms) > 1 or \
        norm_type not in (math.inf, -math.inf) else norms[0]
    if error_if_nonfinite and bool(total_norm.isnan() | total_norm.isinf()):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is "
            "non-finite, so it cannot be clipped. To disable this error and scale the gradients "
            "by the non-finite norm anyway, set `error_if_nonfinite=False`")
    clip_coef = max_norm / (total_norm + 1e-6)
    clip_coef_clamped = clip_coef.clamp(max=1.0)
    for g in grads:
        g.detach().mul_(clip_coef_clamped.to(g.device))
    return total_norm


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Deprecated spelling of clip_grad_norm_ (warns, as torch)."""
    warnings.warn("torch.nn.utils.clip_grad_norm is now deprecated in favor of "
                  "torch.nn.utils.clip_grad_norm_.", stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite)


def clip_grad_value_(parameters, clip_value):
    """Clamps every gradient of parameters into [-clip_value, clip_value] in place."""
    clip_value = float(clip_value)
    for g in _grads(parameters):
        g.detach().copy_(g.detach().clamp(min=-clip_value, max=clip_value))
