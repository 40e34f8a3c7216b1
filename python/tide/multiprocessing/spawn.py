"""spawn(fn, args, nprocs): runs fn(i, *args) in nprocs new processes and raises in the parent
when one of them fails, naming it and carrying its traceback (torch.multiprocessing.spawn)."""

import multiprocessing
import multiprocessing.connection
import signal
import sys
import traceback


class ProcessException(Exception):
    def __init__(self, msg, error_index, pid):
        super().__init__(msg)
        self.msg = msg
        self.error_index = error_index
        self.pid = pid

    def __reduce__(self):
        return type(self), (self.msg, self.error_index, self.pid)


class ProcessRaisedException(ProcessException):
    """A process raised: the message holds its traceback."""


class ProcessExitedException(ProcessException):
    """A process ended with a non-zero exit code or a signal, without raising in Python."""

    def __init__(self, msg, error_index, error_pid, exit_code, signal_name=None):
        super().__init__(msg, error_index, error_pid)
        self.exit_code = exit_code
        self.signal_name = signal_name

    def __reduce__(self):
        return (type(self),
                (self.msg, self.error_index, self.pid, self.exit_code, self.signal_name))


def _wrap(fn, i, args, error_queue):
    try:
        fn(i, *args)
    except KeyboardInterrupt:
        pass  # the parent stopped the job: no traceback to report
    except Exception:
        error_queue.put(traceback.format_exc())
        sys.exit(1)


class ProcessContext:
    def __init__(self, processes, error_queues):
        self.processes = processes
        self.error_queues = error_queues
        self.sentinels = {p.sentinel: i for i, p in enumerate(processes)}

    def pids(self):
        return [p.pid for p in self.processes]

    def join(self, timeout=None):
        """Waits up to timeout seconds (forever with None) for a process to end. Returns True
        when every process has ended successfully, False while some still run; raises
        ProcessRaisedException or ProcessExitedException for the first that failed, after
        terminating the others."""
        if not self.sentinels:
            return True
        ready = multiprocessing.connection.wait(self.sentinels.keys(), timeout=timeout)
        error_index = None
        for sentinel in ready:
            index = self.sentinels.pop(sentinel)
            process = self.processes[index]
            process.join()
            if process.exitcode != 0:
                error_index = index
                break
        if error_index is None:
            return not self.sentinels
        for process in self.processes:
            if process.is_alive():
                process.terminate()
            process.join()
        failed = self.processes[error_index]
        queue = self.error_queues[error_index]
        if queue.empty():
            code = failed.exitcode
            if code < 0:
                name = signal.Signals(-code).name
                raise ProcessExitedException(
                    f"process {error_index} terminated with signal {name}", error_index,
                    failed.pid, code, name)
            raise ProcessExitedException(
                f"process {error_index} terminated with exit code {code}", error_index,
                failed.pid, code)
        original = queue.get()
        msg = f"\n\n-- Process {error_index} terminated with the following error:\n{original}"
        raise ProcessRaisedException(msg, error_index, failed.pid)


class SpawnContext(ProcessContext):
    """What spawn(join=False) returned in older torch; the same as ProcessContext."""


def start_processes(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    """Starts nprocs processes of start_method running fn(i, *args); with join, waits for all
    and raises if one fails, else returns the ProcessContext to join."""
    ctx = multiprocessing.get_context(start_method)
    error_queues = []
    processes = []
    for i in range(nprocs):
        error_queue = ctx.SimpleQueue()
        process = ctx.Process(target=_wrap, args=(fn, i, args, error_queue), daemon=daemon)
        process.start()
        error_queues.append(error_queue)
        processes.append(process)
    context = ProcessContext(processes, error_queues)
    if not join:
        return context
    while not context.join():
        pass


def spawn(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    """start_processes with the spawn start method (torch.multiprocessing.spawn)."""
    if start_method != "spawn":
        raise ValueError(f"spawn() expected start_method 'spawn', found {start_method!r}; use "
                         "start_processes() for other start methods")
    return start_processes(fn, args, nprocs, join, daemon, start_method="spawn")
