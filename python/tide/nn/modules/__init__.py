"""The layers of tide.nn, one file per kind, as torch.nn.modules."""

from .module import Module
from .linear import Identity, Linear
from .activation import (ELU, GELU, Hardtanh, LeakyReLU, LogSoftmax, Mish, PReLU, ReLU, Sigmoid,
                         SiLU, Softmax, Softmax2d, Softplus, Tanh)
from .batchnorm import BatchNorm2d
from .container import ModuleDict, ModuleList, Sequential
from .parameter_containers import ParameterDict, ParameterList
from .conv import Conv2d
from .dropout import Dropout
from .flatten import Flatten
from .normalization import GroupNorm, LayerNorm
from .pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d
from .sparse import Embedding, EmbeddingBag
from .loss import (BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss, CrossEntropyLoss, HuberLoss,
                   KLDivLoss, L1Loss, MarginRankingLoss, MSELoss, NLLLoss, SmoothL1Loss)
