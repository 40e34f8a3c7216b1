"""tide.nn.parallel.DistributedDataParallel on a Python module under a real mpirun with 2 ranks
(tests/python/dist/ddp_worker.py), on cpu tensors and on one simulated GPU per rank: gradients
equal to one process running the whole batch, identical replicas after SGD steps, no_sync,
buffers, unused parameters and torch's errors. Skipped without mpirun."""

import os
import re
import shutil
import subprocess
import sys

import pytest

import tide
import tide.nn as nn
from tide.nn.parallel import DistributedDataParallel

WORKER = os.path.join(os.path.dirname(__file__), "dist", "ddp_worker.py")
MPIRUN = shutil.which("mpirun")


@pytest.mark.skipif(MPIRUN is None, reason="mpirun is not installed (Open MPI's mpirun runs the "
                                           "2-rank job)")
@pytest.mark.parametrize("device, sim", [("cpu", None), ("cuda", "1")])
def test_ddp_from_python_on_two_ranks(device, sim):
    env = dict(os.environ, TIDE_TEST_DIST_TIMEOUT_MS="60000")
    env.pop("TIDE_SIM_DEVICES", None)
    if sim:
        env["TIDE_SIM_DEVICES"] = sim
    cmd = [MPIRUN, "--allow-run-as-root", "--oversubscribe",
           "--mca", "btl_vader_single_copy_mechanism", "none", "-n", "2",
           "-x", "PYTHONPATH", sys.executable, WORKER, device]
    if sim:
        cmd[1:1] = ["-x", "TIDE_SIM_DEVICES"]
    result = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    # mpirun forwards each rank's output in chunks: a line's newline may come apart from its
    # text, so the two ranks' lines can interleave; count the messages, not the lines.
    assert sorted(re.findall(r"rank (\d+) ok", result.stdout)) == ["0", "1"], result.stdout


def test_torchs_spellings():
    assert tide.nn.parallel.DistributedDataParallel is DistributedDataParallel
    assert tide.nn.parallel.distributed.DistributedDataParallel is DistributedDataParallel


def test_construction_before_init_process_group_raises():
    with pytest.raises(RuntimeError, match="init_process_group"):
        DistributedDataParallel(nn.Linear(2, 2))
