"""Double backward (create_graph=True) against torch 1.13: the same program with either module
gives the same second derivatives, on cpu and a simulated GPU for tide: autograd.grad and
backward with create_graph, a gradient penalty, Hessian-vector products and
autograd.functional's hessian/hvp/vhp/vjp/jacobian with create_graph, retain_graph's default,
and the errors a second backward raises at once-differentiable nodes."""

import pytest

import tide

torch = pytest.importorskip("torch")

DEVICES = ["cpu", "cuda:1"]

X = [[0.5, -1.25, 2.0], [1.5, 0.25, -0.75]]
W = [[0.3, -0.2], [0.1, 0.4], [-0.5, 0.6]]


def close(ours, theirs, tol=1e-5):
    assert ours is not None and theirs is not None
    a = ours.detach().cpu().tolist()
    b = theirs.detach().tolist()
    assert tide.tensor(a, dtype=tide.float64).allclose(tide.tensor(b, dtype=tide.float64),
                                                     rtol=tol, atol=tol), (a, b)


def second_derivatives(lib, device, f):
    """d/dx of sum(d f(x) / dx * v) for a fixed v, through grad(create_graph=True)."""
    x = lib.tensor(X, device=device, dtype=lib.float64, requires_grad=True)
    (g,) = lib.autograd.grad(f(lib, x), x, create_graph=True)
    v = lib.arange(6, dtype=lib.float64, device=device).reshape(2, 3) * 0.5 - 1.0
    (h,) = lib.autograd.grad((g * v).sum(), x)
    return g, h


FUNCS = {
    "add-sub-mul-div": lambda lib, x: ((x + 1) * (x - 2) / (x * x + 1)).sum(),
    "pow": lambda lib, x: (x ** 3).sum() + (2.0 ** x).sum() + (x.abs() + 1).pow(x).sum(),
    "exp-log-tanh-sigmoid-sin":
        lambda lib, x: (x.exp() + (x * x + 1).log() + x.tanh() + x.sigmoid() + x.sin()).sum(),
    "relu": lambda lib, x: (lib.relu(x) * x).sum(),
    "matmul": lambda lib, x: (x.matmul(lib.tensor(W, dtype=x.dtype, device=x.device)).tanh()
                              .sum()),
    "linear": lambda lib, x: lib.nn.functional.linear(
        x, lib.tensor(W, dtype=x.dtype, device=x.device).t()).sigmoid().sum(),
    "sum-mean": lambda lib, x: x.sum(1).pow(2).mean() + x.mean() ** 3,
    "mse_loss": lambda lib, x: lib.nn.functional.mse_loss(x.tanh(), x.t().t() * 0.5),
    "softmax": lambda lib, x: (lib.softmax(x, 1) * x).sum() + lib.log_softmax(x, 0)[0].sum(),
    "cross_entropy": lambda lib, x: lib.nn.functional.cross_entropy(
        x, lib.tensor([2, 0], device=x.device)),
}


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", sorted(FUNCS))
def test_second_derivatives_match_torch(name, device):
    ours = second_derivatives(tide, device, FUNCS[name])
    theirs = second_derivatives(torch, "cpu", FUNCS[name])
    close(ours[0], theirs[0])
    close(ours[1], theirs[1])


def penalty_program(lib, device):
    """A WGAN-GP style gradient penalty: the norm of the input gradient joins the loss."""
    lib.manual_seed(0)
    x = lib.tensor(X, device=device, requires_grad=True)
    w = lib.tensor(W, device=device, requires_grad=True)
    out = x.matmul(w).tanh().sum()
    (gx,) = lib.autograd.grad(out, x, create_graph=True)
    loss = out + ((gx.norm(2, dim=1) - 1) ** 2).mean()
    loss.backward()
    return x.grad, w.grad


@pytest.mark.parametrize("device", DEVICES)
def test_gradient_penalty_matches_torch(device):
    for a, b in zip(penalty_program(tide, device), penalty_program(torch, "cpu")):
        close(a, b)


@pytest.mark.parametrize("device", DEVICES)
def test_backward_create_graph_accumulates_a_differentiable_grad(device):
    def program(lib, dev):
        x = lib.tensor([2.0, -1.0, 0.5], device=dev, requires_grad=True)
        (x ** 3).sum().backward(create_graph=True)
        first = x.grad
        assert first.requires_grad
        x.grad = None
        first.sum().backward()
        return first, x.grad
    for a, b in zip(program(tide, device), program(torch, "cpu")):
        close(a, b)


def test_hvp_and_hessian_match_closed_forms_and_torch():
    def f(x):
        return (x ** 3).sum() + x.sum() ** 2

    x = tide.tensor([1.0, -2.0, 0.5], dtype=tide.float64)
    v = tide.tensor([0.5, 1.0, -1.0], dtype=tide.float64)
    _, hv = tide.autograd.functional.hvp(f, x, v)
    assert hv.tolist() == pytest.approx((6 * x * v + 2 * v.sum()).tolist())
    h = tide.autograd.functional.hessian(f, x)
    expected = tide.diag(6 * x) + 2
    assert h.reshape(-1).tolist() == pytest.approx(expected.reshape(-1).tolist())
    tx, tv = torch.tensor(x.tolist(), dtype=torch.float64), torch.tensor(v.tolist(),
                                                                          dtype=torch.float64)
    close(tide.autograd.functional.vhp(f, x, v)[1], torch.autograd.functional.vhp(f, tx, tv)[1])
    close(h, torch.autograd.functional.hessian(f, tx))

    def g(a, b):
        return (a.exp() * b).sum()

    ta, tb = torch.tensor([0.5, -1.0]), torch.tensor([2.0, 3.0])
    ours = tide.autograd.functional.hessian(g, (tide.tensor([0.5, -1.0]), tide.tensor([2.0, 3.0])))
    theirs = torch.autograd.functional.hessian(g, (ta, tb))
    for i in range(2):
        for j in range(2):
            close(ours[i][j], theirs[i][j])


def test_functional_create_graph_keeps_results_differentiable():
    def run(lib):
        x = lib.tensor([0.5, -1.0, 2.0], requires_grad=True)
        jac = lib.autograd.functional.jacobian(lambda t: t.sin() * t, x, create_graph=True)
        _, vjp = lib.autograd.functional.vjp(lambda t: (t ** 3).sum(), x, create_graph=True)
        (jac.sum() + vjp.sum()).backward()
        return jac, vjp, x.grad
    for a, b in zip(run(tide), run(torch)):
        close(a, b)


def test_retain_graph_defaults_to_create_graph():
    def run(lib):
        x = lib.tensor([1.5, 2.0], requires_grad=True)
        y = (x * x).sum()
        lib.autograd.grad(y, x, create_graph=True)
        return lib.autograd.grad(y, x)[0]  # the graph was kept
    close(run(tide), run(torch))
    x = tide.tensor([1.5, 2.0], requires_grad=True)
    y = (x * x).sum()
    tide.autograd.grad(y, x)
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        tide.autograd.grad(y, x)


def test_double_backward_through_a_once_differentiable_node_raises():
    x = tide.ones(1, 1, 4, 4, requires_grad=True)
    w = tide.ones(1, 1, 3, 3)
    (g,) = tide.autograd.grad(tide.nn.functional.conv2d(x, w).pow(2).sum(), x,
                              create_graph=True)
    with pytest.raises(RuntimeError, match="the derivative for 'ConvolutionBackward0' is not "
                                           "implemented"):
        g.sum().backward()


def once_program(lib):
    class Square(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        @lib.autograd.function.once_differentiable
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return 2 * x * grad

    x = lib.tensor([1.0, 3.0], requires_grad=True)
    y = Square.apply(x).sum()
    # grad's incoming gradient is a constant here: the result does not require grad (torch)
    (plain,) = lib.autograd.grad(y, x, create_graph=True)
    z = Square.apply(x * x).sum()
    (g,) = lib.autograd.grad(z * z, x, create_graph=True)
    return plain, g


def test_once_differentiable_raises_torchs_error_on_a_second_backward():
    ours, theirs = once_program(tide), once_program(torch)
    close(ours[0], theirs[0])
    assert ours[0].requires_grad == theirs[0].requires_grad
    close(ours[1], theirs[1])
    msg = "trying to differentiate twice a function that was marked with @once_differentiable"
    with pytest.raises(RuntimeError, match=msg):
        theirs[1].sum().backward()
    with pytest.raises(RuntimeError, match=msg):
        ours[1].sum().backward()


def test_custom_function_backward_records_under_create_graph():
    def run(lib):
        class Cube(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x ** 3

            @staticmethod
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                return 3 * x * x * grad

        x = lib.tensor([2.0, -0.5], requires_grad=True)
        (g,) = lib.autograd.grad(Cube.apply(x).sum(), x, create_graph=True)
        (h,) = lib.autograd.grad(g.sum(), x)
        return g, h
    for a, b in zip(run(tide), run(torch)):
        close(a, b)
