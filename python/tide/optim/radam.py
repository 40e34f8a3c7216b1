"""optim.RAdam: torch 1.13's RAdam (Adam with the variance rectification; weight decay),
written in Python over tide's ops (Note [Optimizers written in Python]); state: "step" (a
0-dim float32 tensor), "exp_avg" and "exp_avg_sq"."""

import math

from .._factories import tensor, zeros_like
from ._checks import check_adam_like
from .optimizer import Optimizer


class RAdam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 foreach=None):
        check_adam_like(lr, betas, eps, weight_decay)
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      foreach=foreach))

    @staticmethod
    def _update(group, param, grad, state):
        beta1, beta2 = group["betas"]
        lr = group["lr"]
        if not state:
            state["step"] = tensor(0.0)
            state["exp_avg"] = zeros_like(param)
            state["exp_avg_sq"] = zeros_like(param)
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        state["step"] += 1
        step = state["step"].item()
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        bias_corrected_exp_avg = exp_avg / bias_correction1
        # the length of the approximated simple moving average, and its limit
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
        if rho_t > 5.:
            rect = math.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf
                             / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
            adaptive_lr = math.sqrt(bias_correction2) / exp_avg_sq.sqrt().add_(group["eps"])
            param.add_(bias_corrected_exp_avg * lr * adaptive_lr * rect, alpha=-1.0)
        else:
            param.add_(bias_corrected_exp_avg * lr, alpha=-1.0)
