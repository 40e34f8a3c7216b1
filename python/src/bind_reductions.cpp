// tide.Tensor's reductions and scans of issue 25 (prod, all, any, amax, amin, aminmax, var,
// std, norm, logsumexp, count_nonzero, cumsum, cumprod) with torch's Python arguments: a
// `dim` of None, an int or a sequence; var and std's `unbiased` or `correction`; norm's p a
// number, "fro" or None. aminmax returns a plain tuple here: python/tide/_reductions.py makes
// it torch's named tuple.

#include <cmath>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "casters.h"
#include "py_int.h"
#include "python_forms.h"
#include "tensor_from_python.h"
#include "tide/ops.h"

namespace nb = nanobind;

namespace tide::python {
namespace {

using T = const Tensor&;

/// None, an int or a sequence of ints as a dim list; empty means every dim, as in torch.
std::vector<int64_t> dims_of(nb::handle dim, const char* what) {
  if (dim.is_none()) return {};
  if (PyLong_Check(dim.ptr())) return {to_int64(dim, what)};
  return sizes_from_sequence(dim, what);
}

/// One dim (an int) where torch takes exactly one.
int64_t one_dim(nb::handle dim, const char* what) { return to_int64(dim, what); }

/// var and std: `correction` wins; else `unbiased` (default true) is correction 1 or 0. A bool
/// given as `dim` is torch's var(input, unbiased) overload.
struct VarArgs {
  std::vector<int64_t> dims;
  std::optional<int64_t> correction;
};

VarArgs var_args(nb::handle dim, std::optional<bool> unbiased, std::optional<int64_t> correction,
                 const char* what) {
  VarArgs v;
  if (PyBool_Check(dim.ptr())) {
    unbiased = dim.ptr() == Py_True;
  } else {
    v.dims = dims_of(dim, what);
  }
  v.correction = correction ? correction : std::optional<int64_t>(unbiased.value_or(true) ? 1 : 0);
  return v;
}

/// norm's p: a number, None (2) or "fro" (2 over the given dims); "nuc" is a matrix norm
/// tide does not have.
Scalar norm_p(nb::handle p) {
  if (p.is_none()) return Scalar(2);
  if (nb::isinstance<nb::str>(p)) {
    const std::string s = nb::cast<std::string>(p);
    if (s == "fro") return Scalar(2);
    throw nb::value_error(("norm(): p=\"" + s + "\" is not supported; tide has the vector norms "
                           "(a number, \"fro\" or None)").c_str());
  }
  return nb::cast<Scalar>(p);
}

}  // namespace

void bind_reductions(nb::module_& m, nb::class_<Tensor>& t) {
  t.def(
       "prod",
       [](T a, nb::handle dim, bool keepdim, std::optional<Dtype> dtype) {
         if (dim.is_none()) return a.prod(dtype);
         return a.prod(one_dim(dim, "Tensor.prod(): dim"), keepdim, dtype);
       },
       nb::arg("dim").none() = nb::none(), nb::arg("keepdim") = false, nb::kw_only(),
       nb::arg("dtype").none() = nb::none())
      .def(
          "all",
          [](T a, nb::handle dim, bool keepdim) {
            if (dim.is_none()) return a.all();
            return a.all(one_dim(dim, "Tensor.all(): dim"), keepdim);
          },
          nb::arg("dim").none() = nb::none(), nb::arg("keepdim") = false)
      .def(
          "any",
          [](T a, nb::handle dim, bool keepdim) {
            if (dim.is_none()) return a.any();
            return a.any(one_dim(dim, "Tensor.any(): dim"), keepdim);
          },
          nb::arg("dim").none() = nb::none(), nb::arg("keepdim") = false)
      .def(
          "amax",
          [](T a, nb::handle dim, bool keepdim) {
            return a.amax(dims_of(dim, "Tensor.amax(): dim"), keepdim);
          },
          nb::arg("dim") = nb::tuple(), nb::arg("keepdim") = false)
      .def(
          "amin",
          [](T a, nb::handle dim, bool keepdim) {
            return a.amin(dims_of(dim, "Tensor.amin(): dim"), keepdim);
          },
          nb::arg("dim") = nb::tuple(), nb::arg("keepdim") = false)
      .def(
          "_aminmax",
          [](T a, std::optional<int64_t> dim, bool keepdim) { return a.aminmax(dim, keepdim); },
          nb::kw_only(), nb::arg("dim").none() = nb::none(), nb::arg("keepdim") = false)
      .def(
          "var",
          [](T a, nb::handle dim, std::optional<bool> unbiased, bool keepdim,
             std::optional<int64_t> correction) {
            const VarArgs v = var_args(dim, unbiased, correction, "Tensor.var(): dim");
            return a.var(v.dims, v.correction, keepdim);
          },
          nb::arg("dim").none() = nb::none(), nb::arg("unbiased").none() = nb::none(),
          nb::arg("keepdim") = false, nb::kw_only(), nb::arg("correction").none() = nb::none())
      .def(
          "std",
          [](T a, nb::handle dim, std::optional<bool> unbiased, bool keepdim,
             std::optional<int64_t> correction) {
            const VarArgs v = var_args(dim, unbiased, correction, "Tensor.std(): dim");
            return a.std(v.dims, v.correction, keepdim);
          },
          nb::arg("dim").none() = nb::none(), nb::arg("unbiased").none() = nb::none(),
          nb::arg("keepdim") = false, nb::kw_only(), nb::arg("correction").none() = nb::none())
      .def(
          "_var_mean",
          [](T a, nb::handle dim, std::optional<bool> unbiased, bool keepdim,
             std::optional<int64_t> correction) {
            const VarArgs v = var_args(dim, unbiased, correction, "var_mean(): dim");
            return var_mean(a, v.dims, v.correction, keepdim);
          },
          nb::arg("dim").none() = nb::none(), nb::arg("unbiased").none() = nb::none(),
          nb::arg("keepdim") = false, nb::kw_only(), nb::arg("correction").none() = nb::none())
      .def(
          "_std_mean",
          [](T a, nb::handle dim, std::optional<bool> unbiased, bool keepdim,
             std::optional<int64_t> correction) {
            const VarArgs v = var_args(dim, unbiased, correction, "std_mean(): dim");
            return std_mean(a, v.dims, v.correction, keepdim);
          },
          nb::arg("dim").none() = nb::none(), nb::arg("unbiased").none() = nb::none(),
          nb::arg("keepdim") = false, nb::kw_only(), nb::arg("correction").none() = nb::none())
      .def(
          "norm",
          [](T a, nb::handle p, nb::handle dim, bool keepdim, std::optional<Dtype> dtype) {
            return linalg_vector_norm(a, norm_p(p), dims_of(dim, "Tensor.norm(): dim"), keepdim,
                                      dtype);
          },
          nb::arg("p") = "fro", nb::arg("dim").none() = nb::none(), nb::arg("keepdim") = false,
          nb::arg("dtype").none() = nb::none())
      .def(
          "_vector_norm",
          [](T a, Scalar ord, nb::handle dim, bool keepdim, std::optional<Dtype> dtype) {
            return linalg_vector_norm(a, ord, dims_of(dim, "linalg.vector_norm(): dim"), keepdim,
                                      dtype);
          },
          nb::arg("ord") = 2, nb::arg("dim").none() = nb::none(), nb::arg("keepdim") = false,
          nb::kw_only(), nb::arg("dtype").none() = nb::none())
      // torch.linalg.matrix_norm and norm (python/tide/linalg.py): ord a number or a string.
      .def(
          "_matrix_norm",
          [](T a, nb::handle ord, nb::handle dim, bool keepdim, std::optional<Dtype> dtype) {
            const std::vector<int64_t> dims = dims_of(dim, "linalg.matrix_norm(): dim");
            if (nb::isinstance<nb::str>(ord)) {
              return linalg_matrix_norm(a, nb::cast<std::string>(ord), dims, keepdim, dtype);
            }
            return linalg_matrix_norm(a, nb::cast<Scalar>(ord), dims, keepdim, dtype);
          },
          nb::arg("ord"), nb::arg("dim"), nb::arg("keepdim"), nb::arg("dtype").none())
      .def(
          "_linalg_norm",
          [](T a, nb::handle ord, nb::handle dim, bool keepdim, std::optional<Dtype> dtype) {
            std::optional<std::vector<int64_t>> dims;
            if (!dim.is_none()) dims = dims_of(dim, "linalg.norm(): dim");
            if (nb::isinstance<nb::str>(ord)) {
              return linalg_norm(a, nb::cast<std::string>(ord), dims, keepdim, dtype);
            }
            std::optional<Scalar> p;
            if (!ord.is_none()) p = nb::cast<Scalar>(ord);
            return linalg_norm(a, p, dims, keepdim, dtype);
          },
          nb::arg("ord").none(), nb::arg("dim").none(), nb::arg("keepdim"),
          nb::arg("dtype").none())
      .def(
          "logsumexp",
          [](T a, nb::handle dim, bool keepdim) {
            return a.logsumexp(dims_of(dim, "Tensor.logsumexp(): dim"), keepdim);
          },
          nb::arg("dim"), nb::arg("keepdim") = false)
      .def(
          "count_nonzero",
          [](T a, nb::handle dim) {
            return a.count_nonzero(dims_of(dim, "Tensor.count_nonzero(): dim"));
          },
          nb::arg("dim").none() = nb::none())
      .def(
          "cumsum",
          [](T a, int64_t dim, std::optional<Dtype> dtype) { return a.cumsum(dim, dtype); },
          nb::arg("dim"), nb::kw_only(), nb::arg("dtype").none() = nb::none())
      .def(
          "cumprod",
          [](T a, int64_t dim, std::optional<Dtype> dtype) { return a.cumprod(dim, dtype); },
          nb::arg("dim"), nb::kw_only(), nb::arg("dtype").none() = nb::none())
      // (values, indices) pairs: python/tide/_reductions.py wraps them in torch's named tuples.
      .def(
          "_cummax", [](T a, int64_t dim) { return a.cummax(dim); }, nb::arg("dim"))
      .def(
          "_cummin", [](T a, int64_t dim) { return a.cummin(dim); }, nb::arg("dim"))
      .def(
          "_sort", [](T a, int64_t dim, bool descending) { return a.sort(dim, descending); },
          nb::arg("dim"), nb::arg("descending"))
      .def(
          "_topk",
          [](T a, int64_t k, int64_t dim, bool largest, bool sorted) {
            return a.topk(k, dim, largest, sorted);
          },
          nb::arg("k"), nb::arg("dim"), nb::arg("largest"), nb::arg("sorted"))
      // Note [Free functions bound directly]: x.topk(k) and tide.topk(x, k) make torch's
      // named tuple here; any other call reaches python/tide/_reductions.py's definition.
      .def(
          "topk",
          [](T a, int64_t k, int64_t dim, bool largest, bool sorted) {
            auto [values, indices] = a.topk(k, dim, largest, sorted);
            return named_pair("topk", std::move(values), std::move(indices));
          },
          nb::arg("k"), nb::arg("dim") = -1, nb::arg("largest") = true, nb::arg("sorted") = true)
      .def(
          "_kthvalue",
          [](T a, int64_t k, int64_t dim, bool keepdim) { return a.kthvalue(k, dim, keepdim); },
          nb::arg("k"), nb::arg("dim"), nb::arg("keepdim"))
      .def("_median", [](T a) { return a.median(); })
      .def(
          "_median", [](T a, int64_t dim, bool keepdim) { return a.median(dim, keepdim); },
          nb::arg("dim"), nb::arg("keepdim"))
      .def(
          "_mode", [](T a, int64_t dim, bool keepdim) { return a.mode(dim, keepdim); },
          nb::arg("dim"), nb::arg("keepdim"))
      .def(
          "argsort",
          [](T a, int64_t dim, bool descending, bool stable) {
            (void)stable;  // tide's sort is always stable
            return a.argsort(dim, descending);
          },
          nb::arg("dim") = -1, nb::arg("descending") = false, nb::kw_only(),
          nb::arg("stable") = false)
      .def(
          "isclose",
          [](T a, T b, double rtol, double atol, bool equal_nan) {
            return a.isclose(b, rtol, atol, equal_nan);
          },
          nb::arg("other"), nb::arg("rtol") = 1e-05, nb::arg("atol") = 1e-08,
          nb::arg("equal_nan") = false)
      .def(
          "allclose",
          [](T a, T b, double rtol, double atol, bool equal_nan) {
            return a.allclose(b, rtol, atol, equal_nan);
          },
          nb::arg("other"), nb::arg("rtol") = 1e-05, nb::arg("atol") = 1e-08,
          nb::arg("equal_nan") = false)
      .def(
          "equal", [](T a, T b) { return a.equal(b); }, nb::arg("other"))
      .def(
          "_unique",
          [](T a, bool sorted, bool return_inverse, bool return_counts) {
            return unique(a, sorted, return_inverse, return_counts);
          },
          nb::arg("sorted"), nb::arg("return_inverse"), nb::arg("return_counts"))
      .def(
          "bincount",
          [](T a, std::optional<Tensor> weights, int64_t minlength) {
            return a.bincount(weights ? *weights : Tensor(), minlength);
          },
          nb::arg("weights").none() = nb::none(), nb::arg("minlength") = 0)
      .def(
          "histc",
          [](T a, int64_t bins, Scalar min, Scalar max) { return a.histc(bins, min, max); },
          nb::arg("bins") = 100, nb::arg("min") = 0, nb::arg("max") = 0);
  def_python_fallback(t, "topk");
  m.def(
      "topk",
      [](T input, int64_t k, int64_t dim, bool largest, bool sorted) {
        auto [values, indices] = input.topk(k, dim, largest, sorted);
        return named_pair("topk", std::move(values), std::move(indices));
      },
      nb::arg("input"), nb::arg("k"), nb::arg("dim") = -1, nb::arg("largest") = true,
      nb::arg("sorted") = true);
  def_python_fallback(m, "topk");
}

}  // namespace tide::python
