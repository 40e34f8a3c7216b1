// tide.Tensor's math: operators (with Python's reflected and in-place forms), elementwise
// methods, reductions, views and linear algebra, each calling the C++ method of the same
// name. Operators are bound here, not in Python, because they are the per-op hot path
// (bench/python_bench.py).

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "casters.h"
#include "py_int.h"
#include "tensor_from_python.h"
#include "tide/default_dtype.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace nb = nanobind;

namespace tide::python {
namespace {

// A reduction's `dim`: None (every dim), an int, or a sequence of ints.
enum class DimKind { All, One, Many };
struct DimArg {
  DimKind kind = DimKind::All;
  int64_t one = 0;
  std::vector<int64_t> many;
};

DimArg dim_arg(nb::handle dim, const char* what) {
  DimArg d;
  if (dim.is_none()) return d;
  if (PyLong_Check(dim.ptr())) {
    d.kind = DimKind::One;
    d.one = to_int64(dim, what);
    return d;
  }
  d.kind = DimKind::Many;
  d.many = sizes_from_sequence(dim, what);
  return d;
}

template <class Full, class One, class Many>
Tensor reduce(nb::handle dim, const char* what, Full full, One one, Many many) {
  DimArg d = dim_arg(dim, what);
  if (d.kind == DimKind::All) return full();
  if (d.kind == DimKind::One) return one(d.one);
  return many(d.many);
}

// An in-place operator returns the tensor object itself (x += y keeps x's identity); for an
// operand that is neither a tensor nor a number it returns NotImplemented, so Python raises
// its usual TypeError naming both types.
template <class F>
auto inplace_operator(F f) {
  return [f](nb::object self, nb::handle other) -> nb::object {
    Tensor& t = nb::cast<Tensor&>(self);
    if (nb::isinstance<Tensor>(other)) {
      f(t, nb::cast<const Tensor&>(other));
    } else if (Scalar number; nb::try_cast(other, number)) {
      f(t, number);
    } else {
      return nb::borrow(Py_NotImplemented);
    }
    return self;
  };
}

// The method form (x.mul_(y)): the same, with a TypeError for any other operand.
template <class F>
auto inplace_method(const char* name, F f) {
  return [name, f](nb::object self, nb::handle other) -> nb::object {
    nb::object result = inplace_operator(f)(self, other);
    if (result.is(nb::handle(Py_NotImplemented))) {
      throw nb::type_error((std::string(name) + "(): expected a tensor or a number, found " +
                            nb::type_name(other.type()).c_str()).c_str());
    }
    return result;
  };
}

// The number of a reflected operator (2 % t, 1 << t) as a 0-dim cpu tensor: torch's wrapped
// number: int64, bool or the default dtype, so that it promotes as torch's Python number does
// (a 0-dim tensor never raises a dimensioned operand within its category), on any device.
Tensor wrapped(const Scalar& s) {
  const Dtype dtype = s.is_bool() ? kBool : s.is_floating_point() ? get_default_dtype() : kInt64;
  return scalar_tensor(s, tide::dtype(dtype));
}

// torch.return_types.max and .min: named tuples (values, indices) that the package makes
// (python/tide/_return_types.py) and registers with _set_return_types; borrowed, the module's
// attributes own them.
nb::handle max_type, min_type;

nb::object values_indices(nb::handle type, std::tuple<Tensor, Tensor> r) {
  nb::object values = nb::cast(std::move(std::get<0>(r)));
  nb::object indices = nb::cast(std::move(std::get<1>(r)));
  return type.is_valid() ? type(values, indices) : nb::object(nb::make_tuple(values, indices));
}

}  // namespace

void bind_tensor_ops(nb::module_& m, nb::class_<Tensor>& t) {
  nb::handle module = m;
  m.def("_set_return_types", [module](nb::object max, nb::object min) {
    nb::setattr(module, "_return_type_max", max);
    nb::setattr(module, "_return_type_min", min);
    max_type = max;
    min_type = min;
  });
  using T = const Tensor&;
  t
      // ---- operators
      .def("__add__", [](T a, T b) { return a + b; }, nb::is_operator())
      .def("__add__", [](T a, Scalar b) { return a + b; }, nb::is_operator())
      .def("__radd__", [](T a, Scalar b) { return b + a; }, nb::is_operator())
      .def("__sub__", [](T a, T b) { return a - b; }, nb::is_operator())
      .def("__sub__", [](T a, Scalar b) { return a - b; }, nb::is_operator())
      .def("__rsub__", [](T a, Scalar b) { return b - a; }, nb::is_operator())
      .def("__mul__", [](T a, T b) { return a * b; }, nb::is_operator())
      .def("__mul__", [](T a, Scalar b) { return a * b; }, nb::is_operator())
      .def("__rmul__", [](T a, Scalar b) { return b * a; }, nb::is_operator())
      .def("__truediv__", [](T a, T b) { return a / b; }, nb::is_operator())
      .def("__truediv__", [](T a, Scalar b) { return a / b; }, nb::is_operator())
      .def("__rtruediv__", [](T a, Scalar b) { return b / a; }, nb::is_operator())
      .def("__pow__", [](T a, T b) { return a.pow(b); }, nb::is_operator())
      .def("__pow__", [](T a, Scalar b) { return a.pow(b); }, nb::is_operator())
      .def("__rpow__", [](T a, Scalar b) { return tide::pow(b, a); }, nb::is_operator())
      .def("__matmul__", [](T a, T b) { return a.matmul(b); }, nb::is_operator())
      .def("__neg__", [](T a) { return -a; })
      .def("__abs__", [](T a) { return a.abs(); })
      .def("__invert__", [](T a) { return a.bitwise_not(); })
      .def("__mod__", [](T a, T b) { return a.remainder(b); }, nb::is_operator())
      .def("__mod__", [](T a, Scalar b) { return a.remainder(b); }, nb::is_operator())
      .def("__rmod__", [](T a, Scalar b) { return wrapped(b).remainder(a); }, nb::is_operator())
      .def("__floordiv__", [](T a, T b) { return a.floor_divide(b); }, nb::is_operator())
      .def("__floordiv__", [](T a, Scalar b) { return a.floor_divide(b); }, nb::is_operator())
      .def("__rfloordiv__", [](T a, Scalar b) { return wrapped(b).floor_divide(a); }, nb::is_operator())
      .def("__and__", [](T a, T b) { return a.bitwise_and(b); }, nb::is_operator())
      .def("__and__", [](T a, Scalar b) { return a.bitwise_and(b); }, nb::is_operator())
      .def("__rand__", [](T a, Scalar b) { return a.bitwise_and(b); }, nb::is_operator())
      .def("__or__", [](T a, T b) { return a.bitwise_or(b); }, nb::is_operator())
      .def("__or__", [](T a, Scalar b) { return a.bitwise_or(b); }, nb::is_operator())
      .def("__ror__", [](T a, Scalar b) { return a.bitwise_or(b); }, nb::is_operator())
      .def("__xor__", [](T a, T b) { return a.bitwise_xor(b); }, nb::is_operator())
      .def("__xor__", [](T a, Scalar b) { return a.bitwise_xor(b); }, nb::is_operator())
      .def("__rxor__", [](T a, Scalar b) { return a.bitwise_xor(b); }, nb::is_operator())
      .def("__lshift__", [](T a, T b) { return a.bitwise_left_shift(b); }, nb::is_operator())
      .def("__lshift__", [](T a, Scalar b) { return a.bitwise_left_shift(b); }, nb::is_operator())
      .def("__rlshift__", [](T a, Scalar b) { return wrapped(b).bitwise_left_shift(a); }, nb::is_operator())
      .def("__rshift__", [](T a, T b) { return a.bitwise_right_shift(b); }, nb::is_operator())
      .def("__rshift__", [](T a, Scalar b) { return a.bitwise_right_shift(b); }, nb::is_operator())
      .def("__rrshift__", [](T a, Scalar b) { return wrapped(b).bitwise_right_shift(a); }, nb::is_operator())
      .def("__imod__", inplace_operator([](Tensor& a, const auto& b) { a.remainder_(b); }))
      .def("__ifloordiv__", inplace_operator([](Tensor& a, const auto& b) { a.floor_divide_(b); }))
      .def("__iand__", inplace_operator([](Tensor& a, const auto& b) { a.bitwise_and_(b); }))
      .def("__ior__", inplace_operator([](Tensor& a, const auto& b) { a.bitwise_or_(b); }))
      .def("__ixor__", inplace_operator([](Tensor& a, const auto& b) { a.bitwise_xor_(b); }))
      .def("__ilshift__", inplace_operator([](Tensor& a, const auto& b) { a.bitwise_left_shift_(b); }))
      .def("__irshift__", inplace_operator([](Tensor& a, const auto& b) { a.bitwise_right_shift_(b); }))
      .def("__iadd__", inplace_operator([](Tensor& a, const auto& b) { a += b; }))
      .def("__isub__", inplace_operator([](Tensor& a, const auto& b) { a -= b; }))
      .def("__imul__", inplace_operator([](Tensor& a, const auto& b) { a *= b; }))
      .def("__itruediv__", inplace_operator([](Tensor& a, const auto& b) { a /= b; }))
      .def("__eq__", [](T a, T b) { return a == b; }, nb::is_operator())
      .def("__eq__", [](T a, Scalar b) { return a == b; }, nb::is_operator())
      .def("__ne__", [](T a, T b) { return a != b; }, nb::is_operator())
      .def("__ne__", [](T a, Scalar b) { return a != b; }, nb::is_operator())
      .def("__lt__", [](T a, T b) { return a < b; }, nb::is_operator())
      .def("__lt__", [](T a, Scalar b) { return a < b; }, nb::is_operator())
      .def("__le__", [](T a, T b) { return a <= b; }, nb::is_operator())
      .def("__le__", [](T a, Scalar b) { return a <= b; }, nb::is_operator())
      .def("__gt__", [](T a, T b) { return a > b; }, nb::is_operator())
      .def("__gt__", [](T a, Scalar b) { return a > b; }, nb::is_operator())
      .def("__ge__", [](T a, T b) { return a >= b; }, nb::is_operator())
      .def("__ge__", [](T a, Scalar b) { return a >= b; }, nb::is_operator())
      // ---- elementwise methods
      // @generated begin method-bindings (scripts/gen_ops.py from src/ops/ops.yaml: `python: method`)
      .def("neg", [](T self) { return self.neg(); })
      .def("neg_", [](nb::object self) { nb::cast<Tensor&>(self).neg_(); return self; })
      .def("negative", [](T self) { return self.negative(); })
      .def("negative_", [](nb::object self) { nb::cast<Tensor&>(self).negative_(); return self; })
      .def("abs", [](T self) { return self.abs(); })
      .def("abs_", [](nb::object self) { nb::cast<Tensor&>(self).abs_(); return self; })
      .def("absolute", [](T self) { return self.absolute(); })
      .def("absolute_", [](nb::object self) { nb::cast<Tensor&>(self).absolute_(); return self; })
      .def("exp", [](T self) { return self.exp(); })
      .def("exp_", [](nb::object self) { nb::cast<Tensor&>(self).exp_(); return self; })
      .def("log", [](T self) { return self.log(); })
      .def("log_", [](nb::object self) { nb::cast<Tensor&>(self).log_(); return self; })
      .def("sqrt", [](T self) { return self.sqrt(); })
      .def("sqrt_", [](nb::object self) { nb::cast<Tensor&>(self).sqrt_(); return self; })
      .def("relu", [](T self) { return self.relu(); })
      .def("relu_", [](nb::object self) { nb::cast<Tensor&>(self).relu_(); return self; })
      .def("sigmoid", [](T self) { return self.sigmoid(); })
      .def("sigmoid_", [](nb::object self) { nb::cast<Tensor&>(self).sigmoid_(); return self; })
      .def("tanh", [](T self) { return self.tanh(); })
      .def("tanh_", [](nb::object self) { nb::cast<Tensor&>(self).tanh_(); return self; })
      .def("sin", [](T self) { return self.sin(); })
      .def("sin_", [](nb::object self) { nb::cast<Tensor&>(self).sin_(); return self; })
      .def("add", [](T self, T other, Scalar alpha) { return self.add(other, alpha); }, nb::arg("other"), nb::kw_only(), nb::arg("alpha") = 1)
      .def("add", [](T self, Scalar other, Scalar alpha) { return self.add(other, alpha); }, nb::arg("other"), nb::kw_only(), nb::arg("alpha") = 1)
      .def("sub", [](T self, T other, Scalar alpha) { return self.sub(other, alpha); }, nb::arg("other"), nb::kw_only(), nb::arg("alpha") = 1)
      .def("subtract", [](T self, T other, Scalar alpha) { return self.subtract(other, alpha); }, nb::arg("other"), nb::kw_only(), nb::arg("alpha") = 1)
      .def("sub", [](T self, Scalar other, Scalar alpha) { return self.sub(other, alpha); }, nb::arg("other"), nb::kw_only(), nb::arg("alpha") = 1)
      .def("subtract", [](T self, Scalar other, Scalar alpha) { return self.subtract(other, alpha); }, nb::arg("other"), nb::kw_only(), nb::arg("alpha") = 1)
      .def("mul", [](T self, T other) { return self.mul(other); }, nb::arg("other"))
      .def("multiply", [](T self, T other) { return self.multiply(other); }, nb::arg("other"))
      .def("mul", [](T self, Scalar other) { return self.mul(other); }, nb::arg("other"))
      .def("multiply", [](T self, Scalar other) { return self.multiply(other); }, nb::arg("other"))
      .def("div", [](T self, T other) { return self.div(other); }, nb::arg("other"))
      .def("divide", [](T self, T other) { return self.divide(other); }, nb::arg("other"))
      .def("true_divide", [](T self, T other) { return self.true_divide(other); }, nb::arg("other"))
      .def("div", [](T self, Scalar other) { return self.div(other); }, nb::arg("other"))
      .def("divide", [](T self, Scalar other) { return self.divide(other); }, nb::arg("other"))
      .def("true_divide", [](T self, Scalar other) { return self.true_divide(other); }, nb::arg("other"))
      .def("maximum", [](T self, T other) { return self.maximum(other); }, nb::arg("other"))
      .def("minimum", [](T self, T other) { return self.minimum(other); }, nb::arg("other"))
      .def("atan2", [](T self, T other) { return self.atan2(other); }, nb::arg("other"))
      .def("atan2_", [](nb::object self, T other) { nb::cast<Tensor&>(self).atan2_(other); return self; }, nb::arg("other"))
      .def("arctan2", [](T self, T other) { return self.arctan2(other); }, nb::arg("other"))
      .def("arctan2_", [](nb::object self, T other) { nb::cast<Tensor&>(self).arctan2_(other); return self; }, nb::arg("other"))
      .def("eq", [](T self, T other) { return self.eq(other); }, nb::arg("other"))
      .def("eq_", [](nb::object self, T other) { nb::cast<Tensor&>(self).eq_(other); return self; }, nb::arg("other"))
      .def("eq", [](T self, Scalar other) { return self.eq(other); }, nb::arg("other"))
      .def("eq_", [](nb::object self, Scalar other) { nb::cast<Tensor&>(self).eq_(other); return self; }, nb::arg("other"))
      .def("ne", [](T self, T other) { return self.ne(other); }, nb::arg("other"))
      .def("ne_", [](nb::object self, T other) { nb::cast<Tensor&>(self).ne_(other); return self; }, nb::arg("other"))
      .def("not_equal", [](T self, T other) { return self.not_equal(other); }, nb::arg("other"))
      .def("not_equal_", [](nb::object self, T other) { nb::cast<Tensor&>(self).not_equal_(other); return self; }, nb::arg("other"))
      .def("ne", [](T self, Scalar other) { return self.ne(other); }, nb::arg("other"))
      .def("ne_", [](nb::object self, Scalar other) { nb::cast<Tensor&>(self).ne_(other); return self; }, nb::arg("other"))
      .def("not_equal", [](T self, Scalar other) { return self.not_equal(other); }, nb::arg("other"))
      .def("not_equal_", [](nb::object self, Scalar other) { nb::cast<Tensor&>(self).not_equal_(other); return self; }, nb::arg("other"))
      .def("lt", [](T self, T other) { return self.lt(other); }, nb::arg("other"))
      .def("lt_", [](nb::object self, T other) { nb::cast<Tensor&>(self).lt_(other); return self; }, nb::arg("other"))
      .def("less", [](T self, T other) { return self.less(other); }, nb::arg("other"))
      .def("less_", [](nb::object self, T other) { nb::cast<Tensor&>(self).less_(other); return self; }, nb::arg("other"))
      .def("lt", [](T self, Scalar other) { return self.lt(other); }, nb::arg("other"))
      .def("lt_", [](nb::object self, Scalar other) { nb::cast<Tensor&>(self).lt_(other); return self; }, nb::arg("other"))
      .def("less", [](T self, Scalar other) { return self.less(other); }, nb::arg("other"))
      .def("less_", [](nb::object self, Scalar other) { nb::cast<Tensor&>(self).less_(other); return self; }, nb::arg("other"))
      .def("le", [](T self, T other) { return self.le(other); }, nb::arg("other"))
      .def("le_", [](nb::object self, T other) { nb::cast<Tensor&>(self).le_(other); return self; }, nb::arg("other"))
      .def("less_equal", [](T self, T other) { return self.less_equal(other); }, nb::arg("other"))
      .def("less_equal_", [](nb::object self, T other) { nb::cast<Tensor&>(self).less_equal_(other); return self; }, nb::arg("other"))
      .def("le", [](T self, Scalar other) { return self.le(other); }, nb::arg("other"))
      .def("le_", [](nb::object self, Scalar other) { nb::cast<Tensor&>(self).le_(other); return self; }, nb::arg("other"))
      .def("less_equal", [](T self, Scalar other) { return self.less_equal(other); }, nb::arg("other"))
      .def("less_equal_", [](nb::object self, Scalar other) { nb::cast<Tensor&>(self).less_equal_(other); return self; }, nb::arg("other"))
      .def("gt", [](T self, T other) { return self.gt(other); }, nb::arg("other"))
      .def("gt_", [](nb::object self, T other) { nb::cast<Tensor&>(self).gt_(other); return self; }, nb::arg("other"))
      .def("greater", [](T self, T other) { return self.greater(other); }, nb::arg("other"))
      .def("greater_", [](nb::object self, T other) { nb::cast<Tensor&>(self).greater_(other); return self; }, nb::arg("other"))
      .def("gt", [](T self, Scalar other) { return self.gt(other); }, nb::arg("other"))
      .def("gt_", [](nb::object self, Scalar other) { nb::cast<Tensor&>(self).gt_(other); return self; }, nb::arg("other"))
      .def("greater", [](T self, Scalar other) { return self.greater(other); }, nb::arg("other"))
      .def("greater_", [](nb::object self, Scalar other) { nb::cast<Tensor&>(self).greater_(other); return self; }, nb::arg("other"))
      .def("ge", [](T self, T other) { return self.ge(other); }, nb::arg("other"))
      .def("ge_", [](nb::object self, T other) { nb::cast<Tensor&>(self).ge_(other); return self; }, nb::arg("other"))
      .def("greater_equal", [](T self, T other) { return self.greater_equal(other); }, nb::arg("other"))
      .def("greater_equal_", [](nb::object self, T other) { nb::cast<Tensor&>(self).greater_equal_(other); return self; }, nb::arg("other"))
      .def("ge", [](T self, Scalar other) { return self.ge(other); }, nb::arg("other"))
      .def("ge_", [](nb::object self, Scalar other) { nb::cast<Tensor&>(self).ge_(other); return self; }, nb::arg("other"))
      .def("greater_equal", [](T self, Scalar other) { return self.greater_equal(other); }, nb::arg("other"))
      .def("greater_equal_", [](nb::object self, Scalar other) { nb::cast<Tensor&>(self).greater_equal_(other); return self; }, nb::arg("other"))
      .def("lerp", [](T self, T end, Scalar weight) { return self.lerp(end, weight); }, nb::arg("end"), nb::arg("weight"))
      .def("lerp_", [](nb::object self, T end, Scalar weight) { nb::cast<Tensor&>(self).lerp_(end, weight); return self; }, nb::arg("end"), nb::arg("weight"))
      .def("lerp", [](T self, T end, T weight) { return self.lerp(end, weight); }, nb::arg("end"), nb::arg("weight"))
      .def("lerp_", [](nb::object self, T end, T weight) { nb::cast<Tensor&>(self).lerp_(end, weight); return self; }, nb::arg("end"), nb::arg("weight"))
      .def("cos", [](T self) { return self.cos(); })
      .def("cos_", [](nb::object self) { nb::cast<Tensor&>(self).cos_(); return self; })
      .def("tan", [](T self) { return self.tan(); })
      .def("tan_", [](nb::object self) { nb::cast<Tensor&>(self).tan_(); return self; })
      .def("asin", [](T self) { return self.asin(); })
      .def("asin_", [](nb::object self) { nb::cast<Tensor&>(self).asin_(); return self; })
      .def("arcsin", [](T self) { return self.arcsin(); })
      .def("arcsin_", [](nb::object self) { nb::cast<Tensor&>(self).arcsin_(); return self; })
      .def("acos", [](T self) { return self.acos(); })
      .def("acos_", [](nb::object self) { nb::cast<Tensor&>(self).acos_(); return self; })
      .def("arccos", [](T self) { return self.arccos(); })
      .def("arccos_", [](nb::object self) { nb::cast<Tensor&>(self).arccos_(); return self; })
      .def("atan", [](T self) { return self.atan(); })
      .def("atan_", [](nb::object self) { nb::cast<Tensor&>(self).atan_(); return self; })
      .def("arctan", [](T self) { return self.arctan(); })
      .def("arctan_", [](nb::object self) { nb::cast<Tensor&>(self).arctan_(); return self; })
      .def("sinh", [](T self) { return self.sinh(); })
      .def("sinh_", [](nb::object self) { nb::cast<Tensor&>(self).sinh_(); return self; })
      .def("cosh", [](T self) { return self.cosh(); })
      .def("cosh_", [](nb::object self) { nb::cast<Tensor&>(self).cosh_(); return self; })
      .def("asinh", [](T self) { return self.asinh(); })
      .def("asinh_", [](nb::object self) { nb::cast<Tensor&>(self).asinh_(); return self; })
      .def("arcsinh", [](T self) { return self.arcsinh(); })
      .def("arcsinh_", [](nb::object self) { nb::cast<Tensor&>(self).arcsinh_(); return self; })
      .def("acosh", [](T self) { return self.acosh(); })
      .def("acosh_", [](nb::object self) { nb::cast<Tensor&>(self).acosh_(); return self; })
      .def("arccosh", [](T self) { return self.arccosh(); })
      .def("arccosh_", [](nb::object self) { nb::cast<Tensor&>(self).arccosh_(); return self; })
      .def("atanh", [](T self) { return self.atanh(); })
      .def("atanh_", [](nb::object self) { nb::cast<Tensor&>(self).atanh_(); return self; })
      .def("arctanh", [](T self) { return self.arctanh(); })
      .def("arctanh_", [](nb::object self) { nb::cast<Tensor&>(self).arctanh_(); return self; })
      .def("exp2", [](T self) { return self.exp2(); })
      .def("exp2_", [](nb::object self) { nb::cast<Tensor&>(self).exp2_(); return self; })
      .def("expm1", [](T self) { return self.expm1(); })
      .def("expm1_", [](nb::object self) { nb::cast<Tensor&>(self).expm1_(); return self; })
      .def("log2", [](T self) { return self.log2(); })
      .def("log2_", [](nb::object self) { nb::cast<Tensor&>(self).log2_(); return self; })
      .def("log10", [](T self) { return self.log10(); })
      .def("log10_", [](nb::object self) { nb::cast<Tensor&>(self).log10_(); return self; })
      .def("log1p", [](T self) { return self.log1p(); })
      .def("log1p_", [](nb::object self) { nb::cast<Tensor&>(self).log1p_(); return self; })
      .def("rsqrt", [](T self) { return self.rsqrt(); })
      .def("rsqrt_", [](nb::object self) { nb::cast<Tensor&>(self).rsqrt_(); return self; })
      .def("reciprocal", [](T self) { return self.reciprocal(); })
      .def("reciprocal_", [](nb::object self) { nb::cast<Tensor&>(self).reciprocal_(); return self; })
      .def("erf", [](T self) { return self.erf(); })
      .def("erf_", [](nb::object self) { nb::cast<Tensor&>(self).erf_(); return self; })
      .def("erfc", [](T self) { return self.erfc(); })
      .def("erfc_", [](nb::object self) { nb::cast<Tensor&>(self).erfc_(); return self; })
      .def("erfinv", [](T self) { return self.erfinv(); })
      .def("erfinv_", [](nb::object self) { nb::cast<Tensor&>(self).erfinv_(); return self; })
      .def("sign", [](T self) { return self.sign(); })
      .def("sign_", [](nb::object self) { nb::cast<Tensor&>(self).sign_(); return self; })
      .def("sgn", [](T self) { return self.sgn(); })
      .def("sgn_", [](nb::object self) { nb::cast<Tensor&>(self).sgn_(); return self; })
      .def("floor", [](T self) { return self.floor(); })
      .def("floor_", [](nb::object self) { nb::cast<Tensor&>(self).floor_(); return self; })
      .def("ceil", [](T self) { return self.ceil(); })
      .def("ceil_", [](nb::object self) { nb::cast<Tensor&>(self).ceil_(); return self; })
      .def("round", [](T self) { return self.round(); })
      .def("round_", [](nb::object self) { nb::cast<Tensor&>(self).round_(); return self; })
      .def("trunc", [](T self) { return self.trunc(); })
      .def("trunc_", [](nb::object self) { nb::cast<Tensor&>(self).trunc_(); return self; })
      .def("fix", [](T self) { return self.fix(); })
      .def("fix_", [](nb::object self) { nb::cast<Tensor&>(self).fix_(); return self; })
      .def("frac", [](T self) { return self.frac(); })
      .def("frac_", [](nb::object self) { nb::cast<Tensor&>(self).frac_(); return self; })
      .def("square", [](T self) { return self.square(); })
      .def("square_", [](nb::object self) { nb::cast<Tensor&>(self).square_(); return self; })
      .def("bitwise_not", [](T self) { return self.bitwise_not(); })
      .def("bitwise_not_", [](nb::object self) { nb::cast<Tensor&>(self).bitwise_not_(); return self; })
      .def("fmod", [](T self, T other) { return self.fmod(other); }, nb::arg("other"))
      .def("fmod_", [](nb::object self, T other) { nb::cast<Tensor&>(self).fmod_(other); return self; }, nb::arg("other"))
      .def("fmod", [](T self, Scalar other) { return self.fmod(other); }, nb::arg("other"))
      .def("fmod_", [](nb::object self, Scalar other) { nb::cast<Tensor&>(self).fmod_(other); return self; }, nb::arg("other"))
      .def("remainder", [](T self, T other) { return self.remainder(other); }, nb::arg("other"))
      .def("remainder_", [](nb::object self, T other) { nb::cast<Tensor&>(self).remainder_(other); return self; }, nb::arg("other"))
      .def("remainder", [](T self, Scalar other) { return self.remainder(other); }, nb::arg("other"))
      .def("remainder_", [](nb::object self, Scalar other) { nb::cast<Tensor&>(self).remainder_(other); return self; }, nb::arg("other"))
      .def("floor_divide", [](T self, T other) { return self.floor_divide(other); }, nb::arg("other"))
      .def("floor_divide_", [](nb::object self, T other) { nb::cast<Tensor&>(self).floor_divide_(other); return self; }, nb::arg("other"))
      .def("floor_divide", [](T self, Scalar other) { return self.floor_divide(other); }, nb::arg("other"))
      .def("floor_divide_", [](nb::object self, Scalar other) { nb::cast<Tensor&>(self).floor_divide_(other); return self; }, nb::arg("other"))
      .def("fmax", [](T self, T other) { return self.fmax(other); }, nb::arg("other"))
      .def("fmin", [](T self, T other) { return self.fmin(other); }, nb::arg("other"))
      .def("hypot", [](T self, T other) { return self.hypot(other); }, nb::arg("other"))
      .def("hypot_", [](nb::object self, T other) { nb::cast<Tensor&>(self).hypot_(other); return self; }, nb::arg("other"))
      .def("logaddexp", [](T self, T other) { return self.logaddexp(other); }, nb::arg("other"))
      .def("copysign", [](T self, T other) { return self.copysign(other); }, nb::arg("other"))
      .def("copysign_", [](nb::object self, T other) { nb::cast<Tensor&>(self).copysign_(other); return self; }, nb::arg("other"))
      .def("copysign", [](T self, Scalar other) { return self.copysign(other); }, nb::arg("other"))
      .def("copysign_", [](nb::object self, Scalar other) { nb::cast<Tensor&>(self).copysign_(other); return self; }, nb::arg("other"))
      .def("bitwise_and", [](T self, T other) { return self.bitwise_and(other); }, nb::arg("other"))
      .def("bitwise_and_", [](nb::object self, T other) { nb::cast<Tensor&>(self).bitwise_and_(other); return self; }, nb::arg("other"))
      .def("bitwise_and", [](T self, Scalar other) { return self.bitwise_and(other); }, nb::arg("other"))
      .def("bitwise_and_", [](nb::object self, Scalar other) { nb::cast<Tensor&>(self).bitwise_and_(other); return self; }, nb::arg("other"))
      .def("bitwise_or", [](T self, T other) { return self.bitwise_or(other); }, nb::arg("other"))
      .def("bitwise_or_", [](nb::object self, T other) { nb::cast<Tensor&>(self).bitwise_or_(other); return self; }, nb::arg("other"))
      .def("bitwise_or", [](T self, Scalar other) { return self.bitwise_or(other); }, nb::arg("other"))
      .def("bitwise_or_", [](nb::object self, Scalar other) { nb::cast<Tensor&>(self).bitwise_or_(other); return self; }, nb::arg("other"))
      .def("bitwise_xor", [](T self, T other) { return self.bitwise_xor(other); }, nb::arg("other"))
      .def("bitwise_xor_", [](nb::object self, T other) { nb::cast<Tensor&>(self).bitwise_xor_(other); return self; }, nb::arg("other"))
      .def("bitwise_xor", [](T self, Scalar other) { return self.bitwise_xor(other); }, nb::arg("other"))
      .def("bitwise_xor_", [](nb::object self, Scalar other) { nb::cast<Tensor&>(self).bitwise_xor_(other); return self; }, nb::arg("other"))
      .def("bitwise_left_shift", [](T self, T other) { return self.bitwise_left_shift(other); }, nb::arg("other"))
      .def("bitwise_left_shift_", [](nb::object self, T other) { nb::cast<Tensor&>(self).bitwise_left_shift_(other); return self; }, nb::arg("other"))
      .def("bitwise_left_shift", [](T self, Scalar other) { return self.bitwise_left_shift(other); }, nb::arg("other"))
      .def("bitwise_left_shift_", [](nb::object self, Scalar other) { nb::cast<Tensor&>(self).bitwise_left_shift_(other); return self; }, nb::arg("other"))
      .def("bitwise_right_shift", [](T self, T other) { return self.bitwise_right_shift(other); }, nb::arg("other"))
      .def("bitwise_right_shift_", [](nb::object self, T other) { nb::cast<Tensor&>(self).bitwise_right_shift_(other); return self; }, nb::arg("other"))
      .def("bitwise_right_shift", [](T self, Scalar other) { return self.bitwise_right_shift(other); }, nb::arg("other"))
      .def("bitwise_right_shift_", [](nb::object self, Scalar other) { nb::cast<Tensor&>(self).bitwise_right_shift_(other); return self; }, nb::arg("other"))
      .def("logical_and", [](T self, T other) { return self.logical_and(other); }, nb::arg("other"))
      .def("logical_and_", [](nb::object self, T other) { nb::cast<Tensor&>(self).logical_and_(other); return self; }, nb::arg("other"))
      .def("logical_or", [](T self, T other) { return self.logical_or(other); }, nb::arg("other"))
      .def("logical_or_", [](nb::object self, T other) { nb::cast<Tensor&>(self).logical_or_(other); return self; }, nb::arg("other"))
      .def("logical_xor", [](T self, T other) { return self.logical_xor(other); }, nb::arg("other"))
      .def("logical_xor_", [](nb::object self, T other) { nb::cast<Tensor&>(self).logical_xor_(other); return self; }, nb::arg("other"))
      .def("logical_not", [](T self) { return self.logical_not(); })
      .def("logical_not_", [](nb::object self) { nb::cast<Tensor&>(self).logical_not_(); return self; })
      .def("isnan", [](T self) { return self.isnan(); })
      .def("isinf", [](T self) { return self.isinf(); })
      .def("isfinite", [](T self) { return self.isfinite(); })
      .def("nan_to_num", [](T self, std::optional<double> nan, std::optional<double> posinf, std::optional<double> neginf) { return self.nan_to_num(nan, posinf, neginf); }, nb::arg("nan").none() = nb::none(), nb::arg("posinf").none() = nb::none(), nb::arg("neginf").none() = nb::none())
      .def("nan_to_num_", [](nb::object self, std::optional<double> nan, std::optional<double> posinf, std::optional<double> neginf) { nb::cast<Tensor&>(self).nan_to_num_(nan, posinf, neginf); return self; }, nb::arg("nan").none() = nb::none(), nb::arg("posinf").none() = nb::none(), nb::arg("neginf").none() = nb::none())
      .def("clamp_min", [](T self, T min) { return self.clamp_min(min); }, nb::arg("min"))
      .def("clamp_min_", [](nb::object self, T min) { nb::cast<Tensor&>(self).clamp_min_(min); return self; }, nb::arg("min"))
      .def("clamp_max", [](T self, T max) { return self.clamp_max(max); }, nb::arg("max"))
      .def("clamp_max_", [](nb::object self, T max) { nb::cast<Tensor&>(self).clamp_max_(max); return self; }, nb::arg("max"))
      .def("addcmul", [](T self, T tensor1, T tensor2, Scalar value) { return self.addcmul(tensor1, tensor2, value); }, nb::arg("tensor1"), nb::arg("tensor2"), nb::kw_only(), nb::arg("value") = 1)
      .def("addcmul_", [](nb::object self, T tensor1, T tensor2, Scalar value) { nb::cast<Tensor&>(self).addcmul_(tensor1, tensor2, value); return self; }, nb::arg("tensor1"), nb::arg("tensor2"), nb::kw_only(), nb::arg("value") = 1)
      .def("addcdiv", [](T self, T tensor1, T tensor2, Scalar value) { return self.addcdiv(tensor1, tensor2, value); }, nb::arg("tensor1"), nb::arg("tensor2"), nb::kw_only(), nb::arg("value") = 1)
      .def("addcdiv_", [](nb::object self, T tensor1, T tensor2, Scalar value) { nb::cast<Tensor&>(self).addcdiv_(tensor1, tensor2, value); return self; }, nb::arg("tensor1"), nb::arg("tensor2"), nb::kw_only(), nb::arg("value") = 1)
      .def("lgamma", [](T self) { return self.lgamma(); })
      .def("lgamma_", [](nb::object self) { nb::cast<Tensor&>(self).lgamma_(); return self; })
      .def("digamma", [](T self) { return self.digamma(); })
      .def("digamma_", [](nb::object self) { nb::cast<Tensor&>(self).digamma_(); return self; })
      .def("sinc", [](T self) { return self.sinc(); })
      .def("sinc_", [](nb::object self) { nb::cast<Tensor&>(self).sinc_(); return self; })
      .def("round", [](T self, int64_t decimals) { return self.round(decimals); }, nb::kw_only(), nb::arg("decimals"))
      .def("round_", [](nb::object self, int64_t decimals) { nb::cast<Tensor&>(self).round_(decimals); return self; }, nb::kw_only(), nb::arg("decimals"))
      .def("logit", [](T self, std::optional<double> eps) { return self.logit(eps); }, nb::arg("eps").none() = nb::none())
      .def("logit_", [](nb::object self, std::optional<double> eps) { nb::cast<Tensor&>(self).logit_(eps); return self; }, nb::arg("eps").none() = nb::none())
      .def("div", [](T self, T other, std::optional<std::string> rounding_mode) { return self.div(other, rounding_mode); }, nb::arg("other"), nb::kw_only(), nb::arg("rounding_mode").none())
      .def("div_", [](nb::object self, T other, std::optional<std::string> rounding_mode) { nb::cast<Tensor&>(self).div_(other, rounding_mode); return self; }, nb::arg("other"), nb::kw_only(), nb::arg("rounding_mode").none())
      .def("divide", [](T self, T other, std::optional<std::string> rounding_mode) { return self.divide(other, rounding_mode); }, nb::arg("other"), nb::kw_only(), nb::arg("rounding_mode").none())
      .def("divide_", [](nb::object self, T other, std::optional<std::string> rounding_mode) { nb::cast<Tensor&>(self).divide_(other, rounding_mode); return self; }, nb::arg("other"), nb::kw_only(), nb::arg("rounding_mode").none())
      .def("div", [](T self, Scalar other, std::optional<std::string> rounding_mode) { return self.div(other, rounding_mode); }, nb::arg("other"), nb::kw_only(), nb::arg("rounding_mode").none())
      .def("div_", [](nb::object self, Scalar other, std::optional<std::string> rounding_mode) { nb::cast<Tensor&>(self).div_(other, rounding_mode); return self; }, nb::arg("other"), nb::kw_only(), nb::arg("rounding_mode").none())
      .def("divide", [](T self, Scalar other, std::optional<std::string> rounding_mode) { return self.divide(other, rounding_mode); }, nb::arg("other"), nb::kw_only(), nb::arg("rounding_mode").none())
      .def("divide_", [](nb::object self, Scalar other, std::optional<std::string> rounding_mode) { nb::cast<Tensor&>(self).divide_(other, rounding_mode); return self; }, nb::arg("other"), nb::kw_only(), nb::arg("rounding_mode").none())
      .def("deg2rad", [](T self) { return self.deg2rad(); })
      .def("deg2rad_", [](nb::object self) { nb::cast<Tensor&>(self).deg2rad_(); return self; })
      .def("rad2deg", [](T self) { return self.rad2deg(); })
      .def("rad2deg_", [](nb::object self) { nb::cast<Tensor&>(self).rad2deg_(); return self; })
      .def("float_power", [](T self, T exponent) { return self.float_power(exponent); }, nb::arg("exponent"))
      .def("float_power_", [](nb::object self, T exponent) { nb::cast<Tensor&>(self).float_power_(exponent); return self; }, nb::arg("exponent"))
      .def("float_power", [](T self, Scalar exponent) { return self.float_power(exponent); }, nb::arg("exponent"))
      .def("float_power_", [](nb::object self, Scalar exponent) { nb::cast<Tensor&>(self).float_power_(exponent); return self; }, nb::arg("exponent"))
      .def("ldexp", [](T self, T other) { return self.ldexp(other); }, nb::arg("other"))
      .def("ldexp_", [](nb::object self, T other) { nb::cast<Tensor&>(self).ldexp_(other); return self; }, nb::arg("other"))
      .def("xlogy", [](T self, T other) { return self.xlogy(other); }, nb::arg("other"))
      .def("xlogy_", [](nb::object self, T other) { nb::cast<Tensor&>(self).xlogy_(other); return self; }, nb::arg("other"))
      .def("logaddexp2", [](T self, T other) { return self.logaddexp2(other); }, nb::arg("other"))
      .def("heaviside", [](T self, T values) { return self.heaviside(values); }, nb::arg("values"))
      .def("heaviside_", [](nb::object self, T values) { nb::cast<Tensor&>(self).heaviside_(values); return self; }, nb::arg("values"))
      .def("gcd", [](T self, T other) { return self.gcd(other); }, nb::arg("other"))
      .def("gcd_", [](nb::object self, T other) { nb::cast<Tensor&>(self).gcd_(other); return self; }, nb::arg("other"))
      .def("lcm", [](T self, T other) { return self.lcm(other); }, nb::arg("other"))
      .def("lcm_", [](nb::object self, T other) { nb::cast<Tensor&>(self).lcm_(other); return self; }, nb::arg("other"))
      .def("nextafter", [](T self, T other) { return self.nextafter(other); }, nb::arg("other"))
      .def("nextafter_", [](nb::object self, T other) { nb::cast<Tensor&>(self).nextafter_(other); return self; }, nb::arg("other"))
      .def("signbit", [](T self) { return self.signbit(); })
      .def("isposinf", [](T self) { return self.isposinf(); })
      .def("isneginf", [](T self) { return self.isneginf(); })
      .def("positive", [](T self) { return self.positive(); })
      .def("clamp_min", [](T self, Scalar min) { return self.clamp_min(min); }, nb::arg("min"))
      .def("clamp_min_", [](nb::object self, Scalar min) { nb::cast<Tensor&>(self).clamp_min_(min); return self; }, nb::arg("min"))
      .def("clamp_max", [](T self, Scalar max) { return self.clamp_max(max); }, nb::arg("max"))
      .def("clamp_max_", [](nb::object self, Scalar max) { nb::cast<Tensor&>(self).clamp_max_(max); return self; }, nb::arg("max"))
      .def("pow_", [](nb::object self, T exponent) { nb::cast<Tensor&>(self).pow_(exponent); return self; }, nb::arg("exponent"))
      .def("pow_", [](nb::object self, Scalar exponent) { nb::cast<Tensor&>(self).pow_(exponent); return self; }, nb::arg("exponent"))
      // @generated end method-bindings
      .def("add_", [](nb::object self, T b, Scalar alpha) { nb::cast<Tensor&>(self).add_(b, alpha); return self; }, nb::arg("other"), nb::kw_only(), nb::arg("alpha") = 1)
      .def("add_", [](nb::object self, Scalar b, Scalar alpha) { nb::cast<Tensor&>(self).add_(b, alpha); return self; }, nb::arg("other"), nb::kw_only(), nb::arg("alpha") = 1)
      .def("sub_", [](nb::object self, T b, Scalar alpha) { nb::cast<Tensor&>(self).sub_(b, alpha); return self; }, nb::arg("other"), nb::kw_only(), nb::arg("alpha") = 1)
      .def("sub_", [](nb::object self, Scalar b, Scalar alpha) { nb::cast<Tensor&>(self).sub_(b, alpha); return self; }, nb::arg("other"), nb::kw_only(), nb::arg("alpha") = 1)
      .def("mul_", inplace_method("mul_", [](Tensor& a, const auto& b) { a.mul_(b); }), nb::arg("other"))
      .def("div_", inplace_method("div_", [](Tensor& a, const auto& b) { a.div_(b); }), nb::arg("other"))
      .def("subtract_", [](nb::object self, T b, Scalar alpha) { nb::cast<Tensor&>(self).subtract_(b, alpha); return self; }, nb::arg("other"), nb::kw_only(), nb::arg("alpha") = 1)
      .def("subtract_", [](nb::object self, Scalar b, Scalar alpha) { nb::cast<Tensor&>(self).subtract_(b, alpha); return self; }, nb::arg("other"), nb::kw_only(), nb::arg("alpha") = 1)
      .def("multiply_", inplace_method("multiply_", [](Tensor& a, const auto& b) { a.multiply_(b); }), nb::arg("other"))
      .def("divide_", inplace_method("divide_", [](Tensor& a, const auto& b) { a.divide_(b); }), nb::arg("other"))
      .def("true_divide_", inplace_method("true_divide_", [](Tensor& a, const auto& b) { a.true_divide_(b); }), nb::arg("other"))
      .def("pow", [](T a, T b) { return a.pow(b); }, nb::arg("exponent"))
      .def("pow", [](T a, Scalar b) { return a.pow(b); }, nb::arg("exponent"))
      .def("where", &Tensor::where, nb::arg("condition"), nb::arg("other"))
      .def("clamp", static_cast<Tensor (Tensor::*)(std::optional<Scalar>, std::optional<Scalar>) const>(&Tensor::clamp),
           nb::arg("min").none() = nb::none(), nb::arg("max").none() = nb::none())
      .def("clamp", static_cast<Tensor (Tensor::*)(const Tensor&, const Tensor&) const>(&Tensor::clamp),
           nb::arg("min"), nb::arg("max"))
      .def("clip", static_cast<Tensor (Tensor::*)(std::optional<Scalar>, std::optional<Scalar>) const>(&Tensor::clip),
           nb::arg("min").none() = nb::none(), nb::arg("max").none() = nb::none())
      .def("clip", static_cast<Tensor (Tensor::*)(const Tensor&, const Tensor&) const>(&Tensor::clip),
           nb::arg("min"), nb::arg("max"))
      .def("clamp_", [](nb::object self, std::optional<Scalar> min, std::optional<Scalar> max) { nb::cast<Tensor&>(self).clamp_(min, max); return self; },
           nb::arg("min").none() = nb::none(), nb::arg("max").none() = nb::none())
      .def("clamp_", [](nb::object self, T min, T max) { nb::cast<Tensor&>(self).clamp_(min, max); return self; }, nb::arg("min"), nb::arg("max"))
      .def("clip_", [](nb::object self, std::optional<Scalar> min, std::optional<Scalar> max) { nb::cast<Tensor&>(self).clip_(min, max); return self; },
           nb::arg("min").none() = nb::none(), nb::arg("max").none() = nb::none())
      .def("clip_", [](nb::object self, T min, T max) { nb::cast<Tensor&>(self).clip_(min, max); return self; }, nb::arg("min"), nb::arg("max"))
      // ---- reductions
      .def("sum", [](T a, nb::handle dim, bool keepdim, std::optional<Dtype> dtype) {
        return reduce(dim, "Tensor.sum", [&] { return a.sum(dtype); },
                      [&](int64_t d) { return a.sum(d, keepdim, dtype); },
                      [&](const std::vector<int64_t>& ds) { return a.sum(ds, keepdim, dtype); });
      }, nb::arg("dim").none() = nb::none(), nb::arg("keepdim") = false, nb::kw_only(), nb::arg("dtype").none() = nb::none())
      .def("mean", [](T a, nb::handle dim, bool keepdim, std::optional<Dtype> dtype) {
        return reduce(dim, "Tensor.mean", [&] { return a.mean(dtype); },
                      [&](int64_t d) { return a.mean(d, keepdim, dtype); },
                      [&](const std::vector<int64_t>& ds) { return a.mean(ds, keepdim, dtype); });
      }, nb::arg("dim").none() = nb::none(), nb::arg("keepdim") = false, nb::kw_only(), nb::arg("dtype").none() = nb::none())
      .def("max", [](T a) { return a.max(); })
      .def("max", [](T a, int64_t dim, bool keepdim) { return values_indices(max_type, a.max(dim, keepdim)); }, nb::arg("dim"), nb::arg("keepdim") = false)
      .def("max", [](T a, T other) { return a.maximum(other); }, nb::arg("other"))
      .def("min", [](T a) { return a.min(); })
      .def("min", [](T a, int64_t dim, bool keepdim) { return values_indices(min_type, a.min(dim, keepdim)); }, nb::arg("dim"), nb::arg("keepdim") = false)
      .def("min", [](T a, T other) { return a.minimum(other); }, nb::arg("other"))
      .def("argmax", [](T a, std::optional<int64_t> dim, bool keepdim) { return dim ? a.argmax(*dim, keepdim) : a.argmax(); }, nb::arg("dim").none() = nb::none(), nb::arg("keepdim") = false)
      .def("argmin", [](T a, std::optional<int64_t> dim, bool keepdim) { return dim ? a.argmin(*dim, keepdim) : a.argmin(); }, nb::arg("dim").none() = nb::none(), nb::arg("keepdim") = false)
      // ---- linear algebra and nn
      .def("matmul", &Tensor::matmul, nb::arg("other"))
      .def("mm", &Tensor::mm, nb::arg("mat2"))
      .def("bmm", &Tensor::bmm, nb::arg("mat2"))
      .def("addmm", &Tensor::addmm, nb::arg("mat1"), nb::arg("mat2"), nb::kw_only(), nb::arg("beta") = 1, nb::arg("alpha") = 1)
      .def("softmax", &Tensor::softmax, nb::arg("dim"))
      .def("log_softmax", &Tensor::log_softmax, nb::arg("dim"))
      // ---- views (the *shape forms are wrapped in python/tide/_tensor.py)
      .def("_view", nb::overload_cast<std::vector<int64_t>>(&Tensor::view, nb::const_))
      .def("_view_dtype", nb::overload_cast<Dtype>(&Tensor::view, nb::const_))
      .def("_reshape", &Tensor::reshape)
      .def("_permute", &Tensor::permute)
      .def("_expand", &Tensor::expand)
      .def("flatten", &Tensor::flatten, nb::arg("start_dim") = 0, nb::arg("end_dim") = -1)
      .def("transpose", &Tensor::transpose, nb::arg("dim0"), nb::arg("dim1"))
      .def("t", &Tensor::t)
      .def_prop_ro("T", [](T a) {
        std::vector<int64_t> dims(a.dim());
        for (int64_t i = 0; i < a.dim(); ++i) dims[i] = a.dim() - 1 - i;
        return a.permute(dims);
      })
      .def("narrow", &Tensor::narrow, nb::arg("dim"), nb::arg("start"), nb::arg("length"))
      .def("select", &Tensor::select, nb::arg("dim"), nb::arg("index"))
      .def("unsqueeze", &Tensor::unsqueeze, nb::arg("dim"))
      .def("squeeze", [](T a, std::optional<int64_t> dim) { return dim ? a.squeeze(*dim) : a.squeeze(); }, nb::arg("dim").none() = nb::none())
      .def("expand_as", &Tensor::expand_as, nb::arg("other"))
      .def("view_as", [](T a, T other) { return a.view(other.sizes()); }, nb::arg("other"))
      .def("reshape_as", [](T a, T other) { return a.reshape(other.sizes()); }, nb::arg("other"))
      .def("chunk", &Tensor::chunk, nb::arg("chunks"), nb::arg("dim") = 0)
      .def("split", [](T a, int64_t size, int64_t dim) { return a.split(size, dim); }, nb::arg("split_size"), nb::arg("dim") = 0)
      .def("split", [](T a, std::vector<int64_t> sizes, int64_t dim) { return a.split(sizes, dim); }, nb::arg("split_size"), nb::arg("dim") = 0)
      .def("index_select", &Tensor::index_select, nb::arg("dim"), nb::arg("index"));

  // Free functions that are not methods in torch either.
  m.def("cat", &tide::cat, nb::arg("tensors"), nb::arg("dim") = 0);
  m.def("stack", &tide::stack, nb::arg("tensors"), nb::arg("dim") = 0);
  m.def("pow", [](Scalar a, T b) { return tide::pow(a, b); });
  m.def("rsub", [](T a, T b, Scalar alpha) { return tide::rsub(a, b, alpha); }, nb::arg("input"), nb::arg("other"), nb::kw_only(), nb::arg("alpha") = 1);
  m.def("rsub", [](T a, Scalar b, Scalar alpha) { return tide::rsub(a, b, alpha); }, nb::arg("input"), nb::arg("other"), nb::kw_only(), nb::arg("alpha") = 1);
  m.def("where", [](T c, T a, T b) { return tide::where(c, a, b); },
        nb::arg("condition"), nb::arg("input"), nb::arg("other"));
  m.def("where", [](T c, T a, Scalar b) { return tide::where(c, a, b); },
        nb::arg("condition"), nb::arg("input"), nb::arg("other"));
  m.def("where", [](T c, Scalar a, T b) { return tide::where(c, a, b); },
        nb::arg("condition"), nb::arg("input"), nb::arg("other"));
  bind_indexing(m, t);
  bind_shapes(m, t);
  // @generated begin function-bindings (scripts/gen_ops.py from src/ops/ops.yaml: out= forms)
  m.def("_neg_out", [](nb::object out, T self) { tide::neg_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_negative_out", [](nb::object out, T self) { tide::negative_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_abs_out", [](nb::object out, T self) { tide::abs_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_absolute_out", [](nb::object out, T self) { tide::absolute_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_exp_out", [](nb::object out, T self) { tide::exp_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_log_out", [](nb::object out, T self) { tide::log_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_sqrt_out", [](nb::object out, T self) { tide::sqrt_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_sigmoid_out", [](nb::object out, T self) { tide::sigmoid_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_tanh_out", [](nb::object out, T self) { tide::tanh_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_sin_out", [](nb::object out, T self) { tide::sin_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_atan2_out", [](nb::object out, T self, T other) { tide::atan2_out(nb::cast<Tensor&>(out), self, other); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("other"));
  m.def("_arctan2_out", [](nb::object out, T self, T other) { tide::arctan2_out(nb::cast<Tensor&>(out), self, other); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("other"));
  m.def("_lerp_out", [](nb::object out, T self, T end, Scalar weight) { tide::lerp_out(nb::cast<Tensor&>(out), self, end, weight); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("end"), nb::arg("weight"));
  m.def("_lerp_out", [](nb::object out, T self, T end, T weight) { tide::lerp_out(nb::cast<Tensor&>(out), self, end, weight); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("end"), nb::arg("weight"));
  m.def("_cos_out", [](nb::object out, T self) { tide::cos_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_tan_out", [](nb::object out, T self) { tide::tan_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_asin_out", [](nb::object out, T self) { tide::asin_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_arcsin_out", [](nb::object out, T self) { tide::arcsin_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_acos_out", [](nb::object out, T self) { tide::acos_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_arccos_out", [](nb::object out, T self) { tide::arccos_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_atan_out", [](nb::object out, T self) { tide::atan_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_arctan_out", [](nb::object out, T self) { tide::arctan_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_sinh_out", [](nb::object out, T self) { tide::sinh_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_cosh_out", [](nb::object out, T self) { tide::cosh_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_asinh_out", [](nb::object out, T self) { tide::asinh_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_arcsinh_out", [](nb::object out, T self) { tide::arcsinh_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_acosh_out", [](nb::object out, T self) { tide::acosh_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_arccosh_out", [](nb::object out, T self) { tide::arccosh_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_atanh_out", [](nb::object out, T self) { tide::atanh_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_arctanh_out", [](nb::object out, T self) { tide::arctanh_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_exp2_out", [](nb::object out, T self) { tide::exp2_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_expm1_out", [](nb::object out, T self) { tide::expm1_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_log2_out", [](nb::object out, T self) { tide::log2_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_log10_out", [](nb::object out, T self) { tide::log10_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_log1p_out", [](nb::object out, T self) { tide::log1p_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_rsqrt_out", [](nb::object out, T self) { tide::rsqrt_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_reciprocal_out", [](nb::object out, T self) { tide::reciprocal_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_erf_out", [](nb::object out, T self) { tide::erf_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_erfc_out", [](nb::object out, T self) { tide::erfc_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_erfinv_out", [](nb::object out, T self) { tide::erfinv_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_sign_out", [](nb::object out, T self) { tide::sign_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_sgn_out", [](nb::object out, T self) { tide::sgn_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_floor_out", [](nb::object out, T self) { tide::floor_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_ceil_out", [](nb::object out, T self) { tide::ceil_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_round_out", [](nb::object out, T self) { tide::round_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_trunc_out", [](nb::object out, T self) { tide::trunc_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_fix_out", [](nb::object out, T self) { tide::fix_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_frac_out", [](nb::object out, T self) { tide::frac_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_square_out", [](nb::object out, T self) { tide::square_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_bitwise_not_out", [](nb::object out, T self) { tide::bitwise_not_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_fmod_out", [](nb::object out, T self, T other) { tide::fmod_out(nb::cast<Tensor&>(out), self, other); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("other"));
  m.def("_remainder_out", [](nb::object out, T self, T other) { tide::remainder_out(nb::cast<Tensor&>(out), self, other); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("other"));
  m.def("_floor_divide_out", [](nb::object out, T self, T other) { tide::floor_divide_out(nb::cast<Tensor&>(out), self, other); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("other"));
  m.def("_fmax_out", [](nb::object out, T self, T other) { tide::fmax_out(nb::cast<Tensor&>(out), self, other); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("other"));
  m.def("_fmin_out", [](nb::object out, T self, T other) { tide::fmin_out(nb::cast<Tensor&>(out), self, other); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("other"));
  m.def("_hypot_out", [](nb::object out, T self, T other) { tide::hypot_out(nb::cast<Tensor&>(out), self, other); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("other"));
  m.def("_logaddexp_out", [](nb::object out, T self, T other) { tide::logaddexp_out(nb::cast<Tensor&>(out), self, other); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("other"));
  m.def("_copysign_out", [](nb::object out, T self, T other) { tide::copysign_out(nb::cast<Tensor&>(out), self, other); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("other"));
  m.def("_bitwise_and_out", [](nb::object out, T self, T other) { tide::bitwise_and_out(nb::cast<Tensor&>(out), self, other); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("other"));
  m.def("_bitwise_or_out", [](nb::object out, T self, T other) { tide::bitwise_or_out(nb::cast<Tensor&>(out), self, other); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("other"));
  m.def("_bitwise_xor_out", [](nb::object out, T self, T other) { tide::bitwise_xor_out(nb::cast<Tensor&>(out), self, other); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("other"));
  m.def("_bitwise_left_shift_out", [](nb::object out, T self, T other) { tide::bitwise_left_shift_out(nb::cast<Tensor&>(out), self, other); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("other"));
  m.def("_bitwise_right_shift_out", [](nb::object out, T self, T other) { tide::bitwise_right_shift_out(nb::cast<Tensor&>(out), self, other); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("other"));
  m.def("_clamp_min_out", [](nb::object out, T self, T min) { tide::clamp_min_out(nb::cast<Tensor&>(out), self, min); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("min"));
  m.def("_clamp_max_out", [](nb::object out, T self, T max) { tide::clamp_max_out(nb::cast<Tensor&>(out), self, max); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("max"));
  m.def("_addcmul_out", [](nb::object out, T self, T tensor1, T tensor2, Scalar value) { tide::addcmul_out(nb::cast<Tensor&>(out), self, tensor1, tensor2, value); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("tensor1"), nb::arg("tensor2"), nb::kw_only(), nb::arg("value") = 1);
  m.def("_addcdiv_out", [](nb::object out, T self, T tensor1, T tensor2, Scalar value) { tide::addcdiv_out(nb::cast<Tensor&>(out), self, tensor1, tensor2, value); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("tensor1"), nb::arg("tensor2"), nb::kw_only(), nb::arg("value") = 1);
  m.def("_lgamma_out", [](nb::object out, T self) { tide::lgamma_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_digamma_out", [](nb::object out, T self) { tide::digamma_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_sinc_out", [](nb::object out, T self) { tide::sinc_out(nb::cast<Tensor&>(out), self); return out; }, nb::arg("out"), nb::arg("input"));
  m.def("_xlogy_out", [](nb::object out, T self, T other) { tide::xlogy_out(nb::cast<Tensor&>(out), self, other); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("other"));
  m.def("_logaddexp2_out", [](nb::object out, T self, T other) { tide::logaddexp2_out(nb::cast<Tensor&>(out), self, other); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("other"));
  m.def("_heaviside_out", [](nb::object out, T self, T values) { tide::heaviside_out(nb::cast<Tensor&>(out), self, values); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("values"));
  m.def("_gcd_out", [](nb::object out, T self, T other) { tide::gcd_out(nb::cast<Tensor&>(out), self, other); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("other"));
  m.def("_lcm_out", [](nb::object out, T self, T other) { tide::lcm_out(nb::cast<Tensor&>(out), self, other); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("other"));
  m.def("_nextafter_out", [](nb::object out, T self, T other) { tide::nextafter_out(nb::cast<Tensor&>(out), self, other); return out; }, nb::arg("out"), nb::arg("input"), nb::arg("other"));
  // @generated end function-bindings
}

}  // namespace tide::python
