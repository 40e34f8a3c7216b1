"""tide.autograd.Function against torch 1.13's torch.autograd.Function: the same program with
either module gives the same gradients (cpu, and a simulated GPU for tide), the ctx's methods
behave alike, and misuse raises torch's error types with torch's words."""

import pytest

import tide

torch = pytest.importorskip("torch")

DEVICES = ["cpu", "cuda:1"]


def program(lib, device):
    """A custom function with a non-tensor argument, two outputs (one non-differentiable),
    saved tensors and needs_input_grad; returns the gradients and what backward saw."""
    seen = {}

    class ScaledCubeAndSign(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, k, w):
            ctx.save_for_backward(x, w)
            ctx.k = k
            sign = (x > 0).to(x.dtype)
            ctx.mark_non_differentiable(sign)
            return x ** 3 * k * w, sign

        @staticmethod
        def backward(ctx, grad, grad_sign):
            x, w = ctx.saved_tensors
            seen["needs"] = tuple(ctx.needs_input_grad)
            seen["grad_sign"] = grad_sign.tolist()
            gx = grad * 3 * ctx.k * x ** 2 * w if ctx.needs_input_grad[0] else None
            gw = grad * ctx.k * x ** 3 if ctx.needs_input_grad[2] else None
            return gx, None, gw

    x = lib.tensor([-1.0, 0.5, 2.0], device=device, requires_grad=True)
    w = lib.tensor([1.0, 2.0, 3.0], device=device)
    y, sign = ScaledCubeAndSign.apply(x, 2.0, w)
    seen["y"] = y.tolist()
    seen["sign_requires_grad"] = sign.requires_grad
    seen["grad_fn"] = type(y.grad_fn).__name__ if lib is torch else y.grad_fn
    (y * lib.tensor([1.0, 10.0, 100.0], device=device)).sum().backward()
    seen["x.grad"] = x.grad.tolist()
    return seen


@pytest.mark.parametrize("device", DEVICES)
def test_a_custom_function_matches_torch(device):
    assert program(tide, device) == program(torch, "cpu")


def two_outputs(lib, device, materialize):
    seen = []

    class SumAndProduct(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.set_materialize_grads(materialize)
            ctx.save_for_backward(a, b)
            return a + b, a * b

        @staticmethod
        @lib.autograd.function.once_differentiable
        def backward(ctx, g_sum, g_prod):
            seen.append((g_sum is None, g_prod is None, lib.is_grad_enabled()))
            a, b = ctx.saved_tensors
            g_sum = lib.zeros_like(a) if g_sum is None else g_sum
            g_prod = lib.zeros_like(a) if g_prod is None else g_prod
            return g_sum + g_prod * b, g_sum + g_prod * a

    a = lib.tensor([2.0], device=device, requires_grad=True)
    b = lib.tensor([3.0], device=device, requires_grad=True)
    s, p = SumAndProduct.apply(a, b)
    p.backward()
    s, p = SumAndProduct.apply(a, b)
    (s * 10 + p).backward()
    return seen, a.grad.tolist(), b.grad.tolist()


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("materialize", [True, False])
def test_several_outputs_and_materialize_grads_match_torch(device, materialize):
    assert two_outputs(tide, device, materialize) == two_outputs(torch, "cpu", materialize)


def test_an_input_returned_unchanged_gets_the_history_on_a_new_tensor():
    class Twice(tide.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = tide.ones(2, requires_grad=True)
    y = Twice.apply(x)
    assert y is not x and x.is_leaf and not y.is_leaf
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_without_grad_no_node_is_recorded_and_forward_runs_untraced():
    modes = []

    class Probe(tide.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            modes.append((tide.is_grad_enabled(), ctx.needs_input_grad))
            return x * 2

    assert Probe.apply(tide.ones(1, requires_grad=True)).requires_grad
    with tide.no_grad():
        assert not Probe.apply(tide.ones(1, requires_grad=True)).requires_grad
    assert not Probe.apply(tide.ones(1)).requires_grad
    # needs_input_grad says what requires grad, whatever the grad mode (torch's).
    assert modes == [(False, (True,)), (False, (True,)), (False, (False,))]


def misuse(lib, make_grads):
    class Bad(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return make_grads(lib, g)

    x = lib.ones(2, requires_grad=True)
    try:
        Bad.apply(x, 2).sum().backward()
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        return type(e), str(e)
    return None, x.grad.tolist()


@pytest.mark.parametrize("make_grads", [
    lambda lib, g: (g,),
    lambda lib, g: (lib.ones(3), None),
    lambda lib, g: (lib.ones(1), None),
    lambda lib, g: (g, g),
    lambda lib, g: (1, None),
    lambda lib, g: (g, None, None),
    lambda lib, g: (g.double(), None),
], ids=["too-few", "wrong-shape", "not-broadcastable", "grad-for-int", "int", "extra-none",
        "other-dtype"])
def test_misuse_raises_torchs_error(make_grads):
    ours, theirs = misuse(tide, make_grads), misuse(torch, make_grads)
    if theirs[0] is None:
        assert ours == theirs
        return
    assert issubclass(ours[0], theirs[0])
    assert theirs[1] in ours[1]


@pytest.mark.parametrize("case", ["no-forward", "no-backward", "save-int", "legacy-call"])
def test_incomplete_functions_raise_torchs_error(case):
    def run(lib):
        class F(lib.autograd.Function):
            if case != "no-forward":
                @staticmethod
                def forward(ctx, x):
                    if case == "save-int":
                        ctx.save_for_backward(x, 3)
                    return x * 2

        x = lib.ones(1, requires_grad=True)
        try:
            if case == "legacy-call":
                F()(x)
            else:
                F.apply(x).backward()
        except Exception as e:  # noqa: BLE001 - the type is what is compared
            return type(e), str(e)

    (ours, our_text), (theirs, their_text) = run(tide), run(torch)
    assert issubclass(ours, theirs) and ours.__name__ == theirs.__name__
    assert our_text == their_text


def test_saved_tensors_are_freed_by_backward_and_checked_for_in_place_changes():
    class Square(tide.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    x = tide.ones(2, requires_grad=True)
    y = Square.apply(x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()
    h = x * 1
    y = Square.apply(h).sum()
    h.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()


def test_a_python_error_in_backward_reaches_the_caller_on_a_simulated_gpu():
    class Fails(tide.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            raise ValueError("from backward")

    x = tide.ones(2, device="cuda:0", requires_grad=True)
    with pytest.raises(ValueError, match="from backward"):
        Fails.apply(x).sum().backward()


@pytest.mark.gpus(2)
def test_a_custom_function_in_data_parallel_replicas_gives_the_modules_gradients():
    # The replicas' forwards (and so Function.apply) run on DataParallel's threads; backward
    # runs the Python backward of each replica's node on the caller's thread.
    class Triple(tide.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 3

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            assert x.device == g.device
            return g * 3

    class Net(tide.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = tide.nn.Linear(4, 2)

        def forward(self, x):
            return Triple.apply(self.lin(x))

    tide.manual_seed(0)
    model = Net().cuda(0)
    x = tide.randn(6, 4, device="cuda:0")
    (model(x) * x[:, :2]).sum().backward()
    expected = [p.grad.cpu().tolist() for p in model.parameters()]
    model.zero_grad()
    (tide.nn.DataParallel(model, device_ids=[0, 1])(x) * x[:, :2]).sum().backward()
    got = [p.grad.cpu().reshape(-1).tolist() for p in model.parameters()]
    expected = [tide.tensor(e).reshape(-1).tolist() for e in expected]
    assert all(abs(a - b) <= 1e-5 for g, e in zip(got, expected) for a, b in zip(g, e))
