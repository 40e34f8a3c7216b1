# In the shape of PyTorch's "Defining new autograd functions" tutorial (read, not copied): a
# custom autograd.Function for the Legendre polynomial P3(t) = (5t^3 - 3t) / 2, with its own
# backward, inside y = a + b * P3(c + d * x) fitted to sin(x) by plain gradient descent.
# float64, so that tide and torch print the same digits. Run as
# `python custom_function.py tide|torch DIR`.
import importlib
import math
import sys

torch = importlib.import_module(sys.argv[1])


class LegendreP3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return 0.5 * (5 * t ** 3 - 3 * t)

    @staticmethod
    def backward(ctx, grad_output):
        (t,) = ctx.saved_tensors
        return grad_output * 1.5 * (5 * t ** 2 - 1)


device = "cuda" if torch.cuda.is_available() else "cpu"
print(f"Using {device} device")
dtype = torch.float64

x = torch.linspace(-math.pi, math.pi, 2000, device=device, dtype=dtype)
y = torch.sin(x)

a = torch.full((), 0.0, device=device, dtype=dtype, requires_grad=True)
b = torch.full((), -1.0, device=device, dtype=dtype, requires_grad=True)
c = torch.full((), 0.0, device=device, dtype=dtype, requires_grad=True)
d = torch.full((), 0.3, device=device, dtype=dtype, requires_grad=True)

learning_rate = 5e-6
for t in range(2000):
    P3 = LegendreP3.apply
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    if t % 250 == 99:
        print(t, f"{loss.item():.6f}")
    loss.backward()
    with torch.no_grad():
        for param in (a, b, c, d):
            param -= learning_rate * param.grad
            param.grad = None

print(f"Result: y = {a.item():.6f} + {b.item():.6f} * P3({c.item():.6f} + {d.item():.6f} x)")
