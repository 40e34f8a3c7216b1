"""nn.BatchNorm1d, 2d and 3d (torch.nn's): per-channel normalization of (N, C, ...) with the
running statistics as buffers (Note [BatchNorm buffers] in include/tide/nn/batch_norm.h):
to()/cuda() move them, state_dict() saves them, train()/eval() choose batch or running
statistics, and training updates them in place without recording."""

from ... import _factories as _f
from ..._grad_mode import no_grad
from ..._C import int64
from .. import functional as F
from ..parameter import Parameter
from .module import Module


class _BatchNorm(Module):
    _input_dims = ()
    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True,
                 track_running_stats=True, device=None, dtype=None):
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        kw = {"device": device, "dtype": dtype}
        if affine:
            self.weight = Parameter(_f.ones(num_features, **kw))
            self.bias = Parameter(_f.zeros(num_features, **kw))
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", _f.zeros(num_features, **kw))
            self.register_buffer("running_var", _f.ones(num_features, **kw))
            self.register_buffer("num_batches_tracked",
                                 _f.tensor(0, dtype=int64, device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)

    def reset_running_stats(self):
        if self.track_running_stats:
            with no_grad():
                self.running_mean.zero_()
                self.running_var.fill_(1)
                self.num_batches_tracked.zero_()

    def reset_parameters(self):
        self.reset_running_stats()
        if self.affine:
            with no_grad():
                self.weight.fill_(1)
                self.bias.zero_()

    def forward(self, input):
        if input.dim() not in self._input_dims:
            raise ValueError(f"expected {' or '.join(f'{d}D' for d in self._input_dims)} input "
                             f"(got {input.dim()}D input)")
        # torch's _BatchNorm.forward: the factor, the batch count, which statistics to use.
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            with no_grad():
                self.num_batches_tracked.add_(1)
            if self.momentum is None:
                factor = 1.0 / float(self.num_batches_tracked.item())
        bn_training = self.training or (self.running_mean is None and self.running_var is None)
        use_running = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if use_running else None,
                            self.running_var if use_running else None, self.weight, self.bias,
                            bn_training, factor, self.eps)

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    """Over (N, C) or (N, C, L)."""
    _input_dims = (2, 3)


class BatchNorm2d(_BatchNorm):
    _input_dims = (4,)


class BatchNorm3d(_BatchNorm):
    _input_dims = (5,)
