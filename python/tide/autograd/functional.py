"""torch.autograd.functional's vjp, jacobian, hessian, vhp and hvp (reverse mode, one backward
per output element for jacobian; hessian is the jacobian of the jacobian), on
tide.autograd.grad. create_graph=True keeps the results differentiable, as torch."""

from .. import _C

_Tensor = _C.Tensor


def _tensors(value, what):
    """(whether `value` is a tuple, its tensors), raising torch's TypeError for others."""
    is_tuple = isinstance(value, tuple)
    items = value if is_tuple else (value,)
    for t in items:
        if not isinstance(t, _Tensor):
            raise TypeError(f"The {what} given to vjp/jacobian must be Tensors, got "
                            f"{type(t).__name__}")
    return is_tuple, items


def _inputs_tuple(inputs, create_graph=False):
    """torch's _grad_preprocess: with create_graph, an input that requires grad keeps its
    history (an alias), so the results are differentiable w.r.t. the caller's tensors."""
    is_tuple, items = _tensors(inputs, "inputs")
    if create_graph:
        return is_tuple, tuple(t.view_as(t) if t.requires_grad
                               else t.detach().requires_grad_(t.is_floating_point())
                               for t in items)
    return is_tuple, tuple(t.detach().requires_grad_(t.is_floating_point()) for t in items)


def _call(func, inputs):
    from .._grad_mode import enable_grad
    with enable_grad():
        out = func(*inputs)
    return _tensors(out, "outputs of the user-provided function")


def _grads(outputs, inputs, grad_outputs, retain_graph, create_graph=False):
    from . import grad
    live = [(o, g) for o, g in zip(outputs, grad_outputs) if o.requires_grad]
    if not live:
        return tuple(i.new_zeros(i.shape) for i in inputs)
    need = [i for i in inputs if i.requires_grad]
    got = iter(grad([o for o, _ in live], need, [g for _, g in live],
                    retain_graph=retain_graph, create_graph=create_graph, allow_unused=True))
    result = []
    for i in inputs:
        g = next(got) if i.requires_grad else None
        result.append(g if g is not None else i.new_zeros(i.shape))
    return tuple(result)


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), the vector-Jacobian product v^T J), as torch.autograd.functional.vjp."""
    in_tuple, ins = _inputs_tuple(inputs, create_graph)
    out_tuple, outs = _call(func, ins)
    if v is None:
        if len(outs) != 1 or outs[0].numel() != 1:
            raise RuntimeError("The vector v can only be None if the user-provided function "
                               "returns a single Tensor with a single element.")
        vs = (None,)
    else:
        vs = v if isinstance(v, tuple) else (v,)
        if len(vs) != len(outs):
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(outs)} but "
                               f"got {len(vs)}.")
    grads = _grads(outs, ins, vs, retain_graph=create_graph, create_graph=create_graph)
    kept = outs if create_graph else tuple(o.detach() for o in outs)
    return (kept if out_tuple else kept[0]), (grads if in_tuple else grads[0])


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False,
             strategy="reverse-mode"):
    """The Jacobian of func at inputs (torch.autograd.functional.jacobian): for one input and
    one output, a tensor shaped output.shape + input.shape; tuples of those otherwise."""
    if strategy != "reverse-mode":
        raise _C.Error("[autograd.functional.jacobian] tide computes Jacobians in reverse mode "
                       "only; pass strategy='reverse-mode'")
    in_tuple, ins = _inputs_tuple(inputs, create_graph)
    out_tuple, outs = _call(func, ins)
    jac = []
    for out in outs:
        flat = out.reshape(-1)
        rows = []
        for k in range(flat.numel()):
            onehot = flat.new_zeros(flat.shape)
            onehot[k] = 1.0
            rows.append(_grads((out,), ins, (onehot.reshape(out.shape),), retain_graph=True,
                               create_graph=create_graph))
        per_input = []
        for j, inp in enumerate(ins):
            if rows:
                stacked = _C.stack([r[j] for r in rows])
            else:
                stacked = inp.new_zeros((0,) + tuple(inp.shape))
            per_input.append(stacked.reshape(tuple(out.shape) + tuple(inp.shape)))
        jac.append(tuple(per_input))
    if not out_tuple:
        return jac[0] if in_tuple else jac[0][0]
    return tuple(j if in_tuple else j[0] for j in jac)


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """The Hessian of the scalar func at inputs (torch.autograd.functional.hessian): the
    Jacobian of its gradient, shaped input.shape + input.shape for one input."""
    in_tuple, ins = _tensors(inputs, "inputs")

    def scalar_check(*inp):
        out_tuple, outs = _call(func, inp)
        if out_tuple or len(outs) != 1 or outs[0].numel() != 1:
            raise RuntimeError("The function given to hessian should return a single Tensor "
                               "with a single element")
        return outs[0]

    def jac_func(*inp):
        # the inner Jacobian keeps its graph: the outer one differentiates it
        return jacobian(scalar_check, inp, create_graph=True)

    res = jacobian(jac_func, inputs if in_tuple else ins[0], create_graph=create_graph,
                   strategy=outer_jacobian_strategy)
    # jac_func returns a tuple (its inputs are one), so the outer Jacobian is a tuple per
    # output; one input gives the Tensor itself, as torch's _tuple_postprocess does.
    return res if in_tuple else res[0]


def _second_order(func, inputs, v, create_graph, name):
    """(func(inputs), v^T H) by double backward: the gradient made with create_graph, then the
    gradient of <gradient, v>."""
    in_tuple, ins = _inputs_tuple(inputs, True)
    out_tuple, outs = _call(func, ins)
    if out_tuple or len(outs) != 1 or outs[0].numel() != 1:
        raise RuntimeError(f"The function given to {name} should return a single Tensor with a "
                           "single element")
    vs = v if isinstance(v, tuple) else (v,)
    if len(vs) != len(ins):
        raise RuntimeError(f"v is a tuple of invalid length: should be {len(ins)} but got "
                           f"{len(vs)}.")
    first = _grads(outs, ins, (None,), retain_graph=True, create_graph=True)
    live = [(g, w) for g, w in zip(first, vs) if g.requires_grad]
    if live:
        dot = sum((g * w).sum() for g, w in live)
        second = _grads((dot,), ins, (None,), retain_graph=create_graph,
                        create_graph=create_graph)
    else:
        second = tuple(i.new_zeros(i.shape) for i in ins)
    out = outs[0] if create_graph else outs[0].detach()
    return out, (second if in_tuple else second[0])


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T H) for a scalar func (torch.autograd.functional.vhp)."""
    return _second_order(func, inputs, v, create_graph, "vhp")


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), H v) for a scalar func (torch.autograd.functional.hvp): H is symmetric,
    so it is v^T H, by double backward."""
    return _second_order(func, inputs, v, create_graph, "hvp")
