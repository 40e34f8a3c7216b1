"""The torch side of the GPU bench (Note [Two processes] in bench/vs_torch/torch_gpu_bench.cpp),
compiled on the GPU machine against its torch: three translation units from the bundle's
bench/src, linked with the bundle's prebuilt raw kernels and Google Benchmark, torch's
libraries and the machine's CUDA runtime. No CMake: the compiler is called directly with the
paths torch's package gives (its headers under torch/include, its libraries under torch/lib),
so only a C++ compiler is needed there. Against a torch without CUDA (Debian's, where the
harness is proven) only the main file is built, and the program says it skipped."""
import concurrent.futures
import glob
import json
import os
import shutil
import time

from .commands import run, tail

BINARY = "torch_side_gpu_bench"
CUDA_SOURCES = ["torch_cases.cpp", "torch_train_cases.cpp"]
MAIN = "torch_gpu_bench.cpp"
# Everything from torch but its C++ headers' location, asked of the python that has it;
# torch.utils.cpp_extension is not imported (it needs setuptools, which a venv may lack).
TORCH_PROBE = r"""
import glob, json, os, site, sys
import torch
d = os.path.dirname(torch.__file__)
nvidia = []
for s in site.getsitepackages() + [site.getusersitepackages()]:
    nvidia += sorted(glob.glob(os.path.join(s, "nvidia", "*", "include")))
print(json.dumps({"version": torch.__version__, "cuda": torch.version.cuda,
                  "cxx11_abi": bool(torch._C._GLIBCXX_USE_CXX11_ABI), "dir": d,
                  "include": [os.path.join(d, "include"),
                              os.path.join(d, "include", "torch", "csrc", "api", "include")],
                  "lib": os.path.join(d, "lib"), "nvidia_include": nvidia,
                  "cuda_available": torch.cuda.is_available()}))
"""


def probe(python, env=None):
    """torch's version, CUDA, ABI and paths from `python`, or {"error": why}.
    TIDE_BENCH_TORCH_INCLUDE names the folder of torch's C++ headers where the package has
    none of its own (Debian's python3-torch links them to libtorch-dev's /usr/include)."""
    rc, out, _ = run([python, "-c", TORCH_PROBE], timeout=120, env=env)
    try:
        info = json.loads(out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {"error": f"{python} cannot import torch: {tail(out, 2)}"}
    override = (env or os.environ).get("TIDE_BENCH_TORCH_INCLUDE")
    if override:
        info["include"] = [override, os.path.join(override, "torch", "csrc", "api", "include")]
    info["headers"] = os.path.exists(os.path.join(info["include"][0], "torch", "script.h"))
    return info


def cuda_include(info, env):
    """The folder holding cuda_runtime_api.h: the toolkit's, else torch's nvidia-* packages'."""
    homes = [env.get("CUDA_HOME"), env.get("CUDA_PATH"), "/usr/local/cuda"]
    homes += sorted(glob.glob("/usr/local/cuda-*"), reverse=True)
    candidates = [os.path.join(h, "include") for h in homes if h] + info.get("nvidia_include", [])
    return next((d for d in candidates if os.path.exists(os.path.join(d, "cuda_runtime_api.h"))), None)


def cudart(cuda_dirs):
    """The machine's libcudart.so.N (linked by path: a machine without the toolkit has no
    unversioned libcudart.so), or None."""
    for d in cuda_dirs:
        found = sorted(glob.glob(os.path.join(d, "libcudart.so.[0-9]*")), key=len)
        if found:
            return found[0]
    return None


def build(root, out_dir, python, cuda_dirs, log, timeout, env, jobs=4, check_cuda_sources=False):
    """Builds out_dir/torch_side_gpu_bench from the bundle at root. Returns a dict: binary
    (None when not built), why (when not), torch (probe), cuda (built with CUDA), seconds,
    compiles ([file, seconds, rc]). check_cuda_sources: with a torch without CUDA, also
    compile the CUDA sources without linking them (a check that they build against it)."""
    start = time.monotonic()
    result = {"binary": None, "compiles": [], "torch": probe(python, env)}
    info = result["torch"]
    if info.get("error"):
        return dict(result, why=info["error"], seconds=round(time.monotonic() - start, 1))
    if not info["headers"]:
        return dict(result, why=f"torch {info['version']} ships no C++ headers ({info['include'][0]}; "
                                "TIDE_BENCH_TORCH_INCLUDE names them where they are elsewhere)",
                    seconds=round(time.monotonic() - start, 1))
    cxx = env.get("CXX") or shutil.which("c++", path=env.get("PATH")) or shutil.which("g++", path=env.get("PATH"))
    if not cxx:
        return dict(result, why="no C++ compiler (CXX, c++, g++) on PATH",
                    seconds=round(time.monotonic() - start, 1))
    if not info["cxx11_abi"]:
        return dict(result, why=f"torch {info['version']} uses the pre-C++11 string ABI; the bundle's "
                                "Google Benchmark uses the C++11 one", seconds=round(time.monotonic() - start, 1))
    bench = os.path.join(root, "bench")
    src = os.path.join(bench, "src")
    with_cuda = bool(info.get("cuda"))
    cuda_inc = cuda_include(info, env)
    runtime = cudart(cuda_dirs)
    if with_cuda and (not cuda_inc or not runtime):
        return dict(result, why=f"torch {info['version']} has CUDA {info['cuda']} but "
                                f"{'cuda_runtime_api.h' if not cuda_inc else 'libcudart.so.N'} was not "
                                "found (toolkit, CUDA_HOME, torch's nvidia-* packages)",
                    seconds=round(time.monotonic() - start, 1))
    os.makedirs(out_dir, exist_ok=True)
    stub = os.path.join(out_dir, "stubs")
    # A cpu-only torch ships c10/cuda's headers but not the one its CUDA build generates.
    os.makedirs(os.path.join(stub, "c10", "cuda", "impl"), exist_ok=True)
    with open(os.path.join(stub, "c10", "cuda", "impl", "cuda_cmake_macros.h"), "w") as f:
        f.write("#pragma once\n#define C10_CUDA_BUILD_SHARED_LIBS\n")
    # C++20 as tide's own build compiles these files (newer torch headers may ask for it too).
    flags = ["-std=c++20", "-O2", "-DNDEBUG", "-fPIC", "-w", "-D_GLIBCXX_USE_CXX11_ABI=1",
             f'-DTIDE_BENCH_TORCH_VERSION="{info["version"]}"',
             f"-DTIDE_BENCH_TORCH_CUDA={1 if with_cuda else 0}",
             "-I", src, "-I", os.path.join(bench, "include")]
    for d in info["include"]:
        flags += ["-isystem", d]
    if cuda_inc:
        flags += ["-isystem", cuda_inc]
    if not with_cuda:
        flags += ["-isystem", stub]
    units = [MAIN] + (CUDA_SOURCES if with_cuda else [])
    # The CUDA build's files (main's CUDA branch included), compiled without linking.
    checks = [MAIN] + CUDA_SOURCES if (check_cuda_sources and not with_cuda and cuda_inc) else []

    def compile_one(name, syntax_only=False):
        t = time.monotonic()
        obj = os.path.join(out_dir, name + ".o")
        cmd = [cxx, *flags, "-c", os.path.join(src, name), "-o", obj]
        if syntax_only:
            cmd = [cxx, *flags, "-UTIDE_BENCH_TORCH_CUDA", "-DTIDE_BENCH_TORCH_CUDA=1",
                   "-fsyntax-only", os.path.join(src, name)]
        rc, out, timed_out = run(cmd, log, timeout, env=env)
        return name, round(time.monotonic() - t, 1), rc if not timed_out else "timed out", out

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(compile_one, n) for n in units]
        futures += [pool.submit(compile_one, n, True) for n in checks]
        done = [f.result() for f in futures]
    result["compiles"] = [[n + (" (CUDA, syntax)" if i >= len(units) else ""), s, rc]
                          for i, (n, s, rc, _) in enumerate(done)]
    failed = [(n, rc, out) for n, _, rc, out in done if rc != 0]
    if failed:
        n, rc, out = failed[0]
        return dict(result, why=f"compiling {n}: {rc}: {tail(out, 4)}", seconds=round(time.monotonic() - start, 1))
    binary = os.path.join(out_dir, BINARY)
    libs = [os.path.join(bench, "lib", "libbenchmark.so.1debian")]
    torch_libs = ["-ltorch", "-ltorch_cpu", "-lc10"]
    rpath = [info["lib"], os.path.join(bench, "lib")]
    if with_cuda:
        libs.insert(0, os.path.join(bench, "lib", "libtide_vs_torch_raw_kernels.a"))
        # torch_cuda registers torch's CUDA kernels when it loads: nothing here names it, so a
        # linker with --as-needed would drop it and torch would see no CUDA backend.
        torch_libs = ["-ltorch", "-ltorch_cuda", "-ltorch_cpu", "-lc10_cuda", "-lc10"]
        libs.append(runtime)
        rpath.append(os.path.dirname(runtime))
    # --allow-shlib-undefined: torch's libraries find theirs (the nvidia-* packages) through
    # their own $ORIGIN-relative paths at run time; the link need not resolve them again.
    # --exclude-libs: the GPU machine's g++ (/opt/gcc) links part of libstdc++ statically; an
    # executable exports what the shared libraries it links reference, so torch's libraries
    # would bind part of their std:: calls into that copy (Note [The extension exports nothing
    # but PyInit__C] in python/CMakeLists.txt: what crashed tide's extension there).
    link = [cxx, *[os.path.join(out_dir, n + ".o") for n in units], "-o", binary,
            "-L", info["lib"], "-Wl,--allow-shlib-undefined", "-Wl,--exclude-libs,ALL",
            "-Wl,--no-as-needed", *torch_libs, "-Wl,--as-needed", *libs,
            *[f"-Wl,-rpath,{d}" for d in rpath], "-lpthread", "-ldl"]
    t = time.monotonic()
    rc, out, timed_out = run(link, log, timeout, env=env)
    result["compiles"].append(["link", round(time.monotonic() - t, 1), rc if not timed_out else "timed out"])
    result.update(cuda=with_cuda, seconds=round(time.monotonic() - start, 1), compiler=cxx)
    if rc != 0 or timed_out:
        return dict(result, why=f"linking: {'timed out' if timed_out else rc}: {tail(out, 4)}")
    result["binary"] = binary
    return result
