"""Issue 25's reductions, scans and sorts from Python under torch's names and arguments: dim as
None, an int or a list; keepdim; var/std's unbiased and correction; the named tuples of the
(values, indices) ops; on the cpu and a simulated GPU (values as torch 1.13 gives them; the C++
goldens check every op against torch itself)."""

import math

import pytest

import tide

DEVICES = ["cpu", "cuda:1"]


def close(a, b, tol=1e-5):
    return all(math.isclose(x, y, rel_tol=tol, abs_tol=tol) for x, y in zip(a, b))


@pytest.mark.parametrize("device", DEVICES)
def test_prod_all_any_amax_amin(device):
    x = tide.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], device=device)
    assert x.prod().item() == 12.0
    assert tide.prod(x, 1).tolist() == [-6.0, -2.0]
    assert x.prod(0, keepdim=True).shape == (1, 3)
    assert tide.prod(tide.tensor([2, 3], device=device)).dtype is tide.int64
    assert x.prod(dtype=tide.float64).dtype is tide.float64
    b = tide.tensor([[True, False], [True, True]], device=device)
    assert b.all().item() is False and b.any().item() is True
    assert tide.all(b, 1).tolist() == [False, True]
    assert tide.any(b, dim=0, keepdim=True).tolist() == [[True, True]]
    assert x.amax().item() == 4.0 and x.amin(dim=1).tolist() == [-2.0, -1.0]
    assert tide.amax(x, (0, 1), keepdim=True).shape == (1, 1)
    r = x.aminmax()
    assert type(r).__name__ == "aminmax" and (r.min.item(), r.max.item()) == (-2.0, 4.0)
    lo, hi = tide.aminmax(x, dim=0)
    assert lo.tolist() == [0.5, -2.0, -1.0] and hi.tolist() == [1.0, 4.0, 3.0]


@pytest.mark.parametrize("device", DEVICES)
def test_var_std_norm_logsumexp(device):
    x = tide.tensor([[1.0, 2.0, 3.0, 4.0], [2.0, 2.0, 2.0, 6.0]], device=device)
    assert close([x.var().item()], [2.5])
    assert close(x.var(1).tolist(), [5 / 3, 4.0])
    assert close(x.var(1, unbiased=False).tolist(), [1.25, 3.0])
    assert close(tide.var(x, dim=1, correction=2).tolist(), [2.5, 6.0])
    assert close([x.std(dim=[0, 1]).item()], [math.sqrt(2.5)])
    assert close([tide.std(x, False).item()], [math.sqrt(2.1875)])
    v, m = tide.var_mean(x, 1)
    assert close(v.tolist(), [5 / 3, 4.0]) and close(m.tolist(), [2.5, 3.0])
    s, m = tide.std_mean(x, dim=1, keepdim=True)
    assert s.shape == (2, 1) and close(m.flatten().tolist(), [2.5, 3.0])
    assert close([x.norm().item()], [math.sqrt(78.0)])
    assert close(tide.norm(x, p=1, dim=1).tolist(), [10.0, 12.0])
    assert close(x.norm(float("inf"), dim=1).tolist(), [4.0, 6.0])
    assert close([tide.linalg.vector_norm(x, ord=0).item()], [8.0])
    assert close(tide.linalg.vector_norm(x, 3, dim=[1]).tolist(),
                 [100.0 ** (1 / 3), 240.0 ** (1 / 3)])
    big = tide.tensor([[1000.0, 1000.0]], device=device)
    assert close(big.logsumexp(1).tolist(), [1000.0 + math.log(2.0)])
    assert tide.logsumexp(big, dim=[0, 1], keepdim=True).shape == (1, 1)
    assert tide.count_nonzero(tide.tensor([[0, 1], [2, 0]], device=device), dim=0).tolist() == [1, 1]


@pytest.mark.parametrize("device", DEVICES)
def test_scans(device):
    x = tide.tensor([[1, 2, 3], [4, 5, 6]], device=device)
    assert x.cumsum(1).tolist() == [[1, 3, 6], [4, 9, 15]]
    assert tide.cumprod(x, dim=0).tolist() == [[1, 2, 3], [4, 10, 18]]
    assert x.cumsum(0, dtype=tide.float64).dtype is tide.float64
    r = tide.tensor([1.0, 3.0, 2.0, 5.0], device=device).cummax(0)
    assert type(r).__name__ == "cummax"
    assert r.values.tolist() == [1.0, 3.0, 3.0, 5.0] and r.indices.tolist() == [0, 1, 1, 3]
    v, i = tide.cummin(tide.tensor([3.0, 1.0, 2.0], device=device), 0)
    assert v.tolist() == [3.0, 1.0, 1.0] and i.tolist() == [0, 1, 1]


@pytest.mark.parametrize("device", DEVICES)
def test_sorts_and_selections(device):
    x = tide.tensor([[3.0, 1.0, 2.0, 1.0], [0.0, -1.0, 5.0, 4.0]], device=device)
    s = x.sort()
    assert type(s).__name__ == "sort"
    assert s.values.tolist() == [[1.0, 1.0, 2.0, 3.0], [-1.0, 0.0, 4.0, 5.0]]
    assert s.indices.tolist() == [[1, 3, 2, 0], [1, 0, 3, 2]]
    v, i = tide.sort(x, dim=1, descending=True, stable=True)
    assert i.tolist() == [[0, 2, 1, 3], [2, 3, 0, 1]]
    assert tide.argsort(x, dim=0).tolist() == [[1, 1, 0, 0], [0, 0, 1, 1]]
    t = x.topk(2)
    assert type(t).__name__ == "topk" and t.values.tolist() == [[3.0, 2.0], [5.0, 4.0]]
    assert tide.topk(x, 1, largest=False).indices.tolist() == [[1], [1]]
    k = tide.kthvalue(x, 2, 1)
    assert k.values.tolist() == [1.0, 0.0] and k.indices.tolist() == [3, 0]
    assert x.median().item() == 1.0
    md = x.median(dim=1, keepdim=True)
    assert type(md).__name__ == "median" and md.values.tolist() == [[1.0], [0.0]]
    mo = tide.mode(tide.tensor([[1, 2, 2, 1, 1]], device=device), 1)
    assert type(mo).__name__ == "mode" and mo.values.tolist() == [1] and mo.indices.tolist() == [4]
    with pytest.raises(RuntimeError, match="selected index k out of range"):
        x.topk(5)


@pytest.mark.parametrize("device", DEVICES)
def test_compare_and_count(device):
    a = tide.tensor([1.0, 2.0, float("nan")], device=device)
    b = tide.tensor([1.0, 2.000001, float("nan")], device=device)
    assert tide.isclose(a, b).tolist() == [True, True, False]
    assert a.isclose(b, equal_nan=True).tolist() == [True, True, True]
    assert tide.allclose(a, b, equal_nan=True) is True
    assert a.allclose(b) is False
    assert tide.equal(a[:2], a[:2].clone()) is True and tide.equal(a[:2], b[:2]) is False
    u = tide.tensor([3, 1, 3, 2], device=device)
    assert tide.unique(u).tolist() == [1, 2, 3]
    vals, inv, cnt = tide.unique(u, return_inverse=True, return_counts=True)
    assert inv.tolist() == [2, 0, 2, 1] and cnt.tolist() == [1, 1, 2]
    assert vals.device == u.device
    assert u.bincount().tolist() == [0, 1, 1, 2]
    assert tide.bincount(u, minlength=6).tolist() == [0, 1, 1, 2, 0, 0]
    w = tide.tensor([0.5, 1.0, 1.5, 2.0], device=device)
    assert tide.bincount(u, weights=w).tolist() == [0.0, 1.0, 2.0, 2.0]
    h = tide.tensor([1.0, 2.0, 1.0, 5.0], device=device)
    assert tide.histc(h, bins=4, min=0, max=4).tolist() == [0.0, 2.0, 1.0, 0.0]
    assert h.histc(bins=2).tolist() == [3.0, 1.0]


def test_gradients_flow_through_the_new_ops():
    x = tide.tensor([[2.0, 0.0, 3.0], [1.0, 4.0, 1.0]], requires_grad=True)
    x.prod(1).sum().backward()
    assert x.grad.tolist() == [[0.0, 6.0, 0.0], [4.0, 1.0, 4.0]]
    y = tide.tensor([1.0, 3.0, 3.0], requires_grad=True)
    y.amax().backward()
    assert y.grad.tolist() == [0.0, 0.5, 0.5]
    z = tide.tensor([3.0, 1.0, 2.0], requires_grad=True)
    (z.sort().values * tide.tensor([1.0, 10.0, 100.0])).sum().backward()
    assert z.grad.tolist() == [100.0, 1.0, 10.0]
    c = tide.tensor([1.0, 2.0, 3.0], requires_grad=True)
    c.cumsum(0).sum().backward()
    assert c.grad.tolist() == [3.0, 2.0, 1.0]
    n = tide.tensor([3.0, 4.0], requires_grad=True)
    n.norm().backward()
    assert close(n.grad.tolist(), [0.6, 0.8])


# Note [Free functions bound directly]: x.topk and tide.topk's common calls are bound in C++
# and make torch's named tuple there; the other calls reach the Python definitions.
@pytest.mark.parametrize("device", DEVICES)
def test_topk_bound_directly_and_its_other_calls(device):
    x = tide.tensor([[3.0, 1.0, 2.0, 1.0], [0.0, -1.0, 4.0, 5.0]], device=device)
    for t in (x.topk(1), tide.topk(x, 1), tide.topk(input=x, k=1, dim=-1, largest=True,
                                                     sorted=True)):
        assert type(t) is tide.return_types.topk and isinstance(t, tuple)
        assert t.values.tolist() == [[3.0], [5.0]] and t.indices.tolist() == [[0], [3]]
        values, indices = t
        assert values.device == x.device and indices.dtype is tide.int64
    assert repr(x.topk(1)).startswith("tide.return_types.topk(\nvalues=tensor(")
    assert x.topk(k=2, dim=0, largest=False).values.tolist() == [[0.0, -1.0, 2.0, 1.0],
                                                                 [3.0, 1.0, 4.0, 5.0]]
    numpy = pytest.importorskip("numpy")
    assert tide.topk(x, numpy.int64(1)).indices.tolist() == [[0], [3]]
    assert x.topk(numpy.int64(1), dim=numpy.int64(0)).indices.tolist() == [[0, 0, 1, 1]]
    with pytest.raises(TypeError, match=r"^topk\(\): argument 'input' \(position 1\) must be "
                                        r"Tensor, not list$"):
        tide.topk([1.0], 1)
    with pytest.raises(TypeError):
        x.topk("1")
    with pytest.raises(RuntimeError, match="selected index k out of range"):
        tide.topk(x, 5)
