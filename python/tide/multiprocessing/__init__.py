"""tide.multiprocessing: Python's multiprocessing with tensors that cross processes through
shared memory (torch.multiprocessing): every name of multiprocessing, plus spawn and
start_processes, and the sharing-strategy functions.

Use the spawn start method (``spawn()``, ``get_context("spawn")``, or
``set_start_method("spawn")``) once tide has run anything: a forked child inherits only the
thread that forked, and tide's device streams, copy threads and communication threads are
threads of the parent, so the child could wait forever on one of them. As torch, tide leaves
Python's default start method as it is."""

import multiprocessing
from multiprocessing import *  # noqa: F401,F403  (torch re-exports the whole module)

from .reductions import init_reductions
from .spawn import (ProcessContext, ProcessException, ProcessExitedException,
                    ProcessRaisedException, SpawnContext, spawn, start_processes)

__all__ = ["set_sharing_strategy", "get_sharing_strategy", "get_all_sharing_strategies",
           "spawn", "start_processes", "ProcessContext", "SpawnContext", "ProcessException",
           "ProcessRaisedException", "ProcessExitedException"] + multiprocessing.__all__

_STRATEGIES = {"file_descriptor"}


def get_all_sharing_strategies():
    """The strategies tide can share cpu tensors with: file descriptors only (Note [Shared
    memory segments]: nothing is left in /dev/shm, which is what file_system risks)."""
    return set(_STRATEGIES)


def get_sharing_strategy():
    return "file_descriptor"


def set_sharing_strategy(new_strategy):
    if new_strategy not in _STRATEGIES:
        raise RuntimeError(f"[tide.multiprocessing.set_sharing_strategy] expected one of "
                           f"{sorted(_STRATEGIES)}, found {new_strategy!r}; tide shares tensors "
                           "through file descriptors only")


init_reductions()
