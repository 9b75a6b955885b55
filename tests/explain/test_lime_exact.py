"""The batched engine in ``exact`` mode equals lime's own ``explain_instance``.

Every comparison runs real lime 0.2.0.1 (the ``reference`` engine: stock
``LimeTabularExplainer.explain_instance`` with the per-row seed) against the batched engine
on the same rows and seeds, for every feature-selection method and every discretizer, on
real data with real models.
"""

import numpy as np
import pytest
from scipy.stats import truncnorm

from explain.lime_runner import LimeConfig, explain_rows, make_explainer
from explain.lime_sampling import SamplingTables
from explain.lime_truncnorm import ExactTruncnormPPF
from tests.explain.test_lime_support import MIXED_CATEGORICAL, breast_cancer, mixed, wine

TOL = 1e-9


def _pair(X, rows, predict, training_labels=None, categorical=(), labels=None, **config):
    """(reference, batched exact) explanations of ``rows`` with the same settings."""
    config.setdefault("num_samples", 400)
    kwargs = dict(training_labels=training_labels, categorical_features=categorical,
                  labels=labels)
    ref = explain_rows(X, rows, predict, LimeConfig(engine="reference", n_jobs=1, **config),
                       **kwargs)
    got = explain_rows(X, rows, predict, LimeConfig(mode="exact", fix_zero_width_bins=False,
                                                    batch_size=2, n_jobs=1, **config), **kwargs)
    return ref, got


def _assert_equal(ref, got):
    assert np.array_equal(ref.features, got.features)
    assert np.abs(ref.weights - got.weights).max() < TOL
    assert np.abs(ref.intercepts - got.intercepts).max() < TOL
    assert np.abs(ref.scores - got.scores).max() < TOL
    assert np.array_equal(ref.labels, got.labels)


@pytest.mark.parametrize("discretizer", ["quartile", "decile", "entropy"])
@pytest.mark.parametrize("selection, top_k", [
    ("auto", 4), ("forward_selection", 3), ("highest_weights", 6), ("lasso_path", 5),
    ("none", 5), ("auto", 8)])
def test_exact_equals_lime_breast_cancer(discretizer, selection, top_k):
    X, y, predict = breast_cancer()
    rows = X[[0, 57, 301]]
    ref, got = _pair(X, rows, predict, training_labels=y, discretizer=discretizer,
                     feature_selection=selection, top_k=top_k)
    _assert_equal(ref, got)
    assert (got.features >= 0).sum() >= 3


@pytest.mark.parametrize("discretizer", ["quartile", "decile", "entropy"])
@pytest.mark.parametrize("selection", ["auto", "highest_weights", "lasso_path"])
def test_exact_equals_lime_mixed_table(discretizer, selection):
    X, y, predict = mixed()
    ref, got = _pair(X, X[[3, 10, 42]], predict, training_labels=y,
                     categorical=MIXED_CATEGORICAL, discretizer=discretizer,
                     feature_selection=selection, top_k=4)
    _assert_equal(ref, got)


def test_exact_equals_lime_multiclass_predicted_label():
    X, y, predict = wine()
    rows = X[[0, 70, 150]]
    ref, got = _pair(X, rows, predict, top_k=4, num_samples=300)
    assert np.array_equal(got.labels, predict(rows).argmax(axis=1))
    assert set(got.labels) == {0, 1, 2}
    _assert_equal(ref, got)
    ref, got = _pair(X, rows, predict, labels=[2, 2, 0], top_k=4, num_samples=300)
    assert np.array_equal(got.labels, [2, 2, 0])
    _assert_equal(ref, got)


def test_exact_with_zero_width_fix_equals_lime_without_such_bins():
    # breast_cancer has no zero-width bin at a non-zero value: the fix changes nothing
    X, y, predict = breast_cancer()
    rows = X[[5, 6]]
    ref = explain_rows(X, rows, predict, LimeConfig(engine="reference", num_samples=300,
                                                    n_jobs=1))
    got = explain_rows(X, rows, predict, LimeConfig(mode="exact", num_samples=300, n_jobs=1))
    _assert_equal(ref, got)


@pytest.mark.parametrize("data", [breast_cancer, mixed])
def test_truncnorm_ppf_reproduces_scipy_bit_for_bit(data):
    X, y, _ = data()
    cat = MIXED_CATEGORICAL if data is mixed else ()
    tables = SamplingTables.from_explainer(make_explainer(X, LimeConfig(), cat, training_labels=y))
    ppf = ExactTruncnormPPF(tables.a, tables.b)
    assert ppf.reproduces_scipy
    live = np.flatnonzero(tables.a < tables.b)
    rng = np.random.RandomState(1)
    idx = rng.choice(live, 20000)
    q = rng.random_sample(20000)
    assert np.array_equal(ppf(q, idx), truncnorm._ppf(q, tables.a[idx], tables.b[idx]))


def test_lookup_draws_equal_searchsorted():
    X, y, _ = mixed()
    tables = SamplingTables.from_explainer(
        make_explainer(X, LimeConfig(discretizer="decile"), MIXED_CATEGORICAL))
    u = np.random.RandomState(3).random_sample((tables.n_features, 50000))
    u[:, :4] = [0.0, 0.5, 1 - 2**-53, 0.25]
    want = np.stack([tables.offsets[j] + np.searchsorted(tables.cdfs[j], u[j], side="right")
                     for j in range(tables.n_features)])
    assert np.array_equal(tables.draw(u), want)
