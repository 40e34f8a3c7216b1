"""tide.nn.parallel.DistributedDataParallel on a Python module under a real mpirun with 2 ranks
(tests/python/dist/ddp_worker.py), on cpu tensors and on one simulated GPU per rank: gradients
equal to one process running the whole batch, identical replicas after SGD steps, no_sync,
buffers, unused parameters and torch's errors. Skipped without mpirun."""

import os

import pytest

from mpi_job import MPIRUN, SKIP_REASON, run_two_ranks

import tide
import tide.nn as nn
from tide.nn.parallel import DistributedDataParallel

WORKER = os.path.join(os.path.dirname(__file__), "dist", "ddp_worker.py")


@pytest.mark.skipif(MPIRUN is None, reason=SKIP_REASON)
@pytest.mark.parametrize("device, sim", [("cpu", None), ("cuda", "1")])
def test_ddp_from_python_on_two_ranks(device, sim):
    run_two_ranks(WORKER, device, sim)


def test_torchs_spellings():
    assert tide.nn.parallel.DistributedDataParallel is DistributedDataParallel
    assert tide.nn.parallel.distributed.DistributedDataParallel is DistributedDataParallel


def test_construction_before_init_process_group_raises():
    with pytest.raises(RuntimeError, match="init_process_group"):
        DistributedDataParallel(nn.Linear(2, 2))
