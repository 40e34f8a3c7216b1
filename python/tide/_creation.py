"""Issue 25 item 3's creation and random functions under torch's names: eye, logspace,
tril_indices/triu_indices, meshgrid, empty_strided, randperm, multinomial, normal (the tensor
mean/std forms), bernoulli, poisson, get_rng_state/set_rng_state, and the `generator=`
argument of the random ones.

The C++ functions (tide/matrix_factories.h, tide/sampling.h) do the work on the tensor's
device; normal is differentiable in its tensor mean and std.

Note [Drawing from a Generator]: a tide.Generator is a seed and a count of draws
(python/tide/_generator.py). A call given one runs on the cpu, drawing from the default cpu
generator set to a stream of its own for (seed, draws) and restored afterwards, and its result
moves to the device: the same generator state gives the same numbers on every device, and the
default generators' sequences are untouched."""

import contextlib

from . import _C
from ._devices import device_arg
from ._factories import _drawn_with

Tensor = _C.Tensor


def get_rng_state():
    """The default cpu generator's state, as a uint8 tensor (set_rng_state takes it back)."""
    from ._factories import tensor
    return tensor(_C._get_rng_state(), dtype=_C.uint8)


def set_rng_state(new_state):
    _C._set_rng_state([int(v) for v in new_state.tolist()])


@contextlib.contextmanager
def _drawing_from(generator):
    """Within: the default cpu generator at the stream of (generator's seed, its draw count);
    afterwards: its own state back, and the generator one draw further. Only the cpu's state
    is set (manual_seed would reseed every device's)."""
    saved = _C._get_rng_state()
    seed = (generator.initial_seed() * 0x9E3779B97F4A7C15 + generator._draws) % (1 << 64)
    generator._draws += 1
    _C._set_rng_state(list(seed.to_bytes(8, "little")) + [0] * 8)
    try:
        yield
    finally:
        _C._set_rng_state(saved)


def _normal01(shape, device, dtype, generator):
    from ._factories import randn
    return randn(*shape, generator=generator, dtype=dtype, device=device)


def _finish(t, requires_grad):
    return t.requires_grad_() if requires_grad else t


def _no_out(out, name):
    if out is not None:
        raise TypeError(f"{name}(): out= is not supported by tide; assign the result instead")


def eye(n, m=None, *, out=None, dtype=None, device=None, requires_grad=False):
    """The (n, m) identity: ones on the main diagonal."""
    _no_out(out, "eye")
    return _C._eye(n, m, dtype, device_arg(device), requires_grad)


def logspace(start, end, steps, base=10.0, *, out=None, dtype=None, device=None,
             requires_grad=False):
    _no_out(out, "logspace")
    return _C._logspace(start, end, steps, base, dtype, device_arg(device), requires_grad)


def tril_indices(row, col, offset=0, *, dtype=None, device=None):
    return _C._tril_indices(row, col, offset, dtype, device_arg(device))


def triu_indices(row, col, offset=0, *, dtype=None, device=None):
    return _C._triu_indices(row, col, offset, dtype, device_arg(device))


def meshgrid(*tensors, indexing=None):
    """The coordinate grids of 0-D or 1-D tensors: 'ij' (matrix indexing, torch's default) or
    'xy' (the first two dims swapped). The grids are expanded views, as torch's."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    if indexing is None:
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f"torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but "
                           f"received: {indexing}")
    for t in tensors:
        if t.dim() > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but "
                               f"got: {t.dim()}D")
    ts = [t.reshape(-1) for t in tensors]
    swap = indexing == "xy" and len(ts) >= 2
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    shape = [t.numel() for t in ts]
    out = []
    for i, t in enumerate(ts):
        view = [1] * len(ts)
        view[i] = -1
        out.append(t.reshape(view).expand(shape))
    if swap:
        out[0], out[1] = out[1], out[0]
    return tuple(out)


def empty_strided(size, stride, *, dtype=None, device=None, requires_grad=False,
                  pin_memory=False):
    return _C._empty_strided(list(size), list(stride), dtype, device_arg(device), requires_grad,
                             pin_memory)


def _new_empty_strided(self, size, stride, *, dtype=None, device=None, requires_grad=False):
    return empty_strided(size, stride, dtype=dtype or self.dtype,
                         device=device if device is not None else self.device,
                         requires_grad=requires_grad)


def randperm(n, *, generator=None, out=None, dtype=None, device=None, requires_grad=False):
    _no_out(out, "randperm")
    if generator is None:
        return _C._randperm(n, dtype, device_arg(device), requires_grad)
    perm = _drawn_with(generator, device, lambda cpu: _C._randperm(n, dtype, cpu, False))
    return _finish(perm, requires_grad)


def multinomial(input, num_samples, replacement=False, *, generator=None, out=None):
    _no_out(out, "multinomial")
    if generator is None:
        return _C._multinomial(input, num_samples, replacement)
    return _drawn_with(generator, input.device,
                       lambda cpu: _C._multinomial(input.to(cpu), num_samples, replacement))


def normal(mean, std=1.0, size=None, *, generator=None, out=None, dtype=None, device=None,
           requires_grad=False):
    """torch.normal's forms: (Tensor mean, Tensor std), (Tensor mean, float std), (float mean,
    Tensor std) with the broadcast shape, and (float mean, float std, size)."""
    _no_out(out, "normal")
    mean_t, std_t = isinstance(mean, Tensor), isinstance(std, Tensor)
    if not mean_t and not std_t:
        if size is None:
            raise TypeError("normal() missing required argument 'size' for float mean and std")
        if std < 0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
        z = _normal01(list(size), device_arg(device), dtype, generator)
        return _finish(z * std + mean, requires_grad)
    if generator is None:
        return _C._normal(mean, std)
    # the generator's draws: standard normals on the cpu, scaled on the parameters' device
    like = mean if mean_t else std
    if std_t and bool((std < 0).any()):
        raise RuntimeError("normal expects all elements of std >= 0.0")
    if not std_t and std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
    shape = list(_C.broadcast_tensors(mean, std)[0].shape) if mean_t and std_t else list(like.shape)
    return _normal01(shape, like.device, like.dtype, generator) * std + mean


def bernoulli(input, p=None, *, generator=None, out=None):
    """1 with probability input (or p), else 0, in input's dtype."""
    _no_out(out, "bernoulli")
    args = (input,) if p is None else (input, float(p))
    if generator is None:
        return _C._bernoulli(*args)
    return _drawn_with(generator, input.device,
                       lambda cpu: _C._bernoulli(input.to(cpu), *args[1:]))


def _bernoulli_(self, p=0.5, *, generator=None):
    if isinstance(p, Tensor):
        draws = bernoulli(p.expand(self.shape).to(_C.float64), generator=generator)
    else:
        draws = bernoulli(self, p, generator=generator)
    self.copy_(draws)
    return self


def poisson(input, generator=None):
    if generator is None:
        return _C._poisson(input)
    return _drawn_with(generator, input.device, lambda cpu: _C._poisson(input.to(cpu)))


def install(namespace):
    Tensor.multinomial = multinomial
    Tensor.bernoulli = bernoulli
    Tensor.bernoulli_ = _bernoulli_
    Tensor.new_empty_strided = _new_empty_strided
    namespace.update(
        eye=eye, logspace=logspace, tril_indices=tril_indices, triu_indices=triu_indices,
        meshgrid=meshgrid, empty_strided=empty_strided, randperm=randperm,
        multinomial=multinomial, normal=normal, bernoulli=bernoulli, poisson=poisson,
        get_rng_state=get_rng_state, set_rng_state=set_rng_state)
