"""tide.utils.data: Dataset (subclassable in Python), TensorDataset, ConcatDataset,
random_split, samplers and the DataLoader with torch's API (pin_memory, worker threads,
default_collate)."""

from .dataset import (ConcatDataset, Dataset, IterableDataset, Subset, TensorDataset,
                      random_split)
from .sampler import (BatchSampler, RandomSampler, Sampler, SequentialSampler,
                      SubsetRandomSampler, WeightedRandomSampler)
from .distributed import DistributedSampler
from ._collate import default_collate, default_convert
from .dataloader import DataLoader
