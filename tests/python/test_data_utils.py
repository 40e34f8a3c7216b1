"""torch.utils.data's dataset and sampler utilities in tide: ConcatDataset and random_split's
lengths against torch 1.13, SubsetRandomSampler, WeightedRandomSampler and RandomSampler with
replacement / num_samples, tide.Generator's seeding, and torch's errors for misuse. Tide's
random orders are reproducible from a seed but are not torch's (Philox, not torch's
Mersenne twister), so random draws are checked by their properties, not against torch."""

import collections

import pytest

import tide
from tide.utils.data import (ConcatDataset, DataLoader, RandomSampler, Subset,
                             SubsetRandomSampler, TensorDataset, WeightedRandomSampler,
                             random_split)


def _torch():
    return pytest.importorskip("torch")


def test_concat_dataset_indexes_as_torchs():
    torch = _torch()
    parts = [list(range(3)), list(range(10, 15)), [], list(range(20, 22))]
    ours, theirs = ConcatDataset(parts), torch.utils.data.ConcatDataset(parts)
    assert len(ours) == len(theirs) == 10
    assert ours.cumulative_sizes == theirs.cumulative_sizes
    assert [ours[i] for i in range(-10, 10)] == [theirs[i] for i in range(-10, 10)]
    with pytest.raises(ValueError, match="should not exceed dataset length"):
        ours[-11]
    with pytest.raises(AssertionError, match="should not be an empty iterable"):
        ConcatDataset([])
    joined = TensorDataset(tide.arange(3)) + TensorDataset(tide.arange(4))
    assert isinstance(joined, ConcatDataset) and len(joined) == 7
    assert joined[5][0].item() == 2


@pytest.mark.parametrize("n, lengths", [(10, [3, 7]), (30, [0.3, 0.3, 0.4]), (11, [0.5, 0.5]),
                                        (7, [0.1, 0.2, 0.7]), (5, [5])])
def test_random_split_sizes_are_torchs_and_the_parts_cover_the_dataset(n, lengths):
    torch = _torch()
    theirs = torch.utils.data.random_split(range(n), lengths)
    ours = random_split(range(n), lengths)
    assert [len(s) for s in ours] == [len(s) for s in theirs]
    seen = sorted(i for part in ours for i in part)
    assert seen == list(range(n))
    assert all(isinstance(s, Subset) for s in ours)


def test_random_split_is_reproducible_from_a_generator_and_advances_it():
    a = random_split(range(50), [20, 30], generator=tide.Generator().manual_seed(42))
    b = random_split(range(50), [20, 30], generator=tide.Generator().manual_seed(42))
    assert list(a[0]) == list(b[0]) and list(a[1]) == list(b[1])
    assert list(a[0]) != list(range(20))  # shuffled (1 in 50!/(20!30!) chance to be sorted)
    g = tide.Generator().manual_seed(42)
    first, second = random_split(range(50), [50], generator=g), random_split(range(50), [50], generator=g)
    assert list(first[0]) != list(second[0])
    tide.manual_seed(3)
    c = random_split(range(50), [25, 25])
    tide.manual_seed(3)
    assert list(random_split(range(50), [25, 25])[0]) == list(c[0])


def test_random_split_rejects_lengths_as_torch():
    with pytest.raises(ValueError, match="Sum of input lengths does not equal"):
        random_split(range(10), [3, 3])
    with pytest.raises(ValueError, match="Fraction at index 1 is not between 0 and 1"):
        random_split(range(10), [0.5, -0.5, 1.0])
    with pytest.warns(UserWarning, match="Length of split at index 1 is 0"):
        random_split(range(2), [0.9, 0.1])


def test_generator_seeding_api():
    g = tide.Generator()
    assert g.initial_seed() == 67280421310721  # torch's default seed
    assert g.manual_seed(7) is g and g.initial_seed() == 7
    state = g.get_state()
    first = list(SubsetRandomSampler(list(range(20)), generator=g))
    g.set_state(state)
    assert list(SubsetRandomSampler(list(range(20)), generator=g)) == first
    assert g.device == tide.device("cpu")
    with pytest.raises(RuntimeError, match="16-byte state"):
        g.set_state(tide.zeros(3, dtype=tide.uint8))


def test_subset_random_sampler_permutes_its_indices_each_epoch():
    indices = [3, 9, 12, 40, 41]
    sampler = SubsetRandomSampler(indices, generator=tide.Generator().manual_seed(1))
    epochs = [list(sampler) for _ in range(4)]
    assert all(sorted(e) == indices for e in epochs)
    assert len({tuple(e) for e in epochs}) > 1
    assert len(sampler) == 5


def test_weighted_random_sampler_follows_the_weights():
    weights = [0.0, 1.0, 3.0]
    sampler = WeightedRandomSampler(weights, 4000, generator=tide.Generator().manual_seed(5))
    counts = collections.Counter(sampler)
    assert counts[0] == 0 and len(sampler) == 4000
    assert 2.6 < counts[2] / counts[1] < 3.4  # 3 expected; about 10 standard errors of margin
    assert sampler.weights.dtype is tide.float64
    once = list(WeightedRandomSampler(tide.tensor([1.0, 5.0, 2.0, 0.0]), 3, replacement=False))
    assert sorted(once) == [0, 1, 2]


def test_weighted_random_sampler_rejects_as_torch():
    with pytest.raises(ValueError, match="num_samples should be a positive integer"):
        WeightedRandomSampler([1.0], 0)
    with pytest.raises(ValueError, match="replacement should be a boolean"):
        WeightedRandomSampler([1.0], 1, replacement=1)
    with pytest.raises(RuntimeError, match="element < 0"):
        WeightedRandomSampler([1.0, -1.0], 1)
    with pytest.raises(RuntimeError, match="sum of probabilities <= 0"):
        WeightedRandomSampler([0.0, 0.0], 1)
    with pytest.raises(RuntimeError, match="not enough non-negative category"):
        WeightedRandomSampler([1.0, 0.0], 2, replacement=False)


def test_random_sampler_with_replacement_and_num_samples():
    data = list(range(6))
    drawn = list(RandomSampler(data, replacement=True, num_samples=50,
                               generator=tide.Generator().manual_seed(2)))
    assert len(drawn) == 50 and set(drawn) <= set(data) and len(set(drawn)) > 1
    longer = list(RandomSampler(data, num_samples=14, generator=tide.Generator().manual_seed(2)))
    assert len(longer) == 14 and sorted(longer[:6]) == data and sorted(longer[6:12]) == data
    with pytest.raises(ValueError, match="num_samples should be a positive integer"):
        RandomSampler(data, num_samples=0)
    loader = DataLoader(TensorDataset(tide.arange(10)), batch_size=5,
                        sampler=RandomSampler(range(10), replacement=True, num_samples=15))
    assert [b[0].numel() for b in loader] == [5, 5, 5]


def test_dataloader_generator_makes_the_shuffle_reproducible():
    def order(seed):
        loader = DataLoader(TensorDataset(tide.arange(12)), batch_size=4, shuffle=True,
                            generator=tide.Generator().manual_seed(seed))
        return [b[0].tolist() for b in loader]
    assert order(11) == order(11)
    assert sorted(sum(order(11), [])) == list(range(12))
