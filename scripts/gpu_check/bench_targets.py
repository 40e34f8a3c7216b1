"""The issues' benchmark targets (issues 6 and 23): the bench stages' benchmarks grouped into
cases with their sides (tide, torch, raw), and each case judged met, missed, reported (a row
with figures and no target) or not judged."""
import re

from .bench import split_name

PARITY = 1.03  # "within 3% counts as parity" (issue 6)
REPORTED = "reported"  # a row whose figures are the result (issue 23's training loop)


class Case:
    """One case's sides (tide, torch, raw), with the figures the targets read."""

    def __init__(self, name, sides, peak):
        self.name, self.sides, self.peak = name, sides, peak

    def time(self, side):
        b = self.sides.get(side)
        return b.get("median_s") if b else None

    def ratio(self, side):
        """tide's median time over side's (lower is better for tide)."""
        t, o = self.time("tide"), self.time(side)
        return t / o if t and o else None

    def counter(self, side, key):
        b = self.sides.get(side)
        return (b.get("counters") or {}).get(key) if b else None

    def pct_of_peak(self, side):
        pct = self.counter(side, "pct_of_peak")
        if pct is not None:
            return pct
        bps = self.counter(side, "bytes_per_second")
        peak = self.counter(side, "peak_bytes_per_second") or self.peak
        return 100.0 * bps / peak if bps and peak else None


def target_tiny_op(case, cases):
    r, t, raw = case.ratio("torch"), case.time("tide"), case.time("raw")
    over_raw = (t - raw) if t is not None and raw is not None else None
    if r is None and over_raw is None:
        return None, "no torch or raw side"
    met = (r is not None and r <= 0.5) or (over_raw is not None and over_raw <= 0.5e-6)
    bits = ([f"{r:.2f}× torch"] if r is not None else []) + (
        [f"raw + {over_raw * 1e6:.2f} µs"] if over_raw is not None else [])
    return met, "; ".join(bits)


def target_time_vs_torch(limit):
    def check(case, cases):
        r = case.ratio("torch")
        return (None, "no torch side") if r is None else (r <= limit, f"{r:.3f}× torch")
    return check


def target_bandwidth(case, cases):
    r, pct = case.ratio("torch"), case.pct_of_peak("tide")
    if r is None:
        return None, "no torch side"
    if pct is None:
        return None, f"{r:.3f}× torch; peak unknown"
    return r <= PARITY and pct >= 88.0, f"{r:.3f}× torch time; {pct:.1f}% of peak"


def target_speed_vs_torch(factor):
    """tide's steps (or samples) per second at least `factor` times torch's."""
    def check(case, cases):
        r = case.ratio("torch")
        return (None, "no torch side") if r is None else (1 / r >= factor, f"{1 / r:.2f}× torch's steps/s")
    return check


def report_train_loop(case, cases):
    """Time and accuracy beside torch's: figures, no target (REPORTED)."""
    bits = []
    for side in ("tide", "torch"):
        t, acc = case.time(side), case.counter(side, "accuracy_pct")
        if t is not None:
            bits.append(f"{side} {t:.1f} s" + (f", {acc:.2f}%" if acc is not None else ""))
    if case.time("torch") is None:
        return None, "; ".join(bits + ["no torch side"])
    return REPORTED, "; ".join(bits)


def target_pinned_h2d(case, cases):
    r = case.ratio("raw")
    if r is None:
        return None, "no raw side"
    return 1 / r >= 0.95, f"{1 / r:.3f}× raw's speed"


def target_overlap(case, cases):
    copy, compute = case.counter("tide", "copy_ms"), case.counter("tide", "compute_ms")
    if copy and compute:  # one case timing all three (bench/vs_torch)
        both = case.counter("tide", "overlap_ms") or (case.time("tide") or 0) * 1e3
        r = both / max(copy, compute)
        return r <= 1.1, f"{r:.3f}× max(copy {copy:.3g} ms, compute {compute:.3g} ms)"
    suffix = case.name[len("Overlap"):]
    alone = [cases.get(f"Overlap{part}{suffix}") for part in ("Copy", "Compute")]
    t = case.time("tide")
    if t is None or any(c is None or c.time("tide") is None for c in alone):
        return None, "needs OverlapCopy and OverlapCompute"
    slowest = max(c.time("tide") for c in alone)
    return t <= 1.1 * slowest, f"{t / slowest:.3f}× max(copy, compute)"


def target_peak_reserved(case, cases):
    tide, torch = (case.counter(s, "peak_reserved_bytes") for s in ("tide", "torch"))
    if tide is None or torch is None:
        return None, "needs counter peak_reserved_bytes on tide and torch"
    return tide <= torch, f"{tide / 2**20:,.1f} MiB vs torch {torch / 2**20:,.1f} MiB"


# (case pattern, the target, check) — the first pattern that matches applies.
TARGETS = [
    (r"^Tiny(Op|Add)(/|$)", "≤ 0.5× torch, or ≤ raw + 0.5 µs", target_tiny_op),
    (r"^MallocFree", "≤ 0.5× torch", target_time_vs_torch(0.5)),
    (r"^(Add|Sum)", "≥ 1.0× torch and ≥ 88% of peak", target_bandwidth),
    (r"^Matmul", "within 3% of torch", target_time_vs_torch(PARITY)),
    (r"^CopyH2DPinned", "≥ 0.95× raw", target_pinned_h2d),
    (r"^Overlap(?!Copy|Compute)", "≤ 1.1× max(copy, compute)", target_overlap),
    (r"^PeakReserved", "peak reserved ≤ torch's", target_peak_reserved),
    # Issue 23: the MLP step in C++ (MlpStep_B) and from Python (PyMlpStep_B), and tide train.
    (r"^MlpStep_64(/|$)", "≥ 1.5× torch's steps/s", target_speed_vs_torch(1.5)),
    (r"^MlpStep_", "≥ 1.0× torch's steps/s", target_speed_vs_torch(1.0)),
    (r"^PyMlpStep_", "≥ 1.5× torch's steps/s", target_speed_vs_torch(1.5)),
    (r"^TrainLoop", "time and accuracy beside torch", report_train_loop),
]
# The rows in the issue's order (issue 23's table), then the rest by name.
ROW_ORDER = ["TinyAdd", "TinyOp", "MallocFree", "Add", "Sum", "Matmul", "CopyH2DPinned", "Copy",
             "Overlap", "MlpStep", "PyMlpStep", "TrainLoop", "PeakReserved"]


def row_key(name):
    rank = next((i for i, prefix in enumerate(ROW_ORDER) if name.startswith(prefix)), len(ROW_ORDER))
    return rank, name


def bench_cases(figures):
    peak = figures.get("peak_bytes_per_second")
    grouped = {}
    for name, b in (figures.get("benchmarks") or {}).items():
        case, side = split_name(name)
        grouped.setdefault(case, {})[side] = b
    return {name: Case(name, sides, peak) for name, sides in grouped.items()}


def judge(case, cases):
    """(target text, met: True/False/None, detail) for a case."""
    for pattern, text, check in TARGETS:
        if re.search(pattern, case.name):
            met, detail = check(case, cases)
            return text, met, detail
    return None, None, ""
