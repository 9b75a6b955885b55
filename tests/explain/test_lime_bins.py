"""Entropy bins: MDL-tested cuts, the same on any scale or offset of a feature."""

import numpy as np
import pytest
from lime.discretize import EntropyDiscretizer
from sklearn.utils import check_random_state

from explain.lime_bins import RankEntropyDiscretizer, mdl_accepts
from explain.lime_runner import LimeConfig, explain_rows


def _data(n=500, seed=0):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, 3))
    y = ((X[:, 0] > 0.3) & (X[:, 1] < 0.5)).astype(int)
    return X, y


def _edges(discretizer_class, X, y):
    disc = discretizer_class(X, [], ["a", "b", "c"], labels=y,
                             random_state=check_random_state(0))
    return [np.asarray(disc.maxs[f][:-1]) for f in range(X.shape[1])]


def _gaps(edges, X):
    return [np.searchsorted(np.unique(X[:, f]), e) for f, e in enumerate(edges)]


def _quartiles(values):
    return np.unique(np.percentile(values, [25, 50, 75]))


def test_same_cuts_as_lime_where_the_first_cut_passes_the_mdl_test():
    X, y = _data()
    ours, lime = _edges(RankEntropyDiscretizer, X, y), _edges(EntropyDiscretizer, X, y)
    # the label depends on features 0 and 1: the first cut passes, all of lime's are kept
    for f in (0, 1):
        assert len(ours[f]) > 1
        assert np.array_equal(_gaps(ours, X)[f], _gaps(lime, X)[f])
        # each cut is midway between the training values around it
        values = np.unique(X[:, f])
        gap = np.searchsorted(values, ours[f])
        assert np.allclose(ours[f], (values[gap - 1] + values[gap]) / 2, rtol=0, atol=1e-15)


def test_a_feature_the_label_does_not_depend_on_gets_its_quartiles():
    X, y = _data()
    noise = _edges(EntropyDiscretizer, X, y)[2]  # lime's tree cuts the noise, in the tails
    assert np.abs(noise).max() > 2 and np.abs(noise).min() > 1
    assert np.array_equal(_edges(RankEntropyDiscretizer, X, y)[2], _quartiles(X[:, 2]))


def test_features_that_matter_only_together_get_quartiles():
    """A one-feature tree cuts each side of an xor at random; the median cut is needed."""
    rng = np.random.RandomState(3)
    X = rng.normal(size=(2000, 2))
    y = ((X[:, 0] > 0) ^ (X[:, 1] > 0)).astype(int)
    ours = _edges(RankEntropyDiscretizer, X, y)
    for f in (0, 1):
        assert np.array_equal(ours[f], _quartiles(X[:, f]))
        assert np.abs(ours[f]).min() < 0.05


def test_mdl_test_weighs_the_gain_against_the_rows():
    assert mdl_accepts([10, 0], [0, 10])
    assert not mdl_accepts([6, 4], [4, 6])
    # the same weak effect passes once there are enough rows to trust it
    assert not mdl_accepts([60, 40], [40, 60])
    assert mdl_accepts([600, 400], [400, 600])
    # no gain, or an empty side, never passes
    assert not mdl_accepts([500, 500], [500, 500])
    assert not mdl_accepts([0, 0], [5, 5])
    # three classes: k counts the classes present
    assert mdl_accepts([30, 0, 0], [0, 30, 30])
    assert not mdl_accepts([11, 10, 10], [10, 11, 10])
    # forty classes, split into two halves of twenty (3.0 ** 40 - 2 is not computed)
    half = np.repeat([5, 0], 20)
    assert mdl_accepts(half, half[::-1])
    assert not mdl_accepts(half + 5, half[::-1] + 5)


def test_multi_class_labels():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(600, 2))
    y = np.digitize(X[:, 0], [-0.5, 0.5])  # three classes along feature 0
    ours = _edges(RankEntropyDiscretizer, X, y)
    assert np.abs(ours[0] + 0.5).min() < 0.05 and np.abs(ours[0] - 0.5).min() < 0.05
    assert np.array_equal(ours[1], _quartiles(X[:, 1]))


@pytest.mark.parametrize("scale, offset", [(1e-9, 0.0), (1e-7, 0.0), (1e15, 0.0),
                                           (1.0, 1.7e9)])
def test_same_cuts_on_any_scale_and_offset(scale, offset):
    X, y = _data()
    moved = X * scale + offset
    plain = _gaps(_edges(RankEntropyDiscretizer, X, y), X)
    ours = _edges(RankEntropyDiscretizer, moved, y)
    for f, (a, b) in enumerate(zip(plain, _gaps(ours, moved))):
        assert np.array_equal(a, b), f
        values = np.unique(moved[:, f])
        assert ((ours[f] > values[0]) & (ours[f] < values[-1])).all()
    # lime's own tree finds no cut on the tiny scales (values < 1e-7 apart look equal)
    if scale < 1e-6:
        lime = _edges(EntropyDiscretizer, moved, y)
        assert all(len(e) == 1 for e in lime)
        assert np.abs(ours[0] / scale - 0.3).min() < 0.05


def test_no_cut_falls_back_to_the_quartiles():
    X, _ = _data()
    X[:, 2] = 4.0
    edges = _edges(RankEntropyDiscretizer, X, np.zeros(len(X), dtype=int))  # one class
    for f in (0, 1):
        assert np.array_equal(edges[f], _quartiles(X[:, f]))
    assert np.array_equal(edges[2], [4.0])


def test_explain_rows_cuts_a_tiny_feature_where_the_model_decides():
    rng = np.random.RandomState(1)
    X = rng.uniform(0, 1, size=(300, 2)) * 1e-8

    def predict(Z):
        p = np.where(Z[:, 0] > 0.3e-8, 0.9, 0.1)
        return np.column_stack([1 - p, p])

    got = explain_rows(X, X[:6], predict, LimeConfig(num_samples=200, top_k=1, n_jobs=1))
    assert np.abs(got.edges[0] - 0.3e-8).min() < 0.01e-8
    assert (got.features[:, 0] == 0).all()
