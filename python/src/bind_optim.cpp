// tide.optim's engines: the C++ SGD and Adam (tide/optim), one per parameter group. The Python
// classes (python/tide/optim) keep torch's param_groups dicts and hand a group's
// hyperparameters back here before every step, so a change the user makes (a learning-rate
// schedule) applies at the next step, as torch's.

#include <tuple>
#include <vector>

#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "tide/optim/adam.h"
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

}  // namespace

void bind_optim(nb::module_& m) {
  // step() releases the GIL: it checks every parameter and may wait for memory (Note [The GIL]
  // in bind_tensor.cpp); once per training step, the release costs nothing that shows.
  nb::class_<optim::Optimizer>(m, "_Optimizer")
      .def("step", &optim::Optimizer::step, nb::call_guard<nb::gil_scoped_release>())
      .def("zero_grad", &optim::Optimizer::zero_grad, nb::arg("set_to_none") = true);

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
}

}  // namespace tide::python
