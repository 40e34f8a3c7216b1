"""The layers of tide.nn, one file per kind, as torch.nn.modules."""

from .module import Module
from .linear import Identity, Linear
from .activation import (ELU, GELU, Hardtanh, LeakyReLU, LogSoftmax, Mish, PReLU, ReLU, Sigmoid,
                         SiLU, Softmax, Softplus, Tanh)
from .container import ModuleList, Sequential
from .dropout import Dropout
from .flatten import Flatten
from .normalization import GroupNorm, LayerNorm
from .sparse import Embedding
from .loss import (BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss, CrossEntropyLoss, HuberLoss,
                   KLDivLoss, L1Loss, MarginRankingLoss, MSELoss, NLLLoss, SmoothL1Loss)
