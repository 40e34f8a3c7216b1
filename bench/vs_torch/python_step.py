"""PyMlpStep_B (issue 23): the MLP step of bench/vs_torch/mlp_step.h (784-256-256-10, ReLU,
cross entropy, SGD with momentum 0.9: zero_grad, forward, loss, backward, step) from Python,
tide's package against torch's, in one process. Each round times `steps` steps of tide, then of
torch (the order alternating per round), waiting for the device at the end of each timing, so
the time per step is the host's enqueue or the GPU's work, whichever is slower (Note [MLP step
timing]); the figures are medians over the rounds.

    python_step.py --out FILE [--device cuda|cpu] [--rounds N] [--batches 64,1024]

Writes {"benchmarks": {"PyMlpStep_<B>/<side>": {median_s, runs, spread, counters}}, "context",
"skipped": {side: why}} (scripts/gpu_check/bench.py's format). A side that cannot run on the
device (torch without CUDA, a package that does not import) is skipped with the reason; --device
cpu runs both on the cpu (the harness checked where there is no GPU), named PyMlpStepCpu_<B>:
issue 23's target is for the GPU, so those rows are not judged."""
import argparse
import importlib
import json
import statistics
import sys
import time

IN, HIDDEN, CLASSES = 784, 256, 10
TARGET_SECONDS = 0.1  # per timing, after calibration


def load(name, device):
    """The module, or (None, why) when it cannot run on device."""
    try:
        lib = importlib.import_module(name)
    except Exception as e:  # an extension that does not load is a reason, not a crash
        return None, f"import {name}: {type(e).__name__}: {e}"
    if device == "cuda" and not lib.cuda.is_available():
        return None, f"no CUDA: {name}.cuda.is_available() is False"
    return lib, None


class Step:
    def __init__(self, lib, device, batch):
        self.lib, self.device = lib, device
        lib.manual_seed(0)
        nn = lib.nn
        self.model = nn.Sequential(nn.Linear(IN, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, HIDDEN),
                                   nn.ReLU(), nn.Linear(HIDDEN, CLASSES)).to(device)
        self.loss_fn = nn.CrossEntropyLoss()
        self.opt = lib.optim.SGD(self.model.parameters(), lr=0.01, momentum=0.9)
        self.x = lib.randn(batch, IN).to(device)
        self.y = lib.tensor([(i * 7) % CLASSES for i in range(batch)]).to(device)

    def sync(self):
        if self.device == "cuda":
            self.lib.cuda.synchronize()

    def run(self, steps):
        start = time.perf_counter()
        for _ in range(steps):
            self.opt.zero_grad()
            loss = self.loss_fn(self.model(self.x), self.y)
            loss.backward()
            self.opt.step()
        self.sync()
        return (time.perf_counter() - start) / steps


def measure(steps_by_side, rounds):
    """{side: [seconds per step, one per round]}, sides alternating first."""
    times = {side: [] for side in steps_by_side}
    sides = list(steps_by_side)
    for r in range(rounds):
        for side in (sides if r % 2 == 0 else sides[::-1]):
            step, n = steps_by_side[side]
            times[side].append(step.run(n))
    return times


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True)
    p.add_argument("--device", default="cuda", choices=["cuda", "cpu"])
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--batches", default="64,1024")
    args = p.parse_args(argv)
    libs, skipped = {}, {}
    for side, name in (("tide", "tide"), ("torch", "torch")):
        lib, why = load(name, args.device)
        if lib is None:
            skipped[side] = why
        else:
            libs[side] = lib
    out = {"benchmarks": {}, "skipped": skipped,
           "context": {"device": args.device, "python": sys.version.split()[0],
                       **{f"{s}_version": getattr(l, "__version__", "?") for s, l in libs.items()}}}
    case = "PyMlpStep" if args.device == "cuda" else "PyMlpStepCpu"
    for batch in (int(b) for b in args.batches.split(",")):
        steps = {}
        for side, lib in libs.items():
            step = Step(lib, args.device, batch)
            step.run(3)  # warm: momentum buffers, cuBLAS handles, caching allocator
            per_step = step.run(5)
            steps[side] = (step, max(5, int(TARGET_SECONDS / max(per_step, 1e-7))))
        for side, times in measure(steps, args.rounds).items():
            med = statistics.median(times)
            out["benchmarks"][f"{case}_{batch}/{side}"] = {
                "median_s": med, "runs": len(times), "steps_per_timing": steps[side][1],
                "spread": (max(times) - min(times)) / 2 / med if med > 0 else 0.0,
                "counters": {"items_per_second": batch / med, "steps_per_second": 1 / med}}
            print(f"{case}_{batch}/{side}: {med * 1e6:.1f} us per step ({1 / med:.0f} steps/s)",
                  flush=True)
    for side, why in skipped.items():
        print(f"python_step: {side} skipped: {why}", flush=True)
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
