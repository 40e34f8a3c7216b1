"""Issue 25's shape and linear-algebra ops, and the triangles and diagonals, with torch's Python
arguments: an int or a sequence where torch takes either (flip's dims, roll's shifts), *sizes
or one sequence (repeat, tile), tensors as *args or one list (broadcast_tensors, atleast_*d,
einsum), and the free functions that are method forms. The C++ methods are bound in
python/src/bind_shapes.cpp."""


from . import _C
from ._ops import _into_out, _method_form

Tensor = _C.Tensor


def _ints(value):
    if isinstance(value, int):
        return [value]
    return [int(v) for v in value]


def _sizes(args):
    """*sizes or one sequence (torch's IntArrayRef varargs)."""
    if len(args) == 1 and not isinstance(args[0], int):
        return [int(v) for v in args[0]]
    return [int(v) for v in args]


def _flip(self, *dims):
    return self._flip(_sizes(dims))


def _roll(self, shifts, dims=None):
    return self._roll(_ints(shifts), [] if dims is None else _ints(dims))


def _rot90(self, k=1, dims=(0, 1)):
    return self._rot90(k, _ints(dims))


def _tile(self, *dims):
    return self._tile(_sizes(dims))


def _repeat(self, *sizes):
    return self._repeat(_sizes(sizes))


def _repeat_interleave(self, repeats, dim=None, *, output_size=None):
    return self._repeat_interleave(repeats, dim, output_size)


def _movedim(self, source, destination):
    return self._movedim(_ints(source), _ints(destination))


def _unflatten(self, dim, sizes):
    return self._unflatten(dim, _ints(sizes))


def _tensor_split(self, indices_or_sections, dim=0):
    s = indices_or_sections
    if isinstance(s, Tensor):
        if s.dim() == 0:
            s = int(s.item())
        else:
            s = [int(v) for v in s.tolist()]
    return self._tensor_split(s if isinstance(s, int) else _ints(s), dim)


def _broadcast_to(self, *size):
    return self._broadcast_to(_sizes(size))


_METHODS = {"flip": _flip, "roll": _roll, "rot90": _rot90, "tile": _tile, "repeat": _repeat,
            "repeat_interleave": _repeat_interleave, "movedim": _movedim, "moveaxis": _movedim,
            "unflatten": _unflatten, "tensor_split": _tensor_split, "broadcast_to": _broadcast_to}


# ---- free functions


def flip(input, dims):
    return input._flip(_ints(dims))


def tile(input, dims):
    return input._tile(_ints(dims))


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    if repeats is None:  # torch.repeat_interleave(repeats)
        return _C._repeat_interleave(input, output_size)
    return input._repeat_interleave(repeats, dim, output_size)


def broadcast_to(input, size):
    return input._broadcast_to(_ints(size))


def broadcast_shapes(*shapes):
    """The broadcast of the shapes (ints or sequences of ints), computed without tensors."""
    result = []
    for shape in shapes:
        shape = _ints(shape)
        if len(shape) > len(result):
            result = [1] * (len(shape) - len(result)) + result
        for i in range(1, len(shape) + 1):
            a, b = result[-i], shape[-i]
            if b < 0:
                raise RuntimeError(f"Trying to create tensor with negative dimension {b}: "
                                   f"{list(shape)}")
            if a == 1:
                result[-i] = b
            elif b != 1 and a != b:
                raise RuntimeError(f"Shape mismatch: objects cannot be broadcast to a single "
                                   f"shape.  Mismatch is between {a} and {b}.")
    from ._size import Size
    return Size(result)


def _tensors(args):
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        return list(args[0]), True
    return list(args), len(args) != 1


def _atleast(c_fn):
    def atleast(*tensors):
        ts, many = _tensors(tensors)
        out = [c_fn(t) for t in ts]
        return tuple(out) if many else out[0]
    return atleast


atleast_1d = _atleast(_C._atleast_1d)
atleast_2d = _atleast(_C._atleast_2d)
atleast_3d = _atleast(_C._atleast_3d)


def _hsplit_like(dim, name, min_dims):
    def split(input, indices_or_sections):
        if input.dim() < min_dims:
            raise RuntimeError(f"torch.{name} requires a tensor with at least {min_dims} "
                               f"dimension, but got a tensor with {input.dim()} dimensions!")
        d = 0 if (name == "hsplit" and input.dim() == 1) else dim
        s = indices_or_sections
        if isinstance(s, int) and input.size(d) % s != 0:
            raise RuntimeError(f"torch.{name} attempted to split along dimension {d}, but the "
                               f"size of the dimension {input.size(d)} is not divisible by the "
                               f"split_size {s}!")
        return tuple(_tensor_split(input, s, d))
    split.__name__ = name
    return split


hsplit = _hsplit_like(1, "hsplit", 1)
vsplit = _hsplit_like(0, "vsplit", 2)
dsplit = _hsplit_like(2, "dsplit", 3)


def einsum(equation, *operands):
    """torch.einsum(equation, *operands) or einsum(equation, [operands]) (Note [einsum through
    bmm] in src/ops/einsum.cpp)."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = operands[0]
    return _C._einsum(equation, list(operands))


def tensordot(a, b, dims=2):
    if isinstance(dims, Tensor):
        dims = dims.tolist()
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        return _C._tensordot(a, b, list(range(a.dim() - dims, a.dim())), list(range(dims)))
    dims_a, dims_b = dims
    return _C._tensordot(a, b, _ints(dims_a), _ints(dims_b))


def cross(input, other, dim=None, *, out=None):
    result = input.cross(other, dim)
    return result if out is None else _into_out("cross", result, out, "same")


def _stacking(name, function):
    """tide.hstack and the other stacks with torch's out= (Note [out= by copy]): cat's rule."""
    def stack(tensors, *, out=None):
        result = function(tensors)
        return result if out is None else _into_out(name, result, out, "cast")
    stack.__name__ = stack.__qualname__ = name
    stack.__doc__ = function.__doc__
    return stack


_METHOD_FORMS = ["fliplr", "flipud", "roll", "rot90", "movedim", "moveaxis", "swapaxes",
                 "swapdims", "unflatten", "unbind", "tensor_split", "split_with_sizes", "ravel",
                 "tril", "triu", "diagonal", "diag_embed", "diag", "diagflat", "dot", "vdot",
                 "mv", "outer", "ger", "inner", "addmv", "addr", "baddbmm", "addbmm", "kron",
                 "trace"]


def install(namespace):
    for name, fn in _METHODS.items():
        setattr(Tensor, name, fn)

    for name in _METHOD_FORMS:
        namespace[name] = _method_form(name)  # with out= where torch has it
    namespace.update(
        flip=flip, tile=tile, repeat_interleave=repeat_interleave, broadcast_to=broadcast_to,
        broadcast_shapes=broadcast_shapes, broadcast_tensors=_C.broadcast_tensors,
        atleast_1d=atleast_1d, atleast_2d=atleast_2d, atleast_3d=atleast_3d,
        hstack=_stacking("hstack", _C.hstack), vstack=_stacking("vstack", _C.vstack),
        row_stack=_stacking("row_stack", _C.row_stack), dstack=_stacking("dstack", _C.dstack),
        column_stack=_stacking("column_stack", _C.column_stack),
        concatenate=namespace["cat"], hsplit=hsplit, vsplit=vsplit,
        dsplit=dsplit, einsum=einsum, tensordot=tensordot, cross=cross)
