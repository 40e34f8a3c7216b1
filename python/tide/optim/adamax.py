"""optim.Adamax: torch 1.13's Adamax (Adam over the infinity norm; weight decay, maximize),
written in Python over tide's ops (Note [Optimizers written in Python]); state: "step" (a
0-dim float32 tensor), "exp_avg" and "exp_inf"."""

from .._factories import tensor, zeros_like
from ._checks import check_adam_like
from .optimizer import Optimizer


class Adamax(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 foreach=None, *, maximize=False):
        check_adam_like(lr, betas, eps, weight_decay)
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      foreach=foreach, maximize=maximize))

    @staticmethod
    def _update(group, param, grad, state):
        beta1, beta2 = group["betas"]
        if not state:
            state["step"] = tensor(0.0)
            state["exp_avg"] = zeros_like(param)
            state["exp_inf"] = zeros_like(param)
        exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
        state["step"] += 1
        step = state["step"].item()
        grad = -grad if group["maximize"] else grad
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
        # torch takes the amax of the two stacked; the elementwise maximum is the same numbers.
        exp_inf.copy_(exp_inf.mul_(beta2).maximum(grad.abs().add_(group["eps"])))
        clr = group["lr"] / (1 - beta1 ** step)
        param.addcdiv_(exp_avg, exp_inf, value=-clr)
