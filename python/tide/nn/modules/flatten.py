"""nn.Flatten merges dims start_dim..end_dim into one (the batch dim stays by default);
nn.Unflatten splits one dim into several."""

from ... import _C
from .module import Module


class Flatten(Module):
    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Dim `dim` as the sizes unflattened_size (one of them may be -1)."""

    def __init__(self, dim, unflattened_size):
        super().__init__()
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input):
        dim = self.dim + input.dim() if self.dim < 0 else self.dim
        sizes = list(self.unflattened_size)
        size = input.size(dim)
        known = _product([s for s in sizes if s != -1])
        if sizes.count(-1) == 1 and known and size % known == 0:
            sizes[sizes.index(-1)] = size // known
        if -1 in sizes or _product(sizes) != size:
            raise _C.Error(f"unflatten: Provided sizes {list(self.unflattened_size)} don't "
                           f"multiply up to the size of dim {self.dim} ({size}) in the input "
                           "tensor")
        shape = list(input.shape)
        return input.reshape(shape[:dim] + sizes + shape[dim + 1:])

    def extra_repr(self):
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


def _product(sizes):
    out = 1
    for s in sizes:
        out *= s
    return out
