"""tide.nn.functional's conv2d, conv1d, poolings and batch_norm, and nn.Conv2d, MaxPool2d,
AvgPool2d, AdaptiveAvgPool2d and BatchNorm2d, against torch itself (Debian's python3-torch;
skipped without it) on cpu and a simulated GPU: outputs, gradients, running statistics, and the
modules' buffers moving with cuda()."""

import numpy as np
import pytest

import tide
import tide.nn as nn
import tide.nn.functional as F

torch = pytest.importorskip("torch")

# The last cuda device: another than the current one on simulated GPUs (three by default).
DEVICES = ["cpu", f"cuda:{tide.cuda.device_count() - 1}"]


@pytest.fixture(autouse=True)
def exact_float32_convolutions():
    """Real GPUs (TIDE_TEST_NATIVE=1) run cuDNN: in true float32 here, as the tolerances
    assume; simulated GPUs ignore the switch."""
    tide.backends.cudnn.allow_tf32 = False
    yield
    tide.backends.cudnn.allow_tf32 = True


def both(*shape, seed):
    """The same float32 values as a tide tensor and a torch tensor."""
    values = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    return tide.from_numpy(values.copy()), torch.from_numpy(values.copy())


def assert_close(got, want, tol=1e-4):
    np.testing.assert_allclose(np.asarray(got.detach().cpu().tolist(), dtype=np.float64),
                               want.detach().double().numpy(), rtol=tol, atol=tol)


def grads_of(outputs, inputs):
    return outputs, [t.grad for t in inputs]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("kwargs", [
    dict(stride=1, padding=0),
    dict(stride=(2, 1), padding=(1, 2), dilation=(1, 2)),
    dict(padding="same", dilation=2),
    dict(padding="valid", groups=2),
])
def test_conv2d_and_its_gradients_match_torch(device, kwargs):
    x, tx = both(2, 4, 9, 8, seed=1)
    w, tw = both(6, 4 // kwargs.get("groups", 1), 3, 2, seed=2)
    b, tb = both(6, seed=3)
    leaves = [t.to(device).requires_grad_() for t in (x, w, b)]
    tleaves = [t.requires_grad_() for t in (tx, tw, tb)]
    y = F.conv2d(*leaves, **kwargs)
    ty = torch.nn.functional.conv2d(*tleaves, **kwargs)
    assert y.device == tide.device(device)
    assert_close(y, ty)
    g, tg = both(*ty.shape, seed=4)
    (y * g.to(device)).sum().backward()
    (ty * tg).sum().backward()
    for leaf, tleaf in zip(leaves, tleaves):
        assert_close(leaf.grad, tleaf.grad)


def test_conv1d_matches_torch():
    x, tx = both(2, 3, 11, seed=5)
    w, tw = both(4, 3, 3, seed=6)
    assert_close(F.conv1d(x, w, None, 2, 1), torch.nn.functional.conv1d(tx, tw, None, 2, 1))


@pytest.mark.parametrize("device", DEVICES)
def test_poolings_and_their_gradients_match_torch(device):
    x, tx = both(2, 3, 9, 8, seed=7)
    cases = [
        lambda f, t: f.max_pool2d(t, 3, 2, 1, ceil_mode=True),
        lambda f, t: f.max_pool2d(t, (2, 3), padding=(1, 0), dilation=(2, 1)),
        lambda f, t: f.avg_pool2d(t, 3, 2, 1, count_include_pad=False),
        lambda f, t: f.avg_pool2d(t, 2, ceil_mode=True, divisor_override=3),
        lambda f, t: f.adaptive_avg_pool2d(t, (4, None)),
        lambda f, t: f.adaptive_avg_pool2d(t, 5),
    ]
    for case in cases:
        leaf = x.clone().to(device).requires_grad_()  # a fresh leaf: grads would accumulate
        tleaf = tx.clone().requires_grad_()
        y, ty = case(F, leaf), case(torch.nn.functional, tleaf)
        assert_close(y, ty)
        y.sum().backward()
        ty.sum().backward()
        assert_close(leaf.grad, tleaf.grad)
    values, indices = F.max_pool2d(x.to(device), 2, return_indices=True)
    tvalues, tindices = torch.nn.functional.max_pool2d(tx, 2, return_indices=True)
    assert indices.dtype == tide.int64
    assert indices.cpu().tolist() == tindices.tolist()


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("momentum", [0.1, None])
def test_batch_norm_2d_module_steps_match_torch(device, momentum):
    bn = nn.BatchNorm2d(3, momentum=momentum).to(device)
    tbn = torch.nn.BatchNorm2d(3, momentum=momentum)
    assert [n for n, _ in bn.named_buffers()] == ["running_mean", "running_var",
                                                   "num_batches_tracked"]
    assert list(bn.state_dict()) == list(tbn.state_dict())
    for step in range(3):
        x, tx = both(4, 3, 5, 5, seed=10 + step)
        assert_close(bn(x.to(device)), tbn(tx))
        assert_close(bn.running_mean, tbn.running_mean)
        assert_close(bn.running_var, tbn.running_var)
    assert bn.num_batches_tracked.item() == 3
    assert bn.running_mean.device == tide.device(device)
    assert not bn.running_mean.requires_grad
    bn.eval()
    tbn.eval()
    x, tx = both(2, 3, 4, 4, seed=20)
    assert_close(bn(x.to(device)), tbn(tx))
    assert bn.num_batches_tracked.item() == 3


def test_functional_batch_norm_updates_the_running_stats_in_place():
    x, tx = both(6, 2, 3, seed=21)
    mean, var = tide.zeros(2), tide.ones(2)
    tmean, tvar = torch.zeros(2), torch.ones(2)
    assert_close(F.batch_norm(x, mean, var, training=True, momentum=0.3),
                 torch.nn.functional.batch_norm(tx, tmean, tvar, training=True, momentum=0.3))
    assert_close(mean, tmean)
    assert_close(var, tvar)


def test_conv2d_module_defaults_and_cuda_moves_parameters_in_place():
    tide.manual_seed(0)
    conv = nn.Conv2d(4, 6, (3, 2), stride=2, padding=1, groups=2)
    assert tuple(conv.weight.shape) == (6, 2, 3, 2) and tuple(conv.bias.shape) == (6,)
    bound = 1 / np.sqrt(2 * 3 * 2)
    assert conv.weight.abs().max().item() <= bound
    assert repr(conv) == "Conv2d(4, 6, kernel_size=(3, 2), stride=(2, 2), padding=(1, 1), groups=2)"
    weight = conv.weight
    conv.cuda()
    assert weight.device == tide.device("cuda:0")
    assert nn.Conv2d(2, 2, 3, bias=False).bias is None
    with pytest.raises(ValueError, match="divisible by groups"):
        nn.Conv2d(3, 4, 3, groups=2)


def test_a_small_cnn_trains_on_a_simulated_gpu():
    tide.manual_seed(1)
    net = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(),
                        nn.MaxPool2d(2), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                        nn.Linear(4, 2)).cuda()
    x = tide.zeros(8, 1, 6, 6)
    for i in range(8):
        if i % 2 == 0:
            x[i, 0, :, i // 2 % 4 + 1] = 1.0
        else:
            x[i, 0, i // 2 % 4 + 1, :] = 1.0
    x = x.cuda()
    y = tide.tensor([0, 1] * 4).cuda()
    opt = tide.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    losses = []
    for _ in range(60):
        opt.zero_grad()
        loss = F.cross_entropy(net(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.2 * losses[0]
    net.eval()
    assert net(x).argmax(1).cpu().tolist() == [0, 1] * 4


def test_backends_cudnn_switches_are_module_attributes_over_the_cpp_ones():
    cudnn = tide.backends.cudnn
    assert cudnn.benchmark is False and cudnn.deterministic is False
    cudnn.benchmark = True
    cudnn.deterministic = True
    try:
        assert cudnn.benchmark is True and cudnn.deterministic is True
        # Convolutions still run (the switches only steer cuDNN on real GPUs).
        x = tide.ones(1, 1, 3, 3, device="cuda:0")
        assert F.conv2d(x, tide.ones(1, 1, 2, 2, device="cuda:0")).cpu().tolist() == \
            [[[[4.0, 4.0], [4.0, 4.0]]]]
    finally:
        cudnn.benchmark = False
        cudnn.deterministic = False
    assert cudnn.benchmark is False
    assert isinstance(cudnn.is_available(), bool)
    if cudnn.is_available():
        assert cudnn.version() >= 90000
    else:
        assert cudnn.version() is None
