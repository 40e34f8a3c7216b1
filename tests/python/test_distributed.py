"""tide.distributed from Python under a real mpirun with 2 ranks (tests/python/dist/
collectives_worker.py): the collectives, async Work, barrier releasing the GIL, and the
DistributedSampler, on cpu tensors and on one simulated GPU per rank. Skipped without mpirun."""

import os
import re
import shutil
import subprocess
import sys

import pytest

import tide
import tide.distributed as dist

WORKER = os.path.join(os.path.dirname(__file__), "dist", "collectives_worker.py")
MPIRUN = shutil.which("mpirun")


@pytest.mark.skipif(MPIRUN is None, reason="mpirun is not installed (Open MPI's mpirun runs the "
                                           "2-rank job)")
@pytest.mark.parametrize("device, sim", [("cpu", None), ("cuda", "1")])
def test_collectives_from_python_on_two_ranks(device, sim, tmp_path):
    env = dict(os.environ, TIDE_TEST_DIST_TIMEOUT_MS="60000",
               TIDE_TEST_HANDSHAKE_DIR=str(tmp_path))
    env.pop("TIDE_SIM_DEVICES", None)
    if sim:
        env["TIDE_SIM_DEVICES"] = sim
    cmd = [MPIRUN, "--allow-run-as-root", "--oversubscribe",
           "--mca", "btl_vader_single_copy_mechanism", "none", "-n", "2",
           "-x", "PYTHONPATH", "-x", "TIDE_TEST_HANDSHAKE_DIR", sys.executable, WORKER, device]
    if sim:
        cmd[1:1] = ["-x", "TIDE_SIM_DEVICES"]
    result = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    # mpirun forwards each rank's output in chunks: a line's newline may come apart from its
    # text, so the two ranks' lines can interleave; count the messages, not the lines.
    assert sorted(re.findall(r"rank (\d+) ok", result.stdout)) == ["0", "1"], result.stdout


def test_calls_before_init_raise_tides_error():
    assert not dist.is_initialized()
    with pytest.raises(RuntimeError, match="init_process_group"):
        dist.get_rank()
    with pytest.raises(TypeError, match="datetime.timedelta"):
        dist.init_process_group(timeout=5)
    assert dist.ReduceOp.SUM != dist.ReduceOp.AVG
