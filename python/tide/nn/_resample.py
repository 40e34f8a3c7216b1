"""Rearranging and resampling in torch.nn.functional, composed from tide's views and
index_select (autograd comes with them): pixel_shuffle / pixel_unshuffle, channel_shuffle and
interpolate (nearest, linear, bilinear) with the upsample forms.

Note [Interpolation through index_select]: interpolation is separable. Along each resized dim
the output reads the input at source positions that depend only on sizes and scales, as
torch's kernels compute them: nearest, floor(float32(i * scale)) (torch computes this index in
float32, so the same rounding picks the same pixel); linear, the two neighbours of
(i + 0.5) * scale - 0.5 (clamped at 0; i * scale with align_corners) weighted by the distance.
One index_select per dim (two and a weighted sum for linear) gives torch's values and, through
index_select's backward, its gradients."""

import math
import struct
import warnings

from .. import _C
from .._factories import tensor


def _check_image(input, name):
    if input.dim() < 3:
        raise _C.Error(f"{name} expects input to have at least 3 dimensions, but got input "
                       f"with {input.dim()} dimension(s)")


def pixel_shuffle(input, upscale_factor):
    """(*, C r^2, H, W) -> (*, C, H r, W r)."""
    r = upscale_factor
    _check_image(input, "pixel_shuffle")
    c, h, w = input.shape[-3:]
    if c % (r * r) != 0:
        raise _C.Error("pixel_shuffle expects its input's 'channel' dimension to be divisible "
                       f"by the square of upscale_factor, but input.size(-3)={c} is not "
                       f"divisible by {r * r}")
    lead = list(input.shape[:-3])
    n = len(lead)
    x = input.reshape(lead + [c // (r * r), r, r, h, w])
    x = x.permute(list(range(n)) + [n, n + 3, n + 1, n + 4, n + 2])
    return x.reshape(lead + [c // (r * r), h * r, w * r])


def pixel_unshuffle(input, downscale_factor):
    """(*, C, H r, W r) -> (*, C r^2, H, W)."""
    r = downscale_factor
    _check_image(input, "pixel_unshuffle")
    c, h, w = input.shape[-3:]
    if h % r != 0 or w % r != 0:
        which, size = ("height", h) if h % r != 0 else ("width", w)
        raise _C.Error(f"pixel_unshuffle expects {which} to be divisible by downscale_factor, "
                       f"but input.size({-2 if which == 'height' else -1})={size} is not "
                       f"divisible by {r}")
    lead = list(input.shape[:-3])
    n = len(lead)
    x = input.reshape(lead + [c, h // r, r, w // r, r])
    x = x.permute(list(range(n)) + [n, n + 2, n + 4, n + 1, n + 3])
    return x.reshape(lead + [c * r * r, h // r, w // r])


def channel_shuffle(input, groups):
    """(N, C, *) with the C channels, seen as (groups, C / groups), transposed."""
    c = input.size(1)
    if c % groups != 0:
        raise _C.Error(f"Number of channels must be divisible by groups. Got {c} channels and "
                       f"{groups} groups.")
    shape = list(input.shape)
    x = input.reshape([shape[0], groups, c // groups] + shape[2:]).transpose(1, 2)
    return x.reshape(shape)


native_channel_shuffle = channel_shuffle


def _float32(value):
    return struct.unpack("f", struct.pack("f", value))[0]


def _nearest_positions(in_size, out_size, scale_factor):
    if out_size == in_size:
        return list(range(out_size))
    if out_size == 2 * in_size:
        return [i >> 1 for i in range(out_size)]
    scale = _float32(1.0 / scale_factor if scale_factor else in_size / out_size)
    return [min(int(math.floor(_float32(i * scale))), in_size - 1) for i in range(out_size)]


def _linear_weights(in_size, out_size, scale_factor, align_corners):
    """(lower, upper, weight of upper) for each output position (torch's
    area_pixel_compute_source_index)."""
    if align_corners:
        scale = (in_size - 1) / (out_size - 1) if out_size > 1 else 0.0
    else:
        scale = 1.0 / scale_factor if scale_factor else in_size / out_size
    lower, upper, weight = [], [], []
    for i in range(out_size):
        src = scale * i if align_corners else max(scale * (i + 0.5) - 0.5, 0.0)
        i0 = int(math.floor(src))
        lower.append(i0)
        upper.append(i0 + 1 if i0 < in_size - 1 else i0)
        weight.append(src - i0)
    return lower, upper, weight


def _index(positions, like):
    return tensor(positions, dtype=_C.int64, device=like.device)


def _resample_dim(x, dim, in_size, out_size, scale_factor, mode, align_corners):
    if mode == "nearest":
        return x.index_select(dim, _index(_nearest_positions(in_size, out_size, scale_factor),
                                          x))
    lower, upper, weight = _linear_weights(in_size, out_size, scale_factor, align_corners)
    shape = [1] * x.dim()
    shape[dim] = out_size
    w1 = tensor(weight, dtype=x.dtype, device=x.device).reshape(shape)
    return x.index_select(dim, _index(lower, x)) * (1 - w1) + \
        x.index_select(dim, _index(upper, x)) * w1


_MODE_DIMS = {"linear": 1, "bilinear": 2, "trilinear": 3}


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """Resizes the dims after (N, C) to size, or by scale_factor (each output size the floor
    of input size times it): mode "nearest", "linear" (3-d input), "bilinear" (4-d) or
    "trilinear" (5-d), Note [Interpolation through index_select]."""
    dims = input.dim() - 2
    if mode not in ("nearest", "linear", "bilinear", "trilinear"):
        raise NotImplementedError(f"[tide.nn.functional.interpolate] mode {mode!r} is not "
                                  "supported by tide; use nearest, linear, bilinear or "
                                  "trilinear")
    if antialias:
        raise NotImplementedError("[tide.nn.functional.interpolate] antialias=True is not "
                                  "supported by tide")
    if mode == "nearest":
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating "
                             "modes: linear | bilinear | bicubic | trilinear")
    else:
        if _MODE_DIMS[mode] != dims:
            raise NotImplementedError(
                f"Got {input.dim()}D input, but {mode} mode needs {_MODE_DIMS[mode] + 2}D input")
        if align_corners is None:
            align_corners = False
    if (size is None) == (scale_factor is None):
        raise ValueError("either size or scale_factor should be defined" if size is None else
                         "only one of size or scale_factor should be defined")
    if size is not None:
        sizes = [size] * dims if isinstance(size, int) else list(size)
        if len(sizes) != dims:
            raise ValueError(f"Input and output must have the same number of spatial "
                             f"dimensions, but got input with spatial dimensions of "
                             f"{list(input.shape[2:])} and output size of {sizes}. Please "
                             "provide input tensor in (N, C, d1, d2, ...,dK) format and output "
                             "size in (o1, o2, ...,oK) format.")
        scales = [None] * dims
    else:
        scales = [float(scale_factor)] * dims if isinstance(scale_factor, (int, float)) \
            else [float(s) for s in scale_factor]
        if len(scales) != dims:
            raise ValueError(f"Input and scale_factor must have the same number of spatial "
                             f"dimensions, but got input with spatial dimensions of "
                             f"{list(input.shape[2:])} and scale_factor of shape {scales}. "
                             "Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                             "scale_factor in (s1, s2, ...,sK) format.")
        sizes = [int(math.floor(float(input.size(i + 2)) * s)) for i, s in enumerate(scales)]
        if recompute_scale_factor:
            scales = [None] * dims
    out = input
    for i in range(dims):
        out = _resample_dim(out, i + 2, input.size(i + 2), sizes[i], scales[i], mode,
                            align_corners)
    return out


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    warnings.warn("nn.functional.upsample is deprecated. Use nn.functional.interpolate "
                  "instead.")
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    warnings.warn("nn.functional.upsample_nearest is deprecated. Use "
                  "nn.functional.interpolate instead.")
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    warnings.warn("nn.functional.upsample_bilinear is deprecated. Use "
                  "nn.functional.interpolate instead.")
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)
