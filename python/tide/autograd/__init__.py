"""tide.autograd (torch.autograd): custom Functions, grad and backward, and the grad-mode
context managers. create_graph=True runs the backward functions with grad mode on, so the
gradients carry a graph of their own (double backward: gradient penalties, Hessian-vector
products; retain_graph then defaults to True, as torch). A derivative tide computes with a
kernel that records no graph (convolutions, pooling, digamma) raises "the derivative for ...
is not implemented" if a second backward reaches it (Note [create_graph] in
src/autograd/engine.h)."""

from .. import _C
from .._grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled
from . import function, functional
from .function import Function, FunctionCtx, once_differentiable

_Tensor = _C.Tensor


def _as_tuple(x, what):
    if isinstance(x, _Tensor):
        return (x,)
    if x is None:
        return ()
    if not isinstance(x, (tuple, list)):
        raise TypeError(f"{what}: expected a Tensor or a sequence of Tensors, got "
                        f"{type(x).__name__}")
    return tuple(x)


def _retain(retain_graph, create_graph):
    """torch's default: a graph kept for a second backward is not freed by the first."""
    return bool(create_graph) if retain_graph is None else bool(retain_graph)


def _grads_for(tensors, grads, where):
    grads = [None] * len(tensors) if grads is None else list(_as_tuple(grads, where))
    if len(grads) != len(tensors):
        raise RuntimeError(f"grad can be implicitly created only for scalar outputs; {where} "
                           f"got {len(grads)} gradients for {len(tensors)} tensors")
    for g in grads:
        if g is not None and not isinstance(g, _Tensor):
            raise TypeError(f"{where}: gradients must be Tensors or None, got "
                            f"{type(g).__name__}")
    return grads


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False,
             grad_variables=None, inputs=None):
    """Accumulates the gradients of ``tensors`` into the leaves' ``.grad`` (only into
    ``inputs``' when given), as torch.autograd.backward. create_graph=True: the accumulated
    gradients carry a graph (a later backward differentiates them)."""
    tensors = _as_tuple(tensors, "backward")
    if grad_tensors is None:
        grad_tensors = grad_variables
    grads = _grads_for(tensors, grad_tensors, "backward")
    if inputs is not None:
        inputs = _as_tuple(inputs, "backward")
        if len(inputs) == 0:
            raise RuntimeError("'inputs' argument to backward() cannot be empty.")
        for t in inputs:
            if not t.requires_grad:
                raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
    _C._autograd.backward(list(tensors), grads, _retain(retain_graph, create_graph),
                          list(inputs or ()), bool(create_graph))


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=False, is_grads_batched=False):
    """The gradients of ``outputs`` w.r.t. ``inputs`` (a tuple, None for an unused input with
    allow_unused=True), leaving every ``.grad`` alone, as torch.autograd.grad.
    create_graph=True: the gradients carry a graph, so they can be differentiated again."""
    if is_grads_batched:
        raise _C.Error("[autograd.grad] is_grads_batched=True is not supported; call grad once "
                       "per batch entry")
    outputs = _as_tuple(outputs, "grad")
    inputs = _as_tuple(inputs, "grad")
    for t in inputs:
        if not isinstance(t, _Tensor):
            raise TypeError(f"grad: inputs must be Tensors, got {type(t).__name__}")
    grads = _grads_for(outputs, grad_outputs, "grad")
    return tuple(_C._autograd.grad(list(outputs), list(inputs), grads,
                                   _retain(retain_graph, create_graph), bool(allow_unused),
                                   bool(create_graph)))


def is_anomaly_enabled():
    """Whether backward checks for NaN gradients and names the failing op (torch's)."""
    return _C._autograd._is_anomaly_enabled()


class set_detect_anomaly:
    """Turns anomaly detection on or off at once (as torch), back at the end of a `with`
    block: backward then raises "Function 'XBackward0' returned nan values in its Nth
    output." and names the node whose backward raised. check_nan is always on in tide."""

    def __init__(self, mode, check_nan=True):
        self._previous = _C._autograd._is_anomaly_enabled()
        _C._autograd._set_anomaly_enabled(bool(mode))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _C._autograd._set_anomaly_enabled(self._previous)
        return False


class detect_anomaly:
    """Anomaly detection on inside a `with` block (torch.autograd.detect_anomaly)."""

    def __init__(self, check_nan=True):
        self._previous = None

    def __enter__(self):
        self._previous = _C._autograd._is_anomaly_enabled()
        _C._autograd._set_anomaly_enabled(True)
        return self

    def __exit__(self, *exc):
        _C._autograd._set_anomaly_enabled(self._previous)
        return False


__all__ = ["Function", "FunctionCtx", "backward", "detect_anomaly", "enable_grad", "function",
           "functional", "grad", "inference_mode", "is_anomaly_enabled", "no_grad",
           "once_differentiable", "set_detect_anomaly", "set_grad_enabled"]
