"""The layers of tide.nn, one file per kind, as torch.nn.modules."""

from .module import Module
from .linear import Bilinear, Identity, Linear
from .activation import (CELU, ELU, GELU, GLU, Hardshrink, Hardsigmoid, Hardswish, Hardtanh,
                         LeakyReLU, LogSigmoid, LogSoftmax, Mish, PReLU, ReLU, ReLU6, RReLU,
                         SELU, Sigmoid, SiLU, Softmax, Softmax2d, Softmin, Softplus,
                         Softshrink, Softsign, Tanh, Tanhshrink, Threshold)
from .batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
from .container import ModuleDict, ModuleList, Sequential
from .parameter_containers import ParameterDict, ParameterList
from .conv import Conv1d, Conv2d
from .distance import CosineSimilarity, PairwiseDistance
from .dropout import (AlphaDropout, Dropout, Dropout1d, Dropout2d, Dropout3d,
                      FeatureAlphaDropout)
from .flatten import Flatten, Unflatten
from .instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from .normalization import GroupNorm, LayerNorm, LocalResponseNorm
from .padding import (ConstantPad1d, ConstantPad2d, ConstantPad3d, ReflectionPad1d,
                      ReflectionPad2d, ReflectionPad3d, ReplicationPad1d, ReplicationPad2d,
                      ReplicationPad3d, ZeroPad2d)
from .pixelshuffle import ChannelShuffle, PixelShuffle, PixelUnshuffle
from .pooling import (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool1d,
                      AdaptiveMaxPool2d, AvgPool1d, AvgPool2d, LPPool1d, LPPool2d, MaxPool1d,
                      MaxPool2d)
from .rnn import GRU, GRUCell, LSTM, LSTMCell, RNN, RNNBase, RNNCell, RNNCellBase
from .sparse import Embedding, EmbeddingBag
from .upsampling import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d
from .loss import (BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss, CrossEntropyLoss,
                   GaussianNLLLoss, HingeEmbeddingLoss, HuberLoss, KLDivLoss, L1Loss,
                   MarginRankingLoss, MSELoss, MultiLabelMarginLoss, MultiLabelSoftMarginLoss,
                   MultiMarginLoss, NLLLoss, NLLLoss2d, PoissonNLLLoss, SmoothL1Loss,
                   SoftMarginLoss, TripletMarginLoss, TripletMarginWithDistanceLoss)

__all__ = sorted(name for name in dir() if name[:1].isupper())  # the layers, not the files
