"""optim.Optimizer: torch's param_groups over tide's C++ optimizers (python/src/bind_optim.cpp),
one C++ optimizer per parameter group. Before every step each group's hyperparameters are
handed to its C++ optimizer, so a change to ``param_groups[i]['lr']`` applies at the next step.
The C++ optimizers hold the same tensors as the module (Note [Optimizers hold parameters]), so
a module moved in place after the optimizer was built is still optimized."""

from .. import _C


class _RequiredParameter:
    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


class Optimizer:
    """Base of SGD and Adam: subclasses set _engine (the C++ class) and _option_names."""

    _engine = None
    _option_names = ()

    def __init__(self, params, defaults):
        self.defaults = defaults
        self.state = {}
        if isinstance(params, _C.Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            f"Tensors or dicts, but got {params.type()}")
        param_groups = list(params)
        if not param_groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        self.param_groups = []
        self._engines = []
        for group in param_groups:
            self.add_param_group(group)

    def add_param_group(self, param_group):
        """Adds a group ({'params': ..., and hyperparameters that override the defaults})."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group).__name__}")
        group = dict(param_group)
        params = group["params"]
        group["params"] = [params] if isinstance(params, _C.Tensor) else list(params)
        for p in group["params"]:
            if not isinstance(p, _C.Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                f"{type(p).__module__}.{type(p).__name__}")
        for name, default in self.defaults.items():
            if default is required and name not in group:
                raise ValueError(f"parameter group didn't specify a value of required "
                                 f"optimization parameter {name}")
            group.setdefault(name, default)
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in seen for p in group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self._engines.append(_hyperparameters_checked(self._engine, group["params"],
                                                      *self._options(group)))
        self.param_groups.append(group)

    def _options(self, group):
        return [group[name] for name in self._option_names]

    def zero_grad(self, set_to_none=True):
        """Clears the gradients: None (the default, torch 2's) or zeros."""
        for engine in self._engines:
            engine.zero_grad(set_to_none)

    def step(self, closure=None):
        """One update of every parameter that has a gradient. closure, if given, recomputes
        the loss first (with grad enabled) and is returned, as torch's."""
        loss = None
        if closure is not None:
            with _enable_grad():
                loss = closure()
        for group, engine in zip(self.param_groups, self._engines):
            _hyperparameters_checked(engine._set_options, *self._options(group))
            engine.step()
        return loss

    def __repr__(self):
        lines = [type(self).__name__ + " ("]
        for i, group in enumerate(self.param_groups):
            lines.append(f"Parameter Group {i}")
            for key in sorted(k for k in group if k != "params"):
                lines.append(f"    {key}: {group[key]}")
        lines.append(")")
        return "\n".join(lines)


def _hyperparameters_checked(fn, *args):
    """fn(*args), with the C++ check of a hyperparameter (torch's wording) raised as torch's
    ValueError; other errors (a parameter that can't be optimized) stay tide.Error."""
    try:
        return fn(*args)
    except _C.Error as e:
        if "Invalid " in str(e) or "Nesterov" in str(e):
            raise ValueError(str(e)) from None
        raise


def _enable_grad():
    from .._grad_mode import enable_grad
    return enable_grad()
