#!/usr/bin/env python3
"""Writes tests/fixtures/print_goldens.json: torch's repr of deterministic tensors, module prefix "tide.".

Run with a Python that has torch (Debian: /usr/bin/python3 with python3-torch, torch 1.13):

    /usr/bin/python3 scripts/gen_print_goldens.py

Each golden is {"name", "dtype", "shape", "values", "expected"} plus optional
"permute" (the printed tensor is the built one permuted, i.e. a non-contiguous view) and
"device" (the device the tensor is printed as living on). Values are the flat row-major list
of the built tensor; non-finite floats are the strings "nan", "inf", "-inf". Every value is
exactly representable in the golden's dtype, so any conversion path rebuilds the same bits.

Note [tide's name in the repr]
"tide." is one character shorter than "torch.", and torch's _add_suffixes decides whether a
suffix such as "dtype=torch.float64" still fits on the last line by its length. The contract is
torch's repr to the character with the module renamed, so the goldens are torch's text with
"torch." replaced, and tide measures a dtype suffix as torch spells it. The script lists the
cases where torch's algorithm fed tide's shorter names would have placed a suffix differently
(the suffix_boundary_* goldens pin that choice).

Device suffixes: torch prints device='...' for every tensor whose device type differs from the
default device type (cpu). To produce those goldens without a GPU, the same redirection spells
the cpu device as the requested device and makes torch believe the default device type is
something else, so torch's own code builds and places the suffix.
"""

import builtins
import json
import math
import os
import sys

import torch
import torch._tensor_str as tensor_str_module

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "print_goldens.json")

from golden_dtypes import DTYPES, DTYPE_NAMES  # run as a script: its folder is on sys.path

_shown_device = None  # when set, the device string torch prints for our (cpu) tensor


_rename_dtypes = False  # when set, torch's code spells dtypes "tide.<name>" itself


def _redirected_str(x):
    if isinstance(x, torch.dtype) and _rename_dtypes:
        return builtins.str(x).replace("torch.", "tide.")
    if isinstance(x, torch.device) and _shown_device is not None:
        return _shown_device
    return builtins.str(x)


def torch_repr(t, device=None, rename_dtypes=False):
    """repr(t) computed by torch's own code; `device` is the device string it shows for t."""
    global _shown_device, _rename_dtypes
    saved_default_device = torch._C._get_default_device
    tensor_str_module.str = _redirected_str
    try:
        _rename_dtypes = rename_dtypes
        if device is not None:
            _shown_device = device
            torch._C._get_default_device = lambda: "no-such-device-type"
        return repr(t)
    finally:
        _shown_device = None
        _rename_dtypes = False
        torch._C._get_default_device = saved_default_device
        del tensor_str_module.str


def tide_repr(t, device=None):
    """torch's text with the module renamed (Note [tide's name in the repr])."""
    return torch_repr(t, device).replace("torch.", "tide.")


def flat_values(t):
    flat = t.reshape(-1)
    if t.dtype.is_floating_point:
        out = []
        for v in flat.double().tolist():
            if math.isnan(v):
                out.append("nan")
            elif math.isinf(v):
                out.append("inf" if v > 0 else "-inf")
            else:
                out.append(v)
        return out
    return flat.tolist()


GOLDENS = []
TEXTUAL_DIFFERENCES = []


def case(name, t, permute=None, device=None, options=None):
    """`options`: torch.set_printoptions arguments in force for this repr (then the defaults
    come back), stored as the golden's "options"."""
    shown = t.permute(*permute) if permute is not None else t
    if options is not None:
        torch.set_printoptions(**options)
    try:
        expected = tide_repr(shown, device)
    finally:
        torch.set_printoptions(profile="default")
    g = {
        "name": name,
        "dtype": DTYPE_NAMES[t.dtype],
        "shape": list(t.shape),
        "values": flat_values(t),
        "expected": expected,
    }
    if permute is not None:
        g["permute"] = list(permute)
    if device is not None:
        g["device"] = device
    if options is not None:
        g["options"] = {k: (str(v) if v == inf else v) for k, v in options.items()}
    assert all(c.isalnum() or c == "_" for c in name), name
    assert name not in {x["name"] for x in GOLDENS}, name
    GOLDENS.append(g)
    if options is not None:
        torch.set_printoptions(**options)
    try:
        if torch_repr(shown, device, rename_dtypes=True) != expected:
            TEXTUAL_DIFFERENCES.append(name)
    finally:
        torch.set_printoptions(profile="default")


def T(values, dtype):
    return torch.tensor(values, dtype=DTYPES[dtype])


nan, inf = float("nan"), float("inf")


def build():
    # ---- 0-dim
    case("scalar_float_fraction", T(3.5, "float32"))
    case("scalar_float_integer", T(3.0, "float32"))
    case("scalar_float_zero", T(0.0, "float32"))
    case("scalar_float_negative_zero", T(-0.0, "float32"))
    case("scalar_float_nan", T(nan, "float32"))
    case("scalar_float_inf", T(inf, "float32"))
    case("scalar_float_minus_inf", T(-inf, "float32"))
    case("scalar_float_tiny_is_scientific", T(1e-5, "float32"))
    case("scalar_double_huge_is_scientific", T(123456789.0, "float64"))
    case("scalar_double_negative", T(-2.71828, "float64"))
    case("scalar_int64", T(7, "int64"))
    case("scalar_int32", T(-7, "int32"))
    case("scalar_uint8", T(255, "uint8"))
    case("scalar_bool_true", T(True, "bool"))
    case("scalar_bool_false", T(False, "bool"))
    case("scalar_half", T(0.1, "float16"))
    case("scalar_bfloat16", T(0.1, "bfloat16"))

    # ---- 1-d, float formatter modes
    case("floats_integral", T([1.0, 2.0, 3.0], "float32"))
    case("floats_fixed", T([1.5, -2.25, 3.125], "float32"))
    case("floats_fixed_tenths", T([0.1, 0.2, 0.3], "float32"))
    case("floats_one_element", T([1.0], "float32"))
    case("floats_integral_negative_widths", T([-1.0, 10.0], "float32"))
    case("floats_integral_ratio_exactly_1000_is_not_scientific", T([1000.0, 1.0], "float32"))
    case("floats_integral_ratio_above_1000_is_scientific", T([1001.0, 1.0], "float32"))
    case("floats_integral_1e8_is_not_scientific", T([1e8], "float32"))
    case("floats_integral_above_1e8_is_scientific", T([2e8], "float32"))
    case("floats_fixed_above_1e8_is_scientific", T([1.5e8, 2.5e8], "float64"))
    case("floats_small_is_scientific", T([1e-5, 1.0], "float32"))
    case("floats_fixed_ratio_above_1000_is_scientific", T([0.5, 600.25], "float32"))
    case("floats_fixed_ratio_below_1000", T([0.5, 499.75], "float32"))
    case("float32_1e_4_is_below_1e_4", T([0.0001, 0.0002], "float32"))
    case("float64_1e_4_is_not_below_1e_4", T([0.0001, 0.0002], "float64"))
    case("floats_ties_round_half_even_fixed", T([0.03125, 0.09375, -0.15625], "float64"))
    case("floats_ties_round_half_even_scientific", T([1.03125, 20000.0], "float64"))
    case("floats_rounding_carries", T([9.99995, 0.99999, 1.5], "float64"))
    case("floats_third", T([1.0 / 3.0, 2.0 / 3.0], "float64"))
    case("floats_large_fixed", T([12345.678, -0.5, 100.0], "float32"))
    case("floats_all_zero", T([0.0, 0.0], "float32"))
    case("floats_negative_zero_with_zero", T([-0.0, 0.0], "float32"))
    case("floats_negative_zero_with_fraction", T([-0.0, 1.5], "float32"))
    case("floats_negative_zero_with_integers", T([-0.0, 12.0], "float32"))
    case("floats_nonfinite_with_integers", T([1.0, nan, inf, -inf], "float32"))
    case("floats_nonfinite_with_fraction", T([1.5, nan, -inf], "float32"))
    case("floats_nonfinite_with_scientific", T([1e-5, nan, 2.0, inf], "float32"))
    case("floats_only_nan", T([nan, nan], "float32"))
    case("floats_only_infinities", T([inf, -inf], "float32"))
    case("floats_nonfinite_and_zero", T([0.0, nan], "float32"))
    case("floats_negative_scientific", T([-1e-7, 3e5, -42.0], "float64"))
    case("floats_huge_double_exponent", T([1e100, -1e-100], "float64"))

    # ---- 1-d, other dtypes
    case("bools", T([True, False], "bool"))
    case("bools_all_true", T([True, True, True], "bool"))
    case("int64s", T([1, 2, 3], "int64"))
    case("int64s_mixed_widths", T([-100, 5, 12345], "int64"))
    case("int64_extremes", T([-(2**63), 2**63 - 1], "int64"))
    case("int32s", T([1, 2], "int32"))
    case("int32_extremes", T([-(2**31), 2**31 - 1, 0], "int32"))
    case("uint8s", T([0, 255, 7], "uint8"))
    case("halfs", T([0.1, 1000.0, 65504.0], "float16"))
    case("halfs_integral", T([1.0, 2.0, -3.0], "float16"))
    case("halfs_nonfinite", T([inf, nan, 0.5], "float16"))
    case("halfs_subnormal_is_scientific", T([6e-8, 1.0], "float16"))
    case("bfloat16s", T([0.1, 3.0, -7.5], "bfloat16"))
    case("bfloat16s_huge_is_scientific", T([1e30, 1.0], "bfloat16"))
    case("doubles", T([1.5, 2.5], "float64"))
    case("doubles_integral", T([1.0, 2.0], "float64"))

    # ---- empty
    case("empty_float", torch.zeros(0))
    case("empty_int64", torch.zeros(0, dtype=torch.int64))
    case("empty_bool", torch.zeros(0, dtype=torch.bool))
    case("empty_float64", torch.zeros(0, dtype=torch.float64))
    case("empty_2d", torch.zeros(2, 0))
    case("empty_3d_int32", torch.zeros(2, 0, 3, dtype=torch.int32))
    case("empty_leading_zero", torch.zeros(0, 4))

    # ---- line wrapping of long rows
    case("wrap_int64_100", torch.arange(100))
    case("wrap_float_fixed_30", torch.arange(30, dtype=torch.float32) * 1.5)
    case("wrap_float_integral_40", torch.arange(40, dtype=torch.float32))
    case("wrap_float_scientific_20", (torch.arange(20, dtype=torch.float64) + 1) * 1e-6)
    case("wrap_bool_40", torch.arange(40) % 3 == 0)
    case("wrap_int32_with_suffix", torch.arange(60, dtype=torch.int32) * 7)
    case("wrap_2d_rows", (torch.arange(60, dtype=torch.float32) * 0.25).reshape(3, 20))
    case("wrap_3d_rows", torch.arange(2 * 2 * 30).reshape(2, 2, 30))
    # where the dtype suffix goes on the same line or a new one
    for n in range(4, 16):
        case(f"suffix_fit_float64_{n}", torch.arange(n, dtype=torch.float64) * 1.25)
    for n in range(20, 30):
        case(f"suffix_fit_int32_{n}", torch.arange(n, dtype=torch.int32) + 100)
    for n in range(6, 13):
        case(f"suffix_fit_uint8_{n}", (torch.arange(n) * 17 + 100).to(torch.uint8))
    # a last line of 57 (1-d bfloat16) or 58 characters (float64 matrix): torch's suffix no
    # longer fits, tide's one character shorter spelling would (Note [tide's name in the repr])
    case("suffix_boundary_bfloat16", (torch.arange(10) + 10).to(torch.bfloat16))
    case("suffix_boundary_float64_matrix", (torch.arange(14, dtype=torch.float64) + 1000).reshape(2, 7))
    case("suffix_boundary_with_device", (torch.arange(10) + 10).to(torch.bfloat16), device="cuda:0")

    # ---- nesting
    case("matrix_int64", T([[1, 2], [3, 4]], "int64"))
    case("matrix_one_row", T([[1, 2, 3]], "int64"))
    case("matrix_float", T([[1.5, 2.0], [3.0, 4.0]], "float32"))
    case("matrix_float_integral", T([[-5.0, -5.0], [-5.0, -5.0], [-5.0, -5.0]], "float32"))
    case("matrix_bool", T([[True, False], [False, True]], "bool"))
    case("matrix_column", T([[1.0], [2.0], [3.0]], "float32"))
    case("cube_float", torch.arange(24, dtype=torch.float32).reshape(2, 3, 4))
    case("cube_half", (torch.arange(12, dtype=torch.float32) * 0.5).reshape(2, 3, 2).half())
    case("four_d_int64", torch.arange(16).reshape(2, 2, 2, 2))
    case("five_d_int32", torch.arange(32, dtype=torch.int32).reshape(2, 2, 2, 2, 2))
    case("size_one_dims", torch.arange(3, dtype=torch.float32).reshape(1, 3, 1))
    case("transposed_matrix", torch.arange(6, dtype=torch.float32).reshape(2, 3), permute=(1, 0))
    case("permuted_cube", torch.arange(24).reshape(2, 3, 4), permute=(2, 0, 1))

    # ---- summarization (more than 1000 elements)
    case("summarized_1001_int64", torch.arange(1001))
    case("summarized_1000_is_not_summarized_int64", torch.arange(1000))
    case("summarized_floats", torch.arange(1001, dtype=torch.float32) * 0.5)
    case("summarized_2d_both_dims", torch.arange(1020, dtype=torch.float32).reshape(30, 34))
    case("summarized_2d_short_rows", torch.arange(1002).reshape(2, 501))
    case("summarized_2d_short_columns", torch.arange(1002, dtype=torch.float64).reshape(334, 3))
    case("summarized_3d", (torch.arange(1100, dtype=torch.float32) * 0.25).reshape(10, 10, 11))
    case("summarized_4d_int32", torch.arange(2 * 7 * 8 * 9, dtype=torch.int32).reshape(2, 7, 8, 9))
    case("summarized_bool", torch.arange(1002) % 3 == 0)
    case("summarized_scientific", (torch.arange(1001, dtype=torch.float64) + 1) * 1e-7)
    hidden = torch.arange(1001, dtype=torch.float32) * 0.5
    hidden[500] = 1e10
    hidden[501] = float("nan")
    case("summarized_formatter_ignores_hidden_values", hidden)
    wide = torch.arange(1001)
    wide[500] = -(10**12)
    case("summarized_int_width_ignores_hidden_values", wide)

    # ---- device suffix (torch's own code, cpu spelled as the device; see the docstring)
    case("device_float", T([[-5.0, -5.0], [-5.0, -5.0], [-5.0, -5.0]], "float32"), device="cuda:0")
    case("device_before_dtype", T([1.0], "float64"), device="cuda:0")
    case("device_int64", T([[1, 2, 3]], "int64"), device="cuda:1")
    case("device_scalar", T(2.5, "float32"), device="cuda:0")
    case("device_empty", torch.zeros(2, 0, dtype=torch.int32), device="cuda:0")
    case("device_wraps_to_new_line", torch.arange(23, dtype=torch.int32) + 100, device="cuda:0")
    case("device_summarized", torch.arange(1001), device="cuda:0")

    # ---- torch.set_printoptions (profile= is expanded by the Python binding, so the goldens
    # hold the four numbers and sci_mode it sets)
    fractions = T([[1.125, -2.5, 3.0625], [100.5, 0.0, -0.25]], "float64")
    case("options_precision_2", fractions, options={"precision": 2})
    case("options_precision_8", fractions, options={"precision": 8})
    case("options_precision_0", fractions, options={"precision": 0})
    case("options_sci_mode_true", fractions, options={"sci_mode": True})
    case("options_sci_mode_true_int_mode", T([1.0, 20.0, 300.0], "float32"),
         options={"sci_mode": True})
    case("options_sci_mode_false", T([1e-6, 2.5, 3e9], "float64"), options={"sci_mode": False})
    case("options_sci_mode_true_all_zero", T([0.0, 0.0], "float32"), options={"sci_mode": True})
    case("options_sci_mode_true_precision_2_scalar", T(1234.5, "float32"),
         options={"sci_mode": True, "precision": 2})
    case("options_threshold_5", torch.arange(12, dtype=torch.int64).reshape(3, 4),
         options={"threshold": 5})
    case("options_threshold_5_edgeitems_1", torch.arange(24, dtype=torch.float32).reshape(2, 3, 4),
         options={"threshold": 5, "edgeitems": 1})
    case("options_threshold_infinite", torch.arange(1200, dtype=torch.int32),
         options={"threshold": inf})
    case("options_linewidth_30", torch.arange(20, dtype=torch.float32) * 1.5,
         options={"linewidth": 30})
    case("options_linewidth_20_suffix", T([1.0, 2.0, 3.0], "float64"), options={"linewidth": 20})
    case("options_short_profile_numbers", (torch.arange(2000, dtype=torch.float32) / 3),
         options={"precision": 2, "threshold": 1000, "edgeitems": 2, "linewidth": 80})


def main():
    build()
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(GOLDENS, f, indent=None, separators=(",", ":"), allow_nan=False)
        f.write("\n")
    print(f"wrote {len(GOLDENS)} goldens to {OUT} with torch {torch.__version__}")
    if TEXTUAL_DIFFERENCES:
        print("cases where torch's algorithm fed tide's names would differ (Note [tide's name in the repr]):")
        for name in TEXTUAL_DIFFERENCES:
            print("  ", name)


if __name__ == "__main__":
    sys.exit(main())
