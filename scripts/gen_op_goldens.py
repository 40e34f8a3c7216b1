#!/usr/bin/env python3
"""Writes tests/fixtures/op_goldens.json: inputs and torch's outputs for tide's ops.

Run with a Python that has torch (Debian: /usr/bin/python3 with python3-torch, torch 1.13):

    /usr/bin/python3 scripts/gen_op_goldens.py

Each golden is
    {"name", "op", "inputs": [tensor...], "args": {...}, "outputs": [tensor...]}
or, for a call torch rejects, {"name", "op", "inputs", "args", "raises": torch's message,
"message"?: the words of it tide must repeat (TORCH_WORDING)}.
A tensor is {"dtype", "shape", "values"}: values flat and row-major, non-finite floats as the
strings "nan", "inf", "-inf". Input values are exactly representable in their dtype; float32
outputs are written in their shortest round-trip form. tests/ops/torch_golden_test.cpp reads
"op" and "args" as follows:

  add, sub          inputs [a, b]; args {alpha?}
  add_scalar, sub_scalar   inputs [a]; args {other, alpha?}
  mul, div          inputs [a, b]   mul_scalar, div_scalar: [a], {other}
  pow               inputs [a, b]   pow_scalar: [a], {exponent}   scalar_pow: [b], {base}
  maximum, minimum  inputs [a, b]
  eq ne lt le gt ge inputs [a, b]   eq_scalar ... ge_scalar: [a], {other}
  where             inputs [condition, a, b]   where_scalar_other: [condition, a], {other}
  clamp             inputs [a]; args {min?, max?}
  neg abs exp log sqrt relu sigmoid tanh   inputs [a]
  sum, mean         inputs [a]; args {dim? (int or list), keepdim?, dtype?}
  max, min          inputs [a]; args {dim?, keepdim?}: with dim two outputs (values, indices)
  argmax, argmin    inputs [a]; args {dim?, keepdim?}
  matmul            inputs [a, b]
  softmax, log_softmax   inputs [a]; args {dim}
  cat, stack        inputs [tensors...]; args {dim}
  index_select      inputs [a, index]; args {dim}
  nll_loss, cross_entropy   inputs [input, target, weight?]; args {reduction, ignore_index?,
                    label_smoothing? (cross_entropy)}
  mse_loss, l1_loss inputs [input, target]; args {reduction}
  smooth_l1_loss, huber_loss   inputs [input, target]; args {reduction, beta / delta}
  binary_cross_entropy   inputs [input, target, weight?]; args {reduction}
  binary_cross_entropy_with_logits   inputs [input, target, weight?, pos_weight?];
                    args {reduction, weight: bool, pos_weight: bool} (which are present)
  kl_div            inputs [input, target]; args {reduction, log_target}
  margin_ranking_loss, cosine_embedding_loss   inputs [input1, input2, target];
                    args {reduction, margin}
  gelu              inputs [a]; args {approximate}
  silu, mish        inputs [a]
  softplus          inputs [a]; args {beta, threshold}
  leaky_relu        inputs [a]; args {negative_slope}
  elu               inputs [a]; args {alpha}
  hardtanh          inputs [a]; args {min_val, max_val}
  prelu             inputs [a, weight]
  layer_norm        inputs [a, weight?, bias?]; args {normalized_shape, eps}
  group_norm        inputs [a, weight?, bias?]; args {num_groups, eps}
  embedding         inputs [weight, indices]; args {padding_idx (-1: none)}
  one_hot           inputs [indices]; args {num_classes}
  normalize         inputs [a]; args {p, dim}
  cosine_similarity inputs [x1, x2]; args {dim}
  pairwise_distance inputs [x1, x2]; args {p, keepdim}
  table:NAME        the op table's sample NAME (`samples` in src/ops/ops.yaml: "sin",
                    "lerp.Scalar"), inputs its tensor operands, the Scalars from the table
  table_inplace:NAME   the same, in place on a copy of inputs[0]
  table_out:NAME    the same into out; args {out_dtype, out_shape}

Scalars keep their JSON type: 2 is an integer Scalar, 2.0 a floating one (this matters for
type promotion, as in torch).
"""

import json
import math
import os
import re
import sys

import numpy as np
import torch
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "op_goldens.json")

from golden_dtypes import DTYPES, DTYPE_NAMES  # run as a script: its folder is on sys.path


def float_json(v, dtype):
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if dtype == torch.float64:
        return v
    # Shortest decimal that rounds back to the same float32 (half/bfloat16 widen exactly).
    f = np.float32(v)
    short = float(repr(f))
    assert np.float32(short) == f, (v, short)
    return short


def tensor_json(t):
    t = t.detach().contiguous()
    flat = t.reshape(-1)
    if t.dtype.is_floating_point:
        values = [float_json(v, t.dtype) for v in flat.double().tolist()]
    else:
        values = flat.tolist()
    return {"dtype": DTYPE_NAMES[t.dtype], "shape": list(t.shape), "values": values}


GOLDENS = []

# For rejected calls whose wording users know from torch: the part of torch's message tide must
# repeat (after its "[function] " prefix). Other rejections only require a tide::Error.
TORCH_WORDING = {
    "sub_bools_rejected": "with two bool tensors is not supported",
    "sub_bool_int64": "with a bool tensor is not supported",
    "sub_bool_float32": "with a bool tensor is not supported",
    "neg_bool": "on a bool tensor is not supported",
    "add_broadcast_mismatch_rejected": "must match the size of tensor b (4) at non-singleton dimension 1",
    "sum_dim_out_of_range_rejected": "Dimension out of range",
    "mean_dim_out_of_range_rejected": "Dimension out of range",
    "softmax_dim_out_of_range_rejected": "Dimension out of range",
    "log_softmax_dim_out_of_range_rejected": "Dimension out of range",
    "mean_int64_rejected": "could not infer output dtype",
    "max_empty_rejected": "Expected reduction dim to be specified for input.numel() == 0",
    "min_empty_rejected": "Expected reduction dim to be specified for input.numel() == 0",
    "matmul_shape_mismatch_rejected": "shapes cannot be multiplied (3x4 and 5x2)",
    "cat_shape_mismatch_rejected": "Sizes of tensors must match except in dimension 0",
    "stack_shape_mismatch_rejected": "stack expects each tensor to be equal size",
    "index_select_out_of_range_rejected": "index out of range in self",
    "index_select_float_index_rejected": "Expected dtype int32 or int64 for index",
    "cross_entropy_target_out_of_range_rejected": "Target 5 is out of bounds",
    "cross_entropy_batch_mismatch_rejected": "Expected input batch_size (4) to match target batch_size (3)",
    "cross_entropy_probabilities_ignore_index_rejected": "ignore_index is not supported for floating point target",
    "cross_entropy_label_smoothing_above_one_rejected": "label_smoothing must be between 0.0 and 1.0. Got: 1.5",
    "binary_cross_entropy_out_of_range_rejected": "all elements of input should be between 0 and 1",
    "smooth_l1_loss_negative_beta_rejected": "smooth_l1_loss does not support negative values for beta.",
    "huber_loss_zero_delta_rejected": "huber_loss does not support non-positive values for delta.",
    "cosine_embedding_loss_2d_target_rejected": "0D or 1D target tensor expected, multi-target not supported",
    "prelu_channel_mismatch_rejected": "Mismatch of parameter numbers and input channel size.",
    "one_hot_too_small_rejected": "Class values must be smaller than num_classes.",
}


def golden(name, op, inputs, args, fn):
    assert all(c.isalnum() or c == "_" for c in name), name
    assert name not in {g["name"] for g in GOLDENS}, name
    g = {"name": name, "op": op, "inputs": [tensor_json(t) for t in inputs], "args": args}
    try:
        out = fn()
    except (RuntimeError, IndexError, ValueError) as e:
        g["raises"] = str(e).split("\n")[0]
        if name in TORCH_WORDING:
            assert TORCH_WORDING[name] in g["raises"], (name, g["raises"])
            g["message"] = TORCH_WORDING[name]
    else:
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        g["outputs"] = [tensor_json(o) for o in outs]
    GOLDENS.append(g)


# ---- deterministic inputs: small multiples of 1/8 (exact in every float dtype), no ties for
# max/min/argmax so that every correct implementation picks the same index.

_gen = torch.Generator().manual_seed(20240601)


def floats(*shape, dtype=torch.float32, lo=-24, hi=25, scale=0.125):
    return (torch.randint(lo, hi, shape, generator=_gen).double() * scale).to(dtype)


def distinct(*shape, dtype=torch.float32):
    n = int(np.prod(shape)) if shape else 1
    perm = torch.randperm(n, generator=_gen).double() - n // 2
    return (perm * 0.25).reshape(shape).to(dtype)


def ints(*shape, dtype=torch.int64, lo=-9, hi=10):
    return torch.randint(lo, hi, shape, generator=_gen).to(dtype)


def bools(*shape):
    return torch.randint(0, 2, shape, generator=_gen).bool()


def positive(*shape, dtype=torch.float32):
    return floats(*shape, dtype=dtype, lo=1, hi=33)


def binary_cases():
    pairs = [
        ("same_shape_float", floats(2, 3), floats(2, 3)),
        ("broadcast_row", floats(3, 4), floats(4)),
        ("broadcast_column", floats(3, 1), floats(1, 4)),
        ("broadcast_3d", floats(2, 1, 3), floats(4, 1)),
        ("int64_int64", ints(5), ints(5)),
        ("int64_float32", ints(2, 3), floats(3)),
        ("int32_int64", ints(4, dtype=torch.int32), ints(4)),
        ("int32_float32", ints(2, 2, dtype=torch.int32), floats(2, 2)),
        ("bool_int64", bools(6), ints(6)),
        ("bool_float32", bools(2, 3), floats(2, 3)),
        ("float32_float64", floats(3), floats(3, dtype=torch.float64)),
        ("zero_dim_and_vector", floats(), floats(4)),
        ("zero_dim_int64_does_not_promote_float32", ints(), floats(3)),
        ("zero_dim_float64_does_not_promote_float32", floats(dtype=torch.float64), floats(3)),
        ("zero_dim_float32_promotes_int64", floats(), ints(3)),
        ("empty", floats(0, 3), floats(3)),
    ]
    for op, fn in [("add", torch.add), ("sub", torch.sub), ("mul", torch.mul)]:
        for name, a, b in pairs:
            if op == "sub" and (a.dtype == torch.bool and b.dtype == torch.bool):
                continue
            golden(f"{op}_{name}", op, [a, b], {}, lambda a=a, b=b: fn(a, b))
    a, b = ints(4), ints(4)
    golden("add_alpha_int", "add", [a, b], {"alpha": 3}, lambda: torch.add(a, b, alpha=3))
    a, b = floats(2, 3), floats(3)
    golden("add_alpha_float", "add", [a, b], {"alpha": 0.5}, lambda: torch.add(a, b, alpha=0.5))
    golden("sub_alpha_float", "sub", [a, b], {"alpha": -2.5}, lambda: torch.sub(a, b, alpha=-2.5))
    b1, b2 = bools(3), bools(3)
    golden("sub_bools_rejected", "sub", [b1, b2], {}, lambda: torch.sub(b1, b2))
    m1, m2 = floats(2, 3), floats(4)
    golden("add_broadcast_mismatch_rejected", "add", [m1, m2], {}, lambda: torch.add(m1, m2))

    # true division: integers divide to float32
    div_pairs = [
        ("float", floats(2, 3), floats(2, 3, lo=1, hi=20)),
        ("int64", ints(6), ints(6, lo=1, hi=7)),
        ("int64_by_zero", torch.tensor([1, -1, 0]), torch.tensor([0, 0, 0])),
        ("float_by_zero", torch.tensor([1.0, -1.0, 0.0]), torch.tensor([0.0, 0.0, 0.0])),
        ("int32_float32_broadcast", ints(3, 1, dtype=torch.int32), floats(4, lo=1, hi=9)),
        ("bool_int64", bools(4), ints(4, lo=1, hi=5)),
    ]
    for name, a, b in div_pairs:
        golden(f"div_{name}", "div", [a, b], {}, lambda a=a, b=b: torch.div(a, b))

    scalar_cases = [
        ("float_tensor_int_scalar", floats(2, 3), 2),
        ("float_tensor_float_scalar", floats(2, 3), 0.5),
        ("int64_tensor_int_scalar", ints(4), 3),
        ("int64_tensor_float_scalar", ints(4), 2.5),
        ("int32_tensor_int_scalar", ints(4, dtype=torch.int32), -4),
        ("bool_tensor_int_scalar", bools(4), 2),
        ("float64_tensor_float_scalar", floats(3, dtype=torch.float64), 0.75),
    ]
    for op, fn in [("add_scalar", torch.add), ("sub_scalar", torch.sub), ("mul_scalar", torch.mul),
                   ("div_scalar", torch.div)]:
        for name, a, s in scalar_cases:
            if op == "sub_scalar" and a.dtype == torch.bool:
                continue
            golden(f"{op}_{name}", op, [a], {"other": s}, lambda a=a, s=s: fn(a, s))
    a = floats(3)
    golden("add_scalar_alpha", "add_scalar", [a], {"other": 2, "alpha": 3}, lambda: torch.add(a, 2, alpha=3))


def pow_cases():
    a, b = positive(2, 3), floats(2, 3, lo=-3, hi=4)
    golden("pow_float_float", "pow", [a, b], {}, lambda: torch.pow(a, b))
    a, b = ints(5, lo=-3, hi=4), ints(5, lo=0, hi=4)
    golden("pow_int64_int64", "pow", [a, b], {}, lambda: torch.pow(a, b))
    a, b = ints(2, 3, lo=1, hi=5), floats(3, lo=-2, hi=3)
    golden("pow_int64_float_broadcast", "pow", [a, b], {}, lambda: torch.pow(a, b))
    a = floats(4)
    golden("pow_scalar_int", "pow_scalar", [a], {"exponent": 2}, lambda: torch.pow(a, 2))
    golden("pow_scalar_half", "pow_scalar", [a.abs()], {"exponent": 0.5}, lambda: torch.pow(a.abs(), 0.5))
    golden("pow_scalar_negative_base_fraction", "pow_scalar", [torch.tensor([-4.0, 4.0])], {"exponent": 0.5},
           lambda: torch.pow(torch.tensor([-4.0, 4.0]), 0.5))
    a = ints(4, lo=0, hi=5)
    golden("pow_scalar_int64_int", "pow_scalar", [a], {"exponent": 3}, lambda: torch.pow(a, 3))
    golden("pow_scalar_int64_float", "pow_scalar", [a], {"exponent": 0.5}, lambda: torch.pow(a, 0.5))
    b = floats(4, lo=-3, hi=4)
    golden("scalar_pow_float", "scalar_pow", [b], {"base": 2.0}, lambda: torch.pow(2.0, b))
    b = ints(4, lo=0, hi=5)
    golden("scalar_pow_int64", "scalar_pow", [b], {"base": 3}, lambda: torch.pow(3, b))


def max_min_cases():
    nan = float("nan")
    pairs = [
        ("float", floats(2, 3), floats(2, 3)),
        ("broadcast", floats(3, 1), floats(4)),
        ("int64", ints(5), ints(5)),
        ("int32_int64", ints(4, dtype=torch.int32), ints(4)),
        ("int64_float32", ints(4), floats(4)),
        ("nan_propagates", torch.tensor([nan, 1.0, 2.0]), torch.tensor([0.0, nan, 1.0])),
        ("bool", bools(4), bools(4)),
    ]
    for op, fn in [("maximum", torch.maximum), ("minimum", torch.minimum)]:
        for name, a, b in pairs:
            golden(f"{op}_{name}", op, [a, b], {}, lambda a=a, b=b, fn=fn: fn(a, b))


def comparison_cases():
    nan = float("nan")
    a = floats(3, 4, lo=-3, hi=4)
    pairs = [
        ("float", a, floats(3, 4, lo=-3, hi=4)),
        ("broadcast", a, floats(4, lo=-3, hi=4)),
        ("int64_float32", ints(3, 4, lo=-2, hi=3), floats(4, lo=-2, hi=3, scale=0.5)),
        ("int32_int64", ints(6, dtype=torch.int32, lo=-2, hi=3), ints(6, lo=-2, hi=3)),
        ("bool", bools(5), bools(5)),
        ("nan", torch.tensor([nan, 1.0, nan]), torch.tensor([nan, nan, 1.0])),
    ]
    for op in ["eq", "ne", "lt", "le", "gt", "ge"]:
        fn = getattr(torch, op)
        for name, x, y in pairs:
            golden(f"{op}_{name}", op, [x, y], {}, lambda x=x, y=y, fn=fn: fn(x, y))
        golden(f"{op}_scalar_float", f"{op}_scalar", [a], {"other": 0.5}, lambda fn=fn: fn(a, 0.5))
        i = ints(5, lo=-2, hi=3)
        golden(f"{op}_scalar_int64_float_scalar", f"{op}_scalar", [i], {"other": 0.5},
               lambda fn=fn, i=i: fn(i, 0.5))
        golden(f"{op}_scalar_int64_int_scalar", f"{op}_scalar", [i], {"other": 1}, lambda fn=fn, i=i: fn(i, 1))


def where_cases():
    c = bools(2, 3)
    a, b = floats(2, 3), floats(2, 3)
    golden("where_float", "where", [c, a, b], {}, lambda: torch.where(c, a, b))
    c2, a2, b2 = bools(3, 1), floats(4), floats(3, 4)
    golden("where_broadcast", "where", [c2, a2, b2], {}, lambda: torch.where(c2, a2, b2))
    a3, b3 = ints(2, 3), floats(3)
    golden("where_int64_float32", "where", [c, a3, b3], {}, lambda: torch.where(c, a3, b3))
    a4, b4 = ints(2, 3, dtype=torch.int32), ints(2, 3)
    golden("where_int32_int64", "where", [c, a4, b4], {}, lambda: torch.where(c, a4, b4))
    golden("where_scalar_other_float", "where_scalar_other", [c, a], {"other": 0.0},
           lambda: torch.where(c, a, 0.0))
    golden("where_scalar_other_int_with_float", "where_scalar_other", [c, a], {"other": 2},
           lambda: torch.where(c, a, 2))


def clamp_cases():
    a = floats(2, 4)
    golden("clamp_min_max_float", "clamp", [a], {"min": -1.0, "max": 1.5}, lambda: torch.clamp(a, -1.0, 1.5))
    golden("clamp_min_only", "clamp", [a], {"min": 0.0}, lambda: torch.clamp(a, min=0.0))
    golden("clamp_max_only", "clamp", [a], {"max": 0.25}, lambda: torch.clamp(a, max=0.25))
    golden("clamp_float_int_bounds", "clamp", [a], {"min": -1, "max": 1}, lambda: torch.clamp(a, -1, 1))
    i = ints(6)
    golden("clamp_int64_int_bounds", "clamp", [i], {"min": -2, "max": 3}, lambda: torch.clamp(i, -2, 3))
    golden("clamp_int64_float_bound", "clamp", [i], {"min": 0.5}, lambda: torch.clamp(i, min=0.5))
    golden("clamp_min_above_max", "clamp", [a], {"min": 1.0, "max": -1.0}, lambda: torch.clamp(a, 1.0, -1.0))
    nan = float("nan")
    n = torch.tensor([nan, -3.0, 3.0])
    golden("clamp_nan_stays_nan", "clamp", [n], {"min": -1.0, "max": 1.0}, lambda: torch.clamp(n, -1.0, 1.0))


def unary_cases():
    nan, inf = float("nan"), float("inf")
    special = torch.tensor([0.0, -0.0, 1.0, -1.0, inf, -inf, nan, 80.0, -80.0])
    wide = floats(3, 4, lo=-40, hi=41)
    for op in ["neg", "abs", "exp", "log", "sqrt", "relu", "sigmoid", "tanh"]:
        fn = getattr(torch, op)
        golden(f"{op}_float", op, [wide], {}, lambda fn=fn: fn(wide))
        golden(f"{op}_special_values", op, [special], {}, lambda fn=fn: fn(special))
        golden(f"{op}_float64", op, [wide.double()], {}, lambda fn=fn: fn(wide.double()))
        i = ints(5, lo=-4, hi=5)
        golden(f"{op}_int64", op, [i], {}, lambda fn=fn, i=i: fn(i))
        i32 = ints(4, dtype=torch.int32, lo=-4, hi=5)
        golden(f"{op}_int32", op, [i32], {}, lambda fn=fn, i32=i32: fn(i32))
        z = floats()
        golden(f"{op}_zero_dim", op, [z], {}, lambda fn=fn, z=z: fn(z))
        if op in ("abs", "neg"):
            b = bools(3)
            golden(f"{op}_bool", op, [b], {}, lambda fn=fn, b=b: fn(b))


def reduction_cases():
    a = floats(3, 4)
    c = floats(2, 3, 4)
    for op in ["sum", "mean"]:
        fn = getattr(torch, op)
        golden(f"{op}_all", op, [a], {}, lambda fn=fn: fn(a))
        golden(f"{op}_all_3d", op, [c], {}, lambda fn=fn: fn(c))
        for dim in [0, 1, -1]:
            for keepdim in [False, True]:
                k = "keepdim" if keepdim else "dropdim"
                d = f"m{-dim}" if dim < 0 else str(dim)
                golden(f"{op}_dim{d}_{k}", op, [a], {"dim": dim, "keepdim": keepdim},
                       lambda fn=fn, dim=dim, keepdim=keepdim: fn(a, dim, keepdim=keepdim))
        golden(f"{op}_3d_dim1", op, [c], {"dim": 1, "keepdim": False}, lambda fn=fn: fn(c, 1))
        golden(f"{op}_3d_dims_0_2", op, [c], {"dim": [0, 2], "keepdim": False}, lambda fn=fn: fn(c, [0, 2]))
        golden(f"{op}_3d_dims_m1_0_keepdim", op, [c], {"dim": [-1, 0], "keepdim": True},
               lambda fn=fn: fn(c, [-1, 0], keepdim=True))
        golden(f"{op}_float64_dtype", op, [a], {"dtype": "float64"}, lambda fn=fn: fn(a, dtype=torch.float64))
        z = floats()
        golden(f"{op}_zero_dim", op, [z], {}, lambda fn=fn, z=z: fn(z))
        e = floats(0, 3)
        golden(f"{op}_empty_dim0", op, [e], {"dim": 0, "keepdim": False}, lambda fn=fn, e=e: fn(e, 0))
        golden(f"{op}_dim_out_of_range_rejected", op, [a], {"dim": 2, "keepdim": False},
               lambda fn=fn: fn(a, 2))
    i = ints(3, 4)
    golden("sum_int64", "sum", [i], {}, lambda: torch.sum(i))
    golden("sum_int64_dim", "sum", [i], {"dim": 1, "keepdim": True}, lambda: torch.sum(i, 1, keepdim=True))
    i32 = ints(2, 5, dtype=torch.int32)
    golden("sum_int32_promotes_to_int64", "sum", [i32], {}, lambda: torch.sum(i32))
    golden("sum_int32_dim_promotes_to_int64", "sum", [i32], {"dim": 0, "keepdim": False}, lambda: torch.sum(i32, 0))
    b = bools(3, 4)
    golden("sum_bool_counts", "sum", [b], {}, lambda: torch.sum(b))
    golden("sum_bool_dim", "sum", [b], {"dim": 1, "keepdim": False}, lambda: torch.sum(b, 1))
    golden("sum_int64_float_dtype", "sum", [i], {"dtype": "float32"}, lambda: torch.sum(i, dtype=torch.float32))
    golden("mean_int64_rejected", "mean", [i], {}, lambda: torch.mean(i))
    golden("mean_int64_with_float_dtype", "mean", [i], {"dtype": "float32"},
           lambda: torch.mean(i, dtype=torch.float32))
    e0 = floats(0)
    golden("mean_empty_is_nan", "mean", [e0], {}, lambda: torch.mean(e0))
    golden("sum_empty_is_zero", "sum", [e0], {}, lambda: torch.sum(e0))

    d = distinct(3, 4)
    d3 = distinct(2, 3, 4)
    di = distinct(3, 5).mul(4).long()
    for op in ["max", "min"]:
        fn = getattr(torch, op)
        golden(f"{op}_all", op, [d], {}, lambda fn=fn: fn(d))
        golden(f"{op}_all_int64", op, [di], {}, lambda fn=fn: fn(di))
        for dim in [0, 1, -1]:
            for keepdim in [False, True]:
                k = "keepdim" if keepdim else "dropdim"
                dn = f"m{-dim}" if dim < 0 else str(dim)
                golden(f"{op}_dim{dn}_{k}", op, [d], {"dim": dim, "keepdim": keepdim},
                       lambda fn=fn, dim=dim, keepdim=keepdim: fn(d, dim, keepdim=keepdim))
        golden(f"{op}_3d_dim1", op, [d3], {"dim": 1, "keepdim": False}, lambda fn=fn: fn(d3, 1))
        golden(f"{op}_int64_dim0", op, [di], {"dim": 0, "keepdim": False}, lambda fn=fn: fn(di, 0))
        nan = float("nan")
        n = torch.tensor([[1.0, nan, 3.0], [4.0, 5.0, -6.0]])
        golden(f"{op}_all_nan", op, [n], {}, lambda fn=fn, n=n: fn(n))
        golden(f"{op}_empty_rejected", op, [e0], {}, lambda fn=fn: fn(e0))
    for op in ["argmax", "argmin"]:
        fn = getattr(torch, op)
        golden(f"{op}_all", op, [d], {}, lambda fn=fn: fn(d))
        golden(f"{op}_all_3d", op, [d3], {}, lambda fn=fn: fn(d3))
        for dim in [0, 1, -1]:
            for keepdim in [False, True]:
                k = "keepdim" if keepdim else "dropdim"
                dn = f"m{-dim}" if dim < 0 else str(dim)
                golden(f"{op}_dim{dn}_{k}", op, [d], {"dim": dim, "keepdim": keepdim},
                       lambda fn=fn, dim=dim, keepdim=keepdim: fn(d, dim, keepdim=keepdim))
        golden(f"{op}_3d_dim2", op, [d3], {"dim": 2, "keepdim": False}, lambda fn=fn: fn(d3, 2))
        golden(f"{op}_int64_dim1", op, [di], {"dim": 1, "keepdim": False}, lambda fn=fn: fn(di, 1))


def matmul_cases():
    cases = [
        ("dot", floats(5), floats(5)),
        ("matrix_vector", floats(3, 4), floats(4)),
        ("vector_matrix", floats(4), floats(4, 3)),
        ("matrix_matrix", floats(3, 4), floats(4, 2)),
        ("matrix_matrix_larger", floats(17, 33), floats(33, 9)),
        ("batched_matrix", floats(2, 3, 4), floats(4, 5)),
        ("batched_batched", floats(2, 3, 4), floats(2, 4, 2)),
        ("broadcast_batches", floats(2, 1, 3, 4), floats(3, 4, 2)),
        ("vector_batched", floats(4), floats(2, 4, 3)),
        ("batched_vector", floats(2, 3, 4), floats(4)),
        ("int64", ints(3, 4), ints(4, 2)),
        ("float64", floats(3, 4, dtype=torch.float64), floats(4, 3, dtype=torch.float64)),
        ("empty_inner", floats(3, 0), floats(0, 2)),
        ("shape_mismatch_rejected", floats(3, 4), floats(5, 2)),
        ("dtype_mismatch_rejected", floats(3, 4), floats(4, 2, dtype=torch.float64)),
    ]
    for name, a, b in cases:
        golden(f"matmul_{name}", "matmul", [a, b], {}, lambda a=a, b=b: torch.matmul(a, b))


def softmax_cases():
    a = floats(3, 5, lo=-40, hi=41)
    c = floats(2, 3, 4)
    big = torch.tensor([[1000.0, 1001.0, 999.0], [-1000.0, -1001.0, -999.0]])
    for op, fn in [("softmax", torch.softmax), ("log_softmax", torch.log_softmax)]:
        golden(f"{op}_last_dim", op, [a], {"dim": -1}, lambda fn=fn: fn(a, -1))
        golden(f"{op}_dim0", op, [a], {"dim": 0}, lambda fn=fn: fn(a, 0))
        golden(f"{op}_3d_middle_dim", op, [c], {"dim": 1}, lambda fn=fn: fn(c, 1))
        golden(f"{op}_large_values_are_stable", op, [big], {"dim": 1}, lambda fn=fn: fn(big, 1))
        golden(f"{op}_float64", op, [a.double()], {"dim": 1}, lambda fn=fn: fn(a.double(), 1))
        v = floats(6)
        golden(f"{op}_vector", op, [v], {"dim": 0}, lambda fn=fn, v=v: fn(v, 0))
        golden(f"{op}_dim_out_of_range_rejected", op, [a], {"dim": 2}, lambda fn=fn: fn(a, 2))


def shape_cases():
    a, b = floats(2, 3), floats(1, 3)
    golden("cat_dim0", "cat", [a, b], {"dim": 0}, lambda: torch.cat([a, b], 0))
    c, d = floats(2, 1), floats(2, 4)
    golden("cat_dim1", "cat", [a, c, d], {"dim": 1}, lambda: torch.cat([a, c, d], 1))
    golden("cat_negative_dim", "cat", [a, c], {"dim": -1}, lambda: torch.cat([a, c], -1))
    i = ints(2, 3)
    golden("cat_mixed_int64_float32", "cat", [i, a], {"dim": 0}, lambda: torch.cat([i, a], 0))
    i32 = ints(1, 3, dtype=torch.int32)
    golden("cat_mixed_int32_int64", "cat", [i32, i], {"dim": 0}, lambda: torch.cat([i32, i], 0))
    bb = bools(1, 3)
    bb2 = bools(2, 3)
    golden("cat_bool", "cat", [bb, bb2], {"dim": 0}, lambda: torch.cat([bb, bb2], 0))
    e = floats(0, 3)
    golden("cat_with_empty", "cat", [a, e], {"dim": 0}, lambda: torch.cat([a, e], 0))
    x3, y3 = floats(2, 2, 3), floats(2, 1, 3)
    golden("cat_3d_middle", "cat", [x3, y3], {"dim": 1}, lambda: torch.cat([x3, y3], 1))
    golden("cat_shape_mismatch_rejected", "cat", [a, d], {"dim": 0}, lambda: torch.cat([a, d], 0))

    s1, s2, s3 = floats(2, 3), floats(2, 3), floats(2, 3)
    for dim in [0, 1, 2, -1]:
        dn = f"m{-dim}" if dim < 0 else str(dim)
        golden(f"stack_dim{dn}", "stack", [s1, s2, s3], {"dim": dim}, lambda dim=dim: torch.stack([s1, s2, s3], dim))
    golden("stack_mixed_dtypes", "stack", [i, a], {"dim": 0}, lambda: torch.stack([i, a], 0))
    z1, z2 = floats(), floats()
    golden("stack_zero_dim", "stack", [z1, z2], {"dim": 0}, lambda: torch.stack([z1, z2], 0))
    golden("stack_shape_mismatch_rejected", "stack", [a, b], {"dim": 0}, lambda: torch.stack([a, b], 0))

    m = floats(4, 3)
    idx = torch.tensor([3, 0, 0, 2])
    golden("index_select_dim0", "index_select", [m, idx], {"dim": 0}, lambda: torch.index_select(m, 0, idx))
    idx1 = torch.tensor([2, 1])
    golden("index_select_dim1", "index_select", [m, idx1], {"dim": 1}, lambda: torch.index_select(m, 1, idx1))
    golden("index_select_negative_dim", "index_select", [m, idx1], {"dim": -1},
           lambda: torch.index_select(m, -1, idx1))
    idx32 = torch.tensor([1, 3], dtype=torch.int32)
    golden("index_select_int32_index", "index_select", [m, idx32], {"dim": 0},
           lambda: torch.index_select(m, 0, idx32))
    mi = ints(2, 3, 4)
    idx2 = torch.tensor([3, 1])
    golden("index_select_3d_int64", "index_select", [mi, idx2], {"dim": 2}, lambda: torch.index_select(mi, 2, idx2))
    v = floats(5)
    golden("index_select_vector", "index_select", [v, idx], {"dim": 0}, lambda: torch.index_select(v, 0, idx))
    no_index = torch.zeros(0, dtype=torch.int64)
    golden("index_select_empty_index", "index_select", [m, no_index], {"dim": 0},
           lambda: torch.index_select(m, 0, no_index))
    bad = torch.tensor([0, 4])
    golden("index_select_out_of_range_rejected", "index_select", [m, bad], {"dim": 0},
           lambda: torch.index_select(m, 0, bad))
    fidx = torch.tensor([0.0, 1.0])
    golden("index_select_float_index_rejected", "index_select", [m, fidx], {"dim": 0},
           lambda: torch.index_select(m, 0, fidx))


def loss_cases():
    logits = floats(4, 5, lo=-24, hi=25)
    logp = torch.log_softmax(logits, 1)
    target = torch.tensor([1, 0, 4, 2])
    weight = positive(5).mul(0.25)
    reductions = {"none": "none", "mean": "mean", "sum": "sum"}
    for red in reductions:
        golden(f"nll_loss_{red}", "nll_loss", [logp, target], {"reduction": red},
               lambda red=red: F.nll_loss(logp, target, reduction=red))
        golden(f"nll_loss_weighted_{red}", "nll_loss", [logp, target, weight], {"reduction": red},
               lambda red=red: F.nll_loss(logp, target, weight=weight, reduction=red))
        golden(f"cross_entropy_{red}", "cross_entropy", [logits, target], {"reduction": red},
               lambda red=red: F.cross_entropy(logits, target, reduction=red))
        golden(f"cross_entropy_weighted_{red}", "cross_entropy", [logits, target, weight], {"reduction": red},
               lambda red=red: F.cross_entropy(logits, target, weight=weight, reduction=red))
    ignored = torch.tensor([1, -100, 4, -100])
    for red in reductions:
        golden(f"cross_entropy_ignore_index_{red}", "cross_entropy", [logits, ignored], {"reduction": red},
               lambda red=red: F.cross_entropy(logits, ignored, reduction=red))
    custom = torch.tensor([1, 3, 3, 0])
    golden("nll_loss_custom_ignore_index_weighted", "nll_loss", [logp, custom, weight],
           {"reduction": "mean", "ignore_index": 3},
           lambda: F.nll_loss(logp, custom, weight=weight, ignore_index=3))
    all_ignored = torch.tensor([-100, -100, -100, -100])
    golden("cross_entropy_all_ignored_mean_is_nan", "cross_entropy", [logits, all_ignored], {"reduction": "mean"},
           lambda: F.cross_entropy(logits, all_ignored))
    v = logits[0]
    t0 = torch.tensor(3)
    golden("cross_entropy_unbatched", "cross_entropy", [v, t0], {"reduction": "mean"},
           lambda: F.cross_entropy(v, t0))
    t2 = torch.tensor(2)
    golden("nll_loss_unbatched_none", "nll_loss", [logp[1], t2], {"reduction": "none"},
           lambda: F.nll_loss(logp[1], t2, reduction="none"))
    golden("cross_entropy_float64", "cross_entropy", [logits.double(), target], {"reduction": "mean"},
           lambda: F.cross_entropy(logits.double(), target))
    bad = torch.tensor([1, 0, 5, 2])
    golden("cross_entropy_target_out_of_range_rejected", "cross_entropy", [logits, bad], {"reduction": "mean"},
           lambda: F.cross_entropy(logits, bad))
    golden("cross_entropy_batch_mismatch_rejected", "cross_entropy", [logits, target[:3]], {"reduction": "mean"},
           lambda: F.cross_entropy(logits, target[:3]))


# ---- the op table's samples (src/ops/ops.yaml `samples`): every entry with them gets the same
# cases, so a new pointwise op needs no code here. Their own generator keeps the older goldens'
# inputs unchanged.

_table_gen = torch.Generator().manual_seed(20261126)
FLOAT_RANGES = {"real": (-24, 25), "positive": (1, 33), "unit": (-7, 8), "ge1": (8, 33)}
INT_RANGES = {"real": (-3, 4), "positive": (1, 6), "unit": (-1, 2), "ge1": (1, 6)}
SHAPES = [(3, 4), (4,), (3, 1)]


def table_float(shape, domain, dtype=torch.float32):
    lo, hi = FLOAT_RANGES[domain]
    return (torch.randint(lo, hi, shape, generator=_table_gen).double() * 0.125).to(dtype)


def table_int(shape, domain, dtype=torch.int64):
    lo, hi = INT_RANGES[domain]
    return torch.randint(lo, hi, shape, generator=_table_gen).to(dtype)


def table_cases():
    import yaml  # Debian: python3-yaml, as scripts/gen_ops.py
    with open(os.path.join(ROOT, "src", "ops", "ops.yaml")) as f:
        table = yaml.safe_load(f)
    nan, inf = float("nan"), float("inf")
    for entries in table.values():
        for e in entries:
            if "samples" not in e:
                continue
            name, overload, args = re.fullmatch(r"(\w+)(?:\.(\w+))?\((.*)\) -> .+", e["func"]).groups()
            n = sum(1 for a in args.split(", ") if a.startswith("Tensor"))
            scalars = e["samples"].get("args", {})
            domains = e["samples"].get("domain", "real")
            domains = domains if isinstance(domains, list) else [domains] * n
            sample = name + (f".{overload}" if overload else "")
            tag = "table_" + sample.replace(".", "_")  # apart from the hand-written goldens' names
            # torch.threshold_backward is only aten's (torch.ops.aten), as in derivatives.yaml.
            fn = getattr(torch, name, None) or getattr(torch.ops.aten, name)
            method = getattr(torch.Tensor, name + "_") if "inplace" in e["variants"] else None

            def case(suffix, inputs, kind="table", extra=None, call=None):
                call = call or (lambda: fn(*inputs, **scalars))
                golden(f"{tag}_{suffix}", f"{kind}:{sample}", inputs, extra or {}, call)

            shapes = SHAPES[:n]
            f32 = [table_float(s, d) for s, d in zip(shapes, domains)]
            case("float32", f32)
            f64 = [table_float(s, d, torch.float64) for s, d in zip(shapes, domains)]
            case("float64", f64)
            i64 = [table_int(s, d) for s, d in zip(shapes, domains)]
            case("int64", i64)
            if n > 1:
                mixed = [f32[0]] + [t.double() for t in f32[1:]]
                case("mixed_float32_float64", mixed)
            zero = [table_float((), d) for d in domains]
            case("zero_dim", zero)
            if n == 1:
                special = torch.tensor([0.0, -0.0, 1.0, -1.0, 0.5, inf, -inf, nan])
                case("special_values", [special])
            if method is not None:
                same = [table_float((3, 4), d) for d in domains]
                case("inplace_float32", same, "table_inplace",
                     call=lambda same=same: method(same[0].clone(), *same[1:], **scalars))
                same_i = [table_int((3, 4), d) for d in domains]
                case("inplace_int64", same_i, "table_inplace",
                     call=lambda same_i=same_i: method(same_i[0].clone(), *same_i[1:], **scalars))
            for out_dtype in (torch.float64, torch.int64) if "out" in e["variants"] else ():
                out = torch.empty(3, 4, dtype=out_dtype)
                case(f"out_{DTYPE_NAMES[out_dtype]}", f32, "table_out",
                     {"out_dtype": DTYPE_NAMES[out_dtype], "out_shape": [3, 4]},
                     call=lambda out=out: fn(*f32, **scalars, out=out))


def more_loss_cases():
    """Issue 26's losses: every reduction, with the options torch gives each."""
    reductions = ("none", "mean", "sum")
    logits = floats(4, 5, lo=-24, hi=25)
    target = torch.tensor([1, 0, 4, 2])
    ignored = torch.tensor([1, -100, 4, 2])
    weight = positive(5).mul(0.25)
    probs = torch.softmax(floats(4, 5), 1)
    logits3 = floats(2, 3, 4)
    target3 = torch.tensor([[0, 2, 1, -100], [2, 2, 0, 1]])
    for red in reductions:
        a = {"reduction": red}
        golden(f"cross_entropy_probabilities_{red}", "cross_entropy", [logits, probs], a,
               lambda red=red: F.cross_entropy(logits, probs, reduction=red))
        golden(f"cross_entropy_probabilities_weighted_smoothed_{red}", "cross_entropy",
               [logits, probs, weight], {**a, "label_smoothing": 0.25},
               lambda red=red: F.cross_entropy(logits, probs, weight=weight, reduction=red,
                                               label_smoothing=0.25))
        golden(f"cross_entropy_label_smoothing_{red}", "cross_entropy", [logits, ignored],
               {**a, "label_smoothing": 0.1},
               lambda red=red: F.cross_entropy(logits, ignored, reduction=red, label_smoothing=0.1))
        golden(f"cross_entropy_label_smoothing_weighted_{red}", "cross_entropy",
               [logits, ignored, weight], {**a, "label_smoothing": 0.1},
               lambda red=red: F.cross_entropy(logits, ignored, weight=weight, reduction=red,
                                               label_smoothing=0.1))
        golden(f"cross_entropy_spatial_{red}", "cross_entropy", [logits3, target3], a,
               lambda red=red: F.cross_entropy(logits3, target3, reduction=red))
        golden(f"cross_entropy_spatial_smoothed_weighted_{red}", "cross_entropy",
               [logits3, target3, weight[:3]], {**a, "label_smoothing": 0.2},
               lambda red=red: F.cross_entropy(logits3, target3, weight=weight[:3], reduction=red,
                                               label_smoothing=0.2))
    golden("cross_entropy_unbatched_smoothed", "cross_entropy", [logits[0], torch.tensor(3)],
           {"reduction": "none", "label_smoothing": 0.3},
           lambda: F.cross_entropy(logits[0], torch.tensor(3), reduction="none", label_smoothing=0.3))
    golden("cross_entropy_unbatched_probabilities", "cross_entropy", [logits[0], probs[0]],
           {"reduction": "mean"}, lambda: F.cross_entropy(logits[0], probs[0]))
    golden("cross_entropy_probabilities_ignore_index_rejected", "cross_entropy", [logits, probs],
           {"reduction": "mean", "ignore_index": 1},
           lambda: F.cross_entropy(logits, probs, ignore_index=1))
    golden("cross_entropy_label_smoothing_above_one_rejected", "cross_entropy", [logits, target],
           {"reduction": "mean", "label_smoothing": 1.5},
           lambda: F.cross_entropy(logits, target, label_smoothing=1.5))
    golden("cross_entropy_spatial_target_shape_rejected", "cross_entropy", [logits3, target],
           {"reduction": "mean"}, lambda: F.cross_entropy(logits3, target))

    x, y = floats(3, 4), floats(3, 4)
    p = torch.sigmoid(floats(3, 4))
    p[0, 0], p[1, 1] = 0.0, 1.0  # saturated probabilities: torch clamps each log at -100
    t = torch.randint(0, 2, (3, 4), generator=_gen).float()
    t[0, 1] = 0.5  # soft labels are allowed
    w4 = positive(4).mul(0.25)
    logq = torch.log_softmax(floats(3, 4), 1)
    q = torch.softmax(floats(3, 4), 1)
    q[0, 0] = 0.0  # xlogy(0, 0) = 0
    logq_target = torch.log_softmax(floats(3, 4), 1)
    a1, a2 = floats(6), floats(6)
    sign = torch.tensor([1.0, -1.0, 1.0, -1.0, 1.0, 1.0])
    e1, e2 = floats(3, 5), floats(3, 5)
    e_sign = torch.tensor([1.0, -1.0, -1.0])
    for red in reductions:
        a = {"reduction": red}
        golden(f"mse_loss_{red}", "mse_loss", [x, y], a, lambda red=red: F.mse_loss(x, y, reduction=red))
        golden(f"l1_loss_{red}", "l1_loss", [x, y], a, lambda red=red: F.l1_loss(x, y, reduction=red))
        for beta in (1.0, 0.5, 0.0):
            golden(f"smooth_l1_loss_beta{int(beta * 10)}_{red}", "smooth_l1_loss", [x, y],
                   {**a, "beta": beta},
                   lambda red=red, beta=beta: F.smooth_l1_loss(x, y, reduction=red, beta=beta))
        for delta in (1.0, 2.5):
            golden(f"huber_loss_delta{int(delta * 10)}_{red}", "huber_loss", [x, y],
                   {**a, "delta": delta},
                   lambda red=red, delta=delta: F.huber_loss(x, y, reduction=red, delta=delta))
        golden(f"binary_cross_entropy_{red}", "binary_cross_entropy", [p, t], a,
               lambda red=red: F.binary_cross_entropy(p, t, reduction=red))
        golden(f"binary_cross_entropy_weighted_{red}", "binary_cross_entropy", [p, t, w4], a,
               lambda red=red: F.binary_cross_entropy(p, t, weight=w4, reduction=red))
        golden(f"bce_with_logits_{red}", "binary_cross_entropy_with_logits", [x, t],
               {**a, "weight": False, "pos_weight": False},
               lambda red=red: F.binary_cross_entropy_with_logits(x, t, reduction=red))
        golden(f"bce_with_logits_pos_weight_{red}", "binary_cross_entropy_with_logits",
               [x, t, w4 * 3], {**a, "weight": False, "pos_weight": True},
               lambda red=red: F.binary_cross_entropy_with_logits(x, t, pos_weight=w4 * 3,
                                                                  reduction=red))
        golden(f"bce_with_logits_both_weights_{red}", "binary_cross_entropy_with_logits",
               [x, t, w4, w4 + 1], {**a, "weight": True, "pos_weight": True},
               lambda red=red: F.binary_cross_entropy_with_logits(x, t, weight=w4, pos_weight=w4 + 1,
                                                                  reduction=red))
        golden(f"kl_div_{red}", "kl_div", [logq, q], {**a, "log_target": False},
               lambda red=red: F.kl_div(logq, q, reduction=red))
        golden(f"kl_div_log_target_{red}", "kl_div", [logq, logq_target], {**a, "log_target": True},
               lambda red=red: F.kl_div(logq, logq_target, reduction=red, log_target=True))
        golden(f"margin_ranking_loss_{red}", "margin_ranking_loss", [a1, a2, sign],
               {**a, "margin": 0.5},
               lambda red=red: F.margin_ranking_loss(a1, a2, sign, margin=0.5, reduction=red))
        golden(f"cosine_embedding_loss_{red}", "cosine_embedding_loss", [e1, e2, e_sign],
               {**a, "margin": 0.25},
               lambda red=red: F.cosine_embedding_loss(e1, e2, e_sign, margin=0.25, reduction=red))
    golden("margin_ranking_loss_no_margin", "margin_ranking_loss", [a1, a2, sign],
           {"reduction": "mean", "margin": 0.0},
           lambda: F.margin_ranking_loss(a1, a2, sign))
    golden("cosine_embedding_loss_unbatched", "cosine_embedding_loss",
           [e1[0], e2[0], torch.tensor(-1.0)], {"reduction": "mean", "margin": -0.5},
           lambda: F.cosine_embedding_loss(e1[0], e2[0], torch.tensor(-1.0), margin=-0.5))
    golden("binary_cross_entropy_out_of_range_rejected", "binary_cross_entropy",
           [x.abs() + 1, t], {"reduction": "mean"},
           lambda: F.binary_cross_entropy(x.abs() + 1, t))
    golden("smooth_l1_loss_negative_beta_rejected", "smooth_l1_loss", [x, y],
           {"reduction": "mean", "beta": -1.0}, lambda: F.smooth_l1_loss(x, y, beta=-1.0))
    golden("huber_loss_zero_delta_rejected", "huber_loss", [x, y],
           {"reduction": "mean", "delta": 0.0}, lambda: F.huber_loss(x, y, delta=0.0))
    golden("cosine_embedding_loss_2d_target_rejected", "cosine_embedding_loss",
           [e1, e2, e_sign.reshape(3, 1)], {"reduction": "mean", "margin": 0.0},
           lambda: F.cosine_embedding_loss(e1, e2, e_sign.reshape(3, 1)))


def activation_cases():
    x = floats(3, 8, lo=-40, hi=41)  # -5 ... 5 in steps of 1/8, zero included
    wide = floats(2, 4, lo=-200, hi=201)  # -25 ... 25: softplus's threshold, saturations
    for name, a in (("small", x), ("wide", wide)):
        for approx in ("none", "tanh"):
            golden(f"gelu_{approx}_{name}", "gelu", [a], {"approximate": approx},
                   lambda a=a, approx=approx: F.gelu(a, approximate=approx))
        golden(f"silu_{name}", "silu", [a], {}, lambda a=a: F.silu(a))
        golden(f"mish_{name}", "mish", [a], {}, lambda a=a: F.mish(a))
        golden(f"softplus_{name}", "softplus", [a], {"beta": 1.0, "threshold": 20.0},
               lambda a=a: F.softplus(a))
        golden(f"softplus_beta2_threshold5_{name}", "softplus", [a], {"beta": 2.0, "threshold": 5.0},
               lambda a=a: F.softplus(a, beta=2.0, threshold=5.0))
        golden(f"leaky_relu_{name}", "leaky_relu", [a], {"negative_slope": 0.01},
               lambda a=a: F.leaky_relu(a))
        golden(f"elu_{name}", "elu", [a], {"alpha": 1.0}, lambda a=a: F.elu(a))
        golden(f"elu_alpha_half_{name}", "elu", [a], {"alpha": 0.5}, lambda a=a: F.elu(a, alpha=0.5))
        golden(f"hardtanh_{name}", "hardtanh", [a], {"min_val": -1.0, "max_val": 1.0},
               lambda a=a: F.hardtanh(a))
    golden("hardtanh_bounds", "hardtanh", [x], {"min_val": -2.0, "max_val": 0.5},
           lambda: F.hardtanh(x, -2.0, 0.5))
    golden("gelu_float64", "gelu", [x.double()], {"approximate": "none"}, lambda: F.gelu(x.double()))
    images = floats(2, 3, 2, 2)
    golden("prelu_one_weight", "prelu", [images, torch.tensor([0.25])], {},
           lambda: F.prelu(images, torch.tensor([0.25])))
    golden("prelu_per_channel", "prelu", [images, torch.tensor([0.25, -0.5, 2.0])], {},
           lambda: F.prelu(images, torch.tensor([0.25, -0.5, 2.0])))
    golden("prelu_channel_mismatch_rejected", "prelu", [images, torch.tensor([0.25, 0.5])], {},
           lambda: F.prelu(images, torch.tensor([0.25, 0.5])))


def layer_cases():
    x = floats(2, 3, 4)
    w, b = floats(3, 4), floats(3, 4)
    golden("layer_norm_last_dim", "layer_norm", [x], {"normalized_shape": [4], "eps": 1e-5},
           lambda: F.layer_norm(x, [4]))
    golden("layer_norm_two_dims_affine", "layer_norm", [x, w, b],
           {"normalized_shape": [3, 4], "eps": 1e-5}, lambda: F.layer_norm(x, [3, 4], w, b))
    golden("layer_norm_shape_mismatch_rejected", "layer_norm", [x], {"normalized_shape": [3], "eps": 1e-5},
           lambda: F.layer_norm(x, [3]))
    images = floats(2, 4, 3, 2)
    cw, cb = floats(4), floats(4)
    golden("group_norm_two_groups_affine", "group_norm", [images, cw, cb],
           {"num_groups": 2, "eps": 1e-5}, lambda: F.group_norm(images, 2, cw, cb))
    golden("group_norm_one_group", "group_norm", [images], {"num_groups": 1, "eps": 1e-3},
           lambda: F.group_norm(images, 1, eps=1e-3))
    golden("group_norm_indivisible_rejected", "group_norm", [images], {"num_groups": 3, "eps": 1e-5},
           lambda: F.group_norm(images, 3))
    table = floats(5, 3)
    idx = torch.tensor([[0, 4, 2], [2, 2, 1]])
    golden("embedding", "embedding", [table, idx], {"padding_idx": -1}, lambda: F.embedding(idx, table))
    golden("embedding_padding", "embedding", [table, idx], {"padding_idx": 2},
           lambda: F.embedding(idx, table, padding_idx=2))
    golden("one_hot", "one_hot", [idx], {"num_classes": -1}, lambda: F.one_hot(idx))
    golden("one_hot_num_classes", "one_hot", [idx], {"num_classes": 7}, lambda: F.one_hot(idx, 7))
    golden("one_hot_too_small_rejected", "one_hot", [idx], {"num_classes": 3}, lambda: F.one_hot(idx, 3))
    a, c = floats(3, 4), floats(3, 4)
    golden("normalize", "normalize", [a], {"p": 2.0, "dim": 1}, lambda: F.normalize(a))
    golden("normalize_p1_dim0", "normalize", [a], {"p": 1.0, "dim": 0}, lambda: F.normalize(a, 1.0, 0))
    golden("normalize_p3", "normalize", [a], {"p": 3.0, "dim": 1}, lambda: F.normalize(a, 3.0))
    golden("cosine_similarity", "cosine_similarity", [a, c], {"dim": 1}, lambda: F.cosine_similarity(a, c))
    golden("cosine_similarity_dim0_broadcast", "cosine_similarity", [a, c[0]], {"dim": -1},
           lambda: F.cosine_similarity(a, c[0], dim=-1))
    golden("pairwise_distance", "pairwise_distance", [a, c], {"p": 2.0, "keepdim": False},
           lambda: F.pairwise_distance(a, c))
    golden("pairwise_distance_p1_keepdim", "pairwise_distance", [a, c], {"p": 1.0, "keepdim": True},
           lambda: F.pairwise_distance(a, c, p=1.0, keepdim=True))


def main():
    binary_cases()
    pow_cases()
    max_min_cases()
    comparison_cases()
    where_cases()
    clamp_cases()
    unary_cases()
    reduction_cases()
    matmul_cases()
    softmax_cases()
    shape_cases()
    loss_cases()
    table_cases()
    more_loss_cases()
    activation_cases()
    layer_cases()
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(GOLDENS, f, separators=(",", ":"), allow_nan=False)
        f.write("\n")
    raises = sum(1 for g in GOLDENS if "raises" in g)
    assert set(TORCH_WORDING) <= {g["name"] for g in GOLDENS if "raises" in g}
    print(f"wrote {len(GOLDENS)} op goldens ({raises} rejected calls) to {OUT} with torch {torch.__version__}")


if __name__ == "__main__":
    sys.exit(main())
