"""tide's errors from Python: RuntimeError subclasses carrying the C++ message unchanged, and
the Python types torch raises where Python has a better one (TypeError, IndexError). After
each error the process and the devices keep working."""

import re

import pytest

import tide


def _still_works(device="cuda:0"):
    x = tide.tensor([1., 2.], device=device)
    assert (x * 2).sum().item() == 6.0
    tide.cuda.synchronize()


def test_the_exception_types_are_runtime_errors_exposed_where_torch_has_them():
    for t in (tide.Error, tide.OutOfMemoryError, tide.KernelError, tide.StreamRaceError,
              tide.InternalError):
        assert issubclass(t, RuntimeError) and issubclass(t, tide.Error)
    assert tide.cuda.OutOfMemoryError is tide.OutOfMemoryError


def test_ops_across_gpus_raise_naming_both_devices():
    a = tide.ones(2, device="cuda:0")
    b = tide.ones(2, device="cuda:1")
    with pytest.raises(tide.Error) as info:
        a + b
    assert type(info.value) is tide.Error
    assert str(info.value) == ("[add] Expected all tensors to be on the same device, but found at "
                               "least two devices, cuda:0 and cuda:1!")
    with pytest.raises(RuntimeError, match="cuda:0 and cpu"):
        a * tide.ones(2)
    # copy-like methods may cross devices, as the seeds say
    assert (a + b.to("cuda:0")).tolist() == [2., 2.]
    _still_works("cuda:1")


def test_out_of_memory_explains_the_allocator_and_what_to_try():
    with pytest.raises(tide.cuda.OutOfMemoryError) as info:
        tide.empty(2 ** 40, device="cuda:1")
    message = str(info.value)
    assert message.startswith("[CachingAllocator::malloc] CUDA out of memory. Tried to allocate "
                              "4096.00 GiB")
    for words in ("GPU 1 has a total capacity of", "reserved by the caching allocator but "
                  "unallocated", "empty_cache", "set_per_process_memory_fraction"):
        assert words in message
    _still_works("cuda:1")


def test_an_injected_out_of_memory_says_so_and_the_next_allocation_succeeds():
    tide._C._cuda.inject_oom_at(1, 0)
    with pytest.raises(tide.cuda.OutOfMemoryError, match="injected for testing"):
        tide.empty(1 << 22, device="cuda:0")  # a new segment: the injected failure hits it
    _still_works("cuda:0")


def test_an_async_kernel_failure_is_a_kernel_error_at_the_next_synchronizing_call():
    x = tide.tensor([1., 2., 3.], device="cuda:2")
    x.index_select(0, tide.tensor([5], device="cuda:2"))  # enqueued; fails on the device
    with pytest.raises(tide.KernelError) as info:
        tide.cuda.synchronize(2)
    message = str(info.value)
    assert re.search(r"kernel error in op 'index_select' .* of cuda:2", message)
    assert "index 5 (at position 0 of index) is out of bounds for dimension 0 with size 3" in message
    assert "The device remains usable" in message
    tide.cuda.synchronize(2)  # raised once
    _still_works("cuda:2")


def test_wrong_argument_types_raise_type_error():
    with pytest.raises(TypeError, match="argument 'size' must be a sequence of ints"):
        tide.ones("a")
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \+"):
        tide.ones(2) + "a"
    with pytest.raises(TypeError, match="expected a device"):
        tide.cuda.set_device(1.5)
    with pytest.raises(TypeError, match="expected a device"):
        tide.ones(2).to(device=3.5)
    with pytest.raises(TypeError, match="invalid type: 'torch.cuda.ComplexTensor'"):
        tide.set_default_tensor_type("torch.cuda.ComplexTensor")


def _one_line_type_error(fn):
    with pytest.raises(TypeError) as info:
        fn()
    message = str(info.value)
    assert "\n" not in message, message
    assert "incompatible function arguments" not in message
    return message


def test_a_wrong_argument_type_names_the_argument_in_one_line_as_torch():
    # Issue 25 item 9: torch's wording, not nanobind's list of C++ signatures.
    assert (_one_line_type_error(lambda: tide.ones(2, dtype="float"))
            == "ones(): argument 'dtype' must be tide.dtype, not str")
    assert (_one_line_type_error(lambda: tide.full((2,), "x"))
            == "full(): argument 'fill_value' must be Number, not str")
    assert (_one_line_type_error(lambda: tide.zeros_like(tide.ones(2), dtype=3))
            == "zeros_like(): argument 'dtype' must be tide.dtype, not int")
    assert (_one_line_type_error(lambda: tide.ones(2).to(dtype="float32"))
            == "to(): argument 'dtype' must be tide.dtype, not str")
    # Of two overloads, the one that matches longest is the one meant (torch's parser's
    # choice): add(Tensor, Number, alpha=str) is refused at alpha, not at other.
    assert (_one_line_type_error(lambda: tide.add(tide.ones(2), 1, alpha="x"))
            == "add(): argument 'alpha' must be Number, not str")
    # torch's words for a free function given something that is not a tensor.
    assert (_one_line_type_error(lambda: tide.sin("x"))
            == "sin(): argument 'input' (position 1) must be Tensor, not str")
    assert (_one_line_type_error(lambda: tide.sin(1.0))
            == "sin(): argument 'input' (position 1) must be Tensor, not float")
    # The process keeps working.
    assert tide.ones(2, dtype=tide.float64).sum().item() == 2.0


def test_a_tensor_method_bound_in_cpp_names_the_argument_in_one_line():
    # Note [A refusal overload]: the methods nanobind binds directly, no Python in between.
    x = tide.ones(2, 3)
    assert (_one_line_type_error(lambda: x.add("x"))
            == "add(): argument 'other' must be Tensor, not str")
    assert (_one_line_type_error(lambda: x.add(other="x"))
            == "add(): argument 'other' must be Tensor, not str")
    assert (_one_line_type_error(lambda: x.index_select("a", 1))
            == "index_select(): argument 'dim' must be int, not str")
    assert (_one_line_type_error(lambda: x.masked_fill(1, 2))
            == "masked_fill(): argument 'mask' must be Tensor, not int")
    assert _one_line_type_error(lambda: x.clamp("a")).startswith("clamp(): argument 'min' must be")
    assert (_one_line_type_error(lambda: x.add_(None))
            == "add_(): argument 'other' must be Tensor, not None")


def test_a_function_bound_in_cpp_names_the_argument_in_one_line():
    assert (_one_line_type_error(lambda: tide.manual_seed("a"))
            == "manual_seed(): argument 'seed' must be int, not str")
    assert (_one_line_type_error(lambda: tide.set_default_dtype("float"))
            == "set_default_dtype(): argument 'd' must be tide.dtype, not str")
    assert (_one_line_type_error(lambda: tide.cuda.set_per_process_memory_fraction("half"))
            .startswith("set_per_process_memory_fraction(): argument 'fraction' must be float"))
    assert (_one_line_type_error(lambda: tide.cat("x"))
            == "cat(): argument 'tensors' must be tuple of Tensors, not str")
    assert (_one_line_type_error(lambda: tide.Generator().manual_seed("a"))
            == "manual_seed(): argument 'seed' must be int, not str")
    assert (_one_line_type_error(lambda: tide.where(1, 2, 3))
            == "where(): argument 'condition' must be Tensor, not int")
    assert (_one_line_type_error(lambda: tide.ones(2).fill_("a"))
            == "fill_(): argument 'value' must be Number, not str")
    tide.manual_seed(0)  # the right types still work
    assert tide.get_default_dtype() == tide.float32


def test_a_refused_call_whose_types_all_fit_still_reads_in_one_line():
    # An int past int64 fits the 'dim' parameter's type but not its range.
    message = _one_line_type_error(lambda: tide.ones(2).index_select(2 ** 70, tide.zeros(1)))
    assert message.startswith("index_select(): no overload takes (self: Tensor, dim: int, "
                              "index: Tensor); it takes (self, dim: int, index: "), message


def test_the_refusal_overload_never_takes_a_call_a_conversion_serves():
    # It takes arguments only in nanobind's converting pass, after every real overload: an int
    # where a float is declared, a bool as a Number, a list as a sequence still work.
    x = tide.ones(2, 3)
    assert x.add(1).tolist() == [[2.0] * 3] * 2
    assert x.add(x, alpha=2).tolist() == [[3.0] * 3] * 2
    assert x.mul(True).tolist() == [[1.0] * 3] * 2
    assert x.clamp(min=0, max=1).tolist() == [[1.0] * 3] * 2
    assert x.permute([1, 0]).shape == (3, 2)
    assert x.masked_fill(x > 0, 0).sum().item() == 0


def test_every_cpp_bound_tensor_method_refuses_a_wrong_type_in_one_line():
    from tide._arg_errors import _SIGNATURES
    prefix = "tide._C.Tensor."  # the class where nanobind bound them
    methods = {key: value for key, value in _SIGNATURES.items() if key.startswith(prefix)}
    assert len(methods) > 100, sorted(methods)
    x = tide.ones(2, 3)
    checked = 0
    for _, (name, _, params) in sorted(methods.items()):
        method = getattr(tide.Tensor, name)
        name = name.lstrip("_")
        try:
            method(x, object())  # no parameter of a Tensor method takes an arbitrary object
        except TypeError as err:
            message = str(err)
            # One line naming the method, never nanobind's list (a method wrapped in Python
            # may check first and word it its own way: "backward: expected a Tensor ...").
            assert "\n" not in message and name in message, (name, message)
            assert "incompatible function arguments" not in message, (name, message)
            checked += 1
        except Exception as err:  # a wrapper in Python may check first, with its own error
            assert not isinstance(err, SystemError), (name, err)
    assert checked > 100, checked
    assert tide.ones(2).add(1).sum().item() == 4.0  # the process keeps working


def test_an_unreadable_overload_error_is_left_as_nanobind_wrote_it():
    from tide._arg_errors import translated
    assert translated(TypeError("something else"), "f") is None
    assert translated(TypeError("f(): incompatible function arguments. The following argument "
                                "types are supported:\n\nInvoked with types: int"), "f") is None


def test_bad_values_say_what_was_expected():
    n = tide.cuda.device_count()
    there = "there is 1 cuda device" if n == 1 else f"there are {n} cuda devices"
    with pytest.raises(tide.Error, match=rf"cuda:7 does not exist; {there}"):
        tide.ones(2, device="cuda:7")
    with pytest.raises(tide.Error, match=r"expected a cuda device, found 'cpu'"):
        tide.cuda.set_device("cpu")
    with pytest.raises(tide.Error, match=r"invalid device string 'gpu'"):
        tide.device("gpu")
    with pytest.raises(tide.Error, match="ambiguous"):
        bool(tide.ones(2))


def test_out_of_range_and_wrongly_typed_indices_raise_index_error():
    x = tide.zeros(3, 2)
    with pytest.raises(IndexError, match="index 5 is out of bounds for dimension 0 with size 3"):
        x[5]
    with pytest.raises(IndexError, match="index -3 is out of bounds for dimension 1 with size 2"):
        x[0, -3]
    with pytest.raises(IndexError, match="valid indices, found float"):
        x[1.5]
