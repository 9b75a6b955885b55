"""Entropy bins on ranks: the same cuts on any scale or offset of a feature."""

import numpy as np
import pytest
from lime.discretize import EntropyDiscretizer
from sklearn.utils import check_random_state

from explain.lime_bins import RankEntropyDiscretizer
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


def test_same_cuts_as_lime_on_ordinary_values():
    X, y = _data()
    ours, lime = _edges(RankEntropyDiscretizer, X, y), _edges(EntropyDiscretizer, X, y)
    for a, b in zip(_gaps(ours, X), _gaps(lime, X)):
        assert np.array_equal(a, b)
    # each cut is midway between the training values around it
    for f, cuts in enumerate(ours):
        values = np.unique(X[:, f])
        gap = np.searchsorted(values, cuts)
        assert np.allclose(cuts, (values[gap - 1] + values[gap]) / 2, rtol=0, atol=1e-15)


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
        assert len(ours[0]) > 1


def test_no_cut_falls_back_to_the_median():
    X, _ = _data()
    X[:, 2] = 4.0
    edges = _edges(RankEntropyDiscretizer, X, np.zeros(len(X), dtype=int))  # one class
    assert all(len(e) == 1 for e in edges)
    assert edges[2][0] == 4.0


def test_explain_rows_cuts_a_tiny_feature_where_the_model_decides():
    rng = np.random.RandomState(1)
    X = rng.uniform(0, 1, size=(300, 2)) * 1e-8

    def predict(Z):
        p = np.where(Z[:, 0] > 0.3e-8, 0.9, 0.1)
        return np.column_stack([1 - p, p])

    got = explain_rows(X, X[:6], predict, LimeConfig(num_samples=200, top_k=1, n_jobs=1))
    assert np.abs(got.edges[0] - 0.3e-8).min() < 0.01e-8
    assert (got.features[:, 0] == 0).all()
