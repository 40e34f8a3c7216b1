"""Stage records: the stages and their time budgets, the <stage>.json each writes
(Note [Stage JSON] in check.py), how a stage ends other than ok, and copying the results out."""
import json
import os
import shutil
from datetime import datetime, timezone

STAGES = ["env", "deps", "build", "test", "sanitize", "accounting", "bench", "report"]
# --bundle's stages (bundle_stages.py), most telling first: a run cut short by its deadline
# still has the device tests.
BUNDLE_STAGES = ["env", "unpack", "native", "nccl", "train", "python", "sanitize", "report"]
# --bundle --bench's (bundle_bench.py): tide against the machine's torch (issue 23).
BENCH_BUNDLE_STAGES = ["env", "unpack", "bench", "pystep", "trainvs", "profile", "report"]
# Each stage's time limit: a device command may run 10 minutes, a stage at most 8. (sanitize:
# 420 from source, cut to 150 by the bundle's deadline in practice.)
BUDGET_S = {"env": 120, "deps": 180, "build": 480, "test": 420, "sanitize": 420,
            "accounting": 180, "bench": 420, "report": 30,
            "unpack": 90, "native": 180, "nccl": 90, "train": 90, "python": 180,
            "pystep": 120, "trainvs": 120, "profile": 150}


def stages_of(directory):
    """The stage list whose JSONs directory holds: --bundle --bench's when one of its own stages
    ran beside unpack, --bundle's when unpack ran, else the from-source list."""
    if not os.path.exists(os.path.join(directory, "unpack.json")):
        return STAGES
    own = set(BENCH_BUNDLE_STAGES) - set(BUNDLE_STAGES)
    return BENCH_BUNDLE_STAGES if any(os.path.exists(os.path.join(directory, f"{s}.json"))
                                      for s in own) else BUNDLE_STAGES


def now_iso():
    return datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def fmt_duration(seconds):
    if seconds is None:
        return "—"
    if seconds < 60:
        return f"{seconds:.1f}s"
    return f"{int(seconds // 60)}m{int(seconds % 60):02d}s"


class StageResult(Exception):
    """Raised by a stage to end with a status other than ok."""

    def __init__(self, status, reason):
        super().__init__(reason)
        self.status, self.reason = status, reason


def skip(reason):
    raise StageResult("skipped", reason)


def fail(reason):
    raise StageResult("failed", reason)


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def write_json(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def results_tarball(src, dest, name="tide-gpu-check.tar.gz", tail_bytes=256 * 1024):
    """One gzip tarball in dest of what copy_results copies (the device tool brings back only
    a few files): stage JSONs, report.md, Nsight Compute's reports and each log's last 256 KiB,
    under gpu-check/."""
    import io
    import tarfile
    os.makedirs(dest, exist_ok=True)
    tmp = os.path.join(dest, name + ".tmp")
    with tarfile.open(tmp, "w:gz") as tar:
        for entry in sorted(os.listdir(src)):
            path = os.path.join(src, entry)
            if entry.endswith((".json", ".md", ".ncu-rep")):
                tar.add(path, arcname=f"gpu-check/{entry}")
            elif entry.endswith(".log"):
                with open(path, "rb") as f:
                    f.seek(max(0, os.path.getsize(path) - tail_bytes))
                    data = f.read()
                info = tarfile.TarInfo(f"gpu-check/{entry}")
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
    os.replace(tmp, os.path.join(dest, name))
    return os.path.join(dest, name)


def copy_results(src, dest, tail_bytes=256 * 1024):
    """Stage JSONs, report.md and the last 256 KiB of each log, for the device tool's $OUT."""
    os.makedirs(dest, exist_ok=True)
    for name in os.listdir(src):
        path = os.path.join(src, name)
        if name.endswith((".json", ".md")):
            shutil.copy(path, os.path.join(dest, name))
        elif name.endswith(".log"):
            with open(path, "rb") as f:
                f.seek(max(0, os.path.getsize(path) - tail_bytes))
                data = f.read()
            with open(os.path.join(dest, name), "wb") as f:
                f.write(data)
