"""Issue 26's losses and activations from Python (torch.nn.functional and torch.nn names):
values against numbers torch 1.13 printed for the same inputs (the C++ goldens,
tests/fixtures/op_goldens.json, cover every reduction and option), autograd through them,
module arguments, reprs and torch's errors."""

import pytest

import tide
import tide.nn as nn
import tide.nn.functional as F

X = [[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]
Y = [[0.0, -0.5, 1.0], [3.0, 0.25, 0.0]]
P = [[0.2, 0.3, 0.5], [1.0, 0.0, 0.0]]


def _flat(values):
    if isinstance(values, (list, tuple)):
        return [v for item in values for v in _flat(item)]
    return [values]


class approx:
    """pytest.approx for numbers and nested lists (this pytest's approx takes flat ones only):
    equal when the shapes' flattened values match."""

    def __init__(self, values, rel=1e-5, abs=1e-6):
        self.values, self.rel, self.abs = values, rel, abs

    def __eq__(self, other):
        if not isinstance(self.values, (list, tuple)):
            return other == pytest.approx(self.values, rel=self.rel, abs=self.abs)
        return (str(_shape(other)) == str(_shape(self.values)) and
                _flat(other) == pytest.approx(_flat(self.values), rel=self.rel, abs=self.abs))

    def __repr__(self):
        return f"approx({self.values!r})"


def _shape(values):
    return [len(values), _shape(values[0])] if isinstance(values, (list, tuple)) and values else []


def test_cross_entropy_probabilities_and_label_smoothing_match_torch():
    x, p, w = tide.tensor(X), tide.tensor(P), tide.tensor([1.0, 2.0, 0.5])
    assert F.cross_entropy(x, p).item() == approx(0.8859919905662537)
    assert F.cross_entropy(x, p, weight=w, label_smoothing=0.1, reduction="sum").item() == approx(
        2.8532094955444336)
    t = tide.tensor([2, 0])
    assert F.cross_entropy(x, t, label_smoothing=0.2).item() == approx(0.5526586771011353)
    loss = nn.CrossEntropyLoss(weight=w, label_smoothing=0.2)
    assert loss(x, tide.tensor([2, -100])).item() == approx(1.3056612014770508)
    with pytest.raises(RuntimeError, match="ignore_index is not supported for floating point"):
        F.cross_entropy(x, p, ignore_index=1)
    with pytest.raises(RuntimeError, match="label_smoothing must be between 0.0 and 1.0"):
        F.cross_entropy(x, t, label_smoothing=1.5)


def test_regression_losses_match_torch():
    x, y = tide.tensor(X), tide.tensor(Y)
    assert F.l1_loss(x, y).item() == approx(0.7083333134651184)
    assert nn.L1Loss(reduction="none")(x, y).tolist() == approx([[0.5, 0.5, 1.0], [1.5, 0.0, 0.75]])
    assert F.smooth_l1_loss(x, y, beta=0.5).item() == approx(0.5)
    assert nn.SmoothL1Loss(beta=0.5)(x, y).item() == approx(0.5)
    assert nn.HuberLoss(reduction="sum", delta=0.5)(x, y).item() == approx(1.5)
    with pytest.raises(RuntimeError, match="smooth_l1_loss does not support negative values"):
        F.smooth_l1_loss(x, y, beta=-1.0)
    with pytest.warns(UserWarning, match="Using a target size"):
        F.l1_loss(x, tide.tensor([0.0, 1.0, 2.0]))


def test_binary_losses_match_torch():
    pr = tide.tensor([[0.1, 0.9, 0.5], [0.7, 0.2, 1.0]])
    lab = tide.tensor([[0.0, 1.0, 1.0], [1.0, 0.0, 1.0]])
    assert nn.BCELoss()(pr, lab).item() == approx(0.24728111922740936)
    pos = tide.tensor([1.0, 2.0, 3.0])
    crit = nn.BCEWithLogitsLoss(pos_weight=pos)
    assert "pos_weight" in dict(crit.named_buffers())
    assert crit(tide.tensor(X), lab).item() == approx(1.4032249450683594)
    with pytest.raises(ValueError, match="must be the same as input size"):
        F.binary_cross_entropy_with_logits(tide.tensor(X), lab[0])
    with pytest.raises(ValueError, match="that is different to the input size"):
        F.binary_cross_entropy(pr, lab[0])
    with pytest.raises(RuntimeError, match="all elements of input should be between 0 and 1"):
        F.binary_cross_entropy(pr + 1, lab)


def test_kl_div_batchmean_and_log_target_match_torch():
    lq = tide.tensor(X).log_softmax(1)
    q = tide.tensor(P)
    assert nn.KLDivLoss(reduction="batchmean")(lq, q).item() == approx(0.3711654543876648)
    log_q = q.clamp(1e-3).log()
    assert F.kl_div(lq, log_q, reduction="sum", log_target=True).item() == approx(
        0.7326767444610596)
    with pytest.warns(UserWarning, match="'batchmean' divides only by the batch size"):
        F.kl_div(lq, q)


def test_margin_losses_match_torch():
    x, y = tide.tensor(X), tide.tensor(Y)
    mr = nn.MarginRankingLoss(margin=0.1)
    assert mr(x[0], x[1], tide.tensor([1.0, -1.0, 1.0])).item() == approx(0.36666667461395264)
    with pytest.raises(RuntimeError, match="All input tensors should have same dimension"):
        F.margin_ranking_loss(x, x[0], tide.tensor([1.0, -1.0, 1.0]))
    cos = nn.CosineEmbeddingLoss(margin=0.2, reduction="none")
    assert cos(x, y, tide.tensor([1.0, -1.0])).tolist() == approx(
        [0.02409994602203369, 0.6938403248786926])


def test_activations_match_torch():
    x = tide.tensor(X)
    assert F.gelu(x).tolist() == approx([[0.3457311987876892, -0.1586552858352661, 1.9544999599456787],
                                         [1.3997890949249268, 0.14967656135559082, -0.16997046768665314]])
    assert nn.GELU("tanh")(x)[1].tolist() == approx(
        [1.3995715379714966, 0.14967535436153412, -0.17003947496414185])
    row = x[0]
    assert nn.SiLU()(row).tolist() == approx([0.3112296760082245, -0.2689414322376251, 1.7615940570831299])
    assert nn.Mish()(row).tolist() == approx([0.37524524331092834, -0.3034014403820038, 1.9439589977264404])
    assert nn.Softplus(beta=2)(row).tolist() == approx([0.65663081407547, 0.06346400082111359, 2.0090749263763428])
    assert nn.LeakyReLU(0.1)(row).tolist() == approx([0.5, -0.1, 2.0])
    assert nn.ELU()(row).tolist() == approx([0.5, -0.6321205496788025, 2.0])
    assert nn.Hardtanh()(row).tolist() == approx([0.5, -1.0, 1.0])
    assert nn.Tanh()(row).tolist() == approx(row.tanh().tolist())
    assert nn.Sigmoid()(row).tolist() == approx(row.sigmoid().tolist())
    prelu = nn.PReLU(3)
    assert prelu(x).tolist() == approx([[0.5, -0.25, 2.0], [1.5, 0.25, -0.1875]])
    with pytest.raises(RuntimeError, match="approximate argument must be either none or tanh"):
        F.gelu(x, approximate="fast")


def test_activation_gradients_and_prelu_weight_gradient():
    x = tide.tensor(X, requires_grad=True)
    F.gelu(x).sum().backward()
    assert x.grad.tolist() == approx([[0.867495059967041, -0.08331543207168579, 1.085231900215149],
                                      [1.1274691820144653, 0.6953732967376709, 0.0007742047309875488]])
    prelu = nn.PReLU(3)
    prelu(tide.tensor(X)).sum().backward()
    # d/dw of w * x over the negative inputs of each channel.
    assert prelu.weight.grad.tolist() == approx([0.0, -1.0, -0.75])


def test_reprs_match_torch():
    assert repr(nn.PReLU(3)) == "PReLU(num_parameters=3)"
    assert repr(nn.GELU("tanh")) == "GELU(approximate='tanh')"
    assert repr(nn.LeakyReLU()) == "LeakyReLU(negative_slope=0.01)"
    assert repr(nn.ELU()) == "ELU(alpha=1.0)"
    assert repr(nn.Hardtanh()) == "Hardtanh(min_val=-1.0, max_val=1.0)"
    assert repr(nn.Softplus()) == "Softplus(beta=1, threshold=20)"
    assert repr(nn.SiLU()) == "SiLU()"
    assert repr(nn.BCEWithLogitsLoss()) == "BCEWithLogitsLoss()"
    assert repr(nn.KLDivLoss()) == "KLDivLoss()"
    assert repr(nn.Tanh()) == "Tanh()"


def test_losses_and_activations_on_a_simulated_gpu():
    device = "cuda:1"
    x = tide.tensor(X, requires_grad=True)
    xc = tide.tensor(X).to(device).requires_grad_()
    y, p = tide.tensor(Y), tide.tensor(P)
    cpu = F.cross_entropy(x, p, label_smoothing=0.1) + F.smooth_l1_loss(x, y) + F.gelu(x).sum()
    gpu = (F.cross_entropy(xc, p.to(device), label_smoothing=0.1) + F.smooth_l1_loss(xc, y.to(device))
           + F.gelu(xc).sum())
    cpu.backward()
    gpu.backward()
    assert gpu.item() == approx(cpu.item())
    assert xc.grad.cpu().tolist() == approx(x.grad.tolist())


def test_layer_functions_match_torch():
    x, y = tide.tensor(X), tide.tensor(Y)
    assert nn.LayerNorm(3)(x).tolist() == approx(
        [[0.0, -1.224740743637085, 1.224740743637085],
         [1.2674930095672607, -0.09053519368171692, -1.1769577264785767]])
    gn = F.group_norm(x.reshape(1, 2, 3), 2, tide.tensor([1.0, 2.0]), tide.tensor([0.0, 1.0]))
    assert gn.tolist() == approx([[[0.0, -1.224740743637085, 1.224740743637085],
                                   [3.5349860191345215, 0.8189296126365662, -1.3539154529571533]]])
    assert F.normalize(x).tolist() == approx(
        [[0.2182178795337677, -0.4364357590675354, 0.8728715181350708],
         [0.8846517205238342, 0.14744195342063904, -0.4423258602619171]])
    assert F.cosine_similarity(x, y).tolist() == approx([0.9758999943733215, 0.8938403725624084])
    assert F.pairwise_distance(x, y).tolist() == approx([1.2247456312179565, 1.6770497560501099])
    assert F.one_hot(tide.tensor([0, 2, 1])).tolist() == [[1, 0, 0], [0, 0, 1], [0, 1, 0]]
    with pytest.raises(RuntimeError, match="Class values must be smaller than num_classes"):
        F.one_hot(tide.tensor([0, 2, 1]), 2)


def test_layer_modules_parameters_reprs_and_embedding_padding():
    ln = nn.LayerNorm(3)
    assert [n for n, _ in ln.named_parameters()] == ["weight", "bias"]
    assert repr(ln) == "LayerNorm((3,), eps=1e-05, elementwise_affine=True)"
    assert repr(nn.GroupNorm(2, 4)) == "GroupNorm(2, 4, eps=1e-05, affine=True)"
    with pytest.raises(ValueError, match="num_channels must be divisible by num_groups"):
        nn.GroupNorm(3, 4)
    emb = nn.Embedding(5, 3, padding_idx=-1)
    assert repr(emb) == "Embedding(5, 3, padding_idx=4)"
    assert emb.weight[4].tolist() == [0.0, 0.0, 0.0]
    out = emb(tide.tensor([[4, 1], [1, 0]]))
    assert out.shape == (2, 2, 3)
    out.sum().backward()
    assert emb.weight.grad.tolist() == [[1.0] * 3, [2.0] * 3, [0.0] * 3, [0.0] * 3, [0.0] * 3]
    # max_norm is supported (tests/python/test_nn_more.py); sparse gradients are not.
    with pytest.raises(RuntimeError, match="scale_grad_by_freq=False and sparse=False"):
        F.embedding(tide.tensor([0]), emb.weight, sparse=True)
