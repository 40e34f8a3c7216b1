"""tide.nn: Module (subclassable in Python, as torch.nn.Module), Parameter, the layers and
losses, functional, and DataParallel."""

from .parameter import Parameter
from .modules import (Module, Identity, Linear, LogSoftmax, ReLU, Softmax, ModuleList,
                      Sequential, Dropout, Flatten, CrossEntropyLoss, MSELoss, NLLLoss,
                      Conv2d, MaxPool2d, AvgPool2d, AdaptiveAvgPool2d, BatchNorm2d)
from . import functional
from . import parallel
from .parallel import DataParallel
