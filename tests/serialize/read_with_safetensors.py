#!/usr/bin/env python3
"""Reads a file tide::save wrote with the safetensors package and compares it with a reference.

    read_with_safetensors.py TIDE_FILE REFERENCE_FILE

Run by tests/serialize/serialize_test.cpp. Exits 0 when the package reads both files to the same
names, dtypes, shapes, bytes and metadata; 77 when the package is not importable (the test then
skips, saying so); 1 with the difference otherwise. Needs only the safetensors package (no numpy
or torch): deserialize() returns every tensor's raw bytes, BF16 included.
"""

import sys

try:
    import safetensors
    from safetensors import deserialize, safe_open
except ImportError as e:
    print(f"the safetensors package is not importable by {sys.executable}: {e}")
    sys.exit(77)


def read(path):
    with open(path, "rb") as f:
        tensors = {name: (t["dtype"], list(t["shape"]), bytes(t["data"])) for name, t in deserialize(f.read())}
    with safe_open(path, framework="numpy") as f:  # framework only matters for get_tensor
        metadata = f.metadata()
    return tensors, metadata


def main():
    tide_path, reference_path = sys.argv[1], sys.argv[2]
    got, want = read(tide_path), read(reference_path)
    if got != want:
        print(f"safetensors {safetensors.__version__} reads {tide_path} as\n{got}\nexpected\n{want}")
        sys.exit(1)
    print(f"safetensors {safetensors.__version__} reads {len(got[0])} tensors as expected")


if __name__ == "__main__":
    main()
