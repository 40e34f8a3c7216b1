#pragma once
// Python ints as int64_t, with Python's own errors: TypeError for a non-int (bool excluded, as
// torch), OverflowError for one that does not fit, both naming where it was given.

#include <cstdint>
#include <string>

#include <nanobind/nanobind.h>

namespace tide::python {

inline bool is_int(nanobind::handle h) {
  return PyLong_Check(h.ptr()) && !PyBool_Check(h.ptr());
}

/// The value of `h`, an int; `what` names the argument in the error ("Tensor.sum(): dim").
inline int64_t to_int64(nanobind::handle h, const char* what) {
  if (!PyLong_Check(h.ptr())) {
    std::string msg = std::string(what) + " must be an int, found " +
                      nanobind::type_name(h.type()).c_str();
    PyErr_SetString(PyExc_TypeError, msg.c_str());
    throw nanobind::python_error();
  }
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
  if (overflow != 0) {
    std::string msg = std::string(what) + " does not fit in int64: " +
                      nanobind::str(h).c_str();
    PyErr_SetString(PyExc_OverflowError, msg.c_str());
    throw nanobind::python_error();
  }
  return v;
}

}  // namespace tide::python
