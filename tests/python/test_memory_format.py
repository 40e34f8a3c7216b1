"""Memory formats against torch itself (Note [Memory formats] in src/tensor/memory_format.cpp):
tide.channels_last and friends, contiguous/is_contiguous/to/clone/empty/*_like with
memory_format, the layouts pointwise ops and the nn ops give, and Module.to(memory_format=).
Strides and values are compared with torch 1.13's for the same calls, on the cpu and a GPU."""

import numpy as np
import pytest

import tide
import tide.nn.functional as F

torch = pytest.importorskip("torch")

FORMATS = ["contiguous_format", "preserve_format", "channels_last", "channels_last_3d"]


def pair(shape, seed=0):
    """The same float32 values as a tide tensor and a torch tensor, contiguous."""
    values = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    return tide.from_numpy(values.copy()), torch.from_numpy(values.copy())


def same(ours, theirs):
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert ours.stride() == theirs.stride()
    np.testing.assert_allclose(np.array(ours.cpu().tolist(), dtype=np.float64),
                               np.array(theirs.tolist(), dtype=np.float64), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", FORMATS)
def test_the_formats_are_objects_that_print_as_torchs(name):
    fmt = getattr(tide, name)
    assert isinstance(fmt, tide.memory_format)
    assert repr(fmt) == repr(getattr(torch, name)).replace("torch.", "tide.")
    assert str(fmt) == f"tide.{name}"
    assert fmt == getattr(tide, name) and fmt != (tide.channels_last if name != "channels_last"
                                                  else tide.contiguous_format)


LAYOUTS = [  # (name, make from (lib, x)) where x is a contiguous (2, 3, 4, 5) tensor
    ("contiguous(channels_last)", lambda lib, x: x.contiguous(memory_format=lib.channels_last)),
    ("to(memory_format=)", lambda lib, x: x.to(memory_format=lib.channels_last)),
    ("to(dtype, memory_format=)",
     lambda lib, x: x.to(lib.float64, memory_format=lib.channels_last)),
    ("clone keeps channels-last",
     lambda lib, x: x.contiguous(memory_format=lib.channels_last).clone()),
    ("clone(contiguous_format)", lambda lib, x: x.contiguous(
        memory_format=lib.channels_last).clone(memory_format=lib.contiguous_format)),
    ("clone(channels_last)", lambda lib, x: x.clone(memory_format=lib.channels_last)),
    ("clone of a gappy permutation", lambda lib, x: x.permute(0, 2, 3, 1)[:, :, ::2].clone()),
    ("to(dtype) of a gappy permutation",
     lambda lib, x: x.permute(0, 2, 3, 1)[:, :, ::2].to(lib.float64)),
    ("zeros_like keeps channels-last",
     lambda lib, x: lib.zeros_like(x.contiguous(memory_format=lib.channels_last))),
    ("ones_like(memory_format=)",
     lambda lib, x: lib.ones_like(x, memory_format=lib.channels_last)),
    ("full_like of a gappy tensor", lambda lib, x: lib.full_like(x[:, :, ::2], 2.5)),
    ("zeros_like of a transposed (1, n)", lambda lib, x: lib.zeros_like(x[0, 0, :1].t())),
    ("sin", lambda lib, x: x.contiguous(memory_format=lib.channels_last).sin()),
    ("add, channels-last first",
     lambda lib, x: x.contiguous(memory_format=lib.channels_last) + x),
    ("add, contiguous first", lambda lib, x: x + x.contiguous(memory_format=lib.channels_last)),
    ("mul by a Scalar", lambda lib, x: x.contiguous(memory_format=lib.channels_last) * 3),
    ("per-channel bias",
     lambda lib, x: x.contiguous(memory_format=lib.channels_last) + x[0, :, :1, :1]),
    ("sliced channels-last",
     lambda lib, x: x.contiguous(memory_format=lib.channels_last)[:, :, 1:3].exp()),
    ("where", lambda lib, x: lib.where(x.contiguous(memory_format=lib.channels_last) > 0, x, -x)),
    ("max_pool2d", lambda lib, x: lib.nn.functional.max_pool2d(
        x.contiguous(memory_format=lib.channels_last), 2)),
    ("avg_pool2d", lambda lib, x: lib.nn.functional.avg_pool2d(
        x.contiguous(memory_format=lib.channels_last), 2, 1)),
    ("adaptive_avg_pool2d", lambda lib, x: lib.nn.functional.adaptive_avg_pool2d(
        x.contiguous(memory_format=lib.channels_last), (2, 3))),
    ("batch_norm", lambda lib, x: lib.nn.functional.batch_norm(
        x.contiguous(memory_format=lib.channels_last), lib.zeros(3, device=x.device),
        lib.ones(3, device=x.device), training=True)),
]


@pytest.mark.parametrize("device", ["cpu", "cuda:0"])
@pytest.mark.parametrize("name, make", LAYOUTS, ids=[c[0] for c in LAYOUTS])
def test_layouts_match_torch(name, make, device):
    x, tx = pair((2, 3, 4, 5))
    same(make(tide, x.to(device)), make(torch, tx))


@pytest.mark.parametrize("device", ["cpu", "cuda:0"])
def test_conv2d_follows_a_channels_last_input_or_weight_and_its_gradients_match(device):
    x, tx = pair((2, 3, 6, 6), 1)
    w, tw = pair((4, 3, 3, 3), 2)
    cl = (tide.channels_last, torch.channels_last)
    for fx, fw in [(True, False), (False, True), (False, False)]:
        xs = x.to(device).contiguous(memory_format=cl[0]) if fx else x.to(device)
        ws = w.to(device).contiguous(memory_format=cl[0]) if fw else w.to(device)
        txs = tx.contiguous(memory_format=cl[1]) if fx else tx
        tws = tw.contiguous(memory_format=cl[1]) if fw else tw
        xs = xs.detach().requires_grad_()  # a fresh leaf: x.to("cpu") is x itself
        txs = txs.detach().requires_grad_()
        y, ty = F.conv2d(xs, ws, padding=1), torch.nn.functional.conv2d(txs, tws, padding=1)
        same(y, ty.detach())
        y.sum().backward()
        ty.sum().backward()
        same(xs.grad, txs.grad)


def test_is_contiguous_and_contiguous_with_memory_format():
    x, tx = pair((2, 3, 4, 5))
    for lib, t in [(tide, x), (torch, tx)]:
        c = t.contiguous(memory_format=lib.channels_last)
        assert c.is_contiguous(memory_format=lib.channels_last)
        assert not c.is_contiguous() and t.is_contiguous()
        assert c.contiguous(memory_format=lib.channels_last) is c  # already in the format
        assert not t.is_contiguous(memory_format=lib.channels_last)
        assert lib.empty(2, 1, 4, 5, memory_format=lib.channels_last).stride() == (20, 1, 5, 1)
        assert lib.empty((2, 3, 4, 5, 6), memory_format=lib.channels_last_3d).stride() == \
            (360, 1, 90, 18, 3)
    with pytest.raises(RuntimeError, match="required rank 4 tensor to use channels_last format"):
        tide.zeros(2, 3).contiguous(memory_format=tide.channels_last)
    with pytest.raises(RuntimeError, match="unsupported memory format Preserve"):
        tide.empty(2, 3, memory_format=tide.preserve_format)


def test_module_to_channels_last_converts_4d_parameters_only():
    tide.manual_seed(0)
    net = tide.nn.Sequential(tide.nn.Conv2d(3, 4, 3), tide.nn.BatchNorm2d(4),
                             tide.nn.Flatten(), tide.nn.Linear(4 * 4 * 4, 2))
    conv_weight = net[0].weight
    assert net.to(memory_format=tide.channels_last) is net
    assert net[0].weight is conv_weight  # in place, as every Module.to
    assert net[0].weight.is_contiguous(memory_format=tide.channels_last)
    assert net[0].weight.stride() == (27, 1, 9, 3)
    assert net[3].weight.is_contiguous() and net[1].weight.is_contiguous()
    x = tide.randn(2, 3, 6, 6).to(memory_format=tide.channels_last)
    y = net[1](net[0](x))
    assert y.is_contiguous(memory_format=tide.channels_last)
    net(x).sum().backward()
    assert net[0].weight.grad is not None
