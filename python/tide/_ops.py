"""torch's free functions (tide.add(a, b), tide.sum(x, dim=1), ...) as calls of the tensor
method of the same name, so the two spellings cannot drift apart."""

from . import _C

# @generated begin method-forms (scripts/gen_ops.py from src/ops/ops.yaml: `python: method`)
_TABLE_METHOD_FORMS = [
    "neg", "negative", "abs", "absolute", "exp", "log", "sqrt", "relu", "sigmoid", "tanh",
    "sin", "add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide",
    "maximum", "minimum", "atan2", "arctan2", "eq", "ne", "not_equal", "lt", "less", "le",
    "less_equal", "gt", "greater", "ge", "greater_equal", "lerp", "cos", "tan", "asin",
    "arcsin", "acos", "arccos", "atan", "arctan", "sinh", "cosh", "asinh", "arcsinh", "acosh",
    "arccosh", "atanh", "arctanh", "exp2", "expm1", "log2", "log10", "log1p", "rsqrt",
    "reciprocal", "erf", "erfc", "erfinv", "sign", "sgn", "floor", "ceil", "round", "trunc",
    "fix", "frac", "square", "bitwise_not", "fmod", "remainder", "floor_divide", "fmax", "fmin",
    "hypot", "logaddexp", "copysign", "bitwise_and", "bitwise_or", "bitwise_xor",
    "bitwise_left_shift", "bitwise_right_shift", "logical_and", "logical_or", "logical_xor",
    "logical_not", "isnan", "isinf", "isfinite", "nan_to_num", "clamp_min", "clamp_max",
    "addcmul", "addcdiv", "lgamma", "digamma", "sinc", "logit", "deg2rad", "rad2deg",
    "float_power", "ldexp", "xlogy", "logaddexp2", "heaviside", "gcd", "lcm", "nextafter",
    "signbit", "isposinf", "isneginf", "positive",
]
_TABLE_OUT_FORMS = [
    "neg", "negative", "abs", "absolute", "exp", "log", "sqrt", "sigmoid", "tanh", "sin",
    "atan2", "arctan2", "lerp", "cos", "tan", "asin", "arcsin", "acos", "arccos", "atan",
    "arctan", "sinh", "cosh", "asinh", "arcsinh", "acosh", "arccosh", "atanh", "arctanh",
    "exp2", "expm1", "log2", "log10", "log1p", "rsqrt", "reciprocal", "erf", "erfc", "erfinv",
    "sign", "sgn", "floor", "ceil", "round", "trunc", "fix", "frac", "square", "bitwise_not",
    "fmod", "remainder", "floor_divide", "fmax", "fmin", "hypot", "logaddexp", "copysign",
    "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift",
    "clamp_min", "clamp_max", "addcmul", "addcdiv", "lgamma", "digamma", "sinc", "xlogy",
    "logaddexp2", "heaviside", "gcd", "lcm", "nextafter",
]
# @generated end method-forms

_METHOD_FORMS = _TABLE_METHOD_FORMS + [
    "clamp", "sum", "mean",
    "max", "min", "argmax", "argmin", "matmul", "mm", "bmm", "addmm", "softmax", "log_softmax",
    "flatten", "transpose", "t", "narrow", "select", "unsqueeze", "squeeze", "chunk", "split",
    "index_select", "reshape", "permute", "clone", "numel", "is_floating_point", "detach",
    "nonzero", "take", "put", "index_put", "masked_select", "masked_fill", "masked_scatter",
    "gather", "scatter", "scatter_add", "index_add", "index_copy", "index_fill", "clip",
]

# The in-place functions torch 1.13 has in its own namespace (torch.sin_(x) is x.sin_()).
_INPLACE_FUNCTIONS = [
    "abs_", "acos_", "arccos_", "acosh_", "arccosh_", "asin_", "arcsin_", "asinh_",
    "arcsinh_", "atan_", "arctan_", "atanh_", "arctanh_", "ceil_", "clamp_", "clamp_max_",
    "clamp_min_", "clip_", "cos_", "cosh_", "deg2rad_", "erf_", "erfc_", "exp2_", "exp_",
    "expm1_", "fill_", "fix_", "floor_", "frac_", "gcd_", "lcm_", "ldexp_", "log10_", "log1p_",
    "log2_", "log_", "logit_", "nan_to_num_", "neg_", "negative_", "rad2deg_", "reciprocal_",
    "relu_", "round_", "rsqrt_", "sigmoid_", "sin_", "sinc_", "sinh_", "sqrt_", "square_",
    "tan_", "tanh_", "trunc_", "xlogy_", "zero_",
]


def _method_form(name):
    if name in _TABLE_OUT_FORMS:
        out_form = getattr(_C, f"_{name}_out")

        def op(input, *args, out=None, **kwargs):
            if out is not None:
                return out_form(out, input, *args, **kwargs)
            return getattr(input, name)(*args, **kwargs)
    else:
        def op(input, *args, **kwargs):
            return getattr(input, name)(*args, **kwargs)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"tide.{name}(input, ...) is input.{name}(...)"
    return op


def install(namespace):
    for name in _METHOD_FORMS + _INPLACE_FUNCTIONS:
        namespace[name] = _method_form(name)
    namespace["cat"] = _C.cat
    namespace["concat"] = _C.cat
    namespace["stack"] = _C.stack

    def pow(input, exponent):
        if isinstance(input, _C.Tensor):
            return input.pow(exponent)
        return _C.pow(input, exponent)

    def where(condition, input=None, other=None):
        if input is None and other is None:
            return _C.where(condition)  # torch.where(condition): nonzero as a tuple
        return _C.where(condition, input, other)

    def is_tensor(obj):
        return isinstance(obj, _C.Tensor)

    namespace.update(pow=pow, where=where, is_tensor=is_tensor, rsub=_C.rsub)
