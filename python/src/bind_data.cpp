// tide.utils.data's compiled helpers: the epoch order of the C++ DataLoader (Note [Shuffle
// order] in tide/data/data_loader.h), so that a Python loop and a C++ loop with the same seed
// see the same batches, and TensorDataset's batch gather (rows straight into pinned memory),
// the DataLoader's fast path for tensor datasets (python/tide/utils/data/dataloader.py).

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "data/epoch_order.h"
#include "tide/data/tensor_dataset.h"

namespace nb = nanobind;

namespace tide::python {

void bind_data(nb::module_& m) {
  m.def("_sequential_order", &data::detail::sequential_order, nb::arg("n"));
  m.def("_shuffled_order", &data::detail::shuffled_order, nb::arg("n"), nb::arg("seed"),
        nb::arg("epoch"));
  m.def("_draw_seed", &data::detail::draw_seed);

  // One or two tensors (data and an optional target) whose dim 0 indexes the samples.
  nb::class_<data::TensorDataset>(m, "_TensorBatcher")
      .def("__init__",
           [](data::TensorDataset* self, const Tensor& data, std::optional<Tensor> target) {
             new (self) data::TensorDataset(data, target.value_or(Tensor()));
           }, nb::arg("data"), nb::arg("target").none())
      .def("get_batch",
           [](const data::TensorDataset& self, const std::vector<size_t>& indices, bool pinned) {
             data::Example batch;
             {
               // Pinning waits for host memory and copies: other threads run meanwhile.
               nb::gil_scoped_release release;
               batch = self.get_batch(indices, pinned);
             }
             return std::make_pair(batch.data, batch.target.defined()
                                                   ? std::optional<Tensor>(batch.target)
                                                   : std::nullopt);
           }, nb::arg("indices"), nb::arg("pinned"));
}

}  // namespace tide::python
