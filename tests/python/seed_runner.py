"""Runs one seed document's snippets in one process, in document order, in one namespace, as
a reader pasting them into Python would: ``python seed_runner.py RESULTS.jsonl`` with the plan
(JSON, from test_seeds.py) on stdin. Each snippet's code has ``import torch`` / ``from torch``
rewritten to tide, and simple claims in its comments (``# x.device is device(type='cuda',
index=0)``, ``# a.get_device() == b.get_device() == 1``, ``print(t.is_cuda)  # True``) turned
into checks on the same line. One JSON line per snippet is appended to RESULTS.jsonl as soon
as it finishes, so a crash still names the snippet that was running.

A snippet with ``expect_error`` runs in a copy of the namespace: what it defines before
failing does not leak into the snippets after it.
"""

import contextlib
import io
import json
import re
import sys
import traceback

IMPORT_TORCH = re.compile(r"^(\s*)import torch(\s*(#.*)?)$")
IMPORT_TORCH_AS = re.compile(r"^(\s*)import torch((?:\.\w+)+)(\s+as\s+\w+.*)$")
FROM_TORCH = re.compile(r"^(\s*)from torch((?:\.\w+)*) import ")

DEVICE_CLAIM = re.compile(r"^(\s*)#\s*(\w+\.device\b.*?)\(type='(\w+)', index=(\d+)\)\s*$")
GET_DEVICE_CLAIM = re.compile(r"^(\s*)#\s*(\w+\.get_device\(\)[\w.()\s=]*?)==?\s*(\d+)\s*$")
PRINT_CLAIM = re.compile(r"^(\s*print\(.*\))(\s*#\s*(True|False)\s*)$")


def rewrite_imports(line):
    m = IMPORT_TORCH.match(line)
    if m:
        return f"{m.group(1)}import tide as torch{m.group(2)}"
    m = IMPORT_TORCH_AS.match(line)
    if m:
        return f"{m.group(1)}import tide{m.group(2)}{m.group(3)}"
    return FROM_TORCH.sub(lambda m: f"{m.group(1)}from tide{m.group(2)} import ", line)


def add_claims(line):
    """The comment's claim as a check, on the same line (line numbers stay the document's)."""
    m = DEVICE_CLAIM.match(line)
    if m:
        names = re.findall(r"(\w+)\.device\b", m.group(2))
        return (f"{m.group(1)}_seed_claim_device(({', '.join(names)},), {names!r}, "
                f"{m.group(3)!r}, {m.group(4)})  {line.strip()}")
    m = GET_DEVICE_CLAIM.match(line)
    if m:
        names = re.findall(r"(\w+)\.get_device\(\)", m.group(2))
        if names:
            return (f"{m.group(1)}_seed_claim_get_device(({', '.join(names)},), {names!r}, "
                    f"{m.group(3)})  {line.strip()}")
    m = PRINT_CLAIM.match(line)
    if m:
        return f"{m.group(1)}; _seed_claim_printed({m.group(3)!r}){m.group(2)}"
    return line


def prepare(code):
    lines = [rewrite_imports(s) for s in code.splitlines()]
    checked = [add_claims(s) for s in lines]
    try:
        compile("\n".join(checked), "<claims>", "exec")
        return "\n".join(checked)
    except SyntaxError:  # a comment indented unlike any block: keep it a comment
        return "\n".join(lines)


class Claims:
    def __init__(self):
        self.out = None

    def device(self, values, names, kind, index):
        import tide
        want = tide.device(kind, index)
        for name, v in zip(names, values):
            assert v.device == want, f"the seed says {name}.device is {want!r}, found {v.device!r}"

    def get_device(self, values, names, index):
        for name, v in zip(names, values):
            found = v.get_device()
            assert found == index, f"the seed says {name}.get_device() == {index}, found {found}"

    def printed(self, word):
        lines = [s for s in self.out.getvalue().splitlines() if s.strip()]
        last = lines[-1].split()[-1] if lines else ""
        assert last == word, f"the seed says this print ends with {word}, it printed {last!r}"


def run(snippet, namespace, claims):
    out = io.StringIO()
    claims.out = out
    result = {"id": snippet["id"], "error": None, "error_type": None, "traceback": None}
    try:
        code = compile(prepare(snippet["code"]), snippet["id"], "exec")
        with contextlib.redirect_stdout(out):
            exec(code, namespace)
    except BaseException as e:  # noqa: B902  (SystemExit from argparse is a failure too)
        result["error_type"] = type(e).__name__
        result["error"] = str(e)
        result["traceback"] = traceback.format_exc()
    result["stdout"] = out.getvalue()
    return result


def main():
    results_path = sys.argv[1]
    plan = json.load(sys.stdin)
    sys.argv = ["seed.py"]  # argparse in the snippets sees no arguments
    claims = Claims()
    namespace = {"__name__": "__main__", "__builtins__": __builtins__,
                 "_seed_claim_device": claims.device,
                 "_seed_claim_get_device": claims.get_device,
                 "_seed_claim_printed": claims.printed}
    exec("import tide as torch", namespace)
    with open(results_path, "a", encoding="utf-8") as results:
        for snippet in plan["snippets"]:
            space = dict(namespace) if snippet.get("expect_error") else namespace
            results.write(json.dumps(run(snippet, space, claims)) + "\n")
            results.flush()


if __name__ == "__main__":
    main()
