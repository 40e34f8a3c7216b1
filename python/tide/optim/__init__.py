"""tide.optim: SGD and Adam with torch's Python API (param_groups, step, zero_grad), stepping
with tide's fused C++ optimizers."""

from .optimizer import Optimizer
from .sgd import SGD
from .adam import Adam
