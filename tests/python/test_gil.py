"""Calls that wait for a device release the GIL (Note [The GIL] in python/src/bind_tensor.cpp),
also from Python code that backward runs (Note [Python code in backward] in bind_autograd.cpp).

Each case runs in a child process (so a held GIL shows up as a timeout, not a hung test run):
the child holds a simulated stream (tide._C._testing.hold_stream) so that its queued work
cannot finish, starts a thread whose call must wait for that work, and then, on the main
thread, looks at the waiting thread's Python frame. Seeing that frame stopped at its call
instruction proves the waiting thread released the GIL inside the call: had it kept the GIL,
the main thread could not be running Python to look. The main thread then releases the stream
and joins the waiter, which must return the right value. No sleeps: the main thread yields
until the waiter is inside its call, with a deadline that turns a failure into a message.
"""

import os
import subprocess
import sys
import textwrap

import pytest

CHILD = textwrap.dedent("""
    import dis, sys, threading, time
    import tide
    from tide._C import _testing

    assert _testing.sim_active()
    stream = tide.cuda.current_stream(0)
    x = tide.ones(3, device="cuda:0")
    leaf = tide.ones(3, device="cuda:0", requires_grad=True)
    tide.cuda.synchronize(0)
    _testing.hold_stream(stream)
    y = x * 2  # queued behind the hold: nothing that needs y can finish
    event = stream.record_event()
    host = tide.empty(3)


    class WaitsInBackward(tide.autograd.Function):
        # Python code that the engine runs (Note [Python code in backward]) and that waits.
        @staticmethod
        def forward(ctx, t):
            return t * 1.0

        @staticmethod
        def backward(ctx, g):
            return g * y.sum().item()


    def backward_through_python():
        WaitsInBackward.apply(leaf).sum().backward()
        return leaf.grad

    CASES = {
        "tide.cuda.synchronize()": lambda: (tide.cuda.synchronize, None),
        "Stream.synchronize()": lambda: (stream.synchronize, None),
        "Event.synchronize()": lambda: (event.synchronize, None),
        "x.item()": lambda: (y.sum().item, 6.0),
        "x.cpu()": lambda: (y.cpu, [2.0, 2.0, 2.0]),
        "x.to('cpu')": lambda: (lambda: y.to("cpu"), [2.0, 2.0, 2.0]),
        "x.tolist()": lambda: (y.tolist, [2.0, 2.0, 2.0]),
        "repr(x)": lambda: (y.__repr__, "tensor([2., 2., 2.], device='cuda:0')"),
        "cpu.copy_(x)": lambda: (lambda: host.copy_(y), [2.0, 2.0, 2.0]),
        "bool(x)": lambda: (y.sum().__bool__, True),
        "Function.backward waiting": lambda: (backward_through_python, [6.0, 6.0, 6.0]),
    }
    fn, expected = CASES[sys.argv[1]]()
    out = []

    def waiter():
        out.append(fn())

    calls = {"CALL", "CALL_FUNCTION", "CALL_METHOD", "CALL_FUNCTION_EX", "CALL_KW"}

    def inside_a_call(thread):
        frame = sys._current_frames().get(thread.ident)
        if frame is None:
            return False
        ops = {i.offset: i.opname for i in dis.get_instructions(frame.f_code)}
        if ops.get(frame.f_lasti) not in calls:
            return False
        if frame.f_code.co_name == "_to":
            # Tensor.to's Python half calls parse_to first: only its call of the compiled
            # _to is the one that waits.
            import linecache
            return "self._to(" in linecache.getline(frame.f_code.co_filename, frame.f_lineno)
        return frame.f_code.co_name in ("waiter", "<lambda>", "backward")

    t = threading.Thread(target=waiter, daemon=True)
    t.start()
    deadline = time.monotonic() + 60
    while not inside_a_call(t):  # spins; the interpreter's switch interval lets t run
        assert time.monotonic() < deadline, "the waiter never reached its call"
    # This thread runs Python while the waiter is inside its call: the GIL was released.
    assert not out and t.is_alive() and not stream.query()
    _testing.release_stream(stream)
    t.join(timeout=60)
    assert not t.is_alive(), "the call did not return after the stream was released"
    result = out[0]
    if hasattr(result, "tolist"):
        result = result.tolist()
    assert expected is None or result == expected, (result, expected)
    print("released the GIL")
""")

CASES = ["tide.cuda.synchronize()", "Stream.synchronize()", "Event.synchronize()", "x.item()",
         "x.cpu()", "x.to('cpu')", "x.tolist()", "repr(x)", "cpu.copy_(x)", "bool(x)",
         "Function.backward waiting"]


@pytest.mark.parametrize("call", CASES)
def test_a_call_waiting_for_a_held_stream_releases_the_gil(call):
    env = dict(os.environ, TIDE_SIM_DEVICES="3", PYTHONPATH=os.pathsep.join(sys.path))
    env.pop("CUDA_VISIBLE_DEVICES", None)
    try:
        proc = subprocess.run([sys.executable, "-c", CHILD, call], env=env, capture_output=True,
                              text=True, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{call} on a held stream kept the GIL: the main thread could not run "
                    "Python to release the stream (the child hung for 120 s)")
    assert proc.returncode == 0 and "released the GIL" in proc.stdout, proc.stdout + proc.stderr
