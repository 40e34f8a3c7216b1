"""Runs a worker script as a real 2-rank mpirun job (tests/python/dist/), for the tests of
tide.distributed and DistributedDataParallel; on cpu, or with one simulated GPU per rank."""

import os
import re
import shutil
import subprocess
import sys

MPIRUN = shutil.which("mpirun")
SKIP_REASON = "mpirun is not installed (Open MPI's mpirun runs the 2-rank job)"


def run_two_ranks(worker, device, sim, extra_env=None):
    """Runs `worker device` on 2 ranks and checks that both exit 0 and print "rank R ok"."""
    env = dict(os.environ, TIDE_TEST_DIST_TIMEOUT_MS="60000", **(extra_env or {}))
    env.pop("TIDE_SIM_DEVICES", None)
    forwarded = ["PYTHONPATH"] + list(extra_env or {})
    if sim:
        env["TIDE_SIM_DEVICES"] = sim
        forwarded.append("TIDE_SIM_DEVICES")
    cmd = [MPIRUN, "--allow-run-as-root", "--oversubscribe",
           "--mca", "btl_vader_single_copy_mechanism", "none", "-n", "2"]
    for name in forwarded:
        cmd += ["-x", name]
    cmd += [sys.executable, worker, device]
    result = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    # mpirun forwards each rank's output in chunks: a line's newline may come apart from its
    # text, so the two ranks' lines can interleave; count the messages, not the lines.
    assert sorted(re.findall(r"rank (\d+) ok", result.stdout)) == ["0", "1"], result.stdout
