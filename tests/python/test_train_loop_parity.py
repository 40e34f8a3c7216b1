"""The issue's parity test: the same small training loop written in the torch idiom (a Module
subclass, a DataLoader with pin_memory and shuffle, SGD with momentum) and in C++
(tests/python/train_loop_reference.cpp) gives the same losses for 100 steps, on cpu and on a
simulated GPU. The C++ program is found through TIDE_TRAIN_REFERENCE (scripts/run-tests sets
it); without it the test skips and says so."""

import os
import subprocess

import pytest

import tide as torch
import tide.nn as nn
from tide.utils.data import DataLoader, TensorDataset

SAMPLES, FEATURES, HIDDEN, CLASSES, BATCH, STEPS = 64, 4, 16, 3, 8, 100


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(FEATURES, HIDDEN)
        self.fc2 = nn.Linear(HIDDEN, CLASSES)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def python_losses(device):
    torch.manual_seed(0)
    model = Net().to(device)
    # The reference's data, value for value (see make_data in train_loop_reference.cpp).
    x = torch.tensor([[((i * FEATURES + j) * 37 % 11) / 11.0 - 0.5 for j in range(FEATURES)]
                      for i in range(SAMPLES)])
    y = torch.tensor([i * FEATURES * 37 % 11 % CLASSES for i in range(SAMPLES)])
    loader = DataLoader(TensorDataset(x, y), batch_size=BATCH, shuffle=True, pin_memory=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    criterion = nn.CrossEntropyLoss()
    losses = []
    while len(losses) < STEPS:
        for inputs, targets in loader:
            inputs = inputs.to(device, non_blocking=True)
            targets = targets.to(device, non_blocking=True)
            loss = criterion(model(inputs), targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
            if len(losses) == STEPS:
                break
    return losses


def reference_losses(where):
    program = os.environ.get("TIDE_TRAIN_REFERENCE")
    if not program:
        pytest.skip("TIDE_TRAIN_REFERENCE is not set: point it at the tide_train_loop_reference "
                    "executable (built with the tests, -DTIDE_BUILD_TESTS=ON) to compare with C++")
    # It inherits TIDE_SIM_DEVICES (conftest.py): cuda is the same simulated device 0.
    out = subprocess.run([program, where], check=True, capture_output=True, text=True)
    return [float(line) for line in out.stdout.split()]


@pytest.mark.parametrize("device", ["cpu", "cuda:0"])
def test_python_and_cpp_training_loops_give_the_same_losses(device):
    expected = reference_losses(device.split(":")[0])
    losses = python_losses(device)
    assert len(expected) == STEPS and len(losses) == STEPS
    worst = max(abs(a - b) for a, b in zip(losses, expected))
    assert worst <= 1e-4, f"largest loss difference {worst} over {STEPS} steps"
    assert sum(losses[-8:]) < sum(losses[:8])  # and it learns


def test_the_python_loop_learns_without_the_reference():
    losses = python_losses("cuda:0")
    assert len(losses) == STEPS and sum(losses[-8:]) < sum(losses[:8])
