// tide._C._testing: the deterministic controls of simulated GPUs from
// include/tide/testing/sim_hooks.h, for tide's own Python tests (tests/python/test_gil.py holds
// a stream so that a wait is guaranteed to block), and a post-accumulate-grad hook from Python
// (tests/python/dist/ddp_worker.py watches DDP's all-reduces start during backward). Not part
// of the API torch code uses.

#include <functional>
#include <utility>

#include <nanobind/stl/function.h>

#include "bindings.h"
#include "tide/cuda/stream.h"
#include "tide/removable_handle.h"
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

  // Test-only, not Tensor.register_post_accumulate_grad_hook: the hook lives in C++, where
  // Python's garbage collector cannot see it, so a hook that refers back to its tensor (as
  // torch's optimizer-in-backward hooks do) would keep both alive until it is removed.
  nb::class_<RemovableHandle>(t, "RemovableHandle", "remove() takes the hook away.")
      .def("remove", &RemovableHandle::remove);
  t.def("register_post_accumulate_grad_hook",
        [](const Tensor& tensor, std::function<void(Tensor)> hook) {
          // nanobind's std::function takes the GIL to call the hook on the backward's thread
          // and to drop it; the hook gets a tensor sharing the leaf's data and grad.
          return tensor.register_post_accumulate_grad_hook(
              [hook = std::move(hook)](Tensor& leaf) { hook(leaf); });
        }, nb::arg("tensor"), nb::arg("hook"),
        "Tensor::register_post_accumulate_grad_hook with a Python callable; remove the handle "
        "before the test ends.");
}

}  // namespace tide::python
