"""Running the check's commands: each in its own process group, killed whole on timeout,
its output returned and appended to a log; and small helpers for reading that output."""
import os
import re
import shlex
import shutil
import signal
import subprocess
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(cmd, log_path=None, timeout=None, env=None, cwd=REPO):
    """Runs cmd in its own process group (killed whole on timeout); returns (rc, output,
    timed_out). The output also goes to log_path."""
    start = time.monotonic()
    try:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, start_new_session=True)
    except OSError as e:
        return 127, f"{cmd[0]}: {e}", False
    timed_out = False
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                out, _ = proc.communicate(timeout=10)
                break
            except subprocess.TimeoutExpired:
                continue
        else:
            out = b""
    text = (out or b"").decode("utf-8", "replace")
    if log_path:
        with open(log_path, "a") as f:
            f.write(f"$ {shlex.join(cmd)}\n{text}\n"
                    f"[exit {proc.returncode}{', timed out' if timed_out else ''}, "
                    f"{time.monotonic() - start:.1f}s]\n")
    return (124 if timed_out else proc.returncode), text, timed_out


def tail(text, lines=15):
    return "\n".join(text.strip().splitlines()[-lines:])


def find_tool(name):
    """A CUDA tool on PATH or in /usr/local/cuda/bin."""
    path = shutil.which(name)
    if path:
        return path
    path = os.path.join("/usr/local/cuda/bin", name)
    return path if os.access(path, os.X_OK) else None


def first_line_matching(text, pattern):
    m = re.search(pattern, text, re.M)
    return m.group(1).strip() if m else None
