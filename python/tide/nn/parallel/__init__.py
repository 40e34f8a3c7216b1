"""tide.nn.parallel: DataParallel and the pieces it is made of (replicate, scatter,
parallel_apply, gather), as torch.nn.parallel."""

from .data_parallel import DataParallel
from .parallel_apply import parallel_apply
from .replicate import replicate
from .scatter_gather import gather, scatter
