"""torch's free functions (tide.add(a, b), tide.sum(x, dim=1), ...) as calls of the tensor
method of the same name, so the two spellings cannot drift apart."""

from . import _C
from ._arg_errors import raise_translated

# @generated begin method-forms (scripts/gen_ops.py from src/ops/ops.yaml: `python: method`)
_TABLE_METHOD_FORMS = [
    "neg", "abs", "exp", "log", "sqrt", "relu", "sigmoid", "tanh", "sin", "add", "sub", "mul",
    "div", "maximum", "minimum", "atan2", "eq", "ne", "lt", "le", "gt", "ge", "lerp", "cos",
    "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "exp2", "expm1",
    "log2", "log10", "log1p", "rsqrt", "reciprocal", "erf", "erfc", "erfinv", "sign", "sgn",
    "floor", "ceil", "round", "trunc", "frac", "square", "bitwise_not", "fmod", "remainder",
    "floor_divide", "fmax", "fmin", "hypot", "logaddexp", "copysign", "bitwise_and",
    "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift", "logical_and",
    "logical_or", "logical_xor", "logical_not", "isnan", "isinf", "isfinite", "nan_to_num",
    "clamp_min", "clamp_max", "addcmul", "addcdiv",
]
_TABLE_OUT_FORMS = [
    "sin", "atan2", "lerp", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh",
    "acosh", "atanh", "exp2", "expm1", "log2", "log10", "log1p", "rsqrt", "reciprocal", "erf",
    "erfc", "erfinv", "sign", "sgn", "floor", "ceil", "round", "trunc", "frac", "square",
    "bitwise_not", "fmod", "remainder", "floor_divide", "fmax", "fmin", "hypot", "logaddexp",
    "copysign", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
    "bitwise_right_shift", "clamp_min", "clamp_max", "addcmul", "addcdiv",
]
# @generated end method-forms

_METHOD_FORMS = _TABLE_METHOD_FORMS + [
    "clamp", "sum", "mean",
    "max", "min", "argmax", "argmin", "matmul", "mm", "bmm", "addmm", "softmax", "log_softmax",
    "flatten", "transpose", "t", "narrow", "select", "unsqueeze", "squeeze", "chunk", "split",
    "index_select", "reshape", "permute", "clone", "numel", "is_floating_point", "detach",
    "nonzero", "take", "put", "index_put", "masked_select", "masked_fill", "masked_scatter",
    "gather", "scatter", "scatter_add", "index_add", "index_copy", "index_fill",
]


def _method_form(name):
    # The try costs nothing until it catches (Note [Argument type errors]).
    if name in _TABLE_OUT_FORMS:
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


def install(namespace):
    for name in _METHOD_FORMS:
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

    namespace.update(pow=pow, where=where, is_tensor=is_tensor)
