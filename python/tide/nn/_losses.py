"""The losses of torch.nn.functional that tide composes from its ops (autograd comes with
them), each following torch 1.13's formula: hinge_embedding_loss, soft_margin_loss,
multilabel_soft_margin_loss, poisson_nll_loss, gaussian_nll_loss, triplet_margin_loss,
triplet_margin_with_distance_loss, multi_margin_loss and multilabel_margin_loss."""

import math

from .._factories import tensor
from .._grad_mode import no_grad
from . import functional as F


def _reduced(loss, reduction):
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    if reduction == "none":
        return loss
    raise ValueError(f"{reduction} is not a valid value for reduction")


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None,
                         reduction="mean"):
    """x where target is 1, max(0, margin - x) where it is -1."""
    reduction = F._reduction(size_average, reduce, reduction)
    margin_clamp = (margin - input).clamp(min=0.0)
    loss = margin_clamp.masked_fill(target != -1, 0) + input.masked_fill(target != 1, 0)
    return _reduced(loss, reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """log(1 + exp(-target x))."""
    reduction = F._reduction(size_average, reduce, reduction)
    return _reduced((-input * target).exp().log1p(), reduction)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None,
                                reduction="mean"):
    """The binary cross entropy of each class's sigmoid, averaged over the classes."""
    reduction = F._reduction(size_average, reduce, reduction)
    loss = -(target * F.logsigmoid(input) + (1 - target) * F.logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(class_dim) / input.size(class_dim)
    return _reduced(loss, reduction)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8,
                     reduce=None, reduction="mean"):
    """exp(x) - target x (log_input), or x - target log(x + eps); full adds Stirling's term
    where target > 1."""
    reduction = F._reduction(size_average, reduce, reduction)
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * (input + eps).log()
    if full:
        stirling = target * target.log() - target + 0.5 * (2 * math.pi * target).log()
        loss = loss + stirling.masked_fill(target <= 1, 0)
    return _reduced(loss, reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """0.5 (log(var) + (input - target)^2 / var), var clamped to eps without changing its
    gradient (as torch); var may lack input's last dim or have it of size 1."""
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = var.unsqueeze(-1)
        elif not (input.size()[:-1] == var.size()[:-1] and var.size(-1) == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    if (var < 0).any().item():
        raise ValueError("var has negative entry/entries")
    var = var.clone()
    with no_grad():
        var.copy_(var.clamp(min=eps))
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduced(loss, reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False,
                        size_average=None, reduce=None, reduction="mean"):
    """max(0, margin + d(anchor, positive) - d(anchor, negative)), d the p-norm distance;
    swap uses the smaller of d(anchor, negative) and d(positive, negative)."""
    reduction = F._reduction(size_average, reduce, reduction)
    return triplet_margin_with_distance_loss(
        anchor, positive, negative,
        distance_function=lambda a, b: F.pairwise_distance(a, b, p, eps), margin=margin,
        swap=swap, reduction=reduction)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None,
                                      margin=1.0, swap=False, reduction="mean"):
    """triplet_margin_loss with any distance (pairwise_distance by default)."""
    if margin <= 0:
        raise ValueError(f"TripletMarginWithDistanceLoss: expected margin to be greater than "
                         f"0, got {margin} instead")
    distance = distance_function if distance_function is not None else F.pairwise_distance
    dist_pos = distance(anchor, positive)
    dist_neg = distance(anchor, negative)
    if swap:
        dist_neg = dist_neg.minimum(distance(positive, negative))
    return _reduced((margin + dist_pos - dist_neg).clamp(min=0.0), reduction)


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None,
                      reduce=None, reduction="mean"):
    """The mean over the classes j != y of max(0, margin - x[y] + x[j])^p (times weight[y])."""
    reduction = F._reduction(size_average, reduce, reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    unbatched = input.dim() <= 1
    x = input.reshape(1, -1) if unbatched else input
    y = target.reshape(-1, 1)
    classes = x.size(1)
    z = (margin - x.gather(1, y) + x).clamp(min=0.0)
    if p == 2:
        z = z * z
    if weight is not None:
        z = z * weight.index_select(0, y.reshape(-1)).unsqueeze(1)
    z = z.masked_fill(F.one_hot(y.reshape(-1), classes) != 0, 0)
    loss = z.sum(1) / classes
    return _reduced(loss.reshape(target.shape) if unbatched else loss, reduction)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """For each sample, the classes in target (up to its first -1) against every other
    class: the sum of max(0, 1 - (x[j] - x[i])), divided by the number of classes."""
    reduction = F._reduction(size_average, reduce, reduction)
    unbatched = input.dim() <= 1
    x = input.reshape(1, -1) if unbatched else input
    rows = target.reshape(x.shape).tolist()
    classes = x.size(1)
    counts, others = [], []
    for row in rows:
        labels = row[:row.index(-1)] if -1 in row else row
        counts.append([float(labels.count(c)) for c in range(classes)])
        others.append([0.0 if c in labels else 1.0 for c in range(classes)])
    count = tensor(counts, dtype=x.dtype, device=x.device)
    other = tensor(others, dtype=x.dtype, device=x.device)
    pairs = (1 - x.unsqueeze(2) + x.unsqueeze(1)).clamp(min=0.0)  # [n, j, i]
    loss = (pairs * count.unsqueeze(2) * other.unsqueeze(1)).sum((1, 2)) / classes
    return _reduced(loss.reshape(()) if unbatched else loss, reduction)

