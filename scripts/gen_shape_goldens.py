#!/usr/bin/env python3
"""Writes tests/fixtures/shape_goldens.json: torch 1.13's results for issue 25's shape ops,
linear algebra (einsum included) and the triangles and diagonals, in the format of
op_goldens.json (scripts/gen_op_goldens.py's docstring). Run with Debian's Python:

    /usr/bin/python3 scripts/gen_shape_goldens.py

Each golden has "op", "inputs" (tensors) and "args" (the op's other arguments by torch's name);
tests/device/shape_golden_test.cpp (C++, every device) and tests/python/test_shapes.py read
them. "op" is torch's function name, except: repeat_interleave_tensor (repeats is inputs[1]),
tensor_split_indices (args indices), and the list ops (broadcast_tensors, hstack, vstack,
dstack, column_stack, einsum), whose inputs are the whole list. Values are multiples of 1/8, so
that sums and products are exact in float32 and every device gives torch's numbers.
"""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_indexing_goldens import golden as indexing_golden, write_goldens  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "shape_goldens.json")

_gen = torch.Generator().manual_seed(20261126)


def floats(*shape, dtype=torch.float32):
    return (torch.randint(-24, 25, shape, generator=_gen).double() * 0.125).to(dtype)


def ints(*shape, dtype=torch.int64):
    return torch.randint(-9, 10, shape, generator=_gen).to(dtype)


def golden(name, op, inputs, args, fn):
    """One golden (gen_indexing_goldens' format and error handling): fn(*inputs)'s outputs, or
    the error torch raises."""
    indexing_golden(name, op, inputs, args, lambda: fn(*inputs))


def shape_cases():
    x = floats(2, 3, 4)
    golden("flip_two_dims", "flip", [x], {"dims": [0, 2]}, lambda a: torch.flip(a, [0, 2]))
    golden("flip_negative_dim_int64", "flip", [ints(3, 4)], {"dims": [-1]},
           lambda a: torch.flip(a, [-1]))
    golden("flip_no_dims", "flip", [x], {"dims": []}, lambda a: torch.flip(a, []))
    golden("flip_repeated_dim_rejected", "flip", [x], {"dims": [0, 0]},
           lambda a: torch.flip(a, [0, 0]))
    golden("fliplr", "fliplr", [floats(3, 4)], {}, torch.fliplr)
    golden("flipud_bool", "flipud", [floats(4, 2) > 0], {}, torch.flipud)
    golden("fliplr_1d_rejected", "fliplr", [floats(4)], {}, torch.fliplr)
    golden("roll_flat", "roll", [floats(3, 4)], {"shifts": [5], "dims": []},
           lambda a: torch.roll(a, 5))
    golden("roll_two_dims_negative", "roll", [x], {"shifts": [-1, 7], "dims": [0, 2]},
           lambda a: torch.roll(a, (-1, 7), (0, 2)))
    golden("roll_mismatched_rejected", "roll", [x], {"shifts": [1, 2], "dims": [0]},
           lambda a: torch.roll(a, (1, 2), (0,)))
    for k in (1, 2, 3, -1, 4):
        golden(f"rot90_k{k + 1 if k >= 0 else 'm1'}", "rot90", [floats(3, 4)],
               {"k": k, "dims": [0, 1]}, lambda a, k=k: torch.rot90(a, k, [0, 1]))
    golden("rot90_3d_last_dims", "rot90", [x], {"k": 1, "dims": [2, 1]},
           lambda a: torch.rot90(a, 1, [2, 1]))
    golden("rot90_same_dims_rejected", "rot90", [x], {"k": 1, "dims": [1, 1]},
           lambda a: torch.rot90(a, 1, [1, 1]))
    golden("repeat_more_dims", "repeat", [floats(2, 3)], {"repeats": [2, 1, 3]},
           lambda a: a.repeat(2, 1, 3))
    golden("repeat_int32", "repeat", [ints(3, dtype=torch.int32)], {"repeats": [2]},
           lambda a: a.repeat(2))
    golden("repeat_too_few_rejected", "repeat", [floats(2, 3)], {"repeats": [2]},
           lambda a: a.repeat(2))
    golden("tile_fewer_dims", "tile", [floats(2, 3)], {"dims": [2]}, lambda a: torch.tile(a, (2,)))
    golden("tile_more_dims", "tile", [floats(3)], {"dims": [2, 2]},
           lambda a: torch.tile(a, (2, 2)))
    golden("repeat_interleave_flat", "repeat_interleave", [floats(2, 2)],
           {"repeats": 2, "dim": None}, lambda a: torch.repeat_interleave(a, 2))
    golden("repeat_interleave_dim", "repeat_interleave", [floats(2, 3)],
           {"repeats": 3, "dim": 1}, lambda a: torch.repeat_interleave(a, 3, dim=1))
    golden("repeat_interleave_tensor", "repeat_interleave_tensor",
           [floats(3, 2), torch.tensor([1, 0, 2])], {"dim": 0},
           lambda a, r: torch.repeat_interleave(a, r, dim=0))
    golden("repeat_interleave_counts", "repeat_interleave_counts", [torch.tensor([2, 0, 3])], {},
           lambda r: torch.repeat_interleave(r))
    golden("movedim_two", "movedim", [x], {"source": [0, 1], "destination": [2, 0]},
           lambda a: torch.movedim(a, (0, 1), (2, 0)))
    golden("movedim_one_negative", "movedim", [x], {"source": [-1], "destination": [0]},
           lambda a: torch.movedim(a, -1, 0))
    golden("movedim_repeated_rejected", "movedim", [x], {"source": [0, 0], "destination": [1, 2]},
           lambda a: torch.movedim(a, (0, 0), (1, 2)))
    golden("swapaxes", "swapaxes", [x], {"dim0": 0, "dim1": -1},
           lambda a: torch.swapaxes(a, 0, -1))
    golden("unflatten", "unflatten", [x], {"dim": -1, "sizes": [2, -1]},
           lambda a: a.unflatten(-1, (2, -1)))
    golden("unflatten_wrong_product_rejected", "unflatten", [x], {"dim": 1, "sizes": [2, 2]},
           lambda a: a.unflatten(1, (2, 2)))
    golden("unbind_dim1", "unbind", [x], {"dim": 1}, lambda a: torch.unbind(a, 1))
    golden("tensor_split_sections", "tensor_split", [floats(7, 2)], {"sections": 3, "dim": 0},
           lambda a: torch.tensor_split(a, 3))
    golden("tensor_split_more_sections_than_rows", "tensor_split", [floats(2, 3)],
           {"sections": 4, "dim": 1}, lambda a: torch.tensor_split(a, 4, dim=1))
    golden("tensor_split_indices", "tensor_split_indices", [floats(2, 7)],
           {"indices": [1, 5, 3, 9], "dim": 1}, lambda a: torch.tensor_split(a, [1, 5, 3, 9], 1))
    golden("split_with_sizes", "split_with_sizes", [floats(5, 2)], {"sizes": [2, 3], "dim": 0},
           lambda a: a.split_with_sizes([2, 3]))
    golden("broadcast_to", "broadcast_to", [floats(3, 1)], {"size": [2, 3, 4]},
           lambda a: torch.broadcast_to(a, (2, 3, 4)))
    golden("broadcast_to_rejected", "broadcast_to", [floats(3, 2)], {"size": [3, 4]},
           lambda a: torch.broadcast_to(a, (3, 4)))
    golden("broadcast_tensors", "broadcast_tensors", [floats(3, 1), ints(4), floats(1, 1, 1)], {},
           torch.broadcast_tensors)
    golden("ravel_transposed", "ravel", [floats(3, 4).t()], {}, torch.ravel)
    for k in (1, 2, 3):
        for shape in ((), (3,), (2, 3), (2, 1, 3, 1)):
            golden(f"atleast_{k}d_{len(shape)}", f"atleast_{k}d", [floats(*shape)], {},
                   getattr(torch, f"atleast_{k}d"))
    golden("hstack_1d", "hstack", [floats(2), floats(3)], {}, lambda *t: torch.hstack(t))
    golden("hstack_2d", "hstack", [floats(2, 1), floats(2, 3)], {}, lambda *t: torch.hstack(t))
    golden("vstack_mixed", "vstack", [floats(3), floats(2, 3)], {}, lambda *t: torch.vstack(t))
    golden("dstack", "dstack", [floats(3), floats(1, 3)], {}, lambda *t: torch.dstack(t))
    golden("column_stack", "column_stack", [floats(3), floats(3, 2), floats(3)], {},
           lambda *t: torch.column_stack(t))


def linalg_cases():
    v, w = floats(4), floats(4)
    golden("dot", "dot", [v, w], {}, torch.dot)
    golden("dot_int64", "dot", [ints(5), ints(5)], {}, torch.dot)
    golden("dot_mixed_dtypes_rejected", "dot", [v, w.double()], {}, torch.dot)
    golden("dot_2d_rejected", "dot", [floats(2, 2), v], {}, torch.dot)
    golden("vdot", "vdot", [v, w], {}, torch.vdot)
    golden("mv", "mv", [floats(3, 4), v], {}, torch.mv)
    golden("mv_size_mismatch_rejected", "mv", [floats(3, 5), v], {}, torch.mv)
    golden("outer", "outer", [floats(3), floats(4)], {}, torch.outer)
    golden("outer_promotes", "outer", [ints(3), floats(2, dtype=torch.float64)], {}, torch.outer)
    golden("inner_vectors", "inner", [v, w], {}, torch.inner)
    golden("inner_batched", "inner", [floats(2, 3, 4), floats(5, 4)], {}, torch.inner)
    golden("inner_scalar", "inner", [floats(), floats(2, 3)], {}, torch.inner)
    golden("addmv", "addmv", [floats(3), floats(3, 4), v], {"beta": 0.5, "alpha": 2},
           lambda s, m, x: torch.addmv(s, m, x, beta=0.5, alpha=2))
    golden("addmv_beta0_ignores_nan", "addmv", [torch.full((3,), float("nan")), floats(3, 4), v],
           {"beta": 0, "alpha": 1}, lambda s, m, x: torch.addmv(s, m, x, beta=0))
    golden("addr", "addr", [floats(3, 1), floats(3), floats(2)], {"beta": 1, "alpha": -1},
           lambda s, a, b: torch.addr(s, a, b, alpha=-1))
    golden("baddbmm", "baddbmm", [floats(2, 3, 5), floats(2, 3, 4), floats(2, 4, 5)],
           {"beta": 2, "alpha": 0.5}, lambda s, a, b: torch.baddbmm(s, a, b, beta=2, alpha=0.5))
    golden("addbmm", "addbmm", [floats(3, 5), floats(2, 3, 4), floats(2, 4, 5)],
           {"beta": 1, "alpha": 1}, torch.addbmm)
    eqs = [
        ("matmul", "ij,jk->ik", [(3, 4), (4, 5)]),
        ("batched", "bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
        ("implicit_output", "ij,jk", [(3, 4), (4, 2)]),
        ("trace", "ii", [(4, 4)]),
        ("diagonal", "ii->i", [(3, 3)]),
        ("transpose", "ij->ji", [(2, 3)]),
        ("sum_all", "ijk->", [(2, 3, 4)]),
        ("outer", "i,j->ij", [(3,), (4,)]),
        ("dot", "i,i->", [(5,), (5,)]),
        ("three_operands", "ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
        ("ellipsis_batch", "...ij,...jk->...ik", [(2, 3, 4), (4, 5)]),
        ("ellipsis_broadcast", "b...i,...i->b...", [(2, 3, 4), (1, 4)]),
        ("hadamard_and_sum", "ij,ij->i", [(3, 4), (3, 4)]),
        ("bilinear", "bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),
        ("repeated_in_one_and_other", "iij,jk->ik", [(3, 3, 4), (4, 2)]),
        ("upper_case_labels", "Ab,bC->CA", [(2, 3), (3, 4)]),
        ("spaces", " i j , j k -> i k ", [(2, 3), (3, 2)]),
        ("summed_only_in_first", "ijk,kl->il", [(2, 3, 4), (4, 5)]),
        ("size1_broadcast", "ij,ij->ij", [(3, 1), (3, 4)]),
    ]
    for name, eq, shapes in eqs:
        ts = [floats(*s) for s in shapes]
        golden(f"einsum_{name}", "einsum", ts, {"equation": eq},
               lambda *t, eq=eq: torch.einsum(eq, *t))
    golden("einsum_wrong_rank_rejected", "einsum", [floats(2, 3)], {"equation": "ijk->i"},
           lambda a: torch.einsum("ijk->i", a))
    golden("einsum_unknown_output_rejected", "einsum", [floats(2, 3)], {"equation": "ij->k"},
           lambda a: torch.einsum("ij->k", a))
    golden("einsum_size_mismatch_rejected", "einsum", [floats(2, 3), floats(4, 2)],
           {"equation": "ij,jk->ik"}, lambda a, b: torch.einsum("ij,jk->ik", a, b))
    golden("tensordot_two", "tensordot", [floats(3, 4, 5), floats(4, 5, 2)],
           {"dims_a": [1, 2], "dims_b": [0, 1]}, lambda a, b: torch.tensordot(a, b, 2))
    golden("tensordot_lists", "tensordot", [floats(3, 4, 5), floats(5, 3)],
           {"dims_a": [0, 2], "dims_b": [1, 0]},
           lambda a, b: torch.tensordot(a, b, ([0, 2], [1, 0])))
    golden("kron_2d", "kron", [floats(2, 3), floats(3, 2)], {}, torch.kron)
    golden("kron_ranks_differ", "kron", [floats(2), ints(2, 2)], {}, torch.kron)
    golden("cross_default_dim", "cross", [floats(2, 3), floats(2, 3)], {"dim": None},
           lambda a, b: torch.cross(a, b))
    golden("cross_dim0", "cross", [floats(3, 2), floats(3, 2)], {"dim": 0},
           lambda a, b: torch.cross(a, b, dim=0))
    golden("linalg_cross_broadcast", "linalg_cross", [floats(2, 3), floats(1, 3)], {"dim": -1},
           lambda a, b: torch.linalg.cross(a, b))
    golden("linalg_cross_wrong_size_rejected", "linalg_cross", [floats(2, 4), floats(2, 4)],
           {"dim": -1}, lambda a, b: torch.linalg.cross(a, b))
    golden("trace", "trace", [floats(3, 4)], {}, torch.trace)
    golden("trace_int32", "trace", [ints(3, 3, dtype=torch.int32)], {}, torch.trace)
    golden("trace_3d_rejected", "trace", [floats(2, 2, 2)], {}, torch.trace)


def diagonal_cases():
    m = floats(4, 5)
    for k in (0, 2, -1, -7):
        s = f"m{-k}" if k < 0 else str(k)
        golden(f"tril_{s}", "tril", [m], {"diagonal": k}, lambda a, k=k: torch.tril(a, k))
        golden(f"triu_{s}", "triu", [m], {"diagonal": k}, lambda a, k=k: torch.triu(a, k))
    golden("tril_batched_int64", "tril", [ints(2, 3, 3)], {"diagonal": 0}, torch.tril)
    golden("triu_1d_rejected", "triu", [floats(3)], {"diagonal": 0}, torch.triu)
    b = floats(2, 3, 4)
    for off, d1, d2 in ((0, 0, 1), (1, 0, 1), (-1, 0, 1), (1, 2, 0), (0, -1, 1), (5, 0, 1)):
        name = f"diagonal_{off}_{d1}_{d2}".replace("-", "m")
        golden(name, "diagonal", [b], {"offset": off, "dim1": d1, "dim2": d2},
               lambda a, o=off, x=d1, y=d2: torch.diagonal(a, o, x, y))
    golden("diagonal_same_dims_rejected", "diagonal", [b], {"offset": 0, "dim1": 1, "dim2": 1},
           lambda a: torch.diagonal(a, 0, 1, 1))
    v = floats(2, 3)
    for off, d1, d2 in ((0, -2, -1), (1, -2, -1), (-2, -2, -1), (0, 0, 2), (1, 2, 0)):
        name = f"diag_embed_{off}_{d1}_{d2}".replace("-", "m")
        golden(name, "diag_embed", [v], {"offset": off, "dim1": d1, "dim2": d2},
               lambda a, o=off, x=d1, y=d2: torch.diag_embed(a, o, x, y))
    golden("diag_embed_keeps_inf", "diag_embed",
           [torch.tensor([1.0, float("inf"), -2.0])], {"offset": 0, "dim1": -2, "dim2": -1},
           torch.diag_embed)
    golden("diag_of_vector", "diag", [floats(3)], {"diagonal": 1}, lambda a: torch.diag(a, 1))
    golden("diag_of_matrix", "diag", [m], {"diagonal": -1}, lambda a: torch.diag(a, -1))
    golden("diag_3d_rejected", "diag", [b], {"diagonal": 0}, torch.diag)
    golden("diagflat", "diagflat", [floats(2, 2)], {"offset": -1}, lambda a: torch.diagflat(a, -1))


def factory_cases():
    golden("eye_square", "eye", [], {"n": 3, "m": None, "dtype": "float32"},
           lambda: torch.eye(3))
    golden("eye_wide_int64", "eye", [], {"n": 2, "m": 4, "dtype": "int64"},
           lambda: torch.eye(2, 4, dtype=torch.int64))
    golden("eye_empty", "eye", [], {"n": 0, "m": 2, "dtype": "float32"},
           lambda: torch.eye(0, 2))
    for name, fn, r, c, o in (("tril", torch.tril_indices, 3, 4, 1),
                              ("tril", torch.tril_indices, 4, 3, -1),
                              ("triu", torch.triu_indices, 3, 4, 1),
                              ("triu", torch.triu_indices, 4, 3, -2)):
        golden(f"{name}_indices_{r}_{c}_{o}".replace("-", "m"), f"{name}_indices", [],
               {"row": r, "col": c, "offset": o}, lambda fn=fn, r=r, c=c, o=o: fn(r, c, o))
    golden("logspace", "logspace", [], {"start": 0, "end": 2, "steps": 5, "base": 10.0,
                                        "dtype": "float32"}, lambda: torch.logspace(0, 2, 5))
    golden("logspace_base2_float64", "logspace", [],
           {"start": -1, "end": 3, "steps": 5, "base": 2.0, "dtype": "float64"},
           lambda: torch.logspace(-1, 3, 5, base=2, dtype=torch.float64))
    golden("logspace_int64", "logspace", [],
           {"start": 0, "end": 3, "steps": 4, "base": 10.0, "dtype": "int64"},
           lambda: torch.logspace(0, 3, 4, dtype=torch.int64))


def main():
    factory_cases()
    shape_cases()
    linalg_cases()
    diagonal_cases()
    write_goldens(OUT, "shape")


if __name__ == "__main__":
    sys.exit(main())
