"""optim.ASGD: torch 1.13's averaged SGD (weight decay, maximize), written in Python over
tide's ops (Note [Optimizers written in Python]); state: "step", "eta" and "mu" (0-dim float32
tensors on the cpu, whose float32 rounding the update reads back as torch's does) and "ax",
the running average of the parameter."""

import math

from .._factories import tensor, zeros_like
from ._checks import check_at_least_zero
from .optimizer import Optimizer


class ASGD(Optimizer):
    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0,
                 foreach=None, maximize=False):
        check_at_least_zero(lr=lr, weight_decay=weight_decay)
        super().__init__(params, dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0,
                                      weight_decay=weight_decay, foreach=foreach,
                                      maximize=maximize))

    @staticmethod
    def _update(group, param, grad, state):
        lr, lambd = group["lr"], group["lambd"]
        if not state:
            state["step"] = tensor(0.0)
            state["eta"] = tensor(float(lr))
            state["mu"] = tensor(1.0)
            state["ax"] = zeros_like(param)
        eta, mu, ax = state["eta"], state["mu"], state["ax"]
        grad = -grad if group["maximize"] else grad
        state["step"] += 1
        step = state["step"].item()
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        param.mul_(1 - lambd * eta.item())
        param.add_(grad, alpha=-eta.item())
        if mu.item() != 1:
            ax.add_(param.sub(ax).mul(mu.item()))
        else:
            ax.copy_(param)
        # through a float32 tensor, as torch: eta and mu keep float32's rounding even once
        # load_state_dict has cast them to a float64 parameter's dtype
        eta.copy_(tensor(lr / math.pow(1 + lambd * lr * step, group["alpha"])))
        mu.copy_(tensor(1 / max(1, step - group["t0"])))
