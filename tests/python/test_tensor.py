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


def test_set_printoptions_follows_torch_call_by_call():
    # Expected texts from torch 1.13 running the same calls in the same order: the numbers
    # given persist, sci_mode is replaced by every call.
    x = tide.tensor([[1.125, -2.5, 3.0625], [100.5, 0.0, -0.25]])
    try:
        tide.set_printoptions(profile="short")
        assert repr(x) == ("tensor([[  1.12,  -2.50,   3.06],\n"
                           "        [100.50,   0.00,  -0.25]])")
        assert repr(tide.arange(10.)) == "tensor([0., 1., 2., 3., 4., 5., 6., 7., 8., 9.])"
        tide.set_printoptions(precision=6, sci_mode=True)
        assert repr(x[0]) == "tensor([1.125000e+00, -2.500000e+00, 3.062500e+00])"
        tide.set_printoptions(threshold=4)
        assert repr(tide.arange(10)) == "tensor([0, 1,  ..., 8, 9])"
        tide.set_printoptions(profile="full")
        assert repr(tide.arange(1001)).endswith(" 996,  997,  998,  999, 1000])")
        with pytest.raises(ValueError, match="profile must be one of"):
            tide.set_printoptions(profile="long")
        with pytest.raises(tide.Error, match="expected a precision from 0 to 100"):
            tide.set_printoptions(precision=-1)
    finally:
        tide.set_printoptions(profile="default")
    assert repr(x[0]) == "tensor([ 1.1250, -2.5000,  3.0625])"


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


def test_wrong_operand_types_raise_type_errors_with_the_type_named():
    x = tide.ones(2)
    with pytest.raises(TypeError):
        x += "a"
    with pytest.raises(TypeError, match="mul_\\(\\): expected a tensor or a number, found str"):
        x.mul_("a")
    with pytest.raises(TypeError, match="can't assign a str to a tide tensor"):
        x[0] = "a"
    with pytest.raises(TypeError, match="len\\(\\) of a 0-d tensor"):
        len(tide.tensor(1.0))
    import operator
    with pytest.raises(TypeError, match="only integer tensors of a single element"):
        operator.index(tide.tensor(1.5))
    with pytest.raises(RuntimeError, match="with no values is ambiguous"):
        bool(tide.ones(0))
    assert x.tolist() == [1.0, 1.0]


def test_python_ints_too_large_for_int64():
    x = tide.arange(4)
    assert x[:2 ** 70].tolist() == [0, 1, 2, 3]
    assert x[-2 ** 70:2].tolist() == [0, 1]
    assert x[3:1].tolist() == []
    with pytest.raises(IndexError, match="out of bounds for dimension 0 with size 4"):
        x[2 ** 70]
    with pytest.raises(OverflowError):
        x.sum(2 ** 70)
    with pytest.raises(OverflowError):
        tide.zeros(2 ** 70)
    with pytest.raises(TypeError, match="argument 'size' must be a sequence of ints or ints, "
                                        "found float"):
        tide.zeros(2.5)
    with pytest.raises(TypeError, match="expected ints for the size, found float at position 1"):
        tide.Tensor(2, 1.5)
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        x[::0]


def test_grad_assignment_is_checked_as_torch():
    w = tide.zeros(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="assigned grad has data of a different size"):
        w.grad = tide.ones(5)
    with pytest.raises(RuntimeError, match="assigned grad has data of a different type"):
        w.grad = tide.ones(3, dtype=tide.float64)
    w.grad = tide.ones(3)
    assert w.grad.tolist() == [1.0, 1.0, 1.0]


def test_max_and_min_over_a_dim_return_named_tuples():
    x = tide.tensor([[1., 5.], [7., 3.]])
    result = x.max(dim=1)
    assert result.values.tolist() == [5., 7.] and result.indices.tolist() == [1, 0]
    assert repr(result).startswith("tide.return_types.max(\nvalues=tensor([5., 7.]),")
    values, indices = x.min(0)
    assert values.tolist() == [1., 3.] and indices.tolist() == [0, 1]


def test_conversions_with_nothing_to_do_return_the_tensor_itself():
    x = tide.ones(2)
    assert x.float() is x
    assert x.to(tide.float32) is x
    assert x.to("cpu") is x
    assert x.double() is not x


def test_tensor_copies_and_keeps_the_source_device():
    src = tide.ones(2, device="cuda:1")
    copy = tide.tensor(src)
    assert copy.device == tide.device("cuda:1")
    copy += 1
    assert src.tolist() == [1.0, 1.0]


def test_deepcopy_of_tensors_keeps_values_flags_and_gradients():
    import copy
    w = tide.tensor([1., 2.], requires_grad=True)
    (w * w).sum().backward()
    w2 = copy.deepcopy(w)
    assert w2.tolist() == [1., 2.] and w2.requires_grad and w2.grad.tolist() == [2., 4.]
    w2.data.fill_(0)
    assert w.tolist() == [1., 2.]


def test_grad_mode_decorators():
    @tide.set_grad_enabled(False)
    def no_grad_inside():
        return tide.is_grad_enabled()

    assert tide.is_grad_enabled()
    assert no_grad_inside() is False
    assert tide.is_grad_enabled()

    @tide.no_grad()
    def also_no_grad():
        return tide.is_grad_enabled()

    assert also_no_grad() is False and tide.is_grad_enabled()
    with tide.inference_mode(False):
        assert tide.is_grad_enabled()
    with tide.inference_mode():
        assert not tide.is_grad_enabled()


def test_factories_accept_torchs_spellings():
    assert tide.randint(10, size=(3,)).shape == (3,)
    assert tide.device("cuda", None) == tide.device("cuda")
