import numpy as np
import pytest

from explain.metrics import agreement_scores


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
