"""Module.register_full_backward_hook and register_full_backward_pre_hook, built as torch's
torch.utils.hooks.BackwardHook: one identity autograd.Function over the tensors a call of the
module receives, one over those it returns. Backward reaches the outputs' identity first,
with grad_output (the pre-hooks may replace it); then the inputs' identity, with grad_input:
the hooks get (module, grad_input, grad_output), and a result that is not None replaces
grad_input. When no input requires grad, the hooks run from the outputs' side with grad_input
all None, as torch's."""

from ... import _C
from ...autograd.function import Function

Tensor = _C.Tensor


class _Identity(Function):
    """Returns its tensors; its backward hands their gradients to `on_backward`."""

    @staticmethod
    def forward(ctx, on_backward, *tensors):
        ctx.on_backward = on_backward
        ctx.set_materialize_grads(False)  # hooks see None where no gradient arrived
        ctx.mark_non_differentiable(*[t for t in tensors if not t.requires_grad])
        return tensors

    @staticmethod
    def backward(ctx, *grads):
        return (None,) + tuple(ctx.on_backward(grads))


def _tensor_positions(items):
    return [i for i, x in enumerate(items) if isinstance(x, Tensor)]


def _replace(items, positions, new):
    items = list(items)
    for p, t in zip(positions, new):
        items[p] = t
    return items


class BackwardHookState:
    """The hooks of one call of `module` (torch's BackwardHook)."""

    def __init__(self, module, hooks, pre_hooks):
        self.module = module
        self.hooks = list(hooks)
        self.pre_hooks = list(pre_hooks)
        self.n_inputs = 0
        self.inputs_wrapped = False
        self.grad_output = None

    def setup_inputs(self, args):
        positions = _tensor_positions(args)
        self.n_inputs = len(positions)
        tensors = [args[p] for p in positions]
        if not any(t.requires_grad for t in tensors):
            return args
        self.inputs_wrapped = True
        return tuple(_replace(args, positions, _Identity.apply(self._on_inputs, *tensors)))

    def setup_outputs(self, result):
        is_tensor = isinstance(result, Tensor)
        items = (result,) if is_tensor else result
        if not isinstance(items, (tuple, list)):
            return result
        positions = _tensor_positions(items)
        tensors = [items[p] for p in positions]
        if not any(t.requires_grad for t in tensors):
            return result
        wrapped = _replace(items, positions, _Identity.apply(self._on_outputs, *tensors))
        if is_tensor:
            return wrapped[0]
        if hasattr(items, "_fields"):  # a namedtuple
            return type(items)(*wrapped)
        return type(items)(wrapped) if isinstance(items, tuple) else wrapped

    def _on_outputs(self, grad_output):
        for hook in self.pre_hooks:
            result = hook(self.module, grad_output)
            if result is not None:
                result = (result,) if isinstance(result, Tensor) else tuple(result)
                if len(result) != len(grad_output):
                    raise RuntimeError("Backward pre hook returned an invalid number of "
                                       f"grad_output, got {len(result)}, but expected "
                                       f"{len(grad_output)}")
                grad_output = result
        self.grad_output = grad_output
        if not self.inputs_wrapped:
            for hook in self.hooks:
                hook(self.module, (None,) * self.n_inputs, grad_output)
        return grad_output

    def _on_inputs(self, grad_input):
        for hook in self.hooks:
            result = hook(self.module, grad_input, self.grad_output)
            if result is not None:
                result = (result,) if isinstance(result, Tensor) else tuple(result)
                if len(result) != len(grad_input):
                    raise RuntimeError("Backward hook returned an invalid number of grad_input, "
                                       f"got {len(result)}, but expected {len(grad_input)}")
                grad_input = result
        return grad_input
