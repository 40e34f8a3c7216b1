"""optim.Rprop: torch 1.13's resilient backpropagation (maximize), written in Python over
tide's ops (Note [Optimizers written in Python]); state: an int "step", "prev" (the last
gradient, zeroed where its sign flipped) and "step_size"."""

from .._factories import full_like, zeros_like
from ._checks import check_at_least_zero
from .optimizer import Optimizer


class Rprop(Optimizer):
    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), foreach=None,
                 maximize=False):
        check_at_least_zero(lr=lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        super().__init__(params, dict(lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach,
                                      maximize=maximize))

    @staticmethod
    def _update(group, param, grad, state):
        etaminus, etaplus = group["etas"]
        step_size_min, step_size_max = group["step_sizes"]
        if not state:
            state["step"] = 0
            state["prev"] = zeros_like(param)
            state["step_size"] = full_like(grad, group["lr"])
        state["step"] += 1
        prev, step_size = state["prev"], state["step_size"]
        grad = -grad if group["maximize"] else grad
        # The factor for each element: etaplus where the gradient kept its sign, etaminus where it
        # flipped, 1 where either is zero (torch's masked writes over sign(grad * prev)).
        sign = grad.mul(prev).sign()
        factor = sign.masked_fill(sign.gt(0), etaplus).masked_fill(sign.lt(0), etaminus)
        factor.masked_fill_(sign.eq(0), 1)
        step_size.copy_(step_size.mul_(factor).clamp(step_size_min, step_size_max))
        grad = grad.masked_fill(factor.eq(etaminus), 0)
        param.addcmul_(grad.sign(), step_size, value=-1)
        prev.copy_(grad)
