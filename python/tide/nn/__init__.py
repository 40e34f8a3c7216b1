"""tide.nn: Module (subclassable in Python, as torch.nn.Module), Parameter, the layers and
losses, functional, and DataParallel."""

from .parameter import Parameter
from .modules import *  # noqa: F401,F403 - every layer, as torch.nn
from .modules import Module
from . import functional
from . import init
from . import utils
from . import parallel
from .parallel import DataParallel
