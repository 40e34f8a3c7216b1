"""optim.Adadelta: torch 1.13's Adadelta (weight decay, maximize), written in Python over
tide's ops (Note [Optimizers written in Python]); state: an int "step", "square_avg" and
"acc_delta"."""

from .._factories import zeros_like
from ._checks import check_at_least_zero
from .optimizer import Optimizer


class Adadelta(Optimizer):
    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *,
                 maximize=False):
        check_at_least_zero(lr=lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        check_at_least_zero(eps=eps, weight_decay=weight_decay)
        super().__init__(params, dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay,
                                      maximize=maximize, foreach=foreach))

    @staticmethod
    def _update(group, param, grad, state):
        lr, rho, eps = group["lr"], group["rho"], group["eps"]
        if not state:
            state["step"] = 0
            state["square_avg"] = zeros_like(param)
            state["acc_delta"] = zeros_like(param)
        state["step"] += 1
        square_avg, acc_delta = state["square_avg"], state["acc_delta"]
        grad = -grad if group["maximize"] else grad
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
        std = square_avg.add(eps).sqrt()
        delta = acc_delta.add(eps).sqrt().div_(std).mul_(grad)
        acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
        param.add_(delta, alpha=-lr)
