"""tide.utils: data loading (tide.utils.data) and hook handles (tide.utils.hooks), as
torch.utils."""

from . import data, hooks
