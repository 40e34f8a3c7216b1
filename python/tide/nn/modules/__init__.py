"""The layers of tide.nn, one file per kind, as torch.nn.modules."""

from .module import Module
from .linear import Identity, Linear
from .activation import LogSoftmax, ReLU, Softmax
from .batchnorm import BatchNorm2d
from .container import ModuleList, Sequential
from .conv import Conv2d
from .dropout import Dropout
from .flatten import Flatten
from .loss import CrossEntropyLoss, MSELoss, NLLLoss
from .pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d
