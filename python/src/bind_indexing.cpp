// Advanced indexing and the masked ops under torch's names: Tensor methods (in-place forms
// return self) and the free functions that are not method forms (where(cond)); the others are
// method forms in python/tide/_ops.py.

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "casters.h"
#include "python_forms.h"
#include "tide/ops.h"

namespace nb = nanobind;

namespace tide::python {
namespace {

using T = const Tensor&;

/// torch's `indices` argument: a tuple or list of tensors and Nones.
std::vector<Tensor> optional_tensors(nb::handle seq) {
  std::vector<Tensor> out;
  for (nb::handle h : nb::iter(seq)) out.push_back(h.is_none() ? Tensor() : nb::cast<Tensor>(h));
  return out;
}

nb::object nonzero(T self, bool as_tuple) {
  if (!as_tuple) return nb::cast(self.nonzero());
  return nb::tuple(nb::cast(tide::where(self)));
}

}  // namespace

void bind_indexing(nb::module_& m, nb::class_<Tensor>& t) {
  t.def("nonzero", &nonzero, nb::kw_only(), nb::arg("as_tuple") = false)
      .def("take", &Tensor::take, nb::arg("index"))
      .def("put_", [](nb::object self, T index, T source, bool accumulate) {
        nb::cast<Tensor&>(self).put_(index, source, accumulate);
        return self;
      }, nb::arg("index"), nb::arg("source"), nb::arg("accumulate") = false)
      .def("put", &Tensor::put, nb::arg("index"), nb::arg("source"), nb::arg("accumulate") = false)
      .def("index_put_", [](nb::object self, nb::handle indices, T values, bool accumulate) {
        nb::cast<Tensor&>(self).index_put_(optional_tensors(indices), values, accumulate);
        return self;
      }, nb::arg("indices"), nb::arg("values"), nb::arg("accumulate") = false)
      .def("index_put", [](T self, nb::handle indices, T values, bool accumulate) {
        return self.index_put(optional_tensors(indices), values, accumulate);
      }, nb::arg("indices"), nb::arg("values"), nb::arg("accumulate") = false)
      .def("masked_select", &Tensor::masked_select, nb::arg("mask"))
      .def("masked_fill", [](T self, T mask, T value) { return self.masked_fill(mask, value); },
           nb::arg("mask"), nb::arg("value"))
      .def("masked_fill",
           [](T self, T mask, Scalar value) { return self.masked_fill(mask, value); },
           nb::arg("mask"), nb::arg("value"))
      .def("masked_fill_", [](nb::object self, T mask, T value) {
        nb::cast<Tensor&>(self).masked_fill_(mask, value);
        return self;
      }, nb::arg("mask"), nb::arg("value"))
      .def("masked_fill_", [](nb::object self, T mask, Scalar value) {
        nb::cast<Tensor&>(self).masked_fill_(mask, value);
        return self;
      }, nb::arg("mask"), nb::arg("value"))
      .def("masked_scatter_", [](nb::object self, T mask, T source) {
        nb::cast<Tensor&>(self).masked_scatter_(mask, source);
        return self;
      }, nb::arg("mask"), nb::arg("source"))
      .def("masked_scatter", &Tensor::masked_scatter, nb::arg("mask"), nb::arg("source"))
      .def("gather", &Tensor::gather, nb::arg("dim"), nb::arg("index"))
      .def("scatter",
           [](T self, int64_t dim, T index, T src) { return self.scatter(dim, index, src); },
           nb::arg("dim"), nb::arg("index"), nb::arg("src"))
      .def("scatter", [](T self, int64_t dim, T index, Scalar value) {
        return self.scatter(dim, index, value);
      }, nb::arg("dim"), nb::arg("index"), nb::arg("value"))
      .def("scatter_", [](nb::object self, int64_t dim, T index, T src) {
        nb::cast<Tensor&>(self).scatter_(dim, index, src);
        return self;
      }, nb::arg("dim"), nb::arg("index"), nb::arg("src"))
      .def("scatter_", [](nb::object self, int64_t dim, T index, Scalar value) {
        nb::cast<Tensor&>(self).scatter_(dim, index, value);
        return self;
      }, nb::arg("dim"), nb::arg("index"), nb::arg("value"))
      .def("scatter_add", &Tensor::scatter_add, nb::arg("dim"), nb::arg("index"), nb::arg("src"))
      .def("scatter_add_", [](nb::object self, int64_t dim, T index, T src) {
        nb::cast<Tensor&>(self).scatter_add_(dim, index, src);
        return self;
      }, nb::arg("dim"), nb::arg("index"), nb::arg("src"))
      .def("scatter_reduce", &Tensor::scatter_reduce, nb::arg("dim"), nb::arg("index"),
           nb::arg("src"), nb::arg("reduce"), nb::kw_only(), nb::arg("include_self") = true)
      .def("scatter_reduce_", [](nb::object self, int64_t dim, T index, T src,
                                 const std::string& reduce, bool include_self) {
        nb::cast<Tensor&>(self).scatter_reduce_(dim, index, src, reduce, include_self);
        return self;
      }, nb::arg("dim"), nb::arg("index"), nb::arg("src"), nb::arg("reduce"), nb::kw_only(),
         nb::arg("include_self") = true)
      .def("index_add", &Tensor::index_add, nb::arg("dim"), nb::arg("index"), nb::arg("source"),
           nb::kw_only(), nb::arg("alpha") = Scalar(1))
      .def("index_add_", [](nb::object self, int64_t dim, T index, T source, Scalar alpha) {
        nb::cast<Tensor&>(self).index_add_(dim, index, source, alpha);
        return self;
      }, nb::arg("dim"), nb::arg("index"), nb::arg("source"), nb::kw_only(),
         nb::arg("alpha") = Scalar(1))
      .def("index_copy", &Tensor::index_copy, nb::arg("dim"), nb::arg("index"), nb::arg("source"))
      .def("index_copy_", [](nb::object self, int64_t dim, T index, T source) {
        nb::cast<Tensor&>(self).index_copy_(dim, index, source);
        return self;
      }, nb::arg("dim"), nb::arg("index"), nb::arg("source"))
      .def("index_fill", &Tensor::index_fill, nb::arg("dim"), nb::arg("index"), nb::arg("value"))
      .def("index_fill_", [](nb::object self, int64_t dim, T index, Scalar value) {
        nb::cast<Tensor&>(self).index_fill_(dim, index, value);
        return self;
      }, nb::arg("dim"), nb::arg("index"), nb::arg("value"));
  m.def("where", [](T condition) { return nb::tuple(nb::cast(tide::where(condition))); },
        nb::arg("condition"));
  // searchsorted and bucketize (tide.searchsorted adds out= in python/tide/_search.py); a
  // None sorter is an undefined tensor, as the C++ API takes it.
  auto sorter_of = [](const std::optional<Tensor>& sorter) { return sorter ? *sorter : Tensor(); };
  m.def("_searchsorted",
        [sorter_of](T sorted_sequence, T self, bool out_int32, bool right,
                    std::optional<std::string> side, const std::optional<Tensor>& sorter) {
          return tide::searchsorted(sorted_sequence, self, out_int32, right, std::move(side),
                                    sorter_of(sorter));
        },
        nb::arg("sorted_sequence"), nb::arg("input"), nb::arg("out_int32"), nb::arg("right"),
        nb::arg("side").none(), nb::arg("sorter").none());
  m.def("_searchsorted",
        [sorter_of](T sorted_sequence, Scalar self, bool out_int32, bool right,
                    std::optional<std::string> side, const std::optional<Tensor>& sorter) {
          return tide::searchsorted(sorted_sequence, self, out_int32, right, std::move(side),
                                    sorter_of(sorter));
        },
        nb::arg("sorted_sequence"), nb::arg("input"), nb::arg("out_int32"), nb::arg("right"),
        nb::arg("side").none(), nb::arg("sorter").none());
  m.def("_bucketize",
        [](T self, T boundaries, bool out_int32, bool right) {
          return tide::bucketize(self, boundaries, out_int32, right);
        },
        nb::arg("input"), nb::arg("boundaries"), nb::arg("out_int32"), nb::arg("right"));
  m.def("_bucketize",
        [](Scalar self, T boundaries, bool out_int32, bool right) {
          return tide::bucketize(self, boundaries, out_int32, right);
        },
        nb::arg("input"), nb::arg("boundaries"), nb::arg("out_int32"), nb::arg("right"));
  // Note [Free functions bound directly]: tide.gather(a, dim, index); out= and the rest reach
  // python/tide/_ops.py's definition.
  m.def("gather", [](T input, int64_t dim, T index) { return input.gather(dim, index); },
        nb::arg("input"), nb::arg("dim"), nb::arg("index"));
  def_python_fallback(m, "gather");
}

}  // namespace tide::python
