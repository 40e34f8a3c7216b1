#!/usr/bin/python3
"""Writes tests/fixtures/nn_goldens.json: what torch 1.13 (Debian's python3-torch) computes
for the nn pieces of issue 26 whose values do not depend on random draws: F.pad in every mode
(values, the gradient of a weighted sum, misuse errors), gradient clipping, Embedding's
max_norm renormalization, the containers' reprs, calculate_gain, state-dict key reports and
named_modules. tests/python/test_nn_more.py compares tide against it.

    /usr/bin/python3 scripts/gen_nn_goldens.py
"""

import collections
import json
import math
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "nn_goldens.json")

# (input shape, pad, mode, value)
PAD_CASES = [
    ((1, 2, 3), (1, 2), "constant", None), ((1, 2, 3), (1, 2), "constant", 2.5),
    ((2, 3), (2, 1, 1, 0), "constant", -1.0), ((2, 3, 4), (1, -1, -1, 2, 1, 0), "constant", 0.0),
    ((4,), (0, 3), "constant", None), ((1, 2, 3), (-3, 0), "constant", None),
    ((1, 2, 3), (1, 2), "reflect", None), ((2, 3), (2, 2), "reflect", None),
    ((1, 2, 3, 4), (1, 2, 2, 1), "reflect", None), ((2, 3, 4), (3, 0, 1, 1), "reflect", None),
    ((1, 1, 3, 3, 3), (1, 1, 2, 0, 0, 2), "reflect", None), ((1, 2, 4), (-1, 2), "reflect", None),
    ((1, 2, 3), (1, 2), "replicate", None), ((2, 3), (3, 1), "replicate", None),
    ((1, 2, 3, 4), (2, 1, 0, 3), "replicate", None),
    ((1, 1, 2, 2, 3), (1, 1, 1, 1, 1, 1), "replicate", None),
    ((1, 2, 4), (-1, 2), "replicate", None),
    ((1, 2, 3), (1, 2), "circular", None), ((1, 2, 3, 4), (2, 1, 1, 2), "circular", None),
    ((1, 1, 2, 3, 3), (1, 1, 1, 0, 2, 1), "circular", None),
    ((1, 2, 3), (-1, 2), "circular", None), ((1, 2, 4), (2, -1), "circular", None),
    # misuse
    ((1, 2, 3), (1,), "constant", None), ((1, 2, 3), (1, 1) * 4, "constant", None),
    ((1, 2, 3), (3, 0), "reflect", None), ((1, 1, 2, 3), (0, 0, 2, 0), "reflect", None),
    ((1, 1, 1, 2, 3), (0, 0, 0, 0, 0, 2), "reflect", None), ((1, 2, 3), (1, 1), "foo", None),
    ((1, 2, 3), (1, 1), "reflect", 2.0), ((3,), (1, 1), "reflect", None),
    ((1, 1, 1, 3), (1, 1), "replicate", None), ((2, 3), (1, 1), "circular", None),
    ((1, 2, 3), (4, 0), "circular", None),
]


def error(ex):
    return {"error": type(ex).__name__, "message": str(ex)}


def pad_goldens():
    out = []
    for shape, pad, mode, value in PAD_CASES:
        x = torch.arange(math.prod(shape), dtype=torch.float64).reshape(shape).requires_grad_()
        case = {"shape": shape, "pad": pad, "mode": mode, "value": value}
        try:
            y = F.pad(x, pad, mode, value)
        except Exception as ex:  # noqa: BLE001 - the golden is the error itself
            case.update(error(ex))
        else:
            weights = torch.arange(y.numel(), dtype=torch.float64).reshape(y.shape) + 1
            (y * weights).sum().backward()
            case.update(out=y.tolist(), out_shape=list(y.shape), grad=x.grad.tolist())
        out.append(case)
    return out


def grads_model():
    """Two parameters with known gradients."""
    a = torch.zeros(2, 3, requires_grad=True)
    b = torch.zeros(4, requires_grad=True)
    a.grad = torch.tensor([[0.5, -1.0, 2.0], [3.0, 0.0, -0.25]])
    b.grad = torch.tensor([1.0, -2.0, 0.125, 4.0])
    return [a, b]


def clip_goldens():
    out = []
    for norm_type in (2.0, 1.0, "inf", 3.0, 0.5):
        for max_norm in (1.0, 100.0):
            params = grads_model()
            total = nn.utils.clip_grad_norm_(params, max_norm, norm_type=norm_type)
            out.append({"norm_type": norm_type, "max_norm": max_norm, "total": total.item(),
                        "grads": [p.grad.tolist() for p in params]})
    params = grads_model()
    nn.utils.clip_grad_value_(params, 1.5)
    value = [p.grad.tolist() for p in params]
    params = grads_model()
    params[1].grad[0] = float("nan")
    try:
        nn.utils.clip_grad_norm_(params, 1.0, error_if_nonfinite=True)
    except RuntimeError as ex:
        nonfinite = error(ex)
    vec = nn.utils.parameters_to_vector([torch.arange(6.0).reshape(2, 3), torch.ones(2)])
    return {"norm": out, "value": value, "nonfinite": nonfinite, "vector": vec.tolist()}


def embedding_goldens():
    out = []
    for max_norm, norm_type in ((1.0, 2.0), (2.5, 1.0), (3.0, float("inf"))):
        emb = nn.Embedding(5, 3, max_norm=max_norm, norm_type=norm_type)
        with torch.no_grad():
            emb.weight.copy_(torch.arange(15.0).reshape(5, 3) / 4 - 1)
        y = emb(torch.tensor([[3, 0], [3, 4]]))
        out.append({"max_norm": max_norm, "norm_type": "inf" if math.isinf(norm_type) else
                    norm_type, "out": y.tolist(),
                    "weight": emb.weight.tolist(), "repr": repr(emb)})
    return out


# (input, offsets, mode, include_last_offset, padding_idx, per_sample_weights)
BAG_CASES = [
    ([[1, 2, 4], [4, 3, 2]], None, "sum", False, None, None),
    ([[1, 2, 4], [4, 3, 2]], None, "mean", False, None, None),
    ([[1, 2, 4], [4, 3, 2]], None, "max", False, None, None),
    ([1, 2, 4, 5, 4, 3, 2, 9], [0, 4, 4], "mean", False, None, None),
    ([1, 2, 4, 5, 4, 3, 2, 9], [0, 2, 5, 8], "sum", True, None, None),
    ([1, 2, 4, 5, 4, 3, 2, 9], [0, 3], "max", False, 4, None),
    ([1, 2, 4, 5, 4, 3, 2, 9], [0, 3], "mean", False, 2, None),
    ([1, 2, 4, 5, 4, 3, 2, 9], [0, 3], "sum", False, None,
     [0.5, 1.0, -1.0, 2.0, 0.25, 1.0, 1.0, 3.0]),
    # misuse
    ([[1, 2], [3, 4]], [0, 1], "sum", False, None, None),
    ([1, 2, 3], None, "sum", False, None, None),
    ([1, 2, 3], [0], "median", False, None, None),
    ([1, 2, 3], [0], "mean", False, None, [1.0, 1.0, 1.0]),
    ([1, 2, 3], [0], "sum", False, None, [1.0, 1.0]),
]


def embedding_bag_goldens():
    out = []
    for input, offsets, mode, last, padding_idx, weights in BAG_CASES:
        weight = (torch.arange(30.0).reshape(10, 3) / 5 - 2).requires_grad_()
        case = {"input": input, "offsets": offsets, "mode": mode, "include_last_offset": last,
                "padding_idx": padding_idx, "per_sample_weights": weights}
        try:
            y = F.embedding_bag(torch.tensor(input), weight,
                                None if offsets is None else torch.tensor(offsets), mode=mode,
                                include_last_offset=last, padding_idx=padding_idx,
                                per_sample_weights=None if weights is None else
                                torch.tensor(weights))
        except Exception as ex:  # noqa: BLE001
            case.update(error(ex))
        else:
            (y * (torch.arange(y.numel(), dtype=y.dtype).reshape(y.shape) + 1)).sum().backward()
            case.update(out=y.tolist(), grad=weight.grad.tolist())
        out.append(case)
    bag = nn.EmbeddingBag(10, 3, mode="max", padding_idx=-2, max_norm=2.0)
    return {"cases": out, "repr": repr(bag)}


def container_goldens():
    md = nn.ModuleDict({"b": nn.Linear(2, 3), "a": nn.ReLU()})
    md.update([("c", nn.Tanh())])
    pl = nn.ParameterList([nn.Parameter(torch.ones(2)), torch.zeros(3, 2), "x"])
    pd = nn.ParameterDict({"z": torch.ones(2), "a": nn.Parameter(torch.zeros(1))})
    pd.update([("m", torch.ones(3))])
    out = {"module_dict": repr(md), "module_dict_keys": list(md.keys()),
           "module_dict_state": list(md.state_dict().keys()),
           "parameter_list": repr(pl), "parameter_list_names":
               [n for n, _ in pl.named_parameters()],
           "parameter_dict": repr(pd), "parameter_dict_keys": list(pd.keys()),
           "parameter_dict_names": [n for n, _ in pd.named_parameters()]}
    errors = {}
    for name, call in (("module_dict_update_int", lambda: nn.ModuleDict().update(3)),
                       ("module_dict_update_pair", lambda: nn.ModuleDict().update([("a",)])),
                       ("parameter_dict_key", lambda: nn.ParameterDict().__setitem__(1, None)),
                       ("parameter_list_call", lambda: nn.ParameterList()()),
                       ("parameter_list_extend", lambda: nn.ParameterList().extend(
                           torch.ones(2)))):
        try:
            call()
        except Exception as ex:  # noqa: BLE001
            errors[name] = error(ex)
    out["errors"] = errors
    return out


def module_goldens():
    shared = nn.Linear(2, 2)
    net = nn.Sequential(collections.OrderedDict(
        [("a", shared), ("b", nn.Sequential(shared, nn.ReLU())), ("c", nn.Linear(2, 1))]))
    named = {
        "default": [n for n, _ in net.named_modules()],
        "prefix": [n for n, _ in net.named_modules(prefix="net")],
        "no_dedupe": [n for n, _ in net.named_modules(remove_duplicate=False)],
    }
    state = net.state_dict()
    state["extra.weight"] = torch.ones(1)
    del state["c.bias"]
    result = net.load_state_dict(state, strict=False)
    try:
        net.load_state_dict(state)
    except RuntimeError as ex:
        strict = error(ex)
    full = net.load_state_dict(net.state_dict())
    return {"named_modules": named, "missing": result.missing_keys,
            "unexpected": result.unexpected_keys, "result_repr": repr(result),
            "strict": strict, "matched_repr": repr(full)}


def init_goldens():
    gains = {}
    for name, param in (("linear", None), ("conv2d", None), ("sigmoid", None), ("tanh", None),
                        ("relu", None), ("leaky_relu", None), ("leaky_relu", 0.2),
                        ("selu", None)):
        gains[f"{name}:{param}"] = nn.init.calculate_gain(name, param)
    errors = {}
    for name, call in (("gain", lambda: nn.init.calculate_gain("foo")),
                       ("slope", lambda: nn.init.calculate_gain("leaky_relu", "x")),
                       ("fan", lambda: nn.init.xavier_uniform_(torch.empty(3))),
                       ("mode", lambda: nn.init.kaiming_uniform_(torch.empty(3, 3), mode="x")),
                       ("eye", lambda: nn.init.eye_(torch.empty(3, 3, 3))),
                       ("dirac", lambda: nn.init.dirac_(torch.empty(3, 3))),
                       ("orthogonal", lambda: nn.init.orthogonal_(torch.empty(3)))):
        try:
            call()
        except Exception as ex:  # noqa: BLE001
            errors[name] = error(ex)
    return {"gains": gains, "errors": errors,
            "eye": nn.init.eye_(torch.empty(2, 3)).tolist(),
            "dirac": nn.init.dirac_(torch.empty(4, 2, 3), groups=2).tolist()}


def main():
    goldens = {"torch_version": torch.__version__, "pad": pad_goldens(), "clip": clip_goldens(),
               "embedding": embedding_goldens(), "embedding_bag": embedding_bag_goldens(),
               "containers": container_goldens(),
               "module": module_goldens(), "init": init_goldens(),
               "softmax2d": F.softmax(torch.arange(12.0).reshape(1, 3, 2, 2) / 5, -3).tolist()}
    with open(OUT, "w") as f:
        json.dump(goldens, f, indent=1, allow_nan=False)  # strict JSON: C++ tests read it
        f.write("\n")
    print(f"wrote {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
