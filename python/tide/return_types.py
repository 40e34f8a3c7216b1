"""tide.return_types: the named tuples that x.max(dim) and x.min(dim) return (values,
indices), the sorts and selections (sort, topk, kthvalue, median, mode, cummax, cummin) and
x.aminmax() (min, max), as torch.return_types; they unpack as tuples and print
as torch's."""

from collections import namedtuple


def _structseq(name, fields=("values", "indices")):
    base = namedtuple(name, fields)

    def __repr__(self):
        parts = ",\n".join(f"{f}={getattr(self, f)!r}" for f in fields)
        return f"tide.return_types.{name}(\n{parts})"

    return type(name, (base,), {"__slots__": (), "__repr__": __repr__,
                                "__module__": "tide.return_types"})


max = _structseq("max")
min = _structseq("min")
aminmax = _structseq("aminmax", ("min", "max"))
cummax = _structseq("cummax")
cummin = _structseq("cummin")
sort = _structseq("sort")
topk = _structseq("topk")
kthvalue = _structseq("kthvalue")
median = _structseq("median")
mode = _structseq("mode")
