"""Sharing memory with NumPy and torch through DLPack and the NumPy calls, without copies:
each test writes through one side and reads the other. Simulated GPUs refuse to share their
memory as CUDA memory (Note [DLPack on simulated GPUs] in python/src/bind_dlpack.cpp)."""

import gc
import weakref

import numpy as np
import pytest

import tide

NUMPY_DTYPES = [(tide.bool, np.bool_), (tide.uint8, np.uint8), (tide.int32, np.int32),
                (tide.int64, np.int64), (tide.float16, np.float16), (tide.float32, np.float32),
                (tide.float64, np.float64)]
ALL_DTYPES = [tide.bool, tide.uint8, tide.int32, tide.int64, tide.float16, tide.bfloat16,
              tide.float32, tide.float64]


def _torch():
    return pytest.importorskip("torch")


def _torch_dlpack_has_bool(torch):
    # torch 1.x has no bool in DLPack, in either direction ("Bool type is not supported").
    try:
        torch.utils.dlpack.to_dlpack(torch.tensor([True]))
        return True
    except RuntimeError:
        return False


# ---- NumPy

@pytest.mark.parametrize("dtype,np_dtype", NUMPY_DTYPES, ids=lambda d: str(d))
def test_numpy_shares_a_cpu_tensors_memory_both_ways(dtype, np_dtype):
    t = tide.zeros(2, 3, dtype=dtype)
    a = t.numpy()
    assert a.dtype == np_dtype and a.shape == (2, 3)
    a[1, 2] = 1
    assert t[1, 2].item() == 1
    t[0, 0] = 1
    assert a[0, 0] == 1


@pytest.mark.parametrize("dtype,np_dtype", NUMPY_DTYPES, ids=lambda d: str(d))
def test_from_numpy_shares_the_arrays_memory_both_ways(dtype, np_dtype):
    a = np.zeros((3, 2), dtype=np_dtype)
    t = tide.from_numpy(a)
    assert t.dtype is dtype and t.shape == (3, 2) and t.device == tide.device("cpu")
    t[2, 1] = 1
    assert a[2, 1] == 1
    a[0, 1] = 1
    assert t[0, 1].item() == 1
    u = tide.from_dlpack(a)  # the protocol, same result
    u[1, 0] = 1
    assert a[1, 0] == 1


def test_non_contiguous_views_keep_their_strides_and_offset():
    t = tide.arange(12.).reshape(3, 4)
    view = t[1:, 1::2]  # offset 5, strides (4, 2)
    a = view.numpy()
    assert a.tolist() == [[5., 7.], [9., 11.]]
    assert a.strides == (16, 8)
    a[0, 1] = -7
    assert t[1, 3].item() == -7
    tt = t.t().numpy()  # a transpose is shared too
    assert tt[3, 1] == -7 and tt.strides == (4, 16)

    b = np.arange(20, dtype=np.int64).reshape(4, 5)[::2, 1:4]
    u = tide.from_numpy(b)
    assert u.tolist() == b.tolist() and u.stride() == (10, 1)
    u[1, 2] = 100
    assert b[1, 2] == 100


def test_zero_dim_and_empty_arrays():
    s = tide.tensor(2.5)
    a = s.numpy()
    assert a.shape == () and a == 2.5
    a[()] = 4
    assert s.item() == 4
    z = tide.from_numpy(np.array(7, dtype=np.int32))
    assert z.dim() == 0 and z.item() == 7
    e = tide.from_numpy(np.zeros((2, 0), dtype=np.float32))
    assert e.shape == (2, 0) and e.numel() == 0
    assert tide.zeros(0, 3).numpy().shape == (0, 3)


def test_the_producer_can_go_first():
    a = np.arange(6.)
    alive = weakref.ref(a)
    t = tide.from_numpy(a)
    del a
    gc.collect()
    assert alive() is not None  # the tensor keeps the array
    assert t.tolist() == [0., 1., 2., 3., 4., 5.]
    del t
    gc.collect()
    assert alive() is None  # and lets it go with its last use

    t = tide.arange(4.)
    a = t.numpy()
    del t
    gc.collect()
    assert a.tolist() == [0., 1., 2., 3.]
    a[0] = 9  # still tide's memory, still writable
    assert a.tolist() == [9., 1., 2., 3.]


def test_tensor_of_an_array_copies():
    a = np.ones(3, dtype=np.float32)
    t = tide.tensor(a)
    t[0] = 5
    assert a[0] == 1 and t.tolist() == [5., 1., 1.]


def test_numpy_errors_say_what_to_do():
    with pytest.raises(TypeError, match=r"^can't convert cuda:0 device type tensor to numpy\. Use "
                       r"Tensor\.cpu\(\) to copy the tensor to host memory first\.$"):
        tide.ones(2, device="cuda:0").numpy()
    assert tide.ones(2, device="cuda:1").numpy(force=True).tolist() == [1., 1.]
    with pytest.raises(RuntimeError, match=r"Use tensor\.detach\(\)\.numpy\(\) instead"):
        tide.ones(2, requires_grad=True).numpy()
    with pytest.raises(RuntimeError, match=r"require gradient, use tensor\.detach\(\)"):
        tide.ones(2, requires_grad=True).__dlpack__()
    with pytest.raises(TypeError, match="BFloat16"):
        tide.ones(2, dtype=tide.bfloat16).numpy()
    with pytest.raises(TypeError, match=r"expected np\.ndarray \(got list\)"):
        tide.from_numpy([1, 2])
    with pytest.raises(TypeError, match=r"numpy\.int16.*supported types"):
        tide.from_numpy(np.zeros(2, dtype=np.int16))
    with pytest.raises(ValueError, match="negative"):
        tide.from_numpy(np.arange(4)[::-1])
    with pytest.raises(tide.Error, match="tide has no complex dtypes"):
        tide.from_dlpack(np.zeros(2, dtype=np.complex64))
    with pytest.raises(TypeError, match="expected an object with __dlpack__"):
        tide.from_dlpack([1, 2])


# ---- torch

@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_torch_reads_and_writes_a_tide_tensor(dtype):
    torch = _torch()
    if dtype is tide.bool and not _torch_dlpack_has_bool(torch):
        pytest.skip("this torch has no bool in DLPack")
    t = tide.zeros(2, 3, dtype=dtype)
    tt = torch.from_dlpack(t)
    assert tuple(tt.shape) == (2, 3) and str(tt.dtype) == "torch." + str(dtype).split(".")[1]
    tt[1, 1] = 1
    assert t[1, 1].item() == 1
    t[0, 2] = 1
    assert tt[0, 2].item() == 1


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_tide_reads_and_writes_a_torch_tensor(dtype):
    torch = _torch()
    if dtype is tide.bool and not _torch_dlpack_has_bool(torch):
        pytest.skip("this torch has no bool in DLPack")
    tt = torch.zeros(3, 2, dtype=getattr(torch, str(dtype).split(".")[1]))
    t = tide.from_dlpack(tt)
    assert t.dtype is dtype and t.shape == (3, 2)
    t[2, 0] = 1
    assert tt[2, 0].item() == 1
    tt[0, 1] = 1
    assert t[0, 1].item() == 1


def test_legacy_capsules_both_ways_and_views():
    torch = _torch()
    base = torch.arange(12.).reshape(3, 4)
    t = tide.from_dlpack(torch.utils.dlpack.to_dlpack(base[:, 1::2]))  # a capsule, strided
    assert t.tolist() == [[1., 3.], [5., 7.], [9., 11.]] and t.stride() == (4, 2)
    t[2, 1] = -1
    assert base[2, 3].item() == -1

    x = tide.arange(12.).reshape(3, 4)
    back = torch.utils.dlpack.from_dlpack(x.t().__dlpack__())
    assert back.stride() == (1, 4) and back[3, 2].item() == 11.
    back[0, 0] = 42
    assert x[0, 0].item() == 42
    with pytest.raises(TypeError, match="consumed only once"):
        capsule = torch.utils.dlpack.to_dlpack(base)
        tide.from_dlpack(capsule)
        tide.from_dlpack(capsule)


def test_torch_lifetimes_either_side_first():
    torch = _torch()
    tt = torch.arange(5.)
    t = tide.from_dlpack(tt)
    del tt
    gc.collect()
    assert t.tolist() == [0., 1., 2., 3., 4.]
    back = torch.from_dlpack(tide.arange(3, dtype=tide.int64) * 2)  # the tide tensor dies now
    gc.collect()
    assert back.tolist() == [0, 2, 4]


def test_zero_dim_and_empty_with_torch():
    torch = _torch()
    assert torch.from_dlpack(tide.tensor(3.5)).item() == 3.5
    assert tide.from_dlpack(torch.tensor(7)).item() == 7
    assert tuple(torch.from_dlpack(tide.zeros(0, 2)).shape) == (0, 2)
    assert tide.from_dlpack(torch.zeros(2, 0)).shape == (2, 0)


# ---- devices

def test_cpu_tensors_report_the_cpu_device():
    assert tide.ones(1).__dlpack_device__() == (1, 0)


def test_simulated_gpus_refuse_to_share_their_memory_as_cuda_memory():
    x = tide.ones(2, device="cuda:2")
    for call in (x.__dlpack_device__, x.__dlpack__):
        with pytest.raises(BufferError, match=r"cuda:2 is a simulated GPU.*copy it to the cpu"):
            call()
    torch = _torch()
    with pytest.raises(BufferError, match="simulated GPU"):
        torch.from_dlpack(x)
    assert torch.from_dlpack(x.cpu()).tolist() == [1., 1.]


def test_the_stream_argument_is_an_int_or_none_as_the_protocol_says():
    # Note [DLPack streams]: checked on every device, as torch; a cpu tensor has nothing to
    # wait for, so the valid values just share it.
    x = tide.arange(3.)
    for stream in (None, -1, 1, 2):
        assert tide.from_dlpack(x.__dlpack__(stream=stream)).tolist() == [0., 1., 2.]
    for stream in ("1", 1.0, True):
        with pytest.raises(TypeError, match="stream must be ``int`` or ``none``"):
            x.__dlpack__(stream=stream)
    with pytest.raises(ValueError, match=r"\[Tensor.__dlpack__\] expected stream None, -1 .*"
                       r"found -2"):
        x.__dlpack__(stream=-2)
    # A simulated GPU refuses before looking at the stream; a real one shares its memory.
    g = tide.ones(1, device="cuda:0")
    if tide.cuda.get_device_properties(0).simulated:
        with pytest.raises(BufferError, match="simulated GPU"):
            g.__dlpack__(stream=1)
    else:
        assert tide.from_dlpack(g.__dlpack__(stream=1)).cpu().tolist() == [1.]


def test_a_cuda_import_names_tides_current_stream_as_the_protocol_says(monkeypatch):
    # What tide.from_dlpack passes a CUDA producer's __dlpack__(stream=...): the current
    # stream's cudaStream_t, or 1 for the legacy default stream (cuda_stream 0, which the
    # protocol forbids), as torch does. Simulated streams have no cudaStream_t, so stand-ins
    # give the values a real GPU's streams would.
    from tide import _dlpack

    class RealStream:
        def __init__(self, cuda_stream):
            self.cuda_stream = cuda_stream

    asked = []
    handles = {0: 0, 1: 0x7F3A5C001230}
    monkeypatch.setattr(tide.cuda, "current_stream",
                        lambda device=None: asked.append(device) or RealStream(handles[device]))
    assert _dlpack._consumer_stream(0) == 1
    assert _dlpack._consumer_stream(1) == 0x7F3A5C001230
    assert asked == [0, 1]


def test_tensor_of_an_array_copies_whatever_its_layout():
    arr = np.arange(4, dtype=np.float32)
    t = tide.tensor(arr)
    arr[0] = 9
    assert t.tolist() == [0., 1., 2., 3.]
    assert tide.tensor(np.arange(4)[::-1]).tolist() == [3, 2, 1, 0]
    frozen = np.arange(3)
    frozen.setflags(write=False)
    assert tide.tensor(frozen).tolist() == [0, 1, 2]
    assert tide.tensor(np.float32(2.5)).item() == 2.5
    assert tide.tensor(arr, device="cuda:1").device == tide.device("cuda:1")
