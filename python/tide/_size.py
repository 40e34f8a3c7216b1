"""tide.Size: a tensor's shape, a tuple that prints as torch.Size does."""


class Size(tuple):
    """The result of ``x.shape`` and ``x.size()`` (torch.Size): a tuple of ints."""

    __slots__ = ()

    def __repr__(self):
        return f"tide.Size({list(self)})"

    __str__ = __repr__

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, key):
        item = tuple.__getitem__(self, key)
        return Size(item) if isinstance(key, slice) else item

    def __add__(self, other):
        return Size(tuple(self) + tuple(other))
