"""tide.optim from Python: SGD and Adam against hand computations, param_groups edits taking
effect at the next step, several groups, generators of parameters, and torch's errors."""

import math

import pytest

import tide
import tide.nn as nn


def _param(values, grad):
    p = nn.Parameter(tide.tensor(values))
    p.grad = tide.tensor(grad)
    return p


def test_sgd_with_momentum_and_weight_decay_matches_a_hand_computation():
    p = _param([1.0, -2.0], [0.5, 0.25])
    opt = tide.optim.SGD([p], lr=0.1, momentum=0.9, weight_decay=0.01)
    w, g, buf = [1.0, -2.0], [0.5, 0.25], None
    for _ in range(3):
        opt.step()
        d = [gi + 0.01 * wi for gi, wi in zip(g, w)]
        buf = d if buf is None else [0.9 * b + di for b, di in zip(buf, d)]
        w = [wi - 0.1 * bi for wi, bi in zip(w, buf)]
    assert p.tolist() == pytest.approx(w, rel=1e-6)


def test_adam_matches_a_hand_computation():
    p = _param([1.0], [0.5])
    opt = tide.optim.Adam([p], lr=0.01, betas=(0.9, 0.99), eps=1e-8)
    w, m, v = 1.0, 0.0, 0.0
    for t in range(1, 4):
        opt.step()
        m = 0.9 * m + 0.1 * 0.5
        v = 0.99 * v + 0.01 * 0.25
        w -= 0.01 * (m / (1 - 0.9 ** t)) / (math.sqrt(v / (1 - 0.99 ** t)) + 1e-8)
    assert p.item() == pytest.approx(w, rel=1e-6)


def test_changing_lr_in_param_groups_applies_at_the_next_step():
    p = _param([1.0], [1.0])
    opt = tide.optim.SGD(p for p in [p])
    assert len(opt.param_groups) == 1 and opt.param_groups[0]["lr"] == 1e-3
    opt.param_groups[0]["lr"] = 0.5
    opt.step()
    assert p.item() == pytest.approx(0.5)
    for group in opt.param_groups:
        group["lr"] = 0.25
    opt.step()
    assert p.item() == pytest.approx(0.25)


def test_several_param_groups_with_their_own_options():
    a, b = _param([1.0], [1.0]), _param([1.0], [1.0])
    opt = tide.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.5}], lr=0.1)
    opt.step()
    assert a.item() == pytest.approx(0.9) and b.item() == pytest.approx(0.5)
    assert opt.param_groups[1]["momentum"] == 0


def test_zero_grad_sets_none_or_zeros():
    p = _param([1.0], [1.0])
    opt = tide.optim.Adam([p])
    opt.zero_grad(set_to_none=False)
    assert p.grad.tolist() == [0.0]
    opt.zero_grad()
    assert p.grad is None
    opt.step()  # no gradient: skipped
    assert p.item() == 1.0


def test_optimizers_follow_a_module_moved_after_they_were_built():
    tide.manual_seed(0)
    model = nn.Linear(3, 2)
    opt = tide.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    model.cuda(2)
    before = model.weight.tolist()
    model(tide.ones(4, 3, device="cuda:2")).sum().backward()
    opt.step()
    assert model.weight.device == tide.device("cuda:2") and model.weight.tolist() != before


def test_errors_are_torchs():
    p = _param([1.0], [1.0])
    with pytest.raises(ValueError, match="Invalid learning rate: -1"):
        tide.optim.SGD([p], lr=-1)
    with pytest.raises(ValueError, match="Nesterov momentum requires a momentum and zero dampening"):
        tide.optim.SGD([p], lr=0.1, nesterov=True)
    with pytest.raises(ValueError, match="optimizer got an empty parameter list"):
        tide.optim.SGD([], lr=0.1)
    with pytest.raises(TypeError, match="optimizer can only optimize Tensors"):
        tide.optim.SGD([1.0], lr=0.1)
    with pytest.raises(TypeError, match="should be an iterable of Tensors"):
        tide.optim.SGD(p, lr=0.1)
    with pytest.raises(ValueError, match="some parameters appear in more than one parameter group"):
        tide.optim.SGD([{"params": [p]}, {"params": [p]}], lr=0.1)
    opt = tide.optim.SGD([p], lr=0.1)
    opt.param_groups[0]["lr"] = -0.5
    with pytest.raises(ValueError, match="Invalid learning rate"):
        opt.step()
    with pytest.raises(ValueError, match="can't optimize a non-leaf Tensor"):
        tide.optim.SGD([p * 2], lr=0.1)
