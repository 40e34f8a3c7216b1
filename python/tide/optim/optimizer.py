"""optim.Optimizer: torch's param_groups over tide's C++ optimizers (python/src/bind_optim.cpp),
one C++ optimizer per parameter group. Before every step each group's hyperparameters are
handed to its C++ optimizer, so a change to ``param_groups[i]['lr']`` applies at the next step.
The C++ optimizers hold the same tensors as the module (Note [Optimizers hold parameters]), so
a module moved in place after the optimizer was built is still optimized.

The per-parameter state lives in the C++ optimizers too. ``state``, ``state_dict()`` and
``load_state_dict()`` read and replace it in torch's layout (Note [Optimizer state in torch's
layout] in tide/optim/optimizer.h): ``state_dict()`` is a plain dict
``{"state": {index: {name: tensor or number}}, "param_groups": [{..., "params": [index...]}]}``
with parameters numbered across the groups in order, as torch 1.13 writes it, so a state_dict
from torch loads here and one from here loads in torch.

Note [Optimizers written in Python]: Adadelta, Adamax, NAdam, RAdam, Rprop, ASGD and LBFGS are
torch 1.13's single-tensor updates written again over tide's tensor ops, with torch's state
(the same names, tensors and Python numbers, 0-dim float32 "step" tensors on the cpu where
torch keeps them) in a dict keyed by parameter, as torch's ``Optimizer.state``. They run one
small op after another, as torch's do without foreach; a fused C++ step (as SGD's and Adam's)
is worth writing only for one that training loops lean on."""

import copy
import warnings
from collections import defaultdict

from .. import _C


class _RequiredParameter:
    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


class Optimizer:
    """Base of every optimizer. SGD, Adam, AdamW, RMSprop and Adagrad set _engine (the C++
    class) and _option_names (the group keys handed to it before each step, in its order).
    The others (Note [Optimizers written in Python]) leave _engine None, keep their state in
    Python as torch does and define _update(group, param, grad, state), the update of one
    parameter that step() calls."""

    _engine = None
    _option_names = ()

    def __init__(self, params, defaults):
        self.defaults = defaults
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
        self._state = defaultdict(dict)
        for group in param_groups:
            self.add_param_group(group)

    def add_param_group(self, param_group):
        """Adds a group ({'params': ..., and hyperparameters that override the defaults})."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group).__name__}")
        group = dict(param_group)
        params = group["params"]
        if isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        group["params"] = [params] if isinstance(params, _C.Tensor) else list(params)
        for p in group["params"]:
            if not isinstance(p, _C.Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                f"{type(p).__module__}.{type(p).__name__}")
            if not p.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in group:
                raise ValueError(f"parameter group didn't specify a value of required "
                                 f"optimization parameter {name}")
            group.setdefault(name, default)
        if len({id(p) for p in group["params"]}) != len(group["params"]):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; "
                          "in future, this will cause an error; see "
                          "github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in seen for p in group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        if self._engine is not None:
            self._engines.append(_hyperparameters_checked(self._engine, group["params"],
                                                          *self._options(group)))
        self.param_groups.append(group)

    def _options(self, group):
        return [group[name] for name in self._option_names]

    @property
    def state(self):
        """torch's ``optimizer.state``: {parameter: its state dict} for every parameter that
        has state. Built afresh at each read from the C++ optimizers: the tensors in it are the
        optimizer's own (an in-place change to one changes the optimizer's state), while adding
        or removing entries changes nothing; load_state_dict() replaces state. An optimizer
        written in Python returns its own dict, as torch's."""
        if self._engine is None:
            return self._state
        state = defaultdict(dict)
        for group, engine in zip(self.param_groups, self._engines):
            for i, p in enumerate(group["params"]):
                entry = self._engine_state(engine, i)
                if entry:
                    state[p] = entry
        return state

    def _engine_state(self, engine, index):
        """Parameter `index` of `engine`'s state as torch's dict ({} before its first step)."""
        return dict(engine._param_state(index))

    def state_dict(self):
        """The optimizer's state in torch's layout: "state" maps each parameter's index
        (counted across the groups, in order) to its state, "param_groups" holds each group's
        hyperparameters with "params" as a list of those indices. The state tensors are the
        optimizer's own, as torch's are: copy them (or save the dict) to keep a snapshot."""
        param_mappings = {}
        start_index = 0
        param_groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            param_mappings.update({id(p): i for i, p in enumerate(group["params"], start_index)
                                   if id(p) not in param_mappings})
            packed["params"] = [param_mappings[id(p)] for p in group["params"]]
            start_index += len(packed["params"])
            param_groups.append(packed)
        if self._engine is None:
            state = {param_mappings[id(p)]: entry for p, entry in self._state.items()}
            return {"state": state, "param_groups": param_groups}
        state = {}
        for group, engine in zip(self.param_groups, self._engines):
            for i, p in enumerate(group["params"]):
                entry = self._engine_state(engine, i)
                if entry:
                    state[param_mappings[id(p)]] = entry
        return {"state": state, "param_groups": param_groups}

    def load_state_dict(self, state_dict):
        """Loads a state_dict() of this optimizer's class — tide's or torch's — into this
        optimizer, whose groups must hold as many parameters as the saved ones: the saved state
        is copied onto each parameter's device and dtype ("step" excepted), the groups take the
        saved hyperparameters and keep their parameters. Raises torch's ValueError for groups
        that do not match; a state the optimizer cannot take (unknown entries, wrong shapes)
        raises and leaves the optimizer as it was."""
        groups = self.param_groups
        saved_groups = state_dict["param_groups"]
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match "
                             "the size of optimizer's group")
        saved_state = state_dict["state"]
        if self._engine is None:
            self._state = _python_state(groups, saved_groups, saved_state)
        else:
            self._load_engine_state(groups, saved_groups, saved_state)
        self.param_groups = [
            dict({k: copy.deepcopy(v) for k, v in s.items() if k != "params"}, params=g["params"])
            for g, s in zip(groups, saved_groups)]

    def _load_engine_state(self, groups, saved_groups, saved_state):
        before = [[engine._param_state(i) for i in range(len(g["params"]))]
                  for g, engine in zip(groups, self._engines)]
        try:
            for g, s, engine in zip(groups, saved_groups, self._engines):
                for i, saved_index in enumerate(s["params"]):
                    entry = saved_state.get(saved_index, {})
                    engine._load_param_state(i, [(k, _state_value(v)) for k, v in entry.items()])
        except BaseException:
            for g, engine, states in zip(groups, self._engines, before):
                for i, entry in enumerate(states):
                    engine._load_param_state(i, entry)
            raise

    def zero_grad(self, set_to_none=True):
        """Clears the gradients: None (the default, torch 2's) or zeros."""
        if self._engine is None:
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    if set_to_none:
                        p.grad = None
                    else:
                        p.grad = p.grad.detach()
                        p.grad.zero_()
            return
        for engine in self._engines:
            engine.zero_grad(set_to_none)

    def step(self, closure=None):
        """One update of every parameter that has a gradient. closure, if given, recomputes
        the loss first (with grad enabled) and is returned, as torch's."""
        loss = None
        if closure is not None:
            with _enable_grad():
                loss = closure()
        if self._engine is None:
            # an optimizer written in Python: its _update(group, param, grad, state) for each
            # parameter that has a gradient, in order, without autograd
            with _no_grad():
                for group in self.param_groups:
                    for p in group["params"]:
                        if p.grad is not None:
                            self._update(group, p, p.grad, self._state[p])
            return loss
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


def _python_state(groups, saved_groups, saved_state):
    """torch's load_state_dict for state kept in Python: each saved entry is copied onto its
    parameter's device, floating tensors in the parameter's dtype ("step" keeps its own), so
    the optimizer never shares a tensor with the dict it loaded."""
    state = defaultdict(dict)
    for g, s in zip(groups, saved_groups):
        for p, saved_index in zip(g["params"], s["params"]):
            if saved_index in saved_state:
                state[p] = _cast(p, saved_state[saved_index])
    return state


def _cast(param, value, key=None):
    if isinstance(value, _C.Tensor):
        if key != "step":
            if param.is_floating_point():
                value = value.to(dtype=param.dtype)
            value = value.to(param.device)
        return value.detach().clone()
    if isinstance(value, dict):
        return {k: _cast(param, v, k) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_cast(param, v) for v in value)
    return copy.deepcopy(value)


def _state_value(value):
    """A saved state entry as the C++ optimizer takes it: a tensor or None as it is, a number
    (RMSprop's int step in torch 1.13) as a 0-dim float32 tensor, as torch's other steps."""
    if value is None or isinstance(value, _C.Tensor):
        return value
    if isinstance(value, (int, float)):
        from .._factories import tensor
        return tensor(float(value))
    raise TypeError(f"optimizer state entries are tensors, numbers or None, but got "
                    f"{type(value).__name__}")


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


def _no_grad():
    from .._grad_mode import no_grad
    return no_grad()
