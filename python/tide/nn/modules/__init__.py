"""The layers of tide.nn, one file per kind, as torch.nn.modules."""

from .module import Module
from .linear import Identity, Linear
from .activation import LogSoftmax, ReLU, Softmax
from .container import ModuleList, Sequential
from .dropout import Dropout
from .flatten import Flatten
from .loss import CrossEntropyLoss, MSELoss, NLLLoss
