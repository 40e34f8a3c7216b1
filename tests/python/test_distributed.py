"""tide.distributed from Python under a real mpirun with 2 ranks (tests/python/dist/
collectives_worker.py): the collectives, async Work, barrier releasing the GIL, and the
DistributedSampler, on cpu tensors and on one simulated GPU per rank. Skipped without mpirun."""

import os

import pytest

from mpi_job import MPIRUN, SKIP_REASON, run_two_ranks

import tide
import tide.distributed as dist

WORKER = os.path.join(os.path.dirname(__file__), "dist", "collectives_worker.py")


@pytest.mark.skipif(MPIRUN is None, reason=SKIP_REASON)
@pytest.mark.parametrize("device, sim", [("cpu", None), ("cuda", "1")])
def test_collectives_from_python_on_two_ranks(device, sim, tmp_path):
    run_two_ranks(WORKER, device, sim, {"TIDE_TEST_HANDSHAKE_DIR": str(tmp_path)})


def test_calls_before_init_raise_tides_error():
    assert not dist.is_initialized()
    with pytest.raises(RuntimeError, match="init_process_group"):
        dist.get_rank()
    with pytest.raises(TypeError, match="datetime.timedelta"):
        dist.init_process_group(timeout=5)
    assert dist.ReduceOp.SUM != dist.ReduceOp.AVG
