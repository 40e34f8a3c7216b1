"""The build stage (release, TIDE_CUDA=ON for this device's arch), the test stage (ctest: the
native. tests, then the rest) and the sanitize stage (compute-sanitizer memcheck and racecheck
over the device test binaries), with the parsers for ctest's and compute-sanitizer's output."""
import os
import re
import shlex
import shutil
import time

from .bench import TORCH_BENCH
from .commands import REPO, find_tool, first_line_matching, run, tail
from .machine import describe_torch, torch_has_cuda
from .stage_io import fail, skip

DEVICE_TEST_BINARIES = ["tide_runtime_tests", "tide_device_tests", "tide_pinned_tests",
                        "tide_memory_device_tests"]
# The native configuration, as tests/CMakeLists.txt passes it to every device test binary.
NATIVE_ARGS = ["--unset-env=TIDE_SIM_DEVICES", "--unset-env=CUDA_VISIBLE_DEVICES",
               "--unset-env=CUDA_LAUNCH_BLOCKING", "--unset-env=TIDE_SIM_MEMORY",
               "--unset-env=TIDE_ASYNC_BACKTRACE", "--unset-env=TIDE_CUDA_SANITIZER"]


def cuda_arch(check):
    if check.args.arch:
        return check.args.arch
    cap = check.gpu.get("compute_cap", "")
    return cap.replace(".", "") if re.fullmatch(r"\d+\.\d+", cap or "") else None


def stage_build(check, figures):
    arch = cuda_arch(check)
    if not arch:
        skip(f"{check.gpu.get('reason', 'no compute capability from nvidia-smi')}; "
             "--arch 90 builds anyway")
    nvcc = find_tool("nvcc")
    if not nvcc:
        fail("nvcc not found (PATH, /usr/local/cuda/bin)")
    torch = check.torch
    # Without a CUDA torch the benchmark still builds its tide and raw-CUDA cases.
    modes = ["torch", "tide-only", "off"] if torch_has_cuda(torch) else ["tide-only", "off"]
    # Note [Prefix paths] in scripts/gpu-deps: its prefix and torch's share one list.
    deps_args = shlex.split(check.env.get("TIDE_GPU_DEPS_CMAKE_ARGS", ""))
    prefixes = [a.split("=", 1)[1] for a in deps_args if a.startswith("-DCMAKE_PREFIX_PATH=")]
    deps_args = [a for a in deps_args if not a.startswith("-DCMAKE_PREFIX_PATH=")]

    def configure(mode):
        paths = prefixes + ([torch["cmake_prefix_path"]] if mode == "torch" else [])
        cmd = [shutil.which("cmake", path=check.env.get("PATH")) or "cmake",
               "-S", REPO, "-B", check.build_dir, "-G", "Ninja",
               "-DCMAKE_BUILD_TYPE=Release", "-DTIDE_CUDA=ON",
               f"-DCMAKE_CUDA_COMPILER={nvcc}", f"-DCMAKE_CUDA_ARCHITECTURES={arch}-real",
               "-DTIDE_BENCH_LIBTORCH=OFF",  # the cpu libtorch bench: not this check's
               f"-DTIDE_BENCH_TORCH_GPU={'OFF' if mode == 'off' else 'ON'}",
               f"-DTIDE_BENCH_TORCH_GPU_TIDE_ONLY={'ON' if mode == 'tide-only' else 'OFF'}"]
        cmd += deps_args
        if paths:
            cmd.append("-DCMAKE_PREFIX_PATH=" + ";".join(paths))
        figures["configure"] = shlex.join(cmd)
        return run(cmd, check.log("build", "build-configure"), check.timeout("build"),
                   env=check.env)

    notes = [] if modes[0] == "torch" else [f"without torch cases: torch {describe_torch(torch)}"]
    for mode in modes:
        rc, out, _ = configure(mode)
        if rc == 0:
            break
        notes.append(f"configuring it {mode} failed: {tail(out, 4)}")
    figures["torch_bench_mode"] = mode
    figures["torch_bench"] = "; ".join([{"torch": "with torch", "tide-only": "tide and raw cases only",
                                         "off": "not configured"}[mode]] + notes)
    if rc != 0:
        fail(f"configure failed: {tail(out, 6)}")
    jobs = str(check.args.jobs or os.cpu_count())
    # -k 0: one target failing (say the torch bench) leaves the tests built.
    cmd = [shutil.which("cmake", path=check.env.get("PATH")) or "cmake", "--build",
           check.build_dir, "-j", jobs, "--", "-k", "0"]
    rc, out, timed_out = run(cmd, check.log("build"), check.timeout("build"), env=check.env)
    failed = sorted(set(re.findall(r"^FAILED: (\S+)", out, re.M)))
    figures.update(arch=f"sm_{arch}", jobs=int(jobs), failed_targets=failed,
                   test_binaries=[b for b in DEVICE_TEST_BINARIES
                                  if os.path.exists(os.path.join(check.build_dir, "tests", b))],
                   torch_bench_built=os.path.exists(os.path.join(check.build_dir, TORCH_BENCH)))
    if mode != "off" and not figures["torch_bench_built"] and not timed_out:
        figures["torch_bench"] += "; configured, but the target did not build"
    if timed_out:
        fail(f"timed out after {check.timeout('build'):.0f} s; run `--stages build` again "
             "to resume (ninja is incremental)")
    if rc != 0:
        fail(f"{len(failed)} build steps failed ({', '.join(failed[:5])}): {tail(out, 4)}")


def have_build(check):
    if not os.path.exists(os.path.join(check.build_dir, "CTestTestfile.cmake")):
        skip(f"no build in {check.build_dir} (run `--stages build` first)")


def stage_test(check, figures):
    check.need_gpu()
    have_build(check)
    ctest = shutil.which("ctest", path=check.env.get("PATH")) or "ctest"
    jobs = str(check.args.jobs or os.cpu_count())
    problems = []
    for part, select in (("native", ["-R", r"^native\."]), ("rest", ["-E", r"^native\."])):
        limit = check.timeout("test") if part == "native" else max(
            10, check.timeout("test") - figures["native"]["duration_s"])
        start = time.monotonic()
        rc, out, timed_out = run([ctest, *select, "-j", jobs, "--timeout", "300",
                                  "--output-on-failure", "--no-tests=error"],
                                 check.log("test", f"test-{part}"), limit, env=check.env,
                                 cwd=check.build_dir)
        counts = parse_ctest(out)
        counts.update(duration_s=round(time.monotonic() - start, 1), exit=rc,
                      timed_out=timed_out)
        figures[part] = counts
        if timed_out:
            problems.append(f"{part} timed out after {limit:.0f} s "
                            f"({counts['total']} tests finished)")
        elif counts["failed"]:
            problems.append(f"{counts['failed']} {part} tests failed")
        elif rc != 0:
            problems.append(f"ctest ({part}) exit {rc}: {tail(out, 2)}")
    native = figures["native"]
    # Without a device, about 9 in 10 native tests skip (a few test the no-device
    # path); on one GPU only the multi-device ones should.
    if check.gpu["present"] and native["skipped"] > 0.75 * native["total"]:
        problems.append(f"{native['skipped']} of {native['total']} native. tests skipped: "
                        "did tide's cuda backend see the GPU?")
    if problems:
        fail("; ".join(problems))


def stage_sanitize(check, figures):
    check.need_gpu()
    sanitizer = find_tool("compute-sanitizer")
    if not sanitizer:
        skip("compute-sanitizer not found (PATH, /usr/local/cuda/bin)")
    binaries = [b for b in DEVICE_TEST_BINARIES
                if os.access(os.path.join(check.build_dir, "tests", b), os.X_OK)]
    if not binaries:
        skip(f"no device test binaries in {check.build_dir}/tests (run `--stages build`)")
    figures["filter"] = check.args.sanitize_filter
    runs = [(tool, os.path.join(check.build_dir, "tests", b), check.args.sanitize_filter)
            for tool in ("memcheck", "racecheck") for b in binaries]
    run_sanitizers(check, figures, sanitizer, runs, check.env)


def run_sanitizers(check, figures, sanitizer, runs, env):
    """compute-sanitizer over (tool, binary path, gtest filter) runs in the native
    configuration, the stage's time shared among those not yet run."""
    figures["runs"] = []
    stage_end = time.monotonic() + check.timeout("sanitize")
    for i, (tool, path, gtest_filter) in enumerate(runs):
        binary = os.path.basename(path)
        share = (stage_end - time.monotonic()) / (len(runs) - i)
        cmd = [sanitizer, "--tool", tool, "--print-limit", "50", "--error-exitcode", "86",
               path, *NATIVE_ARGS, f"--gtest_filter={gtest_filter}", "--gtest_brief=1"]
        start = time.monotonic()
        if share < 5:
            figures["runs"].append({"tool": tool, "binary": binary, "filter": gtest_filter,
                                    "status": "not run", "note": "no time left in the stage"})
            continue
        rc, out, timed_out = run(cmd, check.log("sanitize", f"sanitize-{tool}-{binary}"),
                                 share, env=env)
        r = parse_sanitizer(out)
        r.update(tool=tool, binary=binary, filter=gtest_filter, exit=rc, timed_out=timed_out,
                 duration_s=round(time.monotonic() - start, 1))
        r["status"] = ("timed out" if timed_out else
                       "errors" if r["errors"] else
                       "no summary" if r["errors"] is None else
                       "tests failed" if rc != 0 or r["tests_failed"] else "clean")
        figures["runs"].append(r)
    bad = [f"{r['tool']} {r['binary']}: {r['status']}" for r in figures["runs"]
           if r["status"] != "clean"]
    if bad:
        fail("; ".join(bad))


CTEST_LINE = re.compile(r"^\s*\d+/\d+\s+Test\s+#\d+:\s+(\S+)\s+\.*\s*(?:\*+)?"
                        r"(Passed|Failed|Skipped|Not Run|Timeout|Exception|\w[^\d]*?)\s+"
                        r"[\d.]+\s+sec", re.M)


def parse_ctest(out):
    """Counts from ctest's per-test lines (present even when ctest is killed part way)."""
    counts = {"total": 0, "passed": 0, "failed": 0, "skipped": 0, "failed_names": []}
    for name, result in CTEST_LINE.findall(out):
        counts["total"] += 1
        if result == "Passed":
            counts["passed"] += 1
        elif result == "Skipped" or "Disabled" in result:
            counts["skipped"] += 1
        else:
            counts["failed"] += 1
            counts["failed_names"].append(f"{name} ({result.strip()})")
    return counts


def parse_sanitizer(out):
    errors = first_line_matching(out, r"ERROR SUMMARY:\s*(\d+)\s+error")
    race = re.search(r"RACECHECK SUMMARY:\s*(\d+) hazards? displayed \((\d+) errors?, "
                     r"(\d+) warnings?\)", out)
    kinds = {}
    for line in re.findall(r"^========= (\S[^\n]*)$", out, re.M):
        if line.startswith(("ERROR SUMMARY", "RACECHECK SUMMARY", "COMPUTE-SANITIZER",
                            "Saved host backtrace", "Host Frame", "Device Frame", "Target application")):
            continue
        key = re.sub(r"0x[0-9a-f]+|\d+", "N", line)[:120]
        kinds[key] = kinds.get(key, 0) + 1
    result = {"errors": int(errors) if errors is not None else None,
              "tests_passed": int(first_line_matching(out, r"^\[  PASSED  \] (\d+) test") or 0),
              "tests_failed": int(first_line_matching(out, r"^\[  FAILED  \] (\d+) test") or 0),
              "tests_skipped": int(first_line_matching(out, r"^\[  SKIPPED \] (\d+) test") or 0),
              "findings": sorted(kinds.items(), key=lambda kv: -kv[1])[:10]}
    if race:
        result["hazards"], result["race_errors"], result["race_warnings"] = map(int, race.groups())
        if result["errors"] is None:
            result["errors"] = result["race_errors"]
    return result
