"""F.embedding_bag (torch.nn.functional.embedding_bag, torch 1.13): the sum, mean or max of
each bag of embedding rows, bags given as the rows of a 2-D input or by offsets into a 1-D one.

Note [Bags through embedding and index_select]: the rows are looked up once with embedding
(so padding_idx and max_norm behave as there), weighted by per_sample_weights in sum mode, and
each bag is an index_select of its positions (padding_idx's excluded, as torch's kernel
skips them) reduced along dim 0; an empty bag is a row of zeros. Every step carries autograd on
every device, so embedding_bag needs no kernel of its own; the per-bag loop runs on the host,
which suits the modest bag counts of models that use it from Python."""

import warnings

from .. import _C


def _bounds(input, offsets, include_last_offset):
    """(start, end) of each bag in the flattened input."""
    total = input.numel()
    starts = [int(o) for o in offsets.tolist()]
    if include_last_offset:
        return list(zip(starts[:-1], starts[1:]))
    return list(zip(starts, starts[1:] + [total]))


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False,
                  mode="mean", sparse=False, per_sample_weights=None, include_last_offset=False,
                  padding_idx=None):
    from .functional import _padding_index, embedding  # functional imports this module

    if weight.dtype == _C.int64 and input.is_floating_point():
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage "
                      "`embedding_bag(weight, input, ...)` is deprecated, and should now be "
                      "`embedding_bag(input, weight, ...)`.")
        weight, input = input, weight
    if per_sample_weights is not None and tuple(input.shape) != tuple(per_sample_weights.shape):
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is "
                         f"not None, then it must have the same shape as the input "
                         f"({input.shape})")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated "
                             "is a mini-batch of fixed length sequences. However, found offsets "
                             f"of type {type(offsets)}")
        width = input.size(1)
        bounds = [(b * width, (b + 1) * width) for b in range(input.size(0))]
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
        bounds = _bounds(input, offsets, include_last_offset)
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension "
                         f"{input.dim()}")
    if mode == "max":
        if scale_grad_by_freq:
            raise ValueError("max mode does not support scaling the gradient by the frequency")
        if sparse:
            raise ValueError("max mode does not support sparse weights")
    elif mode not in ("sum", "mean"):
        raise ValueError("mode has to be one of sum, mean or max")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(
            "embedding_bag: per_sample_weights was not None. per_sample_weights is only "
            f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
            "GitHub.")
    padding_idx = _padding_index(padding_idx, weight.size(0))
    rows = embedding(input, weight, padding_idx, max_norm, norm_type, scale_grad_by_freq, sparse)
    if per_sample_weights is not None:
        rows = rows * per_sample_weights.unsqueeze(1)
    ids = input.tolist()
    bags = []
    for start, end in bounds:
        keep = [j for j in range(start, end) if ids[j] != padding_idx]
        if not keep:
            bags.append(_C._zeros([weight.size(1)], rows.dtype, rows.device, False, False))
            continue
        chosen = rows.index_select(0, _C._tensor(keep, _C.int64, rows.device, False, False))
        if mode == "sum":
            bags.append(chosen.sum(0))
        elif mode == "mean":
            bags.append(chosen.mean(0))
        else:
            bags.append(chosen.max(0)[0])
    if not bags:
        return _C._zeros([0, weight.size(1)], rows.dtype, rows.device, False, False)
    return _C.stack(bags, 0)
