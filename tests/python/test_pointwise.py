"""The op table's pointwise ops from Python: function, method, in-place and out= forms, autograd,
and the operators % // & | ^ ~ << >> with their reflected and in-place forms (values as torch
1.13 gives them; the C++ goldens check every op against torch itself)."""

import math

import pytest

import tide


def close(a, b):
    return all(math.isclose(x, y, rel_tol=1e-6, abs_tol=1e-7) for x, y in zip(a, b))


def test_sin_as_function_method_in_place_and_out():
    x = tide.tensor([0.0, 0.5, -2.0])
    want = [math.sin(v) for v in [0.0, 0.5, -2.0]]
    assert close(tide.sin(x).tolist(), want)
    assert close(x.sin().tolist(), want)
    out = tide.empty(3, dtype=tide.float64)
    assert tide.sin(x, out=out) is out
    assert out.dtype is tide.float64 and close(out.tolist(), want)
    y = x.clone()
    assert y.sin_() is y
    assert close(y.tolist(), want)
    assert tide.sin(tide.tensor([1, 2])).dtype is tide.float32


def test_in_place_and_out_refuse_what_torch_refuses():
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type Long"):
        tide.tensor([1, 2]).sin_()
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type Long"):
        tide.sin(tide.tensor([1.0]), out=tide.empty(1, dtype=tide.int64))


def test_sin_atan2_lerp_gradients():
    x = tide.tensor([0.5, -1.0], requires_grad=True)
    tide.sin(x).sum().backward()
    assert close(x.grad.tolist(), [math.cos(0.5), math.cos(-1.0)])
    a = tide.tensor([1.0], requires_grad=True)
    b = tide.tensor([2.0], requires_grad=True)
    tide.atan2(a, b).sum().backward()
    assert close(a.grad.tolist(), [2 / 5]) and close(b.grad.tolist(), [-1 / 5])
    s = tide.tensor([1.0, 2.0], requires_grad=True)
    e = tide.tensor([3.0, 6.0])
    r = tide.lerp(s, e, 0.25)
    assert r.tolist() == [1.5, 3.0]
    r.sum().backward()
    assert s.grad.tolist() == [0.75, 0.75]
    w = tide.tensor([0.5, 1.0])
    assert tide.lerp(s.detach(), e, w).tolist() == [2.0, 6.0]


def test_math_family_values():
    x = tide.tensor([0.25, 0.5])
    for name, f in [("cos", math.cos), ("tan", math.tan), ("asin", math.asin),
                    ("acos", math.acos), ("atan", math.atan), ("sinh", math.sinh),
                    ("cosh", math.cosh), ("asinh", math.asinh), ("atanh", math.atanh),
                    ("expm1", math.expm1), ("log2", math.log2), ("log10", math.log10),
                    ("log1p", math.log1p), ("erf", math.erf), ("erfc", math.erfc)]:
        assert close(getattr(tide, name)(x).tolist(), [f(0.25), f(0.5)]), name
    assert tide.floor(tide.tensor([-1.5, 1.5])).tolist() == [-2.0, 1.0]
    assert tide.ceil(tide.tensor([-1.5, 1.5])).tolist() == [-1.0, 2.0]
    assert tide.round(tide.tensor([0.5, 1.5, 2.5])).tolist() == [0.0, 2.0, 2.0]
    assert tide.sign(tide.tensor([-3, 0, 4])).tolist() == [-1, 0, 1]
    assert tide.isnan(tide.tensor([1.0, float("nan")])).tolist() == [False, True]
    assert tide.nan_to_num(tide.tensor([float("nan"), 1.0]), nan=2.0).tolist() == [2.0, 1.0]
    assert tide.fmod(tide.tensor([-3.0]), 2).tolist() == [-1.0]
    assert tide.remainder(tide.tensor([-3.0]), 2).tolist() == [1.0]
    assert tide.addcmul(tide.zeros(1), tide.ones(1), tide.full([1], 3.0), value=2).tolist() == [6.0]


def test_operators_and_their_reflected_and_in_place_forms():
    a = tide.tensor([-7, 5, 6])
    assert (a % 3).tolist() == [2, 2, 0]
    assert (a // 2).tolist() == [-4, 2, 3]
    assert (10 % tide.tensor([3, 4])).tolist() == [1, 2]
    assert (10 // tide.tensor([3, 4])).tolist() == [3, 2]
    assert (a & 3).tolist() == [1, 1, 2] and (3 & a).tolist() == [1, 1, 2]
    assert (a | 1).tolist() == [-7, 5, 7]
    assert (a ^ a).tolist() == [0, 0, 0]
    assert (~tide.tensor([0, -1])).tolist() == [-1, 0]
    assert (~tide.tensor([True, False])).tolist() == [False, True]
    assert (tide.tensor([1, 2]) << 2).tolist() == [4, 8]
    assert (tide.tensor([8, -8]) >> 1).tolist() == [4, -4]
    assert (1 << tide.tensor([1, 3])).tolist() == [2, 8]
    m = tide.tensor([True, False]) | tide.tensor([False, False])
    assert m.dtype is tide.bool and m.tolist() == [True, False]
    b = tide.tensor([5, 6])
    b %= 4
    b <<= 1
    b |= 1
    assert b.tolist() == [3, 5]
    assert (tide.tensor([2.5]) % 2).tolist() == [0.5]
    with pytest.raises(RuntimeError, match="not implemented for 'Float'"):
        tide.tensor([1.0]) & tide.tensor([1.0])
