"""The Python tests run on three simulated GPUs unless the caller chose otherwise: set before
tide is imported (tide reads it at its first cuda call). TIDE_TEST_NATIVE=1 runs them on the
machine's real GPUs instead (scripts/gpu-check --bundle does, on a GPU machine)."""

import os

if os.environ.get("TIDE_TEST_NATIVE") == "1":
    os.environ.pop("TIDE_SIM_DEVICES", None)
else:
    os.environ.setdefault("TIDE_SIM_DEVICES", "3")
