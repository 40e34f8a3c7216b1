"""The Python tests run on three simulated GPUs unless the caller chose otherwise: set before
tide is imported (tide reads it at its first cuda call). TIDE_TEST_NATIVE=1 runs them on the
machine's real GPUs instead (scripts/gpu-check --bundle does, on a GPU machine)."""

import os

if os.environ.get("TIDE_TEST_NATIVE") == "1":
    os.environ.pop("TIDE_SIM_DEVICES", None)
else:
    os.environ.setdefault("TIDE_SIM_DEVICES", "3")


# Note [Tests and the number of GPUs]: the suite is written for the three simulated GPUs above.
# On fewer (TIDE_TEST_NATIVE=1 on a one-GPU machine, or TIDE_SIM_DEVICES=1), a test that names
# cuda:N (N < 3) in its parameters or in its own body (decorators aside) needs N+1 devices, and one marked
# gpus(n) needs n: each is skipped saying so, rather than failing on "cuda:1 does not exist". A
# test marked sim_only holds a simulated stream (tide._C._testing) and is skipped on real GPUs.
import inspect  # noqa: E402
import re  # noqa: E402

import pytest  # noqa: E402

# cuda:0..cuda:2, the suite's devices: a test naming cuda:7 names a device that does not exist.
_CUDA_INDEX = re.compile(r"cuda:([0-2])\b")


def pytest_configure(config):
    config.addinivalue_line("markers", "gpus(n): needs n cuda devices")
    config.addinivalue_line("markers", "sim_only: holds simulated streams; skipped on real GPUs")


def _body(function):
    try:
        source = inspect.getsource(function)
    except (OSError, TypeError):
        return ""
    at = source.find("def ")
    return source[at:] if at >= 0 else source


def gpus_needed(item):
    marker = item.get_closest_marker("gpus")
    need = marker.args[0] if marker else 0
    callspec = getattr(item, "callspec", None)
    texts = [str(v) for v in callspec.params.values()] if callspec else []
    texts.append(_body(getattr(item, "function", None)))
    for text in texts:
        for match in _CUDA_INDEX.finditer(text):
            need = max(need, int(match.group(1)) + 1)
    return need


def pytest_collection_modifyitems(config, items):
    import tide
    count = tide.cuda.device_count()
    simulated = count > 0 and tide.cuda.get_device_properties(0).simulated
    for item in items:
        need = gpus_needed(item)
        if need > count:
            item.add_marker(pytest.mark.skip(
                reason=f"needs {need} cuda devices, this process has {count} (the run on three "
                       f"simulated GPUs covers it)"))
        elif item.get_closest_marker("sim_only") and count and not simulated:
            item.add_marker(pytest.mark.skip(reason="holds a simulated stream: simulated GPUs only"))
