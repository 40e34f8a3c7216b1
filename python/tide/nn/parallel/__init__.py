"""tide.nn.parallel: DataParallel and the pieces it is made of (replicate, scatter,
parallel_apply, gather), and DistributedDataParallel, as torch.nn.parallel."""

from .data_parallel import DataParallel
from .distributed import DistributedDataParallel
from .parallel_apply import parallel_apply
from .replicate import replicate
from .scatter_gather import gather, scatter
