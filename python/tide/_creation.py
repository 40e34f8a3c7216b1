"""Issue 25 item 3's creation and random functions under torch's names: eye, logspace,
tril_indices/triu_indices, meshgrid, empty_strided, randperm, multinomial, normal (the tensor
mean/std forms), bernoulli, poisson, Tensor.random_, get_rng_state/set_rng_state, and the
`generator=` argument of the random ones.

The C++ functions (tide/matrix_factories.h, tide/sampling.h) do the work on the tensor's
device; normal is differentiable in its tensor mean and std. generator= is a tide.Generator
(tide::Generator), passed to C++, which draws with it on the op's device (Note [Generators] in
include/tide/generator.h); None draws from the device's default generator."""

from . import _C
from ._devices import device_arg
from ._factories import _written_into
from ._ops import _into_out

Tensor = _C.Tensor


def get_rng_state():
    """The default cpu generator's state, as a uint8 tensor (set_rng_state takes it back)."""
    from ._factories import tensor
    return tensor(_C._get_rng_state(), dtype=_C.uint8)


def set_rng_state(new_state):
    _C._set_rng_state([int(v) for v in new_state.tolist()])


def eye(n, m=None, *, out=None, dtype=None, device=None, requires_grad=False):
    """The (n, m) identity: ones on the main diagonal."""
    if out is not None:
        return _written_into(out, "eye", dtype, lambda dt, dev: _C._eye(n, m, dt, dev, False))
    return _C._eye(n, m, dtype, device_arg(device), requires_grad)


def logspace(start, end, steps, base=10.0, *, out=None, dtype=None, device=None,
             requires_grad=False):
    if out is not None:
        return _written_into(out, "logspace", dtype, lambda dt, dev: _C._logspace(
            start, end, steps, base, dt, dev, False))
    return _C._logspace(start, end, steps, base, dtype, device_arg(device), requires_grad)


def tril_indices(row, col, offset=0, *, dtype=None, device=None):
    return _C._tril_indices(row, col, offset, dtype, device_arg(device))


def triu_indices(row, col, offset=0, *, dtype=None, device=None):
    return _C._triu_indices(row, col, offset, dtype, device_arg(device))


def meshgrid(*tensors, indexing=None):
    """The coordinate grids of 0-D or 1-D tensors: 'ij' (matrix indexing, torch's default) or
    'xy' (the first two dims swapped), as expanded views: C++'s meshgrid."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    return tuple(_C._meshgrid(list(tensors), "ij" if indexing is None else indexing))


def empty_strided(size, stride, *, dtype=None, device=None, requires_grad=False,
                  pin_memory=False):
    return _C._empty_strided(list(size), list(stride), dtype, device_arg(device), requires_grad,
                             pin_memory)


def _new_empty_strided(self, size, stride, *, dtype=None, device=None, requires_grad=False):
    return empty_strided(size, stride, dtype=dtype or self.dtype,
                         device=device if device is not None else self.device,
                         requires_grad=requires_grad)


def randperm(n, *, generator=None, out=None, dtype=None, device=None, requires_grad=False):
    if out is not None:
        return _written_into(out, "randperm", dtype,
                             lambda dt, dev: _C._randperm(n, dt, dev, False, generator))
    return _C._randperm(n, dtype, device_arg(device), requires_grad, generator)


def multinomial(input, num_samples, replacement=False, *, generator=None, out=None):
    result = _C._multinomial(input, num_samples, replacement, generator)
    return result if out is None else _into_out("multinomial", result, out, "same")


def normal(mean, std=1.0, size=None, *, generator=None, out=None, dtype=None, device=None,
           requires_grad=False):
    """torch.normal's forms: (Tensor mean, Tensor std), (Tensor mean, float std), (float mean,
    Tensor std) with the broadcast shape, and (float mean, float std, size)."""
    mean_t, std_t = isinstance(mean, Tensor), isinstance(std, Tensor)
    if not mean_t and not std_t:
        if size is None:
            raise TypeError("normal() missing required argument 'size' for float mean and std")
        if out is not None:
            return _written_into(out, "normal", dtype, lambda dt, dev: _C._normal_sized(
                float(mean), float(std), list(size), generator, dt, dev, False))
        return _C._normal_sized(float(mean), float(std), list(size), generator, dtype,
                                device_arg(device), requires_grad)
    result = _C._normal(mean, std, generator)
    return result if out is None else _into_out("normal", result, out, "same")


def bernoulli(input, p=None, *, generator=None, out=None):
    """1 with probability input (or p), else 0, in input's dtype."""
    args = (input,) if p is None else (input, float(p))
    result = _C._bernoulli(*args, generator)
    return result if out is None else _into_out("bernoulli", result, out, "any")


def _bernoulli_(self, p=0.5, *, generator=None):
    return self._bernoulli_(p if isinstance(p, Tensor) else float(p), generator)


def poisson(input, generator=None):
    return _C._poisson(input, generator)


def _random_(self, *args, generator=None, **kwargs):
    """torch's Tensor.random_(to), random_(from, to) (to None: up to the dtype's largest
    integer) and random_(): integers drawn into self."""
    names = ("from", "to")
    if len(args) > 2:
        raise TypeError(f"random_() takes at most 2 positional arguments ({len(args)} given)")
    bound = dict(zip(names if len(args) == 2 else ("to",), args))
    for key, value in kwargs.items():
        if key not in names or key in bound:
            raise TypeError(f"random_() got an unexpected or repeated keyword argument '{key}'")
        bound[key] = value
    if "from" not in bound and "to" not in bound:
        return self._random_(0, None, generator)
    if "from" not in bound:
        return self._random_(0, bound["to"], generator)
    return self._random_(bound["from"], bound.get("to"), generator)


def install(namespace):
    Tensor.multinomial = multinomial
    Tensor.bernoulli = bernoulli
    Tensor.bernoulli_ = _bernoulli_
    Tensor.random_ = _random_
    Tensor.new_empty_strided = _new_empty_strided
    namespace.update(
        eye=eye, logspace=logspace, tril_indices=tril_indices, triu_indices=triu_indices,
        meshgrid=meshgrid, empty_strided=empty_strided, randperm=randperm,
        multinomial=multinomial, normal=normal, bernoulli=bernoulli, poisson=poisson,
        get_rng_state=get_rng_state, set_rng_state=set_rng_state)
