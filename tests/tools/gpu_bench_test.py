#!/usr/bin/env python3
"""scripts/gpu-check --bundle --bench without a GPU (issue 23): the targets of its rows and
their order, merging the two programs' Google Benchmark JSONs into medians, the rounds'
alternation, the report's table against torch, the choice of cases for ncu, and the torch
side's build refusing cleanly what cannot work. Registered in tests/CMakeLists.txt as
GpuBench.*; python3's standard library only, no timing."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = os.path.join(REPO, "scripts", "gpu-check")

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(REPO, "scripts"))
from gpu_check import bundle_bench, torch_side  # noqa: E402
from gpu_check.bench import medians_from_gbench  # noqa: E402
from gpu_check.bench_targets import REPORTED, bench_cases, judge, row_key  # noqa: E402


def bench(median_s, **counters):
    return {"median_s": median_s, "runs": 9, "spread": 0.01, "counters": counters}


def stage(name, status="ok", reason="", figures=None):
    return {"stage": name, "status": status, "reason": reason, "duration_s": 2.0,
            "started": "2026-11-26 10:00:00 UTC", "commit": "abc123", "figures": figures or {}}


C_BENCH = {  # what the bench stage holds after both programs ran
    "TinyAdd/tide": bench(2.2e-6), "TinyAdd/torch": bench(4.8e-6), "TinyAdd/raw": bench(2.0e-6),
    "MallocFreePair/tide": bench(40e-9), "MallocFreePair/torch": bench(100e-9),
    "AddF32_2^28/tide": bench(1.0e-3, pct_of_peak=90.0, bytes_per_second=3.0e12),
    "AddF32_2^28/torch": bench(1.01e-3, pct_of_peak=89.0),
    "SumF32_2^28/tide": bench(0.5e-3, pct_of_peak=80.0), "SumF32_2^28/torch": bench(0.45e-3),
    "MatmulF32_8192/tide": bench(20e-3), "MatmulF32_8192/torch": bench(20.2e-3),
    "CopyH2DPinned/tide": bench(10e-3), "CopyH2DPinned/raw": bench(9.8e-3),
    "Overlap/tide": bench(11e-3, copy_ms=10.0, compute_ms=9.0, overlap_ms=10.5),
    "MlpStep_64/tide": bench(100e-6, items_per_second=640e3),
    "MlpStep_64/torch": bench(160e-6, items_per_second=400e3),
    "MlpStep_1024/tide": bench(1.0e-3), "MlpStep_1024/torch": bench(0.98e-3),
}
PY_BENCH = {"PyMlpStep_64/tide": bench(200e-6), "PyMlpStep_64/torch": bench(280e-6)}
TRAIN_BENCH = {"TrainLoop_5epochs/tide": bench(12.0, accuracy_pct=84.1),
               "TrainLoop_5epochs/torch": bench(15.5, accuracy_pct=84.3)}


def judged(benchmarks):
    cases = bench_cases({"benchmarks": benchmarks, "peak_bytes_per_second": 3.35e12})
    return {name: judge(c, cases) for name, c in cases.items()}


class Targets(unittest.TestCase):
    def test_the_training_rows_are_judged_by_steps_per_second(self):
        j = judged({**C_BENCH, **PY_BENCH, **TRAIN_BENCH})
        self.assertEqual(j["MlpStep_64"], ("≥ 1.5× torch's steps/s", True, "1.60× torch's steps/s"))
        self.assertEqual(j["MlpStep_1024"], ("≥ 1.0× torch's steps/s", False, "0.98× torch's steps/s"))
        self.assertEqual(j["PyMlpStep_64"], ("≥ 1.5× torch's steps/s", False, "1.40× torch's steps/s"))

    def test_the_training_loop_is_reported_not_judged(self):
        target, met, detail = judged(TRAIN_BENCH)["TrainLoop_5epochs"]
        self.assertEqual((target, met), ("time and accuracy beside torch", REPORTED))
        self.assertEqual(detail, "tide 12.0 s, 84.10%; torch 15.5 s, 84.30%")
        self.assertIsNone(judged({"TrainLoop_5epochs/tide": TRAIN_BENCH["TrainLoop_5epochs/tide"]})
                          ["TrainLoop_5epochs"][1])

    def test_rows_follow_the_issue_s_table(self):
        names = sorted(bench_cases({"benchmarks": {**C_BENCH, **PY_BENCH, **TRAIN_BENCH,
                                                   "Zeta/tide": bench(1.0)}}), key=row_key)
        self.assertEqual(names, ["TinyAdd", "MallocFreePair", "AddF32_2^28", "SumF32_2^28",
                                 "MatmulF32_8192", "CopyH2DPinned", "Overlap", "MlpStep_1024",
                                 "MlpStep_64", "PyMlpStep_64", "TrainLoop_5epochs", "Zeta"])


def gbench_run(name, real_time, unit="us", **counters):
    return {"name": name, "run_name": name, "run_type": "iteration", "real_time": real_time,
            "time_unit": unit, "iterations": 100, **counters}


class TwoProcesses(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="gpu-bench-test-")
        self.addCleanup(shutil.rmtree, self.dir)

    def write(self, name, runs, context):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            json.dump({"context": context, "benchmarks": runs}, f)
        return path

    def test_runs_of_both_programs_over_rounds_merge_into_medians(self):
        paths = [
            self.write("tide_0.json", [gbench_run("MlpStep_64/tide/real_time", t) for t in (100, 104, 98)],
                       {"device_name": "H100", "peak_memory_bytes_per_second": "3.35e12"}),
            self.write("torch_0.json", [gbench_run("MlpStep_64/torch/real_time", t) for t in (150, 170)],
                       {"device_name": "H100 (torch)", "torch_version": "2.11.0"}),
            self.write("tide_1.json", [gbench_run("MlpStep_64/tide/real_time", t) for t in (300, 101)], {}),
            self.write("torch_1.json", [gbench_run("MlpStep_64/torch/real_time", 160)], {}),
            os.path.join(self.dir, "missing.json")]  # a run that wrote nothing adds nothing
        figures = medians_from_gbench(bundle_bench.merge_runs(paths))
        tide = figures["benchmarks"]["MlpStep_64/tide/real_time"]
        torch = figures["benchmarks"]["MlpStep_64/torch/real_time"]
        self.assertEqual(tide["runs"], 5)
        self.assertAlmostEqual(tide["median_s"], 101e-6, delta=1e-12)
        self.assertEqual(torch["runs"], 3)
        self.assertAlmostEqual(torch["median_s"], 160e-6, delta=1e-12)
        self.assertEqual(figures["context"], {"device_name": "H100", "peak_memory_bytes_per_second": "3.35e12",
                                              "torch_version": "2.11.0"})
        self.assertEqual(judged(figures["benchmarks"])["MlpStep_64"][1], True)

    def test_the_side_that_goes_first_alternates(self):
        self.assertEqual([bundle_bench.round_order(r, ["tide", "torch"]) for r in range(3)],
                         [["tide", "torch"], ["torch", "tide"], ["tide", "torch"]])

    def test_each_run_interleaves_its_cases_and_writes_json(self):
        cmd = bundle_bench.side_command("/b/tide_vs_torch_gpu_bench", "/o/x.json", 3, ["--benchmark_filter=."])
        self.assertIn("--benchmark_enable_random_interleaving=true", cmd)
        self.assertIn("--benchmark_repetitions=3", cmd)
        self.assertIn("--benchmark_out=/o/x.json", cmd)

    def test_ncu_profiles_missed_kernel_cases_only(self):
        with open(os.path.join(self.dir, "bench.json"), "w") as f:
            json.dump(stage("bench", figures={"benchmarks": C_BENCH, "peak_bytes_per_second": 3.35e12}), f)
        kernels, host = bundle_bench.missed_kernel_cases(self.dir)
        # SumF32 misses 88% of peak, MlpStep_1024 torch's steps/s; MallocFreePair meets its target.
        self.assertEqual(kernels, ["MlpStep_1024", "SumF32_2^28"])
        self.assertEqual(host, [])
        self.assertEqual(bundle_bench.missed_kernel_cases(os.path.join(self.dir, "none")), ([], []))


class AgainstTorch(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="gpu-bench-test-")
        self.addCleanup(shutil.rmtree, self.dir)

    def report(self, stages):
        for s in stages:
            with open(os.path.join(self.dir, f"{s['stage']}.json"), "w") as f:
                json.dump(s, f)
        r = subprocess.run([sys.executable, SCRIPT, "--report-from", self.dir], capture_output=True,
                           text=True, timeout=120)
        with open(os.path.join(self.dir, "report.md")) as f:
            return r.returncode, f.read()

    def stages(self):
        return [stage("env"), stage("unpack"),
                stage("bench", figures={
                    "benchmarks": C_BENCH, "peak_bytes_per_second": 3.35e12, "context": {"device_name": "H100"},
                    "rounds": 3, "repetitions_per_round": 3, "round_seconds": [40.0, 41.5, 39.9],
                    "torch_side_build": {"seconds": 48.2, "compiles": [["torch_cases.cpp", 30.1, 0], ["link", 1.2, 0]]},
                    "torch": {"version": "2.11.0+cu130", "cuda": "13.0"}, "skipped": {}}),
                stage("pystep", figures={"benchmarks": PY_BENCH, "device": "cuda", "skipped": {},
                                         "compile": {"rc": 0, "seconds": 55.0}}),
                stage("trainvs", figures={"benchmarks": TRAIN_BENCH,
                                          "tide": {"exit": 0, "seconds": 12.0, "accuracy": [80.0, 84.1]},
                                          "torch": {"exit": 0, "process_seconds": 15.5, "train_seconds": 11.0,
                                                    "accuracy": [80.5, 84.3], "device": "cuda"}}),
                stage("profile", figures={"missed_kernel_cases": ["MlpStep_1024", "SumF32_2^28"], "profiles": [
                    {"case": "SumF32_2^28", "report": "ncu-SumF32_2_28.ncu-rep", "seconds": 20.0,
                     "details_log": "profile-ncu-SumF32_2_28.log"},
                    {"case": "MlpStep_1024", "status": "not run: deadline"}]})]

    def test_one_table_holds_every_row_with_its_target_and_verdict(self):
        rc, report = self.report(self.stages())
        self.assertEqual(rc, 0)
        table = report.split("## against torch: issue 23's table")[1].split("\n## ")[0]
        rows = [line for line in table.splitlines() if line.startswith("| ") and not line.startswith(("| case", "| ---"))]
        self.assertEqual([r.split("|")[1].strip() for r in rows],
                         ["TinyAdd", "MallocFreePair", "AddF32_2^28", "SumF32_2^28", "MatmulF32_8192",
                          "CopyH2DPinned", "Overlap", "MlpStep_1024", "MlpStep_64", "PyMlpStep_64",
                          "TrainLoop_5epochs"])
        verdicts = {r.split("|")[1].strip(): r.split("|")[-2].strip() for r in rows}
        self.assertEqual(verdicts["MlpStep_64"], "met (1.60× torch's steps/s)")
        self.assertEqual(verdicts["MlpStep_1024"], "**missed** (0.98× torch's steps/s)")
        self.assertEqual(verdicts["PyMlpStep_64"], "**missed** (1.40× torch's steps/s)")
        self.assertEqual(verdicts["TrainLoop_5epochs"], "reported (tide 12.0 s, 84.10%; torch 15.5 s, 84.30%)")
        self.assertIn("Targets: 7 met, 3 missed, 0 not judged (a side or a figure is missing), 1 reported.", table)

    def test_each_stage_says_how_it_ran(self):
        _, report = self.report(self.stages())
        self.assertIn("torch side compiled here against torch 2.11.0+cu130 (CUDA 13.0): 48.2 s "
                      "(torch_cases.cpp 30.1 s, link 1.2 s).", report)
        self.assertIn("3 rounds of 3 repetitions per side, rounds of 40.0, 41.5, 39.9 s.", report)
        self.assertIn("- torch (cuda): exit 0, 15.5 s for the process (11.0 s training); "
                      "test accuracy after each epoch: 80.50%, 84.30%", report)
        self.assertIn("- SumF32_2^28: gpu-check/ncu-SumF32_2_28.ncu-rep (20.0 s; text in "
                      "gpu-check/profile-ncu-SumF32_2_28.log)", report)
        self.assertIn("- MlpStep_1024: not run: deadline", report)

    def test_sides_that_need_cuda_are_skipped_with_the_reason(self):
        stages = self.stages()
        stages[2] = stage("bench", "skipped", "tide side: TIDE_SIM_DEVICES=1 makes tide simulate GPUs; "
                                              "torch side: no CUDA: torch 1.13.0a0 was built without it",
                          figures={"skipped": {"tide": "TIDE_SIM_DEVICES=1 makes tide simulate GPUs",
                                               "torch": "no CUDA: torch 1.13.0a0 was built without it"},
                                   "benchmarks": {}, "rounds": 1})
        rc, report = self.report(stages)
        self.assertEqual(rc, 0)
        self.assertIn("| bench | skipped |", report)
        self.assertIn("- torch side skipped: no CUDA: torch 1.13.0a0 was built without it", report)
        self.assertIn("| PyMlpStep_64 |", report)  # the other stages' rows are still in the table


class TorchSide(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="gpu-bench-test-")
        self.addCleanup(shutil.rmtree, self.dir)
        self.probe = torch_side.probe
        self.addCleanup(setattr, torch_side, "probe", self.probe)

    def build(self, info, cuda_dirs=()):
        torch_side.probe = lambda python, env=None: dict(info)
        return torch_side.build(self.dir, os.path.join(self.dir, "out"), "python3", list(cuda_dirs),
                                os.path.join(self.dir, "log"), 60, dict(os.environ, PATH="/usr/bin:/bin"))

    def test_a_python_without_torch_is_the_reason(self):
        r = torch_side.build(self.dir, os.path.join(self.dir, "out"), "/bin/false", [],
                             os.path.join(self.dir, "log"), 60, dict(os.environ))
        self.assertIsNone(r["binary"])
        self.assertIn("/bin/false cannot import torch", r["why"])

    def test_what_cannot_be_linked_is_refused_before_compiling(self):
        torch = {"version": "2.11.0+cu130", "cuda": "13.0", "cxx11_abi": True, "headers": True,
                 "include": [self.dir], "lib": self.dir, "nvidia_include": []}
        r = self.build(dict(torch, headers=False))
        self.assertIn("ships no C++ headers", r["why"])
        r = self.build(dict(torch, cxx11_abi=False))
        self.assertIn("pre-C++11 string ABI", r["why"])
        r = self.build(torch, cuda_dirs=[self.dir])  # no libcudart.so.N there
        self.assertIn("has CUDA 13.0 but", r["why"])
        self.assertEqual(r["compiles"], [])


if __name__ == "__main__":
    unittest.main()
