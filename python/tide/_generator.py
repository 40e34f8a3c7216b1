"""tide.Generator: torch.Generator's API over tide::Generator (Note [Generators] in
include/tide/generator.h): a Philox stream's (seed, offset), which the random functions'
generator= and tide.utils.data's random choices (RandomSampler, SubsetRandomSampler,
WeightedRandomSampler, random_split, the DataLoader's generator=) draw from.

Tide's draws are not torch's: the same seed gives reproducible numbers in tide, equal on every
device, not torch's numbers (tide's come from Philox, torch's cpu ones from a Mersenne
twister)."""

from . import _C

Generator = _C.Generator
default_generator = _C.default_generator


def next_key(generator):
    """(seed, stream) for one draw: from `generator` (one Philox block of it, so the next draw
    gets another stream), or a seed from tide's default cpu generator (reproducible after
    tide.manual_seed) when it is None, or the fixed seed of any other object with
    initial_seed() (a torch.Generator)."""
    if generator is None:
        return _C._draw_seed(), 0
    if isinstance(generator, Generator):
        return generator._next_key()
    return generator.initial_seed(), 0
