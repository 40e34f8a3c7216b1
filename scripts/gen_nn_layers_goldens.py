#!/usr/bin/python3
"""Writes tests/fixtures/nn_layers_goldens.json: what torch 1.13 (Debian's python3-torch)
computes for the activations, padding layers, losses, pooling, normalization, reshaping and
recurrent layers of tide.nn that draw no random numbers (or none in eval mode).
tests/python/test_nn_layers.py compares tide against it.

    /usr/bin/python3 scripts/gen_nn_layers_goldens.py

Each case is one line of Python, "call", that both torch and tide evaluate with their own
``nn`` and ``F``, the inputs x0, x1, ... and, when "module" is given, m: that module built by
the same line of text, put in eval mode when "eval", and given "state" (its state_dict, from
torch) before the call. A case holds the inputs ({"dtype", "shape", "values",
"requires_grad"}), the outputs "out" (the call's tensors, a nested tuple flattened in order),
and "grads": the gradients of sum(out_i * w_i) (w_i: "weights", one per floating output) with
respect to each input that requires grad and, as "param_grads", to the module's parameters;
"state_after" is the module's state_dict after the call (BatchNorm's running statistics).
A case whose call raises holds torch's "error" (type name) and "message" instead; one whose
backward raises, "backward_error" and no gradients.
"""

import json
import math
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "nn_layers_goldens.json")

# Input kinds: "randn" (normal), "pos" (uniform in [0.1, 2]), "sign" (-1 or 1), "binary"
# (0 or 1), "int:N" (int64 in [0, N)), "weight" ("pos" without requires_grad).
ACT = [(2, 3, 4)]
CASES = [
    # activations, as modules and functions
    ("relu6", "nn.ReLU6()(x0 * 4)", None, ACT),
    ("f_relu6", "F.relu6(x0 * 4)", None, ACT),
    ("selu", "nn.SELU()(x0)", None, ACT),
    ("f_selu", "F.selu(x0)", None, ACT),
    ("celu", "nn.CELU(alpha=0.7)(x0)", None, ACT),
    ("f_celu", "F.celu(x0, 1.5)", None, ACT),
    ("hardsigmoid", "nn.Hardsigmoid()(x0 * 4)", None, ACT),
    ("f_hardsigmoid", "F.hardsigmoid(x0 * 4)", None, ACT),
    ("hardswish", "nn.Hardswish()(x0 * 4)", None, ACT),
    ("f_hardswish", "F.hardswish(x0 * 4)", None, ACT),
    ("hardshrink", "nn.Hardshrink(0.6)(x0)", None, ACT),
    ("f_hardshrink", "F.hardshrink(x0)", None, ACT),
    ("softshrink", "nn.Softshrink(0.6)(x0)", None, ACT),
    ("f_softshrink", "F.softshrink(x0)", None, ACT),
    ("softsign", "nn.Softsign()(x0)", None, ACT),
    ("f_softsign", "F.softsign(x0)", None, ACT),
    ("tanhshrink", "nn.Tanhshrink()(x0)", None, ACT),
    ("f_tanhshrink", "F.tanhshrink(x0)", None, ACT),
    ("threshold", "nn.Threshold(0.3, -2.0)(x0)", None, ACT),
    ("f_threshold", "F.threshold(x0, -0.2, 5.0)", None, ACT),
    ("logsigmoid", "nn.LogSigmoid()(x0 * 10)", None, ACT),
    ("f_logsigmoid", "F.logsigmoid(x0 * 10)", None, ACT),
    ("softmin", "nn.Softmin(dim=1)(x0)", None, ACT),
    ("f_softmin", "F.softmin(x0, dim=-1)", None, ACT),
    ("glu", "nn.GLU()(x0)", None, [(2, 3, 4)]),
    ("f_glu_dim1", "F.glu(x0, 1)", None, [(2, 4, 3)]),
    ("rrelu_eval", "m(x0)", ("nn.RReLU(0.1, 0.3)", True), ACT),
    ("f_rrelu_eval", "F.rrelu(x0, 0.2, 0.4, training=False)", None, ACT),
    ("f_elu_", "F.elu_(x0.clone(), 0.5)", None, ACT),
    ("f_leaky_relu_", "F.leaky_relu_(x0.clone(), 0.2)", None, ACT),
    ("f_hardtanh_", "F.hardtanh_(x0.clone(), -0.5, 0.5)", None, ACT),
    ("f_relu_", "F.relu_(x0.clone())", None, ACT),
    ("f_threshold_", "F.threshold_(x0.clone(), 0.1, 2.0)", None, ACT),
    ("f_selu_", "F.selu_(x0.clone())", None, ACT),
    ("f_celu_", "F.celu_(x0.clone(), 2.0)", None, ACT),
    # padding layers
    ("constant_pad1d", "nn.ConstantPad1d(2, 3.5)(x0)", None, [(2, 3, 4)]),
    ("constant_pad1d_tuple", "nn.ConstantPad1d((1, -1), 3.5)(x0)", None, [(3, 4)]),
    ("constant_pad2d", "nn.ConstantPad2d((1, 0, 2, 1), -1.0)(x0)", None, [(1, 2, 3, 3)]),
    ("constant_pad3d", "nn.ConstantPad3d(1, 0.5)(x0)", None, [(1, 1, 2, 2, 2)]),
    ("zero_pad2d", "nn.ZeroPad2d((1, 2, 0, 1))(x0)", None, [(2, 3, 3)]),
    ("reflection_pad1d", "nn.ReflectionPad1d((2, 1))(x0)", None, [(2, 3, 4)]),
    ("reflection_pad2d", "nn.ReflectionPad2d(1)(x0)", None, [(1, 2, 3, 3)]),
    ("reflection_pad3d", "nn.ReflectionPad3d((1, 0, 1, 1, 0, 1))(x0)", None, [(1, 1, 2, 3, 3)]),
    ("replication_pad1d", "nn.ReplicationPad1d(3)(x0)", None, [(2, 3, 4)]),
    ("replication_pad2d", "nn.ReplicationPad2d((0, 2, 1, 1))(x0)", None, [(2, 3, 3)]),
    ("replication_pad3d", "nn.ReplicationPad3d(1)(x0)", None, [(1, 1, 2, 2, 2)]),
    # reshaping, distances
    ("unflatten", "nn.Unflatten(1, (2, 3))(x0)", None, [(2, 6, 2)]),
    ("unflatten_neg", "nn.Unflatten(-1, (2, -1))(x0)", None, [(2, 6)]),
    ("cosine_similarity", "nn.CosineSimilarity(dim=1)(x0, x1)", None, [(3, 4), (3, 4)]),
    ("pairwise_distance", "nn.PairwiseDistance(p=1.5, keepdim=True)(x0, x1)", None,
     [(3, 4), (3, 4)]),
    ("pixel_shuffle", "nn.PixelShuffle(2)(x0)", None, [(1, 8, 2, 3)]),
    ("f_pixel_shuffle", "F.pixel_shuffle(x0, 2)", None, [(8, 2, 2)]),
    ("pixel_unshuffle", "nn.PixelUnshuffle(2)(x0)", None, [(1, 2, 4, 6)]),
    ("f_pixel_unshuffle", "F.pixel_unshuffle(x0, 3)", None, [(2, 1, 3, 6)]),
    ("channel_shuffle", "nn.ChannelShuffle(2)(x0)", None, [(1, 6, 2, 2)]),
    ("f_channel_shuffle", "F.channel_shuffle(x0, 3)", None, [(2, 6, 2)]),
    # dropout in eval mode (the identity) and with p = 0
    ("dropout1d_eval", "m(x0)", ("nn.Dropout1d(0.5)", True), [(2, 3, 4)]),
    ("dropout2d_eval", "m(x0)", ("nn.Dropout2d(0.5)", True), [(2, 3, 2, 2)]),
    ("dropout3d_eval", "m(x0)", ("nn.Dropout3d(0.5)", True), [(2, 3, 2, 2, 1)]),
    ("alpha_dropout_eval", "m(x0)", ("nn.AlphaDropout(0.3)", True), [(2, 3)]),
    ("feature_alpha_dropout_eval", "m(x0)", ("nn.FeatureAlphaDropout(0.3)", True),
     [(2, 3, 2)]),
    ("f_dropout2d_p0", "F.dropout2d(x0, 0.0)", None, [(2, 3, 2, 2)]),
    ("f_alpha_dropout_eval", "F.alpha_dropout(x0, 0.5, training=False)", None, [(2, 3)]),
    # losses
    ("hinge_embedding", "nn.HingeEmbeddingLoss(margin=0.5)(x0, x1)", None,
     [(3, 4), ("sign", (3, 4))]),
    ("f_hinge_embedding_sum", "F.hinge_embedding_loss(x0, x1, reduction='sum')", None,
     [(5,), ("sign", (5,))]),
    ("soft_margin", "nn.SoftMarginLoss()(x0, x1)", None, [(3, 4), ("sign", (3, 4))]),
    ("f_soft_margin_none", "F.soft_margin_loss(x0, x1, reduction='none')", None,
     [(3, 4), ("sign", (3, 4))]),
    ("multilabel_soft_margin", "nn.MultiLabelSoftMarginLoss()(x0, x1)", None,
     [(3, 4), ("binary", (3, 4))]),
    ("f_multilabel_soft_margin_weight",
     "F.multilabel_soft_margin_loss(x0, x1, weight=x2, reduction='none')", None,
     [(3, 4), ("binary", (3, 4)), ("weight", (4,))]),
    ("poisson_nll", "nn.PoissonNLLLoss()(x0, x1)", None, [(3, 4), ("pos", (3, 4))]),
    ("poisson_nll_full_no_log", "nn.PoissonNLLLoss(log_input=False, full=True)(x0, x1)", None,
     [("pos", (3, 4)), ("pos", (3, 4))]),
    ("f_poisson_nll_sum", "F.poisson_nll_loss(x0, x1 * 3, reduction='sum')", None,
     [(3, 4), ("pos", (3, 4))]),
    ("gaussian_nll", "nn.GaussianNLLLoss()(x0, x1, x2)", None,
     [(3, 4), (3, 4), ("pos", (3, 4))]),
    ("gaussian_nll_full_var1", "nn.GaussianNLLLoss(full=True, eps=0.5)(x0, x1, x2)", None,
     [(3, 4), (3, 4), ("pos", (3, 1))]),
    ("f_gaussian_nll_none", "F.gaussian_nll_loss(x0, x1, x2, reduction='none')", None,
     [(4,), (4,), ("pos", (4,))]),
    ("triplet_margin", "nn.TripletMarginLoss(margin=1.5)(x0, x1, x2)", None,
     [(3, 4), (3, 4), (3, 4)]),
    ("triplet_margin_swap_p1",
     "nn.TripletMarginLoss(p=1, swap=True, reduction='none')(x0, x1, x2)", None,
     [(3, 4), (3, 4), (3, 4)]),
    ("triplet_margin_with_distance",
     "nn.TripletMarginWithDistanceLoss(margin=0.5)(x0, x1, x2)", None,
     [(3, 4), (3, 4), (3, 4)]),
    ("f_triplet_margin_with_distance_cos",
     "F.triplet_margin_with_distance_loss(x0, x1, x2, distance_function=lambda a, b: "
     "1 - F.cosine_similarity(a, b), swap=True)", None, [(3, 4), (3, 4), (3, 4)]),
    ("multi_margin", "nn.MultiMarginLoss()(x0, x1)", None, [(3, 4), ("int:4", (3,))]),
    ("multi_margin_p2_weight",
     "nn.MultiMarginLoss(p=2, margin=0.5, weight=x2, reduction='sum')(x0, x1)", None,
     [(3, 4), ("int:4", (3,)), ("weight", (4,))]),
    ("f_multi_margin_1d", "F.multi_margin_loss(x0, x1, reduction='none')", None,
     [(4,), ("int:4", ())]),
    ("multilabel_margin", "nn.MultiLabelMarginLoss()(x0, x1)", None,
     [(2, 4), ("labels", (2, 4))]),
    ("nll_loss2d", "nn.NLLLoss2d()(F.log_softmax(x0, 1), x1)", None,
     [(2, 3, 2, 2), ("int:3", (2, 2, 2))]),
    # pooling
    ("max_pool1d", "nn.MaxPool1d(3, stride=2, padding=1)(x0)", None, [(2, 3, 7)]),
    ("f_max_pool1d_indices", "F.max_pool1d(x0, 2, return_indices=True)", None, [(2, 3, 6)]),
    ("f_max_pool1d_with_indices_dilation", "F.max_pool1d_with_indices(x0, 2, 1, 0, 2)", None,
     [(1, 2, 6)]),
    ("max_pool1d_ceil", "nn.MaxPool1d(2, ceil_mode=True)(x0)", None, [(3, 5)]),
    ("avg_pool1d", "nn.AvgPool1d(3, stride=2, padding=1)(x0)", None, [(2, 3, 7)]),
    ("f_avg_pool1d_exclude_pad",
     "F.avg_pool1d(x0, 3, 2, 1, ceil_mode=True, count_include_pad=False)", None, [(2, 6)]),
    ("adaptive_avg_pool1d", "nn.AdaptiveAvgPool1d(3)(x0)", None, [(2, 3, 7)]),
    ("f_adaptive_avg_pool1d", "F.adaptive_avg_pool1d(x0, 4)", None, [(3, 5)]),
    ("adaptive_max_pool1d", "nn.AdaptiveMaxPool1d(3)(x0)", None, [(2, 3, 7)]),
    ("adaptive_max_pool1d_indices", "nn.AdaptiveMaxPool1d(2, return_indices=True)(x0)", None,
     [(3, 5)]),
    ("f_adaptive_max_pool1d_with_indices", "F.adaptive_max_pool1d_with_indices(x0, 4)", None,
     [(1, 2, 7)]),
    ("adaptive_max_pool2d", "nn.AdaptiveMaxPool2d((2, 3))(x0)", None, [(1, 2, 5, 7)]),
    ("adaptive_max_pool2d_none", "nn.AdaptiveMaxPool2d((None, 2))(x0)", None, [(2, 3, 5)]),
    ("f_adaptive_max_pool2d_indices", "F.adaptive_max_pool2d(x0, 2, return_indices=True)",
     None, [(1, 2, 4, 5)]),
    ("f_adaptive_max_pool2d_with_indices", "F.adaptive_max_pool2d_with_indices(x0, 3)", None,
     [(2, 4, 4)]),
    ("lp_pool1d", "nn.LPPool1d(2, 3, stride=2)(x0)", None, [("pos", (2, 3, 7))]),
    ("lp_pool2d", "nn.LPPool2d(1.5, 2)(x0)", None, [("pos", (1, 2, 4, 5))]),
    # normalization
    ("batch_norm1d_train", "m(x0)", ("nn.BatchNorm1d(3)", False), [(4, 3)]),
    ("batch_norm1d_3d_train", "m(x0)", ("nn.BatchNorm1d(3, momentum=0.3)", False),
     [(2, 3, 4)]),
    ("batch_norm1d_eval", "m(x0)", ("nn.BatchNorm1d(3)", True), [(4, 3)]),
    ("batch_norm1d_no_affine", "m(x0)", ("nn.BatchNorm1d(3, affine=False)", False),
     [(4, 3, 2)]),
    ("batch_norm3d_train", "m(x0)", ("nn.BatchNorm3d(2)", False), [(2, 2, 2, 2, 3)]),
    ("instance_norm1d", "nn.InstanceNorm1d(3)(x0)", None, [(2, 3, 5)]),
    ("instance_norm1d_affine_unbatched", "m(x0)", ("nn.InstanceNorm1d(3, affine=True)", False),
     [(3, 5)]),
    ("instance_norm2d_affine", "m(x0)", ("nn.InstanceNorm2d(2, affine=True)", False),
     [(2, 2, 3, 3)]),
    ("instance_norm2d_running_train", "m(x0)",
     ("nn.InstanceNorm2d(2, track_running_stats=True)", False), [(2, 2, 3, 3)]),
    ("instance_norm2d_running_eval", "m(x0)",
     ("nn.InstanceNorm2d(2, track_running_stats=True)", True), [(2, 2, 3, 3)]),
    ("instance_norm3d", "nn.InstanceNorm3d(2)(x0)", None, [(1, 2, 2, 3, 2)]),
    ("f_instance_norm", "F.instance_norm(x0, eps=1e-3)", None, [(2, 3, 4)]),
    ("local_response_norm", "nn.LocalResponseNorm(3)(x0)", None, [(2, 5, 3)]),
    ("f_local_response_norm_4d", "F.local_response_norm(x0, 2, alpha=0.1, beta=0.5, k=2.0)",
     None, [(1, 4, 2, 3)]),
    # layers with parameters (torch's weights copied in)
    ("conv1d", "m(x0)", ("nn.Conv1d(3, 4, 3)", False), [(2, 3, 7)]),
    ("conv1d_stride_padding_groups", "m(x0)",
     ("nn.Conv1d(4, 6, 3, stride=2, padding=2, dilation=2, groups=2)", False), [(2, 4, 9)]),
    ("conv1d_same_no_bias", "m(x0)", ("nn.Conv1d(2, 3, 4, padding='same', bias=False)", False),
     [(1, 2, 6)]),
    ("conv1d_reflect_unbatched", "m(x0)",
     ("nn.Conv1d(2, 2, 3, padding=1, padding_mode='reflect')", False), [(2, 5)]),
    ("bilinear", "m(x0, x1)", ("nn.Bilinear(3, 4, 2)", False), [(5, 3), (5, 4)]),
    # recurrent layers
    ("rnn_cell", "m(x0, x1)", ("nn.RNNCell(3, 4)", False), [(2, 3), (2, 4)]),
    ("rnn_cell_relu_unbatched_no_state", "m(x0)",
     ("nn.RNNCell(3, 4, nonlinearity='relu', bias=False)", False), [(3,)]),
    ("lstm_cell", "m(x0, (x1, x2))", ("nn.LSTMCell(3, 4)", False), [(2, 3), (2, 4), (2, 4)]),
    ("gru_cell", "m(x0, x1)", ("nn.GRUCell(3, 4)", False), [(2, 3), (2, 4)]),
    ("rnn_two_layers", "m(x0)", ("nn.RNN(3, 4, num_layers=2)", False), [(5, 2, 3)]),
    ("rnn_relu_batch_first_bidirectional", "m(x0, x1)",
     ("nn.RNN(3, 4, nonlinearity='relu', batch_first=True, bidirectional=True)", False),
     [(2, 5, 3), (2, 2, 4)]),
    ("lstm", "m(x0)", ("nn.LSTM(3, 4)", False), [(5, 2, 3)]),
    ("lstm_two_layers_bidirectional_batch_first", "m(x0, (x1, x2))",
     ("nn.LSTM(3, 4, num_layers=2, bidirectional=True, batch_first=True)", False),
     [(2, 4, 3), (4, 2, 4), (4, 2, 4)]),
    ("lstm_unbatched_no_bias", "m(x0)", ("nn.LSTM(3, 2, bias=False)", False), [(4, 3)]),
    ("gru", "m(x0, x1)", ("nn.GRU(3, 4)", False), [(5, 2, 3), (1, 2, 4)]),
    ("gru_two_layers_bidirectional", "m(x0)",
     ("nn.GRU(3, 4, num_layers=2, bidirectional=True, batch_first=True)", False), [(2, 4, 3)]),
    # upsampling
    ("upsample_nearest", "nn.Upsample(scale_factor=2)(x0)", None, [(1, 2, 2, 3)]),
    ("upsample_nearest_size_1d", "nn.Upsample(size=5)(x0)", None, [(1, 2, 3)]),
    ("upsampling_nearest2d", "nn.UpsamplingNearest2d(size=(3, 5))(x0)", None, [(1, 1, 2, 3)]),
    ("f_interpolate_nearest_scale", "F.interpolate(x0, scale_factor=(1.5, 2))", None,
     [(1, 2, 2, 3)]),
    ("f_interpolate_bilinear", "F.interpolate(x0, size=(4, 5), mode='bilinear')", None,
     [(1, 2, 2, 3)]),
    ("f_interpolate_bilinear_align", "F.interpolate(x0, scale_factor=2, mode='bilinear', "
     "align_corners=True)", None, [(2, 1, 3, 2)]),
    ("f_interpolate_linear", "F.interpolate(x0, size=7, mode='linear')", None, [(1, 2, 3)]),
    ("upsampling_bilinear2d", "nn.UpsamplingBilinear2d(scale_factor=2)(x0)", None,
     [(1, 1, 2, 3)]),
    ("f_upsample_nearest", "F.upsample_nearest(x0, scale_factor=3)", None, [(1, 1, 2, 2)]),
    ("f_upsample_bilinear", "F.upsample_bilinear(x0, size=(3, 3))", None, [(1, 1, 2, 2)]),
    # misuse
    ("glu_odd", "F.glu(x0, -1)", None, [(2, 3)]),
    ("pixel_shuffle_indivisible", "F.pixel_shuffle(x0, 2)", None, [(1, 3, 2, 2)]),
    ("unflatten_bad_sizes", "nn.Unflatten(1, (2, 2))(x0)", None, [(2, 6)]),
]


def make_input(spec, index):
    kind, shape = ("randn", spec) if not isinstance(spec[0], str) else spec
    g = torch.Generator().manual_seed(1000 + index)
    n = math.prod(shape)
    if kind.startswith("int:"):
        return torch.randint(0, int(kind[4:]), shape, generator=g)
    if kind == "labels":  # MultiLabelMarginLoss: class indices, a -1 ends each row
        rows = [[1, 3, -1, 0], [0, 2, 1, -1]]
        return torch.tensor(rows[:shape[0]])
    if kind == "sign":
        x = torch.randint(0, 2, shape, generator=g).double() * 2 - 1
        return x
    if kind == "binary":
        return torch.randint(0, 2, shape, generator=g).double()
    if kind == "pos":
        x = torch.rand(n, generator=g, dtype=torch.float64) * 1.9 + 0.1
    elif kind == "weight":
        return (torch.rand(n, generator=g, dtype=torch.float64) * 1.9 + 0.1).reshape(shape)
    else:
        x = torch.randn(n, generator=g, dtype=torch.float64)
    return x.reshape(shape).requires_grad_()


def tensor_json(t):
    t = t.detach()
    return {"dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape),
            "values": t.reshape(-1).tolist(), "requires_grad": t.requires_grad}


def flatten(out):
    if isinstance(out, torch.Tensor):
        return [out]
    return [t for o in out for t in flatten(o)]


def run(name, call, module, inputs):
    torch.manual_seed(0)
    xs = [make_input(spec, i) for i, spec in enumerate(inputs)]
    case = {"name": name, "call": call, "inputs": [tensor_json(x) for x in xs]}
    for i, x in enumerate(xs):
        case["inputs"][i]["requires_grad"] = x.requires_grad
    env = {"nn": nn, "F": F, "torch": torch}
    env.update({f"x{i}": x for i, x in enumerate(xs)})
    m = None
    if module is not None:
        text, eval_mode = module
        m = eval(text, env).double()  # noqa: S307 - the generator's own table
        if eval_mode:
            m.eval()
        with torch.no_grad():  # running statistics away from their defaults
            for key, value in m.state_dict().items():
                if key.startswith("running_"):
                    value.copy_(torch.linspace(0.5, 1.5, value.numel(), dtype=value.dtype))
        case["module"] = text
        case["eval"] = eval_mode
        case["state"] = {k: tensor_json(v) for k, v in m.state_dict().items()}
        env["m"] = m
    try:
        out = flatten(eval(call, env))  # noqa: S307
    except Exception as ex:  # noqa: BLE001 - the golden is the error itself
        case.update({"error": type(ex).__name__, "message": str(ex)})
        return case
    case["out"] = [tensor_json(o) for o in out]
    floating = [o for o in out if o.is_floating_point() and o.requires_grad]
    weights = [torch.linspace(-1, 2, o.numel(), dtype=o.dtype).reshape(o.shape)
               for o in floating]
    case["weights"] = [tensor_json(w) for w in weights]
    try:
        if floating:
            sum(((o * w).sum() for o, w in zip(floating, weights))).backward()
    except RuntimeError as ex:  # channel_shuffle has no derivative in torch 1.13
        case["backward_error"] = str(ex)
    case["grads"] = [None if x.grad is None else tensor_json(x.grad) for x in xs]
    if m is not None:
        case["param_grads"] = {k: tensor_json(p.grad) for k, p in m.named_parameters()
                               if p.grad is not None}
        case["state_after"] = {k: tensor_json(v) for k, v in m.state_dict().items()}
    return case


def main():
    goldens = [run(*c) for c in CASES]
    with open(OUT, "w") as f:
        json.dump({"torch_version": torch.__version__, "cases": goldens}, f)
        f.write("\n")
    print(f"gen_nn_layers_goldens: {len(goldens)} cases from torch {torch.__version__} written "
          f"to {OUT}")


if __name__ == "__main__":
    main()
