"""no_grad, enable_grad and set_grad_enabled: context managers and decorators, as torch's."""

import functools

from . import _C


class _GradContext:
    _mode = True

    def __enter__(self):
        self._previous = _C.is_grad_enabled()
        _C._set_grad_enabled(self._mode)
        return self

    def __exit__(self, *exc):
        _C._set_grad_enabled(self._previous)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__():
                return fn(*args, **kwargs)
        return wrapper


class no_grad(_GradContext):
    """Ops inside record no graph (torch.no_grad)."""
    _mode = False


class enable_grad(_GradContext):
    """Ops inside record a graph again (torch.enable_grad)."""
    _mode = True


class set_grad_enabled(_GradContext):
    """Turns grad mode on or off: at once, and back at the end of a `with` block."""

    def __init__(self, mode):
        self._previous = _C.is_grad_enabled()
        self._mode = bool(mode)
        _C._set_grad_enabled(self._mode)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _C._set_grad_enabled(self._previous)
        return False


inference_mode = no_grad
