"""tide against torch from Python, in one process (bench/RESULTS.md, "Python bindings").

Two figures, each measured for tide and for torch (Debian's python3-torch) alternately in
rounds, so that both see the same machine state; the ratio of the medians is the result:

- per-op overhead: `a + b` on two 1-element float32 cpu tensors (the cost of crossing from
  Python into the library and back with a new tensor; the arithmetic is nothing);
- the same for a few of issue 25's ops: sin, a masked write `x[mask] = 0.0`, gather, topk;
- an MLP training step at batch 64 on the cpu: 784-256-10, ReLU, cross entropy, SGD with
  momentum (forward, backward, step, zero_grad), the model of `tide train`.

Targets (issues 14 and 25): tide's per-op time <= 0.5x torch's; tide's training steps per second
>= 1.5x torch's. Run: build/venv/bin/python bench/python_bench.py [--rounds N] (from outside
the source tree's python/ dir, with the package installed by scripts/python-tests).
"""

import argparse
import platform
import statistics
import time

import torch

import tide


def per_op(lib, n):
    a = lib.ones(1)
    b = lib.ones(1)
    start = time.perf_counter()
    for _ in range(n):
        a + b
    return (time.perf_counter() - start) / n


def _timed(n, body):
    start = time.perf_counter()
    for _ in range(n):
        body()
    return (time.perf_counter() - start) / n


# Issue 25's ops, each on 1-element tensors (4 for the masked write, so that the mask selects
# some and not others): what a call costs besides its arithmetic.
def per_op_sin(lib, n):
    a = lib.ones(1)
    return _timed(n, lambda: lib.sin(a))


def per_op_masked_assignment(lib, n):
    x = lib.tensor([1.0, -2.0, 3.0, -4.0])
    mask = x < 0

    def body():
        x[mask] = 0.0
    return _timed(n, body)


def per_op_gather(lib, n):
    a = lib.ones(1)
    index = lib.zeros(1, dtype=lib.int64)
    return _timed(n, lambda: lib.gather(a, 0, index))


def per_op_topk(lib, n):
    a = lib.ones(1)
    return _timed(n, lambda: lib.topk(a, 1))


def mlp_step(lib, n, batch=64):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(784, 256), lib.nn.ReLU(), lib.nn.Linear(256, 10))
    loss_fn = lib.nn.CrossEntropyLoss()
    opt = lib.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x = lib.randn(batch, 784)
    y = lib.randint(0, 10, (batch,))

    def step():
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()

    for _ in range(5):
        step()
    start = time.perf_counter()
    for _ in range(n):
        step()
    return (time.perf_counter() - start) / n


def compare(name, fn, n, rounds):
    times = {"tide": [], "torch": []}
    for _ in range(rounds):
        for label, lib in (("tide", tide), ("torch", torch)):
            times[label].append(fn(lib, n))
    tide_t = statistics.median(times["tide"])
    torch_t = statistics.median(times["torch"])
    print(f"{name}: tide {tide_t * 1e6:.2f} us, torch {torch_t * 1e6:.2f} us, "
          f"tide/torch time {tide_t / torch_t:.3f} (torch/tide speed {torch_t / tide_t:.2f}x)")
    return tide_t / torch_t


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    torch.set_num_threads(tide_threads())
    print(f"machine: {platform.node()} {platform.processor() or platform.machine()}, "
          f"python {platform.python_version()}, torch {torch.__version__}, "
          f"threads: torch {torch.get_num_threads()}")
    op_ratio = compare("per-op add, 1 element", per_op, 200000, args.rounds)
    new_ops = [compare("per-op sin, 1 element", per_op_sin, 100000, args.rounds),
               compare("per-op x[mask] = 0.0, 4 elements", per_op_masked_assignment, 20000,
                       args.rounds),
               compare("per-op gather, 1 element", per_op_gather, 100000, args.rounds),
               compare("per-op topk(1), 1 element", per_op_topk, 50000, args.rounds)]
    step_ratio = compare("MLP step, batch 64", mlp_step, 200, args.rounds)
    print(f"targets: per-op time <= 0.5x torch: {'met' if op_ratio <= 0.5 else 'NOT met'} "
          f"({op_ratio:.3f}); steps/s >= 1.5x torch: "
          f"{'met' if 1 / step_ratio >= 1.5 else 'NOT met'} ({1 / step_ratio:.2f}x); "
          f"issue 25's ops <= 0.5x torch: "
          f"{'met' if max(new_ops) <= 0.5 else 'NOT met'} (worst {max(new_ops):.3f})")


def tide_threads():
    import os
    return len(os.sched_getaffinity(0))


if __name__ == "__main__":
    main()
