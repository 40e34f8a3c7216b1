#pragma once
// nanobind type casters for tide's small value types, so that bound functions take them
// directly: Scalar from a Python bool, int or float (torch's Number), and Dtype from the
// tide.dtype objects (python/src/dtype_object.h) that tide.float32 and friends are.

#include <nanobind/nanobind.h>

#include "dtype_object.h"
#include "tide/dtype.h"
#include "tide/scalar.h"

namespace nanobind::detail {

template <>
struct type_caster<tide::Scalar> {
  NB_TYPE_CASTER(tide::Scalar, const_name("Number"))

  bool from_python(handle src, uint8_t, cleanup_list*) noexcept {
    PyObject* o = src.ptr();
    // bool before int: Python's bool is an int subclass, torch keeps True a bool.
    if (PyBool_Check(o)) {
      value = tide::Scalar(o == Py_True);
      return true;
    }
    if (PyLong_Check(o)) {
      int overflow = 0;
      long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
      if (overflow != 0 || (v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return false;
      }
      value = tide::Scalar(static_cast<int64_t>(v));
      return true;
    }
    if (PyFloat_Check(o)) {
      value = tide::Scalar(PyFloat_AS_DOUBLE(o));
      return true;
    }
    return false;
  }

  static handle from_cpp(const tide::Scalar& s, rv_policy, cleanup_list*) noexcept {
    if (s.is_bool()) return PyBool_FromLong(s.to_bool());
    if (s.is_integral()) return PyLong_FromLongLong(s.to_int64());
    return PyFloat_FromDouble(s.to_double());
  }
};

template <>
struct type_caster<tide::Dtype> {
  NB_TYPE_CASTER(tide::Dtype, const_name("tide.dtype"))

  bool from_python(handle src, uint8_t, cleanup_list*) noexcept {
    const tide::python::DtypeObject* d = tide::python::as_dtype_object(src);
    if (d == nullptr) return false;
    value = d->value;
    return true;
  }

  static handle from_cpp(tide::Dtype d, rv_policy, cleanup_list*) noexcept {
    return tide::python::dtype_object(d).inc_ref();
  }
};

}  // namespace nanobind::detail
