// tide._C._autograd: what python/tide/autograd builds torch.autograd on — custom functions'
// nodes (tide::autograd::detail::apply_function with Python forward and backward),
// autograd.grad and autograd.backward, anomaly mode — and the Tensor methods register_hook, retain_grad and
// retains_grad.
//
// Note [Python code in backward]: the engine runs on the thread that called backward or grad,
// which released the GIL (Note [The GIL] in bind_tensor.cpp); the nodes and hooks run there
// (simulated GPUs run only kernels on their own threads, never nodes). A custom function's
// backward and a tensor hook are Python callables, so each takes the GIL for exactly the call
// (and to convert its arguments and result) and drops it before the engine goes on: no thread
// ever waits for the engine while holding the GIL. The callables are held by PyRef, which takes
// the GIL to release them, since a graph may be freed on a thread that does not hold it.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nanobind/stl/function.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "tide/anomaly_mode.h"
#include "tide/autograd.h"
#include "tide/custom_function.h"

namespace nb = nanobind;

namespace tide::python {
namespace {

/// A Python object that a graph keeps, released with the GIL taken.
struct PyRef {
  nb::object obj;
  explicit PyRef(nb::object o) : obj(std::move(o)) {}
  PyRef(const PyRef&) = delete;
  PyRef& operator=(const PyRef&) = delete;
  ~PyRef() {
    if (!Py_IsInitialized()) {
      obj.release();  // the interpreter is gone: nothing left to release it to
      return;
    }
    nb::gil_scoped_acquire gil;
    obj.reset();
  }
};

/// The Python side's handle on an AutogradContext (the FunctionCtx's _cdata). A plain C++
/// shared_ptr inside, so the node holding the context holds no Python object through it.
struct PyContext {
  std::shared_ptr<autograd::AutogradContext> ctx = std::make_shared<autograd::AutogradContext>();
};

struct HookHandle {
  RemovableHandle handle;
};

using OptTensor = std::optional<Tensor>;

std::vector<OptTensor> to_optional(const std::vector<Tensor>& ts) {
  std::vector<OptTensor> out;
  out.reserve(ts.size());
  for (const Tensor& t : ts) out.push_back(t.defined() ? OptTensor(t) : std::nullopt);
  return out;
}

std::vector<Tensor> from_optional(const std::vector<OptTensor>& ts) {
  std::vector<Tensor> out;
  out.reserve(ts.size());
  for (const OptTensor& t : ts) out.push_back(t ? *t : Tensor());
  return out;
}

std::string py_type_name(nb::handle h) { return nb::cast<std::string>(nb::type_name(h.type())); }

/// A custom function's backward: calls `backward(grads)` (python/tide/autograd/function.py
/// passes the context and unpacks the list) with the GIL taken only for the call.
autograd::CustomBackward python_backward(nb::object backward) {
  auto fn = std::make_shared<PyRef>(std::move(backward));
  return [fn](autograd::AutogradContext*, std::vector<Tensor> grads) {
    nb::gil_scoped_acquire gil;
    nb::list args;
    for (const Tensor& g : grads) args.append(g.defined() ? nb::cast(g) : nb::none());
    nb::object result = fn->obj(args);
    std::vector<Tensor> out;
    for (nb::handle item : result) {
      if (item.is_none()) {
        out.emplace_back();
        continue;
      }
      if (!nb::isinstance<Tensor>(item)) {
        // torch raises RuntimeError here (TypeError for a hook's result, below).
        throw Error("[autograd.Function] expected Variable or None (got " + py_type_name(item) +
                    "); backward returns a Tensor or None for each argument of forward");
      }
      out.push_back(nb::cast<Tensor>(item));
    }
    return out;
  };
}

/// A tensor hook: `hook(grad)` with the GIL taken only for the call; None keeps the gradient.
std::function<Tensor(const Tensor&)> python_hook(nb::object hook) {
  auto fn = std::make_shared<PyRef>(std::move(hook));
  return [fn](const Tensor& grad) -> Tensor {
    nb::gil_scoped_acquire gil;
    nb::object result = fn->obj(grad);
    if (result.is_none()) return Tensor();
    if (!nb::isinstance<Tensor>(result)) {
      throw nb::type_error(
          ("expected Variable, but hook returned '" + py_type_name(result) + "'").c_str());
    }
    Tensor replaced = nb::cast<Tensor>(result);
    if (replaced.shape() != grad.shape()) {
      nb::object name = nb::getattr(fn->obj, "__name__", nb::str("hook"));
      throw Error("[Tensor.register_hook] hook '" + nb::cast<std::string>(nb::str(name)) +
                  "' has changed the size of value; a hook must return a gradient shaped like "
                  "the one it got (or None)");
    }
    return replaced;
  };
}

}  // namespace

void bind_autograd(nb::module_& m, nb::class_<Tensor>& tensor) {
  nb::module_ a = m.def_submodule("_autograd", "tide's autograd engine for tide.autograd");

  nb::class_<PyContext>(a, "_Context", "The C++ side of a custom function's ctx.")
      .def(nb::init<>())
      .def("save_for_backward",
           [](PyContext& c, const std::vector<OptTensor>& ts) {
             c.ctx->save_for_backward(from_optional(ts));
           })
      .def("saved_tensors",
           [](PyContext& c) { return to_optional(c.ctx->get_saved_variables()); })
      .def("mark_non_differentiable",
           [](PyContext& c, const std::vector<Tensor>& ts) { c.ctx->mark_non_differentiable(ts); })
      .def("set_materialize_grads",
           [](PyContext& c, bool value) { c.ctx->set_materialize_grads(value); })
      .def("needs_input_grad",
           [](PyContext& c, size_t i) { return c.ctx->needs_input_grad(i); });

  a.def("_function_apply",
        [](const std::string& name, PyContext& ctx, const std::vector<OptTensor>& args,
           nb::callable forward, nb::callable backward) {
          // forward runs here, under the GIL the caller holds.
          auto outputs = autograd::detail::apply_function(
              name, ctx.ctx, args,
              [&] { return from_optional(nb::cast<std::vector<OptTensor>>(forward())); },
              python_backward(backward));
          return to_optional(outputs);
        },
        nb::arg("name"), nb::arg("ctx"), nb::arg("args"), nb::arg("forward"),
        nb::arg("backward"),
        "Runs forward() (a list of tensors or None) untraced and records its outputs as one "
        "node whose backward calls backward(grads).");

  a.def("grad",
        [](const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
           const std::vector<OptTensor>& grad_outputs, bool retain_graph, bool allow_unused,
           bool create_graph) {
          std::vector<Tensor> grads = from_optional(grad_outputs);
          std::vector<Tensor> result;
          {
            nb::gil_scoped_release release;
            result = autograd::grad(outputs, inputs, grads, retain_graph, allow_unused,
                                    create_graph);
          }
          return to_optional(result);
        },
        nb::arg("outputs"), nb::arg("inputs"), nb::arg("grad_outputs"), nb::arg("retain_graph"),
        nb::arg("allow_unused"), nb::arg("create_graph") = false);
  a.def("backward",
        [](const std::vector<Tensor>& tensors, const std::vector<OptTensor>& grad_tensors,
           bool retain_graph, const std::vector<Tensor>& inputs, bool create_graph) {
          std::vector<Tensor> grads = from_optional(grad_tensors);
          nb::gil_scoped_release release;
          autograd::backward(tensors, grads, retain_graph, inputs, create_graph);
        },
        nb::arg("tensors"), nb::arg("grad_tensors"), nb::arg("retain_graph"), nb::arg("inputs"),
        nb::arg("create_graph") = false);

  a.def("_set_anomaly_enabled", &autograd::AnomalyMode::set_enabled, nb::arg("enabled"));
  a.def("_is_anomaly_enabled", &autograd::AnomalyMode::is_enabled);

  nb::class_<HookHandle>(a, "_HookHandle", "remove() takes the hook away.")
      .def("remove", [](HookHandle& h) { h.handle.remove(); });
  tensor
      .def("_register_hook",
           [](const Tensor& t, nb::callable hook) {
             return HookHandle{autograd::register_hook(t, python_hook(std::move(hook)))};
           })
      .def("retain_grad", [](const Tensor& t) { autograd::retain_grad(t); })
      .def_prop_ro("retains_grad", [](const Tensor& t) { return autograd::retains_grad(t); });
}

}  // namespace tide::python
