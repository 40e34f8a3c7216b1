"""tide.nn's activations, padding layers, losses, pooling, normalization, reshaping and
upsampling layers against torch 1.13 (tests/fixtures/nn_layers_goldens.json, written by
scripts/gen_nn_layers_goldens.py with Debian's torch): the same line of Python run with tide's
nn and F gives torch's outputs and gradients (of inputs, parameters and running statistics), on
the cpu and a simulated GPU, and torch's errors for misuse. The random layers in training mode
are checked by their statistics below."""

import json
import math
import pathlib

import pytest

import tide
import tide.nn as nn
import tide.nn.functional as F

GOLDENS = json.loads((pathlib.Path(__file__).resolve().parents[1] / "fixtures" /
                      "nn_layers_goldens.json").read_text())["cases"]
DEVICES = ["cpu", "cuda:1"]


def _tensor(spec, device):
    t = tide.tensor(spec["values"], dtype=getattr(tide, spec["dtype"])).reshape(spec["shape"])
    return t.to(device).requires_grad_(spec["requires_grad"])


def _assert_close(got, spec, what):
    """Equal to float64 rounding, but for torch's float32 constants in some float64 kernels
    (hardsigmoid's backward multiplies by 1.0f / 6.0f): 1e-7 of the value."""
    assert got.dtype == getattr(tide, spec["dtype"]), what
    assert list(got.shape) == spec["shape"], what
    values = got.detach().cpu().reshape(-1).tolist()
    for g, w in zip(values, spec["values"]):
        assert math.isclose(g, w, rel_tol=1e-7, abs_tol=1e-12) or (
            math.isnan(g) and math.isnan(w)), f"{what}: {values} != {spec['values']}"


def _flatten(out):
    if isinstance(out, tide.Tensor):
        return [out]
    return [t for o in out for t in _flatten(o)]


def _module(case, device):
    m = eval(case["module"], {"nn": nn, "F": F, "tide": tide})  # noqa: S307 - the goldens' text
    m = m.double().to(device)
    if case["eval"]:
        m.eval()
    m.load_state_dict({k: _tensor(v, device) for k, v in case["state"].items()})
    return m


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("case", GOLDENS, ids=lambda c: c["name"])
def test_layer_matches_torch(case, device):
    xs = [_tensor(spec, device) for spec in case["inputs"]]
    env = {"nn": nn, "F": F, "torch": tide}
    env.update({f"x{i}": x for i, x in enumerate(xs)})
    if "module" in case:
        env["m"] = _module(case, device)
    if "error" in case:
        with pytest.raises(RuntimeError) as info:
            eval(case["call"], env)  # noqa: S307
        assert str(info.value) == case["message"]
        return
    out = _flatten(eval(case["call"], env))  # noqa: S307
    assert len(out) == len(case["out"])
    for i, (got, want) in enumerate(zip(out, case["out"])):
        assert got.device == tide.device(device), i
        _assert_close(got, want, f"output {i}")
    if "backward_error" in case:
        return
    floating = [o for o in out if o.is_floating_point() and o.requires_grad]
    assert len(floating) == len(case["weights"])
    if floating:
        total = None
        for o, w in zip(floating, case["weights"]):
            term = (o * _tensor(w, device)).sum()
            total = term if total is None else total + term
        total.backward()
    for i, (x, want) in enumerate(zip(xs, case["grads"])):
        if want is None:
            assert x.grad is None or not x.requires_grad, f"input {i}"
        else:
            _assert_close(x.grad, want, f"gradient of input {i}")
    if "module" in case:
        params = dict(env["m"].named_parameters())
        assert sorted(k for k, p in params.items() if p.grad is not None) == \
            sorted(case["param_grads"])
        for name, want in case["param_grads"].items():
            _assert_close(params[name].grad, want, f"gradient of {name}")
        state = env["m"].state_dict()
        assert list(state) == list(case["state_after"])
        for name, want in case["state_after"].items():
            _assert_close(state[name], want, name)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("layer, shape", [(nn.Dropout1d, (50, 40, 3)),
                                          (nn.Dropout2d, (50, 40, 2, 2)),
                                          (nn.Dropout3d, (50, 40, 1, 2, 2))])
def test_feature_dropout_zeroes_whole_channels_and_scales_the_rest(layer, shape, device):
    tide.manual_seed(0)
    x = tide.ones(shape, device=device)
    y = layer(0.25)(x)
    channels = y.reshape(shape[0] * shape[1], -1).tolist()
    kept = [row for row in channels if row[0] != 0.0]
    assert all(row == [0.0] * len(row) for row in channels if row[0] == 0.0)
    assert all(v == pytest.approx(1 / 0.75) for row in kept for v in row)
    assert 0.65 < len(kept) / len(channels) < 0.85  # 2000 channels kept with probability 0.75
    unbatched = layer(0.25)(tide.ones(shape[1:], device=device))
    assert list(unbatched.shape) == list(shape[1:])


@pytest.mark.parametrize("device", DEVICES)
def test_alpha_dropout_keeps_mean_and_variance_of_a_standard_normal_input(device):
    tide.manual_seed(1)
    x = tide.randn(200000, dtype=tide.float64, device=device)
    y = nn.AlphaDropout(0.2)(x)
    dropped = (y - x).abs().gt(1e-9).to(dtype=tide.float64).mean().item()
    assert abs(y.mean().item()) < 0.02 and abs(y.var().item() - 1) < 0.03
    assert dropped > 0.19  # the kept elements move too (affine correction), the dropped more
    z = nn.FeatureAlphaDropout(0.5)(tide.randn(100, 20, 8, device=device))
    rows = z.reshape(2000, 8).tolist()
    saturated = [r for r in rows if max(r) - min(r) < 1e-6]  # a dropped channel is constant
    assert 800 < len(saturated) < 1200


def test_rrelu_draws_negative_slopes_between_lower_and_upper_in_training():
    tide.manual_seed(2)
    x = -tide.ones(10000, dtype=tide.float64)
    slopes = (nn.RReLU(0.1, 0.3)(x) / x).tolist()
    assert min(slopes) >= 0.1 and max(slopes) <= 0.3 and len(set(slopes)) > 9000
    assert nn.RReLU(0.1, 0.3)(tide.tensor([2.0])).item() == 2.0
    assert nn.RReLU(0.1, 0.3).eval()(tide.tensor([-2.0])).item() == pytest.approx(-0.4)


def test_in_place_activations_write_their_input_and_keep_its_gradient():
    leaf = tide.tensor([-1.0, 0.5, 7.0], requires_grad=True)
    x = leaf.clone()
    assert F.relu6(x, inplace=True) is x and x.tolist() == [0.0, 0.5, 6.0]
    y = leaf.clone()
    assert nn.Hardswish(inplace=True)(y) is y
    (x.sum() + y.sum()).backward()
    assert leaf.grad.tolist() == pytest.approx([0.0 + 1 / 6, 1.0 + 0.5 / 3 + 0.5, 0.0 + 1.0])


def test_layers_refuse_the_inputs_torch_refuses():
    with pytest.raises(ValueError, match=r"expected 2D or 3D input \(got 4D input\)"):
        nn.BatchNorm1d(3)(tide.ones(2, 3, 1, 1))
    with pytest.raises(ValueError, match=r"expected 5D input \(got 4D input\)"):
        nn.BatchNorm3d(3)(tide.ones(2, 3, 1, 1))
    with pytest.raises(ValueError, match="to match num_features"):
        nn.InstanceNorm1d(4, affine=True)(tide.ones(2, 3, 5))
    with pytest.raises(ValueError, match="Expected more than 1 spatial element"):
        F.instance_norm(tide.ones(2, 3, 1))
    with pytest.raises(ValueError, match="only p == 1 and p == 2 supported"):
        nn.MultiMarginLoss(p=3)
    with pytest.raises(ValueError, match="var has negative entry"):
        F.gaussian_nll_loss(tide.ones(2), tide.ones(2), -tide.ones(2))
    with pytest.raises(ValueError, match="padding='same' is not supported for strided"):
        F.conv1d(tide.ones(1, 1, 5), tide.ones(1, 1, 3), padding="same", stride=2)
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1"):
        F.dropout2d(tide.ones(1, 2, 2, 2), 1.5)


def test_conv1d_and_bilinear_have_torchs_parameters_and_bounds():
    tide.manual_seed(3)
    conv = nn.Conv1d(4, 6, 5, groups=2)
    assert [(n, list(p.shape)) for n, p in conv.named_parameters()] == [
        ("weight", [6, 2, 5]), ("bias", [6])]
    bound = 1 / math.sqrt(2 * 5)
    assert all(abs(v) <= bound for v in conv.weight.reshape(-1).tolist() + conv.bias.tolist())
    assert max(abs(v) for v in conv.weight.reshape(-1).tolist()) > 0.8 * bound
    assert nn.Conv1d(2, 3, 3, bias=False).bias is None
    assert repr(nn.Conv1d(2, 3, 3, padding=1, padding_mode="reflect")) == (
        "Conv1d(2, 3, kernel_size=(3,), stride=(1,), padding=(1,), padding_mode=reflect)")
    bil = nn.Bilinear(4, 3, 2)
    assert [(n, list(p.shape)) for n, p in bil.named_parameters()] == [
        ("weight", [2, 4, 3]), ("bias", [2])]
    assert all(abs(v) <= 0.5 for v in bil.weight.reshape(-1).tolist() + bil.bias.tolist())


def test_recurrent_layers_have_torchs_parameter_names_shapes_and_bounds():
    tide.manual_seed(4)
    lstm = nn.LSTM(3, 5, num_layers=2, bidirectional=True)
    names = [(n, list(p.shape)) for n, p in lstm.named_parameters()]
    assert names[:4] == [("weight_ih_l0", [20, 3]), ("weight_hh_l0", [20, 5]),
                         ("bias_ih_l0", [20]), ("bias_hh_l0", [20])]
    assert names[4][0] == "weight_ih_l0_reverse" and names[8] == ("weight_ih_l1", [20, 10])
    assert len(names) == 16 and len(lstm.all_weights) == 4
    bound = 1 / math.sqrt(5)
    values = [v for _, p in lstm.named_parameters() for v in p.reshape(-1).tolist()]
    assert all(abs(v) <= bound for v in values) and max(map(abs, values)) > 0.9 * bound
    assert [n for n, _ in nn.GRUCell(2, 3, bias=False).named_parameters()] == [
        "weight_ih", "weight_hh"]
    assert repr(nn.GRU(2, 3, num_layers=2, batch_first=True)) == \
        "GRU(2, 3, num_layers=2, batch_first=True)"
    out, (h, c) = lstm(tide.randn(7, 2, 3))
    assert list(out.shape) == [7, 2, 10] and list(h.shape) == list(c.shape) == [4, 2, 5]


def test_recurrent_dropout_applies_between_layers_in_training_only():
    tide.manual_seed(5)
    rnn = nn.RNN(4, 8, num_layers=2, dropout=0.5)
    x = tide.randn(6, 3, 4)
    rnn.eval()
    first, _ = rnn(x)
    again, _ = rnn(x)
    assert first.tolist() == again.tolist()
    rnn.train()
    trained, _ = rnn(x)
    assert trained.tolist() != first.tolist()
    with pytest.raises(ValueError, match="dropout should be a number in range"):
        nn.LSTM(2, 2, dropout=1.5)
    with pytest.raises(ValueError, match="Unknown nonlinearity 'gelu'"):
        nn.RNN(2, 2, nonlinearity="gelu")
    with pytest.raises(RuntimeError, match="input.size\\(-1\\) must be equal to input_size"):
        nn.GRU(3, 2)(tide.ones(4, 1, 2))
