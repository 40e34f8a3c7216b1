// tide.nn's compiled helpers: nn.Linear's initialization and forward, done by the same C++ code
// as tide::nn::Linear, so that a Python model and a C++ model built after the same manual_seed
// hold the same parameters and compute the same numbers, bit for bit (the training-loop parity
// test, tests/python/test_train_loop_parity.py).

#include <optional>
#include <string>
#include <utility>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>

#include "bindings.h"
#include "tide/nn/linear.h"
#include "tide/ops.h"

namespace nb = nanobind;

namespace tide::python {
namespace {

std::string shape_str(const Tensor& t) {
  std::string out = "[";
  for (int64_t i = 0; i < t.dim(); ++i) out += (i ? ", " : "") + std::to_string(t.size(i));
  return out + "]";
}

/// tide::linear (nn::Linear's computation) after the checks, in Python's words.
Tensor checked_linear(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias) {
  TIDE_CHECK(weight.dim() == 2, "[tide.nn.functional.linear] expected a 2-d weight (out_features, "
             "in_features), found shape ", shape_str(weight));
  TIDE_CHECK(input.dim() >= 1 && input.size(-1) == weight.size(1),
             "[tide.nn.functional.linear] expected an input whose last dimension is "
             "in_features=", weight.size(1), ", found shape ", shape_str(input),
             "; reshape the input (nn.Flatten) or build the Linear for this input");
  return tide::linear(input, weight, bias.value_or(Tensor()));
}

}  // namespace

void bind_nn(nb::module_& m) {
  m.def("_linear_init",
        [](int64_t in_features, int64_t out_features, bool bias) {
          // The C++ module draws weight then bias from the default generator; its tensors
          // outlive it (they are handles).
          nn::Linear linear(in_features, out_features, bias);
          return std::make_pair(linear.weight,
                                bias ? std::optional<Tensor>(linear.bias) : std::nullopt);
        }, nb::arg("in_features"), nb::arg("out_features"), nb::arg("bias"));
  m.def("_linear", &checked_linear, nb::arg("input"), nb::arg("weight"), nb::arg("bias").none());
}

}  // namespace tide::python
