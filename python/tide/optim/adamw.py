"""optim.AdamW: Adam with decoupled weight decay, amsgrad and maximize, on tide's fused C++ step
(torch.optim.AdamW's arguments, defaults and checks, torch 1.13)."""

from .. import _C
from .optimizer import Optimizer


class AdamW(Optimizer):
    _engine = _C._AdamW
    _option_names = ("lr", "betas", "eps", "weight_decay", "amsgrad", "maximize")

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False, foreach=None, capturable=False):
        if capturable:
            raise _C.Error("[tide.optim.AdamW] capturable=True is not supported by tide; "
                           "leave it False")
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps,
                                      weight_decay=weight_decay, amsgrad=amsgrad,
                                      foreach=foreach, maximize=maximize,
                                      capturable=capturable))

    def _options(self, group):
        options = super()._options(group)
        options[1] = tuple(options[1])
        return options
