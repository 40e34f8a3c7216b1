// tide.memory_format and its four values (tide.contiguous_format, tide.channels_last,
// tide.channels_last_3d, tide.preserve_format), the Python face of tide::MemoryFormat.

#include <string>

#include <nanobind/stl/string.h>

#include "bindings.h"
#include "tide/memory_format.h"

namespace nb = nanobind;

namespace tide::python {

void bind_memory_format(nb::module_& m) {
  // torch's names, and its repr without the enum's class prefix: tide.channels_last
  nb::enum_<MemoryFormat>(m, "memory_format", "A tensor memory layout (torch.memory_format).")
      .value("contiguous_format", MemoryFormat::Contiguous)
      .value("preserve_format", MemoryFormat::Preserve)
      .value("channels_last", MemoryFormat::ChannelsLast)
      .value("channels_last_3d", MemoryFormat::ChannelsLast3d)
      .def("__repr__", [](MemoryFormat f) { return "tide." + python_name(f); })
      .def("__str__", [](MemoryFormat f) { return "tide." + python_name(f); });
}

std::string python_name(MemoryFormat format) {
  switch (format) {
    case MemoryFormat::Contiguous: return "contiguous_format";
    case MemoryFormat::Preserve: return "preserve_format";
    case MemoryFormat::ChannelsLast: return "channels_last";
    case MemoryFormat::ChannelsLast3d: return "channels_last_3d";
  }
  return "memory_format";
}

}  // namespace tide::python
