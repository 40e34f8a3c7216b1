// tide.optim's engines: the C++ SGD, Adam, AdamW, RMSprop and Adagrad (tide/optim), one per
// parameter group. The Python classes (python/tide/optim) keep torch's param_groups dicts and
// hand a group's hyperparameters back here before every step, so a change the user makes (a
// learning-rate schedule) applies at the next step, as torch's. The per-parameter state stays
// here; state_dict() reads it and load_state_dict() replaces it through _param_state and
// _load_param_state (Note [Optimizer state in torch's layout] in tide/optim/optimizer.h).

#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "tide/optim/adagrad.h"
#include "tide/optim/adam.h"
#include "tide/optim/adamw.h"
#include "tide/optim/rmsprop.h"
#include "tide/optim/sgd.h"

namespace nb = nanobind;

namespace tide::python {
namespace {

optim::SGDOptions sgd_options(double lr, double momentum, double dampening, double weight_decay,
                              bool nesterov, bool maximize) {
  return optim::SGDOptions(lr).momentum(momentum).dampening(dampening)
      .weight_decay(weight_decay).nesterov(nesterov).maximize(maximize);
}

optim::AdamOptions adam_options(double lr, std::tuple<double, double> betas, double eps,
                                double weight_decay, bool amsgrad, bool maximize) {
  return optim::AdamOptions(lr).betas(betas).eps(eps).weight_decay(weight_decay)
      .amsgrad(amsgrad).maximize(maximize);
}

optim::AdamWOptions adamw_options(double lr, std::tuple<double, double> betas, double eps,
                                  double weight_decay, bool amsgrad, bool maximize) {
  return optim::AdamWOptions(lr).betas(betas).eps(eps).weight_decay(weight_decay)
      .amsgrad(amsgrad).maximize(maximize);
}

optim::RMSpropOptions rmsprop_options(double lr, double alpha, double eps, double weight_decay,
                                      double momentum, bool centered, bool maximize) {
  return optim::RMSpropOptions(lr).alpha(alpha).eps(eps).weight_decay(weight_decay)
      .momentum(momentum).centered(centered).maximize(maximize);
}

optim::AdagradOptions adagrad_options(double lr, double lr_decay, double weight_decay,
                                      double initial_accumulator_value, double eps,
                                      bool maximize) {
  return optim::AdagradOptions(lr).lr_decay(lr_decay).weight_decay(weight_decay)
      .initial_accumulator_value(initial_accumulator_value).eps(eps).maximize(maximize);
}

/// A parameter's state as Python sees it: (name, tensor or None) pairs in torch's order.
using PyParamState = std::vector<std::pair<std::string, std::optional<Tensor>>>;

PyParamState to_python(const optim::ParamState& state) {
  PyParamState out;
  for (const auto& [name, t] : state) {
    out.emplace_back(name, t.defined() ? std::optional<Tensor>(t) : std::nullopt);
  }
  return out;
}

optim::ParamState from_python(const PyParamState& state) {
  optim::ParamState out;
  for (const auto& [name, t] : state) out.emplace_back(name, t.value_or(Tensor()));
  return out;
}

}  // namespace

void bind_optim(nb::module_& m) {
  // step() releases the GIL: it checks every parameter and may wait for memory (Note [The GIL]
  // in bind_tensor.cpp); once per training step, the release costs nothing that shows.
  nb::class_<optim::Optimizer>(m, "_Optimizer")
      .def("step", &optim::Optimizer::step, nb::call_guard<nb::gil_scoped_release>())
      .def("zero_grad", &optim::Optimizer::zero_grad, nb::arg("set_to_none") = true)
      .def("_param_state",
           [](const optim::Optimizer& self, size_t index) {
             return to_python(self.param_state(index));
           })
      .def("_load_param_state", [](optim::Optimizer& self, size_t index,
                                   const PyParamState& state) {
        self.load_param_state(index, from_python(state));
      });

  nb::class_<optim::SGD, optim::Optimizer>(m, "_SGD")
      .def("__init__",
           [](optim::SGD* self, std::vector<Tensor> params, double lr, double momentum,
              double dampening, double weight_decay, bool nesterov, bool maximize) {
             new (self) optim::SGD(std::move(params), sgd_options(lr, momentum, dampening,
                                                                  weight_decay, nesterov,
                                                                  maximize));
           })
      .def("_set_options",
           [](optim::SGD& self, double lr, double momentum, double dampening,
              double weight_decay, bool nesterov, bool maximize) {
             optim::SGDOptions o = sgd_options(lr, momentum, dampening, weight_decay, nesterov,
                                               maximize);
             o.validate();
             self.options() = o;
           });

  nb::class_<optim::Adam, optim::Optimizer>(m, "_Adam")
      .def("__init__",
           [](optim::Adam* self, std::vector<Tensor> params, double lr,
              std::tuple<double, double> betas, double eps, double weight_decay, bool amsgrad,
              bool maximize) {
             new (self) optim::Adam(std::move(params), adam_options(lr, betas, eps, weight_decay,
                                                                    amsgrad, maximize));
           })
      .def("_set_options",
           [](optim::Adam& self, double lr, std::tuple<double, double> betas, double eps,
              double weight_decay, bool amsgrad, bool maximize) {
             optim::AdamOptions o = adam_options(lr, betas, eps, weight_decay, amsgrad, maximize);
             o.validate();
             self.options() = o;
           });

  nb::class_<optim::AdamW, optim::Optimizer>(m, "_AdamW")
      .def("__init__",
           [](optim::AdamW* self, std::vector<Tensor> params, double lr,
              std::tuple<double, double> betas, double eps, double weight_decay, bool amsgrad,
              bool maximize) {
             new (self) optim::AdamW(std::move(params), adamw_options(lr, betas, eps,
                                                                      weight_decay, amsgrad,
                                                                      maximize));
           })
      .def("_set_options",
           [](optim::AdamW& self, double lr, std::tuple<double, double> betas, double eps,
              double weight_decay, bool amsgrad, bool maximize) {
             optim::AdamWOptions o = adamw_options(lr, betas, eps, weight_decay, amsgrad,
                                                   maximize);
             o.validate();
             self.options() = o;
           });

  nb::class_<optim::RMSprop, optim::Optimizer>(m, "_RMSprop")
      .def("__init__",
           [](optim::RMSprop* self, std::vector<Tensor> params, double lr, double alpha,
              double eps, double weight_decay, double momentum, bool centered, bool maximize) {
             new (self) optim::RMSprop(std::move(params),
                                       rmsprop_options(lr, alpha, eps, weight_decay, momentum,
                                                       centered, maximize));
           })
      .def("_set_options",
           [](optim::RMSprop& self, double lr, double alpha, double eps, double weight_decay,
              double momentum, bool centered, bool maximize) {
             optim::RMSpropOptions o = rmsprop_options(lr, alpha, eps, weight_decay, momentum,
                                                       centered, maximize);
             o.validate();
             self.options() = o;
           });

  // initial_accumulator_value is read once, by the constructor (torch's too); later changes
  // to the group's value are kept in the options and ignored, as torch ignores them.
  nb::class_<optim::Adagrad, optim::Optimizer>(m, "_Adagrad")
      .def("__init__",
           [](optim::Adagrad* self, std::vector<Tensor> params, double lr, double lr_decay,
              double weight_decay, double initial_accumulator_value, double eps, bool maximize) {
             new (self) optim::Adagrad(std::move(params),
                                       adagrad_options(lr, lr_decay, weight_decay,
                                                       initial_accumulator_value, eps, maximize));
           })
      .def("_set_options",
           [](optim::Adagrad& self, double lr, double lr_decay, double weight_decay,
              double initial_accumulator_value, double eps, bool maximize) {
             optim::AdagradOptions o = adagrad_options(lr, lr_decay, weight_decay,
                                                       initial_accumulator_value, eps, maximize);
             o.validate();
             self.options() = o;
           });
}

}  // namespace tide::python
