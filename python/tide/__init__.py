"""tide: PyTorch's CUDA semantics in a small C++ runtime, with torch's Python API.

``import tide as torch`` runs code written for torch, for everything tide covers, on real
GPUs and on simulated ones (``TIDE_SIM_DEVICES=3``). Importing starts no backend: devices are
found at the first cuda call, so ``os.environ['CUDA_VISIBLE_DEVICES']`` set after the import
still counts.
"""

from . import _C
from . import _arg_errors
# Note [A refusal overload]: first, while nothing holds a function of _C yet.
_arg_errors.install_all(_C, _C._refuse_other_arguments)
from ._C import (Tensor, device, dtype, cat, stack, manual_seed, initial_seed,
                 set_default_dtype, get_default_dtype, set_default_device, get_default_device,
                 is_grad_enabled, set_float32_matmul_precision, get_float32_matmul_precision)
# tide's exceptions: all RuntimeError subclasses; tide.cuda.OutOfMemoryError is OutOfMemoryError.
from ._C import Error, OutOfMemoryError, KernelError, StreamRaceError, InternalError, IndexingError
from ._C import (bool, uint8, int32, int64, float16, bfloat16, float32, float64)
from ._C import memory_format
contiguous_format = memory_format.contiguous_format
preserve_format = memory_format.preserve_format
channels_last = memory_format.channels_last
channels_last_3d = memory_format.channels_last_3d
from ._size import Size
from ._factories import (empty, zeros, ones, full, rand, randn, randint, arange, linspace,
                         tensor, empty_like, zeros_like, ones_like, full_like, rand_like,
                         randn_like, randint_like)
from ._arg_errors import torch_type_errors as _torch_type_errors
# Note [Argument type errors]: a wrong argument type raises torch's one-line TypeError.
for _name in ("empty", "zeros", "ones", "full", "rand", "randn", "randint", "arange",
              "linspace", "tensor", "empty_like", "zeros_like", "ones_like", "full_like",
              "rand_like", "randn_like", "randint_like"):
    globals()[_name] = _torch_type_errors(globals()[_name])
from ._grad_mode import no_grad, enable_grad, set_grad_enabled, inference_mode
from . import _tensor, _ops, _legacy, _dlpack
from ._dlpack import from_dlpack, from_numpy
from ._serialization import save, load
from ._printing import set_printoptions
from ._generator import Generator, default_generator

# torch's aliases of the dtypes.
float = float32
double = float64
half = float16
long = int64
int = int32

_C._set_size_type(Size)
from . import return_types  # noqa: E402
_C._set_return_types(return_types.max, return_types.min)
_tensor.install()
_dlpack.install()
Tensor.type = _legacy.tensor_type
_ops.install(globals())
from . import _reductions  # noqa: E402
_reductions.install(globals())
from . import _search  # noqa: E402
_search.install(globals())
from . import _shapes  # noqa: E402
_shapes.install(globals())
from . import _creation  # noqa: E402
_creation.install(globals())
globals().update(_legacy.CPU_TYPES)
set_default_tensor_type = _legacy.set_default_tensor_type

from . import cuda  # noqa: E402  (needs the names above)
from . import autograd  # noqa: E402
from .autograd import is_anomaly_enabled  # noqa: E402
from . import nn, optim, utils, distributed, accelerator, backends, multiprocessing  # noqa: E402
from . import linalg  # noqa: E402

__version__ = "0.1.0"
