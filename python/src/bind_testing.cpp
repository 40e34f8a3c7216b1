// tide._C._testing: the deterministic controls of simulated GPUs from
// include/tide/testing/sim_hooks.h, for tide's own Python tests (tests/python/test_gil.py holds
// a stream so that a wait is guaranteed to block). Not part of the API torch code uses.

#include "bindings.h"
#include "tide/cuda/stream.h"
#include "tide/testing/sim_hooks.h"

namespace nb = nanobind;

namespace tide::python {

void bind_testing(nb::module_& m) {
  nb::module_ t = m.def_submodule(
      "_testing", "Test-only controls of simulated GPUs (tide::testing); never needed by user "
                  "code, and raising unless the devices are simulated.");
  t.def("sim_active", &testing::sim_active,
        "Whether this process's cuda devices are simulated (starts the backend).");
  t.def("hold_stream", &testing::hold_stream, nb::arg("stream"),
        "Stops the stream's worker before its next task: later work stays queued (query() is "
        "False) until release_stream.");
  t.def("release_stream", &testing::release_stream, nb::arg("stream"),
        "Lets a held stream run its queued work again.");
  t.def("set_async_backtrace", &testing::set_async_backtrace_for_testing, nb::arg("enabled"),
        "As TIDE_ASYNC_BACKTRACE=1: KernelErrors name where their op was enqueued.");
}

}  // namespace tide::python
