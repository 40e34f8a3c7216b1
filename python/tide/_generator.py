"""tide.Generator: a seed and a count of draws, for the random choices tide.utils.data makes
(RandomSampler, SubsetRandomSampler, WeightedRandomSampler, random_split, the DataLoader's
generator=) — torch.Generator's seeding API.

Tide's draws are not torch's: the same seed gives a reproducible order in tide, not torch's
order (tide's cpu numbers come from Philox, torch's from a Mersenne twister). Tensor factories
do not take generator= yet; they draw from the device's default generator (tide.manual_seed)."""

from . import _C
from ._devices import device_arg

_DEFAULT_SEED = 67280421310721  # torch's default_rng_seed_val


class Generator:
    def __init__(self, device="cpu"):
        self.device = device_arg(device, "Generator(device)")
        self._seed = _DEFAULT_SEED
        self._draws = 0

    def manual_seed(self, seed):
        """Seeds the generator and restarts its draws; returns the generator (torch's chaining)."""
        seed = int(seed)
        if seed < -(1 << 63) or seed >= (1 << 64):
            raise RuntimeError(f"Overflow when unpacking long: manual_seed expected a 64-bit "
                               f"seed, found {seed}")
        self._seed = seed & ((1 << 64) - 1)
        self._draws = 0
        return self

    def seed(self):
        """Seeds the generator from tide's default cpu generator and returns the seed."""
        self.manual_seed(_C._draw_seed())
        return self._seed

    def initial_seed(self):
        return self._seed

    def get_state(self):
        """The state as a uint8 tensor (seed and draws, 8 bytes each, little-endian)."""
        data = self._seed.to_bytes(8, "little") + self._draws.to_bytes(8, "little")
        from ._factories import tensor
        return tensor(list(data), dtype=_C.uint8)

    def set_state(self, new_state):
        data = bytes(int(v) for v in new_state.tolist())
        if len(data) != 16:
            raise RuntimeError(f"[Generator.set_state] expected the 16-byte state get_state() "
                               f"returns, found {len(data)} bytes")
        self._seed = int.from_bytes(data[:8], "little")
        self._draws = int.from_bytes(data[8:], "little")
        return self

    def _next_key(self):
        """(seed, stream) of the next draw: each draw gets its own stream of numbers."""
        key = (self._seed, self._draws)
        self._draws += 1
        return key


def next_key(generator):
    """(seed, stream) for one draw: from `generator`, or a seed from tide's default cpu
    generator (reproducible after tide.manual_seed) when it is None."""
    if generator is None:
        return _C._draw_seed(), 0
    if isinstance(generator, Generator):
        return generator._next_key()
    return generator.initial_seed(), 0
