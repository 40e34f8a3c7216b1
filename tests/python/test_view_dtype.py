"""Tensor.view(dtype): the same bytes read as another dtype, against torch (Note [A view as
another dtype] in src/tensor/views.cpp), on the cpu and a GPU."""

import pytest

import tide

torch = pytest.importorskip("torch")

CASES = [  # (values, dtype of the values, shape, narrow (dim, start, length) or None, view dtype)
    ([1.0, -2.5, 3.0, 0.5, 7.0, -1.0], "float32", (2, 3), None, "int32"),
    ([1.0, -2.5, 3.0, 0.5, 7.0, -1.0], "float32", (2, 3), None, "float16"),
    (list(range(16)), "uint8", (2, 8), None, "float32"),
    (list(range(32)), "uint8", (2, 16), (1, 0, 8), "float64"),
    ([True, False, True], "bool", (3,), None, "uint8"),
    (list(range(12)), "int64", (3, 4), (0, 1, 2), "bfloat16"),
]


@pytest.mark.parametrize("device", ["cpu", "cuda:0"])
@pytest.mark.parametrize("values, dtype, shape, narrow, view", CASES)
def test_view_dtype_reads_the_bytes_as_torch_does(values, dtype, shape, narrow, view, device):
    def make(lib, dev):
        t = lib.tensor(values, dtype=getattr(lib, dtype)).reshape(shape).to(dev)
        return t.narrow(*narrow) if narrow else t  # a view on the device, as on the cpu
    ours = make(tide, device).view(getattr(tide, view))
    theirs = make(torch, "cpu").view(getattr(torch, view))
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert ours.stride() == theirs.stride() and ours.storage_offset() == theirs.storage_offset()
    assert ours.device == tide.device(device) and ours.dtype == getattr(tide, view)
    assert ours.cpu().float().tolist() == theirs.float().tolist()


def test_the_keyword_form_and_torchs_errors():
    x = tide.zeros(2, 3)
    assert x.view(dtype=tide.int32).dtype == tide.int32
    with pytest.raises(RuntimeError, match=r"self.stride\(-1\) must be 1 to view float32 as "
                                           r"float16 \(different element sizes\), but got 3"):
        x.t().view(tide.float16)
    assert not tide.ones(3, requires_grad=True).view(tide.int32).requires_grad
