// tide.device: torch.device's constructor forms, printing and comparison over tide::Device.

#include <string>

#include <nanobind/stl/string.h>

#include "bindings.h"
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
      .def("__reduce__", [](const Device& d) {
        return nb::make_tuple(nb::type<Device>(), nb::make_tuple(d.str()));
      });
}

}  // namespace tide::python
