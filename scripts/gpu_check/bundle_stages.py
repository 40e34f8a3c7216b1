"""scripts/gpu-check --bundle: the check run from a GPU bundle (Note [GPU bundle] in
bundle_layout.py) instead of a build. Stages, each into its <stage>.json like the others:
  unpack    the first step: unpacks the bundle, finds the machine's CUDA libraries and puts them
            on LD_LIBRARY_PATH, reports glibc and libstdc++, and stops the run with the reason
            when a bundled file cannot load there (a library or a symbol version missing);
            starts compiling the Python extension in the background
  native    every device test in the native configuration, on the real backend
  nccl      `mpirun -n 1` with the nccl backend: the collectives and DDP tests on cuda
  train     `tide train --device cuda` on the bundle's Fashion-MNIST slice (accuracy, time),
            then `tide demo`
  python    the extension compiled against the bundled libtide (timed), then tests/python
            natively: on the real GPU, with DLPack against the machine's torch
  sanitize  compute-sanitizer memcheck over a filtered set of device tests, racecheck over the
            tests that run the kernels with shared memory
--sim N runs what it can on N simulated GPUs instead (native runs the simN configuration;
nccl and sanitize skip): the whole flow, testable without a GPU."""
import hashlib
import json
import os
import re
import shutil
import subprocess
import threading
import time

from . import bundle_machine
from .build_and_test import run_sanitizers
from .bundle_layout import MANIFEST, TESTS, run_env
from .bundle_tests import count, run_tests, select
from .bundle_verify import unpack
from .commands import REPO, find_tool, run, tail
from .stage_io import fail, skip, write_json

# compute-sanitizer's runs: (tool, binary, gtest filter). memcheck leaves out the tests that
# fault a kernel or exhaust the device on purpose (AsyncKernelError, a request beyond capacity)
# and the stress and fork tests; racecheck runs the
# tests whose ops use the kernels with shared memory (reductions, softmax, nll_loss, the
# backward kernels, the gemm fallback: src/kernels/cuda).
SANITIZE_PLAN = [
    ("memcheck", "tide_device_tests", "OpsVsCpu.*:NnDevice.*:AutogradDevice.*:FusedOptim.*:"
                                      "TensorCompare.*:Lifetime.*:DefaultDevice.*:Async.*:DataParallel.*:"
                                      "Indexing*:Torch113/*:ReductionGoldensOnDevices.*:ShapeGoldens.*:"
                                      "Sampling.*:CustomFunctionDevice.*"),
    ("memcheck", "tide_runtime_tests", "Stream.*:Event.*:CudaDevice.*:DeviceGuard.*:DeviceMemory.*:StreamGuard.*"),
    ("memcheck", "tide_pinned_tests", "PinnedCopy.*:PinnedTensor.*:PinnedAllocator.*"),
    # Less the test that asks cudaMalloc for more than the device has on purpose: memcheck
    # reports that API error (and the cudaGetLastError that clears it) as findings.
    ("memcheck", "tide_memory_device_tests",
     "Memory.*-Memory.ARequestBeyondTheDevicesCapacityRaisesOutOfMemoryAndTheDeviceStaysUsable"),
    ("racecheck", "tide_device_tests", "OpsVsCpu.*:NnDevice.*:AutogradDevice.*"),
]
TRAIN_EPOCHS = 3
MIN_ACCURACY = 60.0  # an MLP reaches about 80% after 3 epochs of 6000 images; 60 is a wide margin
PYTHON_PROBE = ("import json, os, sys, sysconfig; inc = sysconfig.get_paths()['include']; "
                "print(json.dumps({'version': sys.version.split()[0], 'include': inc, "
                "'headers': os.path.exists(os.path.join(inc, 'Python.h'))}))")


class Bundle:
    """The unpacked bundle on this machine: its root, manifest, tests, the environment its
    programs run in, and why it cannot run here (None when it can)."""

    def __init__(self, check):
        self.check = check
        self.figures = {}
        self.problem = None
        self.python_build = None
        tarball = os.path.abspath(check.args.bundle)
        if not os.path.exists(tarball):
            self.problem = f"no bundle at {tarball} (scripts/gpu-bundle pack makes it)"
            return
        self.root = self.unpack(tarball)
        with open(os.path.join(self.root, MANIFEST)) as f:
            self.manifest = json.load(f)
        with open(os.path.join(self.root, TESTS)) as f:
            self.tests = json.load(f)["tests"]
        self.probe_machine()

    def unpack(self, tarball):
        """Unpacks below the build directory, again only when the tarball changed."""
        with open(tarball, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        dest = os.path.join(self.check.build_dir, "bundle")
        stamp = os.path.join(dest, "sha256")
        start = time.monotonic()
        if not (os.path.exists(stamp) and open(stamp).read() == digest):
            shutil.rmtree(dest, ignore_errors=True)
            os.makedirs(dest)
            root = unpack(tarball, dest)
            with open(stamp, "w") as f:
                f.write(digest)
        else:
            root = os.path.join(dest, "tide-gpu-bundle")
        self.figures.update(bundle=tarball, sha256=digest, size_mib=round(os.path.getsize(tarball) / 2**20, 1),
                            unpack_s=round(time.monotonic() - start, 1), root=root)
        return root

    def probe_machine(self):
        m = self.manifest
        self.figures["bundle_commit"] = m["commit"] + (" (with uncommitted changes)" if m["dirty"] else "")
        if not m["cuda"] and not self.check.args.sim:
            self.problem = "the bundle was built without the CUDA backend (no nvcc where it was packed)"
        dirs, found, missing = bundle_machine.find_cuda_libraries(m["machine_libraries"], self.check.args.python)
        runtime = bundle_machine.machine_runtime()
        self.figures.update(cuda_dirs=dirs, cuda_libraries=found, cuda_missing=missing,
                            glibc=runtime["glibc"], libstdcxx=runtime["libstdcxx"],
                            libstdcxx_path=runtime["libstdc++.so.6"]["path"], needs=m["needs"])
        self.env = run_env(self.root, dirs, base=self.check.env)
        self.env["TIDE_TEST_PYTHON3"] = self.check.args.python
        if self.check.args.sim:
            self.env["TIDE_SIM_DEVICES"] = str(self.check.args.sim)
        else:
            self.env.pop("TIDE_SIM_DEVICES", None)
        print(f"gpu-check: machine: glibc {runtime['glibc']}, libstdc++ {runtime['libstdcxx']} "
              f"({runtime['libstdc++.so.6']['path']}); the bundle needs {m['needs']}", flush=True)
        print(f"gpu-check: CUDA libraries: {found or 'none'}"
              + (f"; not found: {', '.join(missing)}" if missing else ""), flush=True)
        versions = bundle_machine.too_new(m, runtime)
        loads = bundle_machine.load_problems(self.root, self.env)
        self.figures.update(version_problems=versions, load_problems=loads)
        if versions or loads:
            worst = (versions + loads)[:6]
            self.problem = self.problem or (
                f"the bundle cannot load here: {'; '.join(worst)}"
                + (f" (and {len(versions) + len(loads) - 6} more)" if len(versions) + len(loads) > 6 else "")
                + ". glibc or libstdc++ older than the bundle's needs: pack it on an older "
                  "system; a CUDA library not found: see cuda_dirs in unpack.json")
        r = subprocess.run([self.check.args.python, "-c", PYTHON_PROBE], capture_output=True, text=True)
        try:
            self.figures["python"] = json.loads(r.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            self.figures["python"] = {"error": tail(r.stdout + r.stderr, 3)}

    def start_python_build(self):
        """Configures and builds the extension (bundle's python/CMakeLists.txt) in the
        background, timing it; wait_python_build() joins it."""
        if self.python_build is not None:
            return
        python = self.check.args.python
        path = os.pathsep.join([os.path.dirname(os.path.realpath(python)), os.path.dirname(python),
                                self.check.env.get("PATH", "")])
        cmake = shutil.which("cmake", path=path)
        ninja = shutil.which("ninja", path=path)
        out = os.path.join(self.check.build_dir, "python-build")
        log = self.check.log("python", "python-build")
        state = {"dir": out, "log": log, "rc": None, "seconds": None, "start": time.monotonic()}
        self.python_build = state
        if not cmake:
            state.update(rc=127, seconds=0.0, error="cmake not found (PATH, beside python)")
            return
        jobs = str(max(2, (os.cpu_count() or 2) // 2))  # the native tests run beside it
        configure = [cmake, "-S", os.path.join(self.root, "python"), "-B", out,
                     f"-DPython_EXECUTABLE={python}", "-DCMAKE_BUILD_TYPE=Release"]
        if ninja:
            configure += ["-G", "Ninja", f"-DCMAKE_MAKE_PROGRAM={ninja}"]
        build = [cmake, "--build", out, "-j", jobs]
        shutil.rmtree(out, ignore_errors=True)

        def work():
            rc, output, _ = run(configure, log, self.check.timeout("python"), env=self.check.env)
            if rc == 0:
                rc, output, _ = run(build, log, self.check.timeout("python"), env=self.check.env)
            state.update(rc=rc, seconds=round(time.monotonic() - state["start"], 1), tail=tail(output, 6))

        state["thread"] = threading.Thread(target=work, daemon=True)
        state["thread"].start()

    def wait_python_build(self, timeout):
        self.start_python_build()
        thread = self.python_build.get("thread")
        if thread:
            thread.join(timeout)
        return self.python_build


def bundle(check):
    if getattr(check, "_bundle", None) is None:
        check._bundle = Bundle(check)
    return check._bundle


def ready(check, needs_gpu=True):
    """The bundle, once a stage may run: a GPU (unless --sim) and a bundle that loads here."""
    if needs_gpu and not check.args.sim:
        check.need_gpu()
    b = bundle(check)
    if b.problem:
        skip(b.problem)
    return b


def stage_unpack(check, figures):
    b = bundle(check)
    figures.update(b.figures)
    if b.problem:
        fail(b.problem)
    if getattr(check.args, "bench", False):  # bundle_bench's stages: the torch side too
        from .bundle_bench import start_builds
        start_builds(check)
        figures["torch_side_build"] = "started in the background"
    py = figures.get("python") or {}
    if py.get("headers"):
        b.start_python_build()
        figures["python_build"] = "started in the background"


def run_entries(check, b, stage, entries, figures, keep_output=None, jobs=None):
    start = time.monotonic()
    limit = check.timeout(stage)
    results = run_tests(entries, b.root, b.env, jobs or min(8, os.cpu_count() or 2),
                        check.log(stage), deadline=start + limit, keep_output=keep_output)
    c = count(results)
    c["duration_s"] = round(time.monotonic() - start, 1)
    c["slowest"] = [f"{r['name']} {r['seconds']}s" for r in sorted(results, key=lambda r: -r["seconds"])[:5]]
    write_json(os.path.join(check.out_dir, f"{stage}_results.json"), results)
    figures[stage] = c
    return c


def stage_native(check, figures):
    b = ready(check)
    config = f"sim{check.args.sim}" if check.args.sim else "native"
    entries = select(b.tests, rf"^{re.escape(config)}\.")
    if not entries:
        fail(f"tests.json has no {config}. tests")
    figures["config"] = config
    c = run_entries(check, b, "native", entries, figures)
    problems = []
    if c["failed"]:
        problems.append(f"{c['failed']} of {c['total']} {config} tests failed")
    if c["not_run"]:
        problems.append(f"{c['not_run']} not run (deadline)")
    if not check.args.sim and check.gpu["present"] and c["skipped"] > 0.75 * c["total"]:
        problems.append(f"{c['skipped']} of {c['total']} skipped: did tide's cuda backend see the GPU?")
    if problems:
        fail("; ".join(problems))


def gtest_totals(log_path):
    try:
        with open(log_path) as f:
            text = re.sub(r"\x1b\[[0-9;]*m", "", f.read())  # gtest colours its lines under mpirun
    except OSError:
        return {}
    return {key: sum(int(n) for n in re.findall(rf"\[\s+{word}\s+\] (\d+) tests?", text))
            for key, word in (("passed", "PASSED"), ("failed", "FAILED"), ("skipped", "SKIPPED"))}


def stage_nccl(check, figures):
    if check.args.sim:
        skip("NCCL needs real GPUs (--sim)")
    b = ready(check)
    entries = select(b.tests, r"^mpi1_nccl\.")
    if not entries:
        fail("tests.json has no mpi1_nccl. tests")
    c = run_entries(check, b, "nccl", entries, figures, keep_output=lambda name: True, jobs=1)
    figures["gtest"] = gtest_totals(check.log("nccl"))
    if c["failed"] or c["not_run"]:
        fail(f"{', '.join(c['failed_names']) or 'not run (deadline)'}")
    if c["skipped"]:
        fail("skipped (exit 77) on a GPU machine: the nccl backend found no GPU or no NCCL")


def stage_train(check, figures):
    b = ready(check)
    tide = os.path.join(b.root, "bin", "tide")
    cmd = [tide, "train", "--device", "cuda", "--data", os.path.join(b.root, "data", "fashion-mnist"),
           "--epochs", str(TRAIN_EPOCHS), "--seed", "0"]
    start = time.monotonic()
    rc, out, timed_out = run(cmd, check.log("train"), check.timeout("train") * 2 / 3, env=b.env)
    accuracy = [float(a) for a in re.findall(r"test accuracy: ([\d.]+)%", out)]
    figures["train"] = {"command": " ".join(cmd[1:]), "exit": rc, "accuracy": accuracy,
                        "seconds": round(time.monotonic() - start, 1)}
    start = time.monotonic()
    rc_demo, out_demo, demo_timed_out = run([tide, "demo"], check.log("train", "train-demo"),
                                            max(10, check.timeout("train") - (time.monotonic() - start)),
                                            env=b.env)
    figures["demo"] = {"exit": rc_demo, "seconds": round(time.monotonic() - start, 1),
                       "tail": tail(out_demo, 4)}
    problems = []
    if rc != 0 or timed_out:
        problems.append(f"tide train: {'timed out' if timed_out else f'exit {rc}'}: {tail(out, 3)}")
    elif not accuracy or accuracy[-1] < MIN_ACCURACY:
        problems.append(f"tide train: test accuracy {accuracy or 'not printed'}, expected >= {MIN_ACCURACY}%")
    if rc_demo != 0 or demo_timed_out:
        problems.append(f"tide demo: {'timed out' if demo_timed_out else f'exit {rc_demo}'}: {tail(out_demo, 3)}")
    if problems:
        fail("; ".join(problems))


# tests/python was written for three simulated GPUs (conftest.py): natively on a machine with
# fewer, a test that names cuda:1 or cuda:2 fails so. Those are listed apart, not as defects.
NEEDS_MORE_GPUS = re.compile(r"cuda:\d+ does not exist; there (is|are) \d+ cuda device|"
                             r"this process has \d+ cuda device")
PYTEST_SUMMARY = re.compile(r"(\d+) (passed|failed|skipped|errors?|xfailed|xpassed)")


def stage_python(check, figures):
    b = ready(check)
    py = b.figures.get("python") or {}
    if not py.get("headers"):
        fail(f"{check.args.python} (Python {py.get('version', '?')}) has no headers "
             f"({py.get('include', '?')}/Python.h): tide._C cannot be compiled here")
    state = b.wait_python_build(check.timeout("python"))
    figures["compile"] = {k: state.get(k) for k in ("rc", "seconds", "error", "tail")}
    if state.get("rc") is None:
        fail(f"compiling tide._C did not finish in {check.timeout('python'):.0f} s")
    if state["rc"] != 0:
        fail(f"compiling tide._C failed: {state.get('error') or state.get('tail')}")
    # COLUMNS: pytest cuts its short summary's lines to the terminal, messages first.
    env = dict(b.env, PYTHONPATH=state["dir"], COLUMNS="400",
               TIDE_TRAIN_REFERENCE=os.path.join(b.root, "bin", "tide_train_loop_reference"))
    if check.args.sim:
        env.pop("TIDE_SIM_DEVICES", None)  # conftest.py's three simulated GPUs, as in CI
    else:
        env["TIDE_TEST_NATIVE"] = "1"
    cmd = [check.args.python, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider",
           os.path.join(REPO, "tests", "python")]
    if subprocess.run([check.args.python, "-c", "import pytest_timeout"], capture_output=True).returncode == 0:
        cmd.append("--timeout=120")
    rc, out, timed_out = run(cmd, check.log("python", "python-test"), check.timeout("python"),
                             env=env, cwd=check.build_dir)
    summary, failures, fewer = parse_pytest(out)
    figures["pytest"] = dict(summary, exit=rc, timed_out=timed_out, failures=failures[:40],
                             needs_more_gpus=fewer[:60])
    if timed_out:
        fail(f"pytest timed out after {check.timeout('python'):.0f} s")
    if failures or rc not in (0, 1) or (rc == 1 and not fewer):
        fail(f"pytest exit {rc}: {len(failures)} failed"
             + (f" (and {len(fewer)} that need more GPUs than this machine has)" if fewer else ""))


def parse_pytest(out):
    """pytest's counts, and its failures (-rfE's short summary: "FAILED test - message") split
    into those that need more GPUs than the machine has (NEEDS_MORE_GPUS) and the rest."""
    summary = {}
    for line in out.splitlines()[-3:]:
        for n, what in PYTEST_SUMMARY.findall(line):
            summary["error" if what.startswith("error") else what] = int(n)
    failures, fewer = [], []
    for test, message in re.findall(r"^(?:FAILED|ERROR) (\S+)(?: - (.*))?$", out, re.M):
        (fewer if NEEDS_MORE_GPUS.search(message or "") else failures).append(
            f"{test} - {message[:200]}" if message else test)
    return summary, failures, fewer


def stage_sanitize(check, figures):
    if check.args.sim:
        skip("compute-sanitizer needs a real GPU (--sim)")
    b = ready(check)
    sanitizer = find_tool("compute-sanitizer")
    if not sanitizer:
        skip("compute-sanitizer not found (PATH, /usr/local/cuda/bin)")
    runs = [(tool, os.path.join(b.root, "bin", binary), gtest_filter)
            for tool, binary, gtest_filter in SANITIZE_PLAN]
    run_sanitizers(check, figures, sanitizer, runs, b.env)
