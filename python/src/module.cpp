// tide._C: the compiled half of the Python package. The modules under python/tide arrange
// what it binds into torch's layout (tide.cuda, tide.nn, ...). Importing it starts no backend:
// devices are discovered at the first cuda call, so CUDA_VISIBLE_DEVICES and TIDE_SIM_DEVICES
// set after `import tide` still count, as with torch.

#include "bindings.h"

NB_MODULE(_C, m) {
  m.doc() = "tide's C++ runtime, bound with nanobind (use the `tide` package, not this module)";
  // Order: the types a signature names are bound before the functions that name them.
  tide::python::bind_errors(m);
  tide::python::bind_argument_errors(m);
  tide::python::bind_dtype(m);
  tide::python::bind_device(m);
  tide::python::bind_generator(m);
  tide::python::bind_memory_format(m);
  tide::python::bind_tensor(m);
  tide::python::bind_factories(m);
  tide::python::bind_cuda(m);
  tide::python::bind_nn(m);
  tide::python::bind_optim(m);
  tide::python::bind_data(m);
  tide::python::bind_distributed(m);
  tide::python::bind_ddp(m);
  tide::python::bind_dlpack(m);
  tide::python::bind_serialization(m);
  tide::python::bind_testing(m);
}
