"""The accounting stage: tests/memory/torch_accounting_table.py --record with torch on the GPU,
compared with tests/fixtures/memory/accounting_table.json, and the parser for its output."""
import json
import os
import re

from .commands import run, tail
from .machine import describe_torch, torch_has_cuda
from .stage_io import fail, skip, write_json


def stage_accounting(check, figures):
    check.need_gpu()
    torch = check.torch
    if not torch_has_cuda(torch):
        skip(f"torch {describe_torch(torch)}")
    env = dict(check.env)
    env.pop("PYTORCH_CUDA_ALLOC_CONF", None)  # the table assumes torch's defaults
    rc, out, timed_out = run([check.args.python, "tests/memory/torch_accounting_table.py",
                              "--record"], check.log("accounting"),
                             check.timeout("accounting"), env=env)
    figures.update(parse_accounting(out))
    if figures.get("recorded") is not None:
        write_json(os.path.join(check.out_dir, "torch_accounting_record.json"),
                   {"torch": figures.get("torch_version"), "gpu": check.gpu.get("name"),
                    "rows": figures["recorded"]})
    if timed_out:
        fail(f"timed out after {check.timeout('accounting'):.0f} s")
    if figures.get("mismatches"):
        fail(f"{len(figures['mismatches'])} mismatches with "
             "tests/fixtures/memory/accounting_table.json")
    if rc != 0 or figures.get("rows") is None:
        fail(f"exit {rc}: {tail(out, 4)}")


def parse_accounting(out):
    """tests/memory/torch_accounting_table.py --record: MISMATCH lines, the JSON list of
    torch's figures, then "N rows, M mismatches (torch V)"."""
    lines = out.splitlines()
    summary = None
    for line in lines:
        m = re.match(r"^(\d+) rows, (\d+) mismatches \(torch (.+)\)$", line)
        if m:
            summary = m
    figures = {"mismatches": [l[len("MISMATCH "):] for l in lines if l.startswith("MISMATCH ")],
               "rows": int(summary.group(1)) if summary else None,
               "torch_version": summary.group(3) if summary else None, "recorded": None}
    if "[" in lines:
        start = lines.index("[")
        end = max(i for i, l in enumerate(lines) if l == "]") if "]" in lines else -1
        if end > start:
            try:
                figures["recorded"] = json.loads("\n".join(lines[start:end + 1]))
            except ValueError:
                pass
    return figures
