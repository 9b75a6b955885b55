"""The batched engine in ``fast`` mode: lime's distribution, lime's agreement, lime's bins
fixed, and results that do not depend on batching or order."""

import numpy as np
import pytest
from scipy import stats

from explain.lime_batch import BatchedLime
from explain.lime_runner import LimeConfig, explain_rows, make_explainer, seed_for
from explain.lime_sampling import SamplingTables, sample_neighbourhoods
from tests.explain.test_lime_support import HOURS, MIXED_CATEGORICAL, breast_cancer, mixed


def _agreement(a, b):
    """Per row: the share of ``a``'s top-K features also in ``b``'s."""
    return np.array([len(set(x) & set(z)) / len(x) for x, z in zip(a, b)])


def test_fast_agrees_with_lime_as_well_as_lime_with_itself():
    # Lime under seeds 0, 1, 2 is the exact engine (equal to explain_instance, see
    # test_lime_exact); fast mode under the same three random_states draws independently.
    X, y, predict = breast_cancer()
    rows = X[::8][:60]
    lime, fast = [], []
    for seed in range(3):
        common = dict(num_samples=1000, top_k=5, random_state=seed, n_jobs=1)
        lime.append(explain_rows(X, rows, predict, LimeConfig(
            mode="exact", fix_zero_width_bins=False, **common)).features)
        fast.append(explain_rows(X, rows, predict, LimeConfig(mode="fast", **common)).features)
    self_agreement = np.mean([_agreement(lime[i], lime[j])
                              for i in range(3) for j in range(3) if i < j], axis=0)
    fast_agreement = np.mean([_agreement(fast[i], lime[j])
                              for i in range(3) for j in range(3)], axis=0)
    diff = fast_agreement - self_agreement
    print(f"top-5 agreement: fast vs lime {fast_agreement.mean():.3f}, "
          f"lime vs lime (other seed) {self_agreement.mean():.3f}")
    assert fast_agreement.mean() > 0.7
    # not lower than lime's own agreement beyond sampling noise (2 standard errors)
    assert diff.mean() >= -2 * diff.std(ddof=1) / np.sqrt(len(diff))


@pytest.mark.parametrize("data", [breast_cancer, mixed])
def test_fast_samples_lime_distribution(data):
    X, y, _ = data()
    cat = MIXED_CATEGORICAL if data is mixed else ()
    tables = SamplingTables.from_explainer(make_explainer(X, LimeConfig(), cat, training_labels=y))
    row = X[:1]
    exact = sample_neighbourhoods(tables, row, [11], 20000, "exact").inverse[1:]
    fast = sample_neighbourhoods(tables, row, [11], 20000, "fast").inverse[1:]
    for j in range(X.shape[1]):
        if j in cat:
            values = np.union1d(exact[:, j], fast[:, j])
            table = [[np.sum(s[:, j] == v) for v in values] for s in (exact, fast)]
            assert stats.chi2_contingency(table).pvalue > 1e-4, j
        else:
            assert stats.ks_2samp(exact[:, j], fast[:, j]).pvalue > 1e-4, j
    lower = tables.lower.reshape(len(tables.numeric), -1)
    upper = tables.upper.reshape(len(tables.numeric), -1)
    for k, f in enumerate(tables.numeric):  # fast values stay inside their bin
        b = np.searchsorted(tables.edges[k], fast[:, f])
        assert (fast[:, f] >= lower[k, b]).all() and (fast[:, f] <= upper[k, b]).all()


def test_zero_width_bin_gets_its_value():
    X, y, predict = mixed()
    explainer = make_explainer(X, LimeConfig(discretizer="quartile"), MIXED_CATEGORICAL)
    assert explainer.discretizer.mins[HOURS][0] == explainer.discretizer.maxs[HOURS][0] == 5.0
    seen = []

    def recording(Z):
        seen.append(np.array(Z[1:, HOURS]))
        return predict(Z)

    explainer.random_state.seed(seed_for(0, 0))
    explainer.explain_instance(X[0], recording, num_samples=3000, num_features=3)
    lime_values = seen[0]
    assert (lime_values == 0.0).mean() > 0.2  # lime's defect: 0.0 instead of 5.0
    assert not (lime_values == 5.0).any()

    hours = {}
    for mode, fix in (("exact", False), ("exact", True), ("fast", True)):
        tables = SamplingTables.from_explainer(explainer, fix_zero_width_bins=fix)
        inverse = sample_neighbourhoods(tables, X[:1], [seed_for(0, 0)], 3000, mode).inverse
        hours[mode, fix] = inverse[1:, HOURS]
    assert np.array_equal(hours["exact", False], lime_values)  # flag off: lime, bit for bit
    for key in (("exact", True), ("fast", True)):
        values = hours[key]
        assert values.min() == 5.0 and 0.2 < (values == 5.0).mean() < 0.5
    fixed, lime = hours["exact", True], hours["exact", False]
    assert np.array_equal(fixed[lime != 0.0], lime[lime != 0.0])  # only that bin changes


@pytest.mark.parametrize("mode", ["fast", "exact"])
def test_results_do_not_depend_on_batching_or_order(mode):
    X, y, predict = mixed()
    rows, ids = X[:9], np.arange(100, 109)
    config = dict(num_samples=300, top_k=3, mode=mode, n_jobs=1)
    one = explain_rows(X, rows, predict, LimeConfig(batch_size=1, **config),
                       categorical_features=MIXED_CATEGORICAL, row_ids=ids)
    many = explain_rows(X, rows, predict, LimeConfig(batch_size=4, **config),
                        categorical_features=MIXED_CATEGORICAL, row_ids=ids)
    order = np.arange(9)[::-1]
    flipped = explain_rows(X, rows[order], predict, LimeConfig(batch_size=9, **config),
                           categorical_features=MIXED_CATEGORICAL, row_ids=ids[order])
    for exp in (many, flipped):
        rank = order if exp is flipped else np.arange(9)
        assert np.array_equal(exp.features, one.features[rank])
        assert np.abs(exp.weights - one.weights[rank]).max() < 1e-12


def test_engine_batches_one_black_box_call():
    X, y, predict = breast_cancer()
    calls = []

    def counting(Z):
        calls.append(len(Z))
        return predict(Z)

    explainer = make_explainer(X, LimeConfig(), training_labels=y)
    engine = BatchedLime(explainer, 200, 5, "auto", "fast")
    fits = engine.explain(X[:6], [seed_for(0, i) for i in range(6)], [1] * 6, counting)
    assert calls == [6 * 200]
    assert fits.features.shape == (6, 5) and (np.abs(fits.weights[:, 0]) > 0).all()
