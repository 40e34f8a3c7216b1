"""optim.NAdam: torch 1.13's NAdam (Adam with Nesterov momentum and momentum decay; weight
decay), written in Python over tide's ops (Note [Optimizers written in Python]); state: "step"
and "mu_product" (0-dim float32 tensors, whose float32 rounding the update reads back as
torch's does), "exp_avg" and "exp_avg_sq"."""

from .._factories import tensor, zeros_like
from ._checks import check_adam_like, check_at_least_zero
from .optimizer import Optimizer


class NAdam(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 momentum_decay=4e-3, foreach=None):
        check_adam_like(lr, betas, eps, weight_decay)
        check_at_least_zero(momentum_decay=momentum_decay)
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      momentum_decay=momentum_decay, foreach=foreach))

    @staticmethod
    def _update(group, param, grad, state):
        beta1, beta2 = group["betas"]
        lr, momentum_decay = group["lr"], group["momentum_decay"]
        if not state:
            state["step"] = tensor(0.0)
            state["mu_product"] = tensor(1.0)
            state["exp_avg"] = zeros_like(param)
            state["exp_avg_sq"] = zeros_like(param)
        exp_avg, exp_avg_sq, mu_product = state["exp_avg"], state["exp_avg_sq"], state["mu_product"]
        state["step"] += 1
        step = state["step"].item()
        bias_correction2 = 1 - beta2 ** step
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        mu = beta1 * (1. - 0.5 * (0.96 ** (step * momentum_decay)))
        mu_next = beta1 * (1. - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
        mu_product.mul_(mu)
        mu_product_next = mu_product * mu * mu_next
        exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        denom = exp_avg_sq.div(bias_correction2).sqrt().add_(group["eps"])
        param.addcdiv_(grad, denom, value=-lr * (1. - mu) / (1. - mu_product.item()))
        param.addcdiv_(exp_avg, denom, value=-lr * mu_next / (1. - mu_product_next.item()))
