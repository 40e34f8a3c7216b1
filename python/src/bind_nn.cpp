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
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/variant.h>
#include <nanobind/stl/vector.h>

#include <variant>
#include <vector>

#include "tide/backends/cudnn.h"
#include "tide/nn/conv.h"
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

/// F.conv2d's padding: numbers (tide.nn.functional passes a list) or a word.
using Padding = std::variant<std::vector<int64_t>, std::string>;

Tensor conv2d_padded(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                     const std::vector<int64_t>& stride, const Padding& padding,
                     const std::vector<int64_t>& dilation, int64_t groups) {
  if (const auto* word = std::get_if<std::string>(&padding)) {
    return tide::conv2d(input, weight, bias.value_or(Tensor()), stride, PaddingMode(*word),
                        dilation, groups);
  }
  return tide::conv2d(input, weight, bias.value_or(Tensor()), stride,
                      std::get<std::vector<int64_t>>(padding), dilation, groups);
}

std::optional<Tensor> maybe(const Tensor& t) {
  return t.defined() ? std::optional<Tensor>(t) : std::nullopt;
}

/// The convolution, pooling and batch norm ops of tide.nn.functional (int[2] arguments come
/// as lists: functional.py expands a single int first).
void bind_conv_ops(nb::module_& m) {
  using Ints = std::vector<int64_t>;
  m.def("_conv2d", &conv2d_padded, nb::arg("input"), nb::arg("weight"), nb::arg("bias").none(),
        nb::arg("stride"), nb::arg("padding"), nb::arg("dilation"), nb::arg("groups"));
  m.def("_conv1d",
        [](const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
           const Ints& stride, const Ints& padding, const Ints& dilation, int64_t groups) {
          return tide::conv1d(input, weight, bias.value_or(Tensor()), stride, padding, dilation,
                              groups);
        },
        nb::arg("input"), nb::arg("weight"), nb::arg("bias").none(), nb::arg("stride"),
        nb::arg("padding"), nb::arg("dilation"), nb::arg("groups"));
  m.def("_max_pool2d_with_indices",
        [](const Tensor& input, const Ints& kernel_size, const Ints& stride, const Ints& padding,
           const Ints& dilation, bool ceil_mode) {
          return tide::max_pool2d_with_indices(input, kernel_size, stride, padding, dilation,
                                               ceil_mode);
        });
  m.def("_max_pool2d", [](const Tensor& input, const Ints& kernel_size, const Ints& stride,
                          const Ints& padding, const Ints& dilation, bool ceil_mode) {
    return tide::max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode);
  });
  m.def("_avg_pool2d",
        [](const Tensor& input, const Ints& kernel_size, const Ints& stride, const Ints& padding,
           bool ceil_mode, bool count_include_pad, std::optional<int64_t> divisor_override) {
          return tide::avg_pool2d(input, kernel_size, stride, padding, ceil_mode,
                                  count_include_pad, divisor_override);
        },
        nb::arg("input"), nb::arg("kernel_size"), nb::arg("stride"), nb::arg("padding"),
        nb::arg("ceil_mode"), nb::arg("count_include_pad"), nb::arg("divisor_override").none());
  m.def("_adaptive_avg_pool2d", [](const Tensor& input, const Ints& output_size) {
    return tide::adaptive_avg_pool2d(input, output_size);
  });
  m.def("_batch_norm",
        [](const Tensor& input, const std::optional<Tensor>& running_mean,
           const std::optional<Tensor>& running_var, const std::optional<Tensor>& weight,
           const std::optional<Tensor>& bias, bool training, double momentum, double eps) {
          return tide::batch_norm(input, weight.value_or(Tensor()), bias.value_or(Tensor()),
                                  running_mean.value_or(Tensor()), running_var.value_or(Tensor()),
                                  training, momentum, eps);
        },
        nb::arg("input"), nb::arg("running_mean").none(), nb::arg("running_var").none(),
        nb::arg("weight").none(), nb::arg("bias").none(), nb::arg("training"),
        nb::arg("momentum"), nb::arg("eps"));
  m.def("_conv2d_init",
        [](int64_t in_channels, int64_t out_channels, const Ints& kernel_size, int64_t groups,
           bool bias) {
          // The C++ module's draws (weight, then bias), as _linear_init.
          nn::Conv2d conv(nn::Conv2dOptions(in_channels, out_channels, kernel_size)
                              .groups(groups)
                              .bias(bias));
          return std::make_pair(conv.weight, maybe(conv.bias));
        },
        nb::arg("in_channels"), nb::arg("out_channels"), nb::arg("kernel_size"),
        nb::arg("groups"), nb::arg("bias"));
}

/// torch.backends.cudnn's switches (python/tide/backends/cudnn.py) by name.
void bind_cudnn_switches(nb::module_& m) {
  namespace cudnn = tide::backends::cudnn;
  m.def("_cudnn_is_available", &cudnn::is_available);
  m.def("_cudnn_version", &cudnn::version);
  m.def("_cudnn_get", [](const std::string& name) {
    if (name == "benchmark") return cudnn::benchmark();
    if (name == "deterministic") return cudnn::deterministic();
    TIDE_CHECK(name == "allow_tf32", "[tide.backends.cudnn] unknown switch ", name);
    return cudnn::allow_tf32();
  });
  m.def("_cudnn_set", [](const std::string& name, bool on) {
    if (name == "benchmark") return cudnn::set_benchmark(on);
    if (name == "deterministic") return cudnn::set_deterministic(on);
    TIDE_CHECK(name == "allow_tf32", "[tide.backends.cudnn] unknown switch ", name);
    cudnn::set_allow_tf32(on);
  });
}

}  // namespace

void bind_nn(nb::module_& m) {
  bind_conv_ops(m);
  bind_cudnn_switches(m);
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
