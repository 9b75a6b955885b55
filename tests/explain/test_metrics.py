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
