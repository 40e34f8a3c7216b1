"""nn.InstanceNorm1d, 2d and 3d (torch.nn's): each (sample, channel) normalized by its own
statistics; affine adds per-channel weight and bias, track_running_stats keeps running
statistics (used in eval) as BatchNorm's buffers. Unbatched inputs (C, ...) are taken as a
batch of one."""

import warnings

from .. import functional as F
from .batchnorm import _BatchNorm


class _InstanceNorm(_BatchNorm):
    _spatial_dims = 1

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False,
                 track_running_stats=False, device=None, dtype=None):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device,
                         dtype)

    def forward(self, input):
        no_batch_dim = self._spatial_dims + 1
        if input.dim() not in (no_batch_dim, no_batch_dim + 1):
            raise ValueError(f"expected {no_batch_dim}D or {no_batch_dim + 1}D input (got "
                             f"{input.dim()}D input)")
        feature_dim = input.dim() - no_batch_dim
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={feature_dim} to match "
                                 f"num_features ({self.num_features}), but got: "
                                 f"{input.size(feature_dim)}.")
            warnings.warn(f"input's size at dim={feature_dim} does not match num_features. "
                          "You can silence this warning by not passing in num_features, which "
                          "is not used because affine=False")
        unbatched = input.dim() == no_batch_dim
        x = input.unsqueeze(0) if unbatched else input
        out = F.instance_norm(x, self.running_mean, self.running_var, self.weight, self.bias,
                              self.training or not self.track_running_stats, self.momentum,
                              self.eps)
        return out.squeeze(0) if unbatched else out


class InstanceNorm1d(_InstanceNorm):
    _spatial_dims = 1


class InstanceNorm2d(_InstanceNorm):
    _spatial_dims = 2


class InstanceNorm3d(_InstanceNorm):
    _spatial_dims = 3
