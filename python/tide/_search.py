"""torch.searchsorted and torch.bucketize, composed of comparisons and a sum.

Note [Search by counting]: the insertion point of v in a sorted row s is how many entries of s
come before it: those with !(s >= v) for side "left" and !(s > v) for "right" — torch's binary
search's own tests, so a NaN value lands past the end as in torch. Counting compares every
value with every entry (memory values x row length) where torch's binary search reads log2 of
the row; it runs on every device through ops tide has, and a kernel of its own replaces it when
a workload needs long rows. A NaN inside the sorted row counts as "before" everywhere, where
torch's search result depends on where its bisection lands."""

from . import _C
from ._ops import _into_out


def _search_error(message):
    return _C.Error(f"[searchsorted] {message}")


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, out=None,
                 sorter=None):
    if side is not None:
        if side not in ("left", "right"):
            raise _search_error(f"torch.searchsorted(): side can only be 'left' or 'right' but "
                                f"got {side}")
        if right and side == "left":
            raise _search_error("torch.searchsorted(): side and right can't be set to opposites, "
                                "got side of left while right was True")
        right = side == "right"
    seq = sorted_sequence if sorter is None else sorted_sequence.gather(-1, sorter)
    scalar = not isinstance(input, _C.Tensor)
    values = _C._tensor(input, None, seq.device, False, False) if scalar else input
    if seq.dim() == 0:
        raise _search_error("torch.searchsorted(): boundaries tensor should have positive "
                            "dimension, but got 0 dimension")
    if seq.dim() > 1 and (scalar or tuple(seq.shape[:-1]) != tuple(values.shape[:-1])):
        raise _search_error("torch.searchsorted(): boundaries tensor should be 1 dimension or "
                            "the first N-1 dimensions of boundaries tensor and input value "
                            f"tensor must match, but we got boundaries tensor {list(seq.shape)} "
                            f"and input value tensor {list(values.shape)}")
    # (..., K, 1) against (..., 1, M) for a batch of rows; (..., 1) against (M,) for one row.
    rows = seq.unsqueeze(-2) if seq.dim() > 1 else seq
    after = rows > values.unsqueeze(-1) if right else rows >= values.unsqueeze(-1)
    result = after.logical_not().sum(-1)  # Note [Search by counting]
    if out_int32:
        result = result.to(_C.int32)
    if out is not None:
        return _into_out("searchsorted", result, out, "same")
    return result


def bucketize(input, boundaries, *, out_int32=False, right=False, out=None):
    if boundaries.dim() != 1:
        raise _C.Error(f"[bucketize] boundaries tensor must be 1 dimension, but got dim("
                       f"{boundaries.dim()})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right, out=out)


def install(namespace):
    namespace["searchsorted"] = searchsorted
    namespace["bucketize"] = bucketize
