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
