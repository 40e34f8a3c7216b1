#!/usr/bin/env python3
"""docs/errors.md, the error catalogue, checked against the tests: every table row names a test
(`Suite.Name`, a gtest TEST/TEST_F/TEST_P under tests/, or a ctest name registered in
tests/CMakeLists.txt) whose source file holds the row's message excerpt in a string literal
(adjacent C++ literals joined, as the compiler joins them: tests often split long messages) and
mentions the row's exception type when it is a subclass of tide::Error; and the excerpt is
tide's own wording (it appears the same way in src/, include/ or tools/). Prints each row's
verdict and fails listing the rows that are not backed.

Registered in tests/CMakeLists.txt as ErrorCatalogue.EveryRowHasATestThatChecksIt (the real
catalogue) and ErrorCatalogue.Checker (the checker itself on canned files); python3's standard
library only. By hand: python3 tests/tools/error_catalogue_test.py --check [docs/errors.md]."""
import os
import re
import sys
import tempfile
import unittest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
COLUMNS = ["Error", "Type", "Message (excerpt)", "Triggered by", "What to do", "Test"]

# ---- string literals -------------------------------------------------------------------------

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", "'": "'", '"': '"', "?": "?"}
# A C++ or Python string literal (optional encoding/raw prefix), a comment, or anything else.
_TOKEN = re.compile(r'''
    (?P<raw>(?:u8|u|U|L)?R"(?P<delim>[^()\\\s]{0,16})\((?P<rawbody>.*?)\)(?P=delim)")
  | (?P<str>(?:u8|u|U|L|[rRbBfF]{1,2})?"(?:[^"\\\n]|\\.)*")
  | (?P<sq>'(?:[^'\\\n]|\\.)*')
  | (?P<comment>//[^\n]*|/\*.*?\*/|\#[^\n]*)
  | (?P<space>\s+)
  | (?P<other>.)''', re.S | re.X)


def _unescape(body):
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            out.append(_ESCAPES.get(body[i + 1], body[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def string_runs(text, python=False):
    """The file's string literals, adjacent ones (separated by blanks or comments only) joined
    into one run each, escapes resolved: `"abc "\\n   "def"` gives `abc def`. In C++ a `#`
    line is a preprocessor line and a quote is a character literal; in Python `#` starts a
    comment and single quotes make strings too."""
    runs, current, joining = [], [], False
    for m in _TOKEN.finditer(text):
        piece = None
        if m.group("raw") is not None:
            piece = m.group("rawbody")
        elif m.group("str") is not None:
            s = m.group("str")
            prefix = s[:s.index('"')]
            body = s[len(prefix) + 1:-1]
            piece = body if "r" in prefix.lower() and python else _unescape(body)
        elif m.group("sq") is not None and python:
            piece = _unescape(m.group("sq")[1:-1])
        elif m.group("comment") is not None and (python or not m.group("comment").startswith("#")):
            continue  # a comment between two literals keeps them adjacent
        elif m.group("space") is not None:
            continue
        if piece is not None:
            current.append(piece)
            joining = True
        elif joining:
            runs.append("".join(current))
            current, joining = [], False
    if joining:
        runs.append("".join(current))
    return runs


_FILES = {}  # path: (text, string runs)


def _read(path):
    if path not in _FILES:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        _FILES[path] = (text, string_runs(text, python=path.endswith(".py")))
    return _FILES[path]


def file_text(path):
    return _read(path)[0]


def holds_wording(path, excerpt):
    """Whether one string literal run of the file at `path` contains `excerpt`."""
    return any(excerpt in run for run in _read(path)[1])


# ---- the catalogue ---------------------------------------------------------------------------

def split_cells(line):
    """The cells of one markdown table row; `\\|` is a literal bar."""
    line = line.strip()
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|") and not line.endswith("\\|"):
        line = line[:-1]
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)]


def code_span(cell):
    """The text of a cell that is exactly one backticked span (`x` or ``x with ` inside``), or
    None."""
    m = re.fullmatch(r"(`+)(.+?)\1", cell.strip(), re.S)
    if not m:
        return None
    text = m.group(2)
    # CommonMark strips one space each side when both are there (``  `x`  ``).
    if len(m.group(1)) > 1 and text.startswith(" ") and text.endswith(" ") and text.strip():
        text = text[1:-1]
    return text


class Row:
    def __init__(self, section, line_no, cells):
        self.section, self.line_no = section, line_no
        self.cells = dict(zip(COLUMNS, cells))
        self.error = self.cells.get("Error", "")
        self.type = code_span(self.cells.get("Type", ""))
        self.excerpt = code_span(self.cells.get("Message (excerpt)", ""))
        self.test = code_span(self.cells.get("Test", ""))

    def label(self):
        return f"line {self.line_no} [{self.section}] {self.error}"


def parse_catalogue(text):
    """(rows, problems): every row of every table, and what is malformed (a table whose header
    is not COLUMNS, a row with the wrong number of cells)."""
    rows, problems = [], []
    section, header_ok, in_table = "", False, False
    lines = text.splitlines()
    for i, line in enumerate(lines, start=1):
        if line.startswith("## "):
            section = line[3:].strip()
        if not line.lstrip().startswith("|"):
            in_table = False
            continue
        cells = split_cells(line)
        if not in_table:  # the header
            in_table = True
            header_ok = cells == COLUMNS
            if not header_ok:
                problems.append(f"line {i} [{section}]: a table's columns must be {COLUMNS}, "
                                f"found {cells}")
            continue
        if all(re.fullmatch(r":?-{3,}:?", c) for c in cells):
            continue  # the delimiter row
        if not header_ok:
            continue
        if len(cells) != len(COLUMNS):
            problems.append(f"line {i} [{section}]: {len(cells)} cells, expected {len(COLUMNS)}")
            continue
        rows.append(Row(section, i, cells))
    return rows, problems


# ---- the tests -------------------------------------------------------------------------------

_GTEST = re.compile(r"\bTEST(?:_F|_P)?\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)")


def index_tests(root):
    """{"Suite.Name": path} for every gtest case under root/tests, and every ctest name that
    tests/CMakeLists.txt registers with add_test(NAME ...), mapped to the first tests/ file its
    command names (a ${part} loop variable after a literal suite matches any name part)."""
    tests_dir = os.path.join(root, "tests")
    found = {}
    for dirpath, _, files in os.walk(tests_dir):
        for f in sorted(files):
            if f.endswith((".cpp", ".cc", ".h")):
                path = os.path.join(dirpath, f)
                for m in _GTEST.finditer(file_text(path)):
                    found.setdefault(f"{m.group(1)}.{m.group(2)}", path)
    cmake = os.path.join(tests_dir, "CMakeLists.txt")
    patterns = []
    if os.path.exists(cmake):
        text = file_text(cmake)
        for m in re.finditer(r"add_test\s*\(\s*NAME\s+(\S+)(.*?)\)\s*$", text, re.S | re.M):
            name, rest = m.group(1), m.group(2)
            script = re.search(r"\$\{CMAKE_CURRENT_SOURCE_DIR\}/(\S+?\.(?:py|cpp|sh|cmake))",
                               rest)
            path = os.path.join(tests_dir, script.group(1)) if script else cmake
            if re.search(r"\$\{", name.split(".")[0]):
                continue  # ${prefix}.${dir}: a configuration of gtest binaries found above
            regex = r"[\w-]+".join(re.escape(part) for part in re.split(r"\$\{\w+\}", name))
            patterns.append((re.compile(regex + r"\Z"), path))
    return found, patterns


def find_test(name, index):
    """The source file of the test `name` ("Suite.Name"), or None. A TEST_P case is named
    without its instantiation prefix and parameter (Devices/DDP.X/cpu is DDP.X)."""
    found, patterns = index
    bare = name.split("/", 1)[1] if name.count("/") and "." in name.split("/", 1)[1] else name
    bare = bare.split("/")[0]
    if bare in found:
        return found[bare]
    for regex, path in patterns:
        if regex.match(name):
            return path
    return None


def wording_files(root):
    files = []
    for top in ("src", "include", "tools"):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            files += [os.path.join(dirpath, n) for n in sorted(names)
                      if n.endswith((".cpp", ".h", ".cu", ".cuh", ".hpp", ".in"))]
    return files


def check_row(row, root, index, sources):
    """The reasons the row is not backed (empty when it is)."""
    why = []
    if not row.type or not re.fullmatch(r"(\w+::)*\w*Error|exit status \d+", row.type):
        why.append("Type must be one backticked C++ exception type, e.g. `tide::Error` (or "
                   "`exit status N` for a CLI line that no exception carries)")
    if not row.excerpt or len(row.excerpt) < 12:
        why.append("Message (excerpt) must be one backticked verbatim excerpt of 12+ characters")
    if not row.test or not re.fullmatch(r"[\w/.-]+\.[\w/-]+", row.test):
        why.append("Test must be one backticked test name, Suite.Name")
    if why:
        return why
    path = find_test(row.test, index)
    if path is None:
        return [f"no test named {row.test} under tests/ (TEST/TEST_F/TEST_P, or add_test in "
                f"tests/CMakeLists.txt)"]
    rel = os.path.relpath(path, root)
    if not holds_wording(path, row.excerpt):
        why.append(f"{rel} (the file of {row.test}) has no string holding the excerpt")
    short = row.type.split("::")[-1]
    if short.endswith("Error") and short != "Error" and not re.search(rf"\b{re.escape(short)}\b", file_text(path)):
        why.append(f"{rel} never mentions {short}, the row's type")
    if not any(holds_wording(s, row.excerpt) for s in sources):
        why.append("the excerpt is not tide's wording: no string in src/, include/ or tools/ "
                   "holds it")
    return why


def check_catalogue(doc_path, root, out=sys.stdout):
    """Prints one verdict per row; returns the list of failures (empty when every row is
    backed)."""
    with open(doc_path, encoding="utf-8") as f:
        rows, problems = parse_catalogue(f.read())
    index, sources = index_tests(root), wording_files(root)
    failures = list(problems)
    sections = {}
    for row in rows:
        why = check_row(row, root, index, sources)
        sections.setdefault(row.section, [0, 0])[0 if not why else 1] += 1
        print(f"{'ok  ' if not why else 'FAIL'} {row.label()}: {row.test}", file=out)
        for w in why:
            print(f"       {w}", file=out)
        if why:
            failures.append(f"{row.label()}: " + "; ".join(why))
    if not rows:
        failures.append(f"{doc_path} has no table rows")
    for p in problems:
        print(f"FAIL {p}", file=out)
    for s, (ok, bad) in sections.items():
        print(f"{s}: {ok} backed" + (f", {bad} not" if bad else ""), file=out)
    print(f"{len(rows)} rows, {len(rows) - (len(failures) - len(problems))} backed", file=out)
    return failures


# ---- tests -----------------------------------------------------------------------------------

class ErrorCatalogue(unittest.TestCase):
    def test_every_row_has_a_test_that_checks_it(self):
        failures = check_catalogue(os.path.join(REPO, "docs", "errors.md"), REPO)
        self.assertEqual(failures, [], "rows not backed by a test:\n" + "\n".join(failures))


CANNED_DOC = """# Errors

## Devices

| Error | Type | Message (excerpt) | Triggered by | What to do | Test |
| --- | --- | --- | --- | --- | --- |
| Bad string | `tide::Error` | `invalid device string` | `Device("gpu")` | Write cuda:N | `Dev.BadString` |
| Split literal | `tide::Error` | `the size of tensor a must match` | ops | Broadcast | `Dev.Split` |
| No OOM | `tide::OutOfMemoryError` | `CUDA out of memory` | big | less | `Dev.BadString` |
| Missing | `tide::Error` | `a message no test checks` | x | y | `Dev.BadString` |
| Not tide's | `tide::Error` | `only the test says this` | x | y | `Dev.Split` |
| No test | `tide::Error` | `invalid device string` | x | y | `Dev.DoesNotExist` |
| Param | `tide::Error` | `invalid device string` | x | y | `Devices/Par.Case/cpu` |
| Ctest | `tide::Error` | `invalid device string` | x | y | `Py.Part` |
"""

CANNED_TEST = r'''#include <gtest/gtest.h>
TEST(Dev, BadString) {
  EXPECT_THAT(error_of([] { Device("gpu"); }), HasSubstr("invalid device string"));
}
TEST(Dev, Split) {
  EXPECT_THAT(msg, HasSubstr("the size of tensor a "   // split over lines
                             "must match"));
  EXPECT_THAT(msg, HasSubstr("only the test says this"));
}
TEST_P(Par, Case) { EXPECT_THAT(msg, HasSubstr("invalid device string")); }
'''

CANNED_SRC = r'''void f() {
  throw Error(concat("[Device] invalid device string '", s, "'"));
  TIDE_CHECK(a == b, "[op] the size of tensor a "
             "must match");
  throw OutOfMemoryError("CUDA out of memory. Tried");
}
'''

CANNED_CMAKE = """add_test(NAME ${prefix}.${dir} COMMAND mpirun ${CMAKE_CURRENT_SOURCE_DIR}/mpi_main.cpp)
foreach(part Part Other)
  add_test(NAME Py.${part}
           COMMAND Python3::Interpreter ${CMAKE_CURRENT_SOURCE_DIR}/tools/py_test.py -k ${part})
endforeach()
"""


class Checker(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        root = self.root = self.dir.name
        for rel, text in {"docs/errors.md": CANNED_DOC, "tests/dev/dev_test.cpp": CANNED_TEST,
                          "src/dev.cpp": CANNED_SRC, "tests/CMakeLists.txt": CANNED_CMAKE,
                          "tests/tools/py_test.py":
                          'assertIn("invalid device " \n "string", out)\n'}.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w") as f:
                f.write(text)

    def tearDown(self):
        self.dir.cleanup()

    def verdicts(self):
        import io
        out = io.StringIO()
        failures = check_catalogue(os.path.join(self.root, "docs", "errors.md"), self.root, out)
        return failures, out.getvalue()

    def failure_of(self, error):
        failures, _ = self.verdicts()
        return [f for f in failures if f"] {error}:" in f]

    def test_adjacent_literals_are_joined_and_escapes_resolved(self):
        self.assertEqual(string_runs('f("abc "\n   "def", x, "g\\"h\\"");'),
                         ["abc def", 'g"h"'])
        self.assertEqual(string_runs('"a" /* c */ "b" // d\n "c"'), ["abc"])
        self.assertEqual(string_runs('R"(raw \\n)" "x"'), ["raw \\nx"])
        self.assertEqual(string_runs("assertIn('one ' 'two', x)", python=True), ["one two"])

    def test_rows_are_parsed_by_section_with_their_cells(self):
        rows, problems = parse_catalogue(CANNED_DOC)
        self.assertEqual(problems, [])
        self.assertEqual(len(rows), 8)
        self.assertEqual((rows[0].section, rows[0].type, rows[0].excerpt, rows[0].test),
                         ("Devices", "tide::Error", "invalid device string", "Dev.BadString"))
        self.assertEqual(code_span("``a `b` c``"), "a `b` c")
        self.assertEqual(split_cells(r"| a \| b | c |"), ["a | b", "c"])

    def test_a_backed_row_passes(self):
        self.assertEqual(self.failure_of("Bad string"), [])

    def test_a_message_split_over_two_literals_in_test_and_source_is_backed(self):
        self.assertEqual(self.failure_of("Split literal"), [])

    def test_a_row_whose_excerpt_the_test_file_lacks_fails(self):
        [failure] = self.failure_of("Missing")
        self.assertIn("has no string holding the excerpt", failure)

    def test_a_subclass_the_test_file_never_names_fails(self):
        [failure] = self.failure_of("No OOM")
        self.assertIn("never mentions OutOfMemoryError", failure)
        self.assertIn("has no string holding the excerpt", failure)

    def test_an_excerpt_that_is_not_in_the_sources_fails(self):
        [failure] = self.failure_of("Not tide's")
        self.assertIn("not tide's wording", failure)

    def test_a_test_that_does_not_exist_fails(self):
        [failure] = self.failure_of("No test")
        self.assertIn("no test named Dev.DoesNotExist", failure)

    def test_test_p_cases_and_ctest_names_are_found(self):
        self.assertEqual(self.failure_of("Param"), [])
        self.assertEqual(self.failure_of("Ctest"), [])

    def test_the_report_gives_every_row_a_verdict_and_counts_them(self):
        failures, out = self.verdicts()
        self.assertEqual(len(failures), 4)
        self.assertEqual(out.count("\nok  ") + out.startswith("ok  "), 4)
        self.assertIn("8 rows, 4 backed", out)

    def test_a_table_with_other_columns_is_reported(self):
        _, problems = parse_catalogue("## X\n\n| Error | Message |\n| --- | --- |\n| a | b |\n")
        self.assertEqual(len(problems), 1)
        self.assertIn("columns must be", problems[0])


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--check":
        doc = sys.argv[2] if len(sys.argv) > 2 else os.path.join(REPO, "docs", "errors.md")
        sys.exit(1 if check_catalogue(doc, REPO) else 0)
    unittest.main()
