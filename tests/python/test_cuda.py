"""tide.cuda from Python, as torch.cuda: devices and the current device, streams and events,
the caching allocator's statistics and snapshots, pinned non_blocking copies, the default
tensor type, and CUDA_VISIBLE_DEVICES read at the first cuda call."""

import os
import subprocess
import sys
import textwrap

import pytest

import tide
from tide._C import _testing


@pytest.fixture(autouse=True)
def _device_zero():
    tide.cuda.set_device(0)
    yield
    tide.cuda.set_device(0)


@pytest.mark.gpus(3)
def test_three_simulated_devices_and_their_properties():
    assert tide.cuda.is_available() and tide.cuda.device_count() == 3
    p = tide.cuda.get_device_properties(2)
    assert p.simulated and p.total_memory > 0
    assert tide.cuda.get_device_name("cuda:1") == tide.cuda.get_device_properties(1).name


def test_the_device_context_and_set_device_choose_where_tensors_are_made():
    assert tide.cuda.current_device() == 0
    with tide.cuda.device(1):
        assert tide.cuda.current_device() == 1
        assert tide.ones(1, device="cuda").device == tide.device("cuda", 1)
        assert tide.ones(1).cuda().get_device() == 1
        with tide.cuda.device("cuda:2"):
            assert tide.cuda.current_device() == 2
        with tide.cuda.device(None):  # changes nothing, as torch
            assert tide.cuda.current_device() == 1
    assert tide.cuda.current_device() == 0
    tide.cuda.set_device(2)
    assert tide.ones(1, device="cuda").get_device() == 2
    x = tide.ones(1, device="cuda:1")
    with tide.cuda.device_of(x):
        assert tide.cuda.current_device() == 1


def test_tensors_stay_where_they_were_made_and_results_follow_them():
    # the seeds' example: cuda0, cuda2 and the context on device 1
    cuda, cuda0, cuda2 = tide.device("cuda"), tide.device("cuda:0"), tide.device("cuda:2")
    x = tide.tensor([1., 2.], device=cuda0)
    with tide.cuda.device(1):
        a = tide.tensor([1., 2.], device=cuda)
        b = tide.tensor([1., 2.]).to(device=cuda)
        assert (a + b).device == tide.device("cuda", 1)
        assert (x + x).device == cuda0  # the operands' device, not the current one
        for t in (tide.randn(2, device=cuda2), tide.randn(2).to(cuda2), tide.randn(2).cuda(cuda2),
                  tide.randn(2).cuda(2)):
            assert t.device == tide.device("cuda", 2)
    assert x.device == cuda0 and repr(cuda2) == "device(type='cuda', index=2)"
    assert x.new_full([2], 3.).device == cuda0 and tide.zeros_like(x).device == cuda0


@pytest.mark.gpus(2)
def test_streams_are_current_inside_their_context():
    s = tide.cuda.Stream(device=1)
    assert s.device == tide.device("cuda", 1) and s != tide.cuda.default_stream(1)
    assert tide.cuda.current_stream(1) == tide.cuda.default_stream(1)
    with tide.cuda.stream(s):
        assert tide.cuda.current_stream() == s and tide.cuda.current_device() == 1
    assert tide.cuda.current_stream(1) == tide.cuda.default_stream(1)
    assert tide.cuda.current_device() == 0
    with tide.cuda.stream(None):
        assert tide.cuda.current_stream() == tide.cuda.default_stream(0)


@pytest.mark.gpus(2)
@pytest.mark.sim_only
def test_cuda_stream_raises_on_a_simulated_gpu():
    # Note [A stream's cudaStream_t] (include/tide/cuda/stream.h): no integer is safe to hand a
    # CUDA library for a simulated stream (0 would be the real legacy default stream, anything
    # else a pointer), so torch's Stream.cuda_stream raises here, on default and pooled streams.
    for s in (tide.cuda.default_stream(), tide.cuda.current_stream(1), tide.cuda.Stream()):
        with pytest.raises(RuntimeError, match=r"\[Stream::cuda_stream\] expected a stream of a "
                           r"real GPU.*has no cudaStream_t"):
            s.cuda_stream
    # Streams are still told apart by their ids.
    assert tide.cuda.Stream().stream_id != tide.cuda.default_stream().stream_id == 0


@pytest.mark.sim_only
def test_wait_stream_orders_work_across_streams():
    side = tide.cuda.Stream(0)
    main = tide.cuda.current_stream(0)
    _testing.hold_stream(main)
    try:
        a = tide.ones(4, device="cuda:0") * 3  # queued on the held stream
        side.wait_stream(main)
        with tide.cuda.stream(side):
            b = a + 1  # may only run after a is written
        assert not side.query() and not main.query()
    finally:
        _testing.release_stream(main)
    side.synchronize()
    assert side.query() and b.tolist() == [4., 4., 4., 4.]


@pytest.mark.sim_only
def test_events_record_wait_query_and_time():
    start, end = tide.cuda.Event(enable_timing=True), tide.cuda.Event(enable_timing=True)
    s = tide.cuda.current_stream(0)
    _testing.hold_stream(s)
    try:
        start.record()
        x = tide.ones(1000, device="cuda:0").sum()
        end.record(s)
        assert not end.query()  # the work is still queued
        other = tide.cuda.Stream(0)
        end.wait(other)  # other's later work waits for the event
        with tide.cuda.stream(other):
            y = x * 2
    finally:
        _testing.release_stream(s)
    end.synchronize()
    assert end.query() and start.elapsed_time(end) >= 0.0
    # y was made on `other`; reading it on the current stream needs the ordering, as in torch.
    s.wait_stream(other)
    assert y.item() == 2000.0
    e = s.record_event()
    e.synchronize()
    assert e.query()


def test_memory_statistics_follow_tensors_and_the_cache():
    dev = 1
    tide.cuda.synchronize(dev)
    tide.cuda.empty_cache()
    tide.cuda.reset_peak_memory_stats(dev)
    base = tide.cuda.memory_allocated(dev)
    x = tide.empty(1 << 20, device="cuda:1")  # 4 MiB
    assert tide.cuda.memory_allocated(dev) == base + (4 << 20)
    assert tide.cuda.max_memory_allocated(dev) >= base + (4 << 20)
    assert tide.cuda.memory_reserved(dev) >= tide.cuda.memory_allocated(dev)
    assert tide.cuda.memory_cached(dev) == tide.cuda.memory_reserved(dev)
    del x
    assert tide.cuda.memory_allocated(dev) == base
    assert tide.cuda.memory_reserved(dev) >= 4 << 20  # cached, not freed
    tide.cuda.empty_cache()
    assert tide.cuda.memory_reserved(dev) < 4 << 20
    stats = tide.cuda.memory_stats(dev)
    assert stats["allocated_bytes.all.current"] == base
    assert stats["allocated_bytes.all.peak"] >= 4 << 20
    assert "memory summary, device ID 1" in tide.cuda.memory_summary(dev)
    free, total = tide.cuda.mem_get_info(dev)
    assert 0 < free <= total


def test_memory_snapshot_with_history():
    tide.cuda._record_memory_history(True)
    try:
        x = tide.empty(1000, device="cuda:0")
        snap = tide.cuda.memory_snapshot()
    finally:
        tide.cuda._record_memory_history(None)
    assert isinstance(snap, dict) and snap["segments"]
    assert any(seg["device"] == 0 for seg in snap["segments"])
    traces = snap.get("device_traces", [])
    assert any(e.get("action") == "alloc" for trace in traces for e in trace), snap.keys()
    del x


@pytest.mark.gpus(2)
def test_non_blocking_copies_from_pinned_memory():
    host = tide.arange(6.).pin_memory()
    assert host.is_pinned() and not tide.arange(2.).is_pinned()
    d = host.cuda(1, non_blocking=True)
    back = d.to("cpu", non_blocking=True)
    tide.cuda.synchronize(1)
    assert back.tolist() == [0., 1., 2., 3., 4., 5.] and d.device == tide.device("cuda", 1)
    assert tide.empty(3, pin_memory=True).is_pinned()


@pytest.mark.parametrize("name", ["torch.cuda.FloatTensor", "tide.cuda.FloatTensor"])
def test_default_tensor_type_on_the_gpu_and_back(name):
    try:
        tide.set_default_tensor_type(name)
        a = tide.ones(2, 3)
        assert a.is_cuda and a.dtype is tide.float32 and a.get_device() == 0
    finally:
        tide.set_default_tensor_type("torch.FloatTensor")
    assert not tide.ones(2, 3).is_cuda


@pytest.mark.gpus(3)
def test_legacy_cuda_types():
    x = tide.cuda.FloatTensor(2, 3)
    assert x.is_cuda and x.shape == (2, 3) and isinstance(x, tide.cuda.FloatTensor)
    with tide.cuda.device(2):
        assert tide.cuda.LongTensor([1, 2]).get_device() == 2
    assert x.type() == "tide.cuda.FloatTensor"


def _child(code, **env_vars):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    env.pop("CUDA_VISIBLE_DEVICES", None)
    env.update(env_vars)
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout.split()


def test_cuda_visible_devices_set_after_import_counts():
    # the tutorial's os.environ['CUDA_VISIBLE_DEVICES'] = ... in the program itself
    out = _child("""
        import os
        import tide
        os.environ['CUDA_VISIBLE_DEVICES'] = '0,2'
        print(tide.cuda.device_count())
        print(tide.ones(1, device='cuda:1').device)
    """, TIDE_SIM_DEVICES="3")
    assert out == ["2", "cuda:1"]


def test_cuda_visible_devices_set_after_the_first_cuda_call_is_ignored():
    out = _child("""
        import os
        import tide
        n = tide.cuda.device_count()
        os.environ['CUDA_VISIBLE_DEVICES'] = '0'
        print(n, tide.cuda.device_count())
    """, TIDE_SIM_DEVICES="3")
    assert out == ["3", "3"]
