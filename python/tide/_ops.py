"""torch's free functions (tide.add(a, b), tide.sum(x, dim=1), ...) as calls of the tensor
method of the same name, so the two spellings cannot drift apart."""

import warnings

from . import _C
from ._arg_errors import raise_translated

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
    "gather", "scatter", "scatter_add", "scatter_reduce", "index_add", "index_copy",
    "index_fill", "clip",
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


# Note [out= by copy]: torch's functions that take out= and have no out form of their own in
# the op table yet. The result is computed as usual and then written into `out` after the
# checks torch makes there (the dtype, the device, no autograd), so `torch.matmul(a, b,
# out=c)` runs unchanged; an out form of its own (written straight into out) replaces the
# entry here when the op table gains it. Values are torch 1.13's dtype rule for the op (each
# read off torch itself: tests/python/test_out.py checks them against it): "same" ops refuse
# an out of another dtype, "cast" ops accept any dtype the result can be cast to (torch's
# canCast), "any" ones (bernoulli's 0s and 1s) write into any dtype, and "dtype" ops (cumsum, cumprod, prod) compute in out's dtype, as their dtype=
# argument does, so the values are those of op(..., dtype=out.dtype). Ops with several
# results (sort, topk, ...) take a tuple of outs, each of its result's dtype.
_OUT_BY_COPY = {
    **dict.fromkeys(["neg", "abs", "clamp", "clip", "nan_to_num", "matmul", "mm", "bmm",
                     "addmm", "index_select", "take", "gather", "scatter", "scatter_add",
                     "scatter_reduce", "index_add", "index_copy", "argmax", "argmin", "amax",
                     "amin", "histc", "masked_select", "nonzero", "isposinf", "isneginf",
                     "signbit", "all", "any", "float_power", "aminmax", "cummax", "cummin",
                     "sort", "topk", "kthvalue", "mode", "median",
                     # the linear algebra of _shapes
                     "addmv", "baddbmm", "addbmm", "diag", "dot", "vdot", "inner", "mv", "tril",
                     "triu"], "same"),
    **dict.fromkeys(["exp", "log", "sqrt", "sigmoid", "tanh", "add", "sub", "mul", "div",
                     "maximum", "minimum", "eq", "ne", "lt", "le", "gt", "ge", "logical_and",
                     "logical_or", "logical_xor", "logical_not", "sum", "mean", "subtract",
                     "multiply", "divide", "not_equal", "less", "less_equal", "greater",
                     "greater_equal", "deg2rad", "rad2deg", "ldexp", "logit", "std", "var",
                     "logsumexp", "norm", "max", "min", "addr", "ger", "outer", "kron"], "cast"),
    **dict.fromkeys(["cumsum", "cumprod", "prod"], "dtype"),
}
def _can_cast(source, target):
    """torch.can_cast for the real dtypes: no floating to integral, no number to bool."""
    if source.is_floating_point and not target.is_floating_point:
        return False
    return source == target or target != _C.bool


def _into_out(name, result, out, rule):
    """`result` written into `out` as torch's out= writes it (Note [out= by copy])."""
    if isinstance(result, tuple):
        if not isinstance(out, (tuple, list)) or len(out) != len(result):
            raise TypeError(f"{name}(): argument 'out' must be tuple of {len(result)} Tensors, "
                            f"not {type(out).__name__}")
        written = [_into_out(name, r, o, "same") for r, o in zip(result, out)]
        return type(result)(*written) if hasattr(result, "_fields") else tuple(written)
    if not isinstance(out, _C.Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if result.requires_grad:
        raise _C.Error(f"[{name}] {name}(): functions with out=... arguments don't support "
                       "automatic differentiation, but one of the arguments requires grad; "
                       "call it under tide.no_grad() or drop out=")
    if out.device != result.device:
        raise _C.Error(f"[{name}] Expected all tensors to be on the same device, but found at "
                       f"least two devices, {result.device} and {out.device}!")
    if rule == "same" and out.dtype != result.dtype:
        raise _C.Error(f"[{name}] Expected out tensor to have dtype {result.dtype}, but got "
                       f"{out.dtype} instead; give out the result's dtype")
    if rule != "any" and not _can_cast(result.dtype, out.dtype):
        raise _C.Error(f"[{name}] result type {result.dtype} can't be cast to the desired "
                       f"output type {out.dtype}")
    if out.shape == result.shape:
        out.copy_(result)
        return out
    if out.numel() != 0:
        warnings.warn(f"An output with one or more elements was resized since it had shape "
                      f"{list(out.shape)}, which does not match the required output shape "
                      f"{list(result.shape)}. This behavior is deprecated, and in a future "
                      "PyTorch release outputs will not be resized unless they have zero "
                      "elements.", UserWarning, stacklevel=3)
    # torch resizes out: it takes the result's shape, keeping its own dtype.
    out.data = result.to(out.dtype)
    return out


def _computed_in(name, out, kwargs):
    """kwargs with dtype=out's dtype, for the "dtype" ops (Note [out= by copy])."""
    if not isinstance(out, _C.Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if out.dtype == _C.bool and name != "prod":
        raise _C.Error(f"[{name}] {name}() into an out of dtype tide.bool is not implemented, "
                       "as in torch; give out a numeric dtype")
    return {"dtype": out.dtype, **kwargs}


def _method_form(name):
    # The try costs nothing until it catches (Note [Argument type errors]).
    if name in _OUT_BY_COPY and name not in _TABLE_OUT_FORMS:
        rule = _OUT_BY_COPY[name]

        def op(input, *args, out=None, **kwargs):
            if out is not None and rule == "dtype":
                kwargs = _computed_in(name, out, kwargs)
            try:
                result = getattr(input, name)(*args, **kwargs)
            except (TypeError, AttributeError) as err:
                _not_a_tensor(name, input, err)
            return result if out is None else _into_out(name, result, out, rule)
    elif name in _TABLE_OUT_FORMS:
        out_form = getattr(_C, f"_{name}_out")

        def op(input, *args, out=None, **kwargs):
            try:
                if out is not None:
                    return out_form(out, input, *args, **kwargs)
                return getattr(input, name)(*args, **kwargs)
            except (TypeError, AttributeError) as err:
                _not_a_tensor(name, input, err)
    else:
        def op(input, *args, **kwargs):
            try:
                return getattr(input, name)(*args, **kwargs)
            except (TypeError, AttributeError) as err:
                _not_a_tensor(name, input, err)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"tide.{name}(input, ...) is input.{name}(...)"
    return op


def _not_a_tensor(name, input, err):
    """torch's TypeError for tide.name(x) with x not a Tensor, or `err` translated."""
    if not isinstance(input, _C.Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, "
                        f"not {type(input).__name__}") from None
    if isinstance(err, TypeError):
        raise_translated(err, name)
    raise err


# Note [Free functions bound directly] (python/src/python_forms.h): the functions (and the
# Tensor methods, as "Tensor.<name>") bound in C++ for their common call; each one's Python
# definition stays here for every other call, which the binding hands to it.
_PYTHON_FORMS = {}


def bind_directly(namespace, name):
    """namespace[name] becomes tide._C's binding; its Python definition takes the other calls."""
    _PYTHON_FORMS[name] = namespace[name]
    namespace[name] = getattr(_C, name)


def install(namespace):
    for name in _METHOD_FORMS + _INPLACE_FUNCTIONS:
        namespace[name] = _method_form(name)
    bind_directly(namespace, "gather")
    def cat(tensors, dim=0, *, out=None):
        result = _C.cat(tensors, dim)
        return result if out is None else _into_out("cat", result, out, "cast")

    def stack(tensors, dim=0, *, out=None):
        result = _C.stack(tensors, dim)
        return result if out is None else _into_out("stack", result, out, "cast")

    namespace["cat"] = namespace["concat"] = cat
    namespace["stack"] = stack

    def pow(input, exponent, *, out=None):
        if isinstance(input, _C.Tensor):
            result = input.pow(exponent)
            # torch 1.13: pow.Tensor_Scalar_out writes its own dtype only, the others cast.
            rule = "cast" if isinstance(exponent, _C.Tensor) else "same"
        else:
            result, rule = _C.pow(input, exponent), "cast"
        return result if out is None else _into_out("pow", result, out, rule)

    def where(condition, input=None, other=None):
        if input is None and other is None:
            return _C.where(condition)  # torch.where(condition): nonzero as a tuple
        return _C.where(condition, input, other)

    def is_tensor(obj):
        return isinstance(obj, _C.Tensor)

    namespace.update(pow=pow, where=where, is_tensor=is_tensor, rsub=_C.rsub)
