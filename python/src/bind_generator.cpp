// tide.Generator (torch.Generator) over tide::Generator, and tide.default_generator: the
// states that the random functions' generator= takes (Note [Generators] in
// include/tide/generator.h).

#include <cstdint>
#include <string>

#include <nanobind/stl/string.h>

#include "bindings.h"
#include "tensor/generator.h"
#include "tide/generator.h"

namespace nb = nanobind;

namespace tide::python {

uint64_t seed_of(nb::handle seed) {
  if (!PyLong_Check(seed.ptr()) || PyBool_Check(seed.ptr())) {
    throw nb::type_error(("manual_seed(): argument 'seed' must be int, not " +
                          std::string(nb::type_name(seed.type()).c_str()))
                             .c_str());
  }
  int overflow = 0;
  const long long signed_value = PyLong_AsLongLongAndOverflow(seed.ptr(), &overflow);
  if (overflow == 0) return static_cast<uint64_t>(signed_value);
  if (overflow > 0) {
    const unsigned long long value = PyLong_AsUnsignedLongLong(seed.ptr());
    if (!PyErr_Occurred()) return value;
    PyErr_Clear();
  }
  TIDE_CHECK(false, "Overflow when unpacking long: manual_seed expected a seed in [-2**63, 2**64), "
             "found ", nb::str(seed).c_str());
  return 0;
}

void bind_generator(nb::module_& m) {
  nb::class_<Generator>(m, "Generator",
                        "A Philox random stream (torch.Generator): seed, offset and a device type.")
      .def(nb::init<Device>(), nb::arg("device") = Device(kCPU))
      // each returns the generator itself (the same Python object), as torch's
      .def("manual_seed",
           [](nb::object self, nb::handle seed) {
             nb::cast<Generator&>(self).manual_seed(seed_of(seed));
             return self;
           },
           nb::arg("seed"))
      .def("seed", &Generator::seed)
      .def("initial_seed", &Generator::initial_seed)
      .def("get_state", &Generator::get_state)
      .def("set_state",
           [](nb::object self, const Tensor& new_state) {
             nb::cast<Generator&>(self).set_state(new_state);
             return self;
           },
           nb::arg("new_state"))
      .def_prop_ro("device", &Generator::device)
      .def("__eq__", [](const Generator& a, const Generator& b) { return a == b; })
      .def("__eq__", [](const Generator&, nb::handle) { return false; })
      .def("__hash__", [](const Generator& g) { return reinterpret_cast<intptr_t>(&g.state()); })
      // (seed, stream) of one draw for the samplers of tide.utils.data: the generator's seed
      // and a Philox block reserved as any draw reserves it, so the next draw differs.
      .def("_next_key", [](Generator& g) {
        const detail::PhiloxStart key = g.state().reserve(1);
        return nb::make_tuple(key.seed, key.offset);
      });
  m.attr("default_generator") = nb::cast(tide::default_generator(Device(kCPU)));
  m.def("_default_generator", &tide::default_generator, nb::arg("device"));
}

}  // namespace tide::python
