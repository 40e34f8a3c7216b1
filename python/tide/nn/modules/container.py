"""nn.Sequential, nn.ModuleList and nn.ModuleDict: modules held in order, under the names "0",
"1", ... (or the keys of an OrderedDict given to Sequential, or a ModuleDict's keys), as torch's
containers."""

from collections import OrderedDict
from collections.abc import Iterable, Mapping
import operator

from .module import Module


def _index(idx, size):
    idx = operator.index(idx)
    if not -size <= idx < size:
        raise IndexError(f"index {idx} is out of range")
    return idx % size


class _Ordered(Module):
    """What Sequential and ModuleList share: children in order, len, iteration, append."""

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules):
        for module in modules:
            self.append(module)
        return self


class Sequential(_Ordered):
    """Sequential(*modules) or Sequential(OrderedDict): forward runs them in order."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(OrderedDict(list(self._modules.items())[idx]))
        return list(self._modules.values())[_index(idx, len(self))]

    def __setitem__(self, idx, module):
        key = list(self._modules.keys())[_index(idx, len(self))]
        setattr(self, key, module)

    def __delitem__(self, idx):
        keys = list(self._modules.keys())
        for key in (keys[idx] if isinstance(idx, slice) else [keys[_index(idx, len(self))]]):
            delattr(self, key)
        # torch renumbers the remaining modules
        items = list(self._modules.items())
        self._modules.clear()
        for i, (key, module) in enumerate(items):
            self._modules[str(i) if key.isdigit() else key] = module

    def insert(self, index, module):
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        n = len(self)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        index = index + n if index < 0 else index
        modules = list(self._modules.values())
        modules.insert(index, module)
        self._modules.clear()
        for i, m in enumerate(modules):
            self._modules[str(i)] = m
        return self

    def forward(self, input):
        for module in self:
            input = module(input)
        return input


class ModuleList(_Ordered):
    """A list of modules, registered as children (so parameters() and to() see them)."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(list(self._modules.values())[idx])
        return self._modules[str(_index(idx, len(self)))]

    def __setitem__(self, idx, module):
        setattr(self, str(_index(idx, len(self))), module)



class ModuleDict(Module):
    """Modules by string key, in insertion order, registered as children (torch.nn.ModuleDict).
    update() keeps the order of any mapping or sequence of pairs, as torch 1.13."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __delitem__(self, key):
        del self._modules[key]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key):
        return key in self._modules

    def clear(self):
        self._modules.clear()

    def pop(self, key):
        module = self[key]
        del self[key]
        return module

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def update(self, modules):
        _update_pairs(self, "ModuleDict", modules, sort_plain_dicts=False)


def _update_pairs(container, kind, pairs, sort_plain_dicts):
    """torch's ModuleDict/ParameterDict.update: a mapping's items, or a sequence of (key,
    value) pairs, with torch's errors for anything else."""
    if not isinstance(pairs, Iterable):
        raise TypeError(f"{'ParametersDict' if kind == 'ParameterDict' else kind}.update should "
                        "be called with an iterable of key/value pairs, but got "
                        + type(pairs).__name__)
    if isinstance(pairs, (OrderedDict, type(container))):
        items = list(pairs.items())
    elif isinstance(pairs, Mapping):
        items = sorted(pairs.items()) if sort_plain_dicts else list(pairs.items())
    else:
        items = []
        for j, pair in enumerate(pairs):
            if not isinstance(pair, Iterable):
                raise TypeError(f"{kind} update sequence element #{j} should be Iterable; is"
                                + type(pair).__name__)
            if not len(pair) == 2:
                raise ValueError(f"{kind} update sequence element #{j} has length {len(pair)}; "
                                 "2 is required")
            items.append((pair[0], pair[1]))
    for key, value in items:
        container[key] = value
