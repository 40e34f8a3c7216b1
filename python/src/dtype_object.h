#pragma once
// tide.dtype: one Python object per tide::Dtype (tide.float32 is tide.float32, as torch's
// dtypes are singletons), printed "tide.float32".

#include <nanobind/nanobind.h>

#include "tide/dtype.h"

namespace tide::python {

struct DtypeObject {
  Dtype value;
};

/// The singleton for `dtype` (valid once bind_dtype ran).
nanobind::handle dtype_object(Dtype dtype);
/// The DtypeObject inside `h`, or null when `h` is not a tide.dtype.
const DtypeObject* as_dtype_object(nanobind::handle h) noexcept;

}  // namespace tide::python
