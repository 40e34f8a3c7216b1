#!/usr/bin/env python3
"""Writes tests/fixtures/conv_goldens.json: torch's outputs and gradients for tide's
convolution, pooling and batch norm ops (tests/ops/conv_golden_test.cpp reads it).

Run with a Python that has torch (Debian: /usr/bin/python3 with python3-torch, torch 1.13):

    /usr/bin/python3 scripts/gen_conv_goldens.py

Each golden is {"name", "op", "inputs": [tensor or null...], "args": {...}} and either
"outputs" (the op's outputs, then for batch_norm the running statistics after the call) and
"grads" (d(sum(outputs[0] * grad_output))/d(input) for each input, null where the input is
absent or not differentiable) with "grad_output", or "raises" (torch's message, first line).
Tensors are written as in op_goldens.json (scripts/gen_op_goldens.py). Ops and inputs:
  conv2d, conv1d        [input, weight, bias?]; args {stride, padding (ints or a word),
                        dilation, groups}
  max_pool2d            [input]; args {kernel_size, stride, padding, dilation, ceil_mode}:
                        outputs [values, indices]
  avg_pool2d            [input]; args {kernel_size, stride, padding, ceil_mode,
                        count_include_pad, divisor_override}
  adaptive_avg_pool2d   [input]; args {output_size}
  batch_norm            [input, weight?, bias?, running_mean?, running_var?]; args {training,
                        momentum, eps}: outputs [out, running_mean after?, running_var after?]
  batch_norm2d_module   [x1, x2, x3, x_eval, weight, bias]: nn.BatchNorm2d(C, momentum=args.momentum) (None:
                        the cumulative average) trained on x1..x3, then eval() on x_eval:
                        outputs [y1, y2, y3, y_eval, running_mean, running_var,
                        num_batches_tracked]; no gradients
"""

import json
import os

import torch
import torch.nn.functional as F

from gen_op_goldens import tensor_json  # run as a script: its folder is on sys.path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "conv_goldens.json")

GOLDENS = []
_gen = torch.Generator().manual_seed(20261126)


def floats(*shape, dtype=torch.float32):
    """Multiples of 1/8 in [-3, 3]: exact in every float dtype."""
    return (torch.randint(-24, 25, shape, generator=_gen).double() / 8).to(dtype)


def golden(name, op, inputs, args, fn, differentiable=None):
    assert name not in {g["name"] for g in GOLDENS}, name
    inputs = [None if t is None else t.clone() for t in inputs]
    differentiable = differentiable if differentiable is not None else range(len(inputs))
    leaves = [None if t is None else t.clone().requires_grad_(i in differentiable
                                                             and t.is_floating_point())
              for i, t in enumerate(inputs)]
    g = {"name": name, "op": op, "args": args,
         "inputs": [None if t is None else tensor_json(t) for t in inputs]}
    try:
        out = fn(*leaves)
    except (RuntimeError, ValueError) as e:
        g["raises"] = str(e).split("\n")[0]
        GOLDENS.append(g)
        return
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    if op == "batch_norm":  # the running statistics after the call
        outs += [leaves[i].detach() for i in (3, 4) if leaves[i] is not None]
    grad_output = floats(*outs[0].shape, dtype=outs[0].dtype)
    (outs[0] * grad_output).sum().backward()
    g["outputs"] = [tensor_json(o) for o in outs]
    g["grad_output"] = tensor_json(grad_output)
    g["grads"] = [None if t is None or t.grad is None else tensor_json(t.grad) for t in leaves]
    GOLDENS.append(g)


def conv_cases():
    def conv(name, x, w, b, stride=1, padding=0, dilation=1, groups=1, op="conv2d"):
        f = F.conv2d if op == "conv2d" else F.conv1d
        golden(name, op, [x, w, b],
               {"stride": stride, "padding": padding, "dilation": dilation, "groups": groups},
               lambda x, w, b: f(x, w, b, stride, padding, dilation, groups))

    conv("conv2d_basic", floats(2, 3, 7, 6), floats(4, 3, 3, 3), floats(4))
    conv("conv2d_stride_padding_dilation", floats(2, 3, 9, 8), floats(5, 3, 3, 2), floats(5),
         stride=[2, 1], padding=[1, 2], dilation=[2, 1])
    conv("conv2d_groups", floats(2, 4, 6, 6), floats(6, 2, 3, 3), floats(6), groups=2)
    conv("conv2d_depthwise", floats(1, 3, 5, 5), floats(3, 1, 3, 3), None, padding=1, groups=3)
    conv("conv2d_no_bias_strided", floats(3, 2, 8, 7), floats(4, 2, 2, 3), None, stride=2)
    conv("conv2d_same_even_kernel", floats(1, 2, 6, 5), floats(3, 2, 4, 2), floats(3),
         padding="same")
    conv("conv2d_same_dilated", floats(2, 2, 7, 6), floats(3, 2, 3, 3), floats(3),
         padding="same", dilation=2)
    conv("conv2d_valid", floats(1, 2, 6, 5), floats(3, 2, 3, 3), floats(3), padding="valid")
    conv("conv2d_unbatched", floats(3, 5, 6), floats(2, 3, 3, 3), floats(2), padding=1)
    conv("conv2d_float64", floats(2, 3, 6, 5, dtype=torch.float64),
         floats(4, 3, 3, 2, dtype=torch.float64), floats(4, dtype=torch.float64), stride=[1, 2],
         padding=1)
    conv("conv2d_wide_channels", floats(2, 16, 10, 10), floats(32, 16, 3, 3), floats(32),
         padding=1)
    conv("conv1d_basic", floats(2, 3, 10), floats(4, 3, 3), floats(4), stride=2, padding=1,
         op="conv1d")
    conv("conv1d_same", floats(3, 11), floats(2, 3, 4), None, padding=[1], dilation=[2],
         op="conv1d")
    conv("conv2d_channel_mismatch_rejected", floats(2, 5, 6, 6), floats(4, 3, 3, 3), None)
    conv("conv2d_same_strided_rejected", floats(1, 2, 6, 6), floats(3, 2, 3, 3), None, stride=2,
         padding="same")
    conv("conv2d_kernel_too_large_rejected", floats(1, 2, 2, 2), floats(3, 2, 3, 3), None)


def pool_cases():
    def maxp(name, x, k, stride=None, padding=0, dilation=1, ceil_mode=False):
        stride = stride if stride is not None else []
        golden(name, "max_pool2d", [x], {"kernel_size": k, "stride": stride, "padding": padding,
                                          "dilation": dilation, "ceil_mode": ceil_mode},
               lambda x: F.max_pool2d(x, k, stride or None, padding, dilation, ceil_mode,
                                      return_indices=True))

    maxp("max_pool2d_basic", floats(2, 3, 6, 6), 2)
    maxp("max_pool2d_stride_padding", floats(2, 3, 7, 8), 3, stride=2, padding=1)
    maxp("max_pool2d_ceil_mode", floats(1, 2, 7, 7), 2, stride=2, ceil_mode=True)
    maxp("max_pool2d_dilation", floats(1, 2, 9, 8), [3, 2], stride=[1, 2], padding=[1, 0],
         dilation=[2, 1])
    maxp("max_pool2d_unbatched", floats(3, 5, 5), 3, stride=1, padding=1)
    maxp("max_pool2d_pad_too_large_rejected", floats(1, 1, 5, 5), 2, padding=2)

    def avgp(name, x, k, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
             divisor_override=None):
        stride = stride if stride is not None else []
        golden(name, "avg_pool2d", [x],
               {"kernel_size": k, "stride": stride, "padding": padding, "ceil_mode": ceil_mode,
                "count_include_pad": count_include_pad, "divisor_override": divisor_override},
               lambda x: F.avg_pool2d(x, k, stride or None, padding, ceil_mode,
                                      count_include_pad, divisor_override))

    avgp("avg_pool2d_basic", floats(2, 3, 6, 6), 2)
    avgp("avg_pool2d_padding_include", floats(2, 2, 7, 6), 3, stride=2, padding=1)
    avgp("avg_pool2d_padding_exclude", floats(2, 2, 7, 6), 3, stride=2, padding=1,
         count_include_pad=False)
    avgp("avg_pool2d_ceil_mode", floats(1, 2, 7, 7), [3, 2], stride=2, padding=[1, 0],
         ceil_mode=True)
    avgp("avg_pool2d_divisor_override", floats(1, 2, 6, 6), 3, stride=1, divisor_override=5)

    def adaptive(name, x, size):
        golden(name, "adaptive_avg_pool2d", [x], {"output_size": size},
               lambda x: F.adaptive_avg_pool2d(x, size))

    adaptive("adaptive_avg_pool2d_uneven", floats(2, 3, 7, 9), [3, 4])
    adaptive("adaptive_avg_pool2d_global", floats(2, 3, 5, 6), 1)
    adaptive("adaptive_avg_pool2d_upsampling", floats(1, 2, 3, 2), [5, 4])
    adaptive("adaptive_avg_pool2d_unbatched", floats(3, 6, 6), [2, 3])


def batch_norm_cases():
    def bn(name, x, weight, bias, rm, rv, training, momentum=0.1, eps=1e-5):
        golden(name, "batch_norm", [x, weight, bias, rm, rv],
               {"training": training, "momentum": momentum, "eps": eps},
               lambda x, w, b, m, v: F.batch_norm(x, m, v, w, b, training, momentum, eps),
               differentiable=[0, 1, 2])

    def positive(c):
        return floats(c).abs() + 0.5

    bn("batch_norm_training", floats(4, 3, 5, 5), floats(3), floats(3), floats(3), positive(3),
       True)
    bn("batch_norm_training_momentum", floats(3, 2, 4, 3), floats(2), floats(2), floats(2),
       positive(2), True, momentum=0.3, eps=1e-3)
    bn("batch_norm_training_no_affine_no_stats", floats(5, 4, 3, 3), None, None, None, None,
       True)
    bn("batch_norm_training_2d_input", floats(6, 3), floats(3), floats(3), floats(3),
       positive(3), True)
    bn("batch_norm_eval", floats(4, 3, 5, 5), floats(3), floats(3), floats(3), positive(3),
       False)
    bn("batch_norm_eval_float64", floats(2, 3, 4, 4, dtype=torch.float64),
       floats(3, dtype=torch.float64), floats(3, dtype=torch.float64),
       floats(3, dtype=torch.float64), positive(3).double(), False)
    bn("batch_norm_one_value_per_channel_rejected", floats(1, 3), None, None, floats(3),
       positive(3), True)


def module_cases():
    for name, momentum in (("batch_norm2d_module", 0.1), ("batch_norm2d_module_cumulative", None)):
        xs = [floats(4, 3, 3, 2) for _ in range(4)]
        bn = torch.nn.BatchNorm2d(3, momentum=momentum)
        with torch.no_grad():
            bn.weight.copy_(floats(3))
            bn.bias.copy_(floats(3))
        ys = [bn(x) for x in xs[:3]]
        bn.eval()
        ys.append(bn(xs[3]))
        outs = ys + [bn.running_mean, bn.running_var, bn.num_batches_tracked]
        GOLDENS.append({"name": name, "op": "batch_norm2d_module",
                        "inputs": [tensor_json(x) for x in xs + [bn.weight, bn.bias]],
                        "args": {"momentum": momentum},
                        "outputs": [tensor_json(o) for o in outs]})


def main():
    module_cases()
    conv_cases()
    pool_cases()
    batch_norm_cases()
    with open(OUT, "w") as f:
        json.dump(GOLDENS, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {len(GOLDENS)} goldens to {OUT}")


if __name__ == "__main__":
    main()
