// tide.device: torch.device's constructor forms, printing and comparison over tide::Device,
// and its use as a context manager.

#include <string>
#include <vector>

#include <nanobind/stl/string.h>

#include "bindings.h"
#include "tide/default_device.h"
#include "tide/device.h"
#include "tide/error.h"

namespace nb = nanobind;

namespace tide::python {
namespace {

std::string repr(const Device& d) {
  std::string out = std::string("device(type='") + device_type_name(d.type()) + "'";
  if (d.has_index()) out += ", index=" + std::to_string(d.index());
  return out + ")";
}

/// Note [Devices as context managers]: `with tide.device("cuda:1"):` makes the device this
/// thread's default device (Note [Default device]) inside the block and gives back the one
/// it found on exit, as torch 2.x's torch.device does (through a DeviceContext mode). The
/// defaults found are kept on one stack per thread, not in the device object, so one device
/// object may be entered twice or nested in another's block.
thread_local std::vector<Device> defaults_before_enter;

}  // namespace

void bind_device(nb::module_& m) {
  nb::class_<Device>(m, "device", "Where a tensor lives (torch.device).")
      .def(nb::init_implicit<const std::string&>(), nb::arg("type"))
      .def("__init__",
           [](Device* self, const std::string& type, int index) {
             TIDE_CHECK(type.find(':') == std::string::npos,
                        "[tide.device] type (string) must not include an index because index "
                        "was passed explicitly: ", type);
             TIDE_CHECK(index >= 0, "[tide.device] Device index must not be negative, got ",
                        index);
             Device parsed(type);
             new (self) Device(parsed.type(), index);
           },
           nb::arg("type"), nb::arg("index"))
      // torch.device('cuda', None) is torch.device('cuda').
      .def("__init__",
           [](Device* self, const std::string& type, nb::none) { new (self) Device(type); },
           nb::arg("type"), nb::arg("index").none())
      // torch.device(1) is cuda:1.
      .def("__init__",
           [](Device* self, int index) {
             TIDE_CHECK(index >= 0, "[tide.device] Device index must not be negative, got ",
                        index);
             new (self) Device(kCUDA, index);
           },
           nb::arg("index"))
      .def_prop_ro("type", [](const Device& d) { return std::string(device_type_name(d.type())); })
      .def_prop_ro("index", [](const Device& d) -> nb::object {
        return d.has_index() ? nb::object(nb::int_(d.index())) : nb::object(nb::none());
      })
      .def("__repr__", &repr)
      .def("__str__", &Device::str)
      .def("__eq__", [](const Device& a, const Device& b) { return a == b; })
      .def("__eq__", [](const Device&, nb::handle) { return false; })
      .def("__ne__", [](const Device& a, const Device& b) { return a != b; })
      .def("__ne__", [](const Device&, nb::handle) { return true; })
      .def("__hash__", [](const Device& d) { return std::hash<Device>()(d); })
      .def("__enter__",
           [](const Device& d) {
             defaults_before_enter.push_back(detail::thread_default_device());
             set_default_device(d);
             return d;  // `with tide.device("cuda") as dev:` works, as torch's
           })
      .def("__exit__",
           [](const Device&, nb::args) {
             TIDE_CHECK(!defaults_before_enter.empty(), "[tide.device.__exit__] expected a "
                        "device entered with `with` on this thread, found none; use the "
                        "device in a with statement");
             const Device before = defaults_before_enter.back();
             defaults_before_enter.pop_back();
             set_default_device(before);
           })
      .def("__reduce__", [](const Device& d) {
        return nb::make_tuple(nb::type<Device>(), nb::make_tuple(d.str()));
      });
}

}  // namespace tide::python
