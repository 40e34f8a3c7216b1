"""tide.optim: SGD, Adam, AdamW, RMSprop and Adagrad with torch's Python API (param_groups,
step, zero_grad, state_dict), stepping with tide's fused C++ optimizers; learning-rate
schedules in tide.optim.lr_scheduler."""

from .optimizer import Optimizer
from .sgd import SGD
from .adam import Adam
from .adamw import AdamW
from .rmsprop import RMSprop
from .adagrad import Adagrad
from . import lr_scheduler
