"""torch.utils.hooks.RemovableHandle: what every register_*hook returns."""


class RemovableHandle:
    """remove() unregisters the hook: the entry `id` of `hooks_dict` (a module's hooks), or,
    for hooks kept in C++ (Tensor.register_hook), through `remover`. Usable in a `with`."""

    _next_id = 0

    def __init__(self, hooks_dict=None, remover=None):
        self._hooks = hooks_dict
        self._remover = remover
        self.id = RemovableHandle._next_id
        RemovableHandle._next_id += 1

    def remove(self):
        if self._remover is not None:
            self._remover.remove()
        elif self._hooks is not None:
            self._hooks.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()
