"""scripts/gpu-check --bundle FILE --bench: tide against the GPU machine's torch (issue 23), from
the bundle, in one command. Stages (after env and unpack, which starts compiling the torch side
and tide's Python extension in the background):
  bench    the C++ cases: the bundle's tide side (bin/tide_vs_torch_gpu_bench: tide and raw
           CUDA) and the torch side compiled there (torch_side.py), run alternately in rounds,
           each run interleaving its own cases over its repetitions; medians over every round
           (Note [Two processes] in bench/vs_torch/torch_gpu_bench.cpp)
  pystep   the MLP step from Python: tide's package against torch's, in one process
           (bench/python_step.py)
  trainvs  `tide train --device cuda` for 5 epochs beside the same loop in torch
           (bench/torch_train_loop.py): time and accuracy
  profile  Nsight Compute (ncu) on the tide side of every case whose kernels miss the target,
           while the deadline allows
--sim N: tide runs on simulated GPUs, so the C++ sides skip themselves ("skipped: no CUDA"
where torch has none); the Python step and the torch loop run on the cpu instead: the harness
proven without a GPU, no figure of it meaningful."""
import os
import re
import shlex
import threading
import time

from . import torch_side
from .bench import medians_from_gbench
from .bench_targets import bench_cases, judge
from .bundle_layout import BENCH_BINARY
from .bundle_stages import MIN_ACCURACY as TRAIN_MIN_ACCURACY, bundle, ready
from .commands import find_tool, first_line_matching, run, tail
from .stage_io import fail, read_json, skip

TRAIN_EPOCHS = 5
MIN_TIME_S = "0.1"  # Google Benchmark 1.7's --benchmark_min_time: seconds, no unit
# Cases whose tide side is kernels on the device: ncu shows why they miss. The others miss on
# the host (launch overhead, the allocator, copies' staging): nsys, not ncu, shows those.
KERNEL_CASES = re.compile(r"^(Add|Sum|Matmul|MlpStep|Overlap)")
NCU_SECTIONS = ["SpeedOfLight", "MemoryWorkloadAnalysis", "LaunchStats", "Occupancy"]
NCU_KERNELS = 8  # per case: the fills and warm-up launches come first, then the timed ones


def start_builds(check):
    """Starts compiling the torch side (torch_side.build) and tide's Python extension, each in a
    thread; the stages join them before timing anything."""
    b = bundle(check)
    if b.problem or getattr(b, "torch_side", None) is not None:
        return
    b.torch_side = {"state": None}
    out = os.path.join(check.build_dir, "torch-side")
    env = dict(check.env)

    def work():
        b.torch_side["state"] = torch_side.build(
            b.root, out, check.args.python, b.figures.get("cuda_dirs") or [],
            check.log("bench", "torch-side-build"), check.timeout("bench"), env,
            jobs=3, check_cuda_sources=bool(check.args.sim))

    b.torch_side["thread"] = threading.Thread(target=work, daemon=True)
    b.torch_side["thread"].start()
    if (b.figures.get("python") or {}).get("headers"):
        b.start_python_build()


def wait_builds(check, b):
    """Both builds joined (the timings need an idle host); the torch side's result."""
    start_builds(check)
    b.torch_side["thread"].join(check.timeout("bench"))
    if b.python_build is not None and b.python_build.get("thread"):
        b.python_build["thread"].join(max(10, check.timeout("bench") / 2))
    return b.torch_side["state"] or {"binary": None, "why": "the torch side's build did not finish"}


def side_command(binary, out_json, repetitions, extra=()):
    return [binary, f"--benchmark_repetitions={repetitions}", "--benchmark_enable_random_interleaving=true",
            f"--benchmark_min_time={MIN_TIME_S}", f"--benchmark_out={out_json}",
            "--benchmark_out_format=json", *extra]


def merge_runs(paths):
    """Google Benchmark JSONs of several processes as one: every run's benchmarks, and the
    contexts merged (the later side's keys added to the earlier ones)."""
    merged = {"benchmarks": [], "context": {}}
    for path in paths:
        data = read_json(path)
        if not data:
            continue
        merged["benchmarks"] += data.get("benchmarks", [])
        for k, v in data.get("context", {}).items():
            merged["context"].setdefault(k, v)
    return merged


def round_order(r, sides):
    """ABBA: the side that goes first alternates, so neither always runs on a warmer GPU."""
    return sides if r % 2 == 0 else sides[::-1]


def stage_bench(check, figures):
    b = ready(check)
    built = wait_builds(check, b)
    figures["torch_side_build"] = {k: built.get(k) for k in ("why", "seconds", "compiles", "cuda", "compiler")}
    thread = (b.python_build or {}).get("thread")
    if thread is not None and thread.is_alive():  # host-bound cases then share the cpu with it
        figures["python_build_still_running"] = True
    figures["torch"] = {k: (built.get("torch") or {}).get(k) for k in ("version", "cuda", "error")}
    binaries = {"tide": os.path.join(b.root, "bin", BENCH_BINARY), "torch": built.get("binary")}
    if not os.access(binaries["tide"], os.X_OK):
        fail(f"the bundle has no bin/{BENCH_BINARY} (packed from a build without the CUDA backend?)")
    skipped = {}
    if not binaries["torch"]:
        skipped["torch"] = f"not built: {built.get('why')}"
    envs = {"tide": b.env, "torch": dict(check.env)}  # torch's own libraries, never the bundle's
    if check.args.sim:
        envs["torch"]["TIDE_SIM_DEVICES"] = str(check.args.sim)
    reps = check.args.bench_repetitions or 3
    rounds = check.args.bench_rounds
    outputs, commands, round_seconds = [], [], []
    for r in range(rounds):
        start = time.monotonic()
        remaining = check.timeout("bench")
        if r > 0 and round_seconds and remaining < 1.3 * max(round_seconds) + 30:
            figures["rounds_cut"] = f"{rounds - r} of {rounds} rounds left out: {remaining:.0f} s left"
            break
        for side in round_order(r, ["tide", "torch"]):
            if side in skipped:
                continue
            out_json = os.path.join(check.out_dir, f"bench_{side}_{r}.json")
            if os.path.exists(out_json):
                os.remove(out_json)
            cmd = side_command(binaries[side], out_json, reps, [f"--benchmark_filter={check.args.bench_filter}"])
            commands.append(shlex.join(cmd))
            rc, out, timed_out = run(cmd, check.log("bench", f"bench-{side}"), check.timeout("bench"),
                                     env=envs[side], cwd=check.build_dir)
            why = first_line_matching(out, r"_gpu_bench: skipped: (.+)$")
            if why and not os.path.exists(out_json):
                skipped[side] = why
            elif timed_out or rc != 0 or not os.path.exists(out_json):
                skipped[side] = f"{'timed out' if timed_out else f'exit {rc}'}: {tail(out, 3)}"
            else:
                outputs.append(out_json)
        round_seconds.append(time.monotonic() - start)
        if len(skipped) == 2:
            break
    figures.update(commands=commands, rounds=len(round_seconds), repetitions_per_round=reps,
                   round_seconds=[round(s, 1) for s in round_seconds], skipped=skipped)
    figures.update(medians_from_gbench(merge_runs(outputs)))
    peak = float(figures["context"].get("peak_memory_bytes_per_second") or 0) or None
    figures["peak_bytes_per_second"] = peak or (check.torch or {}).get("peak_bytes_per_second")
    if "tide" in skipped and "torch" in skipped:
        skip("; ".join(f"{s} side: {w}" for s, w in skipped.items()))
    if skipped and not check.args.sim:  # on a GPU every side must run: the table needs both
        fail("; ".join(f"{s} side: {w}" for s, w in skipped.items()))


def stage_pystep(check, figures):
    b = ready(check)
    state = b.wait_python_build(check.timeout("pystep"))
    figures["compile"] = {k: state.get(k) for k in ("rc", "seconds", "error", "tail")}
    if state.get("rc") != 0:
        why = f"tide's Python package not built here: {state.get('error') or state.get('tail') or 'unfinished'}"
        if check.args.sim:
            skip(why)
        fail(why)
    out_json = os.path.join(check.out_dir, "pystep_raw.json")
    device = "cpu" if check.args.sim else "cuda"
    cmd = [check.args.python, os.path.join(b.root, "bench", "python_step.py"), "--out", out_json,
           "--device", device]
    env = dict(b.env, PYTHONPATH=state["dir"])
    env.pop("TIDE_SIM_DEVICES", None)
    rc, out, timed_out = run(cmd, check.log("pystep"), check.timeout("pystep"), env=env, cwd=check.build_dir)
    data = read_json(out_json) if rc == 0 and not timed_out else None
    if data is None:
        fail(f"{'timed out' if timed_out else f'exit {rc}'}: {tail(out, 4)}")
    figures.update(benchmarks=data["benchmarks"], context=data["context"], skipped=data["skipped"],
                   device=device, command=shlex.join(cmd))
    if device == "cpu":
        figures["note"] = "--sim: both sides on the cpu (the harness checked; not the issue's figure)"
    why = "; ".join(f"{s}: {w}" for s, w in data["skipped"].items())
    if not data["benchmarks"]:
        skip(why or "nothing ran")
    if why and device == "cuda":  # on a GPU both sides must run: the row needs both
        fail(why)


def stage_trainvs(check, figures):
    b = ready(check)
    data = os.path.join(b.root, "data", "fashion-mnist")
    tide_cmd = [os.path.join(b.root, "bin", "tide"), "train", "--device", "cuda", "--data", data,
                "--epochs", str(TRAIN_EPOCHS), "--seed", "0"]
    half = check.timeout("trainvs") / 2
    start = time.monotonic()
    rc, out, timed_out = run(tide_cmd, check.log("trainvs", "trainvs-tide"), half, env=b.env)
    tide = {"exit": rc, "seconds": round(time.monotonic() - start, 2), "timed_out": timed_out,
            "accuracy": [float(a) for a in re.findall(r"test accuracy: ([\d.]+)%", out)],
            "command": shlex.join(tide_cmd[1:])}
    device = "cpu" if check.args.sim else "cuda"
    out_json = os.path.join(check.out_dir, "trainvs_torch.json")
    torch_cmd = [check.args.python, os.path.join(b.root, "bench", "torch_train_loop.py"), "--data", data,
                 "--epochs", str(TRAIN_EPOCHS), "--device", device, "--out", out_json]
    start = time.monotonic()
    rc2, out2, timed_out2 = run(torch_cmd, check.log("trainvs", "trainvs-torch"), half, env=dict(check.env))
    torch = read_json(out_json) or {}
    torch.update(exit=rc2, process_seconds=round(time.monotonic() - start, 2), timed_out=timed_out2,
                 device=device)
    why = first_line_matching(out2, r"torch_train_loop: skipped: (.+)$")
    figures.update(tide=tide, torch=torch, epochs=TRAIN_EPOCHS)
    benchmarks = {}
    if rc == 0 and not timed_out:
        benchmarks["TrainLoop_5epochs/tide"] = {"median_s": tide["seconds"], "runs": 1, "spread": 0.0,
                                                "counters": {"accuracy_pct": (tide["accuracy"] or [0])[-1]}}
    if torch.get("accuracy") and device == "cuda":
        benchmarks["TrainLoop_5epochs/torch"] = {"median_s": torch["process_seconds"], "runs": 1,
                                                 "spread": 0.0,
                                                 "counters": {"accuracy_pct": torch["accuracy"][-1]}}
    figures["benchmarks"] = benchmarks
    if why:
        figures["torch_skipped"] = why
    problems = []
    if rc != 0 or timed_out:
        problems.append(f"tide train: {'timed out' if timed_out else f'exit {rc}'}: {tail(out, 3)}")
    elif not tide["accuracy"] or tide["accuracy"][-1] < TRAIN_MIN_ACCURACY:
        problems.append(f"tide train: test accuracy {tide['accuracy']}, expected >= {TRAIN_MIN_ACCURACY}%")
    if rc2 != 0 or timed_out2:
        problems.append(f"torch loop: {'timed out' if timed_out2 else f'exit {rc2}'}: {tail(out2, 3)}")
    elif why and device == "cuda":
        problems.append(f"torch loop: skipped: {why}")
    if problems:
        fail("; ".join(problems))


def missed_kernel_cases(out_dir):
    """The cases of the bench stage whose target is missed and whose tide side is kernels."""
    figures = (read_json(os.path.join(out_dir, "bench.json")) or {}).get("figures") or {}
    cases = bench_cases(figures)
    missed = [n for n in sorted(cases) if judge(cases[n], cases)[1] is False]
    return [n for n in missed if KERNEL_CASES.match(n)], [n for n in missed if not KERNEL_CASES.match(n)]


def stage_profile(check, figures):
    kernels, host = missed_kernel_cases(check.out_dir)
    figures.update(missed_kernel_cases=kernels, missed_host_cases=host)
    if host:
        figures["host_note"] = ("missed on the host (no kernel of tide's is the cause): "
                                + ", ".join(host) + "; profile these with nsys")
    if not kernels:
        skip("no case with kernels missed its target" if (read_json(os.path.join(check.out_dir, "bench.json"))
                                                          or {}).get("status") == "ok"
             else "the bench stage did not measure")
    b = ready(check)
    ncu = find_tool("ncu")
    if not ncu:
        skip("ncu not found (PATH, /usr/local/cuda/bin)")
    profiles = []
    for case in kernels:
        remaining = check.timeout("profile")
        if remaining < 40:
            profiles.append({"case": case, "status": "not run: deadline"})
            continue
        report = os.path.join(check.out_dir, f"ncu-{re.sub(r'[^A-Za-z0-9_]+', '_', case)}")
        cmd = [ncu, "--force-overwrite", "--export", report, "--launch-count", str(NCU_KERNELS),
               *[a for s in NCU_SECTIONS for a in ("--section", s)],
               os.path.join(b.root, "bin", BENCH_BINARY), f"--benchmark_filter=^{re.escape(case)}/tide$",
               "--benchmark_repetitions=1", "--benchmark_min_time=0"]
        start = time.monotonic()
        rc, out, timed_out = run(cmd, check.log("profile", "profile-ncu"), min(remaining - 20, 120),
                                 env=b.env, cwd=check.build_dir)
        entry = {"case": case, "exit": rc, "timed_out": timed_out, "seconds": round(time.monotonic() - start, 1),
                 "report": os.path.basename(report) + ".ncu-rep" if os.path.exists(report + ".ncu-rep") else None}
        if entry["report"]:  # the text a reader without Nsight Compute's GUI reads
            rc_d, details, _ = run([ncu, "--import", report + ".ncu-rep", "--page", "details"],
                                   check.log("profile", f"profile-{os.path.basename(report)}"), 60)
            entry["details_log"] = f"profile-{os.path.basename(report)}.log"
        else:
            entry["why"] = tail(out, 4)
        profiles.append(entry)
    figures["profiles"] = profiles
    if not any(p.get("report") for p in profiles):
        fail("ncu wrote no report: " + "; ".join(f"{p['case']}: {p.get('why') or p.get('status')}" for p in profiles))
