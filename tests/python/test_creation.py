"""Issue 25 item 3 from Python: meshgrid, empty_strided, the random functions of tensors
(randperm, multinomial, normal's tensor forms, bernoulli, poisson) and the generator=
argument (Note [Generators] in include/tide/generator.h; more in test_generator.py), on the
cpu and a simulated GPU. eye, logspace and tril/triu_indices are checked against torch in
test_shapes.py; the C++ distributions in tests/device/sampling_test.cpp."""

import pytest

import tide

DEVICES = ["cpu", "cuda:0"]


@pytest.mark.parametrize("device", DEVICES)
def test_meshgrid_ij_and_xy(device):
    a = tide.tensor([1, 2, 3], device=device)
    b = tide.tensor([4, 5], device=device)
    x, y = tide.meshgrid(a, b, indexing="ij")
    assert x.tolist() == [[1, 1], [2, 2], [3, 3]]
    assert y.tolist() == [[4, 5], [4, 5], [4, 5]]
    x, y = tide.meshgrid([a, b], indexing="xy")
    assert x.tolist() == [[1, 2, 3], [1, 2, 3]]
    assert y.tolist() == [[4, 4, 4], [5, 5, 5]]
    assert [g.shape for g in tide.meshgrid(a, b, a)] == [(3, 2, 3)] * 3
    with pytest.raises(RuntimeError):
        tide.meshgrid(a, b, indexing="yx")


def test_empty_strided_and_float_ranges():
    t = tide.empty_strided((2, 3), (1, 2))
    assert t.shape == (2, 3) and t.stride() == (1, 2)
    assert t.new_empty_strided((4,), (2,)).stride() == (2,)
    assert tide.arange(0, 1, 0.25).tolist() == [0.0, 0.25, 0.5, 0.75]
    assert tide.arange(0.5, 2).dtype == tide.float32
    assert tide.linspace(0, 1, 5).tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]


@pytest.mark.parametrize("device", DEVICES)
def test_random_functions_of_tensors(device):
    tide.manual_seed(5)
    assert sorted(tide.randperm(50, device=device).tolist()) == list(range(50))
    w = tide.tensor([[0.0, 1.0, 3.0], [2.0, 0.0, 0.0]], device=device)
    d = tide.multinomial(w, 4, replacement=True)
    assert d.shape == (2, 4) and str(d.device) == device
    assert 0 not in d[0].tolist() and d[1].tolist() == [0, 0, 0, 0]
    assert sorted(w[0].multinomial(2).tolist()) == [1, 2]
    with pytest.raises(RuntimeError):
        tide.multinomial(w, 4)  # more than the 3 categories, without replacement
    m = tide.zeros(3, device=device, requires_grad=True)
    x = tide.normal(m, tide.ones(3, device=device))
    x.sum().backward()
    assert m.grad.tolist() == [1.0, 1.0, 1.0]
    assert tide.normal(2.0, 3.0, size=(2, 2)).shape == (2, 2)
    assert tide.normal(m.detach(), 0.5).shape == (3,)
    p = tide.tensor([0.0, 1.0, 0.0, 1.0], device=device)
    assert tide.bernoulli(p).tolist() == [0.0, 1.0, 0.0, 1.0]
    y = tide.empty(4, device=device)
    assert y.bernoulli_(1.0) is y and y.tolist() == [1.0] * 4
    assert tide.poisson(tide.zeros(5, device=device)).tolist() == [0.0] * 5


@pytest.mark.parametrize("device", DEVICES)
def test_generator_reproduces_draws_and_leaves_the_default_stream(device):
    def draws(g):
        return [tide.rand(4, generator=g, device=device).tolist(),
                tide.randn(2, 2, generator=g, device=device).tolist(),
                tide.randint(0, 10, (5,), generator=g, device=device).tolist(),
                tide.randperm(6, generator=g, device=device).tolist(),
                tide.multinomial(tide.ones(5, device=device), 3, generator=g).tolist(),
                tide.bernoulli(tide.full((6,), 0.5, device=device), generator=g).tolist(),
                tide.poisson(tide.full((3,), 2.0, device=device), generator=g).tolist(),
                tide.normal(tide.zeros(3, device=device), 1.0, generator=g).tolist()]

    g = tide.Generator(device).manual_seed(123)
    first = draws(g)
    assert first[0] != tide.rand(4, generator=g, device=device).tolist()  # the stream moves on
    tide.manual_seed(9)
    expected = tide.rand(3).tolist()
    tide.manual_seed(9)
    again = draws(g.manual_seed(123))
    assert again == first
    assert tide.rand(3).tolist() == expected  # the default cpu stream did not see g's draws


def test_rng_state_round_trip():
    state = tide.get_rng_state()
    assert state.dtype == tide.uint8 and state.shape == (16,)
    a = tide.rand(3).tolist()
    tide.set_rng_state(state)
    assert tide.rand(3).tolist() == a
