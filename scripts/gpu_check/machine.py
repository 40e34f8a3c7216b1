"""Probes of the machine the check runs on: nvidia-smi's GPUs, the python's torch, the CUDA
tools' versions, the cpu, the commit. The env stage records them; others decide by them."""
import json
import os
import shutil

from .commands import find_tool, first_line_matching, run, tail


def probe_gpu():
    """nvidia-smi's view: {present, name, driver, compute_cap, memory_mib, memory_clock_mhz,
    cuda_driver} or {present: False, reason}."""
    smi = shutil.which("nvidia-smi")
    if not smi:
        return {"present": False, "reason": "no NVIDIA GPU (nvidia-smi not found)"}
    rc, out, _ = run([smi, "--query-gpu=name,driver_version,compute_cap,memory.total,"
                      "clocks.max.memory", "--format=csv,noheader,nounits"], timeout=60)
    rows = [r for r in out.strip().splitlines() if r.strip()]
    if rc != 0 or not rows:
        return {"present": False, "reason": f"no NVIDIA GPU (nvidia-smi: {tail(out, 2) or f'exit {rc}'})"}
    gpus = []
    for row in rows:
        f = [x.strip() for x in row.split(",")]
        f += [""] * (5 - len(f))
        gpus.append({"name": f[0], "driver": f[1], "compute_cap": f[2],
                     "memory_mib": f[3], "memory_clock_mhz": f[4]})
    _, plain, _ = run([smi], timeout=60)
    info = dict(gpus[0], present=True, count=len(gpus), names=[g["name"] for g in gpus])
    info["cuda_driver"] = first_line_matching(plain, r"CUDA Version:\s*([\d.]+)")
    return info


TORCH_PROBE = r"""
import json, sys
out = {}
try:
    import torch
except Exception as e:
    print(json.dumps({"importable": False, "error": f"{type(e).__name__}: {e}"})); sys.exit(0)
out.update(importable=True, version=torch.__version__, cuda=torch.version.cuda,
           cmake_prefix_path=torch.utils.cmake_prefix_path)
try:
    out["cuda_available"] = torch.cuda.is_available()
    if out["cuda_available"]:
        p = torch.cuda.get_device_properties(0)
        out["device"] = p.name
        clock_khz = getattr(p, "memory_clock_rate", None)
        bus_bits = getattr(p, "memory_bus_width", None)
        if clock_khz and bus_bits:  # double data rate: two transfers a clock
            out["peak_bytes_per_second"] = 2 * clock_khz * 1000 * bus_bits / 8
except Exception as e:
    out["cuda_error"] = f"{type(e).__name__}: {e}"
print(json.dumps(out))
"""


def probe_torch(python):
    rc, out, timed_out = run([python, "-c", TORCH_PROBE], timeout=120)
    if timed_out:
        return {"importable": False, "error": f"{python}: importing torch timed out"}
    try:
        info = json.loads(out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {"importable": False, "error": f"{python}: {tail(out, 3) or f'exit {rc}'}"}
    info["python"] = python
    return info


def torch_has_cuda(torch):
    return bool(torch.get("importable") and torch.get("cuda"))


def describe_torch(torch):
    python = torch.get("python", "python3")
    if not torch.get("importable"):
        return f"absent: {python} cannot import torch ({torch.get('error', '?')})"
    if not torch.get("cuda"):
        return f"{torch['version']} (CPU-only build: torch.version.cuda is None; {python})"
    return f"{torch['version']}, CUDA {torch['cuda']} ({python})"


def git_commit():
    if os.environ.get("TIDE_GPU_CHECK_COMMIT"):
        return os.environ["TIDE_GPU_CHECK_COMMIT"]
    rc, sha, _ = run(["git", "rev-parse", "--short=12", "HEAD"], timeout=30)
    if rc != 0:
        return "unknown (no git; set TIDE_GPU_CHECK_COMMIT)"
    _, dirty, _ = run(["git", "status", "--porcelain", "--untracked-files=no"], timeout=30)
    return sha.strip() + (" (with uncommitted changes)" if dirty.strip() else "")


def tool_version(name):
    path = find_tool(name)
    if not path:
        return None
    _, out, _ = run([path, "--version"], timeout=60)
    # nvcc: "release 13.0, V13.0.88"; compute-sanitizer, ncu: "Version 2025.3.0.0 (build ...)".
    version = (first_line_matching(out, r"\bV(\d+\.\d[\d.]*)")
               or first_line_matching(out, r"Version\s+([^\s,]+)") or tail(out, 1) or "present")
    return f"{version} ({path})"


def cpu_description():
    model = None
    try:
        with open("/proc/cpuinfo") as f:
            model = first_line_matching(f.read(), r"^model name\s*:\s*(.+)$")
        with open("/proc/meminfo") as f:
            kib = int(first_line_matching(f.read(), r"^MemTotal:\s*(\d+)") or 0)
    except OSError:
        kib = 0
    return f"{model or 'unknown cpu'}, {os.cpu_count()} cores, {kib / 2**20:.0f} GiB"
