#!/usr/bin/env python3
"""Writes tests/fixtures/safetensors/fixture.safetensors with the safetensors package from PyPI.

    pip install safetensors numpy      # no torch needed
    python3 scripts/gen_safetensors_fixture.py

tests/serialize/serialize_test.cpp loads the file and checks every value, then saves the same
tensors with tide::save and expects these bytes exactly (Note [safetensors layout] in
src/serialize/safetensors_header.h). Keep the two lists of tensors in step.

Every tide dtype appears once at least; numpy has no bfloat16, so the BF16 tensor goes through
safetensors' raw serialize() with its bit patterns. The metadata has one key only: the package
writes metadata in hash-map order, which is fixed for a single key.
"""

import os

import numpy as np
import safetensors
from safetensors import TensorSpec, serialize

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "safetensors", "fixture.safetensors")


def tensors():
    return {
        "mask": np.array([[True, False, True], [False, False, True]], dtype=np.bool_),
        "bytes": np.array([0, 1, 127, 255], dtype=np.uint8),
        "i32.matrix": np.array([[-(2**31), -1], [0, 2**31 - 1]], dtype=np.int32),
        "i64.scalar": np.array(-9007199254740993, dtype=np.int64),  # not a double
        "i64.vector": np.array([-(2**63), 0, 2**63 - 1], dtype=np.int64),
        "f16": np.array([1.0, -2.5, 65504.0, np.inf, -0.0], dtype=np.float16),
        "layer.0.weight": (np.arange(24, dtype=np.float32) / 8 - 1).reshape(2, 3, 4),
        "f32.empty": np.zeros((0, 4), dtype=np.float32),
        "f64.scalar": np.array(3.141592653589793, dtype=np.float64),
        "f64.empty": np.zeros((0,), dtype=np.float64),
        "na\u00efve": np.array([0.1, -1e300], dtype=np.float64),
    }


# BF16 bit patterns: 1.0, -2.0, 0.5, 3.140625.
BF16_BITS = np.array([[0x3F80, 0xC000], [0x3F00, 0x4049]], dtype="<u2")


def main():
    arrays = tensors()
    specs = {
        name: TensorSpec(dtype=a.dtype.name, shape=list(a.shape), data_ptr=a.ctypes.data,
                         data_len=a.nbytes)
        for name, a in arrays.items()
    }
    specs["bf16"] = TensorSpec(dtype="bfloat16", shape=[2, 2], data_ptr=BF16_BITS.ctypes.data,
                               data_len=BF16_BITS.nbytes)
    data = bytes(serialize(specs, metadata={"format": "pt"}))
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "wb") as f:
        f.write(data)
    n = int.from_bytes(data[:8], "little")
    print(f"wrote {OUT} ({len(data)} bytes) with safetensors {safetensors.__version__}")
    print(data[8 : 8 + n].decode())


if __name__ == "__main__":
    main()
