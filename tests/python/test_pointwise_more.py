"""Issue 25's later pointwise ops from Python: div's rounding modes, round(decimals), logit,
lgamma/digamma, the small ops (xlogy, heaviside, gcd, ...), the in-place forms in both
namespaces, and torch's aliases (values as torch 1.13 gives them; the C++ goldens check every
op against torch itself)."""

import math

import pytest

import tide


def close(a, b, tol=1e-6):
    return all(math.isclose(x, y, rel_tol=tol, abs_tol=1e-7) for x, y in zip(a, b))


def test_div_rounding_modes_as_torch():
    a = tide.tensor([7, -7, 7, -7])
    b = tide.tensor([2, 2, -2, -2])
    assert tide.div(a, b, rounding_mode="trunc").tolist() == [3, -3, -3, 3]
    assert tide.div(a, b, rounding_mode="floor").tolist() == [3, -4, -4, 3]
    assert tide.div(a, b, rounding_mode=None).tolist() == [3.5, -3.5, -3.5, 3.5]
    assert tide.div(a, b, rounding_mode="trunc").dtype is tide.int64
    assert tide.divide(a, 2, rounding_mode="floor").tolist() == [3, -4, 3, -4]
    x = tide.tensor([-7.5, 7.5])
    assert x.div(2.0, rounding_mode="trunc").tolist() == [-3.0, 3.0]
    y = x.clone()
    assert y.div_(2.0, rounding_mode="floor") is y and y.tolist() == [-4.0, 3.0]
    with pytest.raises(RuntimeError, match="rounding_mode to be one of None, 'trunc', or 'floor'"):
        tide.div(x, 2, rounding_mode="round")


def test_round_with_decimals():
    x = tide.tensor([1.23456, -2.5, 1234.5678])
    assert close(tide.round(x, decimals=2).tolist(), [1.23, -2.5, 1234.57])
    assert tide.round(x, decimals=-2).tolist() == [0.0, -0.0, 1200.0]
    y = x.clone()
    assert y.round_(decimals=1) is y and close(y.tolist(), [1.2, -2.5, 1234.6])
    assert tide.round(tide.tensor([3, 4]), decimals=0).tolist() == [3, 4]
    with pytest.raises(RuntimeError, match="not implemented for 'Long'"):
        tide.round(tide.tensor([3, 4]), decimals=1)


def test_logit_with_and_without_eps():
    x = tide.tensor([0.0, 0.25, 0.5, 1.0])
    assert close(tide.logit(x, eps=0.25).tolist(), [-math.log(3), -math.log(3), 0.0, math.log(3)])
    r = tide.logit(x).tolist()
    assert r[0] == -math.inf and r[3] == math.inf and close(r[1:3], [-math.log(3), 0.0])
    g = tide.tensor([0.1, 0.25, 0.9], requires_grad=True)
    tide.logit(g, eps=0.2).sum().backward()
    assert close(g.grad.tolist(), [0.0, 1 / (0.25 * 0.75), 0.0])
    y = tide.tensor([0.5])
    assert tide.logit_(y) is y and y.tolist() == [0.0]


def test_gamma_family_values_and_gradients():
    x = tide.tensor([0.5, 1.0, 3.5], dtype=tide.float64, requires_grad=True)
    assert close(tide.lgamma(x).tolist(), [math.lgamma(v) for v in [0.5, 1.0, 3.5]], 1e-12)
    euler = 0.5772156649015329
    assert close(tide.digamma(x).tolist(), [-euler - 2 * math.log(2), -euler,
                                            -euler - 2 * math.log(2) + 2 + 2 / 3 + 2 / 5], 1e-12)
    tide.digamma(x).sum().backward()  # trigamma: pi^2 / 2 at 1/2, pi^2 / 6 at 1
    assert close(x.grad.tolist()[:2], [math.pi ** 2 / 2, math.pi ** 2 / 6], 1e-9)
    assert tide.digamma(tide.tensor([0.0])).item() == -math.inf
    assert math.isnan(tide.digamma(tide.tensor([-2.0])).item())  # negative integers


def test_small_pointwise_ops():
    x = tide.tensor([0.0, 2.0, -1.0])
    y = tide.tensor([0.0, 4.0, 0.5])
    assert close(tide.xlogy(x, y).tolist(), [0.0, 2 * math.log(4), -math.log(0.5)])
    assert tide.heaviside(x, tide.tensor([0.5, 0.5, 0.5])).tolist() == [0.5, 1.0, 0.0]
    with pytest.raises(RuntimeError, match="different dtypes"):
        tide.heaviside(x, tide.tensor([1.0], dtype=tide.float64))
    assert close(tide.logaddexp2(tide.tensor([1.0]), tide.tensor([1.0])).tolist(), [2.0])
    assert tide.gcd(tide.tensor([12, -18, 0]), tide.tensor([18, 12, 0])).tolist() == [6, 6, 0]
    assert tide.lcm(tide.tensor([4, -6, 0]), tide.tensor([6, 4, 3])).tolist() == [12, 12, 0]
    assert tide.nextafter(tide.tensor([1.0], dtype=tide.float64),
                          tide.tensor([2.0], dtype=tide.float64)).item() == 1.0 + 2.0 ** -52
    assert close(tide.deg2rad(tide.tensor([180.0])).tolist(), [math.pi])
    assert close(tide.rad2deg(tide.tensor([math.pi])).tolist(), [180.0], 1e-6)
    assert tide.float_power(tide.tensor([2, 3]), 2).dtype is tide.float64
    assert tide.ldexp(tide.tensor([1.5]), tide.tensor([3])).tolist() == [12.0]
    assert tide.signbit(tide.tensor([-0.0, 0.0, -1.0])).tolist() == [True, False, True]
    inf = math.inf
    assert tide.isposinf(tide.tensor([inf, -inf, 1.0])).tolist() == [True, False, False]
    assert tide.isneginf(tide.tensor([inf, -inf, 1.0])).tolist() == [False, True, False]
    assert close(tide.sinc(tide.tensor([0.0, 0.5])).tolist(), [1.0, 2 / math.pi])
    assert tide.rsub(tide.tensor([1.0, 2.0]), 5.0, alpha=2).tolist() == [3.0, 1.0]
    assert tide.rsub(tide.tensor([1.0]), tide.tensor([4.0])).tolist() == [3.0]


def test_in_place_forms_in_both_namespaces():
    x = tide.tensor([0.25, 4.0])
    for name, f in [("exp", math.exp), ("log", math.log), ("sqrt", math.sqrt),
                    ("sigmoid", lambda v: 1 / (1 + math.exp(-v))), ("tanh", math.tanh),
                    ("neg", lambda v: -v), ("abs", abs), ("sin", math.sin)]:
        y = x.clone()
        assert getattr(y, name + "_")() is y and close(y.tolist(), [f(v) for v in [0.25, 4.0]])
        z = x.clone()
        assert getattr(tide, name + "_")(z) is z and close(z.tolist(), y.tolist())
    m = tide.tensor([1.0, 2.0, 3.0])
    assert m.clone().eq_(2.0).tolist() == [0.0, 1.0, 0.0]
    assert m.clone().gt_(tide.tensor([2.0])).tolist() == [0.0, 0.0, 1.0]
    assert m.clone().clamp_(min=1.5, max=2.5).tolist() == [1.5, 2.0, 2.5]
    assert tide.clamp_(m.clone(), max=2.0).tolist() == [1.0, 2.0, 2.0]
    assert m.clone().clamp_min_(2.0).tolist() == [2.0, 2.0, 3.0]
    assert m.clone().pow_(2).tolist() == [1.0, 4.0, 9.0]
    assert m.clone().logical_not_().tolist() == [0.0, 0.0, 0.0]
    n = tide.tensor([math.nan, 1.0])
    assert tide.nan_to_num_(n) is n and n.tolist() == [0.0, 1.0]
    z = m.clone()
    assert tide.zero_(z) is z and z.tolist() == [0.0, 0.0, 0.0]
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type Long"):
        tide.tensor([1, 2]).clamp_(0.5)


def test_in_place_forms_record_autograd():
    a = tide.tensor([0.5, 2.0], requires_grad=True)
    b = a * 1
    b.exp_().sum().backward()
    assert close(a.grad.tolist(), [math.exp(0.5), math.exp(2.0)])
    c = tide.tensor([0.5, 2.0, 3.0], requires_grad=True)
    (c * 1).clamp_(1.0, 2.5).sum().backward()
    assert c.grad.tolist() == [0.0, 1.0, 0.0]
    d = tide.tensor([2.0, 3.0], requires_grad=True)
    (d * 1).pow_(2).sum().backward()
    assert d.grad.tolist() == [4.0, 6.0]


def test_aliases_are_the_same_ops():
    x = tide.tensor([0.25, -0.5])
    y = tide.tensor([1.0, 2.0])
    pairs = [("arccos", "acos"), ("arcsin", "asin"), ("arctan", "atan"), ("arcsinh", "asinh"),
             ("arctanh", "atanh"), ("absolute", "abs"), ("negative", "neg"), ("fix", "trunc")]
    for alias, name in pairs:
        assert getattr(tide, alias)(x).tolist() == getattr(tide, name)(x).tolist()
        assert getattr(x, alias)().tolist() == getattr(x, name)().tolist()
    assert tide.arccosh(y + 1).tolist() == tide.acosh(y + 1).tolist()
    assert tide.arctan2(x, y).tolist() == tide.atan2(x, y).tolist()
    assert tide.subtract(y, x, alpha=2).tolist() == tide.sub(y, x, alpha=2).tolist()
    assert tide.multiply(x, y).tolist() == (x * y).tolist()
    assert tide.true_divide(tide.tensor([1]), 2).tolist() == [0.5]
    for alias, name in [("greater", "gt"), ("greater_equal", "ge"), ("less", "lt"),
                        ("less_equal", "le"), ("not_equal", "ne")]:
        assert getattr(tide, alias)(x, 0.25).tolist() == getattr(tide, name)(x, 0.25).tolist()
    assert tide.clip(x, -0.25, 0.0).tolist() == [0.0, -0.25]
    assert x.clone().clip_(max=0.0).tolist() == [0.0, -0.5]
    z = x.clone()
    assert tide.arccos_(z) is z
    assert tide.positive(x).tolist() == x.tolist()
    with pytest.raises(RuntimeError, match="on a bool tensor is not supported"):
        tide.positive(tide.tensor([True]))
