#!/usr/bin/env python3
"""Writes tests/fixtures/reduce_goldens.json: torch 1.13's results for issue 25's reductions
and scans, in gen_op_goldens.py's format (its golden(), inputs and TORCH_WORDING habit), kept
in a file of their own so that the op goldens and these regenerate independently. Run with
Debian's Python (torch 1.13):

    /usr/bin/python3 scripts/gen_reduce_goldens.py

tests/ops/reduce_golden_test.cpp reads "op" and "args":
  prod              [a]; {dim?, keepdim?, dtype?}
  all, any          [a]; {dim?, keepdim?}
  amax, amin        [a]; {dim (list), keepdim}
  aminmax           [a]; {dim?, keepdim}: outputs (min, max)
  var, std          [a]; {dim? (list), unbiased? | correction?, keepdim?}
  var_mean, std_mean   [a]; {dim (list), correction?, keepdim}: outputs (var or std, mean)
  vector_norm       [a]; {ord, dim (list), keepdim, dtype?}
  norm              [a]; {p, dim? (list), keepdim?}
  logsumexp         [a]; {dim (list), keepdim}
  count_nonzero     [a]; {dim (list)}
  cumsum, cumprod   [a]; {dim, dtype?}
  cummax, cummin    [a]; {dim}: outputs (values, indices)
  sort              [a]; {dim, descending}: outputs (values, indices)   argsort: the indices
  topk              [a]; {k, dim, largest}: outputs (values, indices)
  kthvalue          [a]; {k, dim, keepdim}: outputs (values, indices)
  median            [a]; {dim?, keepdim?}: with dim two outputs (values, indices)
  mode              [a]; {dim, keepdim}: outputs (values, indices)
  isclose, allclose [a, b]; {rtol, atol, equal_nan} (allclose: a 0-dim bool, tide's bool)
  equal             [a, b]: a 0-dim bool (tide's bool)
  unique            [a]; {return_inverse, return_counts}: outputs (values, inverse?, counts?)
  bincount          [a, weights?]; {minlength}
  histc             [a]; {bins, min, max}
"""

import json
import math
import os
import sys

import torch

import gen_op_goldens as g  # run as a script: its folder is on sys.path

OUT = os.path.join(g.ROOT, "tests", "fixtures", "reduce_goldens.json")

g.TORCH_WORDING.update({
    "prod_dim_out_of_range_rejected": "Dimension out of range",
    "amax_empty_dim_rejected": "Expected reduction dim 0 to have non-zero size",
    "amax_dim_out_of_range_rejected": "Dimension out of range",
    "amin_repeated_dim_rejected": "appears multiple times in the list of dims",
    "var_int64_rejected": "std and var only support floating point and complex dtypes",
    "cumsum_dim_out_of_range_rejected": "Dimension out of range",
    "vector_norm_int64_rejected": "Expected a floating point or complex tensor as input",
    "vector_norm_inf_empty_rejected": "cannot compute the inf norm on an empty tensor",
    "topk_k_too_large_rejected": "selected index k out of range",
    "kthvalue_k_out_of_range_rejected": "selected number k out of range",
    "isclose_dtype_mismatch_rejected": "did not match",
    "bincount_negative_rejected": "bincount only supports 1-d non-negative integral inputs",
    "bincount_2d_rejected": "bincount only supports 1-d non-negative integral inputs",
    "histc_int64_rejected": "not implemented for 'Long'",
})

golden = g.golden


def prod_cases():
    a = g.floats(3, 4, lo=-12, hi=13, scale=0.5)
    a[1, 2] = 0
    golden("prod_all", "prod", [a], {}, lambda: torch.prod(a))
    for dim in [0, 1, -1]:
        for keepdim in [False, True]:
            golden(f"prod_dim{dim + 3}_{keepdim}", "prod", [a], {"dim": dim, "keepdim": keepdim},
                   lambda dim=dim, keepdim=keepdim: torch.prod(a, dim, keepdim=keepdim))
    i = g.ints(2, 5, lo=-3, hi=4)
    golden("prod_int64", "prod", [i], {}, lambda: torch.prod(i))
    i32 = g.ints(2, 3, dtype=torch.int32, lo=-3, hi=4)
    golden("prod_int32_gives_int64", "prod", [i32], {"dim": 1, "keepdim": False}, lambda: torch.prod(i32, 1))
    b = g.bools(2, 3)
    golden("prod_bool_gives_int64", "prod", [b], {"dim": 0, "keepdim": False}, lambda: torch.prod(b, 0))
    golden("prod_int64_float_dtype", "prod", [i], {"dtype": "float64"}, lambda: torch.prod(i, dtype=torch.float64))
    h = g.floats(4, 3, dtype=torch.float16, lo=-8, hi=9, scale=0.25)
    golden("prod_float16_dim", "prod", [h], {"dim": 0, "keepdim": False}, lambda: torch.prod(h, 0))
    e = g.floats(0)
    golden("prod_empty_is_one", "prod", [e], {}, lambda: torch.prod(e))
    c = g.floats(2, 3, 4, lo=-6, hi=7, scale=0.5)
    golden("prod_3d_dim1", "prod", [c], {"dim": 1, "keepdim": True}, lambda: torch.prod(c, 1, keepdim=True))
    z = g.floats()
    golden("prod_zero_dim", "prod", [z], {"dim": 0, "keepdim": False}, lambda: torch.prod(z, 0))
    golden("prod_dim_out_of_range_rejected", "prod", [a], {"dim": 2, "keepdim": False}, lambda: torch.prod(a, 2))


def all_any_cases():
    f = g.floats(3, 4, lo=-1, hi=2)
    b = g.bools(3, 4)
    u = g.ints(2, 3, dtype=torch.uint8, lo=0, hi=2)
    e = g.floats(0, 3)
    ones = torch.ones(2, 3, dtype=torch.int32)
    for op in ["all", "any"]:
        fn = getattr(torch, op)
        golden(f"{op}_float", op, [f], {}, lambda fn=fn: fn(f))
        golden(f"{op}_bool", op, [b], {}, lambda fn=fn: fn(b))
        golden(f"{op}_int32_ones", op, [ones], {}, lambda fn=fn: fn(ones))
        golden(f"{op}_uint8_keeps_uint8", op, [u], {"dim": 1, "keepdim": False}, lambda fn=fn: fn(u, 1))
        golden(f"{op}_empty", op, [e], {}, lambda fn=fn: fn(e))
        golden(f"{op}_empty_dim0", op, [e], {"dim": 0, "keepdim": True}, lambda fn=fn: fn(e, 0, keepdim=True))
        for dim in [0, -1]:
            golden(f"{op}_float_dim{dim + 1}", op, [f], {"dim": dim, "keepdim": False},
                   lambda fn=fn, dim=dim: fn(f, dim))
            golden(f"{op}_bool_dim{dim + 1}_keepdim", op, [b], {"dim": dim, "keepdim": True},
                   lambda fn=fn, dim=dim: fn(b, dim, keepdim=True))


def amax_cases():
    a = g.floats(2, 3, 4, lo=-4, hi=5)  # ties on purpose: amax returns values only
    n = g.floats(2, 3)
    n[0, 1] = float("nan")
    i = g.ints(3, 4)
    for op in ["amax", "amin"]:
        fn = getattr(torch, op)
        golden(f"{op}_all", op, [a], {"dim": [], "keepdim": False}, lambda fn=fn: fn(a))
        golden(f"{op}_all_keepdim", op, [a], {"dim": [], "keepdim": True}, lambda fn=fn: fn(a, [], keepdim=True))
        golden(f"{op}_dim1", op, [a], {"dim": [1], "keepdim": False}, lambda fn=fn: fn(a, 1))
        golden(f"{op}_dims_0_2", op, [a], {"dim": [0, 2], "keepdim": False}, lambda fn=fn: fn(a, [0, 2]))
        golden(f"{op}_dims_m1_0_keepdim", op, [a], {"dim": [-1, 0], "keepdim": True},
               lambda fn=fn: fn(a, [-1, 0], keepdim=True))
        golden(f"{op}_nan", op, [n], {"dim": [1], "keepdim": False}, lambda fn=fn: fn(n, 1))
        golden(f"{op}_int64", op, [i], {"dim": [0], "keepdim": False}, lambda fn=fn: fn(i, 0))
        bb = g.bools(2, 3)
        golden(f"{op}_bool", op, [bb], {"dim": [1], "keepdim": False}, lambda fn=fn, bb=bb: fn(bb, 1))
    e = g.floats(0, 3)
    golden("amax_empty_dim_rejected", "amax", [e], {"dim": [0], "keepdim": False}, lambda: torch.amax(e, 0))
    golden("amax_empty_other_dim", "amax", [e], {"dim": [1], "keepdim": False}, lambda: torch.amax(e, 1))
    golden("amax_dim_out_of_range_rejected", "amax", [a], {"dim": [3], "keepdim": False}, lambda: torch.amax(a, 3))
    golden("amin_repeated_dim_rejected", "amin", [a], {"dim": [1, -2], "keepdim": False}, lambda: torch.amin(a, [1, -2]))
    golden("aminmax_all", "aminmax", [a], {"keepdim": False}, lambda: torch.aminmax(a))
    golden("aminmax_dim", "aminmax", [a], {"dim": 1, "keepdim": True}, lambda: torch.aminmax(a, dim=1, keepdim=True))
    golden("aminmax_int64_dim", "aminmax", [i], {"dim": -1, "keepdim": False}, lambda: torch.aminmax(i, dim=-1))


def var_std_cases():
    a = g.floats(3, 4)
    c = g.floats(2, 3, 4)
    for op in ["var", "std"]:
        fn = getattr(torch, op)
        golden(f"{op}_all", op, [a], {}, lambda fn=fn: fn(a))
        golden(f"{op}_all_biased", op, [a], {"unbiased": False}, lambda fn=fn: fn(a, unbiased=False))
        golden(f"{op}_dim1", op, [a], {"dim": [1], "unbiased": True, "keepdim": False}, lambda fn=fn: fn(a, 1))
        golden(f"{op}_dims_0_2_keepdim", op, [c], {"dim": [0, 2], "unbiased": False, "keepdim": True},
               lambda fn=fn: fn(c, [0, 2], unbiased=False, keepdim=True))
        for corr in [0, 1, 2]:
            golden(f"{op}_correction{corr}", op, [c], {"dim": [-1], "correction": corr, "keepdim": False},
                   lambda fn=fn, corr=corr: fn(c, -1, correction=corr))
        one = g.floats(3, 1)
        golden(f"{op}_single_element_is_nan", op, [one], {"dim": [1], "unbiased": True, "keepdim": False},
               lambda fn=fn, one=one: fn(one, 1))
        h = g.floats(4, 3, dtype=torch.float64)
        golden(f"{op}_float64", op, [h], {"dim": [0], "unbiased": True, "keepdim": False}, lambda fn=fn, h=h: fn(h, 0))
    i = g.ints(3)
    golden("var_int64_rejected", "var", [i], {}, lambda: torch.var(i))
    for op in ["var_mean", "std_mean"]:
        fn = getattr(torch, op)
        golden(f"{op}_dim", op, [c], {"dim": [1], "correction": 1, "keepdim": False}, lambda fn=fn: fn(c, 1))
        golden(f"{op}_all_keepdim_correction0", op, [c], {"dim": [], "correction": 0, "keepdim": True},
               lambda fn=fn: fn(c, None, correction=0, keepdim=True))


def norm_cases():
    a = g.floats(3, 4)
    a[0, 0] = 0
    c = g.floats(2, 3, 4)
    for ord_ in [2, 1, float("inf"), float("-inf"), 0, 3.0, 0.5]:
        tag = str(ord_).replace(".", "p").replace("-", "m")
        golden(f"vector_norm_{tag}", "vector_norm", [a], {"ord": ord_, "dim": [], "keepdim": False},
               lambda ord_=ord_: torch.linalg.vector_norm(a, ord_))
        golden(f"vector_norm_{tag}_dim1_keepdim", "vector_norm", [c], {"ord": ord_, "dim": [1], "keepdim": True},
               lambda ord_=ord_: torch.linalg.vector_norm(c, ord_, 1, keepdim=True))
    golden("vector_norm_dims_0_2", "vector_norm", [c], {"ord": 2, "dim": [0, 2], "keepdim": False},
           lambda: torch.linalg.vector_norm(c, 2, [0, 2]))
    golden("vector_norm_float64_dtype", "vector_norm", [a], {"ord": 2, "dim": [], "keepdim": False, "dtype": "float64"},
           lambda: torch.linalg.vector_norm(a, dtype=torch.float64))
    i = g.ints(3)
    golden("vector_norm_int64_rejected", "vector_norm", [i], {"ord": 2, "dim": [], "keepdim": False},
           lambda: torch.linalg.vector_norm(i))
    e = g.floats(0)
    golden("vector_norm_inf_empty_rejected", "vector_norm", [e],
           {"ord": float("inf"), "dim": [], "keepdim": False},
           lambda: torch.linalg.vector_norm(e, float("inf")))
    golden("norm_default", "norm", [a], {"p": 2}, lambda: torch.norm(a))
    golden("norm_p1_dim", "norm", [c], {"p": 1, "dim": [1], "keepdim": False}, lambda: torch.norm(c, 1, 1))
    golden("norm_fro_dims", "norm", [c], {"p": 2, "dim": [0, 1], "keepdim": True}, lambda: torch.norm(c, 2, [0, 1], keepdim=True))


def logsumexp_cases():
    a = g.floats(3, 4, lo=-80, hi=81, scale=2.0)  # exp overflows float32 without the max shift
    golden("logsumexp_dim1", "logsumexp", [a], {"dim": [1], "keepdim": False}, lambda: torch.logsumexp(a, 1))
    golden("logsumexp_dims_keepdim", "logsumexp", [a], {"dim": [0, 1], "keepdim": True},
           lambda: torch.logsumexp(a, [0, 1], keepdim=True))
    inf = torch.tensor([[float("-inf"), float("-inf")], [float("inf"), 1.0]])
    golden("logsumexp_infinities", "logsumexp", [inf], {"dim": [1], "keepdim": False}, lambda: torch.logsumexp(inf, 1))
    i = g.ints(2, 3)
    golden("logsumexp_int64", "logsumexp", [i], {"dim": [1], "keepdim": False}, lambda: torch.logsumexp(i, 1))


def count_nonzero_cases():
    a = g.floats(3, 4, lo=-1, hi=2)
    golden("count_nonzero_all", "count_nonzero", [a], {"dim": []}, lambda: torch.count_nonzero(a))
    golden("count_nonzero_dim", "count_nonzero", [a], {"dim": [0]}, lambda: torch.count_nonzero(a, 0))
    b = g.bools(2, 3, 2)
    golden("count_nonzero_dims", "count_nonzero", [b], {"dim": [0, 2]}, lambda: torch.count_nonzero(b, [0, 2]))


def scan_cases():
    a = g.floats(3, 4, lo=-8, hi=9, scale=0.5)
    a[1, 1] = 0
    i = g.ints(2, 5, lo=-3, hi=4)
    for op in ["cumsum", "cumprod"]:
        fn = getattr(torch, op)
        for dim in [0, 1, -1]:
            golden(f"{op}_dim{dim + 1}", op, [a], {"dim": dim}, lambda fn=fn, dim=dim: fn(a, dim))
        golden(f"{op}_int64", op, [i], {"dim": 1}, lambda fn=fn: fn(i, 1))
        i32 = g.ints(2, 3, dtype=torch.int32, lo=-3, hi=4)
        golden(f"{op}_int32_gives_int64", op, [i32], {"dim": 0}, lambda fn=fn, i32=i32: fn(i32, 0))
        b = g.bools(2, 3)
        golden(f"{op}_bool_gives_int64", op, [b], {"dim": 1}, lambda fn=fn, b=b: fn(b, 1))
        golden(f"{op}_int_float_dtype", op, [i], {"dim": 1, "dtype": "float64"},
               lambda fn=fn: fn(i, 1, dtype=torch.float64))
        z, e = g.floats(), g.floats(0, 3)
        golden(f"{op}_zero_dim", op, [z], {"dim": 0}, lambda fn=fn, z=z: fn(z, 0))
        golden(f"{op}_empty", op, [e], {"dim": 0}, lambda fn=fn, e=e: fn(e, 0))
        c = g.floats(2, 3, 4, lo=-4, hi=5, scale=0.5)
        golden(f"{op}_3d_dim1", op, [c], {"dim": 1}, lambda fn=fn, c=c: fn(c, 1))
    golden("cumsum_dim_out_of_range_rejected", "cumsum", [a], {"dim": 2}, lambda: torch.cumsum(a, 2))


def sort_cases():
    d = g.distinct(3, 5)
    t = torch.tensor([[2.0, 1.0, 2.0, float("nan"), 1.0, 0.5], [3.0, 3.0, -1.0, 3.0, float("nan"), float("nan")]])
    i = g.ints(2, 6, lo=-3, hi=4)
    for dim in [0, 1, -1]:
        for desc in [False, True]:
            tag = f"dim{dim + 1}_{'desc' if desc else 'asc'}"
            golden(f"sort_{tag}", "sort", [d], {"dim": dim, "descending": desc},
                   lambda dim=dim, desc=desc: torch.sort(d, dim, desc))
            golden(f"argsort_{tag}", "argsort", [d], {"dim": dim, "descending": desc},
                   lambda dim=dim, desc=desc: torch.argsort(d, dim, desc))
    for desc in [False, True]:
        tag = "desc" if desc else "asc"
        # ties and NaN: torch's stable sort (what tide's sort always is)
        golden(f"sort_ties_nan_{tag}", "sort", [t], {"dim": 1, "descending": desc},
               lambda desc=desc: torch.sort(t, stable=True, dim=1, descending=desc))
        golden(f"sort_int64_ties_{tag}", "sort", [i], {"dim": 1, "descending": desc},
               lambda desc=desc: torch.sort(i, stable=True, dim=1, descending=desc))
    b = g.bools(7)
    golden("sort_bool", "sort", [b], {"dim": 0, "descending": False}, lambda: torch.sort(b, stable=True, dim=0))
    z = g.floats()
    golden("sort_zero_dim", "sort", [z], {"dim": 0, "descending": False}, lambda: torch.sort(z, 0))
    golden("sort_dim_out_of_range_rejected", "sort", [d], {"dim": 2, "descending": False}, lambda: torch.sort(d, 2))
    for k in [0, 1, 3, 5]:
        for largest in [True, False]:
            golden(f"topk_k{k}_{'largest' if largest else 'smallest'}", "topk", [d],
                   {"k": k, "dim": 1, "largest": largest}, lambda k=k, largest=largest: torch.topk(d, k, 1, largest))
    golden("topk_dim0", "topk", [d], {"k": 2, "dim": 0, "largest": True}, lambda: torch.topk(d, 2, 0))
    golden("topk_k_too_large_rejected", "topk", [d], {"k": 6, "dim": 1, "largest": True}, lambda: torch.topk(d, 6, 1))
    # k == 1 is a max/min reduction in tide (Note [topk of one]). Lines of 64 or more: there
    # torch's cpu topk(1) is a heap selection that keeps the first of equal values and the
    # first NaN, as tide does (on shorter lines torch's nth_element picks among ties as it
    # happens to, so ties there are not compared).
    nan = float("nan")
    line = [1.0] * 30 + [7.0] + [3.0] * 10 + [7.0] * 5 + [-3.0] + [2.0] * 20 + [-3.0] * 3
    lines = torch.tensor([line, line[:30] + [nan] + line[31:40] + [nan] + line[41:],
                          [nan if v == 2.0 else v for v in line]])
    int_lines = torch.tensor([[int(v) for v in line], [int(-v) for v in line]])
    for largest in [True, False]:
        tag = "largest" if largest else "smallest"
        golden(f"topk_k1_ties_nan_{tag}", "topk", [lines], {"k": 1, "dim": 1, "largest": largest},
               lambda largest=largest: torch.topk(lines, 1, 1, largest))
        golden(f"topk_k1_int64_ties_{tag}", "topk", [int_lines], {"k": 1, "dim": 1, "largest": largest},
               lambda largest=largest: torch.topk(int_lines, 1, 1, largest))
        golden(f"topk_k1_dim0_{tag}", "topk", [d], {"k": 1, "dim": 0, "largest": largest},
               lambda largest=largest: torch.topk(d, 1, 0, largest))
        golden(f"topk_k1_columns_ties_nan_{tag}", "topk", [lines.t().contiguous()],
               {"k": 1, "dim": 0, "largest": largest},
               lambda largest=largest: torch.topk(lines.t().contiguous(), 1, 0, largest))
    scalar, no_rows = torch.tensor(2.5), torch.zeros(0, 3)
    golden("topk_k1_zero_dim", "topk", [scalar], {"k": 1, "dim": 0, "largest": True},
           lambda: torch.topk(scalar, 1, 0))
    golden("topk_k1_no_lines", "topk", [no_rows], {"k": 1, "dim": 1, "largest": True},
           lambda: torch.topk(no_rows, 1, 1))
    golden("topk_k1_negative_dim", "topk", [d], {"k": 1, "dim": -1, "largest": True},
           lambda: torch.topk(d, 1, -1))
    all_nan = torch.tensor([[nan, nan, nan], [nan, 1.0, nan]])
    golden("topk_k1_all_nan_smallest", "topk", [all_nan], {"k": 1, "dim": 1, "largest": False},
           lambda: torch.topk(all_nan, 1, 1, False))
    golden("topk_k1_empty_dim_rejected", "topk", [no_rows], {"k": 1, "dim": 0, "largest": True},
           lambda: torch.topk(no_rows, 1, 0))
    for k in [1, 3, 5]:
        for keepdim in [False, True]:
            golden(f"kthvalue_k{k}_{keepdim}", "kthvalue", [d], {"k": k, "dim": 1, "keepdim": keepdim},
                   lambda k=k, keepdim=keepdim: torch.kthvalue(d, k, 1, keepdim))
    ties = torch.tensor([1.0, 2.0, 2.0, 2.0, 3.0])
    golden("kthvalue_ties", "kthvalue", [ties], {"k": 3, "dim": 0, "keepdim": False}, lambda: torch.kthvalue(ties, 3))
    golden("kthvalue_k_out_of_range_rejected", "kthvalue", [d], {"k": 6, "dim": 1, "keepdim": False},
           lambda: torch.kthvalue(d, 6, 1))
    even = g.distinct(3, 4)
    golden("median_all_odd", "median", [d], {}, lambda: torch.median(d))
    golden("median_all_even_lower", "median", [even], {}, lambda: torch.median(even))
    for dim in [0, 1]:
        for keepdim in [False, True]:
            golden(f"median_dim{dim}_{keepdim}", "median", [even], {"dim": dim, "keepdim": keepdim},
                   lambda dim=dim, keepdim=keepdim: torch.median(even, dim, keepdim))
    nan = torch.tensor([[1.0, float("nan"), 0.0, float("nan"), 2.0], [4.0, 1.0, 3.0, 2.0, 0.0]])
    golden("median_nan_dim", "median", [nan], {"dim": 1, "keepdim": False}, lambda: torch.median(nan, 1))
    golden("median_nan_all", "median", [nan], {}, lambda: torch.median(nan))
    golden("median_int64_dim", "median", [i], {"dim": 1, "keepdim": False}, lambda: torch.median(i, 1))
    e = g.floats(0)
    golden("median_empty_is_nan", "median", [e], {}, lambda: torch.median(e))
    m = torch.tensor([[1.0, 3.0, 3.0, 1.0, 2.0], [2.0, 2.0, 5.0, 5.0, 5.0], [4.0, 3.0, 2.0, 1.0, 0.0]])
    golden("mode_dim1", "mode", [m], {"dim": 1, "keepdim": False}, lambda: torch.mode(m, 1))
    golden("mode_dim0_keepdim", "mode", [m], {"dim": 0, "keepdim": True}, lambda: torch.mode(m, 0, True))
    golden("mode_int64", "mode", [i], {"dim": -1, "keepdim": False}, lambda: torch.mode(i, -1))
    c = torch.tensor([[1.0, 3.0, 3.0, float("nan"), 2.0, float("nan"), 4.0], [0.0, -1.0, -1.0, 2.0, -3.0, 5.0, 5.0]])
    for op in ["cummax", "cummin"]:
        fn = getattr(torch, op)
        golden(f"{op}_dim1", op, [c], {"dim": 1}, lambda fn=fn: fn(c, 1))
        golden(f"{op}_dim0", op, [d], {"dim": 0}, lambda fn=fn: fn(d, 0))
        golden(f"{op}_int64", op, [i], {"dim": 1}, lambda fn=fn: fn(i, 1))


def compare_count_cases():
    a = torch.tensor([1.0, 2.0, float("nan"), float("inf"), 1e-9, 100.0, float("-inf")])
    b = torch.tensor([1.0, 2.00001, float("nan"), float("inf"), 0.0, 100.5, float("inf")])
    for equal_nan in [False, True]:
        golden(f"isclose_default_{equal_nan}", "isclose", [a, b], {"rtol": 1e-5, "atol": 1e-8, "equal_nan": equal_nan},
               lambda equal_nan=equal_nan: torch.isclose(a, b, equal_nan=equal_nan))
    golden("isclose_loose", "isclose", [a, b], {"rtol": 0.01, "atol": 0.0, "equal_nan": False},
           lambda: torch.isclose(a, b, rtol=0.01, atol=0.0))
    ia, ib = torch.tensor([1, 2, 100]), torch.tensor([1, 3, 101])
    golden("isclose_int64", "isclose", [ia, ib], {"rtol": 0.01, "atol": 0.0, "equal_nan": False},
           lambda: torch.isclose(ia, ib, rtol=0.01, atol=0.0))
    golden("isclose_dtype_mismatch_rejected", "isclose", [a[:3], ia], {"rtol": 1e-5, "atol": 1e-8, "equal_nan": False},
           lambda: torch.isclose(a[:3], ia))
    golden("allclose_false", "allclose", [a, b], {"rtol": 1e-5, "atol": 1e-8, "equal_nan": True},
           lambda: torch.tensor(torch.allclose(a, b, equal_nan=True)))
    golden("allclose_true", "allclose", [a[:2], b[:2]], {"rtol": 1e-4, "atol": 1e-8, "equal_nan": False},
           lambda: torch.tensor(torch.allclose(a[:2], b[:2], rtol=1e-4)))
    golden("equal_same", "equal", [ia, ia.clone()], {}, lambda: torch.tensor(torch.equal(ia, ia.clone())))
    golden("equal_values_differ", "equal", [ia, ib], {}, lambda: torch.tensor(torch.equal(ia, ib)))
    golden("equal_shapes_differ", "equal", [ia, ia[:2]], {}, lambda: torch.tensor(torch.equal(ia, ia[:2])))
    golden("equal_dtypes_promote", "equal", [ia.double(), ia], {}, lambda: torch.tensor(torch.equal(ia.double(), ia)))
    u = torch.tensor([[3, 1, 3], [2, 1, 7]])
    for inv in [False, True]:
        for cnt in [False, True]:
            golden(f"unique_inverse{int(inv)}_counts{int(cnt)}", "unique", [u],
                   {"return_inverse": inv, "return_counts": cnt},
                   lambda inv=inv, cnt=cnt: torch.unique(u, return_inverse=inv, return_counts=cnt))
    uf = torch.tensor([2.5, -1.0, 2.5, 0.0, -1.0])
    golden("unique_float", "unique", [uf], {"return_inverse": True, "return_counts": True},
           lambda: torch.unique(uf, return_inverse=True, return_counts=True))
    golden("unique_empty", "unique", [g.floats(0)], {"return_inverse": False, "return_counts": True},
           lambda: torch.unique(torch.zeros(0), return_counts=True))
    x = torch.tensor([0, 2, 2, 5, 1])
    w = torch.tensor([0.5, 1.0, 1.5, 2.0, -1.0])
    golden("bincount_plain", "bincount", [x], {"minlength": 0}, lambda: torch.bincount(x))
    golden("bincount_minlength", "bincount", [x], {"minlength": 8}, lambda: torch.bincount(x, minlength=8))
    golden("bincount_weights", "bincount", [x, w], {"minlength": 0}, lambda: torch.bincount(x, w))
    golden("bincount_weights_float64", "bincount", [x, w.double()], {"minlength": 2}, lambda: torch.bincount(x, w.double(), 2))
    e = torch.zeros(0, dtype=torch.int64)
    golden("bincount_empty", "bincount", [e], {"minlength": 0}, lambda: torch.bincount(e))
    golden("bincount_negative_rejected", "bincount", [torch.tensor([1, -1])], {"minlength": 0},
           lambda: torch.bincount(torch.tensor([1, -1])))
    golden("bincount_2d_rejected", "bincount", [u], {"minlength": 0}, lambda: torch.bincount(u))
    # No NaN: torch 1.13's cpu histc converts NaN's bin position to an integer (undefined
    # behaviour; it lands in bin 0 on x86); tide leaves NaN out, as values outside the range.
    h = torch.tensor([1.0, 2.0, 1.0, 5.0, -1.0, 3.0])
    golden("histc_range", "histc", [h], {"bins": 4, "min": 0, "max": 3}, lambda: torch.histc(h, 4, 0, 3))
    hf = h
    golden("histc_data_range", "histc", [hf], {"bins": 5, "min": 0, "max": 0}, lambda: torch.histc(hf, 5))
    golden("histc_float64", "histc", [hf.double()], {"bins": 3, "min": -2, "max": 6}, lambda: torch.histc(hf.double(), 3, -2, 6))
    golden("histc_int64_rejected", "histc", [x], {"bins": 4, "min": 0, "max": 3}, lambda: torch.histc(x, 4, 0, 3))


def main():
    prod_cases()
    all_any_cases()
    amax_cases()
    var_std_cases()
    norm_cases()
    logsumexp_cases()
    count_nonzero_cases()
    scan_cases()
    sort_cases()
    compare_count_cases()
    goldens = g.GOLDENS
    for x in goldens:  # JSON cannot hold inf: ord is written as torch's string for it
        if isinstance(x["args"].get("ord"), float) and math.isinf(x["args"]["ord"]):
            x["args"]["ord"] = "inf" if x["args"]["ord"] > 0 else "-inf"
    with open(OUT, "w") as f:
        json.dump(goldens, f, separators=(",", ":"), allow_nan=False)
        f.write("\n")
    raised = {x["name"] for x in goldens if "raises" in x}
    assert {k for k in g.TORCH_WORDING if k in {x["name"] for x in goldens}} <= raised
    print(f"wrote {len(goldens)} reduction goldens to {OUT} with torch {torch.__version__}")


if __name__ == "__main__":
    sys.exit(main())
