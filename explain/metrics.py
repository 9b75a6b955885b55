"""Fidelity of a surrogate to the black box, and its accuracy against the ground truth."""

from __future__ import annotations

import numpy as np

__all__ = ["agreement_scores"]


def agreement_scores(predicted: np.ndarray, reference: np.ndarray, positive=1) -> dict:
    """Agreement of ``predicted`` with ``reference`` (the black box's or the true labels).

    Parameters
    ----------
    predicted, reference : array-like of shape (n_rows,)
        Labels of the same kind.
    positive : label, default=1
        The class that counts as positive for precision, recall and F1.

    Returns
    -------
    dict
        ``agreement`` (the fraction of rows with equal labels: *fidelity* when the reference
        is the black box, *accuracy* when it is the ground truth), ``precision``, ``recall``,
        ``f1`` of the positive class, and ``rows``. Scores of an empty set are ``None``.
    """
    predicted = np.asarray(predicted)
    reference = np.asarray(reference)
    if predicted.shape != reference.shape:
        raise ValueError(
            f"predicted and reference labels differ in shape: {predicted.shape} vs {reference.shape}"
        )
    n = int(predicted.shape[0])
    if n == 0:
        return {"agreement": None, "precision": None, "recall": None, "f1": None, "rows": 0}
    pred_pos = predicted == positive
    ref_pos = reference == positive
    tp = int(np.sum(pred_pos & ref_pos))
    precision = tp / int(pred_pos.sum()) if pred_pos.any() else 0.0
    recall = tp / int(ref_pos.sum()) if ref_pos.any() else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "agreement": float(np.mean(predicted == reference)),
        "precision": float(precision),
        "recall": float(recall),
        "f1": float(f1),
        "rows": n,
    }
