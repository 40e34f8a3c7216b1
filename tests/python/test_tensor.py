"""tide.Tensor from Python: construction, attributes, printing, math, indexing, moving."""

import pytest

import tide


def test_tensor_from_nested_lists_infers_torch_dtypes():
    assert tide.tensor([1., 2.]).dtype is tide.float32
    assert tide.tensor([[1, 2, 3]]).dtype is tide.int64
    assert tide.tensor([True, False]).dtype is tide.bool
    assert tide.tensor([1, 2.5]).tolist() == [1.0, 2.5]
    assert tide.tensor(3).dim() == 0
    assert tide.tensor([[1, 2], [3, 4]]).shape == (2, 2)


def test_ragged_data_raises_with_torchs_words():
    with pytest.raises(RuntimeError, match="expected sequence of length 2 at dim 1"):
        tide.tensor([[1, 2], [3]])


def test_shape_is_a_size_that_prints_as_torch():
    x = tide.zeros(2, 3)
    assert isinstance(x.shape, tide.Size)
    assert repr(x.shape) == "tide.Size([2, 3])"
    assert x.size() == (2, 3) and x.size(1) == 3 and x.size(-1) == 3
    assert tide.zeros((4, 5)).shape == (4, 5)
    assert tide.empty([2]).shape == (2,)


def test_printing_matches_torch_with_the_tide_prefix():
    assert repr(tide.tensor([[1, 2, 3]])) == "tensor([[1, 2, 3]])"
    assert str(tide.full([3, 2], 0.3)) == ("tensor([[0.3000, 0.3000],\n"
                                           "        [0.3000, 0.3000],\n"
                                           "        [0.3000, 0.3000]])")
    assert repr(tide.tensor([1, 2], dtype=tide.int32)) == "tensor([1, 2], dtype=tide.int32)"
    assert repr(tide.float32) == "tide.float32"


def test_operators_and_reflected_forms():
    a = tide.tensor([1., 2.])
    b = tide.tensor([3., 4.])
    assert (a + b).tolist() == [4., 6.]
    assert (2 * a).tolist() == [2., 4.]
    assert (1 - a).tolist() == [0., -1.]
    assert (a / 2).tolist() == [0.5, 1.]
    assert (2 / a).tolist() == [2., 1.]
    assert (a ** 2).tolist() == [1., 4.]
    assert (-a).tolist() == [-1., -2.]
    assert (a < b).tolist() == [True, True]
    assert (a == 1).tolist() == [True, False]
    assert (tide.ones(2, 3) @ tide.ones(3, 4)).shape == (2, 4)


def test_in_place_operators_keep_the_object():
    a = tide.tensor([1., 2.])
    before = id(a)
    a += 1
    a *= tide.tensor([2., 2.])
    assert id(a) == before
    assert a.tolist() == [4., 6.]
    assert a.add_(1).tolist() == [5., 7.]


def test_reductions_with_torchs_dim_arguments():
    x = tide.arange(6, dtype=tide.float32).view(2, 3)
    assert x.sum().item() == 15.0
    assert x.sum(dim=1).tolist() == [3., 12.]
    assert x.sum((0, 1)).item() == 15.0
    assert x.mean(0, keepdim=True).shape == (1, 3)
    values, indices = x.max(dim=1)
    assert values.tolist() == [2., 5.] and indices.tolist() == [2, 2]
    assert tide.sum(x).item() == 15.0


def test_indexing_reads_and_writes_views():
    x = tide.arange(12).view(3, 4)
    assert x[1].tolist() == [4, 5, 6, 7]
    assert x[:, 1].tolist() == [1, 5, 9]
    assert x[1:3, ::2].tolist() == [[4, 6], [8, 10]]
    assert x[..., -1].tolist() == [3, 7, 11]
    assert x[None].shape == (1, 3, 4)
    assert x[tide.tensor([2, 0])].tolist() == [[8, 9, 10, 11], [0, 1, 2, 3]]
    x[0] = 0
    x[1, 1:3] = tide.tensor([-1, -2])
    assert x[:2].tolist() == [[0, 0, 0, 0], [4, -1, -2, 7]]
    with pytest.raises(IndexError, match="index 3 is out of bounds for dimension 0 with size 3"):
        x[3]
    assert [row.tolist() for row in tide.tensor([[1], [2]])] == [[1], [2]]


def test_scalars_and_formatting():
    loss = tide.tensor(0.25)
    assert float(loss) == 0.25
    assert f"{loss:.3f}" == "0.250"
    assert int(tide.tensor(3)) == 3
    assert bool(tide.tensor([True]))
    with pytest.raises(RuntimeError, match="ambiguous"):
        bool(tide.tensor([1, 2]))


def test_legacy_constructors_of_the_seeds():
    x = tide.Tensor([1, 3])
    assert x.dtype is tide.float32 and x.tolist() == [1., 3.]
    assert tide.Tensor(8, 42).shape == (8, 42)
    assert tide.FloatTensor(2, 3).dtype is tide.float32
    assert tide.LongTensor(1).dtype is tide.int64
    assert x.long().dtype is tide.int64
    assert x.type() == "tide.FloatTensor"
    assert tide.LongTensor(1).new([[1, 2, 3]]).tolist() == [[1, 2, 3]]
    assert x.new(8, 10, 10).fill_(0.3).shape == (8, 10, 10)


def test_new_and_like_factories_keep_dtype_and_device():
    x = tide.empty(2, dtype=tide.int64)
    assert x.new_tensor([[1, 2, 3]]).dtype is tide.int64
    assert x.new_full([3, 2], fill_value=7).tolist() == [[7, 7]] * 3
    assert x.new_zeros(3, 4).shape == (3, 4)
    assert tide.ones_like(x).dtype is tide.int64
    assert tide.zeros_like(x, dtype=tide.float64).dtype is tide.float64


def test_autograd_from_python():
    w = tide.tensor([1., 2.], requires_grad=True)
    loss = (w * w).sum()
    assert loss.grad_fn is not None
    loss.backward()
    assert w.grad.tolist() == [2., 4.]
    w.grad = None
    assert w.grad is None
    with tide.no_grad():
        assert not (w * 2).requires_grad
    assert (w * 2).requires_grad
