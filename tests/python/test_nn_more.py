"""Issue 26's remaining nn pieces against torch 1.13 (tests/fixtures/nn_goldens.json, written by
scripts/gen_nn_goldens.py with Debian's torch): F.pad in every mode with its gradient and
errors, on the cpu and a simulated GPU; gradient clipping; Embedding's max_norm; ModuleDict,
ParameterList and ParameterDict; nn.init's bounds, moments and errors; load_state_dict's key
report and named_modules."""

import json
import math
import pathlib

import pytest

import tide
import tide.nn as nn
import tide.nn.functional as F

GOLDENS = json.loads((pathlib.Path(__file__).resolve().parents[1] / "fixtures" /
                      "nn_goldens.json").read_text())
DEVICES = ["cpu", "cuda:1"]


def close(a, b, tol=1e-6):
    if isinstance(a, list):
        return len(a) == len(b) and all(close(x, y, tol) for x, y in zip(a, b))
    return math.isclose(a, b, rel_tol=tol, abs_tol=tol)


def raises_like(golden, call):
    """call() raises torch's error type (RuntimeError for tide.Error) with torch's text."""
    expected = {"RuntimeError": RuntimeError, "TypeError": TypeError, "ValueError": ValueError,
                "NotImplementedError": NotImplementedError, "IndexError": IndexError}
    with pytest.raises(expected[golden["error"]]) as info:
        call()
    assert str(info.value) == golden["message"]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("case", GOLDENS["pad"],
                         ids=lambda c: f"{c['mode']}-{c['shape']}-{c['pad']}")
def test_pad_matches_torch(case, device):
    shape = case["shape"]
    x = tide.arange(math.prod(shape), dtype=tide.float64, device=device).reshape(shape)
    x.requires_grad_()
    if "error" in case:
        raises_like(case, lambda: F.pad(x, case["pad"], case["mode"], case["value"]))
        return
    y = F.pad(x, case["pad"], case["mode"], case["value"])
    assert y.device == x.device and y.dtype == tide.float64
    assert list(y.shape) == case["out_shape"]
    assert y.tolist() == case["out"]
    weights = (tide.arange(y.numel(), dtype=tide.float64, device=device) + 1).reshape(y.shape)
    (y * weights).sum().backward()
    assert x.grad.tolist() == case["grad"]


def test_pad_keeps_integer_dtypes():
    x = tide.tensor([[1, 2, 3]])
    assert F.pad(x, (1, 1), value=7).tolist() == [[7, 1, 2, 3, 7]]
    assert F.pad(x, (1, 1), value=7).dtype == tide.int64


def grads_model(device="cpu"):
    a = tide.zeros(2, 3, device=device, requires_grad=True)
    b = tide.zeros(4, device=device, requires_grad=True)
    a.grad = tide.tensor([[0.5, -1.0, 2.0], [3.0, 0.0, -0.25]], device=device)
    b.grad = tide.tensor([1.0, -2.0, 0.125, 4.0], device=device)
    return [a, b]


@pytest.mark.parametrize("device", DEVICES)
def test_clip_grad_norm_matches_torch(device):
    for case in GOLDENS["clip"]["norm"]:
        params = grads_model(device)
        norm_type = math.inf if case["norm_type"] == "inf" else case["norm_type"]
        total = nn.utils.clip_grad_norm_(params, case["max_norm"], norm_type=norm_type)
        assert total.device == params[0].device
        assert close(total.item(), case["total"], 1e-5), case
        assert close([p.grad.tolist() for p in params], case["grads"], 1e-5), case


def test_clip_grad_value_and_nonfinite_norms_match_torch():
    params = grads_model()
    assert nn.utils.clip_grad_value_(params, 1.5) is None
    assert [p.grad.tolist() for p in params] == GOLDENS["clip"]["value"]
    params = grads_model()
    params[1].grad[0] = float("nan")
    raises_like(GOLDENS["clip"]["nonfinite"],
                lambda: nn.utils.clip_grad_norm_(params, 1.0, error_if_nonfinite=True))
    # Without the check the nan spreads into every gradient, as torch's.
    assert math.isnan(nn.utils.clip_grad_norm_(params, 1.0).item())
    assert math.isnan(params[0].grad[0, 0].item())
    # No gradients at all: a zero norm, nothing touched; a single tensor is accepted.
    assert nn.utils.clip_grad_norm_([tide.zeros(2, requires_grad=True)], 1.0).item() == 0.0
    one = grads_model()[0]
    assert close(nn.utils.clip_grad_norm_(one, 100.0).item(), math.sqrt(14.3125))


def test_parameters_to_vector_and_back():
    assert nn.utils.parameters_to_vector(
        [tide.arange(6.0).reshape(2, 3), tide.ones(2)]).tolist() == GOLDENS["clip"]["vector"]
    model = nn.Linear(3, 2)
    vec = tide.arange(8.0)
    nn.utils.vector_to_parameters(vec, model.parameters())
    assert model.weight.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert model.bias.tolist() == [6.0, 7.0]
    vec[0] = 42.0  # the parameters view the vector, as torch's
    assert model.weight[0, 0].item() == 42.0
    with pytest.raises(TypeError, match="expected torch.Tensor, but got: list"):
        nn.utils.vector_to_parameters([1.0], model.parameters())
    with pytest.raises(TypeError, match="Found two parameters on different devices"):
        nn.utils.parameters_to_vector([tide.ones(1), tide.ones(1, device="cuda:0")])


@pytest.mark.parametrize("device", DEVICES)
def test_embedding_max_norm_renormalizes_looked_up_rows_as_torch(device):
    for case in GOLDENS["embedding"]:
        norm_type = math.inf if case["norm_type"] == "inf" else case["norm_type"]
        emb = nn.Embedding(5, 3, max_norm=case["max_norm"], norm_type=norm_type, device=device)
        with tide.no_grad():
            emb.weight.copy_((tide.arange(15.0) / 4 - 1).reshape(5, 3))
        y = emb(tide.tensor([[3, 0], [3, 4]], device=device))
        assert close(y.tolist(), case["out"], 1e-6)
        assert close(emb.weight.tolist(), case["weight"], 1e-6)
        assert repr(emb) == case["repr"]
        y.sum().backward()  # the renormalization is not recorded: the lookup's gradient is
        assert emb.weight.grad[3].tolist() == [2.0, 2.0, 2.0]


def test_softmax2d_matches_torch():
    x = tide.arange(12.0).reshape(1, 3, 2, 2) / 5
    assert close(nn.Softmax2d()(x).tolist(), GOLDENS["softmax2d"])
    assert close(nn.Softmax2d()(x[0]).tolist(), GOLDENS["softmax2d"][0])
    with pytest.raises(AssertionError, match="Softmax2d requires a 3D or 4D tensor as input"):
        nn.Softmax2d()(tide.ones(2, 2))


def torch_names(text):
    return text.replace("torch.", "tide.")


def test_containers_match_torch():
    golden = GOLDENS["containers"]
    md = nn.ModuleDict({"b": nn.Linear(2, 3), "a": nn.ReLU()})
    md.update([("c", nn.Tanh())])
    assert repr(md) == golden["module_dict"]
    assert list(md.keys()) == golden["module_dict_keys"]
    assert list(md.state_dict().keys()) == golden["module_dict_state"]
    assert "a" in md and len(md) == 3 and isinstance(md.pop("a"), nn.ReLU) and len(md) == 2
    pl = nn.ParameterList([nn.Parameter(tide.ones(2)), tide.zeros(3, 2), "x"])
    assert repr(pl) == torch_names(golden["parameter_list"])
    assert [n for n, _ in pl.named_parameters()] == golden["parameter_list_names"]
    assert isinstance(pl[1], nn.Parameter) and pl[-1] == "x" and len(pl[0:2]) == 2
    pd = nn.ParameterDict({"z": tide.ones(2), "a": nn.Parameter(tide.zeros(1))})
    pd.update([("m", tide.ones(3))])
    assert repr(pd) == torch_names(golden["parameter_dict"])
    assert list(pd.keys()) == golden["parameter_dict_keys"]
    assert [n for n, _ in pd.named_parameters()] == golden["parameter_dict_names"]
    assert pd.get("nope") is None and list((pd | nn.ParameterDict({"q": tide.ones(1)})).keys())[
        -1] == "q"
    # Registered parameters move with the module and reach an optimizer.
    holder = nn.Module()
    holder.params = pl
    assert len(list(holder.parameters())) == 2
    holder.cuda(1)
    assert pl[0].device == tide.device("cuda:1")
    errors = golden["errors"]
    raises_like(errors["module_dict_update_int"], lambda: nn.ModuleDict().update(3))
    raises_like(errors["module_dict_update_pair"], lambda: nn.ModuleDict().update([("a",)]))
    raises_like(errors["parameter_dict_key"], lambda: nn.ParameterDict().__setitem__(1, None))
    raises_like(errors["parameter_list_call"], lambda: nn.ParameterList()())
    raises_like(errors["parameter_list_extend"], lambda: nn.ParameterList().extend(tide.ones(2)))


def test_named_modules_and_load_state_dict_report_as_torch():
    golden = GOLDENS["module"]
    shared = nn.Linear(2, 2)
    from collections import OrderedDict
    net = nn.Sequential(OrderedDict(
        [("a", shared), ("b", nn.Sequential(shared, nn.ReLU())), ("c", nn.Linear(2, 1))]))
    assert [n for n, _ in net.named_modules()] == golden["named_modules"]["default"]
    assert [n for n, _ in net.named_modules(prefix="net")] == golden["named_modules"]["prefix"]
    assert [n for n, _ in net.named_modules(remove_duplicate=False)] == \
        golden["named_modules"]["no_dedupe"]
    state = net.state_dict()
    state["extra.weight"] = tide.ones(1)
    del state["c.bias"]
    with tide.no_grad():
        state["c.weight"].fill_(0.5)
    result = net.load_state_dict(state, strict=False)
    assert result.missing_keys == golden["missing"]
    assert result.unexpected_keys == golden["unexpected"]
    assert repr(result) == golden["result_repr"]
    assert net.c.weight.tolist() == [[0.5, 0.5]]  # what matched was loaded
    raises_like(golden["strict"], lambda: net.load_state_dict(state))
    assert repr(net.load_state_dict(net.state_dict())) == golden["matched_repr"]


def test_init_gains_and_errors_match_torch():
    golden = GOLDENS["init"]
    for key, gain in golden["gains"].items():
        name, param = key.split(":")
        param = None if param == "None" else float(param)
        assert close(nn.init.calculate_gain(name, param), gain)
    errors = golden["errors"]
    raises_like(errors["gain"], lambda: nn.init.calculate_gain("foo"))
    raises_like(errors["slope"], lambda: nn.init.calculate_gain("leaky_relu", "x"))
    raises_like(errors["fan"], lambda: nn.init.xavier_uniform_(tide.empty(3)))
    raises_like(errors["mode"], lambda: nn.init.kaiming_uniform_(tide.empty(3, 3), mode="x"))
    raises_like(errors["eye"], lambda: nn.init.eye_(tide.empty(3, 3, 3)))
    raises_like(errors["dirac"], lambda: nn.init.dirac_(tide.empty(3, 3)))
    raises_like(errors["orthogonal"], lambda: nn.init.orthogonal_(tide.empty(3)))
    assert nn.init.eye_(tide.empty(2, 3)).tolist() == golden["eye"]
    assert nn.init.dirac_(tide.empty(4, 2, 3), groups=2).tolist() == golden["dirac"]


def moments(t):
    values = t.reshape(-1).tolist()
    mean = sum(values) / len(values)
    var = sum((v - mean) ** 2 for v in values) / len(values)
    return min(values), max(values), mean, math.sqrt(var)


def truncated_normal_moments(mu, sigma, a, b):
    """Mean and standard deviation of N(mu, sigma^2) restricted to [a, b] (closed form)."""
    alpha, beta = (a - mu) / sigma, (b - mu) / sigma
    pdf = lambda x: math.exp(-x * x / 2) / math.sqrt(2 * math.pi)  # noqa: E731
    cdf = lambda x: (1 + math.erf(x / math.sqrt(2))) / 2  # noqa: E731
    z = cdf(beta) - cdf(alpha)
    shift = (pdf(alpha) - pdf(beta)) / z
    var = 1 + (alpha * pdf(alpha) - beta * pdf(beta)) / z - shift ** 2
    return mu + sigma * shift, sigma * math.sqrt(var)


@pytest.mark.parametrize("device", DEVICES)
def test_init_distributions_have_torch_bounds_and_moments(device):
    # (fan_in, fan_out) = (40 * 9, 30 * 9) for a 30x40x3x3 conv weight; 10800 draws, so the
    # sample moments sit well within 5% of the distribution's.
    tide.manual_seed(0)
    w = tide.empty(30, 40, 3, 3, device=device)
    fan_in, fan_out = 360, 270
    bound = math.sqrt(6.0 / (fan_in + fan_out))
    lo, hi, mean, std = moments(nn.init.xavier_uniform_(w))
    assert -bound <= lo and hi <= bound and abs(std - bound / math.sqrt(3)) < 0.05 * bound
    lo, hi, mean, std = moments(nn.init.xavier_normal_(w, gain=2.0))
    assert abs(std - 2.0 * math.sqrt(2.0 / (fan_in + fan_out))) < 0.05 * std
    gain = math.sqrt(2.0 / (1 + 0.1 ** 2))
    lo, hi, mean, std = moments(nn.init.kaiming_uniform_(w, a=0.1, mode="fan_out"))
    bound = gain * math.sqrt(3.0 / fan_out)
    assert -bound <= lo and hi <= bound and abs(std - bound / math.sqrt(3)) < 0.05 * bound
    lo, hi, mean, std = moments(nn.init.kaiming_normal_(w, nonlinearity="relu"))
    assert abs(std - math.sqrt(2.0 / fan_in)) < 0.05 * std and abs(mean) < 0.05 * std
    lo, hi, mean, std = moments(nn.init.trunc_normal_(w, mean=1.0, std=2.0, a=0.0, b=3.0))
    true_mean, true_std = truncated_normal_moments(1.0, 2.0, 0.0, 3.0)
    assert 0.0 <= lo and hi <= 3.0
    assert abs(mean - true_mean) < 0.03 and abs(std - true_std) < 0.03
    lo, hi, mean, std = moments(nn.init.uniform_(w, -0.5, 2.0))
    assert -0.5 <= lo and hi <= 2.0 and abs(mean - 0.75) < 0.05
    lo, hi, mean, std = moments(nn.init.normal_(w, 3.0, 0.5))
    assert abs(mean - 3.0) < 0.05 and abs(std - 0.5) < 0.025
    assert moments(nn.init.constant_(w, 0.25))[:2] == (0.25, 0.25)
    assert moments(nn.init.ones_(w))[:2] == (1.0, 1.0)
    assert moments(nn.init.zeros_(w))[:2] == (0.0, 0.0)
    assert w.device == tide.device(device)


@pytest.mark.parametrize("shape", [(3, 5), (5, 3), (4, 2, 3)])
def test_orthogonal_gives_orthonormal_rows_or_columns(shape):
    w = nn.init.orthogonal_(tide.empty(*shape), gain=2.0)
    flat = w.reshape(shape[0], -1) / 2.0
    gram = flat @ flat.t() if flat.shape[0] <= flat.shape[1] else flat.t() @ flat
    n = gram.shape[0]
    eye = [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]
    assert close(gram.tolist(), eye, 1e-5)


def test_init_leaves_autograd_out_of_it():
    layer = nn.Linear(4, 3)
    nn.init.kaiming_uniform_(layer.weight, a=math.sqrt(5))
    nn.init.zeros_(layer.bias)
    assert layer.weight.is_leaf and layer.weight.grad_fn is None and layer.weight.requires_grad
    assert layer.bias.tolist() == [0.0, 0.0, 0.0]


def torch_text(message):
    """torch's message as tide writes it (tide's class and Size names)."""
    return (message.replace("<class 'torch.Tensor'>", str(tide.Tensor))
            .replace("torch.Size", "tide.Size"))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("case", GOLDENS["embedding_bag"]["cases"],
                         ids=lambda c: f"{c['mode']}-{c['offsets']}-{c['padding_idx']}")
def test_embedding_bag_matches_torch(case, device):
    weight = (tide.arange(30.0, device=device).reshape(10, 3) / 5 - 2).requires_grad_()
    offsets = None if case["offsets"] is None else tide.tensor(case["offsets"], device=device)
    weights = case["per_sample_weights"]
    weights = None if weights is None else tide.tensor(weights, device=device)

    def call():
        return F.embedding_bag(tide.tensor(case["input"], device=device), weight, offsets,
                               mode=case["mode"], include_last_offset=case["include_last_offset"],
                               padding_idx=case["padding_idx"], per_sample_weights=weights)
    if "error" in case:
        raises_like(dict(case, message=torch_text(case["message"])), call)
        return
    y = call()
    assert y.device == weight.device
    assert close(y.tolist(), case["out"], 1e-5)
    (y * (tide.arange(y.numel(), device=device).reshape(y.shape) + 1)).sum().backward()
    assert close(weight.grad.tolist(), case["grad"], 1e-5)


def test_embedding_bag_module_matches_torch():
    bag = nn.EmbeddingBag(10, 3, mode="max", padding_idx=-2, max_norm=2.0)
    assert repr(bag) == GOLDENS["embedding_bag"]["repr"]
    assert bag.weight[8].tolist() == [0.0, 0.0, 0.0]
    out = bag(tide.tensor([[1, 8], [3, 3]]))
    assert out.shape == (2, 3)
    # max_norm renormalized the rows looked up (never the padding row: it is zero)
    for row in (1, 3):
        assert sum(v * v for v in bag.weight[row].tolist()) <= 4.0 + 1e-5
    summed = nn.EmbeddingBag(4, 2, mode="sum")(tide.tensor([0, 1, 2, 3]), tide.tensor([0, 2]))
    assert summed.shape == (2, 2)
