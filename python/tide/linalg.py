"""tide.linalg: torch.linalg's vector norm (the rest of torch.linalg is not in tide yet)."""

from ._reductions import vector_norm

__all__ = ["vector_norm"]
