"""tide.optim: torch's optimizers with torch's Python API (param_groups, step, zero_grad,
state_dict). SGD, Adam, AdamW, RMSprop and Adagrad step with tide's fused C++ optimizers; the
others are written in Python over tide's ops (Note [Optimizers written in Python]).
Learning-rate schedules are in tide.optim.lr_scheduler."""

from .optimizer import Optimizer
from .sgd import SGD
from .adam import Adam
from .adamw import AdamW
from .rmsprop import RMSprop
from .adagrad import Adagrad
from .adadelta import Adadelta
from .adamax import Adamax
from .asgd import ASGD
from .lbfgs import LBFGS
from .nadam import NAdam
from .radam import RAdam
from .rprop import Rprop
from . import lr_scheduler
