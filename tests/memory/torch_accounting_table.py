#!/usr/bin/env python3
"""Checks tests/fixtures/memory/accounting_table.json against torch's CUDACachingAllocator.

Run on a machine with a CUDA GPU and torch installed:
    python3 tests/memory/torch_accounting_table.py            # compare, exit 1 on a mismatch
    python3 tests/memory/torch_accounting_table.py --record   # print torch's figures as JSON

Each row runs on a clean allocator: freed, cache emptied, peak and accumulated stats reset.
PYTORCH_CUDA_ALLOC_CONF must be unset (the table assumes torch's defaults).
"""
import json
import os
import sys

import torch

TABLE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "memory", "accounting_table.json")


def run_row(row):
    streams = {0: torch.cuda.current_stream()}
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    torch.cuda.reset_accumulated_memory_stats()
    ptrs = []
    for step in row["steps"]:
        parts = step.split()
        if parts[0] == "a":
            s = int(parts[2][1:]) if len(parts) > 2 else 0
            if s not in streams:
                streams[s] = torch.cuda.Stream()
            ptrs.append(torch.cuda.caching_allocator_alloc(int(parts[1]), stream=streams[s]))
        elif parts[0] == "f":
            torch.cuda.caching_allocator_delete(ptrs[int(parts[1])])
            ptrs[int(parts[1])] = None
        elif parts[0] == "e":
            torch.cuda.empty_cache()
    stats = torch.cuda.memory_stats()
    got = {k: stats.get(k) for k in row["expect"]}
    for p in ptrs:
        if p is not None:
            torch.cuda.caching_allocator_delete(p)
    return got


def main():
    if os.environ.get("PYTORCH_CUDA_ALLOC_CONF"):
        sys.exit("unset PYTORCH_CUDA_ALLOC_CONF: the table assumes torch's defaults")
    torch.cuda.init()
    table = json.load(open(TABLE))
    record = "--record" in sys.argv
    bad = 0
    out = []
    for row in table["rows"]:
        if row.get("tide_only"):
            continue
        got = run_row(row)
        out.append({"name": row["name"], "torch": got})
        for k, v in row["expect"].items():
            if got[k] != v:
                bad += 1
                print(f"MISMATCH {row['name']}: {k} table={v} torch={got[k]}")
    if record:
        print(json.dumps(out, indent=1))
    print(f"{len(out)} rows, {bad} mismatches (torch {torch.__version__})")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
