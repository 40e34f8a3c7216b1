"""nn.Dropout and its kinds (torch.nn's): zero elements (Dropout, AlphaDropout) or whole
channels (Dropout1d/2d/3d, FeatureAlphaDropout) with probability p in training mode, the
identity in eval."""

from .. import functional as F
from .module import Module


class _DropoutNd(Module):
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input):
        return type(self)._fn(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    _fn = F.dropout


class Dropout1d(_DropoutNd):
    _fn = F.dropout1d


class Dropout2d(_DropoutNd):
    _fn = F.dropout2d


class Dropout3d(_DropoutNd):
    _fn = F.dropout3d


class AlphaDropout(_DropoutNd):
    _fn = F.alpha_dropout


class FeatureAlphaDropout(_DropoutNd):
    _fn = F.feature_alpha_dropout
