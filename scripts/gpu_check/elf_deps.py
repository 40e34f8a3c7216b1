"""ELF files and the shared libraries they need: which files are ELF, what each names (readelf),
where each need resolves (ldd), which symbol versions a file asks of a library, and which a
library defines. readelf is needed only where the bundle is packed and verified; on the GPU
machine, ldd (or the dynamic loader's --list) and the libraries' own bytes suffice."""
import os
import re
import subprocess

from .bundle_layout import machine_library_kind

VERSIONED = ("GLIBC_", "GLIBCXX_", "CXXABI_", "GCC_")


def is_elf(path):
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def elf_files(root):
    """Every regular ELF file below root (symbolic links left out), sorted."""
    found = []
    for dirpath, _, files in os.walk(root):
        for name in files:
            path = os.path.join(dirpath, name)
            if not os.path.islink(path) and is_elf(path):
                found.append(path)
    return sorted(found)


def readelf(args, path):
    out = subprocess.run(["readelf", "--wide", *args, path], capture_output=True, text=True,
                         check=True).stdout
    return out


def needed(path):
    """The sonames path's dynamic section names (DT_NEEDED), in order."""
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", readelf(["-d"], path))


def version_needs(path):
    """{soname: {version names}} from path's .gnu.version_r: what it asks of each library."""
    needs, current = {}, None
    for line in readelf(["-V"], path).splitlines():
        m = re.search(r"\bFile: (\S+)", line)
        if m:
            current = needs.setdefault(m.group(1), set())
            continue
        m = re.search(r"\bName: (\S+)", line)
        if m and current is not None:
            current.add(m.group(1))
    return needs


def version_key(name):
    """'GLIBCXX_3.4.30' -> ('GLIBCXX_', (3, 4, 30)); None for a name of no numbered family."""
    for prefix in VERSIONED:
        if name.startswith(prefix):
            try:
                return prefix, tuple(int(p) for p in name[len(prefix):].split("."))
            except ValueError:
                return None
    return None


def newest(names):
    """{family prefix: newest name} over version names, e.g. {'GLIBC_': 'GLIBC_2.34'}."""
    best = {}
    for name in names:
        key = version_key(name)
        if key and (key[0] not in best or key[1] > version_key(best[key[0]])[1]):
            best[key[0]] = name
    return best


def defined_versions(path):
    """The numbered version names a library defines. Read from its bytes, so that no binutils
    are needed on the machine: a library's version names sit in its string table."""
    with open(path, "rb") as f:
        data = f.read()
    pattern = rb"\b(GLIBC_2\.\d+(?:\.\d+)?|GLIBCXX_3\.4(?:\.\d+)?|CXXABI_1\.3(?:\.\d+)?|GCC_\d+\.\d+(?:\.\d+)?)\b"
    return {m.decode() for m in re.findall(pattern, data)}


LDD_LINE = re.compile(r"^\s*(\S+)\s+=>\s+(not found|\S+)(?:\s+\(0x[0-9a-f]+\))?\s*$")
LDD_DIRECT = re.compile(r"^\s*(/\S+|linux-vdso\.so\.\d+)\s+\(0x[0-9a-f]+\)\s*$")


def parse_ldd(out):
    """[(soname, resolved path or None)] from ldd's output."""
    libs = []
    for line in out.splitlines():
        m = LDD_LINE.match(line)
        if m:
            libs.append((m.group(1), None if m.group(2) == "not found" else m.group(2)))
            continue
        m = LDD_DIRECT.match(line)
        if m:
            libs.append((os.path.basename(m.group(1)), m.group(1)))
    return libs


def loader_list_command(path):
    """ldd where the machine has it, else the dynamic loader's own --list (what ldd runs)."""
    for ldd in ("/usr/bin/ldd", "/bin/ldd"):
        if os.access(ldd, os.X_OK):
            return [ldd, path]
    for loader in ("/lib64/ld-linux-x86-64.so.2", "/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"):
        if os.access(loader, os.X_OK):
            return [loader, "--list", path]
    raise FileNotFoundError("neither ldd nor the dynamic loader (ld-linux-x86-64.so.2) found")


def resolve(path, env=None):
    """Where each library path loads (itself and, transitively, its libraries) resolves under
    env: [(soname, path or None)]. ldd exits non-zero when one is not found; its lines still
    say which."""
    r = subprocess.run(loader_list_command(path), capture_output=True, text=True, env=env)
    return parse_ldd(r.stdout + r.stderr)


def unresolved(root, files, lib_dirs):
    """What the bundle below root lacks: ['file: soname', ...] for every DT_NEEDED soname of
    every file that is neither in one of lib_dirs (relative to root) nor one the machine
    provides (Note [Machine's libraries])."""
    present = set()
    for d in lib_dirs:
        full = os.path.join(root, d)
        if os.path.isdir(full):
            present.update(os.listdir(full))
    missing = []
    for path in files:
        for soname in needed(path):
            if soname not in present and not machine_library_kind(soname):
                missing.append(f"{os.path.relpath(path, root)}: {soname}")
    return missing


def outside(root, files, env):
    """What loads from outside the bundle under env (ldd): ['file: soname => path', ...] for
    every library that resolves outside root, or not at all, and is not the machine's."""
    root = os.path.realpath(root)
    bad = []
    for path in files:
        for soname, where in resolve(path, env):
            if machine_library_kind(soname):
                continue
            if where is None or not os.path.realpath(where).startswith(root + os.sep):
                bad.append(f"{os.path.relpath(path, root)}: {soname} => {where or 'not found'}")
    return bad
