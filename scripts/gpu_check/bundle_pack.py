"""scripts/gpu-bundle pack: the GPU bundle (Note [GPU bundle] in bundle_layout.py) from a
release build with the CUDA backend (the ci preset's build/ci), as one reproducible .tar.xz:
the same inputs give the same bytes (names sorted, one mtime, owner 0, fixed modes, gzip and
xz without timestamps)."""
import gzip
import io
import json
import lzma
import os
import re
import shutil
import subprocess
import tarfile
import zipfile

from . import elf_deps
from .bundle_layout import (BENCH_BINARY, BENCH_SOURCES, BENCH_SCRIPTS, FASHION_SLICE, MANIFEST,
                            MPI_PROGRAMS, OTHER_BINARIES, TESTS, TEST_BINARIES, TOP,
                            machine_library_kind)
from .bundle_tests import from_ctest
from .commands import REPO

NANOBIND = "nanobind==3.1.0"  # python/requirements-build.txt's pin
FASHION_MNIST = "/usr/share/datasets/fashion-mnist"
# Open MPI plugins for fabrics a one-node GPU machine lacks (UCX, libfabric, verbs, PSM) and for
# OpenSHMEM: left out with the libraries they need (Open MPI skips a plugin it cannot find).
MPI_PLUGIN_EXCLUDES = re.compile(r"^lib(oshmem|ucp|ucs|mca_common_ucx|fabric|mca_common_ofi|"
                                 r"ibverbs|mca_common_verbs|psm_infinipath|psm2|nl-3)\.so")
TARGETS = ["tide", "tide_cli", *TEST_BINARIES, *OTHER_BINARIES]
# The GPU bench (Note [Two processes] in bench/vs_torch/torch_gpu_bench.cpp): built where the
# configuration has the CUDA backend (the ci preset asks for its tide side).
BENCH_TARGETS = [BENCH_BINARY, "tide_vs_torch_raw_kernels"]
# x86 branch conversion, then LZMA2 at preset 2: on 2 cores about 15 s for the bundle's 85 MB,
# 16.4 MiB out (preset 6 took 57 s for 15.1 MiB; the tree leaves over 40 MiB to spare).
XZ_FILTERS = [{"id": lzma.FILTER_X86}, {"id": lzma.FILTER_LZMA2, "preset": 2}]


class Contents:
    """The bundle's entries by path below TOP: a file to copy, bytes, or a symbolic link."""

    def __init__(self):
        self.entries = {}

    def add_file(self, arc, src, executable=None):
        if executable is None:
            executable = os.access(src, os.X_OK)
        self.entries[arc] = ("file", os.path.realpath(src), 0o755 if executable else 0o644)

    def add_bytes(self, arc, data, executable=False):
        self.entries[arc] = ("bytes", data, 0o755 if executable else 0o644)

    def add_symlink(self, arc, target):
        self.entries[arc] = ("link", target, 0o777)

    def add_tree(self, arc_dir, src_dir, files):
        for rel in files:
            self.add_file(f"{arc_dir}/{rel}", os.path.join(src_dir, rel))

    def elf_sources(self):
        return [(arc, e[1]) for arc, e in sorted(self.entries.items())
                if e[0] == "file" and elf_deps.is_elf(e[1])]


def read_cache(build_dir):
    cache = {}
    with open(os.path.join(build_dir, "CMakeCache.txt")) as f:
        for line in f:
            m = re.match(r"^([A-Za-z_0-9]+):[A-Z]+=(.*)$", line.rstrip("\n"))
            if m:
                cache[m.group(1)] = m.group(2)
    return cache


def build_config(build_dir):
    with open(os.path.join(build_dir, "generated/tide/detail/build_config.h")) as f:
        return dict(re.findall(r'#define (TIDE_\w+) "?([^"\n]*)"?', f.read()))


def git(*args):
    r = subprocess.run(["git", "-C", REPO, *args], capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else None


def tracked(subdir, pattern=None):
    """Files below subdir (relative to it) as the commit has them: git's list where there is
    one (an untracked file is not the commit's), else the directory's."""
    out = git("ls-files", "-z", "--", subdir)
    if out is not None:
        files = [p[len(subdir) + 1:] for p in out.split("\0") if p]
    else:
        root = os.path.join(REPO, subdir)
        files = [os.path.relpath(os.path.join(d, n), root) for d, _, ns in os.walk(root) for n in ns]
    return sorted(f for f in files if not pattern or re.search(pattern, f))


def ompi_paths(mpiexec):
    """Open MPI's install directories, from the ompi_info beside mpiexec."""
    ompi_info = os.path.join(os.path.dirname(os.path.realpath(mpiexec)), "ompi_info")
    out = subprocess.run([ompi_info, "--path", "all", "--parsable"], capture_output=True,
                         text=True, check=True).stdout
    return dict(re.findall(r"^path:(\w+):(.*)$", out, re.M))


def add_mpi(contents, mpiexec):
    """Open MPI's programs, plugins, help files and configuration, in its layout below its
    prefix, under mpi/ (OPAL_PREFIX relocates it; OPAL_SYSCONFDIR the configuration)."""
    paths = ompi_paths(mpiexec)
    prefix = paths["prefix"]

    def below_prefix(key):
        rel = os.path.relpath(paths[key], prefix)
        if rel.startswith(".."):
            raise ValueError(f"[gpu-bundle] expected Open MPI's {key} below its prefix {prefix}, "
                             f"found {paths[key]}")
        return "mpi/" + rel

    bindir = os.path.dirname(os.path.realpath(mpiexec))
    for program in MPI_PROGRAMS:
        contents.add_file(f"mpi/bin/{program}", os.path.join(bindir, program))
    for alias in ("mpirun", "mpiexec"):
        contents.add_symlink(f"mpi/bin/{alias}", "orterun")
    plugins = below_prefix("pkglibdir")
    for name in sorted(os.listdir(paths["pkglibdir"])):
        path = os.path.join(paths["pkglibdir"], name)
        if name.endswith(".so") and not any(MPI_PLUGIN_EXCLUDES.match(n) for n in elf_deps.needed(path)):
            contents.add_file(f"{plugins}/{name}", path, executable=False)
    data = below_prefix("pkgdatadir")
    for dirpath, _, names in os.walk(paths["pkgdatadir"]):
        for name in names:
            path = os.path.join(dirpath, name)
            contents.add_file(f"{data}/{os.path.relpath(path, paths['pkgdatadir'])}", path)
    for name in ("openmpi-mca-params.conf", "openmpi-default-hostfile"):
        path = os.path.join(paths["sysconfdir"], name)
        if os.path.exists(path):
            contents.add_file(f"mpi/etc/{name}", path)
    add_pmix(contents, os.path.join(paths["pkglibdir"], "mca_pmix_ext3x.so"))
    return plugins


def add_pmix(contents, ext_plugin):
    """PMIx's own plugins and help files (Open MPI's launcher runs a PMIx server), in its
    layout under mpi/pmix/ (run_env's PMIX_* relocate it). Debian's pmix-mca-params.conf is
    left out: all it does is point the plugin path at /usr."""
    libpmix = dict(elf_deps.resolve(ext_plugin)).get("libpmix.so.2") if os.path.exists(ext_plugin) else None
    if not libpmix:
        return
    prefix = os.path.dirname(os.path.dirname(os.path.realpath(libpmix)))
    for sub in ("lib/pmix", "share/pmix"):
        top = os.path.join(prefix, sub)
        for dirpath, _, names in os.walk(top):
            for name in names:
                path = os.path.join(dirpath, name)
                contents.add_file(f"mpi/pmix/{sub}/{os.path.relpath(path, top)}", path,
                                  executable=False)


def add_libraries(contents):
    """Every library the bundle's ELF files load (ldd, transitively) that the machine does not
    provide, into lib/ under its soname. Returns the machine's libraries they name."""
    machine = set()
    for _, src in contents.elf_sources():
        for soname, where in elf_deps.resolve(src):
            if machine_library_kind(soname):
                machine.add(soname)
            elif where is None:
                raise FileNotFoundError(f"[gpu-bundle] expected {src}'s library {soname} to "
                                        "resolve here, found it missing; install it first")
            elif f"lib/{soname}" not in contents.entries:
                contents.add_file(f"lib/{soname}", where, executable=False)
    return sorted(machine)


def dlopened_cuda_libraries(path):
    """The CUDA libraries `path` opens with dlopen instead of naming them in DT_NEEDED (libtide's
    cuBLAS: Note [cuBLAS loaded at first use]) and, found through its RUNPATH, the CUDA
    libraries those need (cuBLASLt), so that the GPU machine's unpack stage looks for them
    too. The sonames are strings in the file."""
    with open(path, "rb") as f:
        data = f.read()
    names = {m.decode() for m in re.findall(rb"lib[A-Za-z]+\.so\.[0-9]+", data)}
    opened = {n for n in names if machine_library_kind(n) == "cuda"}
    runpath = re.findall(r"\((?:RUNPATH|RPATH)\)\s+Library r(?:un)?path: \[([^\]]*)\]",
                         elf_deps.readelf(["-d"], path))
    dirs = [d for entry in runpath for d in entry.split(":") if d]
    found = set(opened)
    for soname in opened:
        where = next((os.path.join(d, soname) for d in dirs
                      if os.path.exists(os.path.join(d, soname))), None)
        if where:
            found |= {s for s, _ in elf_deps.resolve(where) if machine_library_kind(s) == "cuda"}
    return found


def idx_slice(path, count):
    """The first `count` items of a gzip IDX file (header's count rewritten), gzip again with
    no name or time in it."""
    with gzip.open(path, "rb") as f:
        data = f.read()
    dims = data[3]
    shape = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(dims)]
    item = 1
    for d in shape[1:]:
        item *= d
    header = data[:4] + min(count, shape[0]).to_bytes(4, "big") + data[8:4 + 4 * dims]
    body = data[4 + 4 * dims:4 + 4 * dims + min(count, shape[0]) * item]
    out = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0, compresslevel=9) as g:
        g.write(header + body)
    return out.getvalue()


def add_fashion_slice(contents, source=FASHION_MNIST):
    for prefix, count in FASHION_SLICE.items():
        for kind in ("images-idx3", "labels-idx1"):
            name = f"{prefix}-{kind}-ubyte.gz"
            contents.add_bytes(f"data/fashion-mnist/{name}", idx_slice(os.path.join(source, name), count))


def nanobind_wheel(cache_dir):
    """nanobind's wheel (pure Python: its C++ sources and CMake files), downloaded once."""
    os.makedirs(cache_dir, exist_ok=True)
    version = NANOBIND.split("==")[1]
    wheel = os.path.join(cache_dir, f"nanobind-{version}-py3-none-any.whl")
    if os.path.exists(wheel):
        return wheel
    # The Python tests' venv where it exists (its pip is certain), else the system's pip.
    for python in (os.path.join(REPO, "build/venv/bin/python"), "python3", "/usr/bin/python3"):
        r = subprocess.run([python, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
                            "--no-deps", "--only-binary=:all:", "-d", cache_dir, NANOBIND],
                           capture_output=True, text=True) if shutil.which(python) else None
        if r is not None and r.returncode == 0 and os.path.exists(wheel):
            return wheel
    raise FileNotFoundError(f"[gpu-bundle] expected pip to download {NANOBIND} into {cache_dir}, "
                            f"found no pip that could{': ' + r.stderr.strip() if r else ''}; "
                            "install python3-pip (scripts/install-deps)")


def add_python(contents, build_dir, cache_dir):
    contents.add_tree("python/src", os.path.join(REPO, "python/src"), tracked("python/src"))
    contents.add_tree("python/tide", os.path.join(REPO, "python/tide"), tracked("python/tide", r"\.py$"))
    contents.add_tree("python/include", os.path.join(REPO, "include"), tracked("include"))
    contents.add_tree("python/internal", os.path.join(REPO, "src"), tracked("src", r"\.h$"))
    contents.add_file("python/CMakeLists.txt",
                      os.path.join(REPO, "scripts/gpu_check/bundle_python/CMakeLists.txt"))
    with zipfile.ZipFile(nanobind_wheel(cache_dir)) as whl:
        for name in sorted(whl.namelist()):
            if name.startswith("nanobind/") and not name.endswith("/"):
                contents.add_bytes(f"python/{name}", whl.read(name))


def add_fixtures(contents):
    """What the bundled tests read: tests/fixtures, and the scripts beside their sources."""
    contents.add_tree("fixtures/data", os.path.join(REPO, "tests/fixtures"), tracked("tests/fixtures"))
    for binary in TEST_BINARIES:
        d = re.sub(r"^tide_|(_mpi)?_tests$", "", binary)
        for rel in tracked(f"tests/{d}", r"^[^/]+\.py$"):
            contents.add_file(f"fixtures/source/{d}/{rel}", os.path.join(REPO, "tests", d, rel))


def needs(contents):
    """MANIFEST's needs and needs_by_file: the newest symbol version of each family that the
    bundle (and each of its files) asks of the libraries the machine provides (Note
    [Machine's libraries]), so the machine can say which files it cannot load."""
    asked, by_file = {}, {}
    for arc, src in contents.elf_sources():
        mine = set()
        for soname, versions in elf_deps.version_needs(src).items():
            if machine_library_kind(soname) in ("glibc", "compiler runtime"):
                asked.setdefault(soname, set()).update(versions)
                mine.update(versions)
        by_file[arc] = sorted(elf_deps.newest(mine).values())
    return ({soname: sorted(elf_deps.newest(v).values()) for soname, v in sorted(asked.items())},
            by_file)


def benchmark_headers():
    """Google Benchmark's include folder (the torch side compiles against the same headers as
    the bundled library), from the build's cache or the usual place."""
    for d in ("/usr/include", "/usr/local/include"):
        if os.path.exists(os.path.join(d, "benchmark", "benchmark.h")):
            return os.path.join(d, "benchmark")
    raise FileNotFoundError("[gpu-bundle] expected Google Benchmark's headers (benchmark/benchmark.h) "
                            "in /usr/include, found none; install libbenchmark-dev")


def add_bench(contents, build_dir):
    """The GPU bench: the tide side's program in bin/, and under bench/ what the torch side
    needs to be compiled on the GPU machine (scripts/gpu_check/torch_side.py): its sources,
    Google Benchmark's headers and library, the raw kernels prebuilt; and the Python scripts
    of the Python step and the training-loop comparison. False when the build has no bench."""
    binary = os.path.join(build_dir, "bench/vs_torch", BENCH_BINARY)
    raw = os.path.join(build_dir, "bench/vs_torch/libtide_vs_torch_raw_kernels.a")
    if not (os.path.exists(binary) and os.path.exists(raw)):
        return False
    contents.add_file(f"bin/{BENCH_BINARY}", binary)
    contents.add_file("bench/lib/libtide_vs_torch_raw_kernels.a", raw, executable=False)
    for name in BENCH_SOURCES:
        contents.add_file(f"bench/src/{name}", os.path.join(REPO, "bench/vs_torch", name), executable=False)
    for name in BENCH_SCRIPTS:
        contents.add_file(f"bench/{name}", os.path.join(REPO, "bench/vs_torch", name))
    headers = benchmark_headers()
    for name in sorted(os.listdir(headers)):
        contents.add_file(f"bench/include/benchmark/{name}", os.path.join(headers, name), executable=False)
    libbenchmark = dict(elf_deps.resolve(binary)).get("libbenchmark.so.1debian")
    if not libbenchmark:
        raise FileNotFoundError(f"[gpu-bundle] expected {binary} to load libbenchmark.so.1debian, "
                                "found it does not (another Google Benchmark?)")
    contents.add_file("bench/lib/libbenchmark.so.1debian", libbenchmark, executable=False)
    return True


def write_tar(contents, output, mtime):
    """A .tar.xz of contents under TOP/, reproducibly."""
    tmp = output + ".tmp"
    with lzma.open(tmp, "wb", check=lzma.CHECK_CRC64, filters=XZ_FILTERS) as xz, \
            tarfile.open(fileobj=xz, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for arc in sorted(contents.entries):
            kind, value, mode = contents.entries[arc]
            info = tarfile.TarInfo(f"{TOP}/{arc}")
            info.mtime, info.uid, info.gid, info.uname, info.gname = mtime, 0, 0, "", ""
            info.mode = mode
            if kind == "link":
                info.type, info.linkname = tarfile.SYMTYPE, value
                tar.addfile(info)
                continue
            if kind == "file":
                with open(value, "rb") as f:
                    value = f.read()
            info.size = len(value)
            tar.addfile(info, io.BytesIO(value))
    os.replace(tmp, output)


def build(build_dir, log):
    """Builds the bundle's targets in build_dir (configured with the ci preset when missing);
    ninja does nothing when they are up to date."""
    if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
        if os.path.abspath(build_dir) != os.path.join(REPO, "build", "ci"):
            raise FileNotFoundError(f"[gpu-bundle] expected a configured build in {build_dir}; "
                                    "configure it, or use build/ci (the ci preset)")
        subprocess.run(["cmake", "--preset", "ci"], cwd=REPO, check=True)
    jobs = os.environ.get("TIDE_JOBS") or str(os.cpu_count())
    targets = TARGETS + (BENCH_TARGETS if read_cache(build_dir).get("TIDE_BENCH_TORCH_GPU") == "ON"
                         and build_config(build_dir).get("TIDE_BUILT_WITH_CUDA") == "1" else [])
    log(f"gpu-bundle: building {' '.join(targets)} in {build_dir}")
    subprocess.run(["cmake", "--build", build_dir, "-j", jobs, "--target", *targets], check=True)


def pack(build_dir, output, cache_dir, log=print):
    build_dir = os.path.abspath(build_dir)
    cache = read_cache(build_dir)
    config = build_config(build_dir)
    contents = Contents()
    tests_dir = os.path.join(build_dir, "tests")
    contents.add_file("bin/tide", os.path.join(build_dir, "tools/tide/tide"))
    binaries = [os.path.join(tests_dir, b) for b in TEST_BINARIES + OTHER_BINARIES]
    for path in binaries:
        contents.add_file(f"bin/{os.path.basename(path)}", path)
    contents.add_file("lib/libtide.so.0", os.path.join(build_dir, "src/libtide.so.0"), executable=False)
    with_bench = add_bench(contents, build_dir)
    mpiexec = cache.get("MPIEXEC_EXECUTABLE")
    add_mpi(contents, mpiexec)
    machine = sorted(set(add_libraries(contents))
                     | dlopened_cuda_libraries(os.path.join(build_dir, "src/libtide.so.0")))

    ctest = subprocess.run(["ctest", "--test-dir", build_dir, "--show-only=json-v1"],
                           capture_output=True, text=True, check=True).stdout
    tests = from_ctest(json.loads(ctest), binaries, build_dir, REPO, mpiexec=mpiexec)
    contents.add_bytes(TESTS, (json.dumps({"tests": tests}, indent=0) + "\n").encode())
    add_fixtures(contents)
    add_fashion_slice(contents)
    add_python(contents, build_dir, cache_dir)

    wanted, wanted_by_file = needs(contents)
    commit = git("rev-parse", "HEAD")
    dirty = bool(git("status", "--porcelain", "--untracked-files=no"))
    manifest = {
        "format": 1, "commit": commit, "dirty": dirty,
        "cuda": config.get("TIDE_BUILT_WITH_CUDA") == "1",
        "cuda_architectures": cache.get("CMAKE_CUDA_ARCHITECTURES"),
        "build_type": config.get("TIDE_BUILD_TYPE"), "compiler": config.get("TIDE_COMPILER"),
        "machine_libraries": machine, "needs": wanted, "needs_by_file": wanted_by_file,
        "tests": len(tests), "files": len(contents.entries) + 1, "bench": with_bench,
    }
    contents.add_bytes(MANIFEST, (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode())
    present = {os.path.basename(arc) for arc in contents.entries if arc.startswith("lib/")}
    missing = [f"{arc}: {soname}" for arc, src in contents.elf_sources()
               for soname in elf_deps.needed(src)
               if soname not in present and not machine_library_kind(soname)]
    if missing:
        raise FileNotFoundError("[gpu-bundle] expected every library in the bundle, found missing: "
                                + ", ".join(missing))
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    mtime = int(os.environ.get("SOURCE_DATE_EPOCH") or git("log", "-1", "--format=%ct") or 0)
    write_tar(contents, output, mtime)
    return manifest, contents
