"""tide.nn.functional: the stateless forms of the layers and losses (torch.nn.functional).
linear runs the same C++ code as tide::nn::Linear (python/src/bind_nn.cpp), so Python and C++
models compute the same numbers bit for bit."""

import math
import warnings

from .. import _C
from .._grad_mode import no_grad
from ._embedding_bag import embedding_bag
from ._pad import pad


def _reduction(size_average, reduce, reduction):
    """torch's legacy size_average/reduce arguments as a reduction name."""
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    warnings.warn("size_average and reduce args will be deprecated, please use "
                  f"reduction='{'mean' if size_average and reduce else 'sum' if reduce else 'none'}'"
                  " instead.")
    return "mean" if size_average and reduce else "sum" if reduce else "none"


def _softmax_dim(name, ndim):
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
                  "to include dim=X as an argument.")
    return 0 if ndim in (0, 1, 3) else 1


def linear(input, weight, bias=None):
    """input @ weight.T + bias."""
    return _C._linear(input, weight, bias)


def relu(input, inplace=False):
    """max(input, 0). inplace=True is accepted and computes out of place (tide has no in-place
    relu; the result is the same tensor values)."""
    return input.relu()


def gelu(input, approximate="none"):
    """x * Phi(x) (approximate='none', exact through erf) or its tanh approximation."""
    return _C._gelu(input, approximate)


def silu(input, inplace=False):
    return _C._silu(input)


def mish(input, inplace=False):
    return _C._mish(input)


def softplus(input, beta=1, threshold=20):
    return _C._softplus(input, float(beta), float(threshold))


def leaky_relu(input, negative_slope=0.01, inplace=False):
    return _C._leaky_relu(input, float(negative_slope))


def elu(input, alpha=1.0, inplace=False):
    return _C._elu(input, float(alpha))


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    return _C._hardtanh(input, float(min_val), float(max_val))


def prelu(input, weight):
    return _C._prelu(input, weight)


def tanh(input):
    return input.tanh()


def sigmoid(input):
    return input.sigmoid()


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    return _C._layer_norm(input, list(normalized_shape), weight, bias, float(eps))


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    return _C._group_norm(input, num_groups, weight, bias, float(eps))


def _padding_index(padding_idx, num_embeddings):
    """torch's checks of padding_idx, and a negative one counted from the end."""
    if padding_idx is None:
        return None
    if padding_idx > 0:
        assert padding_idx < num_embeddings, "Padding_idx must be within num_embeddings"
    elif padding_idx < 0:
        assert padding_idx >= -num_embeddings, "Padding_idx must be within num_embeddings"
        padding_idx = num_embeddings + padding_idx
    return padding_idx


def _embedding_renorm_(weight, input, max_norm, norm_type):
    """torch.embedding_renorm_: each row of weight that input looks up (once, however often it
    is looked up) whose norm_type-norm exceeds max_norm is scaled in place, without autograd,
    by max_norm / (norm + 1e-7), as torch's kernel."""
    with no_grad():
        ids = sorted({int(i) for i in input.reshape(-1).tolist()})
        if not ids:
            return
        rows = weight.index_select(0, _C._tensor(ids, _C.int64, weight.device, False, False))
        if norm_type == math.inf:
            norms = [max((abs(v) for v in row), default=0.0) for row in rows.tolist()]
        else:
            norms = rows.abs().pow(norm_type).sum(1).pow(1.0 / norm_type).tolist()
        for i, norm in zip(ids, norms):
            if norm > max_norm:
                weight[i].mul_(max_norm / (norm + 1e-7))


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False):
    """weight's rows at input; padding_idx's row gets no gradient; with max_norm, the rows
    looked up are first renormalized in place (as torch). scale_grad_by_freq and sparse are not
    supported by tide (they raise)."""
    padding_idx = _padding_index(padding_idx, weight.size(0))
    padding_idx = -1 if padding_idx is None else padding_idx
    if scale_grad_by_freq or sparse:
        raise _C.Error("[tide.nn.functional.embedding] expected scale_grad_by_freq=False and "
                       "sparse=False, found True; tide has no sparse gradients, leave them at "
                       "their defaults")
    if max_norm is not None:
        _embedding_renorm_(weight, input, float(max_norm), float(norm_type))
    return _C._embedding(weight, input, padding_idx)


def one_hot(tensor, num_classes=-1):
    return _C._one_hot(tensor, num_classes)


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    return _C._normalize(input, float(p), dim, float(eps))


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    return _C._cosine_similarity(x1, x2, dim, float(eps))


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    return _C._pairwise_distance(x1, x2, float(p), float(eps), keepdim)


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim("softmax", input.dim())
    if dtype is not None:
        input = input.to(dtype=dtype)
    return input.softmax(dim)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim())
    if dtype is not None:
        input = input.to(dtype=dtype)
    return input.log_softmax(dim)


def dropout(input, p=0.5, training=True, inplace=False):
    """Zeroes elements with probability p (in training) and scales the rest by 1/(1-p)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    return _C._dropout(input, p, training)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100,
                  reduce=None, reduction="mean", label_smoothing=0.0):
    """target: class indices (int64, input's shape without the class dim 1) or class
    probabilities (floating, input's shape)."""
    return _C._cross_entropy(input, target, weight,
                             _reduction(size_average, reduce, reduction), ignore_index,
                             float(label_smoothing))


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
             reduction="mean"):
    """input (N, C), (C,) or (N, C, d1, ...) log-probabilities; target the class indices of
    input's shape without C. The spatial form runs as (N d1 ..., C) rows (the same sums)."""
    reduction = _reduction(size_average, reduce, reduction)
    if input.dim() > 2:
        rows = input.permute([0] + list(range(2, input.dim())) + [1]).reshape(-1, input.size(1))
        loss = _C._nll_loss(rows, target.reshape(-1), weight, reduction, ignore_index)
        return loss.reshape(target.shape) if reduction == "none" else loss
    return _C._nll_loss(input, target, weight, reduction, ignore_index)


def _warn_size_mismatch(input, target):
    if target.size() != input.size():
        warnings.warn(f"Using a target size ({target.size()}) that is different to the input size "
                      f"({input.size()}). This will likely lead to incorrect results due to "
                      "broadcasting. Please ensure they have the same size.", stacklevel=3)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    _warn_size_mismatch(input, target)
    return _C._mse_loss(input, target, _reduction(size_average, reduce, reduction))


# ---- convolution, pooling, normalization (NCHW; the C++ ops of tide/ops.h)


def _ints(value, name):
    """torch's int[N] arguments: one int, or a tuple/list of ints (passed on as a list)."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an int or a tuple of ints, not bool")
    if isinstance(value, int):
        return [value]
    return [int(v) for v in value]


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-d convolution over (N, C, H, W) or (C, H, W); padding may be "same" or "valid"."""
    if not isinstance(padding, str):
        padding = _ints(padding, "padding")
    return _C._conv2d(input, weight, bias, _ints(stride, "stride"), padding,
                      _ints(dilation, "dilation"), groups)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-d convolution over (N, C, L) or (C, L); padding may be "same" (stride 1: the
    output as long as the input, an odd total padding's extra element on the right, as
    torch) or "valid"."""
    if isinstance(padding, str):
        if padding == "valid":
            padding = 0
        elif padding == "same":
            if _ints(stride, "stride") != [1]:
                raise ValueError("padding='same' is not supported for strided convolutions")
            total = _ints(dilation, "dilation")[0] * (weight.size(-1) - 1)
            if total % 2:
                input = pad(input, (total // 2, total - total // 2))
                padding = 0
            else:
                padding = total // 2
        else:
            raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                             "{'valid', 'same'}")
    return _C._conv1d(input, weight, bias, _ints(stride, "stride"), _ints(padding, "padding"),
                      _ints(dilation, "dilation"), groups)


def bilinear(input1, input2, weight, bias=None):
    """y_k = input1^T weight[k] input2 + bias[k] over the last dims of (*, in1) and (*, in2);
    weight (out, in1, in2)."""
    out, in1, in2 = weight.shape
    lead = list(input1.shape[:-1])
    x1 = input1.reshape(-1, in1)
    # (n, in1) @ (in1, out in2) -> (n, out, in2), then the dot with input2 over in2
    y = (x1 @ weight.permute(1, 0, 2).reshape(in1, out * in2)).reshape(-1, out, in2)
    y = (y * input2.reshape(-1, 1, in2)).sum(-1)
    if bias is not None:
        y = y + bias
    return y.reshape(lead + [out])


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    args = (input, _ints(kernel_size, "kernel_size"),
            [] if stride is None else _ints(stride, "stride"), _ints(padding, "padding"),
            _ints(dilation, "dilation"), bool(ceil_mode))
    if return_indices:
        return _C._max_pool2d_with_indices(*args)
    return _C._max_pool2d(*args)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=False):
    return max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    return _C._avg_pool2d(input, _ints(kernel_size, "kernel_size"),
                          [] if stride is None else _ints(stride, "stride"),
                          _ints(padding, "padding"), bool(ceil_mode), bool(count_include_pad),
                          divisor_override)


def adaptive_avg_pool2d(input, output_size):
    """output_size: an int, or two (None keeps the input's size in that dim)."""
    size = [output_size, output_size] if isinstance(output_size, int) else list(output_size)
    if len(size) == 2:
        size = [input.shape[-2 + i] if s is None else int(s) for i, s in enumerate(size)]
    return _C._adaptive_avg_pool2d(input, size)


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-05):
    """Normalizes dim 1 of (N, C, ...); in training by the batch's statistics, updating the
    running ones in place (when given), otherwise by the running ones."""
    return _C._batch_norm(input, running_mean, running_var, weight, bias, bool(training),
                          float(momentum), float(eps))


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    _warn_size_mismatch(input, target)
    return _C._l1_loss(input, target, _reduction(size_average, reduce, reduction))


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    _warn_size_mismatch(input, target)
    return _C._smooth_l1_loss(input, target, _reduction(size_average, reduce, reduction),
                              float(beta))


def huber_loss(input, target, reduction="mean", delta=1.0):
    _warn_size_mismatch(input, target)
    return _C._huber_loss(input, target, reduction, float(delta))


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,
                         reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError(f"Using a target size ({target.size()}) that is different to the input "
                         f"size ({input.size()}) is deprecated. Please ensure they have the same "
                         "size.")
    return _C._binary_cross_entropy(input, target, weight, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    reduction = _reduction(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError(f"Target size ({target.size()}) must be the same as input size "
                         f"({input.size()})")
    return _C._binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """reduction 'batchmean' divides the sum by the batch size (the KL divergence's definition);
    'mean' divides by every element, as torch, which warns about it."""
    if size_average is not None or reduce is not None:
        reduction = _reduction(size_average, reduce, reduction)
    elif reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the "
                      "support size.'batchmean' divides only by the batch size, and aligns with "
                      "the KL div math definition.'mean' will be changed to behave the same as "
                      "'batchmean' in the next major release.")
    if reduction == "batchmean":
        loss = _C._kl_div(input, target, "sum", bool(log_target))
        return loss / input.size(0) if input.dim() != 0 else loss
    return _C._kl_div(input, target, reduction, bool(log_target))


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None,
                        reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension "
                           f"but got sizes: input1: {input1.size()}, input2: {input2.size()}, "
                           f"target: {target.size()} ")
    return _C._margin_ranking_loss(input1, input2, target, float(margin), reduction)


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None,
                          reduction="mean"):
    return _C._cosine_embedding_loss(input1, input2, target, float(margin),
                                     _reduction(size_average, reduce, reduction))


# The forms composed in Python from the ops above, one file per family (they import this
# module, so they come last).
from ._activations import (celu, celu_, elu_, glu, hardshrink,  # noqa: E402
                           hardsigmoid, hardswish, hardtanh_, leaky_relu_, logsigmoid, relu6,
                           relu_, rrelu, rrelu_, selu, selu_, softmin, softshrink, softsign,
                           tanhshrink, threshold, threshold_)
from ._losses import (gaussian_nll_loss, hinge_embedding_loss, multi_margin_loss,  # noqa: E402
                      multilabel_margin_loss, multilabel_soft_margin_loss, poisson_nll_loss,
                      soft_margin_loss, triplet_margin_loss, triplet_margin_with_distance_loss)
from ._normalization import (alpha_dropout, dropout1d, dropout2d, dropout3d,  # noqa: E402
                             feature_alpha_dropout, instance_norm, local_response_norm)
from ._pooling import (adaptive_avg_pool1d, adaptive_max_pool1d,  # noqa: E402
                       adaptive_max_pool1d_with_indices, adaptive_max_pool2d,
                       adaptive_max_pool2d_with_indices, avg_pool1d, lp_pool1d, lp_pool2d,
                       max_pool1d, max_pool1d_with_indices)
from ._resample import (channel_shuffle, interpolate, native_channel_shuffle,  # noqa: E402
                        pixel_shuffle, pixel_unshuffle, upsample, upsample_bilinear,
                        upsample_nearest)
