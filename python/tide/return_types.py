"""tide.return_types: the named tuples that x.max(dim) and x.min(dim) return (values,
indices), as torch.return_types; they unpack as tuples and print as torch's."""

from collections import namedtuple


def _structseq(name):
    base = namedtuple(name, ["values", "indices"])

    def __repr__(self):
        return f"tide.return_types.{name}(\nvalues={self.values!r},\nindices={self.indices!r})"

    return type(name, (base,), {"__slots__": (), "__repr__": __repr__,
                                "__module__": "tide.return_types"})


max = _structseq("max")
min = _structseq("min")
