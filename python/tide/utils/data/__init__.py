"""tide.utils.data: Dataset (subclassable in Python), TensorDataset, samplers and the
DataLoader with torch's API (pin_memory, worker threads, default_collate)."""

from .dataset import Dataset, IterableDataset, Subset, TensorDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler
from .distributed import DistributedSampler
from ._collate import default_collate, default_convert
from .dataloader import DataLoader
