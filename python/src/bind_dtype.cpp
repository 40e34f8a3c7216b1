// tide.dtype and its eight singletons (tide.float32, tide.int64, ... and torch's aliases:
// tide.float, tide.long, ...), the Python face of tide::Dtype.

#include <array>
#include <string>

#include <nanobind/stl/string.h>

#include "bindings.h"
#include "casters.h"

namespace nb = nanobind;

namespace tide::python {
namespace {

// Borrowed: the module's attributes (tide._C.float32, ...) own the objects and the type, so
// they go away with the module and nanobind's leak check at exit stays quiet.
std::array<nb::handle, kNumDtypes> singletons;
nb::handle dtype_type;

}  // namespace

nb::handle dtype_object(Dtype dtype) { return singletons[static_cast<int>(dtype)]; }

const DtypeObject* as_dtype_object(nb::handle h) noexcept {
  if (!dtype_type.is_valid() || !nb::isinstance(h, dtype_type)) return nullptr;
  return nb::inst_ptr<DtypeObject>(h);
}

void bind_dtype(nb::module_& m) {
  auto cls = nb::class_<DtypeObject>(m, "dtype", "A tensor element type (torch.dtype).")
      .def_prop_ro("is_floating_point", [](const DtypeObject& d) { return is_floating_point(d.value); })
      .def_prop_ro("is_signed", [](const DtypeObject& d) {
        return d.value != kBool && d.value != kUInt8;
      })
      .def_prop_ro("itemsize", [](const DtypeObject& d) { return element_size(d.value); })
      .def("__repr__", [](const DtypeObject& d) { return std::string("tide.") + name(d.value); })
      .def("__str__", [](const DtypeObject& d) { return std::string("tide.") + name(d.value); })
      .def("__hash__", [](const DtypeObject& d) { return static_cast<int>(d.value); })
      .def("__eq__", [](const DtypeObject& a, nb::handle b) {
        const DtypeObject* other = as_dtype_object(b);
        return other != nullptr && other->value == a.value;
      })
      .def("__ne__", [](const DtypeObject& a, nb::handle b) {
        const DtypeObject* other = as_dtype_object(b);
        return other == nullptr || other->value != a.value;
      })
      // Copies of a dtype are the dtype itself (copy.deepcopy of a module keeps identity).
      .def("__copy__", [](nb::handle self) { return nb::borrow(self); })
      .def("__deepcopy__", [](nb::handle self, nb::handle) { return nb::borrow(self); })
      .def("__reduce__", [](const DtypeObject& d) { return std::string(name(d.value)); });
  dtype_type = cls;
  for (int i = 0; i < kNumDtypes; ++i) {
    auto dtype = static_cast<Dtype>(i);
    nb::object object = nb::cast(DtypeObject{dtype}, nb::rv_policy::move);
    m.attr(name(dtype)) = object;
    singletons[i] = object;
  }
}

}  // namespace tide::python
