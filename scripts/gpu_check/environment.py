"""The env stage (what the machine has: device, driver, CUDA, torch, tools, cpu, commit) and
the deps stage (unpacking .gpu-deps/debs when the build's tools or -dev packages are missing)."""
import os
import shutil

from .commands import REPO, first_line_matching, run, tail
from .machine import cpu_description, tool_version
from .stage_io import fail, now_iso, skip


def stage_env(check, figures):
    figures["gpu"] = check.gpu
    figures["nvcc"] = tool_version("nvcc")
    figures["compute_sanitizer"] = tool_version("compute-sanitizer")
    figures["ncu"] = tool_version("ncu")
    figures["torch"] = check.torch
    figures["cpu"] = cpu_description()
    figures["date"] = now_iso()
    figures["commit"] = check.commit
    figures["host"] = os.uname().nodename
    figures["deps_env"] = os.path.exists(os.path.join(REPO, ".gpu-deps/prefix/env.sh"))


def missing_build_deps(check):
    missing = []
    cmake = shutil.which("cmake", path=check.env.get("PATH"))
    if not cmake:
        missing.append("cmake")
    else:
        _, out, _ = run([cmake, "--version"], timeout=30, env=check.env)
        v = first_line_matching(out, r"cmake version (\d+\.\d+)")
        if not v or tuple(map(int, v.split("."))) < (3, 25):
            missing.append(f"cmake >= 3.25 (found {v})")
    if not shutil.which("ninja", path=check.env.get("PATH")):
        missing.append("ninja")
    roots = ["/usr/include", "/usr/local/include", "/usr/include/x86_64-linux-gnu"]
    for prefix in filter(None, check.env.get("CMAKE_PREFIX_PATH", "").split(":")):
        roots += [os.path.join(prefix, "include"),
                  os.path.join(prefix, "include/x86_64-linux-gnu")]
    for header in ["fmt/core.h", "nlohmann/json.hpp", "gtest/gtest.h",
                   "benchmark/benchmark.h", "CLI/CLI.hpp", "elfutils/libdwfl.h"]:
        if not any(os.path.exists(os.path.join(r, header)) for r in roots):
            missing.append(header)
    cblas = [os.path.join(r, sub, "cblas.h") for r in roots
             for sub in ("", "openblas-pthread", "openblas")]
    if not any(os.path.exists(p) for p in cblas):
        missing.append("cblas.h")
    return missing


def stage_deps(check, figures):
    missing = missing_build_deps(check)
    figures["missing_before"] = missing
    if not missing:
        skip("cmake, ninja and tide's -dev packages are present"
             + (" (from .gpu-deps/prefix/env.sh)" if "TIDE_GPU_DEPS_CMAKE_ARGS" in check.env else ""))
    debs = os.path.join(REPO, ".gpu-deps", "debs")
    if not os.path.isdir(os.path.join(debs, "deps")):
        fail(f"missing {', '.join(missing)} and no .gpu-deps/debs to unpack (run "
             "`scripts/gpu-deps download` where apt works and carry .gpu-deps/debs)")
    rc, out, timed_out = run([os.path.join(REPO, "scripts/gpu-deps"), "unpack"],
                             check.log("deps"), check.timeout("deps"))
    if rc != 0:
        fail(f"scripts/gpu-deps unpack: {'timed out' if timed_out else f'exit {rc}'}: {tail(out, 3)}")
    if not check.load_deps_env():
        fail("could not source .gpu-deps/prefix/env.sh")
    still = missing_build_deps(check)
    figures["missing_after"] = still
    if still:
        fail(f"still missing after unpacking: {', '.join(still)}")
