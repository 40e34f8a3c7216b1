"""Advanced indexing from Python: x[mask], x[mask] = v, several index tensors with slices, None
and Ellipsis, and the ops under torch's names (index_put_, masked_*, nonzero(as_tuple=),
where(cond), take, put_), on the cpu and a simulated GPU, against what torch 1.13 gives
(tests/fixtures/indexing_goldens.json, from scripts/gen_indexing_goldens.py)."""

import json
import math
import os
import struct

import pytest

import tide

GOLDENS = json.load(open(os.path.join(os.path.dirname(__file__), "..", "fixtures",
                                      "indexing_goldens.json")))
DTYPES = {"float32": tide.float32, "float64": tide.float64, "int64": tide.int64,
          "int32": tide.int32, "bool": tide.bool, "uint8": tide.uint8, "float16": tide.float16}
DEVICES = ["cpu", "cuda:0"]


def tensor_of(spec, device):
    values = [float(v) if isinstance(v, str) else v for v in spec["values"]]
    t = tide.tensor(values, dtype=DTYPES[spec["dtype"]])
    return t.reshape(spec["shape"]).to(device)


def key_of(spec, inputs):
    key = []
    for e in spec:
        if isinstance(e, dict) and "t" in e:
            key.append(inputs[e["t"]])
        elif isinstance(e, dict):
            key.append(slice(*e["slice"]))
        elif e == "...":
            key.append(Ellipsis)
        else:
            key.append(e)
    return tuple(key)


def indices_of(args, inputs):
    it = iter(inputs[1:])
    return [next(it) if e == "t" else None for e in args["indices"]]


def run(g, inputs):
    op, a = g["op"], g["args"]
    x = inputs[0]
    if op == "getitem":
        return x[key_of(a["key"], inputs)]
    if op == "setitem":
        y = x.clone()
        value = a["value"] if "value" in a else inputs[-1]
        y[key_of(a["key"], inputs)] = value
        return y
    if op == "index":
        return x[tuple(slice(None) if i is None else i for i in indices_of(a, inputs))]
    if op == "index_put":
        y = x.clone()
        assert y.index_put_(tuple(indices_of(a, inputs)), inputs[-1],
                            accumulate=a["accumulate"]) is y
        return y
    if op == "nonzero":
        return tide.nonzero(x)
    if op == "where_cond":
        return list(tide.where(x))
    if op == "take":
        return tide.take(x, inputs[1])
    if op == "put":
        return x.put(inputs[1], inputs[2], accumulate=a["accumulate"])
    if op == "masked_select":
        return tide.masked_select(x, inputs[1])
    if op == "masked_fill":
        return x.masked_fill(inputs[1], a["value"])
    if op == "masked_fill_tensor":
        return tide.masked_fill(x, inputs[1], inputs[2])
    if op == "masked_scatter":
        y = x.clone()
        assert y.masked_scatter_(inputs[1], inputs[2]) is y
        return y
    if op == "gather":
        return tide.gather(x, a["dim"], inputs[1])
    if op == "scatter":
        y = x.clone()
        assert y.scatter_(a["dim"], inputs[1], inputs[2]) is y
        return y
    if op == "scatter_value":
        return tide.scatter(x, a["dim"], inputs[1], a["value"])
    if op == "scatter_add":
        return x.scatter_add(a["dim"], inputs[1], inputs[2])
    if op == "scatter_reduce":
        y = x.clone()
        assert y.scatter_reduce_(a["dim"], inputs[1], inputs[2], a["reduce"],
                                 include_self=a["include_self"]) is y
        return y
    if op == "index_add":
        y = x.clone()
        assert y.index_add_(a["dim"], inputs[1], inputs[2], alpha=a["alpha"]) is y
        return y
    if op == "index_copy":
        return tide.index_copy(x, a["dim"], inputs[1], inputs[2])
    if op == "index_fill":
        y = x.clone()
        assert y.index_fill_(a["dim"], inputs[1], a["value"]) is y
        return y
    if op in ("searchsorted", "searchsorted_scalar"):
        value = a["value"] if op == "searchsorted_scalar" else inputs[1]
        sorter = inputs[-1] if len(inputs) == (2 if op == "searchsorted_scalar" else 3) else None
        return tide.searchsorted(x, value, out_int32=a["out_int32"], right=a["right"],
                                 side=a["side"], sorter=sorter)
    if op == "bucketize":
        return tide.bucketize(x, inputs[1], out_int32=a["out_int32"], right=a["right"])
    if op == "bucketize_scalar":
        return tide.bucketize(a["value"], x, out_int32=a["out_int32"], right=a["right"])
    raise AssertionError(f"no runner for {op}")


def same(actual, spec):
    assert actual.dtype is DTYPES[spec["dtype"]]
    assert list(actual.shape) == spec["shape"]
    want = [float(v) if isinstance(v, str) else v for v in spec["values"]]
    got = actual.reshape(-1).tolist()
    if spec["dtype"] == "float32":  # the JSON holds float32's shortest repr (0.16666667), not
        want = [_f32(w) for w in want]  # the double tolist() gives: compare as float32, exactly
        got = [_f32(g) for g in got]
    assert all(g == w or (math.isnan(g) and math.isnan(w)) for g, w in zip(got, want)), (got, want)


def _f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("g", GOLDENS, ids=[g["name"] for g in GOLDENS])
def test_matches_torch(g, device):
    inputs = [tensor_of(t, device) for t in g["inputs"]]
    if "raises" in g:
        # torch's IndexError where torch raises one on the cpu; a GPU reports a bad index found
        # by a kernel at the next synchronizing call, as a KernelError (a RuntimeError).
        expected = IndexError if g["error_type"] == "IndexError" and device == "cpu" else Exception
        with pytest.raises(expected):
            out = run(g, inputs)
            for t in out if isinstance(out, list) else [out]:
                t.cpu()
            tide.cuda.synchronize()
        return
    out = run(g, inputs)
    outs = out if isinstance(out, list) else [out]
    assert len(outs) == len(g["outputs"])
    for t, spec in zip(outs, g["outputs"]):
        assert str(t.device) == device
        same(t.cpu(), spec)


def test_the_readme_idioms():
    x = tide.tensor([[-1.0, 2.0], [3.0, -4.0]])
    x[x < 0] = 0
    assert x.tolist() == [[0.0, 2.0], [3.0, 0.0]]
    assert x[x > 0].tolist() == [2.0, 3.0]
    rows, cols = x.nonzero(as_tuple=True)
    assert rows.tolist() == [0, 1] and cols.tolist() == [1, 0]
    assert [t.tolist() for t in tide.where(x > 0)] == [[0, 1], [1, 0]]
    assert x[[1, 0]].tolist() == [[3.0, 0.0], [0.0, 2.0]]


def test_mask_assignment_and_read_have_gradients():
    w = tide.tensor([1.0, -2.0, 3.0], requires_grad=True)
    y = w * 1
    y[y < 0] = 0.0
    (y * tide.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert w.grad.tolist() == [1.0, 0.0, 3.0]
    v = tide.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v[tide.tensor([True, False, True])].sum().backward()
    assert v.grad.tolist() == [1.0, 0.0, 1.0]
    values = tide.tensor(5.0, requires_grad=True)
    z = tide.zeros(3).index_put((tide.tensor([0, 0, 2]),), values, accumulate=True)
    z.sum().backward()
    assert z.tolist() == [10.0, 0.0, 5.0] and values.grad.item() == 3.0


def test_cpu_indices_index_a_gpu_tensor_and_values_convert():
    x = tide.arange(6.0, device="cuda:0").reshape(2, 3)
    assert x[tide.tensor([1])].device == x.device
    x[:, tide.tensor([0, 2])] = tide.tensor(7)  # an int64 value into float32, as torch
    assert x.cpu().tolist() == [[7.0, 1.0, 7.0], [7.0, 4.0, 7.0]]


def test_bad_indices_raise_index_error():
    x = tide.zeros(3, 4)
    with pytest.raises(IndexError, match="out of bounds for dimension 1 with size 4"):
        x[:, tide.tensor([4])]
    with pytest.raises(IndexError):
        x[tide.tensor([0.5])]
    assert issubclass(tide.IndexingError, RuntimeError)


@pytest.mark.parametrize("reduce", ["sum", "mean", "prod", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_gradients_match_torch(reduce, include_self):
    torch = pytest.importorskip("torch")
    # Ties (2.0 twice at row 0's place 0, 0.75 twice at row 1's place 3) and zeros (a single
    # one of src's at row 1's place 3, self's at row 0's place 2) take the formulas' special
    # cases.
    a = [[2.0, -1.25, 0.0, 0.75], [1.5, 0.25, -2.5, 0.75]]
    s = [[2.0, -0.5, 1.25], [0.75, 0.0, -1.5]]
    i = [[0, 2, 0], [3, 3, 1]]
    weights = [[1.0, 2.0, 3.0, 4.0], [-1.0, 0.5, 2.0, 1.5]]
    grads = {}
    for lib in (tide, torch):
        x = lib.tensor(a, requires_grad=True)
        y = lib.tensor(s, requires_grad=True)
        out = lib.scatter_reduce(x, 1, lib.tensor(i), y, reduce, include_self=include_self)
        (out * lib.tensor(weights)).sum().backward()
        grads[lib] = [sum(t.tolist(), []) for t in (out, x.grad, y.grad)]
    for got, want in zip(grads[tide], grads[torch]):
        assert got == pytest.approx(want, abs=1e-6)


def test_scatter_reduce_forms_and_refusals():
    x = tide.tensor([[1.0, 2.0, 3.0]])
    i, s = tide.tensor([[0, 0, 2]]), tide.tensor([[4.0, -5.0, 6.0]])
    assert x.scatter_reduce(1, i, s, "amax").tolist() == [[4.0, 2.0, 6.0]]
    out = tide.empty(0)
    assert tide.scatter_reduce(x, 1, i, s, "prod", include_self=False, out=out) is out
    assert out.tolist() == [[-20.0, 2.0, 6.0]]
    with pytest.raises(RuntimeError, match="reduce argument must be either sum, prod, mean"):
        x.scatter_reduce(1, i, s, "max")
    y = x.clone()
    assert y.scatter_reduce_(1, i, s, "amin", include_self=False) is y
    assert y.tolist() == [[-5.0, 2.0, 6.0]]


# Note [Free functions bound directly]: tide.gather's common call is bound in C++; every other
# call reaches its Python definition, which behaves as before.
@pytest.mark.parametrize("device", DEVICES)
def test_gather_bound_directly_and_its_other_calls(device):
    a = tide.arange(6.0, device=device).reshape(2, 3)
    index = tide.tensor([[2, 0], [1, 1]], device=device)
    assert tide.gather(a, 1, index).tolist() == [[2.0, 0.0], [4.0, 4.0]]
    assert tide.gather(input=a, dim=1, index=index).tolist() == [[2.0, 0.0], [4.0, 4.0]]
    out = tide.empty(0, device=device)
    assert tide.gather(a, 1, index, out=out) is out and out.tolist() == [[2.0, 0.0], [4.0, 4.0]]
    numpy = pytest.importorskip("numpy")
    assert tide.gather(a, numpy.int64(1), index).tolist() == [[2.0, 0.0], [4.0, 4.0]]
    with pytest.raises(TypeError, match=r"^gather\(\): argument 'input' \(position 1\) must be "
                                        r"Tensor, not list$"):
        tide.gather([1.0], 0, index)
    with pytest.raises(TypeError):
        tide.gather(a, "1", index)


@pytest.mark.parametrize("device", DEVICES)
def test_mask_assignment_of_a_number_writes_as_index_put(device):
    # the direct masked fill (x's own shape, a number) and index_put_'s general path agree,
    # including the number's conversion to x's dtype and a self that autograd records
    for dtype in (tide.float32, tide.int64, tide.bool):
        x = tide.tensor([1, 0, 3, 0], device=device).to(dtype)
        y = x.clone()
        mask = tide.tensor([True, False, True, False], device=device)
        x[mask] = 2.75
        y.index_put_((mask,), tide.tensor(2.75).to(dtype))
        assert x.dtype is dtype and x.tolist() == y.tolist()
    w = tide.tensor([1.0, -2.0, 3.0], requires_grad=True, device=device)
    z = w * 1
    z[z < 0] = 0.5
    assert z.grad_fn is not None
    z.sum().backward()
    assert w.grad.tolist() == [1.0, 0.0, 1.0]
