# In the shape of PyTorch's "Tensors" tutorial (read, not copied): making tensors from data,
# from NumPy and from other tensors, their attributes, indexing and slicing, joining, arithmetic
# with `out=`, single-element tensors, in-place ops and the NumPy bridge. Deterministic values
# only, so that tide and torch print the same. Run as `python tensor_basics.py tide|torch DIR`.
import importlib
import sys

import numpy as np

torch = importlib.import_module(sys.argv[1])

device = "cuda" if torch.cuda.is_available() else "cpu"
print(f"Using {device} device")

data = [[1, 2], [3, 4]]
x_data = torch.tensor(data)
print(f"From data:\n{x_data}\n")

np_array = np.array(data)
x_np = torch.from_numpy(np_array)
print(f"From NumPy: {x_np.tolist()} {x_np.dtype}\n")

x_ones = torch.ones_like(x_data)
print(f"Ones Tensor: \n {x_ones} \n")
x_full = torch.full_like(x_data, 7, dtype=torch.float)
print(f"Full Tensor: \n {x_full} \n")

shape = (2, 3,)
ones_tensor = torch.ones(shape)
zeros_tensor = torch.zeros(shape)
print(f"Ones Tensor: \n {ones_tensor} \n")
print(f"Zeros Tensor: \n {zeros_tensor}")

tensor = torch.arange(12, dtype=torch.float32).reshape(3, 4)
print(f"Shape of tensor: {tensor.shape}")
print(f"Datatype of tensor: {tensor.dtype}")

tensor = tensor.to(device)
print(f"First row: {tensor[0].cpu()}")
print(f"First column: {tensor[:, 0].cpu()}")
print(f"Last column: {tensor[..., -1].cpu()}")
tensor[:, 1] = 0
print(tensor.cpu())

t1 = torch.cat([tensor, tensor, tensor], dim=1)
print(t1.cpu())
print(torch.stack([tensor[0], tensor[1]]).shape)

y1 = tensor @ tensor.T
y2 = tensor.matmul(tensor.T)
y3 = torch.empty_like(y1)
torch.matmul(tensor, tensor.T, out=y3)
print(y1.cpu(), bool((y1 == y2).all()), bool((y1 == y3).all()))

z1 = tensor * tensor
z2 = tensor.mul(tensor)
z3 = torch.empty_like(tensor)
torch.mul(tensor, tensor, out=z3)
print(z1.cpu(), bool(torch.equal(z1, z2)), bool(torch.equal(z1, z3)))

agg = tensor.sum()
agg_item = agg.item()
print(agg_item, type(agg_item))

print(f"{tensor.cpu()} \n")
tensor.add_(5)
print(tensor.cpu())

t = torch.ones(5)
print(f"t: {t}")
n = t.numpy()
print(f"n: {n}")
t.add_(1)
print(f"t: {t}")
print(f"n: {n}")

n = np.ones(5)
t = torch.from_numpy(n)
np.add(n, 1, out=n)
print(f"t: {t}")
print(f"n: {n}")
