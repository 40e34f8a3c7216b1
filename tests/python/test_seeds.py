"""The seeds' own Python examples, run with ``import tide as torch`` on three simulated GPUs.

The snippets are read from the seeds at test time (seed_snippets.py), never copied here. Each
document's snippets run in document order in one child process (seed_runner.py); each one is
a test named document:line. A snippet passes when it runs, its claims hold, and it prints
what the seed shows it printing (numbers compared as numbers, whitespace ignored).

KNOWN_FAILURES lists the snippets that fail in real torch too, with the reason. They are not
silently skipped: each still runs (in a copy of the namespace) and must fail the way the
reason says, and each entry must match exactly one snippet. Where the author's intent is
plain, the corrected snippet (`fix`) runs as well, as document:line:fixed.
"""

import dataclasses
import functools
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import seed_snippets

HERE = Path(__file__).resolve().parent


@dataclasses.dataclass
class KnownFailure:
    document: str
    text: str  # occurs in exactly one of the document's snippets
    reason: str
    error_type: str
    error_match: str  # a regex the error message matches
    fix: tuple | None = None  # (old, new): the snippet as its author meant it


KNOWN_FAILURES = [
    KnownFailure("cuda-semantics.en.rst", "s = torch.cuda.stream()",
                 "torch.cuda.stream(stream) is a context manager that needs its stream "
                 "argument (the notebook shows torch's TypeError)", "TypeError",
                 r"stream\(\) missing 1 required positional argument: 'stream'"),
    KnownFailure("cuda-semantics.en.rst", "Network()", "Network is never defined", "NameError",
                 r"name 'Network' is not defined"),
    KnownFailure("cuda-semantics.en.rst", "train_loader", "train_loader is never defined",
                 "NameError", r"name 'train_loader' is not defined"),
    KnownFailure("cuda-semantics.notes.md", "Network()", "Network is never defined",
                 "NameError", r"name 'Network' is not defined"),
    KnownFailure("cuda-semantics.notes.md", "train_loader",
                 "train_loader (and Variable, from torch 0.3) are never defined", "NameError",
                 r"name 'train_loader' is not defined"),
    KnownFailure("cuda-semantics.notes.md", "ones_lick", "typo for ones_like",
                 "AttributeError", r"has no attribute 'ones_lick'",
                 fix=("ones_lick", "ones_like")),
    KnownFailure("cuda-semantics.zh-notebook.md", "train_loader",
                 "train_loader is never defined", "NameError",
                 r"name 'train_loader' is not defined"),
    KnownFailure("gpu-acceleration-tutorial.zh.md", "t.Tensor(",
                 "t is the tensor made earlier, not the module (t.Tensor for torch.Tensor)",
                 "AttributeError", r"has no attribute 'Tensor'",
                 fix=("t.Tensor(", "torch.Tensor(")),
    KnownFailure("gpu-acceleration-tutorial.zh.md", "get_divice", "typo for get_device",
                 "AttributeError", r"has no attribute 'get_divice'",
                 fix=("get_divice", "get_device")),
    KnownFailure("gpu-acceleration-tutorial.zh.md", "%env",
                 "an IPython magic, not Python", "SyntaxError", r"invalid syntax"),
]
# Not listed because no code block holds them: `cuda(async=True)` (a SyntaxError since
# Python 3.7) appears only in prose and inline code.


@dataclasses.dataclass
class Case:
    """One run of a snippet and what it must do."""
    id: str
    document: str
    code: str
    expected_output: str | None = None
    expected_error: tuple | None = None  # (type name, regex)
    reason: str | None = None


def _known_for(snippet):
    found = [k for k in KNOWN_FAILURES
             if k.document == snippet.document and k.text in snippet.code]
    assert len(found) <= 1, f"{snippet.id} matches several KNOWN_FAILURES entries"
    return found[0] if found else None


def _cases(snippet):
    known = _known_for(snippet)
    if snippet.expected_error:
        kind, message = snippet.expected_error.split(": ", 1)
        return [Case(snippet.id, snippet.document, snippet.code,
                     expected_error=(kind, re.escape(message)),
                     reason="the seed shows this error")]
    if known is None:
        return [Case(snippet.id, snippet.document, snippet.code, snippet.expected_output)]
    cases = [Case(snippet.id, snippet.document, snippet.code,
                  expected_error=(known.error_type, known.error_match), reason=known.reason)]
    if known.fix:
        cases.append(Case(snippet.id + ":fixed", snippet.document,
                          snippet.code.replace(*known.fix), snippet.expected_output))
    return cases


def _all_cases():
    root = seed_snippets.seeds_dir()
    if root is None:
        return []
    cases = []
    for name in seed_snippets.SEED_FILES:
        if (root / name).exists():
            for snippet in seed_snippets.document_snippets(root / name):
                cases += _cases(snippet)
    return cases


CASES = _all_cases()
NO_SEEDS = ("the seeds are not here: set TIDE_SEEDS_DIR or put them in <repo>/../shared/seeds")


@functools.lru_cache(maxsize=None)
def run_document(document):
    """{case id: result} for every case of the document, run in one child process."""
    cases = [c for c in CASES if c.document == document]
    plan = {"snippets": [{"id": c.id, "code": c.code, "expect_error": c.expected_error is not None}
                         for c in cases]}
    env = dict(os.environ, TIDE_SIM_DEVICES="3", PYTHONPATH=os.pathsep.join(sys.path))
    env.pop("CUDA_VISIBLE_DEVICES", None)
    with tempfile.TemporaryDirectory() as tmp:
        results = Path(tmp) / "results.jsonl"
        proc = subprocess.run([sys.executable, str(HERE / "seed_runner.py"), str(results)],
                              input=json.dumps(plan), capture_output=True, text=True, env=env,
                              cwd=tmp, timeout=600)
        done = {}
        if results.exists():
            for line in results.read_text(encoding="utf-8").splitlines():
                r = json.loads(line)
                done[r["id"]] = r
    done["_process"] = proc
    return done


@pytest.mark.parametrize("case", CASES or [None], ids=[c.id for c in CASES] or ["no-seeds"])
def test_seed_snippet(case):
    if case is None:
        pytest.skip(NO_SEEDS)
    results = run_document(case.document)
    if case.id not in results:
        proc = results["_process"]
        pytest.fail(f"{case.id} did not finish: the runner exited with {proc.returncode}\n"
                    f"{proc.stderr[-3000:]}")
    r = results[case.id]
    shown = f"\n--- code\n{case.code}\n--- printed\n{r['stdout']}"
    if case.expected_error:
        kind, match = case.expected_error
        assert r["error_type"] == kind and re.search(match, r["error"]), (
            f"{case.id} should fail with {kind} ({case.reason}); it "
            + (f"raised {r['error_type']}: {r['error']}" if r["error_type"] else "ran") + shown)
        return
    assert r["error_type"] is None, f"{case.id} raised:\n{r['traceback']}{shown}"
    if case.expected_output is not None:
        assert seed_snippets.same_output(case.expected_output, r["stdout"]), (
            f"{case.id} printed something else than the seed shows\n--- seed shows\n"
            f"{case.expected_output}{shown}")


def test_every_known_failure_matches_one_snippet():
    if not CASES:
        pytest.skip(NO_SEEDS)
    root = seed_snippets.seeds_dir()
    for k in KNOWN_FAILURES:
        hits = [s for s in seed_snippets.document_snippets(root / k.document) if k.text in s.code]
        assert len(hits) == 1, f"{k.document}: {k.text!r} matches {len(hits)} snippets"


def test_every_document_has_snippets():
    if not CASES:
        pytest.skip(NO_SEEDS)
    for name in seed_snippets.SEED_FILES:
        assert any(c.document == name for c in CASES), f"found no Python in {name}"
