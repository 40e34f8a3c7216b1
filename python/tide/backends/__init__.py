"""tide.backends: the backends' switches, as torch.backends (cudnn)."""

from . import cudnn
