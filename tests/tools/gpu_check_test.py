#!/usr/bin/env python3
"""scripts/gpu-check without a GPU: the report writer on canned stage JSONs (--report-from),
its parsers (ctest lines, compute-sanitizer summaries, the accounting script's output,
Google Benchmark's JSON), the bench stage against a stand-in benchmark binary, the env stage
against a stand-in nvidia-smi, and the real no-GPU path of this machine. Registered in
tests/CMakeLists.txt as GpuCheck.*; needs only python3's standard library."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = os.path.join(REPO, "scripts", "gpu-check")

# The script's parsers live in its package, scripts/gpu_check/.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(REPO, "scripts"))
from gpu_check import accounting, build_and_test  # noqa: E402
from gpu_check import bench as bench_stage  # noqa: E402 (bench() below makes a record)


def run_script(*args, env=None):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True,
                          env=env, timeout=120)


def stage(name, status="ok", reason="", duration=1.0, figures=None, commit="abc123"):
    return {"stage": name, "status": status, "reason": reason, "duration_s": duration,
            "started": "2026-11-23 10:00:00 UTC", "commit": commit, "figures": figures or {}}


ENV_OK = stage("env", figures={
    "gpu": {"present": True, "name": "NVIDIA H100 80GB HBM3", "driver": "580.65.06",
            "compute_cap": "9.0", "memory_mib": "81559", "cuda_driver": "13.0", "count": 1},
    "nvcc": "13.0.88 (/usr/local/cuda/bin/nvcc)",
    "compute_sanitizer": "2025.3.0.0 (/usr/local/cuda/bin/compute-sanitizer)",
    "ncu": "2025.3.0.0 (/usr/local/cuda/bin/ncu)",
    "torch": {"importable": True, "version": "2.11.0+cu130", "cuda": "13.0",
              "python": "/usr/bin/python3", "peak_bytes_per_second": 3.35e12},
    "cpu": "Intel Xeon, 16 cores, 125 GiB", "date": "2026-11-23 10:00:00 UTC",
    "commit": "abc123"})


def bench(median_s, **counters):
    return {"median_s": median_s, "runs": 10, "spread": 0.02, "counters": counters}


MiB = 2**20
BENCH = {
    "TinyOp/tide": bench(2.0e-6), "TinyOp/torch": bench(5.0e-6), "TinyOp/raw": bench(1.8e-6),
    "MallocFree/tide": bench(60e-9), "MallocFree/torch": bench(100e-9),
    "AddF32/268435456/tide": bench(1.0e-3, bytes_per_second=3.0e12),
    "AddF32/268435456/torch": bench(1.02e-3, bytes_per_second=2.94e12),
    "SumF32/tide": bench(1.0e-3, bytes_per_second=2.8e12),
    "SumF32/torch": bench(0.98e-3, bytes_per_second=2.86e12),
    "MatmulF32/tide": bench(1.02), "MatmulF32/torch": bench(1.0),
    "MatmulBF16/tide": bench(1.04), "MatmulBF16/torch": bench(1.0),
    "CopyH2DPinned/tide": bench(1.0e-3), "CopyH2DPinned/raw": bench(0.96e-3),
    "CopyH2DPageable/tide": bench(3.0e-3), "CopyH2DPageable/raw": bench(2.0e-3),
    "Overlap/tide": bench(1.05e-3), "OverlapCopy/tide": bench(1.0e-3),
    "OverlapCompute/tide": bench(0.8e-3),
    # bench/vs_torch's names: one Overlap case with copy/compute/overlap counters.
    "Overlap_2/tide": bench(9.0, copy_ms=4.0, compute_ms=5.0, overlap_ms=6.0),
    "TinyAdd/tide": bench(3.0e-6), "TinyAdd/torch": bench(5.0e-6), "TinyAdd/raw": bench(2.0e-6),
    "TinyAddInferenceMode/torch": bench(4.0e-6),
    "PeakReserved/tide": bench(0.1, peak_reserved_bytes=1000 * MiB),
    "PeakReserved/torch": bench(0.1, peak_reserved_bytes=1100 * MiB),
    "Broken/tide": {"error": "CUDA error: out of memory"},
}


def write_stages(directory, stages):
    os.makedirs(directory, exist_ok=True)
    for s in stages:
        with open(os.path.join(directory, f"{s['stage']}.json"), "w") as f:
            json.dump(s, f)


def row(report, case):
    """The bench table's row for case, as its cells."""
    for line in report.splitlines():
        if line.startswith(f"| {case} |"):
            return [c.strip() for c in line.strip("|").split("|")]
    raise AssertionError(f"no row for {case} in\n{report}")


class Report(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="gpu-check-test-")
        self.addCleanup(shutil.rmtree, self.dir)

    def report(self, stages, expect_rc):
        write_stages(self.dir, stages)
        r = run_script("--report-from", self.dir)
        self.assertEqual(r.returncode, expect_rc, r.stdout + r.stderr)
        with open(os.path.join(self.dir, "report.md")) as f:
            return f.read()

    def all_ok(self):
        return [ENV_OK, stage("deps", "skipped", "cmake, ninja and tide's -dev packages are present"),
                stage("build", duration=200.0, figures={"arch": "sm_90", "jobs": 16,
                                                        "torch_bench": "configured"}),
                stage("test", duration=95.0, figures={
                    "native": {"passed": 340, "failed": 0, "skipped": 12, "total": 352,
                               "failed_names": [], "duration_s": 30.0},
                    "rest": {"passed": 1700, "failed": 0, "skipped": 40, "total": 1740,
                             "failed_names": [], "duration_s": 60.0}}),
                stage("sanitize", figures={"filter": "*-*Stress*", "runs": [
                    {"tool": "memcheck", "binary": "tide_device_tests", "errors": 0,
                     "tests_passed": 80, "tests_failed": 0, "tests_skipped": 3,
                     "duration_s": 50.0, "status": "clean", "findings": []},
                    {"tool": "racecheck", "binary": "tide_device_tests", "errors": 0,
                     "hazards": 0, "race_warnings": 0, "tests_passed": 80, "tests_failed": 0,
                     "tests_skipped": 3, "duration_s": 70.0, "status": "clean", "findings": []}]}),
                stage("accounting", figures={"rows": 30, "mismatches": [],
                                             "torch_version": "2.11.0+cu130", "recorded": []}),
                stage("bench", duration=300.0, figures={"benchmarks": BENCH, "context": {
                    "device_name": "NVIDIA H100 80GB HBM3", "torch_skipped": "no CUDA"},
                                                        "peak_bytes_per_second": 3.35e12})]

    def test_header_names_device_driver_cuda_torch_date_and_commit(self):
        report = self.report(self.all_ok(), 0)
        for text in ["**Device:** NVIDIA H100 80GB HBM3 (compute capability 9.0",
                     "**Driver:** 580.65.06 (supports CUDA 13.0)",
                     "**CUDA:** nvcc 13.0.88", "**torch:** 2.11.0+cu130, CUDA 13.0",
                     "peak memory bandwidth 3.35 TB/s", "compute-sanitizer 2025.3.0.0",
                     "ncu 2025.3.0.0", "**Date:** 2026-11-23 10:00:00 UTC",
                     "**Commit:** abc123", "**Result:** passed (6 ok, 1 skipped, 0 failed, 0 not run)"]:
            self.assertIn(text, report)

    def test_every_stage_has_a_status_line_and_a_section(self):
        report = self.report(self.all_ok(), 0)
        self.assertIn("| env | ok | 1.0s |", report)
        self.assertIn("| deps | skipped | 1.0s | cmake, ninja and tide's -dev packages are present |", report)
        self.assertIn("| build | ok | 3m20s |", report)
        self.assertIn("## bench: ok (5m00s)", report)
        self.assertIn("sm_90, 16 jobs; torch benchmark: configured.", report)
        self.assertIn("| `native.` (real GPU) | 340 | 0 | 12 | 352 | 30.0s |", report)
        self.assertIn("| memcheck | tide_device_tests | 0 errors | 80 / 0 / 3 | 50.0s | clean |", report)
        self.assertIn("| racecheck | tide_device_tests | 0 errors (0 hazards, 0 warnings) |", report)
        self.assertIn("torch 2.11.0+cu130: 30 rows compared with "
                      "tests/fixtures/memory/accounting_table.json, 0 mismatches.", report)

    def test_bench_ratios_and_targets(self):
        report = self.report(self.all_ok(), 0)  # a missed target is not a failed stage
        cells = row(report, "TinyOp")
        self.assertEqual(cells[1:4], ["2 µs ±2%", "5 µs ±2%", "1.8 µs ±2%"])
        self.assertEqual(cells[4:6], ["0.400", "1.111"])
        self.assertEqual(cells[8], "≤ 0.5× torch, or ≤ raw + 0.5 µs")
        self.assertEqual(cells[9], "met (0.40× torch; raw + 0.20 µs)")
        self.assertTrue(row(report, "MallocFree")[9].startswith("**missed** (0.600× torch"))
        add = row(report, "AddF32/268435456")
        self.assertEqual(add[4], "0.980")
        self.assertEqual(add[6:8], ["3000.0 / 2940.0", "89.6% / 87.8%"])
        self.assertEqual(add[9], "met (0.980× torch time; 89.6% of peak)")
        # Parity with torch (1.020 <= 1.03) but short of 88% of peak.
        self.assertEqual(row(report, "SumF32")[9], "**missed** (1.020× torch time; 83.6% of peak)")
        self.assertEqual(row(report, "MatmulF32")[9], "met (1.020× torch)")
        self.assertEqual(row(report, "MatmulBF16")[9], "**missed** (1.040× torch)")
        self.assertEqual(row(report, "CopyH2DPinned")[9], "met (0.960× raw's speed)")
        self.assertEqual(row(report, "CopyH2DPageable")[8:10], ["—", "—"])
        self.assertEqual(row(report, "Overlap")[9], "met (1.050× max(copy, compute))")
        self.assertEqual(row(report, "Overlap_2")[9], "**missed** (1.200× max(copy 4 ms, compute 5 ms))")
        self.assertEqual(row(report, "TinyAdd")[9], "**missed** (0.60× torch; raw + 1.00 µs)")
        self.assertEqual(row(report, "TinyAddInferenceMode")[8:10], ["—", "—"])
        self.assertEqual(row(report, "PeakReserved")[9], "met (1,000.0 MiB vs torch 1,100.0 MiB)")
        self.assertEqual(row(report, "Broken")[1], "error: CUDA error: out of memory")
        self.assertIn("Targets: 6 met, 5 missed, 0 not judged", report)
        self.assertIn("- PeakReserved/tide: peak_reserved_bytes 1.05G", report)
        self.assertIn("Device NVIDIA H100 80GB HBM3; peak memory bandwidth 3.35 TB/s.", report)
        self.assertIn("torch cases skipped: no CUDA.", report)

    def test_a_missing_side_is_not_judged(self):
        stages = self.all_ok()
        stages[-1]["figures"]["benchmarks"] = {"MatmulF32/tide": bench(1.0),
                                               "AddF32/tide": bench(1.0, bytes_per_second=1e12),
                                               "AddF32/torch": bench(1.0)}
        stages[-1]["figures"]["peak_bytes_per_second"] = None
        report = self.report(stages, 0)
        self.assertEqual(row(report, "MatmulF32")[9], "n/a (no torch side)")
        self.assertEqual(row(report, "AddF32")[9], "n/a (1.000× torch; peak unknown)")

    def test_skipped_stages_give_their_reasons(self):
        env = json.loads(json.dumps(ENV_OK))
        env["figures"]["torch"] = {"importable": False, "python": "/usr/bin/python3",
                                   "error": "ModuleNotFoundError: No module named 'torch'"}
        env["figures"]["compute_sanitizer"] = None
        report = self.report([env, stage("sanitize", "skipped", "compute-sanitizer not found"),
                              stage("accounting", "skipped", "torch absent"),
                              stage("bench", "skipped", "not built (torch absent)")], 0)
        self.assertIn("**torch:** absent: /usr/bin/python3 cannot import torch "
                      "(ModuleNotFoundError: No module named 'torch')", report)
        self.assertIn("compute-sanitizer not found;", report)
        self.assertIn("| bench | skipped | 1.0s | not built (torch absent) |", report)
        self.assertIn("Skipped: not built (torch absent)", report)
        self.assertIn("| build | not run | — | |", report)
        self.assertIn("**Result:** passed (1 ok, 3 skipped, 0 failed, 3 not run)", report)

    def test_a_failed_stage_fails_the_check_and_lists_the_failures(self):
        stages = self.all_ok()
        stages[3] = stage("test", "failed", "2 native tests failed", figures={
            "native": {"passed": 338, "failed": 2, "skipped": 12, "total": 352,
                       "failed_names": ["native.Stream.A (Failed)", "native.Event.B (Timeout)"],
                       "duration_s": 31.0}}, commit="def456")
        report = self.report(stages, 1)
        self.assertIn("**Result:** FAILED: test (5 ok, 1 skipped, 1 failed, 0 not run)", report)
        self.assertIn("| test | **failed** | 1.0s | 2 native tests failed |", report)
        self.assertIn("Reason: 2 native tests failed", report)
        self.assertIn("- `native.Event.B (Timeout)`", report)
        self.assertIn("Ran at commit def456 (the env stage's is abc123).", report)

    def test_an_empty_directory_still_gives_a_report(self):
        report = self.report([], 0)
        self.assertIn("not recorded (the env stage has not run)", report)


class Parsers(unittest.TestCase):
    def test_side_and_run_options_come_off_the_name(self):
        self.assertEqual(bench_stage.split_name("AddF32/268435456/tide/real_time"), ("AddF32/268435456", "tide"))
        self.assertEqual(bench_stage.split_name("TinyOp/raw/min_time:0.200/manual_time"), ("TinyOp", "raw"))
        self.assertEqual(bench_stage.split_name("MallocFree/torch/threads:1"), ("MallocFree", "torch"))
        self.assertEqual(bench_stage.split_name("Plain"), ("Plain", "tide"))

    def test_medians_from_google_benchmark_json(self):
        runs = [{"name": "TinyOp/tide/manual_time", "run_name": "TinyOp/tide/manual_time",
                 "run_type": "iteration", "repetitions": 3, "repetition_index": i,
                 "iterations": 1000, "real_time": t, "cpu_time": t, "time_unit": "us",
                 "bytes_per_second": b}
                for i, (t, b) in enumerate([(2.0, 10.0), (1.0, 30.0), (3.0, 20.0)])]
        runs.append({"name": "TinyOp/tide/manual_time_median", "run_name": "TinyOp/tide/manual_time",
                     "run_type": "aggregate", "aggregate_name": "median", "real_time": 99.0,
                     "time_unit": "us"})
        runs.append({"name": "Only/torch_median", "run_name": "Only/torch", "run_type": "aggregate",
                     "aggregate_name": "median", "real_time": 5.0, "time_unit": "ms", "iterations": 3})
        runs.append({"name": "Bad/tide", "run_name": "Bad/tide", "run_type": "iteration",
                     "error_occurred": True, "error_message": "no CUDA device"})
        out = bench_stage.medians_from_gbench({"context": {"host_name": "h"}, "benchmarks": runs})["benchmarks"]
        tiny = out["TinyOp/tide/manual_time"]
        self.assertAlmostEqual(tiny["median_s"], 2.0e-6)
        self.assertAlmostEqual(tiny["spread"], 0.5)
        self.assertEqual(tiny["runs"], 3)
        self.assertEqual(tiny["counters"], {"bytes_per_second": 20.0})
        self.assertAlmostEqual(out["Only/torch"]["median_s"], 5e-3)
        self.assertEqual(out["Bad/tide"], {"error": "no CUDA device"})

    def test_ctest_lines(self):
        out = textwrap.dedent("""\
            1/5 Test #1: native.A.B ......   Passed    0.01 sec
            2/5 Test #2: native.A.C ......***Skipped   0.00 sec
            3/5 Test #3: native.A.D ......***Failed    0.20 sec
            4/5 Test #4: sim1.A.E ........***Timeout 300.01 sec
            5/5 Test #5: x_NOT_BUILT .....***Not Run   0.00 sec
            """)
        counts = build_and_test.parse_ctest(out)
        self.assertEqual((counts["total"], counts["passed"], counts["skipped"], counts["failed"]),
                         (5, 1, 1, 3))
        self.assertEqual(counts["failed_names"], ["native.A.D (Failed)", "sim1.A.E (Timeout)",
                                                  "x_NOT_BUILT (Not Run)"])

    def test_sanitizer_summaries(self):
        memcheck = build_and_test.parse_sanitizer(textwrap.dedent("""\
            ========= COMPUTE-SANITIZER
            ========= Invalid __global__ read of size 4 bytes
            =========     at add_kernel+0x70
            ========= Invalid __global__ read of size 4 bytes
            [  PASSED  ] 41 tests.
            [  FAILED  ] 1 test, listed below:
            ========= ERROR SUMMARY: 2 errors
            """))
        self.assertEqual((memcheck["errors"], memcheck["tests_passed"], memcheck["tests_failed"]), (2, 41, 1))
        self.assertEqual(memcheck["findings"], [("Invalid __global__ read of size N bytes", 2)])
        race = build_and_test.parse_sanitizer("========= RACECHECK SUMMARY: 3 hazards displayed (1 error, 2 warnings)\n")
        self.assertEqual((race["errors"], race["hazards"], race["race_warnings"]), (1, 3, 2))
        self.assertIsNone(build_and_test.parse_sanitizer("killed\n")["errors"])

    def test_accounting_output(self):
        out = "MISMATCH 1 B: reserved_bytes.all.current table=2097152 torch=0\n" \
              + json.dumps([{"name": "1 B", "torch": {"x": 1}}], indent=1) \
              + "\n30 rows, 1 mismatches (torch 2.11.0)\n"
        f = accounting.parse_accounting(out)
        self.assertEqual(f["rows"], 30)
        self.assertEqual(f["torch_version"], "2.11.0")
        self.assertEqual(f["mismatches"], ["1 B: reserved_bytes.all.current table=2097152 torch=0"])
        self.assertEqual(f["recorded"], [{"name": "1 B", "torch": {"x": 1}}])


class Stages(unittest.TestCase):
    """Stages run for real, with stand-ins for the GPU's programs."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="gpu-check-test-")
        self.addCleanup(shutil.rmtree, self.dir)
        self.build = os.path.join(self.dir, "build")

    def stand_in(self, path, body):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("#!/bin/sh\n" + body)
        os.chmod(path, 0o755)

    def read(self, name):
        with open(os.path.join(self.build, "gpu-check", name)) as f:
            return json.load(f) if name.endswith(".json") else f.read()

    def test_env_reads_nvidia_smi(self):
        bin_dir = os.path.join(self.dir, "bin")
        self.stand_in(os.path.join(bin_dir, "nvidia-smi"), textwrap.dedent("""\
            case "$1" in
              --query-gpu=*) echo "NVIDIA H100 80GB HBM3, 580.65.06, 9.0, 81559, 2619" ;;
              *) echo "| NVIDIA-SMI 580.65.06   Driver Version: 580.65.06   CUDA Version: 13.0 |" ;;
            esac
            """))
        env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"],
                   TIDE_GPU_CHECK_COMMIT="feedbee")
        r = run_script("--stages", "env", "--build-dir", self.build, env=env)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        gpu = self.read("env.json")["figures"]["gpu"]
        self.assertEqual((gpu["name"], gpu["driver"], gpu["compute_cap"], gpu["cuda_driver"]),
                         ("NVIDIA H100 80GB HBM3", "580.65.06", "9.0", "13.0"))
        report = self.read("report.md")
        self.assertIn("**Device:** NVIDIA H100 80GB HBM3 (compute capability 9.0, 81559 MiB)", report)
        self.assertIn("**Commit:** feedbee", report)

    def test_bench_turns_google_benchmark_json_into_the_table(self):
        # A stand-in for bench/vs_torch/tide_vs_torch_gpu_bench that writes --benchmark_out.
        data = {"context": {}, "benchmarks": [
            {"name": f"MatmulF32/{side}", "run_name": f"MatmulF32/{side}", "run_type": "iteration",
             "real_time": t, "cpu_time": t, "time_unit": "ms", "iterations": 1}
            for side, t in (("tide", 101.0), ("torch", 100.0))]}
        canned = os.path.join(self.dir, "canned.json")
        with open(canned, "w") as f:
            json.dump(data, f)
        self.stand_in(os.path.join(self.build, bench_stage.TORCH_BENCH), textwrap.dedent(f"""\
            for a in "$@"; do case "$a" in --benchmark_out=*) cp {canned} "${{a#--benchmark_out=}}" ;; esac; done
            """))
        r = run_script("--stages", "bench", "--force", "--build-dir", self.build)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        result = self.read("bench.json")
        self.assertEqual(result["status"], "ok")
        self.assertIn("--benchmark_repetitions=10", result["figures"]["command"])
        self.assertIn("--benchmark_enable_random_interleaving=true", result["figures"]["command"])
        self.assertEqual(row(self.read("report.md"), "MatmulF32")[9], "met (1.010× torch)")

    def test_a_stage_past_the_deadline_is_not_started(self):
        r = run_script("--stages", "env,bench", "--deadline", "1", "--build-dir", self.build)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("| bench | skipped | 0.0s | deadline: not started", self.read("report.md"))

    def test_bench_that_skips_itself_gives_its_reason(self):
        self.stand_in(os.path.join(self.build, bench_stage.TORCH_BENCH),
                      'echo "tide_vs_torch_gpu_bench: skipped: tide sees no CUDA device" >&2\n')
        r = run_script("--stages", "bench", "--force", "--build-dir", self.build)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(self.read("bench.json")["reason"],
                         "the benchmark skipped itself: tide sees no CUDA device")

    def test_bench_without_its_binary_is_skipped_as_not_built(self):
        r = run_script("--stages", "bench", "--force", "--build-dir", self.build)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        result = self.read("bench.json")
        self.assertEqual(result["status"], "skipped")
        self.assertTrue(result["reason"].startswith("not built ("), result["reason"])


@unittest.skipIf(shutil.which("nvidia-smi"), "this machine has nvidia-smi")
class NoGpu(unittest.TestCase):
    """This machine as it is: no GPU; torch present or not."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="gpu-check-test-")
        self.addCleanup(shutil.rmtree, self.dir)

    def check(self, python, stages="env,report"):
        r = run_script("--stages", stages, "--build-dir", self.dir, "--python", python)
        with open(os.path.join(self.dir, "gpu-check", "report.md")) as f:
            return r, f.read()

    @staticmethod
    def torch_of(python):
        r = subprocess.run([python, "-c", "import torch; print(torch.version.cuda)"],
                           capture_output=True, text=True, timeout=120)
        return None if r.returncode else r.stdout.strip()

    def test_env_reports_no_gpu_and_this_python_s_torch(self):
        r, report = self.check(sys.executable)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("**Device:** no NVIDIA GPU (nvidia-smi not found)", report)
        torch = self.torch_of(sys.executable)
        if torch is None:
            self.assertIn(f"**torch:** absent: {sys.executable} cannot import torch", report)
        elif torch == "None":
            self.assertIn("CPU-only build", report)

    @unittest.skipUnless(os.path.exists("/usr/bin/python3"), "no /usr/bin/python3")
    def test_a_cpu_only_torch_is_named_as_such(self):
        if self.torch_of("/usr/bin/python3") != "None":
            self.skipTest("/usr/bin/python3 has no CPU-only torch")
        _, report = self.check("/usr/bin/python3", "env")
        self.assertIn("(CPU-only build: torch.version.cuda is None; /usr/bin/python3)", report)

    def test_gpu_stages_skip_with_their_reasons(self):
        r, report = self.check(sys.executable, "env,build,test,sanitize,accounting,bench")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        for s in ("build", "test", "sanitize", "accounting", "bench"):
            self.assertRegex(report, rf"\| {s} \| skipped \| [0-9.]+s \| \S")
        self.assertIn("| build | skipped | 0.0s | no NVIDIA GPU (nvidia-smi not found); "
                      "--arch 90 builds anyway |", report)
        self.assertIn("| test | skipped | 0.0s | no NVIDIA GPU (nvidia-smi not found) |", report)


if __name__ == "__main__":
    unittest.main()
