"""nn.Parameter: a tensor that a Module registers as a parameter when it is assigned as an
attribute (torch.nn.Parameter). A Python subclass of tide.Tensor that shares its data's
storage, so ``Parameter(t)`` and ``t`` see each other's writes, as in torch."""

from .. import _C


class Parameter(_C.Tensor):
    """Parameter(data=None, requires_grad=True): a leaf that shares ``data``'s storage."""

    def __init__(self, data=None, requires_grad=True):
        if data is None:
            data = _C._empty([0], None, None, False, False)
        if not isinstance(data, _C.Tensor):
            raise TypeError(f"Parameter(): expected a tide.Tensor as data, found "
                            f"{type(data).__name__}; wrap the values with tide.tensor(...) first")
        # Tensor's legacy __init__ with one tensor aliases it; detach() makes a fresh leaf on
        # the same storage, so the parameter has its own autograd identity.
        super().__init__(data.detach())
        self.requires_grad_(requires_grad)

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__
