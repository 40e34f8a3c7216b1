// Factories and process-wide settings: tide.empty/zeros/ones/full/rand/randn/randint/arange/
// linspace/tensor and the *_like forms (their torch signatures, *size included, are in
// python/tide/_factories.py), the random seed, default dtype and device, grad mode, and the
// nn.functional losses.

#include <optional>
#include <string>
#include <vector>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "casters.h"
#include "tensor_from_python.h"
#include "tide/autograd.h"
#include "tide/default_device.h"
#include "tide/default_dtype.h"
#include "tide/factories.h"
#include "tide/ops.h"
#include "tide/matrix_factories.h"
#include "tide/print_options.h"
#include "tide/random.h"
#include "tide/sampling.h"

namespace nb = nanobind;

namespace tide::python {
namespace {

TensorOptions options_of(std::optional<Dtype> dtype, std::optional<Device> device,
                         bool pin_memory) {
  TensorOptions o;
  if (dtype) o = o.dtype(*dtype);
  if (device) o = o.device(*device);
  return o.pinned_memory(pin_memory);
}

std::optional<TensorOptions> like_options(std::optional<Dtype> dtype,
                                          std::optional<Device> device,
                                          std::optional<MemoryFormat> memory_format) {
  if (!dtype && !device && !memory_format) return std::nullopt;
  TensorOptions o = options_of(dtype, device, false);
  return memory_format ? o.memory_format(*memory_format) : o;
}

Tensor finish(Tensor t, bool requires_grad) {
  if (requires_grad) t.requires_grad_(true);
  return t;
}

Reduction reduction_of(const std::string& r) {
  if (r == "mean") return Reduction::Mean;
  if (r == "sum") return Reduction::Sum;
  TIDE_CHECK(r == "none", "[tide.nn.functional] reduction must be 'none', 'mean' or 'sum', "
             "found '", r, "'");
  return Reduction::None;
}

}  // namespace

void bind_factories(nb::module_& m) {
  using Sizes = std::vector<int64_t>;
  using OptDtype = std::optional<Dtype>;
  using OptDevice = std::optional<Device>;
  using OptFormat = std::optional<MemoryFormat>;

  // (sizes, dtype, device, requires_grad, pin_memory) for the shape-only factories.
  auto size_factory = [&m](const char* py_name, auto fn) {
    m.def(py_name,
          [fn](Sizes sizes, OptDtype dtype, OptDevice device, bool requires_grad, bool pin) {
            return finish(fn(std::move(sizes), options_of(dtype, device, pin)), requires_grad);
          },
          nb::arg("size"), nb::arg("dtype").none(), nb::arg("device").none(),
          nb::arg("requires_grad"), nb::arg("pin_memory"));
  };
  m.def("_empty",
        [](Sizes sizes, OptDtype dtype, OptDevice device, bool requires_grad, bool pin,
           OptFormat format) {
          TensorOptions o = options_of(dtype, device, pin);
          return finish(tide::empty(std::move(sizes), format ? o.memory_format(*format) : o),
                        requires_grad);
        },
        nb::arg("size"), nb::arg("dtype").none(), nb::arg("device").none(),
        nb::arg("requires_grad"), nb::arg("pin_memory"),
        nb::arg("memory_format").none() = nb::none());
  size_factory("_zeros", [](Sizes s, TensorOptions o) { return tide::zeros(std::move(s), o); });
  size_factory("_ones", [](Sizes s, TensorOptions o) { return tide::ones(std::move(s), o); });
  using OptGenerator = std::optional<Generator>;
  // The random ones take generator= too (none: the device's default generator).
  auto random_factory = [&m](const char* py_name, auto fn) {
    m.def(py_name,
          [fn](Sizes sizes, OptGenerator generator, OptDtype dtype, OptDevice device,
               bool requires_grad, bool pin) {
            return finish(fn(std::move(sizes), std::move(generator), options_of(dtype, device, pin)),
                          requires_grad);
          },
          nb::arg("size"), nb::arg("generator").none(), nb::arg("dtype").none(),
          nb::arg("device").none(), nb::arg("requires_grad"), nb::arg("pin_memory"));
  };
  random_factory("_rand", [](Sizes s, OptGenerator g, TensorOptions o) {
    return tide::rand(std::move(s), std::move(g), o);
  });
  random_factory("_randn", [](Sizes s, OptGenerator g, TensorOptions o) {
    return tide::randn(std::move(s), std::move(g), o);
  });

  m.def("_full",
        [](Sizes sizes, Scalar value, OptDtype dtype, OptDevice device, bool requires_grad,
           bool pin) {
          return finish(tide::full(std::move(sizes), value, options_of(dtype, device, pin)),
                        requires_grad);
        },
        nb::arg("size"), nb::arg("fill_value"), nb::arg("dtype").none(), nb::arg("device").none(),
        nb::arg("requires_grad"), nb::arg("pin_memory"));
  m.def("_randint",
        [](int64_t low, int64_t high, Sizes sizes, OptGenerator generator, OptDtype dtype,
           OptDevice device, bool requires_grad) {
          // torch.randint's default dtype is int64, not the default float dtype.
          return finish(tide::randint(low, high, std::move(sizes), std::move(generator),
                                      options_of(dtype.value_or(kInt64), device, false)),
                        requires_grad);
        },
        nb::arg("low"), nb::arg("high"), nb::arg("size"), nb::arg("generator").none(),
        nb::arg("dtype").none(), nb::arg("device").none(), nb::arg("requires_grad"));
  m.def("_arange",
        [](Scalar start, Scalar end, Scalar step, OptDtype dtype, OptDevice device,
           bool requires_grad) {
          return finish(tide::arange(start, end, step, options_of(dtype, device, false)),
                        requires_grad);
        },
        nb::arg("start"), nb::arg("end"), nb::arg("step"), nb::arg("dtype").none(),
        nb::arg("device").none(), nb::arg("requires_grad"));
  m.def("_linspace",
        [](double start, double end, int64_t steps, OptDtype dtype, OptDevice device,
           bool requires_grad) {
          return finish(tide::linspace(start, end, steps, options_of(dtype, device, false)),
                        requires_grad);
        },
        nb::arg("start"), nb::arg("end"), nb::arg("steps"), nb::arg("dtype").none(),
        nb::arg("device").none(), nb::arg("requires_grad"));
  m.def("_tensor",
        [](nb::handle data, OptDtype dtype, OptDevice device, bool requires_grad, bool pin) {
          Tensor t = tensor_from_python(data, dtype, device);
          if (pin) t = t.pin_memory();
          return finish(t, requires_grad);
        },
        nb::arg("data"), nb::arg("dtype").none(), nb::arg("device").none(),
        nb::arg("requires_grad"), nb::arg("pin_memory"));
  m.def("_empty_like", [](const Tensor& like, OptDtype dtype, OptDevice device, OptFormat format) {
    return tide::empty_like(like, like_options(dtype, device, format));
  }, nb::arg("input"), nb::arg("dtype").none(), nb::arg("device").none(),
     nb::arg("memory_format").none() = nb::none());
  m.def("_zeros_like", [](const Tensor& like, OptDtype dtype, OptDevice device, OptFormat format) {
    return tide::zeros_like(like, like_options(dtype, device, format));
  }, nb::arg("input"), nb::arg("dtype").none(), nb::arg("device").none(),
     nb::arg("memory_format").none() = nb::none());
  m.def("_ones_like", [](const Tensor& like, OptDtype dtype, OptDevice device, OptFormat format) {
    return tide::ones_like(like, like_options(dtype, device, format));
  }, nb::arg("input"), nb::arg("dtype").none(), nb::arg("device").none(),
     nb::arg("memory_format").none() = nb::none());
  m.def("_full_like", [](const Tensor& like, Scalar value, OptDtype dtype, OptDevice device,
                         OptFormat format) {
    return tide::full_like(like, value, like_options(dtype, device, format));
  }, nb::arg("input"), nb::arg("fill_value"), nb::arg("dtype").none(), nb::arg("device").none(),
     nb::arg("memory_format").none() = nb::none());
  m.def("_rand_like", [](const Tensor& like, OptGenerator g, OptDtype dtype, OptDevice device,
                         OptFormat format) {
    return tide::rand_like(like, std::move(g), like_options(dtype, device, format));
  }, nb::arg("input"), nb::arg("generator").none(), nb::arg("dtype").none(),
     nb::arg("device").none(), nb::arg("memory_format").none() = nb::none());
  m.def("_randn_like", [](const Tensor& like, OptGenerator g, OptDtype dtype, OptDevice device,
                          OptFormat format) {
    return tide::randn_like(like, std::move(g), like_options(dtype, device, format));
  }, nb::arg("input"), nb::arg("generator").none(), nb::arg("dtype").none(),
     nb::arg("device").none(), nb::arg("memory_format").none() = nb::none());

  m.def("_empty_strided", [](std::vector<int64_t> sizes, std::vector<int64_t> strides,
                             OptDtype dtype, OptDevice device, bool requires_grad, bool pin) {
    return finish(tide::empty_strided(std::move(sizes), std::move(strides),
                                      options_of(dtype, device, pin)),
                  requires_grad);
  });

  // ---- structured matrices and sampling (python/tide/_creation.py gives them torch's forms)
  m.def("_eye", [](int64_t n, std::optional<int64_t> m, OptDtype dtype, OptDevice device,
                   bool requires_grad) {
    return finish(tide::eye(n, m, options_of(dtype, device, false)), requires_grad);
  });
  m.def("_tril_indices", [](int64_t row, int64_t col, int64_t offset, OptDtype dtype,
                            OptDevice device) {
    return tide::tril_indices(row, col, offset, options_of(dtype, device, false));
  });
  m.def("_triu_indices", [](int64_t row, int64_t col, int64_t offset, OptDtype dtype,
                            OptDevice device) {
    return tide::triu_indices(row, col, offset, options_of(dtype, device, false));
  });
  m.def("_logspace", [](double start, double end, int64_t steps, double base, OptDtype dtype,
                        OptDevice device, bool requires_grad) {
    return finish(tide::logspace(start, end, steps, base, options_of(dtype, device, false)),
                  requires_grad);
  });
  // generator last, None for the device's default generator
  const auto gen = nb::arg("generator").none();
  m.def("_randperm", [](int64_t n, OptDtype dtype, OptDevice device, bool requires_grad,
                        OptGenerator g) {
    return finish(tide::randperm(n, std::move(g), options_of(dtype, device, false)),
                  requires_grad);
  }, nb::arg("n"), nb::arg("dtype").none(), nb::arg("device").none(), nb::arg("requires_grad"),
     gen);
  m.def("_multinomial", &tide::multinomial, nb::arg("input"), nb::arg("num_samples"),
        nb::arg("replacement"), gen);
  m.def("_normal", [](const Tensor& mean, const Tensor& std, OptGenerator g) {
    return tide::normal(mean, std, std::move(g));
  }, nb::arg("mean"), nb::arg("std"), gen);
  m.def("_normal", [](const Tensor& mean, double std, OptGenerator g) {
    return tide::normal(mean, std, std::move(g));
  }, nb::arg("mean"), nb::arg("std"), gen);
  m.def("_normal", [](double mean, const Tensor& std, OptGenerator g) {
    return tide::normal(mean, std, std::move(g));
  }, nb::arg("mean"), nb::arg("std"), gen);
  m.def("_normal_sized", [](double mean, double std, Sizes sizes, OptGenerator g, OptDtype dtype,
                            OptDevice device, bool requires_grad) {
    return finish(tide::normal(mean, std, std::move(sizes), std::move(g),
                               options_of(dtype, device, false)),
                  requires_grad);
  }, nb::arg("mean"), nb::arg("std"), nb::arg("size"), gen, nb::arg("dtype").none(),
     nb::arg("device").none(), nb::arg("requires_grad"));
  m.def("_bernoulli", [](const Tensor& self, OptGenerator g) {
    return tide::bernoulli(self, std::move(g));
  }, nb::arg("input"), gen);
  m.def("_bernoulli", [](const Tensor& self, double p, OptGenerator g) {
    return tide::bernoulli(self, p, std::move(g));
  }, nb::arg("input"), nb::arg("p"), gen);
  m.def("_poisson", &tide::poisson, nb::arg("input"), gen);

  // ---- settings
  m.def("manual_seed", [](nb::handle seed) { tide::manual_seed(seed_of(seed)); }, nb::arg("seed"));
  // The default cpu generator's state as bytes (tide.get_rng_state wraps it in a uint8 tensor).
  m.def("_get_rng_state", [] {
    const std::vector<uint8_t> s = tide::get_rng_state();
    return std::vector<int64_t>(s.begin(), s.end());
  });
  m.def("_set_rng_state", [](const std::vector<int64_t>& bytes) {
    tide::set_rng_state(std::vector<uint8_t>(bytes.begin(), bytes.end()));
  });
  m.def("initial_seed", &tide::initial_seed);
  m.def("set_default_dtype", &tide::set_default_dtype, nb::arg("d"));
  m.def("get_default_dtype", &tide::get_default_dtype);
  m.def("set_default_device", &tide::set_default_device, nb::arg("device"));
  m.def("get_default_device", &tide::get_default_device);
  m.def("is_grad_enabled", &GradMode::is_enabled);
  m.def("_set_grad_enabled", &GradMode::set_enabled, nb::arg("mode"));
  // torch.set_printoptions: python/tide/_printing.py resolves profile= and the arguments
  // left out, then sets all five.
  m.def("_set_printoptions",
        [](int precision, double threshold, int64_t edgeitems, int64_t linewidth,
           std::optional<bool> sci_mode) {
          tide::set_printoptions({precision, threshold, edgeitems, linewidth, sci_mode});
        },
        nb::arg("precision"), nb::arg("threshold"), nb::arg("edgeitems"), nb::arg("linewidth"),
        nb::arg("sci_mode").none());
  m.def("_get_printoptions", [] {
    const PrintOptions o = tide::get_printoptions();
    return nb::make_tuple(o.precision, o.threshold, o.edgeitems, o.linewidth,
                          o.sci_mode ? nb::cast(*o.sci_mode) : nb::none());
  });
  m.def("set_float32_matmul_precision", &tide::set_float32_matmul_precision);
  m.def("get_float32_matmul_precision", &tide::get_float32_matmul_precision);

  // ---- nn.functional (reductions by name, as torch)
  m.def("_nll_loss",
        [](const Tensor& input, const Tensor& target, std::optional<Tensor> weight,
           const std::string& reduction, int64_t ignore_index) {
          return tide::nll_loss(input, target, weight.value_or(Tensor()),
                                reduction_of(reduction), ignore_index);
        });
  m.def("_cross_entropy",
        [](const Tensor& input, const Tensor& target, std::optional<Tensor> weight,
           const std::string& reduction, int64_t ignore_index, double label_smoothing) {
          return tide::cross_entropy(input, target, weight.value_or(Tensor()),
                                     reduction_of(reduction), ignore_index, label_smoothing);
        });
  using T = const Tensor&;
  using S = const std::string&;
  using OptT = std::optional<Tensor>;
  m.def("_mse_loss", [](T input, T target, S reduction) {
    return tide::mse_loss(input, target, reduction_of(reduction));
  });
  m.def("_l1_loss", [](T input, T target, S reduction) {
    return tide::l1_loss(input, target, reduction_of(reduction));
  });
  m.def("_smooth_l1_loss", [](T input, T target, S reduction, double beta) {
    return tide::smooth_l1_loss(input, target, reduction_of(reduction), beta);
  });
  m.def("_huber_loss", [](T input, T target, S reduction, double delta) {
    return tide::huber_loss(input, target, reduction_of(reduction), delta);
  });
  m.def("_binary_cross_entropy", [](T input, T target, OptT weight, S reduction) {
    return tide::binary_cross_entropy(input, target, weight.value_or(Tensor()),
                                      reduction_of(reduction));
  });
  m.def("_binary_cross_entropy_with_logits",
        [](T input, T target, OptT weight, OptT pos_weight, S reduction) {
          return tide::binary_cross_entropy_with_logits(input, target, weight.value_or(Tensor()),
                                                        pos_weight.value_or(Tensor()),
                                                        reduction_of(reduction));
        });
  m.def("_kl_div", [](T input, T target, S reduction, bool log_target) {
    return tide::kl_div(input, target, reduction_of(reduction), log_target);
  });
  m.def("_margin_ranking_loss", [](T input1, T input2, T target, double margin, S reduction) {
    return tide::margin_ranking_loss(input1, input2, target, margin, reduction_of(reduction));
  });
  m.def("_cosine_embedding_loss", [](T input1, T input2, T target, double margin, S reduction) {
    return tide::cosine_embedding_loss(input1, input2, target, margin, reduction_of(reduction));
  });
  // ---- activations (nn.functional names, without the inplace flags torch's Python adds)
  m.def("_gelu", [](T input, S approximate) { return tide::gelu(input, approximate); });
  m.def("_silu", [](T input) { return tide::silu(input); });
  m.def("_mish", [](T input) { return tide::mish(input); });
  m.def("_softplus", [](T input, double beta, double threshold) {
    return tide::softplus(input, beta, threshold);
  });
  m.def("_leaky_relu", [](T input, double slope) { return tide::leaky_relu(input, slope); });
  m.def("_elu", [](T input, double alpha) { return tide::elu(input, alpha); });
  m.def("_hardtanh", [](T input, double min_val, double max_val) {
    return tide::hardtanh(input, min_val, max_val);
  });
  m.def("_prelu", [](T input, T weight) { return tide::prelu(input, weight); });
  // ---- layers' functional forms
  m.def("_layer_norm", [](T input, Sizes shape, OptT weight, OptT bias, double eps) {
    return tide::layer_norm(input, std::move(shape), weight.value_or(Tensor()),
                            bias.value_or(Tensor()), eps);
  });
  m.def("_group_norm", [](T input, int64_t groups, OptT weight, OptT bias, double eps) {
    return tide::group_norm(input, groups, weight.value_or(Tensor()), bias.value_or(Tensor()),
                            eps);
  });
  m.def("_embedding", [](T weight, T indices, int64_t padding_idx) {
    return tide::embedding(weight, indices, padding_idx);
  });
  m.def("_one_hot", [](T input, int64_t num_classes) { return tide::one_hot(input, num_classes); });
  m.def("_normalize", [](T input, double p, int64_t dim, double eps) {
    return tide::normalize(input, p, dim, eps);
  });
  m.def("_cosine_similarity", [](T x1, T x2, int64_t dim, double eps) {
    return tide::cosine_similarity(x1, x2, dim, eps);
  });
  m.def("_pairwise_distance", [](T x1, T x2, double p, double eps, bool keepdim) {
    return tide::pairwise_distance(x1, x2, p, eps, keepdim);
  });
  m.def("_dropout", &tide::dropout);
}

}  // namespace tide::python
