"""The seed-snippet machinery itself (seed_snippets.py, seed_runner.py): that it finds code and
output in each format, compares output as the seeds need, and turns claims into checks that
can fail."""

import json
import subprocess
import sys
from pathlib import Path

import seed_snippets
import seed_runner

HERE = Path(__file__).resolve().parent


def test_rst_literal_blocks_split_at_the_output_shown_under_a_print():
    text = ("Intro::\n\n    x = 1\n    print(x)\n\n        1\n\n    y = 2\n\nProse.\n\n::\n\n"
            "    z = 3\n")
    found = seed_snippets.rst_snippets("d.rst", text)
    assert [(s.line, s.code, s.expected_output) for s in found] == [
        (3, "x = 1\nprint(x)", "1"), (8, "y = 2", None), (14, "z = 3", None)]


def test_markdown_fences_out_blocks_and_notebook_cells():
    text = ("```python\nprint(True)\n```\n\n```python\n[Out]: True\n```\n\n```\nnot python at "
            "all\n```\n\nIn [3]:\nx = 1  # 一\n\nprint(x)\n\n1\n\n这是说明。\n\nIn [4]:\n"
            "s = f()\n\nNameError: name 'f' is not defined\n\n说明\n")
    found = seed_snippets.markdown_snippets("d.md", text)
    assert [(s.code, s.expected_output, s.expected_error) for s in found] == [
        ("print(True)", "True", None),
        ("x = 1  # 一\n\nprint(x)", "1", None),
        ("s = f()", None, "NameError: name 'f' is not defined")]


def test_text_pages_keep_python_paragraphs_that_mention_torch():
    text = "  • 菜单\n\n下面：\n\nx = torch.ones(1)\n\nwith a:\n    b = 1\n\n    c = 2\n\nNext Previous\n"
    found = seed_snippets.text_snippets("d.txt", text)
    assert [(s.line, s.code) for s in found] == [
        (5, "x = torch.ones(1)\n\nwith a:\n    b = 1\n\n    c = 2")]


def test_output_is_compared_by_value_ignoring_spacing():
    old = "tensor([[ 0.3000,  0.3000],\n        [-5.0000, -5.0000]], device='cuda:0')"
    new = "tensor([[0.3000, 0.3000],\n        [-5., -5.]], device='cuda:0')"
    assert seed_snippets.same_output(old, new)
    assert not seed_snippets.same_output(old, new.replace("-5.", "-4."))
    assert not seed_snippets.same_output(old, new.replace("cuda:0", "cuda:1"))
    assert not seed_snippets.same_output("True", "False")


def test_imports_of_torch_become_imports_of_tide():
    assert seed_runner.rewrite_imports("import torch") == "import tide as torch"
    assert seed_runner.rewrite_imports("  from torch import nn") == "  from tide import nn"
    assert seed_runner.rewrite_imports("import torch.nn as nn") == "import tide.nn as nn"
    assert seed_runner.rewrite_imports("from torch.utils.data import DataLoader") == \
        "from tide.utils.data import DataLoader"


def _run(codes, tmp_path):
    plan = {"snippets": [{"id": f"s{i}", "code": c, "expect_error": False}
                         for i, c in enumerate(codes)]}
    out = tmp_path / "r.jsonl"
    subprocess.run([sys.executable, str(HERE / "seed_runner.py"), str(out)],
                   input=json.dumps(plan), text=True, check=True, timeout=120)
    return [json.loads(s) for s in out.read_text().splitlines()]


def test_false_claims_in_comments_fail_and_true_ones_pass(tmp_path):
    results = _run(["x = torch.zeros(1, device='cuda:1')\n# x.device is device(type='cuda', index=1)",
                    "# x.device is device(type='cuda', index=0)",
                    "# x.get_device() == 2",
                    "print(x.is_cuda)  # False",
                    "print(x.is_cuda)  # True"], tmp_path)
    assert [r["error_type"] for r in results] == [None, "AssertionError", "AssertionError",
                                                   "AssertionError", None]
    assert "the seed says x.device is device(type='cuda', index=0)" in results[1]["error"]
