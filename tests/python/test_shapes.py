"""Issue 25's shape ops, linear algebra (einsum, tensordot, linalg.norm) and the triangles and
diagonals from Python, under torch's names and argument forms, on the cpu and a simulated GPU,
against what torch 1.13 gives (tests/fixtures/shape_goldens.json, from
scripts/gen_shape_goldens.py)."""

import json
import math
import os

import pytest

import tide

from test_indexing import DEVICES, DTYPES, tensor_of  # the golden files' tensors, read alike

GOLDENS = json.load(open(os.path.join(os.path.dirname(__file__), "..", "fixtures",
                                      "shape_goldens.json")))


RUNNERS = {
    "eye": lambda t, a, d: tide.eye(a["n"], a["m"], dtype=DTYPES[a["dtype"]], device=d),
    "tril_indices": lambda t, a, d: tide.tril_indices(a["row"], a["col"], a["offset"], device=d),
    "triu_indices": lambda t, a, d: tide.triu_indices(a["row"], a["col"], a["offset"], device=d),
    "logspace": lambda t, a, d: tide.logspace(a["start"], a["end"], a["steps"], a["base"],
                                              dtype=DTYPES[a["dtype"]], device=d),

    "flip": lambda t, a, d: tide.flip(t[0], a["dims"]),
    "fliplr": lambda t, a, d: tide.fliplr(t[0]),
    "flipud": lambda t, a, d: t[0].flipud(),
    "roll": lambda t, a, d: t[0].roll(a["shifts"], a["dims"] or None),
    "rot90": lambda t, a, d: tide.rot90(t[0], a["k"], a["dims"]),
    "repeat": lambda t, a, d: t[0].repeat(*a["repeats"]),
    "tile": lambda t, a, d: tide.tile(t[0], a["dims"]),
    "repeat_interleave": lambda t, a, d: tide.repeat_interleave(t[0], a["repeats"], a["dim"]),
    "repeat_interleave_tensor": lambda t, a, d: t[0].repeat_interleave(t[1], dim=a["dim"]),
    "repeat_interleave_counts": lambda t, a, d: tide.repeat_interleave(t[0]),
    "movedim": lambda t, a, d: tide.movedim(t[0], a["source"], a["destination"]),
    "swapaxes": lambda t, a, d: tide.swapaxes(t[0], a["dim0"], a["dim1"]),
    "unflatten": lambda t, a, d: t[0].unflatten(a["dim"], a["sizes"]),
    "unbind": lambda t, a, d: list(tide.unbind(t[0], a["dim"])),
    "tensor_split": lambda t, a, d: list(tide.tensor_split(t[0], a["sections"], dim=a["dim"])),
    "tensor_split_indices": lambda t, a, d: list(t[0].tensor_split(a["indices"], a["dim"])),
    "split_with_sizes": lambda t, a, d: list(t[0].split_with_sizes(a["sizes"], a["dim"])),
    "broadcast_to": lambda t, a, d: tide.broadcast_to(t[0], a["size"]),
    "broadcast_tensors": lambda t, a, d: list(tide.broadcast_tensors(*t)),
    "ravel": lambda t, a, d: tide.ravel(t[0]),
    "atleast_1d": lambda t, a, d: tide.atleast_1d(t[0]),
    "atleast_2d": lambda t, a, d: tide.atleast_2d(t[0]),
    "atleast_3d": lambda t, a, d: tide.atleast_3d(t[0]),
    "hstack": lambda t, a, d: tide.hstack(t),
    "vstack": lambda t, a, d: tide.vstack(t),
    "dstack": lambda t, a, d: tide.dstack(t),
    "column_stack": lambda t, a, d: tide.column_stack(t),
    "dot": lambda t, a, d: tide.dot(t[0], t[1]),
    "vdot": lambda t, a, d: t[0].vdot(t[1]),
    "mv": lambda t, a, d: tide.mv(t[0], t[1]),
    "outer": lambda t, a, d: tide.outer(t[0], t[1]),
    "inner": lambda t, a, d: tide.inner(t[0], t[1]),
    "kron": lambda t, a, d: tide.kron(t[0], t[1]),
    "addmv": lambda t, a, d: tide.addmv(t[0], t[1], t[2], beta=a["beta"], alpha=a["alpha"]),
    "addr": lambda t, a, d: t[0].addr(t[1], t[2], beta=a["beta"], alpha=a["alpha"]),
    "baddbmm": lambda t, a, d: tide.baddbmm(t[0], t[1], t[2], beta=a["beta"], alpha=a["alpha"]),
    "addbmm": lambda t, a, d: tide.addbmm(t[0], t[1], t[2], beta=a["beta"], alpha=a["alpha"]),
    "einsum": lambda t, a, d: tide.einsum(a["equation"], *t),
    "tensordot": lambda t, a, d: tide.tensordot(t[0], t[1], (a["dims_a"], a["dims_b"])),
    "cross": lambda t, a, d: tide.cross(t[0], t[1], a["dim"]),
    "linalg_cross": lambda t, a, d: tide.linalg.cross(t[0], t[1], dim=a["dim"]),
    "trace": lambda t, a, d: tide.trace(t[0]),
    "tril": lambda t, a, d: tide.tril(t[0], a["diagonal"]),
    "triu": lambda t, a, d: t[0].triu(a["diagonal"]),
    "diagonal": lambda t, a, d: tide.diagonal(t[0], a["offset"], a["dim1"], a["dim2"]),
    "diag_embed": lambda t, a, d: tide.diag_embed(t[0], a["offset"], a["dim1"], a["dim2"]),
    "diag": lambda t, a, d: tide.diag(t[0], a["diagonal"]),
    "diagflat": lambda t, a, d: tide.diagflat(t[0], a["offset"]),
}


def same(actual, spec):
    assert actual.dtype is DTYPES[spec["dtype"]]
    assert list(actual.shape) == spec["shape"]
    want = [float(v) if isinstance(v, str) else v for v in spec["values"]]
    got = actual.reshape(-1).tolist()
    for g, w in zip(got, want):
        assert g == w or (math.isnan(g) and math.isnan(w)) or abs(g - w) <= 1e-5 * abs(w), (got, want)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("g", GOLDENS, ids=[g["name"] for g in GOLDENS])
def test_matches_torch(g, device):
    inputs = [tensor_of(t, device) for t in g["inputs"]]
    run = RUNNERS[g["op"]]
    if "raises" in g:
        with pytest.raises(RuntimeError):
            run(inputs, g["args"], device)
        return
    out = run(inputs, g["args"], device)
    outs = out if isinstance(out, list) else [out]
    assert len(outs) == len(g["outputs"])
    for t, spec in zip(outs, g["outputs"]):
        assert str(t.device) == device
        same(t.cpu(), spec)


def test_torch_argument_forms():
    x = tide.arange(6.0).reshape(2, 3)
    assert x.flip(0, 1).tolist() == [[5.0, 4.0, 3.0], [2.0, 1.0, 0.0]]
    assert x.flip((1,)).tolist() == [[2.0, 1.0, 0.0], [5.0, 4.0, 3.0]]
    assert x.repeat((1, 2)).shape == (2, 6)
    assert x.tile(2).shape == (2, 6)
    assert tide.roll(x, 1).tolist() == [[5.0, 0.0, 1.0], [2.0, 3.0, 4.0]]
    assert x.broadcast_to(2, 2, 3).shape == (2, 2, 3)
    assert x.moveaxis(0, 1).shape == (3, 2)
    assert tide.concatenate([x, x]).shape == (4, 3)
    assert tide.row_stack([x, x]).shape == (4, 3)
    assert tide.broadcast_shapes((2, 1), (3,), 1) == tide.Size([2, 3])
    with pytest.raises(RuntimeError):
        tide.broadcast_shapes((2,), (3,))
    a, b = tide.atleast_2d(tide.tensor(1.0), tide.tensor([1.0, 2.0]))
    assert a.shape == (1, 1) and b.shape == (1, 2)
    assert [t.shape for t in tide.hsplit(tide.zeros(2, 4), 2)] == [(2, 2), (2, 2)]
    assert [t.shape for t in tide.vsplit(tide.zeros(4, 2), [1])] == [(1, 2), (3, 2)]
    assert [t.shape for t in tide.dsplit(tide.zeros(1, 1, 4), 4)] == [(1, 1, 1)] * 4
    assert tide.einsum("ij,jk", [x, x.t()]).tolist() == (x @ x.t()).tolist()
    assert tide.tensordot(x, x.t(), 1).tolist() == (x @ x.t()).tolist()
    y = x.clone()
    assert y.triu_(1) is y and y.tolist() == [[0.0, 1.0, 2.0], [0.0, 0.0, 5.0]]
    s = tide.tensor([[1.0, -2.0], [3.0, 4.0]])
    assert s.tensor_split(tide.tensor([1]), 1)[0].shape == (2, 1)


def test_linalg_norms():
    a = tide.tensor([[1.0, -2.0], [3.0, 4.0]])
    assert tide.linalg.norm(a).item() == pytest.approx(math.sqrt(30))
    assert tide.linalg.norm(a, "fro").item() == pytest.approx(math.sqrt(30))
    assert tide.linalg.norm(a, 1).item() == 6.0  # the largest column sum of |a|
    assert tide.linalg.norm(a, -1).item() == 4.0
    assert tide.linalg.norm(a, math.inf).item() == 7.0  # the largest row sum
    assert tide.linalg.norm(a, -math.inf).item() == 3.0
    assert tide.linalg.norm(a, dim=1).tolist() == pytest.approx([math.sqrt(5), 5.0])
    assert tide.linalg.matrix_norm(a.expand(3, 2, 2), 1, keepdim=True).shape == (3, 1, 1)
    with pytest.raises(NotImplementedError):
        tide.linalg.norm(a, "nuc")


def test_einsum_backward_reaches_every_operand():
    a = tide.randn(2, 3, requires_grad=True)
    b = tide.randn(3, 4, requires_grad=True)
    tide.einsum("ij,jk->ik", a, b).sum().backward()
    assert a.grad.shape == (2, 3) and b.grad.shape == (3, 4)
    want = a.sum(0).detach().reshape(3, 1).expand(3, 4).reshape(-1).tolist()
    assert b.grad.reshape(-1).tolist() == pytest.approx(want)
