"""The GPU machine as the bundle meets it (the first step of scripts/gpu-check --bundle): where
its CUDA libraries are (its toolkit, its driver's folder, or its PyTorch's nvidia-* packages),
its glibc and libstdc++ and the symbol versions they define, and whether every file of the
bundle can load there. Python's standard library and ldd only: the machine is not Debian and
may lack binutils."""
import ctypes
import glob
import json
import os
import re
import subprocess

from . import elf_deps
from .bundle_layout import machine_library_kind

CUDA_DIRS = ["/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib",
             "/usr/local/cuda/lib", "/usr/local/nvidia/lib64", "/usr/local/nvidia/lib",
             "/usr/lib/x86_64-linux-gnu", "/usr/lib64"]
SITE_PROBE = "import json, site, sys; print(json.dumps(site.getsitepackages() + [site.getusersitepackages()]))"


def python_site_dirs(python):
    try:
        r = subprocess.run([python, "-c", SITE_PROBE], capture_output=True, text=True, timeout=60)
        return json.loads(r.stdout.strip().splitlines()[-1])
    except (OSError, ValueError, IndexError, subprocess.TimeoutExpired):
        return []


def candidate_dirs(python):
    """Where CUDA libraries may be, in order: the toolkit's and driver's folders (also any
    /usr/local/cuda-X.Y), then the lib folders of python's nvidia-* and torch packages."""
    dirs = list(CUDA_DIRS)
    for versioned in sorted(glob.glob("/usr/local/cuda-*"), reverse=True):
        dirs += [f"{versioned}/lib64", f"{versioned}/targets/x86_64-linux/lib"]
    for site in python_site_dirs(python) if python else []:
        dirs += sorted(glob.glob(os.path.join(site, "nvidia", "*", "lib")))
        dirs += sorted(glob.glob(os.path.join(site, "nvidia", "cu*", "lib")))
        dirs.append(os.path.join(site, "torch", "lib"))
    seen, out = set(), []
    for d in dirs:
        if d not in seen and os.path.isdir(d):
            seen.add(d)
            out.append(d)
    return out


def loader_cache():
    """{soname: path} from ldconfig's cache (what the loader finds with no LD_LIBRARY_PATH)."""
    for ldconfig in ("/sbin/ldconfig", "/usr/sbin/ldconfig", "ldconfig"):
        try:
            out = subprocess.run([ldconfig, "-p"], capture_output=True, text=True, timeout=30).stdout
        except (OSError, subprocess.TimeoutExpired):
            continue
        return dict(re.findall(r"^\s*(\S+) \(libc6,x86-64[^)]*\) => (\S+)$", out, re.M))
    return {}


def find_cuda_libraries(sonames, python):
    """(dirs for LD_LIBRARY_PATH, {soname: where found or 'loader cache'}, [missing]) for the
    CUDA libraries the bundle names, plus libcuda.so.1 (the driver's, which cudart opens)."""
    wanted = sorted({s for s in sonames if machine_library_kind(s) == "cuda"} | {"libcuda.so.1"})
    cache = loader_cache()
    dirs, found, missing = [], {}, []
    candidates = candidate_dirs(python)
    for soname in wanted:
        where = next((d for d in candidates if os.path.exists(os.path.join(d, soname))), None)
        if where:
            found[soname] = os.path.join(where, soname)
            if where not in dirs:
                dirs.append(where)
        elif soname in cache:
            found[soname] = f"{cache[soname]} (loader cache)"
        else:
            missing.append(soname)
    return dirs, found, missing


def loaded_path(soname):
    """Where this process loads soname from (dlopen, then /proc/self/maps), or None."""
    try:
        ctypes.CDLL(soname)
    except OSError:
        return None
    with open("/proc/self/maps") as f:
        for line in f:
            path = line.split()[-1] if len(line.split()) >= 6 else ""
            if os.path.basename(path) == soname or os.path.basename(path).startswith(soname + "."):
                return os.path.realpath(path)
    return None


def machine_runtime():
    """{'glibc': '2.39', 'libc.so.6': {versions}, 'libstdc++.so.6': {versions, path}, ...}."""
    info = {"glibc": (os.confstr("CS_GNU_LIBC_VERSION") or "glibc ?").split()[-1]}
    major_minor = tuple(int(p) for p in re.findall(r"\d+", info["glibc"])[:2]) or (0, 0)
    glibc_versions = {f"GLIBC_2.{m}" for m in range(0, major_minor[1] + 1)} | {"GLIBC_2.2.5"}
    for soname in ("libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2", "librt.so.1",
                   "ld-linux-x86-64.so.2"):
        info[soname] = {"versions": sorted(glibc_versions), "path": None}
    # A library's bytes also hold the names it asks of others (libstdc++'s GLIBC_ ones): keep
    # the families each defines.
    for soname, families in (("libstdc++.so.6", ("GLIBCXX_", "CXXABI_")), ("libgcc_s.so.1", ("GCC_",))):
        path = loaded_path(soname)
        names = elf_deps.defined_versions(path) if path else set()
        info[soname] = {"path": path, "versions": sorted(n for n in names if n.startswith(families))}
    newest = elf_deps.newest(info["libstdc++.so.6"]["versions"])
    info["libstdcxx"] = newest.get("GLIBCXX_", "none")
    return info


def too_new(manifest, runtime):
    """What the machine lacks: ['file: needs GLIBCXX_3.4.30 (newest here GLIBCXX_3.4.29)'],
    from MANIFEST's needs_by_file against the versions the machine's libraries define."""
    have = {}
    for soname, lib in runtime.items():
        if isinstance(lib, dict):
            for family, name in elf_deps.newest(lib["versions"]).items():
                if family not in have or elf_deps.version_key(name)[1] > elf_deps.version_key(have[family])[1]:
                    have[family] = name
    problems = []
    for arc, names in sorted(manifest.get("needs_by_file", {}).items()):
        for name in names:
            family, version = elf_deps.version_key(name)
            if family not in have or version > elf_deps.version_key(have[family])[1]:
                problems.append(f"{arc}: needs {name} (newest here {have.get(family, 'none')})")
    return problems


def load_problems(root, env):
    """Every bundled ELF file's libraries under env (ldd): ['file: soname => not found'] and
    the loader's version complaints (ldd prints "version `X' not found")."""
    problems = []
    for path in elf_deps.elf_files(root):
        r = subprocess.run(elf_deps.loader_list_command(path), capture_output=True, text=True,
                           env=env)
        rel = os.path.relpath(path, root)
        for soname, where in elf_deps.parse_ldd(r.stdout + r.stderr):
            if where is None:
                problems.append(f"{rel}: {soname} => not found")
        problems += [f"{rel}: {m}" for m in re.findall(r"version `[^']+' not found[^\n]*", r.stderr)]
    return problems
