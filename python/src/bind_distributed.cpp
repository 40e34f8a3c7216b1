// tide.distributed: the process group (tide/distributed/process_group.h) under torch's names,
// and the DistributedSampler's shard order. Every collective, barrier and Work.wait releases
// the GIL (Note [The GIL] in bind_tensor.cpp): they wait for peers, and other Python threads
// (a DataLoader's workers) must run meanwhile.

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <nanobind/stl/chrono.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "tide/distributed/distributed_sampler.h"
#include "tide/distributed/process_group.h"

namespace nb = nanobind;

namespace tide::python {
namespace {

using release_gil = nb::call_guard<nb::gil_scoped_release>;
namespace dist = tide::distributed;

/// The synchronous form returns None, as torch's; the asynchronous one a Work.
nb::object work_or_none(std::shared_ptr<dist::Work> work, bool async_op) {
  if (!async_op) return nb::none();
  return nb::cast(std::move(work));
}

}  // namespace

void bind_distributed(nb::module_& parent) {
  nb::module_ m = parent.def_submodule("_distributed", "tide.distributed's compiled half");

  nb::enum_<dist::ReduceOp>(m, "ReduceOp")
      .value("SUM", dist::ReduceOp::SUM)
      .value("AVG", dist::ReduceOp::AVG)
      .value("MAX", dist::ReduceOp::MAX)
      .value("MIN", dist::ReduceOp::MIN);

  nb::class_<dist::Work>(m, "Work", "An asynchronous collective (async_op=True), torch's Work.")
      .def("wait",
           [](dist::Work& w) {
             {
               nb::gil_scoped_release release;
               w.wait();
             }
             return true;  // torch's Work.wait() returns True
           })
      .def("is_completed", &dist::Work::is_completed);

  m.def("init_process_group",
        [](const std::string& backend, std::chrono::milliseconds timeout) {
          dist::init_process_group(backend, timeout);
        }, nb::arg("backend"), nb::arg("timeout"), release_gil());
  m.def("destroy_process_group", &dist::destroy_process_group, release_gil());
  m.def("is_initialized", &dist::is_initialized);
  m.def("get_rank", &dist::get_rank);
  m.def("get_world_size", &dist::get_world_size);
  m.def("get_local_rank", &dist::get_local_rank);
  m.def("get_backend", &dist::get_backend);
  m.def("barrier", &dist::barrier, release_gil());

  // The collectives take the tensors as handles: writing into them writes the caller's tensors.
  m.def("all_reduce",
        [](Tensor tensor, dist::ReduceOp op, bool async_op) {
          std::shared_ptr<dist::Work> work;
          {
            nb::gil_scoped_release release;
            work = dist::all_reduce(tensor, op, async_op);
          }
          return work_or_none(std::move(work), async_op);
        }, nb::arg("tensor"), nb::arg("op"), nb::arg("async_op"));
  m.def("broadcast",
        [](Tensor tensor, int src, bool async_op) {
          std::shared_ptr<dist::Work> work;
          {
            nb::gil_scoped_release release;
            work = dist::broadcast(tensor, src, async_op);
          }
          return work_or_none(std::move(work), async_op);
        }, nb::arg("tensor"), nb::arg("src"), nb::arg("async_op"));
  m.def("all_gather",
        [](std::vector<Tensor> outputs, const Tensor& input, bool async_op) {
          std::shared_ptr<dist::Work> work;
          {
            nb::gil_scoped_release release;
            work = dist::all_gather(outputs, input, async_op);
          }
          return work_or_none(std::move(work), async_op);
        }, nb::arg("tensor_list"), nb::arg("tensor"), nb::arg("async_op"));
  m.def("reduce_scatter",
        [](Tensor output, const std::vector<Tensor>& inputs, dist::ReduceOp op, bool async_op) {
          std::shared_ptr<dist::Work> work;
          {
            nb::gil_scoped_release release;
            work = dist::reduce_scatter(output, inputs, op, async_op);
          }
          return work_or_none(std::move(work), async_op);
        }, nb::arg("output"), nb::arg("input_list"), nb::arg("op"), nb::arg("async_op"));

  nb::class_<data::DistributedSampler>(m, "_DistributedSampler")
      .def(nb::init<size_t, int, int, bool, uint64_t, bool>(), nb::arg("dataset_size"),
           nb::arg("num_replicas"), nb::arg("rank"), nb::arg("shuffle"), nb::arg("seed"),
           nb::arg("drop_last"))
      .def("indices", &data::DistributedSampler::indices)
      .def("__len__", &data::DistributedSampler::size)
      .def("set_epoch", &data::DistributedSampler::set_epoch, nb::arg("epoch"))
      .def_prop_ro("epoch", &data::DistributedSampler::epoch)
      .def_prop_ro("num_replicas", &data::DistributedSampler::num_replicas)
      .def_prop_ro("rank", &data::DistributedSampler::rank)
      .def_prop_ro("total_size", &data::DistributedSampler::total_size);
}

}  // namespace tide::python
