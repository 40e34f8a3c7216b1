// tide._C's cuda part: devices, streams, events, the guards behind `with tide.cuda.device(i)`
// and `with tide.cuda.stream(s)`, and the caching allocator's statistics and snapshots.
// Device arguments are indices here (-1: the current device); python/tide/cuda turns torch's
// spellings (None, 1, "cuda:1", tide.device) into them. Waits release the GIL (Note [The GIL]
// in bind_tensor.cpp).

#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>

#include "bindings.h"
#include "device_arg.h"
#include "tide/cuda.h"

namespace nb = nanobind;

namespace tide::python {
namespace {

using release_gil = nb::call_guard<nb::gil_scoped_release>;

// Guards held across a Python `with` block: made at __enter__, dropped at __exit__.
struct DeviceGuardHolder {
  std::optional<cuda::DeviceGuard> guard;
};
struct StreamGuardHolder {
  std::optional<cuda::StreamGuard> guard;
};

template <class T>
std::string printed(const T& value) {
  std::ostringstream os;
  os << value;
  return os.str();
}

}  // namespace

void bind_cuda(nb::module_& m) {
  nb::module_ c = m.def_submodule("_cuda", "tide::cuda");
  c.def("is_available", &cuda::is_available);
  c.def("device_count", &cuda::device_count);
  c.def("current_device", &cuda::current_device);
  c.def("set_device", [](nb::handle d) { cuda::set_device(cuda_device_index(d)); },
        nb::arg("device"));
  c.def("synchronize", with_device(&cuda::synchronize), nb::arg("device").none() = nb::none(), release_gil());
  c.def("get_device_name", with_device(&cuda::get_device_name), nb::arg("device").none() = nb::none());
  c.def("can_device_access_peer", &cuda::can_device_access_peer, nb::arg("device"),
        nb::arg("peer_device"));

  nb::class_<cuda::DeviceProperties>(c, "_CudaDeviceProperties")
      .def_ro("name", &cuda::DeviceProperties::name)
      .def_ro("total_memory", &cuda::DeviceProperties::total_memory)
      .def_ro("major", &cuda::DeviceProperties::major)
      .def_ro("minor", &cuda::DeviceProperties::minor)
      .def_ro("multi_processor_count", &cuda::DeviceProperties::multi_processor_count)
      .def_ro("simulated", &cuda::DeviceProperties::simulated)
      .def("__repr__", &printed<cuda::DeviceProperties>);
  c.def("get_device_properties", with_device(&cuda::get_device_properties), nb::arg("device").none() = nb::none());

  nb::class_<DeviceGuardHolder>(c, "_DeviceGuard")
      .def(nb::init<>())
      .def("enter", [](DeviceGuardHolder& h, nb::handle device) {
        int index = cuda_device_index(device);
        if (index >= 0) h.guard.emplace(index);  // device(None) and device(-1) change nothing
      }, nb::arg("device").none())
      .def("exit", [](DeviceGuardHolder& h) { h.guard.reset(); });
  nb::class_<StreamGuardHolder>(c, "_StreamGuard")
      .def(nb::init<>())
      .def("enter", [](StreamGuardHolder& h, const cuda::Stream& s) { h.guard.emplace(s); })
      .def("exit", [](StreamGuardHolder& h) { h.guard.reset(); });

  nb::class_<cuda::Stream>(c, "Stream", "A queue of work on one cuda device (torch.cuda.Stream).")
      .def("__init__",
           [](cuda::Stream* self, nb::handle device, int priority) {
             new (self) cuda::Stream(cuda_device_index(device), priority);
           }, nb::arg("device").none() = nb::none(), nb::arg("priority") = 0)
      .def_prop_ro("device", &cuda::Stream::device)
      .def_prop_ro("device_index", &cuda::Stream::device_index)
      .def_prop_ro("stream_id", &cuda::Stream::id)
      .def_prop_ro("priority", &cuda::Stream::priority)
      .def_prop_ro("cuda_stream", &cuda::Stream::cuda_stream)
      .def("query", &cuda::Stream::query)
      .def("synchronize", &cuda::Stream::synchronize, release_gil())
      .def("wait_event", &cuda::Stream::wait_event, nb::arg("event"))
      .def("wait_stream", &cuda::Stream::wait_stream, nb::arg("stream"))
      .def("record_event", [](const cuda::Stream& s, std::optional<cuda::Event> e) {
        if (!e) return s.record_event();
        e->record(s);
        return *e;
      }, nb::arg("event").none() = nb::none())
      .def("__eq__", [](const cuda::Stream& a, const cuda::Stream& b) { return a == b; })
      .def("__eq__", [](const cuda::Stream&, nb::handle) { return false; })
      .def("__hash__", [](const cuda::Stream& s) { return std::hash<cuda::Stream>()(s); })
      .def("__repr__", [](const cuda::Stream& s) {
        return "<tide.cuda.Stream device=" + s.device().str() + " id=" + std::to_string(s.id()) +
               " priority=" + std::to_string(s.priority()) + ">";
      });
  c.def("current_stream", with_device(&cuda::current_stream), nb::arg("device").none() = nb::none());
  c.def("default_stream", with_device(&cuda::default_stream), nb::arg("device").none() = nb::none());
  c.def("set_stream", &cuda::set_stream, nb::arg("stream"));

  nb::class_<cuda::Event>(c, "Event", "A marker in a stream (torch.cuda.Event).")
      .def(nb::init<bool, bool>(), nb::arg("enable_timing") = false, nb::arg("blocking") = false)
      .def("record", [](cuda::Event& e, std::optional<cuda::Stream> s) {
        e.record(s ? *s : cuda::current_stream());
      }, nb::arg("stream").none() = nb::none())
      .def("wait", [](const cuda::Event& e, std::optional<cuda::Stream> s) {
        e.wait(s ? *s : cuda::current_stream());
      }, nb::arg("stream").none() = nb::none())
      .def("query", &cuda::Event::query)
      .def("synchronize", &cuda::Event::synchronize, release_gil())
      .def("elapsed_time", &cuda::Event::elapsed_time, nb::arg("end_event"), release_gil())
      .def_prop_ro("enable_timing", &cuda::Event::enable_timing)
      .def_prop_ro("blocking", &cuda::Event::blocking)
      .def_prop_ro("device_index", &cuda::Event::device_index)
      .def("__eq__", [](const cuda::Event& a, const cuda::Event& b) { return a == b; })
      .def("__eq__", [](const cuda::Event&, nb::handle) { return false; })
      .def("__hash__", [](const cuda::Event& e) { return std::hash<cuda::Event>()(e); })
      .def("__repr__", &printed<cuda::Event>);

  // ---- the caching allocator
  c.def("memory_allocated", with_device(&cuda::memory_allocated), nb::arg("device").none() = nb::none());
  c.def("max_memory_allocated", with_device(&cuda::max_memory_allocated), nb::arg("device").none() = nb::none());
  c.def("memory_reserved", with_device(&cuda::memory_reserved), nb::arg("device").none() = nb::none());
  c.def("max_memory_reserved", with_device(&cuda::max_memory_reserved), nb::arg("device").none() = nb::none());
  c.def("memory_cached", with_device(&cuda::memory_cached), nb::arg("device").none() = nb::none());
  c.def("max_memory_cached", with_device(&cuda::max_memory_cached), nb::arg("device").none() = nb::none());
  c.def("empty_cache", &cuda::empty_cache, release_gil());
  c.def("reset_peak_memory_stats", with_device(&cuda::reset_peak_memory_stats), nb::arg("device").none() = nb::none());
  c.def("set_per_process_memory_fraction",
        [](double fraction, nb::handle device) {
          cuda::set_per_process_memory_fraction(fraction, cuda_device_index(device));
        }, nb::arg("fraction"), nb::arg("device").none() = nb::none());
  c.def("inject_oom_at",
        [](int64_t n, nb::handle device) { cuda::inject_oom_at(n, cuda_device_index(device)); },
        nb::arg("n"), nb::arg("device").none() = nb::none());
  c.def("memory_stats", with_device(&cuda::memory_stats), nb::arg("device").none() = nb::none());
  c.def("memory_summary", with_device(&cuda::memory_summary), nb::arg("device").none() = nb::none(),
        nb::arg("abbreviated") = false);
  c.def("mem_get_info", with_device(&cuda::mem_get_info), nb::arg("device").none() = nb::none());
  c.def("record_memory_history", &cuda::record_memory_history, nb::arg("enabled"),
        nb::arg("max_entries") = 100000);
  c.def("memory_snapshot", &cuda::memory_snapshot, release_gil());
  c.def("dump_snapshot", &cuda::dump_snapshot, nb::arg("path"), release_gil());
  c.def("host_memory_stats", &cuda::host_memory_stats);
  c.def("host_empty_cache", &cuda::host_empty_cache);
  c.def("enable_sanitizer", &cuda::enable_sanitizer);
  c.def("disable_sanitizer", &cuda::disable_sanitizer);
  c.def("sanitizer_enabled", &cuda::sanitizer_enabled);
}

}  // namespace tide::python
