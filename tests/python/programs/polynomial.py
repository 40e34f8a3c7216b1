# In the shape of PyTorch's "Learning PyTorch with Examples" (read, not copied): fitting
# y = sin(x) on [-pi, pi] with a third-order polynomial four ways — gradients written by hand
# on tensors, autograd, an nn.Sequential with a hand-written update, and an optimizer. Fixed
# starting coefficients instead of random ones, so that tide and torch print the same.
# Run as `python polynomial.py tide|torch DIR`.
import importlib
import math
import sys

torch = importlib.import_module(sys.argv[1])

dtype = torch.float
device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
print(f"Using {device} device")

x = torch.linspace(-math.pi, math.pi, 2000, device=device, dtype=dtype)
y = torch.sin(x)
start = [0.1, -0.2, 0.3, -0.05]


def report(step, loss):
    if step % 500 == 499:
        print(step, f"{loss:.4f}")


def result(a, b, c, d):
    print(f"Result: y = {a:.4f} + {b:.4f} x + {c:.4f} x^2 + {d:.4f} x^3")


# 1. Tensors, gradients by hand.
a, b, c, d = (torch.full((), v, device=device, dtype=dtype) for v in start)
learning_rate = 1e-6
for t in range(2000):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum().item()
    report(t, loss)
    grad_y_pred = 2.0 * (y_pred - y)
    grad_a = grad_y_pred.sum()
    grad_b = (grad_y_pred * x).sum()
    grad_c = (grad_y_pred * x ** 2).sum()
    grad_d = (grad_y_pred * x ** 3).sum()
    a -= learning_rate * grad_a
    b -= learning_rate * grad_b
    c -= learning_rate * grad_c
    d -= learning_rate * grad_d
result(a.item(), b.item(), c.item(), d.item())

# 2. Autograd.
a, b, c, d = (torch.tensor(v, device=device, dtype=dtype, requires_grad=True) for v in start)
for t in range(2000):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    report(t, loss.item())
    loss.backward()
    with torch.no_grad():
        for p in (a, b, c, d):
            p -= learning_rate * p.grad
            p.grad = None
result(a.item(), b.item(), c.item(), d.item())

# 3. nn: the powers of x as features of a linear layer.
p = torch.tensor([1, 2, 3], device=device)
xx = x.unsqueeze(-1).pow(p)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1)).to(device)
with torch.no_grad():
    model[0].bias.fill_(start[0])
    model[0].weight.copy_(torch.tensor([start[1:]], device=device))
loss_fn = torch.nn.MSELoss(reduction="sum")
for t in range(2000):
    loss = loss_fn(model(xx), y)
    report(t, loss.item())
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= learning_rate * param.grad
linear_layer = model[0]
result(linear_layer.bias.item(), linear_layer.weight[:, 0].item(),
       linear_layer.weight[:, 1].item(), linear_layer.weight[:, 2].item())

# 4. An optimizer, for 800 steps: beyond them RMSprop's steps (each about lr long, whatever
# the gradient's size) make the x^2 coefficient hop around 0, where the last bits of two
# libraries' sums decide the direction and the printed digits part ways.
with torch.no_grad():
    model[0].bias.fill_(start[0])
    model[0].weight.copy_(torch.tensor([start[1:]], device=device))
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
for t in range(800):
    loss = loss_fn(model(xx), y)
    if t % 200 == 199:
        print(t, f"{loss.item():.4f}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
result(linear_layer.bias.item(), linear_layer.weight[:, 0].item(),
       linear_layer.weight[:, 1].item(), linear_layer.weight[:, 2].item())
