#!/usr/bin/env python3
"""Writes the seed corpus of each fuzzer under tests/fuzz/corpus/<name>/ (standard library only).

The seeds are small valid and nearly valid inputs that reach each target's interesting paths;
libFuzzer grows its working corpus from them. Run it again after changing an input format.
"""
import gzip
import json
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, seeds):
    folder = os.path.join(HERE, "corpus", name)
    os.makedirs(folder, exist_ok=True)
    for old in os.listdir(folder):
        os.remove(os.path.join(folder, old))
    for i, data in enumerate(seeds):
        if isinstance(data, str):
            data = data.encode()
        with open(os.path.join(folder, f"seed-{i:02d}"), "wb") as f:
            f.write(data)


def small(v):
    """Input::small_or_edge's encoding of v in [-4, 11]."""
    assert -4 <= v <= 11
    return v + 4


def views_seeds():
    def base(kind, sizes, strides=()):
        mode = kind + 3 * len(sizes)
        return bytes([mode] + list(sizes) + [small(s) for s in strides])

    def ints(values):
        return bytes([len(values)] + [small(v) for v in values])

    view, narrow, select, transpose, unsqueeze, squeeze, squeeze_dim = 0, 2, 3, 4, 5, 6, 7
    expand, permute, slice_, flatten, split, chunk = 8, 9, 10, 11, 12, 13
    return [
        base(0, [2, 3, 4]) + bytes([transpose, small(0), small(2), view, 0]) + ints([-1])
        + bytes([view, 1]) + ints([4, 6]),
        base(1, [3, 2], [1, 3]) + bytes([narrow, small(0), small(1), small(2), view, 0]) + ints([4]),
        base(2, [2, 3]) + bytes([expand]) + ints([2, 2, 3]) + bytes([permute]) + ints([2, 0, 1])
        + bytes([slice_, 7, small(1), small(0), small(3), small(2)]),
        base(0, [4, 5]) + bytes([split, small(2), small(1), 1, chunk, small(3), small(0), 2]),
        base(0, [1, 3, 1]) + bytes([squeeze, unsqueeze, small(-1), squeeze_dim, small(0),
                                    select, small(0), small(-1), flatten, small(0), small(-1)]),
        base(0, []) + bytes([unsqueeze, small(0), expand]) + ints([3, 2]) + bytes([view, 1]) + ints([-1]),
        base(1, [2, 2], [2, 1]) + bytes([transpose, small(0), small(1), view, 0]) + ints([4]),
    ]


def safetensors_file(tensors, metadata=None):
    header = {}
    if metadata is not None:
        header["__metadata__"] = metadata
    data = b""
    for name, (dtype, shape, payload) in tensors.items():
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [len(data), len(data) + len(payload)]}
        data += payload
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    return struct.pack("<Q", len(text)) + text + data


def safetensors_seeds():
    f32 = struct.pack("<6f", 0, 1, 2, 3, 4, 5)
    return [
        safetensors_file({"weight": ("F32", [2, 3], f32)}, {"format": "pt"}),
        safetensors_file({"a": ("I64", [2], struct.pack("<2q", -1, 7)), "b": ("BOOL", [3], b"\x00\x01\x01"),
                          "c": ("F16", [1], b"\x00\x3c"), "d": ("BF16", [], b"\x80\x3f"),
                          "e": ("U8", [0, 4], b""), "f": ("I32", [1, 1], struct.pack("<i", 5)),
                          "g": ("F64", [1], struct.pack("<d", 0.5))}),
        safetensors_file({}),
        safetensors_file({"x": ("F32", [2], struct.pack("<2f", 1, 2))}, {}),
        safetensors_file({"x": ("I8", [1], b"\x01")}),
    ]


def idx_file(dims, values):
    return struct.pack(">I", 0x800 | len(dims)) + b"".join(struct.pack(">I", d) for d in dims) + bytes(values)


def idx_seeds():
    rng = random.Random(0)
    images = idx_file([1, 28, 28], [rng.randrange(256) for _ in range(784)])
    labels = idx_file([1], [7])
    mnist = lambda mode, im, lb: bytes([mode]) + struct.pack("<H", len(im)) + im + lb
    return [
        bytes([0]) + idx_file([3], [1, 2, 3]),
        bytes([2]) + idx_file([2, 2], [1, 2, 3, 4]),
        bytes([4]) + idx_file([1, 2, 2], [9, 8, 7, 6]),
        bytes([0]) + gzip.compress(idx_file([2], [5, 6]), mtime=0),
        mnist(3, images, labels),
        mnist(1, idx_file([0, 28, 28], []), idx_file([0], [])),
        mnist(7, gzip.compress(images, mtime=0), gzip.compress(labels, mtime=0)),
    ]


def allocator_seeds():
    rng = random.Random(1)
    seeds = []
    for setup in range(5):  # each allocator config, on devices of 64 to 160 MiB
        seeds.append(bytes([6 * setup] + [rng.randrange(256) for _ in range(160)]))
    # Allocate on two streams, use one block on a third, free it, let the stream finish.
    seeds.append(bytes([0, 0, 0, 5, 16, 1, 0x00, 0x10, 6, 0, 2, 4, 0, 7, 2, 0, 1, 0x00, 0x20, 8]))
    return seeds


def main():
    write("device_string", ["cpu", "cuda", "cpu:0", "cuda:0", "cuda:1", "cuda:15", "cuda:00",
                            "cuda:-1", "CUDA:0", "cuda:32767", "gpu", ""])
    write("alloc_conf", ["", "max_split_size_mb:128", "roundup_power2_divisions:4",
                         "roundup_power2_divisions:[256:1,512:2,>:8]", "garbage_collection_threshold:0.6",
                         "max_split_size_mb:64, roundup_power2_divisions:[1:2,>:16],garbage_collection_threshold:0.25",
                         "max_split_size_mb:20", "roundup_power2_divisions:3", "expandable_segments:True"])
    write("views", views_seeds())
    write("safetensors", safetensors_seeds())
    write("idx", idx_seeds())
    write("allocator", allocator_seeds())


if __name__ == "__main__":
    main()
