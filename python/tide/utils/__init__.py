"""tide.utils: data loading (tide.utils.data), as torch.utils."""

from . import data
