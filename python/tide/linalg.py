"""tide.linalg: torch.linalg's vector_norm, norm and matrix_norm (the orders that need no
decomposition: 'fro', 1, -1, inf, -inf; 'nuc', 2 and -2 need an SVD tide does not have yet),
and cross. The rest of torch.linalg is not in tide yet."""

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


def _refuse_singular_values(ord, where):
    """Python's NotImplementedError for the orders tide cannot compute yet (C++ raises
    tide::Error for them): a program that falls back on such an error keeps working."""
    if ord == "nuc" or (not isinstance(ord, str) and ord in (2, -2)):
        raise NotImplementedError(f"{where}: ord={ord!r} needs a singular value decomposition, "
                                  "which tide does not have yet; use 'fro', 1, -1, inf or -inf")


def _matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    """The matrix norm over the two dims `dim`: 'fro', or 1, -1, inf, -inf (the largest or
    smallest column or row sum of absolute values); C++'s linalg_matrix_norm."""
    _refuse_singular_values(ord, "linalg.matrix_norm")
    return A._matrix_norm(ord, dim, keepdim, dtype)


def _norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """torch.linalg.norm: a vector norm over one dim (or the flattened A when ord and dim are
    None), a matrix norm over two; C++'s linalg_norm."""
    matrix = (isinstance(ord, str) or (dim is None and ord is not None and A.dim() == 2)
              or (dim is not None and not isinstance(dim, int) and len(dim) == 2))
    if matrix:
        _refuse_singular_values(ord, "linalg.norm")
    return A._linalg_norm(ord, dim, keepdim, dtype)


cross = _with_out(_cross, "cross")
vector_norm = _with_out(_vector_norm, "vector_norm")
matrix_norm = _with_out(_matrix_norm, "matrix_norm")
norm = _with_out(_norm, "norm")
