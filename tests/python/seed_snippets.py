"""Finds the Python snippets in the specification seeds (../shared/seeds), at test time.

Each seed format hides its code differently:
  * .rst: literal blocks after ``::``; output shown inside a block is indented under the print
    that made it, and splits the block into one snippet per print;
  * .md: ```python fences (and untagged fences whose text is Python); a fence that starts with
    ``[Out]:`` is the output of the fence before it;
  * the notebook (.md with ``In [N]:`` cells): the cell's code, then (if it prints or raises)
    one paragraph of output, then prose;
  * .txt (a rendered web page): paragraphs that are Python and mention torch.

Nothing here imports tide: test_seeds.py runs the snippets in a child process (seed_runner.py).
"""

import ast
import dataclasses
import os
import re
from pathlib import Path

SEED_FILES = ("cuda-semantics.en.rst", "cuda-semantics.notes.md", "cuda-semantics.zh-docs.txt",
              "cuda-semantics.zh-notebook.md", "gpu-acceleration-tutorial.zh.md")


@dataclasses.dataclass
class Snippet:
    document: str
    line: int  # 1-based line of the snippet's first line in the document
    code: str
    expected_output: str | None = None  # what the seed shows the snippet printing
    expected_error: str | None = None  # "TypeError: ..." when the seed shows it raising

    @property
    def id(self):
        return f"{self.document}:{self.line}"


def seeds_dir():
    """TIDE_SEEDS_DIR if set, else <repo root>/../shared/seeds; None when it does not exist."""
    if os.environ.get("TIDE_SEEDS_DIR"):
        path = Path(os.environ["TIDE_SEEDS_DIR"])
    else:
        path = Path(__file__).resolve().parents[2].parent / "shared" / "seeds"
    return path if path.is_dir() else None


def is_python(text):
    try:
        ast.parse(text)
    except SyntaxError:
        return False
    return True


def _dedent(lines):
    width = min((len(s) - len(s.lstrip()) for s in lines if s.strip()), default=0)
    return [s[width:] for s in lines]


def _trim(lines):
    while lines and not lines[0].strip():
        lines = lines[1:]
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return lines


def _indent(s):
    return len(s) - len(s.lstrip())


# ---- reStructuredText

def _rst_blocks(lines):
    """(first line index, dedented lines) of each literal block that follows a ``::``."""
    i = 0
    while i < len(lines):
        if lines[i].rstrip().endswith("::") and not lines[i].lstrip().startswith(".."):
            base = _indent(lines[i])
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            start = j
            while j < len(lines) and (not lines[j].strip() or _indent(lines[j]) > base):
                j += 1
            block = _trim(lines[start:j])
            if block:
                yield start, _dedent(block)
            i = j
        else:
            i += 1


def _split_rst_output(document, first, block):
    """A block's code, cut after each print whose output follows, indented deeper, after a
    blank line."""
    snippets, code, code_start = [], [], 0
    i = 0
    while i < len(block):
        line = block[i]
        last = next((s for s in reversed(code) if s.strip()), "")
        if (line.strip() and i > 0 and not block[i - 1].strip() and last.lstrip().startswith("print(")
                and _indent(line) > _indent(last)):
            j = i
            while j < len(block) and (not block[j].strip() or _indent(block[j]) > _indent(last)):
                j += 1
            output = "\n".join(_dedent(_trim(block[i:j])))
            snippets.append(Snippet(document, first + code_start + 1, "\n".join(_trim(code)),
                                    expected_output=output))
            code, code_start = [], j
            i = j
            continue
        if not code and not line.strip():
            code_start = i + 1
        else:
            code.append(line)
        i += 1
    if _trim(code):
        snippets.append(Snippet(document, first + code_start + 1, "\n".join(_trim(code))))
    return snippets


def rst_snippets(document, text):
    lines = text.splitlines()
    out = []
    for first, block in _rst_blocks(lines):
        out += _split_rst_output(document, first, block)
    return out


# ---- Markdown fences and notebook cells

FENCE = re.compile(r"^\s*```\s*(\w*)\s*$")
CELL = re.compile(r"^In \[\d*\]:\s*$")
CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")
ERROR_LINE = re.compile(r"^\w+(Error|Exception|Warning): ")
HEADING = re.compile(r"^#{1,6} ")
OUT_PREFIX = re.compile(r"^\[Out\]:\s?")


def _paragraphs(lines):
    """(start, end) index pairs of the runs of non-blank lines."""
    spans, i = [], 0
    while i < len(lines):
        if lines[i].strip():
            j = i
            while j < len(lines) and lines[j].strip():
                j += 1
            spans.append((i, j))
            i = j
        else:
            i += 1
    return spans


def _is_prose(para):
    """Chinese outside comments (a CJK word alone is a valid Python name, so parsing is no
    test)."""
    return any(CJK.search(s.split("#", 1)[0]) for s in para)


def _is_heading(lines, i):
    """A markdown heading, not a comment at the start of a code line: after a blank line, and
    in Chinese or followed by a blank line."""
    return (HEADING.match(lines[i]) is not None and i > 0 and not lines[i - 1].strip()
            and (CJK.search(lines[i]) is not None or i + 1 == len(lines) or not lines[i + 1].strip()))


def _notebook_cell(document, first, lines):
    """A cell's lines (up to the next cell, fence or heading): code, maybe output, then prose."""
    spans = _paragraphs(lines)
    # Prose (Chinese text that is not a Python comment) ends the cell.
    while spans and _is_prose(lines[spans[-1][0]:spans[-1][1]]):
        spans.pop()
    if not spans:
        return None
    end = spans[-1][1]
    code, output, error = lines[:end], None, None
    if len(spans) > 1:
        last = lines[spans[-1][0]:end]
        head = lines[:spans[-1][0]]
        prints = any("print(" in s for s in head)
        if ERROR_LINE.match(last[0]) and is_python("\n".join(head)):
            code, error = head, "\n".join(last)
        elif prints and is_python("\n".join(head)):
            code, output = head, "\n".join(last)
    return Snippet(document, first + 1, "\n".join(_trim(code)), expected_output=output,
                   expected_error=error)


def markdown_snippets(document, text):
    lines = text.splitlines()
    out = []
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if fence:
            j = i + 1
            while j < len(lines) and not FENCE.match(lines[j]):
                j += 1
            body = _trim(_dedent(lines[i + 1:j]))
            code = "\n".join(body)
            if body and OUT_PREFIX.match(body[0]):
                # The output of the fence before: "[Out]: False" and a continuation line.
                shown = [OUT_PREFIX.sub("", body[0])] + [s.strip() for s in body[1:]]
                if out and out[-1].expected_output is None:
                    out[-1].expected_output = "\n".join(shown)
            elif body and (fence.group(1) == "python" or
                           (fence.group(1) == "" and is_python(code))):
                out.append(Snippet(document, i + 2, code))
            i = j + 1
        elif CELL.match(lines[i]):
            j = i + 1
            while j < len(lines) and not (CELL.match(lines[j]) or FENCE.match(lines[j])
                                          or _is_heading(lines, j)):
                j += 1
            cell = _notebook_cell(document, i + 1, lines[i + 1:j])
            if cell:
                out.append(cell)
            i = j
        else:
            i += 1
    return out


# ---- plain text (a rendered page)

def text_snippets(document, text):
    """Runs of paragraphs that are Python without Chinese text; a paragraph that still parses
    with the code before it continues it (a `with` block with blank lines inside)."""
    lines = text.splitlines()
    out, current = [], None
    for start, end in _paragraphs(lines):
        para = lines[start:end]
        if any(CJK.search(s) for s in para):
            current = None
            continue
        if current is not None and is_python("\n".join(lines[current[0]:end])):
            current[1] = end
            out[-1] = current
            continue
        if is_python("\n".join(_dedent(para))) and _indent(para[0]) == 0:
            current = [start, end]
            out.append(current)
        else:
            current = None
    snippets = []
    for start, end in out:
        code = "\n".join(lines[start:end])
        if "torch" in code:
            snippets.append(Snippet(document, start + 1, code))
    return snippets


def document_snippets(path):
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".rst":
        return rst_snippets(path.name, text)
    if path.suffix == ".md":
        return markdown_snippets(path.name, text)
    return text_snippets(path.name, text)


# ---- comparing printed output

NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def _tokens(text):
    """Numbers as floats, everything between them with all whitespace removed."""
    tokens, pos = [], 0
    for m in NUMBER.finditer(text):
        between = re.sub(r"\s+", "", text[pos:m.start()])
        if between:
            tokens.append(between)
        tokens.append(float(m.group()))
        pos = m.end()
    rest = re.sub(r"\s+", "", text[pos:])
    if rest:
        tokens.append(rest)
    return tokens


def same_output(shown, printed, tol=1e-4):
    """Whether `printed` matches what the seed shows, ignoring whitespace and the way numbers
    are written (old torch's ``-5.0000`` is today's ``-5.``)."""
    a, b = _tokens(shown), _tokens(printed)
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if isinstance(x, float) != isinstance(y, float):
            return False
        if isinstance(x, float):
            if abs(x - y) > tol * max(1.0, abs(x)):
                return False
        elif x != y:
            return False
    return True
