"""tide.distributed: one process per device, joined in a process group by mpirun (or RANK /
WORLD_SIZE / LOCAL_RANK), with torch.distributed's names. Collectives run on MPI (cpu tensors,
simulated GPUs) or NCCL (real GPUs); every call that waits for peers releases the GIL."""

import datetime

from .. import _C
from .._C import DistBackendError

_d = _C._distributed

ReduceOp = _d.ReduceOp
Work = _d.Work
is_initialized = _d.is_initialized
get_local_rank = _d.get_local_rank

default_pg_timeout = datetime.timedelta(minutes=30)


def is_available():
    """Whether tide was built with a communication engine (MPI or NCCL)."""
    return True


def init_process_group(backend=None, init_method=None, timeout=None, world_size=-1, rank=-1,
                       store=None, group_name="", pg_options=None):
    """Joins this process to the group the launcher started (mpirun, or the RANK, WORLD_SIZE
    and LOCAL_RANK variables). backend: None (NCCL on real GPUs, MPI otherwise), "mpi" or
    "nccl". world_size and rank, when given, must be the launcher's."""
    if init_method not in (None, "env://"):
        raise ValueError(f"init_process_group: tide takes the group from the launcher's "
                         f"environment (init_method 'env://'), found init_method={init_method!r}")
    if store is not None:
        raise ValueError("init_process_group: tide has no Store; start the processes with "
                         "mpirun (or set RANK, WORLD_SIZE and LOCAL_RANK)")
    if timeout is None:
        timeout = default_pg_timeout
    if not isinstance(timeout, datetime.timedelta):
        raise TypeError(f"init_process_group: expected timeout to be a datetime.timedelta, "
                        f"found {type(timeout).__name__}")
    _d.init_process_group("" if backend is None else str(backend).lower(), timeout)
    for name, given, actual in (("world_size", world_size, _d.get_world_size()),
                                ("rank", rank, _d.get_rank())):
        if given not in (-1, None) and given != actual:
            _d.destroy_process_group()
            raise ValueError(f"init_process_group: {name}={given} but the launcher made this "
                             f"process's {name} {actual}; leave {name} out")


def _group(group):
    if group is not None:
        raise _C.Error("[tide.distributed] tide has one process group, the default one; pass "
                       "group=None")


def destroy_process_group(group=None):
    _group(group)
    _d.destroy_process_group()


def get_rank(group=None):
    _group(group)
    return _d.get_rank()


def get_world_size(group=None):
    _group(group)
    return _d.get_world_size()


def get_backend(group=None):
    _group(group)
    return _d.get_backend()


def barrier(group=None, async_op=False, device_ids=None):
    """Waits until every rank has called it (releasing the GIL meanwhile). device_ids is
    accepted and unused: tide's barrier is a wait on the host, on every backend."""
    _group(group)
    if async_op:
        raise _C.Error("[tide.distributed.barrier] async_op=True is not supported: barrier() "
                       "waits on the host and releases the GIL, so call it from a thread to "
                       "go on meanwhile")
    _d.barrier()


def all_reduce(tensor, op=ReduceOp.SUM, group=None, async_op=False):
    """tensor becomes the reduction of every rank's tensor (in place)."""
    _group(group)
    return _d.all_reduce(tensor, op, async_op)


def broadcast(tensor, src, group=None, async_op=False):
    """Every rank's tensor becomes rank src's."""
    _group(group)
    return _d.broadcast(tensor, src, async_op)


def all_gather(tensor_list, tensor, group=None, async_op=False):
    """tensor_list[r] receives rank r's tensor (tensor_list holds world-size tensors)."""
    _group(group)
    return _d.all_gather(list(tensor_list), tensor, async_op)


def reduce_scatter(output, input_list, op=ReduceOp.SUM, group=None, async_op=False):
    """output becomes the reduction over ranks of their input_list[rank]."""
    _group(group)
    return _d.reduce_scatter(output, list(input_list), op, async_op)
