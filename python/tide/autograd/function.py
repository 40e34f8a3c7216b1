"""torch.autograd.Function: an op whose forward and backward are Python code.

A call of ``apply`` runs ``forward`` untraced and records one node (the C++
tide::autograd::detail::apply_function, python/src/bind_autograd.cpp) whose backward calls
``backward`` with one gradient per output of forward; it returns one per argument of forward
(None for arguments that are not tensors or need no gradient). Note [Python code in backward]
in bind_autograd.cpp says how the GIL is taken for it."""

import functools

from .. import _C
from .._grad_mode import no_grad

_Tensor = _C.Tensor


class FunctionCtx:
    """The ``ctx`` that forward and backward receive (torch's FunctionCtx): save tensors for
    backward, mark outputs, and any attribute you set on it."""

    def __init__(self):
        self._cdata = _C._autograd._Context()
        self.needs_input_grad = ()

    def save_for_backward(self, *tensors):
        """Keeps tensors (or None) for backward, which reads them as ``ctx.saved_tensors``;
        changing one in place after forward makes reading them raise."""
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, _Tensor):
                raise TypeError("save_for_backward can only save variables, but argument "
                                f"{i} is of type {type(t).__name__}")
        self._cdata.save_for_backward(list(tensors))

    @property
    def saved_tensors(self):
        return tuple(self._cdata.saved_tensors())

    def mark_non_differentiable(self, *outputs):
        """These outputs get no gradient history; backward gets zeros (or None, see
        set_materialize_grads) for them."""
        for i, t in enumerate(outputs):
            if not isinstance(t, _Tensor):
                raise TypeError("mark_non_differentiable only accepts tensor outputs, but "
                                f"argument {i} is of type {type(t).__name__}")
        self._cdata.mark_non_differentiable(list(outputs))

    def set_materialize_grads(self, value):
        """True (the default): backward gets zeros for outputs no gradient reached; False:
        None."""
        self._cdata.set_materialize_grads(bool(value))

    def mark_dirty(self, *args):
        raise _C.Error("[Function.mark_dirty] tide's custom functions do not take outputs "
                       "modified in place; return a new tensor from forward (x.clone(), then "
                       "modify the clone)")


class Function:
    """Subclass with ``forward(ctx, *args)`` and ``backward(ctx, *grad_outputs)``
    staticmethods and call ``YourFunction.apply(*args)`` (torch.autograd.Function)."""

    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        raise RuntimeError("Legacy autograd function with non-static forward method is "
                           "deprecated. Please use new-style autograd function with static "
                           "forward method. (Example: "
                           "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward "
                                  "mode AD.")

    vjp = backward

    @classmethod
    def apply(cls, *args):
        ctx = FunctionCtx()
        # As torch: whether each argument requires grad, whatever the grad mode.
        ctx.needs_input_grad = tuple(isinstance(a, _Tensor) and a.requires_grad for a in args)
        tensor_args = [a if isinstance(a, _Tensor) else None for a in args]
        result = None

        def forward():
            nonlocal result
            result = cls.forward(ctx, *args)
            items = result if isinstance(result, tuple) else (result,)
            return [x if isinstance(x, _Tensor) else None for x in items]

        backward_fn = cls.backward if cls.backward is not Function.backward else cls.vjp

        def backward(grads):
            out = backward_fn(ctx, *grads)
            return list(out) if isinstance(out, tuple) else [out]

        outputs = _C._autograd._function_apply(cls.__name__ + "Backward", ctx._cdata,
                                               tensor_args, forward, backward)
        if isinstance(result, tuple):
            return tuple(r if o is None else o for o, r in zip(outputs, result))
        return result if outputs[0] is None else outputs[0]


class _DelayedError(Function):
    """Stands for the derivative of a once_differentiable backward: passes its gradients on,
    and raises torch's error if a second backward reaches it (torch's DelayedError)."""

    @staticmethod
    def forward(ctx, *grads):
        return tuple(g.clone() if g is not None else None for g in grads)

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError("trying to differentiate twice a function that was marked with "
                           "@once_differentiable")


def once_differentiable(fn):
    """Marks a backward that is not itself differentiable (torch's decorator): it runs under
    no_grad; under create_graph, when a gradient it got requires grad, what it returns leads
    to a node that raises if a second backward reaches it, as torch."""

    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with no_grad():
            outputs = fn(ctx, *args)
        if not _C.is_grad_enabled():
            return outputs
        if not any(isinstance(a, _Tensor) and a.requires_grad for a in args):
            return outputs
        single = not isinstance(outputs, tuple)
        items = (outputs,) if single else outputs
        wrapped = _DelayedError.apply(*args, *(o for o in items if isinstance(o, _Tensor)))
        wrapped = wrapped if isinstance(wrapped, tuple) else (wrapped,)
        # the first len(args) are the incoming gradients, passed only to link them
        it = iter(wrapped[len(args):])
        result = tuple(next(it) if isinstance(o, _Tensor) else o for o in items)
        return result[0] if single else result
    return wrapper
