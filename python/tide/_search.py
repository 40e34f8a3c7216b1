"""torch.searchsorted and torch.bucketize: tide's C++ ops (a binary search per value, Note
[searchsorted] in src/ops/search.cpp), with torch's out= (Note [out= by copy])."""

from . import _C
from ._ops import _into_out


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, out=None,
                 sorter=None):
    result = _C._searchsorted(sorted_sequence, input, out_int32, right, side, sorter)
    return result if out is None else _into_out("searchsorted", result, out, "same")


def bucketize(input, boundaries, *, out_int32=False, right=False, out=None):
    result = _C._bucketize(input, boundaries, out_int32, right)
    return result if out is None else _into_out("bucketize", result, out, "same")


def install(namespace):
    namespace["searchsorted"] = searchsorted
    namespace["bucketize"] = bucketize
