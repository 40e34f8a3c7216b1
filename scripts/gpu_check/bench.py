"""The bench stage: bench/vs_torch/tide_vs_torch_gpu_bench with interleaved repetitions, and
Google Benchmark's JSON turned into per-benchmark medians (Note [Benchmark names])."""
import os
import re
import shlex
import statistics

from .commands import first_line_matching, run, tail
from .machine import describe_torch, torch_has_cuda
from .stage_io import fail, read_json, skip

TORCH_BENCH = "bench/vs_torch/tide_vs_torch_gpu_bench"


def stage_bench(check, figures):
    check.need_gpu()
    binary = os.path.join(check.build_dir, TORCH_BENCH)
    if not os.access(binary, os.X_OK):
        build = read_json(os.path.join(check.out_dir, "build.json")) or {}
        why = (build.get("figures") or {}).get("torch_bench")
        if not why:
            why = (f"torch {describe_torch(check.torch)}" if not torch_has_cuda(check.torch)
                   else f"no {TORCH_BENCH} in {check.build_dir}")
        skip(f"not built ({why})")
    raw = os.path.join(check.out_dir, "bench_raw.json")
    if os.path.exists(raw):
        os.remove(raw)
    cmd = [binary, f"--benchmark_repetitions={check.args.bench_repetitions or 10}",
           "--benchmark_enable_random_interleaving=true",
           f"--benchmark_filter={check.args.bench_filter}",
           f"--benchmark_out={raw}", "--benchmark_out_format=json"]
    figures["command"] = shlex.join(cmd)
    rc, out, timed_out = run(cmd, check.log("bench"), check.timeout("bench"), env=check.env)
    if timed_out:
        fail(f"timed out after {check.timeout('bench'):.0f} s (narrow with --bench-filter "
             "or fewer --bench-repetitions)")
    data = read_json(raw)
    why = first_line_matching(out, r"tide_vs_torch_gpu_bench: skipped: (.+)$")
    if data is None and rc == 0 and why:
        skip(f"the benchmark skipped itself: {why}")
    if data is None:
        fail(f"exit {rc}, no JSON written: {tail(out, 4)}")
    figures.update(medians_from_gbench(data))
    # The benchmark's own figure (cudaDeviceGetAttribute), else torch's.
    peak = float(figures["context"].get("peak_memory_bytes_per_second") or 0) or None
    peak = peak or ((read_json(os.path.join(check.out_dir, "env.json")) or {}).get("figures", {})
                    .get("torch", {}).get("peak_bytes_per_second"))
    if peak is None and check.torch.get("peak_bytes_per_second"):
        peak = check.torch["peak_bytes_per_second"]
    figures["peak_bytes_per_second"] = peak
    if rc != 0:
        fail(f"exit {rc}: {tail(out, 4)}")


# Note [Benchmark names]: Google Benchmark appends run options to a name (/real_time,
# /manual_time, /min_time:0.2, /iterations:N, /repeats:N, /threads:N); they are dropped,
# then the part naming a side (tide, torch or raw) is taken out, and the rest is the case.
RUN_OPTION = re.compile(r"^(real_time|manual_time|process_time|min_time:.*|"
                        r"min_warmup_time:.*|iterations:\d+|repeats:\d+|threads:\d+)$")
SIDES = ("tide", "torch", "raw")
UNIT_S = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
GBENCH_FIELDS = {"name", "family_index", "per_family_instance_index", "run_name", "run_type",
                 "repetitions", "repetition_index", "threads", "iterations", "real_time",
                 "cpu_time", "time_unit", "aggregate_name", "aggregate_unit", "error_occurred",
                 "error_message", "label", "skipped", "skip_message"}


def split_name(name):
    parts = [p for p in name.split("/") if not RUN_OPTION.match(p)]
    for i in range(len(parts) - 1, 0, -1):
        if parts[i].lower() in SIDES:
            return "/".join(parts[:i] + parts[i + 1:]), parts[i].lower()
    return "/".join(parts), "tide"


def medians_from_gbench(data):
    """Google Benchmark's JSON -> {benchmarks: {name: {median_s, spread, runs, counters,
    error}}, context}: medians over the repetitions (iteration runs; the median aggregate
    when only aggregates were reported)."""
    runs, medians, errors = {}, {}, {}
    for b in data.get("benchmarks", []):
        name = b.get("run_name") or b.get("name")
        if b.get("error_occurred") or b.get("skipped") not in (None, False, 0):
            errors[name] = b.get("error_message") or b.get("skip_message") or "error"
            continue
        if b.get("run_type", "iteration") == "iteration":
            runs.setdefault(name, []).append(b)
        elif b.get("aggregate_name") == "median":
            medians[name] = b
    out = {}
    for name in sorted(set(runs) | set(medians) | set(errors)):
        if name in errors and name not in runs:
            out[name] = {"error": errors[name]}
            continue
        group = runs.get(name) or [medians[name]]
        times = [b["real_time"] * UNIT_S.get(b.get("time_unit", "ns"), 1e-9) for b in group]
        counters = {}
        for key in sorted({k for b in group for k, v in b.items()
                           if k not in GBENCH_FIELDS and isinstance(v, (int, float))}):
            counters[key] = statistics.median(b[key] for b in group if key in b)
        med = statistics.median(times)
        out[name] = {"median_s": med, "runs": len(group), "counters": counters,
                     "spread": (max(times) - min(times)) / 2 / med if med > 0 else 0.0}
    ctx = data.get("context", {})
    return {"benchmarks": out,  # the context's scalars: the benchmark adds device figures
            "context": {k: v for k, v in ctx.items() if isinstance(v, (str, int, float, bool))}}
