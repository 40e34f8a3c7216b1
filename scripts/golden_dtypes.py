"""tide's dtype names and the torch dtypes they stand for, shared by the golden generators
(gen_print_goldens.py, gen_op_goldens.py)."""

import torch

DTYPES = {
    "bool": torch.bool,
    "uint8": torch.uint8,
    "int32": torch.int32,
    "int64": torch.int64,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float32": torch.float32,
    "float64": torch.float64,
}
DTYPE_NAMES = {v: k for k, v in DTYPES.items()}
