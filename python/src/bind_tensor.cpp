// tide.Tensor: the class, its attributes, moving between devices and dtypes, reading back,
// printing, indexing and autograd. Math methods and operators are in bind_tensor_ops.cpp.
//
// Note [The GIL]: every call that can wait for a device (reading values back: item, tolist,
// printing; copies that leave a device: to, cpu, copy_; backward) releases the GIL while it
// waits, so other Python threads (and DataLoader workers) run meanwhile. Calls that only
// enqueue work keep it: releasing and retaking it would cost more than they take.

#include <optional>
#include <string>
#include <vector>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "autograd/node.h"
#include "bindings.h"
#include "casters.h"
#include "tensor/random_fills.h"
#include "tensor_from_python.h"
#include "tensor_index.h"
#include "tide/autograd.h"
#include "tide/cuda/stream.h"
#include "tide/factories.h"

namespace nb = nanobind;

namespace tide::python {
namespace {

using release_gil = nb::call_guard<nb::gil_scoped_release>;
using OptGenerator = std::optional<Generator>;

// tide.Size, set by the package (python/tide/_size.py) at import; borrowed, the module's
// attribute _size_type owns it.
nb::handle size_type;

nb::object as_size(const DimVector& sizes) {
  nb::list items;
  for (int64_t s : sizes) items.append(s);
  nb::tuple t = nb::tuple(items);
  return size_type.is_valid() ? size_type(t) : nb::object(t);
}

std::string sizes_str(const Tensor& t) {
  std::string out = "[";
  for (int64_t i = 0; i < t.dim(); ++i) out += (i ? ", " : "") + std::to_string(t.size(i));
  return out + "]";
}

// Values as nested Python lists (after one copy of the whole tensor to the host).
nb::object to_list(const Tensor& host, int64_t dim, int64_t offset) {
  if (dim == host.dim()) {
    return dispatch_dtype(host.dtype(), [&](auto tag) -> nb::object {
      using T = typename decltype(tag)::type;
      T v = static_cast<const T*>(host.raw_data())[offset];
      if constexpr (std::is_same_v<T, bool>) return nb::bool_(v);
      else if constexpr (std::is_integral_v<T>) return nb::int_(static_cast<int64_t>(v));
      else if constexpr (std::is_same_v<T, double>) return nb::float_(v);
      else return nb::float_(static_cast<double>(static_cast<float>(v)));
    });
  }
  nb::list out;
  for (int64_t i = 0; i < host.size(dim); ++i) {
    out.append(to_list(host, dim + 1, offset + i * host.stride(dim)));
  }
  return out;
}

Tensor legacy_new(nb::args args, std::optional<Dtype> dtype, std::optional<Device> device) {
  TensorOptions options;
  if (dtype) options = options.dtype(*dtype);
  if (device) options = options.device(*device);
  if (args.size() == 0) return empty({0}, options);
  if (args.size() == 1 && nb::isinstance<Tensor>(args[0])) {
    // torch.Tensor(t) shares t's data.
    return nb::cast<const Tensor&>(args[0]);
  }
  bool is_size = size_type.is_valid() && nb::isinstance(args[0], size_type);
  if (args.size() == 1 && (PyList_Check(args[0].ptr()) || PyTuple_Check(args[0].ptr())) &&
      !is_size) {
    // torch.Tensor([1, 3]) and torch.Tensor((1, 3)) hold the data, as floats; a tide.Size is
    // a shape.
    return tensor_from_python(args[0], options.dtype(), device);
  }
  return empty(sizes_from_args(args, "tide.Tensor"), options);
}

}  // namespace

void bind_tensor(nb::module_& m) {
  nb::handle module = m;
  m.def("_set_size_type", [module](nb::object type) {
    nb::setattr(module, "_size_type", type);
    size_type = type;
  });

  auto cls = nb::class_<Tensor>(m, "Tensor", "A multi-dimensional array on one device (torch.Tensor).");
  cls
      // ---- construction: torch.Tensor's legacy forms (sizes, data, or a tensor to share)
      .def("__init__", [](Tensor* self, nb::args args) {
        new (self) Tensor(legacy_new(args, std::nullopt, std::nullopt));
      })
      .def_static("_legacy_new",
           [](nb::args args, std::optional<Dtype> dtype, std::optional<Device> device) {
             return legacy_new(args, dtype, device);
           }, nb::arg("args"), nb::arg("dtype").none() = nb::none(),
           nb::arg("device").none() = nb::none())
      // ---- attributes
      .def_prop_ro("shape", [](const Tensor& t) { return as_size(t.shape()); })
      .def("size", [](const Tensor& t) { return as_size(t.shape()); })
      .def("size", [](const Tensor& t, int64_t dim) { return t.size(dim); }, nb::arg("dim"))
      .def("stride", [](const Tensor& t) { return nb::tuple(nb::cast(t.strides())); })
      .def("stride", &Tensor::stride, nb::arg("dim"))
      .def("dim", &Tensor::dim)
      .def("ndimension", &Tensor::dim)
      .def_prop_ro("ndim", &Tensor::dim)
      .def("numel", &Tensor::numel)
      .def("nelement", &Tensor::numel)
      .def("element_size", &Tensor::element_size)
      .def_prop_ro("itemsize", &Tensor::element_size)
      .def_prop_ro("nbytes", &Tensor::nbytes)
      .def_prop_ro("dtype", &Tensor::dtype)
      .def_prop_ro("device", &Tensor::device)
      .def_prop_ro("is_cuda", &Tensor::is_cuda)
      .def_prop_ro("is_cpu", &Tensor::is_cpu)
      .def("is_pinned", &Tensor::is_pinned)
      .def("is_contiguous",
           [](const Tensor& t, MemoryFormat f) { return t.is_contiguous(f); }, nb::kw_only(),
           nb::arg("memory_format") = MemoryFormat::Contiguous)
      .def("is_floating_point", &Tensor::is_floating_point)
      .def("get_device", &Tensor::get_device)
      .def("storage_offset", &Tensor::storage_offset)
      .def("data_ptr", [](const Tensor& t) { return reinterpret_cast<uintptr_t>(t.raw_data()); })
      .def("_is_same", &Tensor::is_same)
      // ---- moving (copy-like)
      .def("_to",
           [](const Tensor& t, std::optional<Device> device, std::optional<Dtype> dtype,
              bool non_blocking, bool copy, std::optional<MemoryFormat> memory_format) {
             nb::gil_scoped_release release;
             TensorOptions o = TensorOptions().device(device.value_or(t.device()))
                                   .dtype(dtype.value_or(t.dtype()));
             if (memory_format) o = o.memory_format(*memory_format);
             return t.to(o, non_blocking, copy);
           }, nb::arg("device").none(), nb::arg("dtype").none(), nb::arg("non_blocking"),
           nb::arg("copy"), nb::arg("memory_format").none() = nb::none())
      .def("_cuda",
           [](const Tensor& t, std::optional<Device> device, bool non_blocking) {
             nb::gil_scoped_release release;
             return device ? t.cuda(*device, non_blocking) : t.cuda(-1, non_blocking);
           }, nb::arg("device").none(), nb::arg("non_blocking"))
      .def("cpu", &Tensor::cpu, release_gil())
      .def("copy_",
           [](nb::object self, const Tensor& src, bool non_blocking) {
             const Tensor& t = nb::cast<const Tensor&>(self);
             {
               nb::gil_scoped_release release;
               t.copy_(src, non_blocking);
             }
             return self;
           }, nb::arg("src"), nb::arg("non_blocking") = false)
      .def("pin_memory", &Tensor::pin_memory, release_gil())
      .def("record_stream", &Tensor::record_stream, nb::arg("stream"))
      .def("clone", [](const Tensor& t, std::optional<MemoryFormat> f) { return t.clone(f); },
           nb::kw_only(), nb::arg("memory_format").none() = nb::none())
      // A tensor already in the format is returned as itself (the same Python object), as
      // torch's contiguous returns self.
      .def("contiguous", [](nb::object self, MemoryFormat f) -> nb::object {
             const Tensor& t = nb::cast<const Tensor&>(self);
             if (f != MemoryFormat::Preserve && t.is_contiguous(f)) return self;
             return nb::cast(t.contiguous(f));
           }, nb::kw_only(), nb::arg("memory_format") = MemoryFormat::Contiguous)
      // ---- same device and dtype (new_*)
      .def("_new_empty", &Tensor::new_empty)
      .def("_new_zeros", &Tensor::new_zeros)
      .def("_new_ones", &Tensor::new_ones)
      .def("_new_full", &Tensor::new_full)
      .def("_new_tensor", [](const Tensor& t, nb::handle data) {
        return tensor_from_python(data, t.dtype(), t.device());
      })
      // ---- in place; each returns the tensor itself (the same Python object)
      .def("fill_", [](nb::object self, Scalar v) { nb::cast<Tensor&>(self).fill_(v); return self; },
           nb::arg("value"))
      .def("fill_", [](nb::object self, const Tensor& v) { nb::cast<Tensor&>(self).fill_(v); return self; },
           nb::arg("value"))
      .def("zero_", [](nb::object self) { nb::cast<Tensor&>(self).zero_(); return self; })
      // the random fills take torch's keyword-only generator= (None: the device's default)
      .def("normal_", [](nb::object self, double mean, double std, OptGenerator g) {
        detail::normal_from(nb::cast<Tensor&>(self), mean, std, g);
        return self;
      }, nb::arg("mean") = 0.0, nb::arg("std") = 1.0, nb::kw_only(),
         nb::arg("generator").none() = nb::none())
      .def("uniform_", [](nb::object self, double from, double to, OptGenerator g) {
        detail::uniform_from(nb::cast<Tensor&>(self), from, to, g);
        return self;
      }, nb::arg("from") = 0.0, nb::arg("to") = 1.0, nb::kw_only(),
         nb::arg("generator").none() = nb::none())
      // random_(to), random_(from, to) and random_(): python/tide/_creation.py sorts them out
      .def("_random_", [](nb::object self, int64_t from, std::optional<int64_t> to,
                          OptGenerator g) {
        detail::random_from(nb::cast<Tensor&>(self), from, to, g);
        return self;
      }, nb::arg("from"), nb::arg("to").none(), nb::arg("generator").none())
      .def("_bernoulli_", [](nb::object self, double p, OptGenerator g) {
        detail::bernoulli_from(nb::cast<Tensor&>(self), p, g);
        return self;
      }, nb::arg("p"), nb::arg("generator").none())
      .def("_bernoulli_", [](nb::object self, const Tensor& p, OptGenerator g) {
        detail::bernoulli_from(nb::cast<Tensor&>(self), p, g);
        return self;
      }, nb::arg("p"), nb::arg("generator").none())
      // ---- reading back (waits for the device: Note [The GIL])
      .def("item", [](const Tensor& t) { return t.item(); }, release_gil())
      .def("tolist", [](const Tensor& t) {
        Tensor host;
        {
          nb::gil_scoped_release release;
          host = t.cpu().contiguous();
        }
        return to_list(host, 0, 0);
      })
      .def("__repr__", &Tensor::str, release_gil())
      .def("__len__", [](const Tensor& t) {
        if (t.dim() == 0) throw nb::type_error("len() of a 0-d tensor");
        return t.size(0);
      })
      .def("__bool__", [](const Tensor& t) {
        TIDE_CHECK(t.numel() != 0, "[Tensor.__bool__] Boolean value of Tensor with no values "
                   "is ambiguous; test x.numel() instead");
        TIDE_CHECK(t.numel() == 1, "[Tensor.__bool__] Boolean value of Tensor with more than one "
                   "value is ambiguous (it has ", t.numel(), "); reduce it first, e.g. "
                   "bool((x != 0).sum())");
        nb::gil_scoped_release release;
        return t.item().to_bool();
      })
      .def("__float__", [](const Tensor& t) {
        TIDE_CHECK(t.numel() == 1, "[Tensor.__float__] only one element tensors can be "
                   "converted to Python scalars, this one has ", t.numel());
        nb::gil_scoped_release release;
        return t.item().to_double();
      })
      .def("__int__", [](const Tensor& t) {
        TIDE_CHECK(t.numel() == 1, "[Tensor.__int__] only one element tensors can be "
                   "converted to Python scalars, this one has ", t.numel());
        nb::gil_scoped_release release;
        return t.item().to_int64();
      })
      .def("__index__", [](const Tensor& t) {
        if (t.numel() != 1 || !is_integral(t.dtype(), true)) {
          throw nb::type_error(("only integer tensors of a single element can be converted to "
                                "an index; this one is " + std::string(name(t.dtype())) +
                                " with " + std::to_string(t.numel()) + " elements").c_str());
        }
        nb::gil_scoped_release release;
        return t.item().to_int64();
      })
      .def("__hash__", [](nb::handle self) { return reinterpret_cast<intptr_t>(self.ptr()); })
      .def("__getitem__", &index, nb::arg("key").none())
      .def("__setitem__", &index_assign, nb::arg("key").none(), nb::arg("value"))
      // ---- autograd
      .def_prop_rw("requires_grad", [](const Tensor& t) { return t.requires_grad(); },
                   [](Tensor& t, bool r) { t.requires_grad_(r); })
      .def("requires_grad_", [](nb::object self, bool r) {
        nb::cast<Tensor&>(self).requires_grad_(r);
        return self;
      }, nb::arg("requires_grad") = true)
      .def_prop_rw("grad",
                   [](const Tensor& t) -> std::optional<Tensor> {
                     Tensor g = t.grad();
                     return g.defined() ? std::optional<Tensor>(g) : std::nullopt;
                   },
                   [](const Tensor& t, std::optional<Tensor> g) {
                     // torch's checks, in its words: a gradient is the tensor's twin.
                     if (g) {
                       TIDE_CHECK(g->shape() == t.shape(), "[Tensor.grad] assigned grad has data "
                                  "of a different size: expected ", sizes_str(t), ", found ",
                                  sizes_str(*g));
                       TIDE_CHECK(g->dtype() == t.dtype(), "[Tensor.grad] assigned grad has data "
                                  "of a different type: expected ", name(t.dtype()), ", found ",
                                  name(g->dtype()));
                       TIDE_CHECK(g->device() == t.device(), "[Tensor.grad] assigned grad has "
                                  "data located on a different device: expected ",
                                  t.device().str(), ", found ", g->device().str());
                     }
                     t.mutable_grad() = g ? *g : Tensor();
                   })
      .def_prop_ro("is_leaf", &Tensor::is_leaf)
      .def_prop_ro("grad_fn", [](const Tensor& t) -> nb::object {
        auto fn = t.grad_fn();
        if (!fn) return nb::none();
        return nb::str(fn->name());
      })
      .def_prop_ro("_version", &Tensor::_version)
      .def_prop_rw("data", &Tensor::detach,
                   [](Tensor& t, const Tensor& d) { t.set_data(d); })
      .def("detach", &Tensor::detach)
      .def("backward",
           [](const Tensor& t, std::optional<Tensor> gradient, std::optional<bool> retain_graph) {
             nb::gil_scoped_release release;
             t.backward(gradient ? *gradient : Tensor(), retain_graph.value_or(false));
           }, nb::arg("gradient").none() = nb::none(), nb::arg("retain_graph").none() = nb::none());
  bind_tensor_ops(m, cls);
  bind_reductions(m, cls);
  bind_autograd(m, cls);
}

}  // namespace tide::python
