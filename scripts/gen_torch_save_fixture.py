#!/usr/bin/python3
"""Writes tests/fixtures/torch_save/fixture.pt with torch.save (Debian's torch 1.13 here).

    /usr/bin/python3 scripts/gen_torch_save_fixture.py

tests/serialize/torch_format_test.cpp loads the file with tide::torch_load where torch is absent
and checks every value against the formulas below; tests/python/test_serialization.py loads it
with tide.load. Keep the three in step. Every tide dtype appears once; "view" shares "base"'s
storage; "state_dict" is a module's OrderedDict with torch's _metadata attribute (a BUILD
opcode); "optimizer" is SGD's state_dict after one step (torch's layout: state keyed by
parameter index, param_groups); "param" is an nn.Parameter (torch._utils._rebuild_parameter).
"""

import collections
import os

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "torch_save", "fixture.pt")


def value():
    base = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    linear = torch.nn.Linear(3, 2)
    with torch.no_grad():
        linear.weight.copy_(torch.arange(6, dtype=torch.float32).reshape(2, 3) / 8)
        linear.bias.copy_(torch.tensor([-1.0, 1.0]))
    sgd = torch.optim.SGD(linear.parameters(), lr=0.5, momentum=0.9)
    linear(torch.ones(1, 3)).sum().backward()
    sgd.step()
    return {
        "f32": torch.arange(6, dtype=torch.float32).reshape(2, 3) * 0.5 - 1,
        "f64": torch.tensor([1.0 / 3, -2.5e300], dtype=torch.float64),
        "f16": torch.tensor([0.5, -65504.0, 1e-4], dtype=torch.float16),
        "bf16": torch.tensor([1.5, -3.0e38], dtype=torch.bfloat16),
        "i64": torch.tensor([-(2**63), 2**63 - 1, 7]),
        "i32": torch.tensor([[-(2**31), 5]], dtype=torch.int32),
        "u8": torch.tensor([0, 200, 255], dtype=torch.uint8),
        "bool": torch.tensor([True, False, True]),
        "base": base,
        "view": base[1:, ::2],  # offset 4, sizes (2, 2), strides (4, 2)
        "state_dict": linear.state_dict(),
        "optimizer": sgd.state_dict(),
        "param": torch.nn.Parameter(torch.tensor([2.0, 4.0])),
        "nested": [1, -(2**40), 3.5, "text", (True, None), collections.OrderedDict(k=[1, 2])],
    }


if __name__ == "__main__":
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    torch.save(value(), OUT)
    print(f"wrote {OUT} ({os.path.getsize(OUT)} bytes) with torch {torch.__version__}")
