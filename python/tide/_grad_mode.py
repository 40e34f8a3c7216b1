"""no_grad, enable_grad, set_grad_enabled and inference_mode: context managers and
decorators, as torch's."""

import functools

from . import _C


class _GradContext:
    """Sets grad mode to `_mode` inside a `with` block or a decorated function."""

    _mode = True

    def _new(self):
        return self.__class__()

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
            with self._new():
                return fn(*args, **kwargs)
        return wrapper


class no_grad(_GradContext):
    """Ops inside record no graph (torch.no_grad)."""
    _mode = False


class enable_grad(_GradContext):
    """Ops inside record a graph again (torch.enable_grad)."""
    _mode = True


class inference_mode(_GradContext):
    """torch.inference_mode(mode=True); tide has no separate inference mode: it is no_grad."""

    def __init__(self, mode=True):
        self._mode = not mode

    def _new(self):
        return inference_mode(not self._mode)


class set_grad_enabled(_GradContext):
    """Turns grad mode on or off at once (as torch), back at the end of a `with` block; as a
    decorator, only while the function runs."""

    def __init__(self, mode):
        self._previous = _C.is_grad_enabled()
        self._mode = bool(mode)
        _C._set_grad_enabled(self._mode)

    def _new(self):
        return set_grad_enabled(self._mode)

    def __enter__(self):
        return self

    def __call__(self, fn):
        # Applying the decorator must not leave the mode changed: only calls change it.
        _C._set_grad_enabled(self._previous)
        return super().__call__(fn)
