"""tide.optim.lr_scheduler against torch 1.13, step by step and exactly (the same doubles):
every schedule of tests/fixtures/optim_torch_goldens.json (scripts/gen_optim_torch_goldens.py),
their state_dict keys and round trips, the schedule reaching the optimizer's steps, and torch's
warnings and errors."""

import json
import pathlib
import warnings

import pytest

import tide
import tide.nn as nn
from tide.optim import lr_scheduler

GOLDENS = [g for g in json.loads((pathlib.Path(__file__).resolve().parent.parent / "fixtures"
                                  / "optim_torch_goldens.json").read_text())
           if g["kind"] == "scheduler"]


def _lambda(body):
    return eval("lambda epoch: " + body)  # the golden's own table (scripts/gen_optim_torch_goldens.py)


def _make(opt, name, args):
    args = dict(args)
    if name == "LambdaLR":
        body = args["lr_lambda"]
        args["lr_lambda"] = [_lambda(b) for b in body] if isinstance(body, list) else _lambda(body)
    if name == "SequentialLR":
        args["schedulers"] = [_make(opt, n, a) for n, a in args["schedulers"]]
    return getattr(lr_scheduler, name)(opt, **args)


def _setup(golden, device="cpu"):
    params = [nn.Parameter(tide.zeros(2, device=device)) for _ in golden["groups"]]
    opt = tide.optim.SGD([{"params": [p], "lr": lr} for p, lr in zip(params, golden["groups"])],
                         lr=golden["groups"][0], momentum=golden["momentum"])
    return params, opt


def _run(golden, opt, params, sched, epochs, start=0):
    lrs, momenta = [], []
    for epoch in range(start, start + epochs):
        for p in params:
            p.grad = tide.ones(2, device=p.device)
        opt.step()
        if "metrics" in golden:
            sched.step(golden["metrics"][epoch])
        else:
            sched.step()
        lrs.append([g["lr"] for g in opt.param_groups])
        momenta.append([g["momentum"] for g in opt.param_groups])
    return lrs, momenta


def test_the_goldens_cover_every_schedule():
    names = {g["scheduler"] for g in GOLDENS}
    assert names >= {"StepLR", "MultiStepLR", "ExponentialLR", "CosineAnnealingLR", "LambdaLR",
                     "LinearLR", "OneCycleLR", "ReduceLROnPlateau", "SequentialLR"}


# SequentialLR steps its next schedule with an epoch at each milestone, which warns in torch too.
@pytest.mark.filterwarnings("ignore:The epoch parameter")
@pytest.mark.parametrize("golden", GOLDENS, ids=lambda g: g["name"])
def test_schedule_equals_torchs_step_by_step(golden):
    params, opt = _setup(golden)
    sched = _make(opt, golden["scheduler"], golden["args"])
    first = [[g["lr"] for g in opt.param_groups]]
    first_momenta = [[g["momentum"] for g in opt.param_groups]]
    lrs, momenta = _run(golden, opt, params, sched, golden["epochs"])
    assert first + lrs == golden["lrs"]  # exactly: the same double arithmetic as torch's
    if "momenta" in golden:
        assert first_momenta + momenta == golden["momenta"]
    assert sched.get_last_lr() == golden["lrs"][-1]
    assert sorted(sched.state_dict()) == golden["state_keys"]


@pytest.mark.parametrize("golden", [g for g in GOLDENS if g["scheduler"] != "SequentialLR"],
                         ids=lambda g: g["name"])
def test_a_schedule_resumed_from_its_state_dict_goes_on_as_torchs(golden):
    params, opt = _setup(golden)
    sched = _make(opt, golden["scheduler"], golden["args"])
    half = golden["epochs"] // 2
    _run(golden, opt, params, sched, half)
    saved_opt, saved_sched = opt.state_dict(), sched.state_dict()
    params2, opt2 = _setup(golden)
    sched2 = _make(opt2, golden["scheduler"], golden["args"])
    opt2.load_state_dict(saved_opt)
    sched2.load_state_dict(saved_sched)
    lrs, _ = _run(golden, opt2, params2, sched2, golden["epochs"] - half, start=half)
    assert lrs == golden["lrs"][half + 1:]


def test_the_scheduled_lr_is_the_one_the_next_step_uses_on_a_gpu():
    p = nn.Parameter(tide.zeros(1, device="cuda:1"))
    opt = tide.optim.SGD([p], lr=1.0)
    sched = lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    for expected in (-1.0, -1.5, -1.75):
        p.grad = tide.ones(1, device="cuda:1")
        opt.step()
        sched.step()
        assert p.item() == expected


def test_one_cycle_cycles_adams_beta1_and_refuses_to_step_past_the_end():
    p = nn.Parameter(tide.zeros(1))
    opt = tide.optim.Adam([p], lr=0.1, betas=(0.9, 0.99))
    sched = lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=4)
    assert opt.param_groups[0]["betas"] == (0.95, 0.99)
    betas = []
    for _ in range(3):
        p.grad = tide.ones(1)
        opt.step()
        sched.step()
        betas.append(opt.param_groups[0]["betas"][0])
    assert betas[0] < 0.95 and betas[-1] == pytest.approx(0.95)
    with pytest.raises(ValueError, match="Tried to step 6 times. The specified number of total steps is 4"):
        sched.step()
        sched.step()


def test_warnings_and_errors_are_torchs():
    p = nn.Parameter(tide.zeros(1))
    opt = tide.optim.SGD([p], lr=0.1)
    sched = lr_scheduler.ExponentialLR(opt, gamma=0.5)
    with pytest.warns(UserWarning, match="before `optimizer.step\\(\\)`"):
        sched.step()
    with pytest.warns(UserWarning, match="please use `get_last_lr\\(\\)`"):
        sched.get_lr()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        p.grad = tide.zeros(1)
        opt.step()
        sched.step()
    with pytest.raises(TypeError, match="list is not an Optimizer"):
        lr_scheduler.StepLR([], step_size=1)
    with pytest.raises(ValueError, match="Factor should be < 1.0"):
        lr_scheduler.ReduceLROnPlateau(opt, factor=2.0)
    with pytest.raises(ValueError, match="Starting multiplicative factor expected to be between 0 and 1"):
        lr_scheduler.LinearLR(opt, start_factor=2.0)
    with pytest.raises(ValueError, match="Expected 1 lr_lambdas, but got 2"):
        lr_scheduler.LambdaLR(opt, lr_lambda=[lambda e: 1.0, lambda e: 1.0])
    with pytest.raises(KeyError, match="initial_lr"):
        lr_scheduler.StepLR(tide.optim.SGD([p], lr=0.1), step_size=1, last_epoch=3)
    with pytest.raises(ValueError, match="one more than the number of milestone points"):
        lr_scheduler.SequentialLR(opt, [lr_scheduler.StepLR(opt, 1)], milestones=[1])


def test_chained_and_multiplicative_and_polynomial_schedules():
    p = nn.Parameter(tide.zeros(1))
    opt = tide.optim.SGD([p], lr=1.0)
    chained = lr_scheduler.ChainedScheduler([lr_scheduler.ExponentialLR(opt, gamma=0.5),
                                             lr_scheduler.MultiplicativeLR(opt, lambda e: 0.5)])
    p.grad = tide.zeros(1)
    opt.step()
    chained.step()
    assert chained.get_last_lr() == [0.25]
    opt2 = tide.optim.SGD([p], lr=1.0)
    poly = lr_scheduler.PolynomialLR(opt2, total_iters=4, power=2.0)
    opt2.step()
    poly.step()
    assert poly.get_last_lr() == pytest.approx([0.5625])
