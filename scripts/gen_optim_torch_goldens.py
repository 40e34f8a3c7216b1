#!/usr/bin/env python3
"""Writes tests/fixtures/optim_torch_goldens.json: torch 1.13's AdamW, RMSprop, Adagrad,
Adadelta, Adamax, NAdam, RAdam, Rprop, ASGD and LBFGS trajectories, optimizer state_dicts, and learning-rate schedules, the expected values of
tide.optim and tide.optim.lr_scheduler. The SGD and Adam goldens come from libtorch
(scripts/gen_optim_goldens); these come from torch's Python optimizers, whose arithmetic differs
from libtorch's in places (RMSprop's and Adagrad's) or which libtorch lacks, and from
torch.optim.lr_scheduler, which libtorch lacks. Run with a Python that has torch (Debian:
/usr/bin/python3 with python3-torch, torch 1.13):

    /usr/bin/python3 scripts/gen_optim_torch_goldens.py

The file is a JSON list of entries, each with a "name" and a "kind":

  "optimizer"  the least-squares problem of scripts/optim_goldens/gen_optim_goldens.cpp
               (minimize 0.5 * ||A X - B||^2 from X0), 10 steps of torch.optim.<optimizer>
               (lowercase name in "optimizer") with "options" (torch's keyword arguments), in
               float32 and float64: "A", "B", "x0", "trajectory" (X after every step), as the
               libtorch goldens; and "state_dict": the optimizer's state_dict after step 5
               ({"state": {"0": {name: tensor, number, None or a list of them}},
               "param_groups": [...]}), from which a tide optimizer resumes to
               "resumed": the steps 6 to 10 of a fresh torch optimizer that loaded it.
               Each step is step(closure), the closure zeroing the gradient and
               computing the loss and its gradient (LBFGS calls it several times a step).
  "python_optimizer"  the same for an optimizer tide has only in Python (Adadelta, Adamax,
               NAdam, RAdam, Rprop, ASGD, LBFGS), which the C++ tests leave out.
  "scheduler"  an SGD (lr 0.1, or "groups" with their own lr; "momentum" when set) stepped
               "epochs" times with the scheduler "scheduler" built from "args"; "lrs" holds
               every group's lr before the first step and after each scheduler.step()
               ("momenta" the same for momentum when the scheduler cycles it); "metrics" the
               values given to ReduceLROnPlateau.step; "state_keys" the keys of the
               scheduler's state_dict. A lambda is written as the text of its body in
               "epoch" ("lambda"), which the tests turn back into a function. SequentialLR's
               "args.schedulers" are [name, args] pairs.

A tensor is {"dtype", "shape", "values"} (tests/support/golden_json.h).
"""

import copy
import json
import math
import pathlib
import warnings

import torch

STEPS = 10
RESUME_AT = 5

# The problem of scripts/optim_goldens/gen_optim_goldens.cpp: multiples of 1/8, exact in both
# dtypes.
A = [1.0, 0.5, -0.25, 0.75, -0.5, 1.25, 0.375, 0.0, 0.25, -0.75, 1.5, 0.125, 0.625, 0.0, -0.375,
     1.0, -0.125, 0.25, 0.5, -0.875]
B = [1.0, -0.5, 0.25, 0.0, 0.75, -1.25, 0.5, 0.125, -0.75, 1.5, -0.25, 0.375, 0.25, 0.625, -1.0]
X0 = [0.5, -0.25, 0.125, -0.75, 1.0, 0.375, 0.0, 0.625, -0.5, 0.25, -0.125, 0.875]

OPTIMIZER_CASES = [
    ("adamw_plain", "adamw", dict(lr=0.1)),
    ("adamw_weight_decay", "adamw", dict(lr=0.1, weight_decay=0.1)),
    # beta2 = 0.9 lets exp_avg_sq fall within 10 steps, so the running maximum matters.
    ("adamw_amsgrad", "adamw", dict(lr=0.1, betas=(0.9, 0.9), weight_decay=0.05, amsgrad=True)),
    ("adamw_maximize_betas_eps", "adamw",
     dict(lr=0.05, betas=(0.8, 0.99), eps=1e-3, weight_decay=0.0, maximize=True)),
    ("rmsprop_plain", "rmsprop", dict(lr=0.01)),
    ("rmsprop_alpha_eps", "rmsprop", dict(lr=0.05, alpha=0.9, eps=1e-3)),
    ("rmsprop_momentum", "rmsprop", dict(lr=0.01, momentum=0.9)),
    ("rmsprop_centered", "rmsprop", dict(lr=0.01, centered=True)),
    # lr 0.005: at 0.01 the centered denominator sqrt(square_avg - grad_avg^2) cancels so
    # badly by step 9 that torch's own float32 run is 5e-5 away from its float64 one, beyond
    # what a float32 golden can hold anyone to.
    ("rmsprop_centered_momentum_weight_decay", "rmsprop",
     dict(lr=0.005, alpha=0.95, momentum=0.5, centered=True, weight_decay=0.1)),
    ("rmsprop_maximize", "rmsprop", dict(lr=0.01, maximize=True)),
    ("adagrad_plain", "adagrad", dict(lr=0.1)),
    ("adagrad_lr_decay", "adagrad", dict(lr=0.1, lr_decay=0.1)),
    ("adagrad_weight_decay_initial_eps", "adagrad",
     dict(lr=0.1, weight_decay=0.1, initial_accumulator_value=0.5, eps=1e-3)),
    ("adagrad_maximize", "adagrad", dict(lr=0.1, maximize=True)),
    ("adadelta_plain", "adadelta", dict()),
    ("adadelta_rho_eps_weight_decay", "adadelta",
     dict(lr=0.5, rho=0.8, eps=1e-4, weight_decay=0.1)),
    ("adadelta_maximize", "adadelta", dict(lr=0.5, maximize=True)),
    ("adamax_plain", "adamax", dict(lr=0.05)),
    ("adamax_weight_decay_betas_eps", "adamax",
     dict(lr=0.05, betas=(0.8, 0.9), eps=1e-3, weight_decay=0.1)),
    ("adamax_maximize", "adamax", dict(lr=0.05, maximize=True)),
    ("nadam_plain", "nadam", dict(lr=0.05)),
    ("nadam_weight_decay_momentum_decay", "nadam",
     dict(lr=0.05, betas=(0.8, 0.95), eps=1e-3, weight_decay=0.1, momentum_decay=0.01)),
    # beta2 = 0.9: rho_t passes 5 at step 3, so both branches of the update run.
    ("radam_rectified", "radam", dict(lr=0.05, betas=(0.9, 0.9))),
    ("radam_weight_decay", "radam", dict(lr=0.05, weight_decay=0.1, eps=1e-3)),
    ("rprop_plain", "rprop", dict(lr=0.01)),
    ("rprop_etas_step_sizes", "rprop", dict(lr=0.05, etas=(0.3, 1.5), step_sizes=(0.01, 0.1))),
    ("rprop_maximize", "rprop", dict(lr=0.01, maximize=True)),
    ("asgd_plain", "asgd", dict(lr=0.05)),
    # t0 = 3: averaging starts at step 4; a large lambd makes eta decay within 10 steps.
    ("asgd_averaging_weight_decay", "asgd",
     dict(lr=0.05, lambd=0.5, alpha=0.5, t0=3, weight_decay=0.1)),
    ("asgd_maximize", "asgd", dict(lr=0.05, maximize=True)),
    ("lbfgs_plain", "lbfgs", dict(lr=0.5, max_iter=3, history_size=4)),
    ("lbfgs_strong_wolfe", "lbfgs",
     dict(lr=1, max_iter=1, history_size=3, line_search_fn="strong_wolfe")),
]

# The optimizers tide also has in C++ (tests/optim/trajectory_vs_torch_test.cpp runs their
# goldens); the others are Python only.
CPP_OPTIMIZERS = ("adamw", "rmsprop", "adagrad")
OPTIMIZERS = {"adamw": torch.optim.AdamW, "rmsprop": torch.optim.RMSprop,
              "adagrad": torch.optim.Adagrad, "adadelta": torch.optim.Adadelta,
              "adamax": torch.optim.Adamax, "nadam": torch.optim.NAdam,
              "radam": torch.optim.RAdam, "rprop": torch.optim.Rprop, "asgd": torch.optim.ASGD,
              "lbfgs": torch.optim.LBFGS}

SCHEDULER_CASES = [
    # name, scheduler, args, epochs, extra
    ("step_lr", "StepLR", dict(step_size=3, gamma=0.5), 12, {}),
    ("step_lr_two_groups", "StepLR", dict(step_size=2), 8, dict(groups=[0.1, 0.05])),
    ("multi_step_lr", "MultiStepLR", dict(milestones=[2, 5, 5, 9], gamma=0.1), 12, {}),
    ("exponential_lr", "ExponentialLR", dict(gamma=0.9), 12, dict(groups=[0.1, 0.02])),
    ("cosine_annealing_lr", "CosineAnnealingLR", dict(T_max=5, eta_min=0.001), 16, {}),
    ("cosine_annealing_lr_no_eta_min", "CosineAnnealingLR", dict(T_max=4), 10,
     dict(groups=[0.1, 0.05])),
    ("lambda_lr", "LambdaLR", dict(lr_lambda="0.95 ** epoch"), 10, {}),
    ("lambda_lr_per_group", "LambdaLR",
     dict(lr_lambda=["0.95 ** epoch", "1.0 / (epoch + 1)"]), 10, dict(groups=[0.1, 0.05])),
    ("linear_lr", "LinearLR", dict(start_factor=0.25, end_factor=1.0, total_iters=4), 8, {}),
    ("linear_lr_decay", "LinearLR", dict(start_factor=1.0, end_factor=0.1, total_iters=5), 8,
     dict(groups=[0.1, 0.05])),
    ("one_cycle_lr", "OneCycleLR", dict(max_lr=0.1, total_steps=20), 19, dict(momentum=0.9)),
    ("one_cycle_lr_linear_three_phase", "OneCycleLR",
     dict(max_lr=[0.1, 0.2], total_steps=15, pct_start=0.4, anneal_strategy="linear",
          three_phase=True, div_factor=10.0, final_div_factor=100.0), 14,
     dict(groups=[0.1, 0.05], momentum=0.9)),
    ("one_cycle_lr_epochs_no_momentum", "OneCycleLR",
     dict(max_lr=0.05, epochs=3, steps_per_epoch=4, cycle_momentum=False), 11, {}),
    ("reduce_lr_on_plateau", "ReduceLROnPlateau",
     dict(factor=0.5, patience=1, threshold=0.01, cooldown=1, min_lr=0.02), 14,
     dict(metrics=[1.0, 0.9, 0.95, 0.95, 0.94, 0.96, 0.97, 0.5, 0.5, 0.5, 0.5, 0.5, 0.4, 0.4])),
    ("reduce_lr_on_plateau_max_abs", "ReduceLROnPlateau",
     dict(mode="max", factor=0.1, patience=2, threshold=0.05, threshold_mode="abs",
          min_lr=[0.0, 0.001]), 12,
     dict(groups=[0.1, 0.05],
          metrics=[0.1, 0.2, 0.22, 0.24, 0.26, 0.5, 0.52, 0.53, 0.54, 0.55, 0.56, 0.57])),
    ("sequential_lr", "SequentialLR",
     dict(schedulers=[["LinearLR", dict(start_factor=0.1, total_iters=3)],
                      ["ExponentialLR", dict(gamma=0.9)]], milestones=[3]), 10, {}),
    ("sequential_lr_three", "SequentialLR",
     dict(schedulers=[["ConstantLR", dict(factor=0.5, total_iters=2)],
                      ["StepLR", dict(step_size=2, gamma=0.5)],
                      ["CosineAnnealingLR", dict(T_max=4)]], milestones=[2, 6]), 12,
     dict(groups=[0.1, 0.05])),
]


def tensor_json(t):
    t = t.detach()
    values = [v if math.isfinite(v) else str(v) for v in t.double().flatten().tolist()]
    return {"dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape), "values": values}


def value_json(v):
    if isinstance(v, torch.Tensor):
        return tensor_json(v)
    if isinstance(v, (tuple, list)):
        return [value_json(e) for e in v]
    return v


def state_dict_json(sd):
    return {"state": {str(k): {name: value_json(v) for name, v in s.items()}
                      for k, s in sd["state"].items()},
            "param_groups": [{k: value_json(v) for k, v in g.items()} for g in sd["param_groups"]]}


def run_optimizer(name, optimizer, options, dtype):
    a = torch.tensor(A, dtype=torch.float64).reshape(5, 4).to(dtype)
    b = torch.tensor(B, dtype=torch.float64).reshape(5, 3).to(dtype)
    x = torch.tensor(X0, dtype=torch.float64).reshape(4, 3).to(dtype).requires_grad_()
    x0 = tensor_json(x)
    opt = OPTIMIZERS[optimizer]([x], **options)
    trajectory, state_dict = [], None

    def closure():
        opt.zero_grad()
        loss = 0.5 * (a.mm(x) - b).pow(2).sum()
        loss.backward()
        return loss

    for step in range(STEPS):
        opt.step(closure)
        trajectory.append(tensor_json(x))
        if step + 1 == RESUME_AT:
            state_dict = state_dict_json(opt.state_dict())
            resumed = resume(optimizer, options, opt.state_dict(), x, a, b)
    dtype_name = str(dtype).replace("torch.", "")
    kind = "optimizer" if optimizer in CPP_OPTIMIZERS else "python_optimizer"
    return {"name": f"{name}_{dtype_name}", "kind": kind, "optimizer": optimizer,
            "options": {k: value_json(v) for k, v in options.items()}, "A": tensor_json(a),
            "B": tensor_json(b), "x0": x0, "trajectory": trajectory, "state_dict": state_dict,
            "resumed": resumed}


def resume(optimizer, options, state_dict, x, a, b):
    """Steps RESUME_AT + 1 to STEPS of a fresh optimizer that loaded state_dict. They differ
    from the uninterrupted run's where torch's load_state_dict casts a float32 state tensor
    (NAdam's mu_product, ASGD's eta and mu) to a float64 parameter's dtype."""
    x = x.detach().clone().requires_grad_()
    opt = OPTIMIZERS[optimizer]([x], **options)
    opt.load_state_dict(copy.deepcopy(state_dict))

    def closure():
        opt.zero_grad()
        loss = 0.5 * (a.mm(x) - b).pow(2).sum()
        loss.backward()
        return loss

    steps = []
    for _ in range(RESUME_AT, STEPS):
        opt.step(closure)
        steps.append(tensor_json(x))
    return steps


def lambda_of(body):
    return eval("lambda epoch: " + body)  # noqa: S307 - the generator's own table


def make_scheduler(opt, scheduler, args):
    args = dict(args)
    if scheduler == "LambdaLR":
        body = args["lr_lambda"]
        args["lr_lambda"] = ([lambda_of(b) for b in body] if isinstance(body, list)
                             else lambda_of(body))
    if scheduler == "SequentialLR":
        args["schedulers"] = [make_scheduler(opt, n, a) for n, a in args["schedulers"]]
    return getattr(torch.optim.lr_scheduler, scheduler)(opt, **args)


def run_scheduler(name, scheduler, args, epochs, extra):
    groups = extra.get("groups", [0.1])
    momentum = extra.get("momentum", 0)
    params = [torch.zeros(2, requires_grad=True) for _ in groups]
    opt = torch.optim.SGD([{"params": [p], "lr": lr} for p, lr in zip(params, groups)],
                          lr=groups[0], momentum=momentum)
    sched = make_scheduler(opt, scheduler, args)
    lrs = [[g["lr"] for g in opt.param_groups]]
    momenta = [[g["momentum"] for g in opt.param_groups]]
    metrics = extra.get("metrics")
    for epoch in range(epochs):
        for p in params:
            p.grad = torch.ones(2)
        opt.step()
        if metrics is not None:
            sched.step(metrics[epoch])
        else:
            sched.step()
        lrs.append([g["lr"] for g in opt.param_groups])
        momenta.append([g["momentum"] for g in opt.param_groups])
    entry = {"name": name, "kind": "scheduler", "scheduler": scheduler, "args": args,
             "epochs": epochs, "groups": groups, "momentum": momentum, "lrs": lrs,
             "state_keys": sorted(sched.state_dict())}
    if momentum and scheduler == "OneCycleLR":
        entry["momenta"] = momenta
    if metrics is not None:
        entry["metrics"] = metrics
    return entry


def main():
    torch.set_num_threads(1)  # one summation order for mm, run to run
    warnings.simplefilter("ignore")
    goldens = []
    for dtype in (torch.float32, torch.float64):
        for name, optimizer, options in OPTIMIZER_CASES:
            goldens.append(run_optimizer(name, optimizer, options, dtype))
    for case in SCHEDULER_CASES:
        goldens.append(run_scheduler(*case))
    out = pathlib.Path(__file__).resolve().parent.parent / "tests/fixtures/optim_torch_goldens.json"
    out.write_text(json.dumps(goldens) + "\n")
    print(f"gen_optim_torch_goldens: {len(goldens)} goldens from torch {torch.__version__} "
          f"written to {out}")


if __name__ == "__main__":
    main()
