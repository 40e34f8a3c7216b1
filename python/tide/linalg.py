"""tide.linalg: torch.linalg's vector_norm, norm and matrix_norm (the orders that need no
decomposition: 'fro', 1, -1, inf, -inf; 'nuc', 2 and -2 need an SVD tide does not have yet),
and cross. The rest of torch.linalg is not in tide yet."""

import math

from . import _C
from ._ops import _into_out
from ._reductions import vector_norm as _vector_norm

__all__ = ["vector_norm", "matrix_norm", "norm", "cross"]


def _with_out(function, name):
    """function with torch's out= (Note [out= by copy]); torch.linalg writes its own dtype."""
    def op(*args, out=None, **kwargs):
        result = function(*args, **kwargs)
        return result if out is None else _into_out(f"linalg.{name}", result, out, "same")
    op.__name__ = op.__qualname__ = name
    op.__doc__ = function.__doc__
    return op


def _cross(input, other, *, dim=-1):
    return _C._linalg_cross(input, other, dim)


def _matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    """The matrix norm over the two dims `dim`: 'fro', or 1, -1, inf, -inf (the largest or
    smallest column or row sum of absolute values)."""
    if dtype is not None:
        A = A.to(dtype)
    if A.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    d0, d1 = (d % A.dim() for d in dim)
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dim[0]}, "
                           f"{dim[1]})")
    if ord == "fro":
        return _vector_norm(A, 2, [d0, d1], keepdim)
    if ord in ("nuc", 2, -2):
        raise NotImplementedError(f"linalg.matrix_norm: ord={ord!r} needs a singular value "
                                  f"decomposition, which tide does not have yet; use 'fro', 1, "
                                  f"-1, inf or -inf")
    if ord not in (1, -1, math.inf, -math.inf):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    # 1/-1: sums down the columns (over d0), then the max/min over d1; inf/-inf the other way.
    summed, picked = (d0, d1) if abs(ord) == 1 else (d1, d0)
    sums = A.abs().sum(summed, keepdim=True)
    out = sums.amax(picked, keepdim=True) if ord > 0 else sums.amin(picked, keepdim=True)
    if not keepdim:
        out = out.squeeze(max(d0, d1)).squeeze(min(d0, d1))
    return out


def _norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """torch.linalg.norm: a vector norm over one dim (or the flattened A when ord and dim are
    None), a matrix norm over two."""
    if isinstance(dim, int):
        dim = (dim,)
    if dim is None and ord is not None:
        if A.dim() not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input "
                               f"must be 1D or 2D. Got {A.dim()}D.")
        dim = tuple(range(A.dim()))
    if dim is not None and len(dim) == 2:
        return _matrix_norm(A, "fro" if ord is None else ord, dim, keepdim, dtype=dtype)
    return _vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype)


cross = _with_out(_cross, "cross")
vector_norm = _with_out(_vector_norm, "vector_norm")
matrix_norm = _with_out(_matrix_norm, "matrix_norm")
norm = _with_out(_norm, "norm")
