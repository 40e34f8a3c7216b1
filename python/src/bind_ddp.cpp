// tide.nn.parallel.DistributedDataParallel's compiled half, in tide._C._distributed: the C++
// DDP engine (src/distributed) over a Python module's parameter list, so that a Python module
// gets the same buckets, hooks and reductions as nn::DistributedDataParallel (Note
// [DistributedDataParallel] in tide/nn/distributed_data_parallel.h). The Python class
// (python/tide/nn/parallel/distributed.py) does the argument checks and forward's order.
//
// The reducer's hooks and its end-of-backward callback are C++ and run on the backward's
// thread without the GIL (backward releases it); the calls that wait for peers release it too.

#include <string>
#include <utility>
#include <vector>

#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "distributed/broadcast_coalesced.h"
#include "distributed/reducer.h"
#include "distributed/verify_model_across_ranks.h"

namespace nb = nanobind;

namespace tide::python {

void bind_ddp(nb::module_& parent) {
  nb::module_ m = nb::borrow<nb::module_>(parent.attr("_distributed"));
  using release_gil = nb::call_guard<nb::gil_scoped_release>;
  using nn::detail::Reducer;

  nb::class_<Reducer>(m, "_Reducer",
                      "DDP's gradient buckets and hooks over (name, parameter) pairs (torch's "
                      "Reducer): registers a post-accumulate-grad hook on each parameter.")
      .def(nb::init<std::vector<std::pair<std::string, Tensor>>, size_t, bool>(),
           nb::arg("named_params"), nb::arg("bucket_cap_bytes"),
           nb::arg("find_unused_parameters"))
      .def("prepare_for_forward", &Reducer::prepare_for_forward)
      .def("prepare_for_backward", &Reducer::prepare_for_backward, nb::arg("outputs"))
      .def("bucket_count", &Reducer::bucket_count)
      .def("buckets_launched", &Reducer::buckets_launched);

  m.def("_verify_same_model_across_ranks", &distributed::detail::verify_same_model_across_ranks,
        nb::arg("params"), nb::arg("device"), release_gil());
  m.def("_broadcast_coalesced",
        [](const std::vector<Tensor>& tensors, int src) {
          distributed::detail::broadcast_coalesced(tensors, src);
        }, nb::arg("tensors"), nb::arg("src"), release_gil());
}

}  // namespace tide::python
