"""F.pad (torch.nn.functional.pad, torch 1.13): constant padding of any trailing dimensions,
and reflect / replicate / circular padding of the last 1, 2 or 3 dimensions.

Note [Padding through index_select]: each non-constant mode is, per padded dimension, a gather
of input positions: output position j reads the input at reflect(j - left), clamp(j - left) or,
for circular, (j - max(left, 0)) mod m on the input cropped by the negative paddings (torch's
_pad_circular copies from the cropped core, so a negative left pad shifts what wraps around).
index_select and cat carry autograd on every device, so pad needs no kernel of its own; the
gradient of a reflected or replicated position adds into the input position it read, as
torch's reflection_pad/replication_pad backward."""

from .. import _C


def _positions(mode, left, right, size):
    """The input positions that the output of one padded dimension reads, in order."""
    if mode == "circular":
        core_start, core_size = max(-left, 0), size - max(-left, 0) - max(-right, 0)
        lead = max(left, 0)
        return [core_start + (j - lead) % core_size
                for j in range(core_size + max(left, 0) + max(right, 0))]
    positions = []
    for j in range(size + left + right):
        i = j - left
        if mode == "reflect":
            i = -i if i < 0 else (2 * (size - 1) - i if i >= size else i)
        else:  # replicate
            i = min(max(i, 0), size - 1)
        positions.append(i)
    return positions


def _check_non_constant(input, pad, mode, value):
    if value is not None and value != 0:
        raise _C.Error(f'Padding mode "{mode}" doesn\'t take in value argument')
    dims = len(pad) // 2
    if not (dims in (1, 2, 3) and input.dim() in (dims + 1, dims + 2)):
        raise NotImplementedError("Only 2D, 3D, 4D, 5D padding with non-constant padding are "
                                  "supported for now")
    if mode == "circular" and input.dim() != dims + 2:
        raise _C.Error(f"Invalid padding size, expected {2 * (input.dim() - 2)} but got "
                       f"{len(pad)}")
    for k in range(dims):
        left, right = pad[2 * k], pad[2 * k + 1]
        dim = input.dim() - 1 - k
        size = input.size(dim)
        if mode == "reflect" and (left >= size or right >= size):
            # torch's reflection_pad2d names the input by its rank, pad1d and pad3d by shape
            where = input.dim() if dims == 2 else list(input.shape)
            raise _C.Error(f"Argument #{4 + 2 * k}: Padding size should be less than the "
                           "corresponding input dimension, but got: padding "
                           f"({left}, {right}) at dimension {dim} of input {where}")
        if mode == "circular" and (left > size or right > size):
            raise _C.Error("Padding value causes wrapping around more than once.")
        if size + left + right <= 0 or (mode == "circular" and
                                         size - max(-left, 0) - max(-right, 0) <= 0):
            raise _C.Error(f"[tide.nn.functional.pad] expected a padded size above 0, found "
                           f"{size} + {left} + {right} at dimension {dim}; make the negative "
                           "padding smaller")


def _constant(input, pad, value):
    out = input
    for k in range(len(pad) // 2):
        left, right = pad[2 * k], pad[2 * k + 1]
        dim = input.dim() - 1 - k
        size = out.size(dim)
        if size + left + right < 0:
            raise _C.Error(f"The input size {size}, plus negative padding {left} and {right} "
                           "resulted in a negative output size, which is invalid. Check "
                           f"dimension {dim} of your input.")
        if left < 0 or right < 0:
            start = max(-left, 0)
            out = out.narrow(dim, start, size - start - max(-right, 0))
        parts = []
        for amount in (left, right):
            shape = list(out.shape)
            shape[dim] = max(amount, 0)
            parts.append(_C._full(shape, value, out.dtype, out.device, False, False)
                         if amount > 0 else None)
        pieces = [p for p in (parts[0], out, parts[1]) if p is not None]
        out = _C.cat(pieces, dim) if len(pieces) > 1 else out
    return out


def pad(input, pad, mode="constant", value=None):
    """Pads input's last len(pad) // 2 dimensions: pad = (last_left, last_right,
    second_last_left, ...); negative amounts crop."""
    pad = [int(p) for p in pad]
    if len(pad) % 2 != 0:
        raise _C.Error("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise _C.Error("Padding length too large")
    if mode == "constant":
        return _constant(input, pad, 0 if value is None else value)
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    _check_non_constant(input, pad, mode, value)
    out = input
    for k in range(len(pad) // 2):
        dim = input.dim() - 1 - k
        positions = _positions(mode, pad[2 * k], pad[2 * k + 1], input.size(dim))
        index = _C._tensor(positions, _C.int64, out.device, False, False)
        out = out.index_select(dim, index)
    return out
