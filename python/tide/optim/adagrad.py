"""optim.Adagrad: Adagrad with learning-rate decay, weight decay and maximize (dense gradients),
on tide's fused C++ step (torch.optim.Adagrad's arguments, defaults and checks, torch 1.13).
Every parameter's running sum is made when the optimizer is built, as torch's."""

from .. import _C
from .optimizer import Optimizer


class Adagrad(Optimizer):
    _engine = _C._Adagrad
    _option_names = ("lr", "lr_decay", "weight_decay", "initial_accumulator_value", "eps",
                     "maximize")

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0,
                 eps=1e-10, foreach=None, *, maximize=False):
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, eps=eps,
                                      weight_decay=weight_decay,
                                      initial_accumulator_value=initial_accumulator_value,
                                      foreach=foreach, maximize=maximize))
