"""torch's one-line TypeError for an argument of the wrong type.

Note [Argument type errors]: when no overload of a bound function takes the arguments,
nanobind raises a TypeError that lists every signature in C++-binding terms (``_ones(size:
collections.abc.Sequence[int], dtype: tide.dtype | None, ...)``) and the types it was given.
torch names the one argument at fault: ``ones(): argument 'dtype' must be torch.dtype, not
str``. `translated` rebuilds that line from nanobind's message: it lines the given types up
with each signature's parameters, takes the overload that matches longest (the one the caller
meant, as torch's parser does) and names its first parameter that refuses its argument. The
translation runs only on the error path, in the Python functions that already wrap a binding
(factories, free functions, Tensor.to), so no call pays for it; a message it cannot read is
left as nanobind wrote it. The functions and methods bound in C++ directly have no Python in
front of them: for those, a last overload that only runs when every real one refused
(`refused` below; Note [A refusal overload] in python/src/bind_argument_errors.cpp)
gives the same line, and costs the calls that succeed nothing measurable (bench/RESULTS.md).
"""

import functools
import re

_OVERLOAD = re.compile(r"^\s*\d+\. [\w.]+\((?P<params>.*)\) -> ")
_INVOKED = re.compile(r"^Invoked with types: (?P<types>.*)$")

# How a parameter's annotation reads in the message, where torch's differs from Python's.
_READABLE = {
    "collections.abc.Sequence[int]": "tuple of ints",
    "tide._C.device": "tide.device",
    "tide.Tensor": "Tensor",  # torch's word
    "tide._C.Tensor": "Tensor",
    "collections.abc.Sequence[tide.Tensor]": "tuple of Tensors",
    "collections.abc.Sequence[tide._C.Tensor]": "tuple of Tensors",
}


def _split_top(text, sep):
    """`text` split at `sep` outside brackets and braces."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and text.startswith(sep, i):
            parts.append(text[start:i].strip())
            start = i + len(sep)
    tail = text[start:].strip()
    if tail:
        parts.append(tail)
    return parts


def _parsed(params):
    """[(name, annotation, has a default)] of a signature, `self` included, `*`, `/`, `*args`
    and `**kwargs` left out."""
    out = []
    for p in _split_top(params, ","):
        if p in ("*", "/") or p.startswith("*"):
            continue
        declaration, default, _ = p.partition("=")
        name, _, annotation = declaration.partition(":")
        out.append((name.strip(), annotation.strip() or "object", bool(default)))
    return out


def _parameters(params):
    """[(name, annotation)] of a signature, `self` included, `*` left out."""
    return [(name, annotation) for name, annotation, _ in _parsed(params)]


def _given(types):
    """The positional type names and {keyword: type name} of nanobind's 'Invoked with'."""
    positional, keywords = [], {}
    for part in _split_top(types, ","):
        if part.startswith("kwargs = {"):
            for kw in _split_top(part[len("kwargs = {"):-1], ","):
                key, _, value = kw.partition(":")
                keywords[key.strip()] = value.strip()
        else:
            positional.append(part)
    return positional, keywords


def _accepts(annotation, given):
    """Whether a parameter annotated `annotation` takes an argument of type name `given`."""
    for option in _split_top(annotation, "|"):
        if option == "object" or option == given:
            return True
        if option == "None" and given == "NoneType":
            return True
        if option.startswith("collections.abc.Sequence") and given in ("list", "tuple"):
            return True
        if option in ("float", "Number") and given in ("int", "float", "bool"):
            return True
        if option == "int" and given == "bool":
            return True
        # Only the last dotted part is compared: nanobind spells a class by its module.
        if option.rsplit(".", 1)[-1] == given.rsplit(".", 1)[-1]:
            return True
    return False


def _readable(annotation):
    options = [o for o in _split_top(annotation, "|") if o != "None"]
    return " or ".join(_READABLE.get(o, o) for o in options)


def _first_refused(params, positional, keywords):
    """(index, name, annotation, given) of the first parameter that refuses its argument."""
    for i, (name, annotation) in enumerate(params):
        given = positional[i] if i < len(positional) else keywords.get(name)
        if given is not None and not _accepts(annotation, given):
            return i, name, annotation, given
    return None


def _message(name, signatures, positional, keywords):
    """torch's one line for a call of `name` that no overload took: `signatures` are the
    overloads' parameter lists, `positional` and `keywords` the given type names. None when
    every parameter takes its argument (the arity is what is wrong)."""
    all_params = [_parameters(p) for p in signatures]
    known = {name for params in all_params for name, _ in params}
    unknown = [kw for kw in keywords if kw not in known]
    if unknown:
        return f"{name}() got an unexpected keyword argument '{unknown[0]}'"
    best = None
    for params in all_params:
        refused = _first_refused(params, positional, keywords)
        if refused is not None and (best is None or refused[0] > best[0]):
            best = refused
    if best is None:
        return None
    _, param, annotation, given = best
    return (f"{name}(): argument '{param}' must be {_readable(annotation)}, "
            f"not {given.rsplit('.', 1)[-1] if given != 'NoneType' else 'None'}")


def translated(err, name):
    """torch's one-line message for nanobind's overload error `err` of function `name`, or
    None when `err` is not such an error."""
    lines = str(err).splitlines()
    if not lines or "incompatible function arguments" not in lines[0]:
        return None
    signatures = [m.group("params") for m in map(_OVERLOAD.match, lines) if m]
    invoked = [m.group("types") for m in map(_INVOKED.match, lines) if m]
    if not signatures or not invoked:
        return None
    positional, keywords = _given(invoked[0])
    return _message(name, signatures, positional, keywords)


def raise_translated(err, name):
    """Raises torch's one-line TypeError for `err` when it reads it, else `err` itself."""
    message = translated(err, name)
    if message is None:
        raise err
    raise TypeError(message) from None


def torch_type_errors(fn, name=None):
    """`fn` raising torch's one-line TypeError (Note [Argument type errors])."""
    public = name or fn.__name__

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except TypeError as err:
            raise_translated(err, public)
    return wrapper


# Note [A refusal overload] (python/src/bind_argument_errors.cpp): the Tensor methods and module
# functions bound in C++ directly get a last overload that calls `refused` when no real overload
# took the arguments. Their names, real signatures and the refusal's parameters are kept here
# at install, by "<module>.<name>" or "<module>.<class>.<name>".
class _Missing:
    """The refusal's default: "not given", told apart from None (and read so in help())."""

    def __repr__(self):
        return "<not given>"


_MISSING = _Missing()
_SIGNATURES = {}


def _nb_parameters(signature):
    """The parameter list of a nanobind __nb_signature__ line, 'def name(params) -> type'."""
    line = signature.splitlines()[-1]
    start = line.index("(") + 1
    depth = 1
    for i in range(start, len(line)):
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(line[i], 0)
        if depth == 0:
            return line[start:i]
    return line[start:]


def _type_name(value):
    return "NoneType" if value is None else type(value).__name__


def _missing_message(name, signatures, keywords, skip):
    """torch's line for a call that left out a required argument (of the overload missing
    fewest; the first `skip` parameters are given positionally), or None."""
    best = None
    for params in signatures:
        required = [name for name, _, has_default in _parsed(params)[skip:] if not has_default]
        missing = [p for p in required if p not in keywords]
        if missing and (best is None or len(missing) < len(best)):
            best = missing
    if best is None:
        return None
    s = "" if len(best) == 1 else "s"
    return (f"{name}() missing {len(best)} required positional argument{s}: "
            + ", ".join(f'"{p}"' for p in best))


def refused(key, self, given):
    """Raises torch's TypeError for the call the refusal overload of `key` took: `self` (None
    for a module function) and `given`, its arguments by its parameter names (_MISSING where
    not given)."""
    name, signatures, names = _SIGNATURES[key]
    name = name[1:] if name.startswith("_") else name  # _topk is topk's binding: say topk
    keywords = {n: _type_name(v) for n, v in zip(names, given) if v is not _MISSING}
    positional = [] if self is None else [_type_name(self)]
    message = _message(name, signatures, positional, keywords)
    if message is None:
        message = _missing_message(name, signatures, keywords, skip=len(positional))
    if message is None:
        # Every type fits some parameter, yet no overload took them (a value out of range, an
        # argument given twice): still one line, with what was given and what is taken.
        args = ", ".join([f"self: {_type_name(self)}"] * len(positional)
                         + [f"{n}: {t}" for n, t in keywords.items()])
        taken = " or ".join(f"({p})" for p in signatures)
        message = f"{name}(): no overload takes ({args}); it takes {taken}"
    raise TypeError(message)


def install_refusals(scope, refuse, method, max_parameters=7):
    """Adds the refusal overload to every function nanobind binds in `scope` (the methods of a
    class, method=True, or a module's functions), before anything holds one of them (nanobind
    replaces a function object when it gains an overload). A private one (_topk) is the
    binding a Python function (topk) calls, and its message names that function. Dunders are
    left alone: an operator returns NotImplemented for Python to try the other operand."""
    kind = "nb_method" if method else "nb_func"
    for name, function in list(vars(scope).items()):
        if name.startswith("__") or type(function).__name__ != kind or function is refuse:
            continue
        # Only where nanobind defined it: it would hide, not extend, a function bound in
        # another scope or under another name, and the other names would see it emptied.
        if function.__name__ != name or (not method and function.__module__ != scope.__name__):
            continue
        signatures = [_nb_parameters(s[0]) for s in function.__nb_signature__]
        names = []
        for params in signatures:
            for param, _ in _parameters(params)[1 if method else 0:]:
                if param not in names:
                    names.append(param)
        if not names or len(names) > max_parameters:
            continue  # nothing to refuse, or more than nanobind's medium dispatch takes
        where = f"{scope.__module__}.{scope.__qualname__}" if method else scope.__name__
        key = f"{where}.{name}"
        _SIGNATURES[key] = (name, signatures, names)
        refuse(scope, name, key, names, _MISSING, method)


def install_all(module, refuse):
    """install_refusals on every module function and class method that `module` (tide._C) and
    its submodules bind."""
    seen = set()
    todo = [module]
    while todo:
        scope = todo.pop()
        if id(scope) in seen:
            continue
        seen.add(id(scope))
        install_refusals(scope, refuse, method=False)
        for value in list(vars(scope).values()):
            if type(value).__name__ == "module" and value.__name__.startswith(module.__name__):
                todo.append(value)
            elif type(value).__name__ == "nb_type" and id(value) not in seen:
                seen.add(id(value))
                install_refusals(value, refuse, method=True)
