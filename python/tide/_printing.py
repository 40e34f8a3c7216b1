"""torch.set_printoptions over the C++ setting that Tensor.__repr__ reads."""

import math

from . import _C

# torch's profiles: (precision, threshold, edgeitems, linewidth).
_PROFILES = {
    "default": (4, 1000, 3, 80),
    "short": (2, 1000, 2, 80),
    "full": (4, math.inf, 3, 80),
}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     profile=None, sci_mode=None):
    """As torch's: `profile` first ("default", "short" or "full"), then each number given;
    sci_mode is always replaced (None: torch's rule picks the notation)."""
    current = list(_C._get_printoptions()[:4])
    if profile is not None:
        if profile not in _PROFILES:
            raise ValueError(f"set_printoptions(): profile must be one of "
                             f"{', '.join(map(repr, _PROFILES))}, found {profile!r}")
        current = list(_PROFILES[profile])
    for i, given in enumerate((precision, threshold, edgeitems, linewidth)):
        if given is not None:
            current[i] = given
    _C._set_printoptions(*current, sci_mode)
