"""tide.nn: Module (subclassable in Python, as torch.nn.Module), Parameter, the layers and
losses, functional, and DataParallel."""

from .parameter import Parameter
from .modules import (Module, Identity, Linear, LogSoftmax, ReLU, Softmax, ModuleList,
                      Sequential, Dropout, Flatten, CrossEntropyLoss, MSELoss, NLLLoss,
                      Conv2d, MaxPool2d, AvgPool2d, AdaptiveAvgPool2d, BatchNorm2d,
                      ELU, GELU, Hardtanh, LeakyReLU, Mish, PReLU, Sigmoid, SiLU, Softplus, Tanh,
                      BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss, HuberLoss, KLDivLoss,
                      L1Loss, MarginRankingLoss, SmoothL1Loss, Embedding, GroupNorm, LayerNorm,
                      EmbeddingBag, ModuleDict, ParameterDict, ParameterList, Softmax2d)
from . import functional
from . import init
from . import utils
from . import parallel
from .parallel import DataParallel
