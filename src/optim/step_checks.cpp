#include "optim/step_checks.h"

#include "tensor/tensor_internal.h"
#include "tide/error.h"

namespace tide::optim::detail {

void check_parameter(const Tensor& param, const char* where) {
  TIDE_CHECK(param.defined(), "[", where, "] expected a parameter, found an undefined tensor; "
             "pass the tensors the optimizer updates");
  TIDE_CHECK(param.is_floating_point(), "[", where,
             "] expected a floating-point parameter (float16, bfloat16, float32 or float64), "
             "found ", param.dtype(), "; only floating-point tensors can be optimized");
}

void check_like_parameter(const Tensor& t, const Tensor& param, const char* where,
                          const char* what) {
  TIDE_CHECK(t.defined(), "[", where, "] expected ", what,
             " for the parameter, found an undefined tensor; create it with "
             "empty_like(param) or zeros_like(param) as the optimizer's state does");
  TIDE_CHECK(t.device() == param.device(), "[", where, "] expected ", what,
             " on the parameter's device ", param.device(), ", found it on ", t.device(),
             "; each parameter is updated on its own device, so move ", what, " there (",
             what, ".to(param.device()))");
  TIDE_CHECK(t.dtype() == param.dtype(), "[", where, "] expected ", what,
             " of the parameter's dtype ", param.dtype(), ", found ", t.dtype(),
             "; convert it with .to(param.dtype())");
  TIDE_CHECK(t.shape() == param.shape(), "[", where, "] expected ", what,
             " of the parameter's shape ", tide::detail::shape_str(param.shape()), ", found ",
             tide::detail::shape_str(t.shape()), "; ", what,
             " must have one element per parameter element");
}

void check_state(const Tensor& t, const Tensor& param, const char* where, const char* what) {
  check_like_parameter(t, param, where, what);
  TIDE_CHECK(t.is_contiguous(), "[", where, "] expected a contiguous ", what,
             ", found strides ", tide::detail::shape_str(t.stride_vector()),
             "; create the optimizer's state with zeros_like(param) or empty_like(param)");
}

}  // namespace tide::optim::detail
