"""tide.Generator (torch.Generator over tide::Generator, Note [Generators] in
include/tide/generator.h) and the generator= argument, on the cpu and simulated GPUs: the same
state gives the same numbers on every device, a generator and the default generators do not
disturb each other, get_state/set_state round trips, torch's error for a generator of another
device type, and distribution sanity with wide margins. Tide's numbers are Philox's, not
torch's: nothing here compares values with torch."""

import pytest

import tide

DEVICES = ["cpu", "cuda:0", "cuda:1"]


def _draws(g, device):
    f64 = dict(device=device, dtype=tide.float64)
    t = tide.empty(6, **f64)
    return [tide.rand(5, generator=g, device=device),
            tide.randn(2, 3, generator=g, **f64),
            tide.randint(-3, 40, (7,), generator=g, device=device),
            tide.randint(10, (3,), generator=g, device=device),
            tide.randperm(9, generator=g, device=device),
            tide.rand_like(tide.zeros(4, device=device), generator=g),
            tide.randn_like(tide.zeros(4, **f64), generator=g),
            tide.randint_like(tide.zeros(4, device=device), 0, 9, generator=g),
            tide.multinomial(tide.tensor([1.0, 0.0, 3.0], device=device), 4, True, generator=g),
            tide.tensor([1.0, 2.0, 3.0], device=device).multinomial(2, generator=g),
            tide.normal(tide.zeros(3, **f64), tide.ones(3, **f64), generator=g),
            tide.normal(1.0, 2.0, size=(4,), generator=g, **f64),
            tide.bernoulli(tide.full((6,), 0.5, **f64), generator=g),
            tide.poisson(tide.full((4,), 2.0, **f64), generator=g),
            t.uniform_(-1, 1, generator=g).clone(),
            t.normal_(0, 2, generator=g).clone(),
            t.random_(0, 30, generator=g).clone(),
            t.random_(7, generator=g).clone(),
            t.bernoulli_(0.5, generator=g).clone()]


def _values(tensors):
    return [t.cpu().tolist() for t in tensors]


def test_generator_seeding_api_as_torch():
    g = tide.Generator()
    assert g.initial_seed() == 67280421310721  # torch's default seed
    assert g.device == tide.device("cpu")
    assert g.manual_seed(7) is g and g.initial_seed() == 7
    assert g.manual_seed(-1).initial_seed() == 2 ** 64 - 1  # torch wraps negative seeds
    tide.manual_seed(-1)  # so does the global one
    assert tide.initial_seed() == 2 ** 64 - 1
    tide.manual_seed(2 ** 64 - 1)
    assert tide.initial_seed() == 2 ** 64 - 1
    with pytest.raises(RuntimeError, match="Overflow when unpacking long"):
        g.manual_seed(2 ** 64)
    with pytest.raises(TypeError):
        g.manual_seed("7")
    s = g.seed()
    assert g.initial_seed() == s
    assert tide.Generator("cuda:1").device == tide.device("cuda:1")
    assert tide.Generator(device=tide.device("cuda")).device.type == "cuda"


def test_state_round_trip_replays_the_draws():
    g = tide.Generator().manual_seed(5)
    tide.rand(3, generator=g)
    state = g.get_state()
    assert state.dtype == tide.uint8 and state.shape == (16,) and str(state.device) == "cpu"
    assert state.tolist()[:8] == [5, 0, 0, 0, 0, 0, 0, 0] and state.tolist()[8] == 1
    first = tide.randn(10, generator=g).tolist()
    assert g.set_state(state) is g
    assert tide.randn(10, generator=g).tolist() == first
    other = tide.Generator().set_state(state)
    assert tide.randn(10, generator=other).tolist() == first
    with pytest.raises(RuntimeError, match="16-byte state"):
        g.set_state(tide.zeros(3, dtype=tide.uint8))
    with pytest.raises(RuntimeError, match="uint8"):
        g.set_state(tide.zeros(16))


@pytest.mark.parametrize("device", DEVICES)
def test_same_seed_same_numbers_and_equal_to_the_cpus(device):
    g = tide.Generator(device).manual_seed(99)
    first = _values(_draws(g, device))
    assert all(str(t.device) == device for t in _draws(g, device))
    g.manual_seed(99)
    assert _values(_draws(g, device)) == first
    cpu = _values(_draws(tide.Generator().manual_seed(99), "cpu"))
    assert first == cpu  # simulated GPUs run the cpu's loops: the same bits


@pytest.mark.parametrize("device", DEVICES)
def test_generator_and_default_generator_do_not_disturb_each_other(device):
    tide.manual_seed(3)
    expected = tide.rand(4, device=device).tolist()
    tide.manual_seed(3)
    g = tide.Generator(device).manual_seed(3)
    _draws(g, device)
    assert tide.rand(4, device=device).tolist() == expected  # the default stream did not move
    # and the default generators' draws leave g where it was
    state = g.get_state().tolist()
    tide.rand(50, device=device)
    tide.randperm(5, device=device)
    assert g.get_state().tolist() == state
    # the same seed gives the default generator's numbers: one Philox scheme
    assert tide.rand(4, generator=g.manual_seed(3), device=device).tolist() == expected


def test_manual_seed_leaves_user_generators_alone_and_default_generator_is_the_cpus():
    g = tide.Generator().manual_seed(11)
    tide.manual_seed(12)
    assert g.initial_seed() == 11
    assert tide.default_generator.initial_seed() == 12
    tide.default_generator.manual_seed(13)
    assert tide.initial_seed() == 13
    assert tide.default_generator.get_state().tolist() == tide.get_rng_state().tolist()


@pytest.mark.parametrize("device", ["cuda:0", "cuda:1"])
def test_a_cpu_generator_on_a_cuda_op_raises_torchs_error(device):
    g = tide.Generator()
    msg = "Expected a 'cuda' device type for generator but found 'cpu'"
    x = tide.zeros(3, device=device)
    calls = [lambda: tide.rand(2, generator=g, device=device),
             lambda: tide.randn(2, generator=g, device=device),
             lambda: tide.randint(0, 5, (2,), generator=g, device=device),
             lambda: tide.randperm(4, generator=g, device=device),
             lambda: tide.multinomial(x + 1, 2, generator=g),
             lambda: tide.normal(x, 1.0, generator=g),
             lambda: tide.bernoulli(x, generator=g),
             lambda: tide.poisson(x, generator=g),
             lambda: x.uniform_(generator=g),
             lambda: x.normal_(generator=g),
             lambda: x.random_(3, generator=g),
             lambda: x.bernoulli_(0.5, generator=g)]
    for call in calls:
        with pytest.raises(RuntimeError, match=msg):
            call()
    with pytest.raises(RuntimeError, match="Expected a 'cpu' device type for generator but "
                                           "found 'cuda'"):
        tide.rand(2, generator=tide.Generator(device))


def test_one_cuda_generator_serves_every_gpu_as_torchs():
    g = tide.Generator("cuda:0").manual_seed(4)
    on_1 = tide.rand(3, generator=g, device="cuda:1")
    assert str(on_1.device) == "cuda:1"
    assert on_1.tolist() == tide.rand(3, generator=tide.Generator().manual_seed(4)).tolist()


@pytest.mark.parametrize("device", DEVICES)
def test_generator_draws_follow_their_distributions(device):
    g = tide.Generator(device).manual_seed(2)
    n = 20000  # margins of about five standard deviations
    u = tide.rand(n, generator=g, device=device, dtype=tide.float64)
    assert abs(u.mean().item() - 0.5) < 0.011 and 0 <= u.min().item() and u.max().item() < 1
    z = tide.randn(n, generator=g, device=device, dtype=tide.float64)
    assert abs(z.mean().item()) < 0.036 and abs(z.std().item() - 1) < 0.03
    k = tide.randint(0, 4, (n,), generator=g, device=device)
    assert all(abs((k == v).double().mean().item() - 0.25) < 0.016 for v in range(4))
    r = tide.empty(n, dtype=tide.int64, device=device).random_(2, 6, generator=g)
    assert r.min().item() == 2 and r.max().item() == 5
    b = tide.bernoulli(tide.full((n,), 0.3, device=device, dtype=tide.float64), generator=g)
    assert abs(b.mean().item() - 0.3) < 0.017
    p = tide.poisson(tide.full((n,), 3.0, device=device, dtype=tide.float64), generator=g)
    assert abs(p.mean().item() - 3.0) < 0.07


def test_random_takes_torchs_argument_forms():
    g = tide.Generator().manual_seed(1)
    t = tide.empty(500, dtype=tide.int64)
    assert t.random_(4, generator=g) is t and 0 <= t.min().item() and t.max().item() < 4
    t.random_(-3, 3, generator=g)
    assert -3 <= t.min().item() and t.max().item() < 3
    t.random_(to=2)
    assert t.max().item() <= 1
    u = tide.empty(4000, dtype=tide.uint8).random_(generator=g)
    assert u.max().item() == 255
    f = tide.empty(100).random_(10, None, generator=g)
    assert all(v == int(v) and 10 <= v <= 2 ** 24 for v in f.tolist())
    with pytest.raises(RuntimeError, match="expects 'from' to be less than 'to'"):
        t.random_(5, 5)
    with pytest.raises(TypeError):
        t.random_(1, 2, 3)


def test_samplers_and_random_split_still_take_a_generator():
    from tide.utils.data import RandomSampler, random_split
    a = list(RandomSampler(range(30), generator=tide.Generator().manual_seed(8)))
    b = list(RandomSampler(range(30), generator=tide.Generator().manual_seed(8)))
    assert a == b and sorted(a) == list(range(30))
    g = tide.Generator().manual_seed(8)
    first, second = list(RandomSampler(range(30), generator=g)), list(RandomSampler(range(30), generator=g))
    assert first != second  # each iteration draws from the generator
    parts = random_split(range(10), [4, 6], generator=tide.Generator().manual_seed(1))
    assert sorted(list(parts[0]) + list(parts[1])) == list(range(10))
