import math

import numpy as np
import pytest

from explain.metrics import (agreement_interval, agreement_scores, discordant_test,
                             paired_comparison)


def test_hand_computed_scores():
    s = agreement_scores(np.array([1, 1, 0, 0, 1]), np.array([1, 0, 0, 1, 1]))
    assert s["agreement"] == pytest.approx(3 / 5)
    assert s["precision"] == pytest.approx(2 / 3)
    assert s["recall"] == pytest.approx(2 / 3)
    assert s["f1"] == pytest.approx(2 / 3)


def test_empty_and_shape_mismatch():
    assert agreement_scores(np.array([]), np.array([]))["agreement"] is None
    with pytest.raises(ValueError):
        agreement_scores(np.array([1]), np.array([1, 0]))


def test_scores_match_scikit_learn_where_defined():
    from sklearn.metrics import f1_score, precision_score, recall_score

    rng = np.random.default_rng(0)
    for _ in range(50):
        pred, ref = rng.integers(0, 2, size=(2, 12))
        s = agreement_scores(pred, ref)
        if pred.any():
            assert s["precision"] == pytest.approx(precision_score(ref, pred))
        if ref.any():
            assert s["recall"] == pytest.approx(recall_score(ref, pred))
        if pred.any() or ref.any():
            assert s["f1"] == pytest.approx(f1_score(ref, pred))


def test_a_score_with_nothing_to_count_is_none_not_zero():
    never = agreement_scores(np.zeros(4, dtype=int), np.array([0, 1, 0, 1]))
    assert never["precision"] is None  # no positive prediction to be right or wrong about
    assert never["recall"] == 0.0 and never["f1"] == 0.0
    none_anywhere = agreement_scores(np.zeros(3, dtype=int), np.zeros(3, dtype=int))
    assert none_anywhere["agreement"] == 1.0
    assert none_anywhere["precision"] is None and none_anywhere["recall"] is None
    assert none_anywhere["f1"] is None
    no_reference = agreement_scores(np.array([1, 0]), np.array([0, 0]))
    assert no_reference["precision"] == 0.0 and no_reference["recall"] is None


def _wilson(k, n, z=1.959963984540054):
    """The Wilson score interval written out (Wilson 1927; Agresti and Coull 1998)."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


@pytest.mark.parametrize("k, n", [(0, 5), (8, 10), (40, 40), (137, 143), (1, 1000)])
def test_agreement_interval_is_the_wilson_interval(k, n):
    low, high = agreement_interval(k, n)
    assert (low, high) == pytest.approx(_wilson(k, n), abs=1e-12)
    assert 0.0 <= low <= k / n <= high <= 1.0
    assert agreement_interval(0, 0) is None


def test_agreement_interval_covers_the_true_fidelity_about_95_percent_of_the_time():
    rng = np.random.default_rng(0)
    for fidelity, rows in ((0.9, 143), (0.97, 60)):
        draws = rng.binomial(rows, fidelity, size=4000)
        covered = [low <= fidelity <= high
                   for low, high in (agreement_interval(k, rows) for k in draws)]
        assert 0.93 <= np.mean(covered) <= 0.98


def test_paired_comparison_counts_only_the_rows_where_one_alone_agrees():
    reference = np.array([1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1])
    a = reference.copy()
    b = reference.copy()
    b[:10] = 1 - b[:10]  # b wrong on 10 rows, a right on them
    a[11] = 1 - a[11]
    b[11] = a[11]  # both wrong on one row: it tells them nothing
    result = paired_comparison(a, b, reference)
    assert result["a_only"] == 10 and result["b_only"] == 0
    assert result["p_value"] == pytest.approx(2 * 0.5 ** 10)  # two-sided exact binomial
    swapped = paired_comparison(b, a, reference)
    assert (swapped["a_only"], swapped["b_only"]) == (0, 10)
    assert swapped["p_value"] == result["p_value"]
    assert paired_comparison(a, a, reference) == {"a_only": 0, "b_only": 0, "p_value": 1.0}
    with pytest.raises(ValueError, match="differ in shape"):
        paired_comparison(a, b[:-1], reference)


@pytest.mark.parametrize("a_only, b_only, p", [(5, 5, 1.0), (7, 8, 1.0), (3, 0, 0.25),
                                               (9, 1, 0.021484375)])
def test_discordant_test_hand_computed(a_only, b_only, p):
    assert discordant_test(a_only, b_only)["p_value"] == pytest.approx(p)
