"""README.md's Python example runs as shown, on two simulated GPUs, and prints what its
comment says."""

import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def readme_python_example():
    text = (ROOT / "README.md").read_text()
    section = text[text.index("\n## Python\n"):]
    section = section[:section.index("\n## ", 1)]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 1, "README's Python section should show one example"
    return blocks[0]


def test_readme_python_example_runs_and_prints_its_comment():
    code = readme_python_example()
    env = dict(os.environ, TIDE_SIM_DEVICES="2")
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("cuda:0 "), lines
    assert float(lines[0].split()[1]) > 0
    assert lines[-1] == "tensor([2., 2.], device='cuda:1')"
