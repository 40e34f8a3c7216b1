"""optim.RMSprop: RMSprop with momentum, centering, weight decay and maximize, on tide's fused
C++ step (torch.optim.RMSprop's arguments, defaults and checks, torch 1.13)."""

from .. import _C
from .optimizer import Optimizer


class RMSprop(Optimizer):
    _engine = _C._RMSprop
    _option_names = ("lr", "alpha", "eps", "weight_decay", "momentum", "centered", "maximize")

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
                 centered=False, foreach=None, maximize=False, differentiable=False):
        if differentiable:
            raise _C.Error("[tide.optim.RMSprop] differentiable=True is not supported by tide; "
                           "leave it False")
        super().__init__(params, dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps,
                                      centered=centered, weight_decay=weight_decay,
                                      foreach=foreach, maximize=maximize,
                                      differentiable=differentiable))

    def _engine_state(self, engine, index):
        # torch 1.13's RMSprop counts steps in a Python int, where its other optimizers keep a
        # tensor.
        state = super()._engine_state(engine, index)
        if "step" in state:
            state["step"] = int(state["step"].item())
        return state
