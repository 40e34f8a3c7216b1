"""optim.SGD: stochastic gradient descent with momentum, dampening, weight decay, Nesterov and
maximize, on tide's fused C++ step (torch.optim.SGD's arguments and checks)."""

from .. import _C
from .optimizer import Optimizer


class SGD(Optimizer):
    _engine = _C._SGD
    _option_names = ("lr", "momentum", "dampening", "weight_decay", "nesterov", "maximize")

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0,
                 nesterov=False, *, maximize=False, foreach=None, differentiable=False):
        if differentiable:
            raise _C.Error("[tide.optim.SGD] differentiable=True is not supported by tide; "
                           "leave it False")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening,
                                      weight_decay=weight_decay, nesterov=nesterov,
                                      maximize=maximize, foreach=foreach,
                                      differentiable=differentiable))
