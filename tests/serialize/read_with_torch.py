#!/usr/bin/env python3
"""Reads a file tide::torch_save wrote (tests/serialize/torch_format_test.cpp) with torch.load.

    read_with_torch.py FILE WEIGHTS_FILE

Exits 0 when torch reads the values the test saved (dtypes, shapes, bytes, a view that shares
its base's storage, a state_dict a torch module loads, nested values, an Adam state_dict torch's Adam loads), with and without
weights_only=True for WEIGHTS_FILE (the same values without "nested": torch 1.13's
weights-only unpickler has no BINFLOAT opcode, so a Python float fails it); 77 when torch is not importable by this interpreter (the test skips, saying so);
1 with the difference otherwise.
"""

import collections
import sys

try:
    import torch
except ImportError as e:
    print(f"torch is not importable by {sys.executable}: {e}")
    sys.exit(77)


def expected_dtypes():
    # tests/serialize/torch_format_test.cpp's every_dtype(), in order.
    return [
        torch.tensor([True, False, True]),
        torch.tensor([0, 1, 255], dtype=torch.uint8),
        torch.tensor([[-(2**31), -1], [0, 2**31 - 1]], dtype=torch.int32),
        torch.tensor([-(2**63), 7, 2**63 - 1]),
        torch.tensor([0.5, -65504.0, 1e-4], dtype=torch.float16),
        torch.tensor([1.5, -3.0e38], dtype=torch.bfloat16),
        torch.arange(24, dtype=torch.float32).view(2, 3, 4) / 8 - 1,
        torch.tensor([1.0 / 3, -2.5e300], dtype=torch.float64),
        torch.empty(0, 4),
        torch.tensor(2.5),
    ]


def check(value):
    assert isinstance(value, dict), type(value)
    dtypes = value["dtypes"]
    assert len(dtypes) == len(expected_dtypes()), len(dtypes)
    for i, (got, want) in enumerate(zip(dtypes, expected_dtypes())):
        assert got.dtype == want.dtype and got.shape == want.shape, (i, got, want)
        assert torch.equal(got, want), (i, got, want)
    base, view = value["base"], value["view"]
    assert torch.equal(base, torch.arange(12, dtype=torch.float32).view(3, 4)), base
    assert view.storage_offset() == 4 and view.stride() == (4, 2), (view.storage_offset(), view.stride())
    assert view.storage().data_ptr() == base.storage().data_ptr(), "the view lost its storage"
    base.fill_(5)
    assert torch.equal(view, torch.full((2, 2), 5.0)), view
    state_dict = value["state_dict"]
    assert type(state_dict) is collections.OrderedDict, type(state_dict)
    linear = torch.nn.Linear(3, 2)
    linear.load_state_dict(state_dict)
    assert torch.equal(linear.weight, torch.arange(6, dtype=torch.float32).view(2, 3)), linear.weight
    if "nested" in value:
        assert value["nested"] == [1, -(2**40), 3.5, "text", (True, None)], value["nested"]
    if "optimizer" in value:
        # tide's Adam after two steps of all-ones gradients: torch's Adam loads and steps on.
        adam = torch.optim.Adam(linear.parameters())
        adam.load_state_dict(value["optimizer"])
        group = adam.param_groups[0]
        assert group["lr"] == 0.1 and tuple(group["betas"]) == (0.8, 0.99), group
        state = adam.state[linear.weight]
        assert float(state["step"]) == 2.0, state["step"]
        # exp_avg of constant gradients g after two steps: (1 - 0.8^2) g.
        assert torch.allclose(state["exp_avg"], torch.full((2, 3), 1 - 0.8 ** 2)), state
        linear(torch.ones(1, 3)).sum().backward()
        adam.step()
        assert float(adam.state[linear.weight]["step"]) == 3.0


def main():
    path, weights = sys.argv[1:3]
    check(torch.load(path))
    check(torch.load(weights))
    check(torch.load(weights, weights_only=True))
    print(f"torch {torch.__version__} read {path} and {weights}")


if __name__ == "__main__":
    main()
