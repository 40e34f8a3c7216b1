#!/usr/bin/env python3
"""Writes tests/fixtures/indexing_goldens.json: torch 1.13's results for advanced indexing and
the masked ops (Note [Advanced indexing] in src/ops/indexing.cpp). A file of its own beside
op_goldens.json, in the same format (scripts/gen_op_goldens.py's docstring), so the indexing
family regenerates without touching the others' goldens. Run with Debian's Python:

    /usr/bin/python3 scripts/gen_indexing_goldens.py

tests/ops/indexing_golden_test.cpp (C++) and tests/python/test_indexing.py read "op" and "args":

  index             inputs [self, index tensors...]; args {indices: per entry "t" (the next
                    input) or null (None)}
  index_put         inputs [self, index tensors..., values]; args {indices, accumulate}
  nonzero, where_cond   inputs [a]
  take              inputs [a, index]
  put               inputs [a, index, source]; args {accumulate}
  masked_select     inputs [a, mask]
  masked_fill       inputs [a, mask]; args {value}     masked_fill_tensor: [a, mask, value]
  masked_scatter    inputs [a, mask, source]
  gather            inputs [a, index]; args {dim}
  scatter, scatter_add   inputs [a, index, src]; args {dim}   scatter_value: [a, index], {dim, value}
  scatter_reduce    inputs [a, index, src]; args {dim, reduce, include_self}
  index_add         inputs [a, index, source]; args {dim, alpha}
  index_copy        inputs [a, index, source]; args {dim}
  index_fill        inputs [a, index]; args {dim, value}
  searchsorted      inputs [sorted_sequence, values (, sorter)]; args {out_int32, right, side
                    (null: None)}; searchsorted_scalar: inputs [sorted_sequence (, sorter)],
                    args also {value}
  bucketize         inputs [values, boundaries]; args {out_int32, right};
                    bucketize_scalar: inputs [boundaries], args also {value}
  getitem           inputs [self, tensors...]; args {key}: Python's self[key]   (Python only)
  setitem           inputs [self, tensors..., value?]; args {key, value?}: self[key] = value,
                    outputs [self after]; a number value is args' "value"      (Python only)
A key is a list of entries: an int, null (None), "..." (Ellipsis), {"slice": [start, stop,
step]} or {"t": k} (inputs[k]).
"""

import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_op_goldens import tensor_json  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "indexing_goldens.json")

GOLDENS = []
_gen = torch.Generator().manual_seed(20261126)


def golden(name, op, inputs, args, fn):
    assert all(c.isalnum() or c == "_" for c in name), name
    assert name not in {g["name"] for g in GOLDENS}, name
    g = {"name": name, "op": op, "inputs": [tensor_json(t) for t in inputs], "args": args}
    try:
        out = fn()
    except (RuntimeError, IndexError, ValueError, TypeError) as e:
        g["raises"] = str(e).split("\n")[0]
        g["error_type"] = type(e).__name__
    else:
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        g["outputs"] = [tensor_json(o) for o in outs]
    GOLDENS.append(g)


def floats(*shape, dtype=torch.float32):
    return (torch.randint(-24, 25, shape, generator=_gen).double() * 0.125).to(dtype)


def ints(*shape, dtype=torch.int64):
    return torch.randint(-50, 50, shape, generator=_gen).to(dtype)


def key_of(entries, tensors):
    """The Python key for `entries` (see the docstring) and its JSON form."""
    key, spec = [], []
    for e in entries:
        if isinstance(e, torch.Tensor):
            spec.append({"t": 1 + len(tensors)})
            tensors.append(e)
            key.append(e)
        elif isinstance(e, slice):
            spec.append({"slice": [e.start, e.stop, e.step]})
            key.append(e)
        elif e is Ellipsis:
            spec.append("...")
            key.append(e)
        else:
            spec.append(e)
            key.append(e)
    return tuple(key), spec


def index_cases():
    x = floats(3, 4, 5)
    i = torch.tensor([2, 0, -1])
    j = torch.tensor([[1, 3], [0, 0]])
    golden("index_first_dim", "index", [x, i], {"indices": ["t"]}, lambda: x[i])
    golden("index_two_adjacent", "index", [x, i, torch.tensor([3, 1, 0])], {"indices": ["t", "t"]},
           lambda: x[i, torch.tensor([3, 1, 0])])
    golden("index_middle_dim", "index", [x, j], {"indices": [None, "t"]}, lambda: x[:, j])
    golden("index_separated_dims", "index", [x, i, torch.tensor([4, 0, 2])],
           {"indices": ["t", None, "t"]}, lambda: x[i, :, torch.tensor([4, 0, 2])])
    golden("index_broadcast_indices", "index", [x, j, torch.tensor([2])],
           {"indices": [None, "t", "t"]}, lambda: x[:, j, torch.tensor([2])])
    m = x[:, :, 0] > 0
    golden("index_mask_two_dims", "index", [x, m], {"indices": ["t"]}, lambda: x[m])
    m1 = torch.tensor([True, False, True, True])
    golden("index_mask_middle", "index", [x, m1], {"indices": [None, "t"]}, lambda: x[:, m1])
    golden("index_mask_and_int", "index", [x, m1, torch.tensor([0, 4, 1])],
           {"indices": [None, "t", "t"]}, lambda: x[:, m1, torch.tensor([0, 4, 1])])
    xi = ints(4, 3)
    golden("index_int64_self", "index", [xi, torch.tensor([3, 3, 0])], {"indices": ["t"]},
           lambda: xi[torch.tensor([3, 3, 0])])
    xb = floats(4, 3) > 0
    golden("index_bool_self", "index", [xb, torch.tensor([1, -4])], {"indices": ["t"]},
           lambda: xb[torch.tensor([1, -4])])
    golden("index_empty_index", "index", [x, torch.tensor([], dtype=torch.int64)],
           {"indices": ["t"]}, lambda: x[torch.tensor([], dtype=torch.int64)])
    golden("index_all_false_mask", "index", [x, torch.zeros(3, dtype=torch.bool)],
           {"indices": ["t"]}, lambda: x[torch.zeros(3, dtype=torch.bool)])
    golden("index_out_of_range_rejected", "index", [x, torch.tensor([0, 3])], {"indices": ["t"]},
           lambda: x[torch.tensor([0, 3])])
    golden("index_negative_out_of_range_rejected", "index", [x, torch.tensor([-6])],
           {"indices": [None, "t"]}, lambda: x[:, torch.tensor([-6])])
    golden("index_mask_shape_mismatch_rejected", "index", [x, torch.tensor([True, False])],
           {"indices": ["t"]}, lambda: x[torch.tensor([True, False])])
    golden("index_float_index_rejected", "index", [x, torch.tensor([0.0])], {"indices": ["t"]},
           lambda: x[torch.tensor([0.0])])
    golden("index_unbroadcastable_rejected", "index", [x, i, torch.tensor([0, 1])],
           {"indices": ["t", "t"]}, lambda: x[i, torch.tensor([0, 1])])


def index_put_cases():
    x = floats(3, 4)
    i = torch.tensor([2, 0])
    v = floats(2, 4)
    golden("index_put_rows", "index_put", [x, i, v], {"indices": ["t"], "accumulate": False},
           lambda: x.index_put((i,), v))
    dup = torch.tensor([1, 1, 2, 1])
    vd = floats(4)
    golden("index_put_accumulate_repeats", "index_put", [x, torch.tensor([0, 0, 2, 0]), dup, vd],
           {"indices": ["t", "t"], "accumulate": True},
           lambda: x.index_put((torch.tensor([0, 0, 2, 0]), dup), vd, accumulate=True))
    golden("index_put_broadcast_value", "index_put",
           [x, torch.tensor([[0], [2]]), torch.tensor([3, -1]), torch.tensor(2.5)],
           {"indices": ["t", "t"], "accumulate": False},
           lambda: x.index_put((torch.tensor([[0], [2]]), torch.tensor([3, -1])), torch.tensor(2.5)))
    m = x > 0
    golden("index_put_mask", "index_put", [x, m, torch.tensor(0.0)],
           {"indices": ["t"], "accumulate": False}, lambda: x.index_put((m,), torch.tensor(0.0)))
    xi, vi = ints(3, 4), ints(2, 4)
    golden("index_put_int64_accumulate", "index_put", [xi, i, vi],
           {"indices": ["t"], "accumulate": True}, lambda: xi.index_put((i,), vi, accumulate=True))
    v64 = floats(2, 4, dtype=torch.float64)
    golden("index_put_dtype_mismatch_rejected", "index_put", [x, i, v64],
           {"indices": ["t"], "accumulate": False}, lambda: x.index_put((i,), v64))
    v3 = floats(3)
    golden("index_put_shape_mismatch_rejected", "index_put", [x, i, v3],
           {"indices": ["t"], "accumulate": False}, lambda: x.index_put((i,), v3))


def mask_cases():
    a = floats(3, 4)
    m = a > 0
    golden("nonzero_2d", "nonzero", [a], {}, lambda: torch.nonzero(a))
    golden("nonzero_bool", "nonzero", [m], {}, lambda: torch.nonzero(m))
    golden("nonzero_int64_1d", "nonzero", [torch.tensor([0, 3, 0, -1])], {},
           lambda: torch.nonzero(torch.tensor([0, 3, 0, -1])))
    golden("nonzero_0d", "nonzero", [torch.tensor(2.0)], {}, lambda: torch.nonzero(torch.tensor(2.0)))
    golden("nonzero_empty", "nonzero", [torch.zeros(0, 3)], {}, lambda: torch.nonzero(torch.zeros(0, 3)))
    golden("where_cond_2d", "where_cond", [a], {}, lambda: torch.where(a))
    golden("take_2d", "take", [a, torch.tensor([[0, 11], [-1, 5]])], {},
           lambda: torch.take(a, torch.tensor([[0, 11], [-1, 5]])))
    golden("take_transposed", "take", [a.t(), torch.tensor([1, 4, 6])], {},
           lambda: torch.take(a.t(), torch.tensor([1, 4, 6])))
    golden("take_out_of_range_rejected", "take", [a, torch.tensor([12])], {},
           lambda: torch.take(a, torch.tensor([12])))
    golden("take_int32_index_rejected", "take", [a, torch.tensor([1], dtype=torch.int32)], {},
           lambda: torch.take(a, torch.tensor([1], dtype=torch.int32)))
    src = floats(3)
    golden("put_overwrite", "put", [a, torch.tensor([0, -1, 5]), src], {"accumulate": False},
           lambda: a.put(torch.tensor([0, -1, 5]), src))
    golden("put_accumulate", "put", [a, torch.tensor([5, 5, 1]), src], {"accumulate": True},
           lambda: a.put(torch.tensor([5, 5, 1]), src, accumulate=True))
    golden("put_size_mismatch_rejected", "put", [a, torch.tensor([0, 1]), src], {"accumulate": False},
           lambda: a.put(torch.tensor([0, 1]), src))
    golden("masked_select_2d", "masked_select", [a, m], {}, lambda: torch.masked_select(a, m))
    row = torch.tensor([True, False, False, True])
    golden("masked_select_broadcast", "masked_select", [a, row], {},
           lambda: torch.masked_select(a, row))
    golden("masked_select_int_mask_rejected", "masked_select", [a, m.long()], {},
           lambda: torch.masked_select(a, m.long()))
    golden("masked_fill_scalar", "masked_fill", [a, m], {"value": -1.5},
           lambda: a.masked_fill(m, -1.5))
    ai = ints(3, 4)
    golden("masked_fill_int64_float_value", "masked_fill", [ai, row], {"value": 2.75},
           lambda: ai.masked_fill(row, 2.75))
    golden("masked_fill_tensor_value", "masked_fill_tensor", [a, m, torch.tensor(7.0, dtype=torch.float64)],
           {}, lambda: a.masked_fill(m, torch.tensor(7.0, dtype=torch.float64)))
    golden("masked_fill_1d_value_rejected", "masked_fill_tensor", [a, m, torch.tensor([7.0])], {},
           lambda: a.masked_fill(m, torch.tensor([7.0])))
    s = floats(12)
    golden("masked_scatter_2d", "masked_scatter", [a, m, s], {}, lambda: a.masked_scatter(m, s))
    golden("masked_scatter_broadcast_mask", "masked_scatter", [a, row, s], {},
           lambda: a.masked_scatter(row, s))
    ones, s5 = torch.ones(3, 4, dtype=torch.bool), floats(5)
    golden("masked_scatter_short_source_rejected", "masked_scatter", [a, ones, s5], {},
           lambda: a.masked_scatter(ones, s5))


def along_dim_cases():
    a = floats(3, 4)
    g = torch.tensor([[0, 2], [1, 1], [2, 0]])
    golden("gather_dim1", "gather", [a, g], {"dim": 1}, lambda: torch.gather(a, 1, g))
    g0 = torch.tensor([[2, 0, 1, 1], [0, 0, 2, 1]])
    golden("gather_dim0", "gather", [a, g0], {"dim": 0}, lambda: torch.gather(a, 0, g0))
    golden("gather_negative_dim", "gather", [a, g], {"dim": -1}, lambda: torch.gather(a, -1, g))
    ai = ints(2, 3, 2)
    gi = torch.tensor([[[1], [0]], [[2], [2]]])
    golden("gather_3d_int64", "gather", [ai, gi], {"dim": 1}, lambda: torch.gather(ai, 1, gi))
    golden("gather_out_of_range_rejected", "gather", [a, torch.tensor([[4]])], {"dim": 1},
           lambda: torch.gather(a, 1, torch.tensor([[4]])))
    golden("gather_negative_index_rejected", "gather", [a, torch.tensor([[-1]])], {"dim": 1},
           lambda: torch.gather(a, 1, torch.tensor([[-1]])))
    golden("gather_int32_index_rejected", "gather", [a, g.int()], {"dim": 1},
           lambda: torch.gather(a, 1, g.int()))
    golden("gather_rank_mismatch_rejected", "gather", [a, torch.tensor([0])], {"dim": 1},
           lambda: torch.gather(a, 1, torch.tensor([0])))
    # gather's own kernel (Note [A gather of its own]) at its edges; explicit inputs, so the
    # random ones of the cases after these stay as they were.
    one, zero = torch.tensor([1.5]), torch.tensor([0])
    golden("gather_one_element", "gather", [one, zero], {"dim": 0}, lambda: torch.gather(one, 0, zero))
    scalar, scalar_index = torch.tensor(2.5), torch.tensor(0)
    golden("gather_zero_dim", "gather", [scalar, scalar_index], {"dim": 0},
           lambda: torch.gather(scalar, 0, scalar_index))
    no_index = torch.zeros(3, 0, dtype=torch.int64)
    golden("gather_empty_index", "gather", [a, no_index], {"dim": 1},
           lambda: torch.gather(a, 1, no_index))
    flags = torch.tensor([[True, False, False], [False, True, True]])
    flag_index = torch.tensor([[2, 2, 0], [1, 0, 1]])
    golden("gather_bool", "gather", [flags, flag_index], {"dim": 1},
           lambda: torch.gather(flags, 1, flag_index))
    halves = a.to(torch.float16)
    golden("gather_float16_dim0", "gather", [halves, g0], {"dim": 0},
           lambda: torch.gather(halves, 0, g0))
    later_bad = torch.tensor([[0, 1], [5, 0], [0, 9]])
    golden("gather_first_bad_index_named_rejected", "gather", [a, later_bad], {"dim": 1},
           lambda: torch.gather(a, 1, later_bad))
    empty_self, index_into_empty = torch.zeros(3, 0), torch.zeros(3, 1, dtype=torch.int64)
    golden("gather_from_empty_rejected", "gather", [empty_self, index_into_empty], {"dim": 1},
           lambda: torch.gather(empty_self, 1, index_into_empty))
    src = floats(3, 3)
    # No index repeats within a row: which of two writes to one place wins is undefined on a
    # GPU (torch says so; the H200's first run took the other one). scatter_value writes one
    # value and scatter_add sums, so repeats stay in those.
    gu = torch.tensor([[0, 2], [1, 3], [2, 0]])
    golden("scatter_dim1", "scatter", [a, gu, src], {"dim": 1}, lambda: a.scatter(1, gu, src))
    g1, src2 = torch.tensor([[2, 0, 1, 0]]), src.reshape(-1)[:8].reshape(2, 4)
    golden("scatter_dim0_larger_src", "scatter", [a, g1, src2], {"dim": 0},
           lambda: a.scatter(0, g1, src2))
    golden("scatter_value", "scatter_value", [a, g], {"dim": 1, "value": -3.5},
           lambda: a.scatter(1, g, -3.5))
    golden("scatter_add_repeats", "scatter_add", [a, g, src], {"dim": 1},
           lambda: a.scatter_add(1, g, src))
    srci = ints(2, 2, 1)
    golden("scatter_add_int64", "scatter_add", [ai, gi, srci], {"dim": 1},
           lambda: ai.scatter_add(1, gi, srci))
    golden("scatter_dtype_mismatch_rejected", "scatter", [a, g, src.double()], {"dim": 1},
           lambda: a.scatter(1, g, src.double()))
    rows = floats(2, 4)
    idx = torch.tensor([2, 0])
    golden("index_add_dim0", "index_add", [a, idx, rows], {"dim": 0, "alpha": 1},
           lambda: a.index_add(0, idx, rows))
    golden("index_add_repeats_alpha", "index_add", [a, torch.tensor([1, 1]), rows],
           {"dim": 0, "alpha": 2}, lambda: a.index_add(0, torch.tensor([1, 1]), rows, alpha=2))
    cols = floats(3, 3)
    golden("index_add_dim1_int32", "index_add", [a, torch.tensor([3, 0, 3], dtype=torch.int32), cols],
           {"dim": 1, "alpha": 1}, lambda: a.index_add(1, torch.tensor([3, 0, 3], dtype=torch.int32), cols))
    golden("index_add_out_of_range_rejected", "index_add", [a, torch.tensor([3, 0]), rows],
           {"dim": 0, "alpha": 1}, lambda: a.index_add(0, torch.tensor([3, 0]), rows))
    golden("index_add_shape_mismatch_rejected", "index_add", [a, idx, cols],
           {"dim": 0, "alpha": 1}, lambda: a.index_add(0, idx, cols))
    golden("index_copy_dim0", "index_copy", [a, idx, rows], {"dim": 0}, lambda: a.index_copy(0, idx, rows))
    golden("index_copy_dim1", "index_copy", [a, torch.tensor([1, 3, 0]), cols], {"dim": 1},
           lambda: a.index_copy(1, torch.tensor([1, 3, 0]), cols))
    golden("index_fill_dim1", "index_fill", [a, torch.tensor([0, 2])], {"dim": 1, "value": 9.0},
           lambda: a.index_fill(1, torch.tensor([0, 2]), 9.0))
    golden("index_fill_int64_self", "index_fill", [ai, torch.tensor([1])], {"dim": 2, "value": 7},
           lambda: ai.index_fill(2, torch.tensor([1]), 7))
    golden("index_fill_out_of_range_rejected", "index_fill", [a, torch.tensor([5])], {"dim": 1, "value": 0.0},
           lambda: a.index_fill(1, torch.tensor([5]), 0.0))


def scatter_reduce_cases():
    """Generated after the others (main's last call), so their random inputs stay as they were.
    Values are multiples of 1/8, so sums and products are exact in any order (a GPU adds
    repeated indices in its own order)."""
    def every_reduce(prefix, a, g, src):
        for reduce in ["sum", "prod", "mean", "amax", "amin"]:
            for include_self in [True, False]:
                args = {"dim": 1, "reduce": reduce, "include_self": include_self}
                golden(f"{prefix}_{reduce}_{'self' if include_self else 'no_self'}",
                       "scatter_reduce", [a, g, src], args,
                       lambda: a.scatter_reduce(1, g, src, reduce, include_self=include_self))

    a, src = floats(3, 4), floats(3, 3)
    g = torch.tensor([[0, 2, 0], [1, 1, 1], [3, 0, 3]])  # repeats in every row; column 1 of row 0 untouched
    every_reduce("scatter_reduce", a, g, src)
    g0 = torch.tensor([[2, 0, 2, 1], [2, 2, 0, 1]])
    src0 = floats(2, 5)  # larger than index: only its leading part is read
    golden("scatter_reduce_mean_dim0_larger_src", "scatter_reduce", [a, g0, src0],
           {"dim": 0, "reduce": "mean", "include_self": True},
           lambda: a.scatter_reduce(0, g0, src0, "mean"))
    golden("scatter_reduce_amax_negative_dim", "scatter_reduce", [a, g, src],
           {"dim": -1, "reduce": "amax", "include_self": False},
           lambda: a.scatter_reduce(-1, g, src, "amax", include_self=False))
    ai, srci = ints(2, 3, 2), ints(2, 2, 2)
    gi = torch.tensor([[[1, 2], [1, 2]], [[0, 0], [0, 0]]])
    every_reduce("scatter_reduce_int64", ai, gi, srci)
    ab = torch.tensor([[True, False, True], [False, False, True]])
    gb = torch.tensor([[0, 0, 1], [2, 1, 1]])
    sb = torch.tensor([[False, True, False], [True, False, False]])
    for reduce in ["sum", "prod", "amax", "amin"]:
        golden(f"scatter_reduce_bool_{reduce}", "scatter_reduce", [ab, gb, sb],
               {"dim": 1, "reduce": reduce, "include_self": True},
               lambda: ab.scatter_reduce(1, gb, sb, reduce))
    golden("scatter_reduce_bool_amin_no_self", "scatter_reduce", [ab, gb, sb],
           {"dim": 1, "reduce": "amin", "include_self": False},
           lambda: ab.scatter_reduce(1, gb, sb, "amin", include_self=False))
    nan = float("nan")
    an = torch.tensor([1.0, nan, 3.0, -2.0])
    gn, sn = torch.tensor([0, 0, 2, 3]), torch.tensor([nan, 2.0, 1.0, -4.0])
    for reduce in ["amax", "amin"]:
        golden(f"scatter_reduce_{reduce}_nan", "scatter_reduce", [an, gn, sn],
               {"dim": 0, "reduce": reduce, "include_self": True},
               lambda: an.scatter_reduce(0, gn, sn, reduce))
    a0, g00, s0 = torch.tensor(2.5), torch.tensor(0), torch.tensor(-1.5)
    golden("scatter_reduce_0dim_prod", "scatter_reduce", [a0, g00, s0],
           {"dim": 0, "reduce": "prod", "include_self": True},
           lambda: a0.scatter_reduce(0, g00, s0, "prod"))
    golden("scatter_reduce_bad_reduce_rejected", "scatter_reduce", [a, g, src],
           {"dim": 1, "reduce": "max", "include_self": True},
           lambda: a.scatter_reduce(1, g, src, "max"))
    golden("scatter_reduce_dtype_mismatch_rejected", "scatter_reduce", [a, g, src.double()],
           {"dim": 1, "reduce": "sum", "include_self": True},
           lambda: a.scatter_reduce(1, g, src.double(), "sum"))
    golden("scatter_reduce_out_of_range_rejected", "scatter_reduce", [a, g + 2, src],
           {"dim": 1, "reduce": "amax", "include_self": True},
           lambda: a.scatter_reduce(1, g + 2, src, "amax"))
    golden("scatter_reduce_int32_index_rejected", "scatter_reduce", [a, g.int(), src],
           {"dim": 1, "reduce": "sum", "include_self": True},
           lambda: a.scatter_reduce(1, g.int(), src, "sum"))
    golden("scatter_reduce_bool_mean_rejected", "scatter_reduce", [ab, gb, sb],
           {"dim": 1, "reduce": "mean", "include_self": True},
           lambda: ab.scatter_reduce(1, gb, sb, "mean"))


def python_cases():
    """Python's x[key] and x[key] = value (tests/python/test_indexing.py)."""
    x = floats(3, 4, 5)

    def get(name, entries):
        tensors = []
        key, spec = key_of(entries, tensors)
        golden(name, "getitem", [x] + tensors, {"key": spec}, lambda: x[key])

    i = torch.tensor([2, 0])
    get("getitem_mask", [x > 0])
    get("getitem_mask_first_dim", [torch.tensor([True, False, True])])
    get("getitem_slice_then_index", [slice(None, None, None), torch.tensor([3, 1])])
    get("getitem_index_slice_index", [i, slice(None, None, None), torch.tensor([4, 1])])
    get("getitem_int_then_tensor", [1, slice(None, None, None), torch.tensor([0, 2])])
    get("getitem_int_between_tensors", [i, 1, torch.tensor([0, 2])])
    get("getitem_ellipsis_tensor", [Ellipsis, torch.tensor([0, 4])])
    get("getitem_none_and_tensor", [None, i, slice(1, 3, None)])
    get("getitem_two_tensors_adjacent", [slice(None, None, None), torch.tensor([0, 3]), torch.tensor([1, 1])])
    get("getitem_mask_and_slice", [slice(None, 2, None), torch.tensor([True, False, False, True])])
    get("getitem_2d_index", [torch.tensor([[0, 1], [2, 2]])])
    get("getitem_out_of_range_rejected", [torch.tensor([3])])

    def put(name, entries, value):
        tensors = []
        key, spec = key_of(entries, tensors)
        args = {"key": spec}
        inputs = [x] + tensors
        if isinstance(value, torch.Tensor):
            inputs.append(value)
        else:
            args["value"] = value

        def run():
            y = x.clone()
            y[key] = value
            return y
        golden(name, "setitem", inputs, args, run)

    put("setitem_mask_number", [x > 0], 0.0)
    put("setitem_mask_tensor_broadcast", [x[:, :, 0] > 0], floats(5))
    put("setitem_index_rows", [i], floats(2, 4, 5))
    put("setitem_separated_dims", [i, slice(None, None, None), torch.tensor([4, 0])], -2.0)
    put("setitem_mask_other_dtype_value", [x > 0.5], torch.tensor(3, dtype=torch.int64))
    put("setitem_column_index", [slice(None, None, None), torch.tensor([1, 3])], floats(3, 2, 5))
    put("setitem_shape_mismatch_rejected", [i], floats(3, 4, 5))


def search_cases():
    row = torch.tensor([1.0, 3.0, 3.0, 5.0, 7.0])
    values = torch.tensor([[0.0, 3.0, 4.0], [7.0, 8.0, float("nan")]])
    rows = torch.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]])

    def search(name, inputs, out_int32=False, right=False, side=None):
        args = {"out_int32": out_int32, "right": right, "side": side}
        sorter = inputs[2] if len(inputs) > 2 else None
        golden(name, "searchsorted", inputs, args,
               lambda: torch.searchsorted(inputs[0], inputs[1], out_int32=out_int32, right=right,
                                          side=side, sorter=sorter))

    for right in (False, True):
        search(f"searchsorted_row_right_{right}", [row, values], right=right)
        search(f"searchsorted_rows_right_{right}", [rows, values], right=right)
    search("searchsorted_out_int32", [row, values], out_int32=True)
    search("searchsorted_side_right", [row, values], side="right")
    unsorted, order = torch.tensor([5, 1, 3]), torch.tensor([1, 2, 0])
    search("searchsorted_sorter", [unsorted, torch.tensor([0, 3, 6]), order], side="right")
    search("searchsorted_int_sequence_float_values", [torch.tensor([1, 2, 3]),
                                                      torch.tensor([1.5, 2.0, 9.0])])
    search("searchsorted_float64_3d", [torch.tensor([[[1.0, 2.0], [0.0, 9.0]]], dtype=torch.float64),
                                       torch.tensor([[[1.5], [9.0]]], dtype=torch.float64)])
    search("searchsorted_empty_sequence", [torch.tensor([]), torch.tensor([1.0, -1.0])])
    search("searchsorted_leading_dims_rejected", [rows, torch.tensor([1.0, 2.0])])
    search("searchsorted_opposite_side_rejected", [row, values], right=True, side="left")
    search("searchsorted_int32_sorter_rejected", [unsorted, torch.tensor([2]), order.int()])
    for value in (3, 2.5):
        golden(f"searchsorted_scalar_{str(value).replace('.', '_')}", "searchsorted_scalar",
               [row], {"out_int32": False, "right": True, "side": None, "value": value},
               lambda: torch.searchsorted(row, value, right=True))
    golden("searchsorted_scalar_rows_rejected", "searchsorted_scalar", [rows],
           {"out_int32": False, "right": False, "side": None, "value": 1.0},
           lambda: torch.searchsorted(rows, 1.0))
    boundaries = torch.tensor([1, 3, 5, 7, 9])
    for right in (False, True):
        v = torch.tensor([[3, 6, 9], [3, 6, 10]])
        golden(f"bucketize_right_{right}", "bucketize", [v, boundaries],
               {"out_int32": right, "right": right},
               lambda: torch.bucketize(v, boundaries, out_int32=right, right=right))
    golden("bucketize_scalar", "bucketize_scalar", [boundaries],
           {"out_int32": False, "right": False, "value": 4},
           lambda: torch.bucketize(4, boundaries))
    golden("bucketize_2d_boundaries_rejected", "bucketize", [row, rows],
           {"out_int32": False, "right": False},
           lambda: torch.bucketize(row, rows))


def main():
    index_cases()
    index_put_cases()
    mask_cases()
    along_dim_cases()
    python_cases()
    scatter_reduce_cases()
    search_cases()
    write_goldens(OUT, "indexing")


def write_goldens(path, what):
    """Writes GOLDENS to path as compact JSON and says how many (gen_shape_goldens.py too)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(GOLDENS, f, separators=(",", ":"), allow_nan=False)
        f.write("\n")
    raises = sum(1 for g in GOLDENS if "raises" in g)
    print(f"wrote {len(GOLDENS)} {what} goldens ({raises} rejected calls) to {path} "
          f"with torch {torch.__version__}")


if __name__ == "__main__":
    sys.exit(main())
