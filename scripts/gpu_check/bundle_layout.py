"""The GPU bundle's layout (Note [GPU bundle]): where each part lives inside it, the libraries
it leaves to the GPU machine, and the environment its programs run in."""
import os
import re

# Note [GPU bundle]: what a GPU machine runs, built here (scripts/gpu-bundle pack) from the ci
# preset's build (release, CUDA for sm_90) and carried as one file, so that its scarce time
# goes to running, not building. Everything sits under one top folder:
#   MANIFEST.json  the commit, the build, what the bundle needs of the machine (below)
#   tests.json     ctest's tests of the bundled binaries, every configuration, with their
#                  environment and properties, paths written as {bundle}/...
#   bin/           the tide CLI, the device test binaries, the mpirun tests, the training-loop
#                  reference of tests/python
#   lib/           libtide and every shared library the above need that a GPU machine may
#                  lack (OpenBLAS, fmt, libdw/libelf, zlib, libgomp, Open MPI's, ...)
#   mpi/           Open MPI's programs, plugins, help files and configuration in Debian's
#                  layout below a prefix; OPAL_PREFIX (and OPAL_SYSCONFDIR, which Debian sets
#                  outside the prefix) relocate it there; mpi/pmix/ likewise for PMIx
#   python/        the extension's sources and headers, tide's Python modules and nanobind's
#                  wheel: the GPU machine's Python (3.12) differs from Debian's (3.11), so _C is
#                  compiled there against the prebuilt libtide (python/CMakeLists.txt)
#   data/          a slice of Fashion-MNIST (6000 training, 1000 test images) for tide train
#   fixtures/      the files the bundled tests read (TIDE_TEST_DATA_DIR, TIDE_TEST_SOURCE_DIR)
#   bench/         the GPU bench against torch (Note [Two processes] in
#                  bench/vs_torch/torch_gpu_bench.cpp; bin/ has its prebuilt tide side): the
#                  torch side's sources (src/), Google Benchmark's headers (include/) and library
#                  and the raw kernels prebuilt (lib/), the Python step and training-loop scripts
# Not packed: the CUDA libraries, too large to carry and on every GPU machine (its toolkit or
# its PyTorch's nvidia-* packages; the run finds them and puts them on LD_LIBRARY_PATH), glibc,
# and the compiler's runtime (libstdc++, libgcc_s: a machine with nvcc and torch has them, and a
# bundled older libstdc++ first on LD_LIBRARY_PATH would break torch's newer extensions in the
# same process; the run checks the symbol versions instead, Note [Machine's libraries]).

TOP = "tide-gpu-bundle"
DEFAULT_DIR = ".gpu-bundle"
DEFAULT_NAME = "tide-gpu-bundle.tar.xz"
MANIFEST = "MANIFEST.json"
TESTS = "tests.json"
PLACEHOLDER = "{bundle}"

TEST_BINARIES = ["tide_runtime_tests", "tide_device_tests", "tide_pinned_tests",
                 "tide_memory_device_tests", "tide_serialize_tests", "tide_distributed_mpi_tests"]
OTHER_BINARIES = ["tide_train_loop_reference"]
MPI_PROGRAMS = ["orterun", "orted", "ompi_info"]
FASHION_SLICE = {"train": 6000, "t10k": 1000}
BENCH_BINARY = "tide_vs_torch_gpu_bench"
# What torch_side.py compiles on the GPU machine, and the headers those files include.
BENCH_SOURCES = ["torch_gpu_bench.cpp", "torch_cases.cpp", "torch_train_cases.cpp", "cases.h",
                 "counters.h", "raw_cuda.h", "raw_kernels.h", "mlp_step.h"]
BENCH_SCRIPTS = ["python_step.py", "torch_train_loop.py"]

# Note [Machine's libraries]: the shared libraries a bundled file may need without the bundle
# holding them. The CUDA family comes from the GPU machine; glibc and the compiler runtime too,
# checked by symbol version (MANIFEST.json's "needs": the newest GLIBC_, GLIBCXX_, CXXABI_ and
# GCC_ versions the bundle asks for).
MACHINE_LIBRARIES = {
    "cuda": re.compile(r"^lib(cuda|cudart|cublas|cublasLt|nccl|cudnn\w*|cupti|nvrtc|nvJitLink|"
                       r"nvidia-ml)\.so(\.\d+)*$"),
    "glibc": re.compile(r"^(libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|"
                        r"libutil\.so\.1|libresolv\.so\.2|ld-linux-x86-64\.so\.2|"
                        r"linux-vdso\.so\.1)$"),
    "compiler runtime": re.compile(r"^(libstdc\+\+\.so\.6|libgcc_s\.so\.1)$"),
}


def machine_library_kind(soname):
    """'cuda', 'glibc' or 'compiler runtime' for a library the machine provides, else None."""
    name = os.path.basename(soname)
    for kind, pattern in MACHINE_LIBRARIES.items():
        if pattern.match(name):
            return kind
    return None


def run_env(root, cuda_dirs=(), base=None):
    """The environment bundled programs run in: the bundle's libraries first, then the
    machine's CUDA libraries; Open MPI relocated into the bundle; its mpirun first on PATH."""
    env = dict(base if base is not None else os.environ)
    env["LD_LIBRARY_PATH"] = os.pathsep.join([os.path.join(root, "lib"), *cuda_dirs])
    # Open MPI and the PMIx and hwloc it loads would read plugins and settings from their
    # build-time folders under /usr (a GPU machine may hold other versions there): OPAL_* and
    # PMIX_* point each at the bundle's copies (PMIx needs each folder named), and hwloc's
    # optional plugins (PCI, OpenCL, GL, XML) are left out.
    env["OPAL_PREFIX"] = os.path.join(root, "mpi")
    env["OPAL_SYSCONFDIR"] = os.path.join(root, "mpi", "etc")
    pmix = os.path.join(root, "mpi", "pmix")
    for var, sub in (("PREFIX", ""), ("LIBDIR", "lib"), ("PKGLIBDIR", "lib/pmix"),
                     ("DATADIR", "share"), ("PKGDATADIR", "share/pmix"), ("SYSCONFDIR", "etc")):
        env[f"PMIX_{var}"] = os.path.join(pmix, sub) if sub else pmix
    env["HWLOC_PLUGINS_PATH"] = os.path.join(root, "mpi", "hwloc-plugins")
    env["PATH"] = os.pathsep.join([os.path.join(root, "mpi", "bin"),
                                   env.get("PATH") or "/usr/bin:/bin"])
    # Read at run time by the tests that open fixtures (their build-time paths point into the
    # tree the bundle was built from).
    env["TIDE_TEST_DATA_DIR"] = os.path.join(root, "fixtures", "data")
    env["TIDE_TEST_SOURCE_DIR"] = os.path.join(root, "fixtures", "source")
    return env


def expand(value, root):
    return value.replace(PLACEHOLDER, root)
