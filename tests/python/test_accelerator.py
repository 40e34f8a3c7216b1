"""torch 2.x's device context manager (`with tide.device(...)`: the default device inside) and
torch.accelerator over tide.cuda, on the three simulated GPUs of conftest.py."""

import threading

import pytest

import tide
import tide.nn as nn


def test_a_device_block_makes_factories_allocate_there_and_restores_the_default():
    assert tide.get_default_device() == tide.device("cpu")
    with tide.device("cuda:1") as dev:
        assert dev == tide.device("cuda:1")
        assert tide.get_default_device() == tide.device("cuda:1")
        for t in (tide.zeros(2), tide.ones(2), tide.arange(3), tide.randn(2),
                  tide.tensor([1.0, 2.0])):
            assert t.device == tide.device("cuda:1")
        assert nn.Linear(2, 2).weight.device == tide.device("cuda:1")
        assert tide.zeros(2, device="cpu").device == tide.device("cpu")  # an explicit device wins
    assert tide.get_default_device() == tide.device("cpu")
    assert tide.zeros(2).device == tide.device("cpu")


def test_device_blocks_nest_reuse_one_object_and_restore_after_an_error():
    two = tide.device("cuda:2")
    with tide.device("cuda:1"):
        with two:
            assert tide.zeros(1).device == two
            with two:
                assert tide.zeros(1).device == two
            assert tide.zeros(1).device == two
        assert tide.zeros(1).device == tide.device("cuda:1")
    with pytest.raises(KeyError):
        with tide.device("cuda:1"):
            raise KeyError("inside")
    assert tide.get_default_device() == tide.device("cpu")


def test_a_device_block_is_this_threads_only():
    seen = []
    with tide.device("cuda:1"):
        worker = threading.Thread(target=lambda: seen.append(tide.zeros(1).device))
        worker.start()
        worker.join()
    assert seen == [tide.device("cpu")]


@pytest.mark.gpus(3)
def test_accelerator_reports_and_selects_the_gpus():
    assert tide.accelerator.is_available()
    assert tide.accelerator.device_count() == tide.cuda.device_count() == 3
    assert tide.accelerator.current_accelerator() == tide.device("cuda")
    assert tide.accelerator.current_device_index() == tide.cuda.current_device() == 0
    try:
        tide.accelerator.set_device_index(2)
        assert tide.accelerator.current_device_index() == 2 == tide.cuda.current_device()
        tide.accelerator.set_device_index("cuda:1")
        assert tide.cuda.current_device() == 1
        tide.accelerator.set_device_index(tide.device("cuda", 2))
        assert tide.cuda.current_device() == 2
        tide.accelerator.set_device_index(-1)  # a no-op, as torch's
        assert tide.cuda.current_device() == 2
    finally:
        tide.cuda.set_device(0)
    with pytest.raises(ValueError, match="cpu doesn't match the current accelerator cuda"):
        tide.accelerator.set_device_index("cpu")


def test_accelerator_synchronize_waits_for_the_devices_work():
    x = tide.randn(256, 256, device="cuda:1")
    y = x @ x
    tide.accelerator.synchronize(1)
    tide.accelerator.synchronize()
    tide.accelerator.synchronize("cuda:1")
    assert y.cpu().shape == (256, 256)


def test_device_agnostic_code_written_for_torch_accelerator_runs():
    device = (tide.accelerator.current_accelerator() if tide.accelerator.is_available()
              else tide.device("cpu"))
    model = nn.Linear(3, 2).to(device)
    with device:
        out = model(tide.ones(4, 3))
    assert out.device.type == "cuda"
