"""The Python tests run on three simulated GPUs unless the caller chose otherwise: set before
tide is imported (tide reads it at its first cuda call)."""

import os

os.environ.setdefault("TIDE_SIM_DEVICES", "3")
