"""optim.Adam: Adam with L2 weight decay, amsgrad and maximize, on tide's fused C++ step
(torch.optim.Adam's arguments and checks)."""

from .. import _C
from .optimizer import Optimizer


class Adam(Optimizer):
    _engine = _C._Adam
    _option_names = ("lr", "betas", "eps", "weight_decay", "amsgrad", "maximize")

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 amsgrad=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False, fused=None):
        if capturable or differentiable:
            raise _C.Error("[tide.optim.Adam] capturable and differentiable are not supported "
                           "by tide; leave them False")
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps,
                                      weight_decay=weight_decay, amsgrad=amsgrad,
                                      maximize=maximize, foreach=foreach, capturable=capturable,
                                      differentiable=differentiable, fused=fused))

    def _options(self, group):
        options = super()._options(group)
        options[1] = tuple(options[1])
        return options
