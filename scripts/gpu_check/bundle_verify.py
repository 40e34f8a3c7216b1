"""scripts/gpu-bundle verify: the bundle proven here, as the GPU machine will meet it. Unpacked
into an empty folder, every ELF file's libraries must be in the bundle or the machine's
(readelf), and must load from there in a scrubbed environment (ldd under `env -i` with the
bundle's lib/ alone on LD_LIBRARY_PATH); Open MPI must be relocated into it; then a sample of
its tests, the tide CLI and an `mpirun -n 2` job run from it on simulated GPUs."""
import json
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
import time

from . import elf_deps
from .bundle_layout import BENCH_BINARY, BENCH_SOURCES, MANIFEST, TESTS, TOP, run_env
from .bundle_tests import count, run_tests

# Each device test binary's first tests in two configurations (sim2: two simulated GPUs;
# native: no GPU here, so they check the no-device path), and one mpirun job of two ranks.
SAMPLE_PER_BINARY = 4
SAMPLE_CONFIGS = ("sim2.", "native.")
MPI_SAMPLE = ("mpi2.distributed", "--gtest_filter=*/Collectives.*")
# A test that reads a fixture: it must pass with the bundle's copy and fail without it, or the
# binaries still read the tree they were built from (absent on the GPU machine).
FIXTURE_TEST = "sim1.Safetensors.LoadsEveryDtypeFromAFileThePythonPackageWrote"


def unpack(tarball, dest):
    """Extracts the bundle below dest (names checked: nothing outside TOP); returns its root."""
    with tarfile.open(tarball, "r:*") as tar:
        for member in tar.getmembers():
            parts = member.name.split("/")
            if parts[0] != TOP or ".." in parts or member.name.startswith("/"):
                raise ValueError(f"[gpu-bundle] expected every entry below {TOP}/, found {member.name}")
            if member.issym() and (member.linkname.startswith("/") or ".." in member.linkname.split("/")):
                raise ValueError(f"[gpu-bundle] expected links inside the bundle, found "
                                 f"{member.name} -> {member.linkname}")
        # The names are checked above; Pythons that have extraction filters get 'data' too.
        tar.extractall(dest, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    return os.path.join(dest, TOP)


def scrubbed_env(root, home, **extra):
    """`env -i` plus what the bundle's programs need: the bundle's lib/ alone on
    LD_LIBRARY_PATH, Open MPI relocated into it, a private HOME and TMPDIR."""
    base = {"PATH": "/usr/bin:/bin", "HOME": home, "TMPDIR": home, "LANG": "C.UTF-8"}
    env = run_env(root, cuda_dirs=(), base=base)
    env.update(extra)
    return env


class Verify:
    def __init__(self, log):
        self.log, self.failures, self.checks = log, [], 0

    def check(self, what, problems):
        self.checks += 1
        if problems:
            self.failures.append(what)
            self.log(f"gpu-bundle verify: FAILED {what}:")
            for p in problems[:40]:
                self.log(f"  {p}")
            if len(problems) > 40:
                self.log(f"  ... {len(problems) - 40} more")
        else:
            self.log(f"gpu-bundle verify: ok   {what}")


def run(cmd, env, cwd, timeout=300):
    r = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    return r.returncode, r.stdout + r.stderr


# The build-time folders of Debian's Open MPI, PMIx and hwloc: a GPU machine may hold other
# versions there, which the bundle's copies must not load.
MACHINE_MPI_PATHS = re.compile(r'"(/usr/lib/x86_64-linux-gnu/(openmpi|pmix2|hwloc)/[^"]*|'
                               r'/etc/openmpi/[^"]*|/usr/share/(openmpi|pmix)/[^"]*)"')


def machine_mpi_files(root, env, home):
    """What `mpirun -n 2 /bin/true` from the bundle opens in those folders (strace), as
    problems; one problem naming strace when it is not installed."""
    strace = shutil.which("strace")
    if not strace:
        return ["strace is not installed (scripts/install-deps installs it)"]
    trace = os.path.join(home, "mpirun.strace")
    rc, out = run([strace, "-f", "-e", "trace=openat,open", "-o", trace,
                   os.path.join(root, "mpi/bin/mpirun"), "--allow-run-as-root", "-n", "2", "/bin/true"],
                  env, home)
    if rc != 0:
        return [f"mpirun -n 2 /bin/true: exit {rc}: {out[-800:]}"]
    with open(trace) as f:
        opened = {m.group(1) for line in f if "ENOENT" not in line
                  for m in [MACHINE_MPI_PATHS.search(line)] if m}
    return sorted(opened)


def sample(tests):
    chosen = []
    by_binary = {}
    for t in tests:
        if t["name"].startswith(SAMPLE_CONFIGS) and not t["command"][0].endswith("mpiexec"):
            by_binary.setdefault((t["name"].split(".")[0], t["command"][0]), []).append(t)
    for key in sorted(by_binary):
        chosen += by_binary[key][:SAMPLE_PER_BINARY]
    for t in tests:
        if t["name"] == MPI_SAMPLE[0]:
            chosen.append(dict(t, command=t["command"] + [MPI_SAMPLE[1]]))
    return chosen


def verify(tarball, keep=None, drop_lib=None, log=print):
    v = Verify(log)
    start = time.monotonic()
    size = os.path.getsize(tarball)
    log(f"gpu-bundle verify: {tarball}: {size / 2**20:.1f} MiB")
    work = keep or tempfile.mkdtemp(prefix="tide-gpu-bundle-verify-")
    if keep:
        shutil.rmtree(keep, ignore_errors=True)
        os.makedirs(keep)
    try:
        root = unpack(tarball, work)
        with open(os.path.join(root, MANIFEST)) as f:
            manifest = json.load(f)
        log(f"gpu-bundle verify: commit {manifest['commit']}{' (dirty)' if manifest['dirty'] else ''}, "
            f"CUDA {'sm ' + str(manifest['cuda_architectures']) if manifest['cuda'] else 'off'}, "
            f"{manifest['files']} files, machine's libraries {', '.join(manifest['machine_libraries'])}")
        if drop_lib:  # the proof that the checks below catch a missing library
            os.remove(os.path.join(root, "lib", drop_lib))
            log(f"gpu-bundle verify: removed lib/{drop_lib} from the unpacked copy")
        files = elf_deps.elf_files(root)
        v.check(f"every library of {len(files)} ELF files is in the bundle or the machine's "
                "(readelf)", elf_deps.unresolved(root, files, ["lib"]))
        home = os.path.join(work, "home")
        os.makedirs(home, exist_ok=True)
        env = scrubbed_env(root, home)
        v.check("every library loads from the bundle or the machine's, in a scrubbed "
                "environment (ldd)", elf_deps.outside(root, files, env))

        rc, out = run([os.path.join(root, "mpi/bin/ompi_info"), "--path", "all", "--parsable"],
                      env, home)
        paths = dict(line.split(":", 2)[1:] for line in out.splitlines() if line.startswith("path:"))
        v.check("Open MPI is relocated into the bundle (ompi_info)",
                [f"ompi_info exit {rc}: {out[-400:]}"] if rc != 0 else
                [f"{k}: {paths.get(k)}" for k in ("pkglibdir", "pkgdatadir", "sysconfdir")
                 if not (paths.get(k) or "").startswith(root + os.sep)])

        v.check("mpirun reads no plugin or setting of the machine's Open MPI, PMIx or hwloc "
                "(strace)", machine_mpi_files(root, env, home))

        with open(os.path.join(root, TESTS)) as f:
            tests = json.load(f)["tests"]
        chosen = sample(tests)
        log_path = os.path.join(work, "tests.log")
        results = run_tests(chosen, root, env, jobs=os.cpu_count() or 2, log_path=log_path)
        c = count(results)
        problems = list(c["failed_names"])
        if not any(r["name"].startswith("mpi2.") and r["status"] == "passed" for r in results):
            problems.append(f"{MPI_SAMPLE[0]} did not pass")
        if problems and os.path.exists(log_path):
            with open(log_path) as f:
                problems.append("output:\n" + f.read()[-3000:])
        v.check(f"{c['total']} sampled tests ({c['passed']} passed, {c['skipped']} skipped; "
                f"{', '.join(sorted({r['name'].split('.')[0] for r in results}))})", problems)

        fixture = [t for t in tests if t["name"] == FIXTURE_TEST]
        empty = os.path.join(work, "no-fixtures")
        os.makedirs(empty, exist_ok=True)
        statuses = [run_tests(fixture, root, e, jobs=1, log_path=log_path)[0]["status"]
                    for e in (env, dict(env, TIDE_TEST_DATA_DIR=empty))] if fixture else []
        v.check("the tests read their fixtures from the bundle (TIDE_TEST_DATA_DIR)",
                [] if statuses == ["passed", "failed"] else
                [f"{FIXTURE_TEST}: {statuses or 'not in tests.json'}, expected passed with the "
                 "bundle's fixtures and failed with none"])

        tide = os.path.join(root, "bin/tide")
        rc, out = run([tide, "info"], dict(env, TIDE_SIM_DEVICES="2"), home)
        v.check("tide info on 2 simulated GPUs",
                [] if rc == 0 and "cuda:1" in out else [f"exit {rc}: {out[-1500:]}"])
        rc, out = run([tide, "train", "--device", "cuda", "--data",
                       os.path.join(root, "data/fashion-mnist"), "--epochs", "1", "--limit", "600"],
                      dict(env, TIDE_SIM_DEVICES="1"), home)
        v.check("tide train --device cuda on the bundle's Fashion-MNIST slice, 1 simulated GPU",
                [] if rc == 0 and "test accuracy:" in out else [f"exit {rc}: {out[-1500:]}"])
        if manifest.get("bench"):  # gpu-check --bench's tide side loads, and skips without a GPU
            rc, out = run([os.path.join(root, "bin", BENCH_BINARY)], dict(env, TIDE_SIM_DEVICES="1"), home)
            sources = [f"bench/src/{n}" for n in BENCH_SOURCES
                       if not os.path.exists(os.path.join(root, "bench", "src", n))]
            v.check("the GPU bench's tide side skips itself on a simulated GPU; the torch side's "
                    "sources are in bench/",
                    ([] if rc == 0 and "skipped: no CUDA: TIDE_SIM_DEVICES" in out else [f"exit {rc}: {out[-1500:]}"])
                    + [f"missing: {s}" for s in sources])
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)
    passed = v.checks - len(v.failures)
    log(f"gpu-bundle verify: {time.monotonic() - start:.0f}s")
    log(f"gpu-bundle: {passed} passed, {len(v.failures)} failed")
    return not v.failures
