"""torch.searchsorted and torch.bucketize (the C++ ops of src/ops/search.cpp, Note [searchsorted])
and x[False], against torch 1.13 run in the same process, on the cpu and a simulated GPU."""

import math

import pytest

import tide

torch = pytest.importorskip("torch", reason="the expected values come from Debian's torch 1.13")


@pytest.fixture(params=["cpu", "cuda:0"])
def device(request):
    return request.param


def both(values, **kw):
    return tide.tensor(values, device=kw.get("device", "cpu")), torch.tensor(values)


def same(ours, theirs):
    assert ours.dtype == {torch.int64: tide.int64, torch.int32: tide.int32}[theirs.dtype]
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert ours.cpu().tolist() == theirs.tolist()


@pytest.mark.parametrize("right", [False, True])
def test_searchsorted_of_one_row_and_of_a_batch_of_rows(device, right):
    seq = [1.0, 3.0, 3.0, 5.0, 7.0]
    values = [[0.0, 3.0, 4.0], [7.0, 8.0, math.nan]]
    a, ta = tide.tensor(seq, device=device), torch.tensor(seq)
    v, tv = tide.tensor(values, device=device), torch.tensor(values)
    same(tide.searchsorted(a, v, right=right), torch.searchsorted(ta, tv, right=right))
    rows = [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]]
    r, tr = tide.tensor(rows, device=device), torch.tensor(rows)
    same(tide.searchsorted(r, v, right=right), torch.searchsorted(tr, tv, right=right))
    same(tide.searchsorted(a, 3.0, right=right), torch.searchsorted(ta, 3.0, right=right))
    same(tide.searchsorted(a, v, out_int32=True), torch.searchsorted(ta, tv, out_int32=True))


def test_searchsorted_with_side_sorter_and_out():
    seq, tseq = tide.tensor([5, 1, 3]), torch.tensor([5, 1, 3])
    order, torder = tide.tensor([1, 2, 0]), torch.tensor([1, 2, 0])
    v, tv = tide.tensor([0, 3, 6]), torch.tensor([0, 3, 6])
    same(tide.searchsorted(seq, v, sorter=order, side="right"),
         torch.searchsorted(tseq, tv, sorter=torder, side="right"))
    out = tide.empty(3, dtype=tide.int64)
    assert tide.searchsorted(seq, v, sorter=order, out=out) is out
    same(out, torch.searchsorted(tseq, tv, sorter=torder))
    with pytest.raises(tide.Error, match="side and right can't be set to opposites"):
        tide.searchsorted(seq, v, side="left", right=True)
    with pytest.raises(tide.Error, match="first N-1 dimensions"):
        tide.searchsorted(tide.ones(2, 3), tide.ones(3, 1))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64", "int32", "uint8"])
def test_long_rows_of_every_dtype_give_torchs_positions(device, dtype):
    gen = torch.Generator().manual_seed(7)
    rows = torch.randint(0, 100, (3, 257), generator=gen).sort(-1).values
    values = torch.randint(-5, 105, (3, 40), generator=gen)
    if dtype.startswith("float"):
        values = values.float() + 0.5 * (torch.arange(40) % 2)  # half of them between entries
    rows, values = rows.to(getattr(torch, dtype)), values.to(getattr(torch, dtype))
    for right in (False, True):
        got = tide.searchsorted(tide.tensor(rows.tolist(), dtype=getattr(tide, dtype),
                                            device=device),
                                tide.tensor(values.tolist(), dtype=getattr(tide, dtype),
                                            device=device), right=right)
        same(got, torch.searchsorted(rows, values, right=right))


def test_mixed_dtypes_compare_promoted_and_empty_operands_as_torch(device):
    ints, tints = tide.tensor([1, 2, 3], device=device), torch.tensor([1, 2, 3])
    same(tide.searchsorted(ints, tide.tensor([1.5, 2.0, 9.0], device=device)),
         torch.searchsorted(tints, torch.tensor([1.5, 2.0, 9.0])))
    same(tide.searchsorted(ints, 2.5), torch.searchsorted(tints, 2.5))
    same(tide.searchsorted(tide.tensor([], device=device), tide.tensor([1.0], device=device)),
         torch.searchsorted(torch.tensor([]), torch.tensor([1.0])))
    same(tide.searchsorted(ints, tide.tensor([], dtype=tide.int64, device=device)),
         torch.searchsorted(tints, torch.tensor([], dtype=torch.int64)))
    with pytest.raises(tide.Error, match="input value can be a scalar only"):
        tide.searchsorted(tide.ones(2, 2, device=device), 1.0)
    with pytest.raises(tide.Error, match="sorter must be a tensor of long dtype"):
        tide.searchsorted(ints, ints, sorter=tide.tensor([0, 1, 2], dtype=tide.int32,
                                                          device=device))
    with pytest.raises(tide.Error, match="boundary and sorter must have the same size"):
        tide.searchsorted(ints, ints, sorter=tide.tensor([0, 1], device=device))
    with pytest.raises(tide.Error, match="side can only be 'left' or 'right'"):
        tide.searchsorted(ints, ints, side="middle")


@pytest.mark.parametrize("right", [False, True])
def test_bucketize_as_torch(device, right):
    boundaries = [1, 3, 5, 7, 9]
    values = [[3, 6, 9], [3, 6, 10]]
    b, tb = tide.tensor(boundaries, device=device), torch.tensor(boundaries)
    v, tv = tide.tensor(values, device=device), torch.tensor(values)
    same(tide.bucketize(v, b, right=right), torch.bucketize(tv, tb, right=right))
    same(tide.bucketize(4, b, right=right), torch.bucketize(4, tb, right=right))
    with pytest.raises(tide.Error, match="boundaries tensor must be 1 dimension"):
        tide.bucketize(v, tide.ones(2, 2))


def test_indexing_with_false_gives_an_empty_leading_dim_and_writes_nothing(device):
    x = tide.arange(6., device=device).reshape(2, 3)
    tx = torch.arange(6.).reshape(2, 3)
    assert tuple(x[False].shape) == tuple(tx[False].shape) == (0, 2, 3)
    assert tuple(x[True].shape) == tuple(tx[True].shape)
    assert tuple(x[:, False].shape) == tuple(tx[:, False].shape)
    x[False] = 7.0
    assert x.cpu().tolist() == tx.tolist()


def test_randint_like_keeps_the_inputs_shape_dtype_and_device(device):
    x = tide.zeros(2, 3, device=device)
    r = tide.randint_like(x, 5)
    assert r.shape == (2, 3) and r.dtype == tide.float32 and str(r.device) == device
    assert all(0 <= v < 5 and v == int(v) for row in r.cpu().tolist() for v in row)
    low_high = tide.randint_like(x, 2, 4, dtype=tide.int64)
    assert low_high.dtype == tide.int64
    assert all(2 <= v < 4 for row in low_high.cpu().tolist() for v in row)
