"""Shared data and black boxes for the LIME tests, and tests of the small public pieces.

The builders are cached: every LIME test module reuses the same real data and models —
breast_cancer with an XGBoost model, a small mixed table (two categorical columns, a
numeric column whose lowest bin has zero width at a non-zero value) with a random forest,
and wine (three classes) with a random forest.
"""

from functools import lru_cache

import numpy as np
import pytest
import xgboost as xgb
from sklearn.datasets import load_breast_cancer, load_wine
from sklearn.ensemble import RandomForestClassifier

from explain.lime_runner import Explanations, LimeConfig, explain_rows, make_explainer, seed_for

MIXED_CATEGORICAL = (1, 4)
HOURS = 2  # mixed-table column with a zero-width lowest bin at 5.0


class Counting:
    """A ``predict_fn`` wrapper counting the calls large enough to be LIME batches."""

    def __init__(self, predict, min_rows=100, ignore=()):
        self.predict, self.min_rows, self.calls, self.rows = predict, min_rows, 0, 0
        self.ignore = ignore  # sizes of calls that are not batches (a cache key's probe)

    def __call__(self, Z):
        if len(Z) >= self.min_rows and len(Z) not in self.ignore:
            self.calls += 1
            self.rows += len(Z)
        return self.predict(Z)


@lru_cache(maxsize=None)
def breast_cancer():
    """(X, y, predict_proba) with a small XGBoost model."""
    X, y = load_breast_cancer(return_X_y=True)
    model = xgb.XGBClassifier(n_estimators=25, max_depth=3, random_state=0, n_jobs=1)
    model.fit(X, y)
    return X, y, model.predict_proba


@lru_cache(maxsize=None)
def mixed():
    """(X, y, predict_proba): 400 rows, 6 columns, categorical columns 1 and 4."""
    rng = np.random.default_rng(7)
    n = 400
    age = rng.integers(17, 81, n).astype(float)
    workclass = rng.choice(4, n, p=[0.6, 0.2, 0.15, 0.05]).astype(float)
    hours = np.where(rng.random(n) < 0.35, 5.0, rng.uniform(5, 60, n).round(1))
    income = rng.lognormal(10, 0.6, n)
    color = rng.integers(0, 3, n).astype(float)
    gain = np.where(rng.random(n) < 0.8, 0.0, rng.lognormal(7, 1, n))
    X = np.column_stack([age, workclass, hours, income, color, gain])
    logit = (age - 45) / 8 + 2.0 * (workclass == 0) + (hours - 30) / 10 - 1.0 * (color == 2)
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    model = RandomForestClassifier(n_estimators=25, max_depth=6, random_state=0).fit(X, y)
    return X, y, model.predict_proba


@lru_cache(maxsize=None)
def wine():
    """(X, y, predict_proba) for a three-class problem."""
    X, y = load_wine(return_X_y=True)
    model = RandomForestClassifier(n_estimators=25, max_depth=4, random_state=0).fit(X, y)
    return X, y, model.predict_proba


def test_seed_for_is_stable_and_distinct():
    assert seed_for(0, 5) == seed_for(0, 5)
    seeds = {seed_for(s, r) for s in range(3) for r in range(200)}
    assert len(seeds) == 600
    assert all(0 <= s < 2**32 for s in seeds)


@pytest.mark.parametrize("field, value", [
    ("discretizer", "kmeans"), ("feature_selection", "lars"), ("engine", "gpu"),
    ("mode", "slow"), ("num_samples", 0), ("top_k", 0), ("random_state", -1),
    ("kernel_width", 0.0), ("memory_budget_mb", 0), ("n_jobs", 0), ("n_jobs", 1.5)])
def test_config_rejects_bad_values(field, value):
    with pytest.raises(ValueError, match=field):
        LimeConfig(**{field: value})


def test_result_items_leave_out_execution_settings():
    items = LimeConfig(n_jobs=3, batch_size=7, scheduler="tcp://x:1").result_items()
    assert not {"n_jobs", "batch_size", "scheduler", "memory_budget_mb"} & set(items)
    assert {"mode", "engine", "top_k", "num_samples", "random_state"} <= set(items)


def test_inputs_are_checked():
    X, y, predict = breast_cancer()
    config = LimeConfig(num_samples=50, n_jobs=1)
    bad = X[:3].copy()
    bad[1, 4] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        explain_rows(X, bad, predict, config)
    with pytest.raises(ValueError, match="same number of columns"):
        explain_rows(X, X[:3, :5], predict, config)
    with pytest.raises(ValueError, match="training_labels"):
        make_explainer(X, LimeConfig(discretizer="entropy"))
    with pytest.raises(ValueError, match="integer codes"):
        explain_rows(X, X[:3], predict, config, categorical_features=[0])
    with pytest.raises(ValueError, match="n_classes"):
        explain_rows(X, X[:3], lambda Z: predict(Z)[:, 1], config)
    with pytest.raises(ValueError, match="labels"):
        explain_rows(X, X[:3], predict, config, labels=[0, 1, 2])
    for engine in ("batched", "reference"):
        engine_config = LimeConfig(num_samples=50, n_jobs=1, engine=engine)
        with pytest.raises(ValueError, match="outside \\[0, 1\\].*not scores or logits"):
            explain_rows(X, X[:3], lambda Z: 4 * predict(Z) - 2, engine_config)
        with pytest.raises(ValueError, match="summing to"):
            explain_rows(X, X[:3], lambda Z: predict(Z) / 2, engine_config)
        as_list = explain_rows(X, X[:3], lambda Z: predict(Z).tolist(), engine_config)
        assert (as_list.features == explain_rows(X, X[:3], predict, engine_config).features).all()


def test_no_rows_to_explain():
    for X, predict in (breast_cancer()[::2], mixed()[::2]):
        three = lambda Z: np.column_stack([predict(Z), np.zeros(len(Z))])  # noqa: E731
        for proba in (predict, three):
            exp = explain_rows(X, X[:0], proba, LimeConfig(num_samples=50, n_jobs=1,
                                                             discretizer="quartile"))
            assert exp.features.shape == (0, 5) and exp.labels.shape == (0,)


def test_explanations_shapes_and_fields():
    X, y, predict = mixed()
    exp = explain_rows(X, X[:6], predict, LimeConfig(num_samples=300, top_k=3, n_jobs=1),
                       categorical_features=MIXED_CATEGORICAL)
    assert isinstance(exp, Explanations)
    assert exp.features.shape == exp.weights.shape == (6, 3)
    assert exp.bins.shape == (6, 6) and exp.bins.dtype.kind == "i"
    assert np.array_equal(exp.bins[:, 1], X[:6, 1])  # categorical columns hold the code
    assert set(exp.edges) == {0, 2, 3, 5}
    assert np.array_equal(exp.bins[:, 0], np.searchsorted(exp.edges[0], X[:6, 0]))
    assert np.array_equal(exp.labels, np.ones(6))
    assert np.array_equal(exp.row_ids, np.arange(6))
    assert (exp.features >= 0).all() and exp.seconds > 0 and exp.rows_from_cache == 0
    empty = explain_rows(X, X[:0], predict, LimeConfig(num_samples=50, n_jobs=1),
                         categorical_features=MIXED_CATEGORICAL)
    assert empty.features.shape == (0, 5)
