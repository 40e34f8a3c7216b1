"""nn.DataParallel from Python on three simulated GPUs: the same outputs and gradients as the
module alone, replicas that run in parallel threads, and torch's misuse errors."""

import threading

import pytest

import tide
import tide.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(self.fc1(x).relu())


def _grads(model):
    return [p.grad.cpu().tolist() for p in model.parameters()]


def _close(a, b, tol=1e-5):
    if isinstance(a, list):
        return len(a) == len(b) and all(_close(x, y, tol) for x, y in zip(a, b))
    return abs(a - b) <= tol


@pytest.mark.gpus(3)
def test_same_output_and_gradients_as_the_module_alone_over_three_devices():
    tide.manual_seed(0)
    model = Net().cuda(0)
    x = tide.randn(7, 6, device="cuda:0")
    target = tide.randint(0, 3, (7,), device="cuda:0")
    loss = nn.CrossEntropyLoss()(model(x), target)
    loss.backward()
    expected_out, expected_grads = model(x).cpu().tolist(), _grads(model)
    model.zero_grad()

    dp = nn.DataParallel(model)
    assert dp.device_ids == [0, 1, 2] and dp.module is model
    out = dp(x)
    assert out.device == tide.device("cuda:0") and out.shape == (7, 3)
    assert _close(out.cpu().tolist(), expected_out)
    nn.CrossEntropyLoss()(out, target).backward()
    assert _close(_grads(model), expected_grads)
    assert [n for n, _ in dp.named_parameters()][0] == "module.fc1.weight"


def test_replicas_run_on_their_devices_in_separate_threads():
    seen = []

    class Probe(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(tide.ones(1))

        def forward(self, x):
            seen.append((x.device.index, tide.cuda.current_device(), threading.current_thread().name,
                         self.w.device.index))
            return x * self.w

    dp = nn.DataParallel(Probe().cuda(0), device_ids=[0, 2], output_device=1)
    out = dp(tide.ones(4, 2, device="cuda:0"))
    assert out.device == tide.device("cuda:1")
    assert sorted((d, c, w) for d, c, _, w in seen) == [(0, 0, 0), (2, 2, 2)]
    names = {t for _, _, t, _ in seen}
    assert len(names) == 2 and threading.main_thread().name not in names


def test_one_device_moves_the_module_and_calls_it():
    model = Net()
    dp = nn.DataParallel(model, device_ids=[1])
    assert model.fc1.weight.device == tide.device("cuda:1")
    assert dp(tide.ones(2, 6, device="cuda:1")).device == tide.device("cuda:1")


@pytest.mark.gpus(2)  # one device: DataParallel moves the module there, as torch's
def test_errors_name_the_problem_and_the_fix():
    with pytest.raises(RuntimeError, match="must have its parameters and buffers on device cuda:0"):
        nn.DataParallel(Net())(tide.ones(3, 6, device="cuda:0"))
    with pytest.raises(RuntimeError, match="which is not a cuda device"):
        nn.DataParallel(Net(), device_ids=[0, 5])

    class Fails(nn.Module):
        def forward(self, x):
            raise ValueError("bad input")
    with pytest.raises(ValueError, match="Caught ValueError in replica 0 on device 0"):
        nn.DataParallel(Fails())(tide.ones(3, 2, device="cuda:0"))
