"""out= on torch's functions that have no out form of their own in the op table yet (Note
[out= by copy] in python/tide/_ops.py): the values, and torch 1.13's checks and resizing."""

import warnings

import pytest

import tide


@pytest.fixture(params=["cpu", "cuda:0"])
def device(request):
    return request.param


def test_matmul_mul_and_cat_write_into_out_and_return_it(device):
    a = tide.arange(6., device=device).reshape(2, 3)
    out = tide.empty(2, 2, device=device)
    assert tide.matmul(a, a.T, out=out) is out
    assert out.tolist() == [[5., 14.], [14., 50.]]
    prod = tide.empty(2, 3, device=device)
    tide.mul(a, a, out=prod)
    assert prod.tolist() == (a * a).tolist()
    both = tide.empty(4, 3, device=device)
    assert tide.cat([a, a], out=both) is both
    assert both.tolist() == tide.cat([a, a]).tolist()
    summed = tide.empty(3, device=device)
    tide.sum(a, 0, out=summed)
    assert summed.tolist() == [3., 5., 7.]


def test_an_empty_out_takes_the_results_shape_and_keeps_its_dtype():
    a = tide.ones(2, 2)
    out = tide.empty(0, dtype=tide.float64)
    tide.add(a, a, out=out)
    assert out.shape == (2, 2) and out.dtype == tide.float64
    assert out.tolist() == [[2., 2.], [2., 2.]]


def test_a_non_empty_out_of_another_shape_is_resized_with_torchs_warning():
    out = tide.empty(3)
    with pytest.warns(UserWarning, match="An output with one or more elements was resized"):
        tide.matmul(tide.ones(2, 2), tide.ones(2, 2), out=out)
    assert out.shape == (2, 2) and out.tolist() == [[2., 2.], [2., 2.]]


def test_dtypes_are_checked_as_torch_checks_them():
    a = tide.ones(2, 2)
    # matmul writes its own dtype only; add casts into any dtype its result can become.
    with pytest.raises(tide.Error, match="Expected out tensor to have dtype tide.float32, but "
                                          "got tide.float64 instead"):
        tide.matmul(a, a, out=tide.empty(2, 2, dtype=tide.float64))
    with pytest.raises(tide.Error, match="result type tide.float32 can't be cast to the "
                                          "desired output type tide.int64"):
        tide.add(a, a, out=tide.empty(2, 2, dtype=tide.int64))
    wide = tide.empty(2, 2, dtype=tide.float64)
    tide.add(a, a, out=wide)
    assert wide.tolist() == [[2., 2.], [2., 2.]]
    flags = tide.empty(2, 2)
    tide.eq(a, a, out=flags)  # bool into float: allowed
    assert flags.tolist() == [[1., 1.], [1., 1.]]


def test_out_refuses_autograd_and_another_device():
    a = tide.ones(2, 2, requires_grad=True)
    with pytest.raises(tide.Error, match="don't support automatic differentiation"):
        tide.mul(a, a, out=tide.empty(2, 2))
    with tide.no_grad():
        out = tide.empty(2, 2)
        tide.mul(a, a, out=out)
    assert out.tolist() == [[1., 1.], [1., 1.]]
    with pytest.raises(tide.Error, match="on the same device"):
        tide.mul(tide.ones(2, device="cuda:0"), tide.ones(2, device="cuda:0"),
                 out=tide.empty(2))


def test_a_function_without_out_says_so_in_one_line():
    with pytest.raises(TypeError) as info:
        tide.relu(tide.ones(2), out=tide.empty(2))
    assert str(info.value) == "relu() got an unexpected keyword argument 'out'"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a matching out resizes nothing and warns nothing
        tide.matmul(tide.ones(2, 2), tide.ones(2, 2), out=tide.empty(2, 2))


# ---- out= on the rest of torch's functions that take it, checked against torch itself: for
# an out of each dtype, torch and tide both accept it (with the same values, dtype and shape)
# or both refuse it (Note [out= by copy]: each op's dtype rule was read off torch 1.13).

_A = [[0.5, -1.25, 2.0], [3.0, 0.25, -0.75], [1.5, 2.5, -2.0]]
_V = [0.5, -1.0, 2.0]
_B3 = [[[0.5, 1.0, -1.0], [2.0, 0.0, 1.5], [1.0, -0.5, 0.25]],
       [[1.0, 0.5, 0.0], [-1.0, 2.0, 0.5], [0.25, 1.0, -1.5]]]

_CASES = {
    "addbmm": lambda m, a, v, b: lambda o: m.addbmm(a, b, b, out=o),
    "addmv": lambda m, a, v, b: lambda o: m.addmv(v, a, v, out=o),
    "addr": lambda m, a, v, b: lambda o: m.addr(a, v, v, out=o),
    "baddbmm": lambda m, a, v, b: lambda o: m.baddbmm(b, b, b, out=o),
    "amax": lambda m, a, v, b: lambda o: m.amax(a, 0, out=o),
    "amin": lambda m, a, v, b: lambda o: m.amin(a, 1, out=o),
    "all": lambda m, a, v, b: lambda o: m.all(a > 0, 0, out=o),
    "any": lambda m, a, v, b: lambda o: m.any(a > 2, 1, out=o),
    "clip": lambda m, a, v, b: lambda o: m.clip(a, -1.0, 1.0, out=o),
    "cumsum": lambda m, a, v, b: lambda o: m.cumsum(a, 0, out=o),
    "cumprod": lambda m, a, v, b: lambda o: m.cumprod(a, 1, out=o),
    "prod": lambda m, a, v, b: lambda o: m.prod(a, 0, out=o),
    "deg2rad": lambda m, a, v, b: lambda o: m.deg2rad(a, out=o),
    "rad2deg": lambda m, a, v, b: lambda o: m.rad2deg(a, out=o),
    "diag": lambda m, a, v, b: lambda o: m.diag(a, out=o),
    "divide": lambda m, a, v, b: lambda o: m.divide(a, a + 4, out=o),
    "multiply": lambda m, a, v, b: lambda o: m.multiply(a, a, out=o),
    "subtract": lambda m, a, v, b: lambda o: m.subtract(a, v, out=o),
    "dot": lambda m, a, v, b: lambda o: m.dot(v, v, out=o),
    "vdot": lambda m, a, v, b: lambda o: m.vdot(v, v, out=o),
    "float_power": lambda m, a, v, b: lambda o: m.float_power(a, 2, out=o),
    "ger": lambda m, a, v, b: lambda o: m.ger(v, v, out=o),
    "outer": lambda m, a, v, b: lambda o: m.outer(v, v, out=o),
    "inner": lambda m, a, v, b: lambda o: m.inner(a, a, out=o),
    "kron": lambda m, a, v, b: lambda o: m.kron(a, a, out=o),
    "greater": lambda m, a, v, b: lambda o: m.greater(a, v, out=o),
    "greater_equal": lambda m, a, v, b: lambda o: m.greater_equal(a, v, out=o),
    "less": lambda m, a, v, b: lambda o: m.less(a, v, out=o),
    "less_equal": lambda m, a, v, b: lambda o: m.less_equal(a, v, out=o),
    "not_equal": lambda m, a, v, b: lambda o: m.not_equal(a, v, out=o),
    "histc": lambda m, a, v, b: lambda o: m.histc(a, bins=4, min=-2, max=3, out=o),
    "isposinf": lambda m, a, v, b: lambda o: m.isposinf(a / 0, out=o),
    "isneginf": lambda m, a, v, b: lambda o: m.isneginf(a / 0, out=o),
    "signbit": lambda m, a, v, b: lambda o: m.signbit(a, out=o),
    "ldexp": lambda m, a, v, b: lambda o: m.ldexp(a, m.ones_like(a), out=o),
    "logit": lambda m, a, v, b: lambda o: m.logit(a.abs() / 4, out=o),
    "logsumexp": lambda m, a, v, b: lambda o: m.logsumexp(a, 0, out=o),
    "masked_select": lambda m, a, v, b: lambda o: m.masked_select(a, a > 0, out=o),
    "nonzero": lambda m, a, v, b: lambda o: m.nonzero(a > 0, out=o),
    "mv": lambda m, a, v, b: lambda o: m.mv(a, v, out=o),
    "std": lambda m, a, v, b: lambda o: m.std(a, 0, out=o),
    "var": lambda m, a, v, b: lambda o: m.var(a, 1, out=o),
    "max": lambda m, a, v, b: lambda o: m.max(a, a.flip(0), out=o),
    "min": lambda m, a, v, b: lambda o: m.min(a, a.flip(1), out=o),
    "tril": lambda m, a, v, b: lambda o: m.tril(a, out=o),
    "triu": lambda m, a, v, b: lambda o: m.triu(a, 1, out=o),
    "pow_tensor_scalar": lambda m, a, v, b: lambda o: m.pow(a, 2, out=o),
    "pow_tensor_tensor": lambda m, a, v, b: lambda o: m.pow(a.abs(), v, out=o),
    "pow_scalar_tensor": lambda m, a, v, b: lambda o: m.pow(2, a, out=o),
    "hstack": lambda m, a, v, b: lambda o: m.hstack([a, a], out=o),
    "vstack": lambda m, a, v, b: lambda o: m.vstack([a, v], out=o),
    "row_stack": lambda m, a, v, b: lambda o: m.row_stack([v, v], out=o),
    "dstack": lambda m, a, v, b: lambda o: m.dstack([a, a], out=o),
    "column_stack": lambda m, a, v, b: lambda o: m.column_stack([v, a], out=o),
    "concatenate": lambda m, a, v, b: lambda o: m.concatenate([a, a], 1, out=o),
    "cross": lambda m, a, v, b: lambda o: m.cross(a, a.flip(0), dim=1, out=o),
    "linalg.cross": lambda m, a, v, b: lambda o: m.linalg.cross(a, a.flip(1), out=o),
    "linalg.norm": lambda m, a, v, b: lambda o: m.linalg.norm(a, out=o),
    "linalg.vector_norm": lambda m, a, v, b: lambda o: m.linalg.vector_norm(a, 3, 1, out=o),
    "linalg.matrix_norm": lambda m, a, v, b: lambda o: m.linalg.matrix_norm(a, 1, out=o),
}


def _call_into(module, name, out_dtype, device=None):
    """(result or None, error or None) of case `name` in module into an empty out of out_dtype."""
    kw = {} if device is None else {"device": device}
    a, v, b = (module.tensor(x, **kw) for x in (_A, _V, _B3))
    out = module.empty(0, dtype=out_dtype, **kw)
    try:
        result = _CASES[name](module, a, v, b)(out)
    except Exception as err:  # noqa: BLE001 - torch's error classes are what is compared
        return None, err
    assert result is out, f"{name}: out= returns out itself"
    return result, None


@pytest.mark.parametrize("out_dtype", ["float32", "float64", "int64", "bool"])
@pytest.mark.parametrize("name", sorted(_CASES))
def test_out_accepts_and_refuses_as_torch_does(name, out_dtype, device):
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want, want_err = _call_into(torch, name, getattr(torch, out_dtype))
        got, got_err = _call_into(tide, name, getattr(tide, out_dtype), device)
    assert (got_err is None) == (want_err is None), (
        f"{name} into {out_dtype}: torch {'raised ' + repr(want_err) if want_err else 'wrote'}, "
        f"tide {'raised ' + repr(got_err) if got_err else 'wrote'}")
    if want_err is not None:
        assert isinstance(got_err, (RuntimeError, tide.Error)), repr(got_err)
        return
    assert tuple(got.shape) == tuple(want.shape)
    assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1]
    flat_got, flat_want = got.reshape(-1).tolist(), want.reshape(-1).tolist()
    if got.is_floating_point():
        assert flat_got == pytest.approx(flat_want, rel=1e-5, abs=1e-6)
    else:
        assert flat_got == flat_want


_TUPLE_CASES = {
    "sort": lambda m, a: lambda o: m.sort(a, 1, out=o),
    "topk": lambda m, a: lambda o: m.topk(a, 2, out=o),
    "cummax": lambda m, a: lambda o: m.cummax(a, 0, out=o),
    "cummin": lambda m, a: lambda o: m.cummin(a, 1, out=o),
    "kthvalue": lambda m, a: lambda o: m.kthvalue(a, 2, 1, out=o),
    "mode": lambda m, a: lambda o: m.mode(a.round(), 0, out=o),
    "median": lambda m, a: lambda o: m.median(a, 1, out=o),
    "max": lambda m, a: lambda o: m.max(a, 0, out=o),
    "aminmax": lambda m, a: lambda o: m.aminmax(a, dim=0, out=o),
}


@pytest.mark.parametrize("values_dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(_TUPLE_CASES))
def test_several_results_go_into_a_tuple_of_outs_as_torchs(name, values_dtype, device):
    torch = pytest.importorskip("torch")
    results = []
    for module, kw in ((torch, {}), (tide, {"device": device})):
        a = module.tensor(_A, **kw)
        second = getattr(module, values_dtype if name == "aminmax" else "int64")
        outs = (module.empty(0, dtype=getattr(module, values_dtype), **kw),
                module.empty(0, dtype=second, **kw))
        try:
            got = _TUPLE_CASES[name](module, a)(outs)
        except Exception as err:  # noqa: BLE001
            results.append(err)
            continue
        assert got[0] is outs[0] and got[1] is outs[1]
        assert type(got).__name__.startswith(name)
        results.append([t.tolist() for t in got])
    want, got = results
    assert isinstance(got, Exception) == isinstance(want, Exception), (want, got)
    if not isinstance(want, Exception):
        assert got == want


def test_a_dtype_op_computes_in_outs_dtype():
    # torch's cumsum into an int64 out casts the input first: [0.5, 0.5] sums to [0, 0].
    out = tide.empty(0, dtype=tide.int64)
    tide.cumsum(tide.tensor([0.5, 0.5]), 0, out=out)
    assert out.tolist() == [0, 0]
    with pytest.raises(tide.Error, match="tide.bool is not implemented"):
        tide.cumsum(tide.ones(2), 0, out=tide.empty(0, dtype=tide.bool))


_FACTORIES = {
    "zeros": lambda m, o, **kw: m.zeros(2, 3, out=o, **kw),
    "ones": lambda m, o, **kw: m.ones((2,), out=o, **kw),
    "empty": lambda m, o, **kw: m.empty(4, out=o, **kw).zero_(),
    "full": lambda m, o, **kw: m.full((2, 2), 3, out=o, **kw),
    "arange": lambda m, o, **kw: m.arange(1, 7, 2, out=o, **kw),
    "linspace": lambda m, o, **kw: m.linspace(0, 1, 5, out=o, **kw),
    "logspace": lambda m, o, **kw: m.logspace(0, 2, 3, out=o, **kw),
    "eye": lambda m, o, **kw: m.eye(2, 3, out=o, **kw),
}


@pytest.mark.parametrize("out_dtype", ["float32", "float64", "int64"])
@pytest.mark.parametrize("name", sorted(_FACTORIES))
def test_factories_write_into_out_in_its_dtype_as_torchs(name, out_dtype, device):
    torch = pytest.importorskip("torch")
    want = _FACTORIES[name](torch, torch.empty(1, dtype=getattr(torch, out_dtype)))
    out = tide.empty(1, dtype=getattr(tide, out_dtype), device=device)
    got = _FACTORIES[name](tide, out)
    assert got is out and str(out.device) == str(tide.device(device))
    assert tuple(out.shape) == tuple(want.shape) and str(out.dtype).split(".")[-1] == str(want.dtype).split(".")[-1]
    assert out.reshape(-1).tolist() == pytest.approx(want.reshape(-1).tolist(), rel=1e-6)
    with pytest.raises(tide.Error, match="does not match dtype of out parameter"):
        other = tide.int32 if out_dtype != "int32" else tide.int64
        _FACTORIES[name](tide, tide.empty(0, dtype=getattr(tide, out_dtype)), dtype=other)


def test_random_factories_and_samplers_write_into_out(device):
    gen = tide.Generator(device).manual_seed(3)
    out = tide.empty(0, device=device)
    assert tide.rand(2, 3, out=out, generator=gen) is out and out.shape == (2, 3)
    assert tide.randn(4, out=out) is out and out.shape == (4,)
    ints = tide.empty(0, dtype=tide.int64, device=device)
    tide.randint(0, 5, (6,), out=ints)
    assert ints.shape == (6,) and all(0 <= v < 5 for v in ints.tolist())
    tide.randperm(5, out=ints)
    assert sorted(ints.tolist()) == [0, 1, 2, 3, 4]
    probs = tide.tensor([0.0, 1.0, 0.0, 0.0], device=device)
    tide.multinomial(probs, 1, out=ints)
    assert ints.tolist() == [1]
    with pytest.raises(tide.Error, match="Expected out tensor to have dtype tide.int64"):
        tide.multinomial(probs, 1, out=tide.empty(0, device=device))
    flags = tide.empty(0, dtype=tide.int64, device=device)
    tide.bernoulli(tide.tensor([0.0, 1.0], device=device), out=flags)  # any dtype, as torch
    assert flags.tolist() == [0, 1]
    sized = tide.empty(0, dtype=tide.float64, device=device)
    tide.normal(0.0, 1.0, (3,), out=sized)
    assert sized.shape == (3,) and sized.dtype == tide.float64
