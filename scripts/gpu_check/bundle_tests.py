"""The bundle's tests without CMake: ctest's list (`ctest --show-only=json-v1`) cut to the
bundled binaries and rewritten to bundle paths (tests.json), and a runner that runs entries of
it the way ctest would: one process each, in parallel, with each test's environment, timeout,
skip and pass rules, and a deadline after which the rest are reported as not run."""
import os
import re
import shlex
import subprocess
import tempfile
import threading
import time

from .bundle_layout import PLACEHOLDER, expand
from .commands import run

DEFAULT_TIMEOUT_S = 300.0


def bundle_path(path, binaries, mpiexec=None):
    """The {bundle}/... form of a path the bundle holds (a bundled binary, or the mpiexec
    that ctest's command starts with), else None."""
    if mpiexec and path == mpiexec:
        return f"{PLACEHOLDER}/mpi/bin/mpiexec"
    return f"{PLACEHOLDER}/bin/{os.path.basename(path)}" if path in binaries else None


def from_ctest(ctest_json, binaries, build_dir, source_dir, mpiexec=None):
    """tests.json's entries from ctest's JSON: the tests that run one of `binaries` (paths in
    the build tree), directly or under mpiexec, with every path rewritten to {bundle}/...
    A leftover path into the build or source tree is an error: it would not exist there."""
    entries = []
    for test in ctest_json["tests"]:
        command = test.get("command") or []
        if not command:
            continue
        rewritten = [bundle_path(a, binaries, mpiexec if i == 0 else None) or a
                     for i, a in enumerate(command)]
        bundled = [a for a in rewritten if a.startswith(f"{PLACEHOLDER}/bin/")]
        if not bundled or not (rewritten[0] in bundled
                               or rewritten[0] == f"{PLACEHOLDER}/mpi/bin/mpiexec"):
            continue
        props = {p["name"]: p["value"] for p in test.get("properties", [])}
        entry = {"name": test["name"], "command": rewritten,
                 "env": dict(kv.split("=", 1) for kv in props.get("ENVIRONMENT", [])),
                 "timeout": float(props.get("TIMEOUT", DEFAULT_TIMEOUT_S)),
                 "processors": int(props.get("PROCESSORS", 1))}
        for key, prop in (("skip_regex", "SKIP_REGULAR_EXPRESSION"),
                          ("pass_regex", "PASS_REGULAR_EXPRESSION")):
            if prop in props:
                entry[key] = props[prop] if isinstance(props[prop], list) else [props[prop]]
        if "SKIP_RETURN_CODE" in props:
            entry["skip_return_code"] = int(props["SKIP_RETURN_CODE"])
        text = " ".join(entry["command"] + list(entry["env"].values()))
        for tree in (build_dir, source_dir):
            if tree and re.search(rf"(^|[\s=:,'\"]){re.escape(tree)}(/|$|[\s'\"])", text):
                raise ValueError(f"[gpu-bundle] expected test {entry['name']} to name only "
                                 f"bundled paths, found {tree} in `{text}`; bundle what it "
                                 "reads or make the test read it from an environment variable")
        entries.append(entry)
    return entries


def select(entries, pattern):
    return [e for e in entries if re.search(pattern, e["name"])]


class Result(dict):
    """{name, status: passed|failed|skipped|timeout|not run, seconds, exit}."""


def judge(entry, rc, output):
    if entry.get("skip_return_code") is not None and rc == entry["skip_return_code"]:
        return "skipped"
    if any(re.search(r, output) for r in entry.get("skip_regex", [])):
        return "skipped"
    if entry.get("pass_regex"):
        return "passed" if any(re.search(r, output) for r in entry["pass_regex"]) else "failed"
    return "passed" if rc == 0 else "failed"


def run_one(entry, root, env, timeout, workdir):
    """Runs one entry in its own process group; (status, exit code, output, seconds)."""
    cmd = [expand(a, root) for a in entry["command"]]
    test_env = dict(env)
    test_env.update({k: expand(v, root) for k, v in entry.get("env", {}).items()})
    start = time.monotonic()
    rc, text, timed_out = run(cmd, timeout=timeout, env=test_env, cwd=workdir)
    seconds = round(time.monotonic() - start, 2)
    return ("timeout" if timed_out else judge(entry, rc, text)), rc, text, seconds


def run_tests(entries, root, env, jobs, log_path, deadline=None, timeout_cap=None,
              keep_output=None):
    """Runs entries, `jobs` process slots at a time (a test takes its PROCESSORS' worth);
    none starts after `deadline` (time.monotonic()), and each one's timeout is cut to it.
    Appends each failure's output to log_path (and every test's, when keep_output(name)).
    Returns the results in the entries' order."""
    results = [None] * len(entries)
    lock = threading.Condition()
    free = [max(1, jobs)]
    scratch = tempfile.mkdtemp(prefix="tide-bundle-tests-")

    def worker(i, entry, need):
        timeout = float(entry.get("timeout") or DEFAULT_TIMEOUT_S)
        if timeout_cap:
            timeout = min(timeout, timeout_cap)
        if deadline is not None:
            timeout = max(1.0, min(timeout, deadline - time.monotonic()))
        workdir = tempfile.mkdtemp(dir=scratch)
        status, rc, out, seconds = run_one(entry, root, env, timeout, workdir)
        with lock:
            results[i] = Result(name=entry["name"], status=status, seconds=seconds, exit=rc)
            if status in ("failed", "timeout") or (keep_output and keep_output(entry["name"])):
                with open(log_path, "a") as f:
                    f.write(f"==== {entry['name']}: {status} (exit {rc}, {seconds}s)\n$ "
                            f"{shlex.join(expand(a, root) for a in entry['command'])}\n{out}\n")
            free[0] += need
            lock.notify_all()

    threads = []
    for i, entry in enumerate(entries):
        need = min(max(1, int(entry.get("processors", 1))), max(1, jobs))
        with lock:
            while free[0] < need:
                lock.wait()
            if deadline is not None and time.monotonic() >= deadline:
                break
            free[0] -= need
        t = threading.Thread(target=worker, args=(i, entry, need), daemon=True)
        t.start()
        threads.append(t)
    for t in threads:
        t.join()
    for i, entry in enumerate(entries):
        if results[i] is None:
            results[i] = Result(name=entry["name"], status="not run", seconds=0.0, exit=None)
    subprocess.run(["rm", "-rf", scratch], check=False)
    return results


def count(results):
    """{total, passed, failed, skipped, not_run, failed_names} over results."""
    c = {"total": len(results), "passed": 0, "failed": 0, "skipped": 0, "not_run": 0,
         "failed_names": []}
    for r in results:
        if r["status"] == "passed":
            c["passed"] += 1
        elif r["status"] == "skipped":
            c["skipped"] += 1
        elif r["status"] == "not run":
            c["not_run"] += 1
        else:
            c["failed"] += 1
            c["failed_names"].append(f"{r['name']} ({r['status']})")
    return c
