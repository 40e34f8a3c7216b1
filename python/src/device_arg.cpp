#include "device_arg.h"

#include <cstdint>

#include <string>

#include <nanobind/stl/string.h>

#include "py_int.h"
#include "tide/device.h"
#include "tide/error.h"

namespace nb = nanobind;

namespace tide::python {

int cuda_device_index(nb::handle device) {
  if (device.is_none()) return -1;
  if (PyLong_Check(device.ptr())) {
    int64_t index = to_int64(device, "[tide.cuda] a device index");
    TIDE_CHECK(index >= INT32_MIN && index <= INT32_MAX, "[tide.cuda] ", index,
               " is not a device index; pass 0 .. tide.cuda.device_count() - 1");
    return static_cast<int>(index);
  }
  Device d = nb::isinstance<Device>(device) ? nb::cast<Device>(device)
             : PyUnicode_Check(device.ptr())
                 ? Device(nb::cast<std::string>(device))
                 : throw nb::type_error((std::string("[tide.cuda] expected a device (None, an "
                                                     "int, a tide.device or a string such as "
                                                     "'cuda:1'), found ") +
                                         nb::type_name(device.type()).c_str()).c_str());
  TIDE_CHECK(d.is_cuda(), "[tide.cuda] expected a cuda device, found '", d.str(),
             "'; name a cuda device ('cuda:1', 1 or tide.device('cuda', 1))");
  return d.index();
}

}  // namespace tide::python
