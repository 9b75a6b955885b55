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
        ``f1`` of the positive class, and ``rows``. A score with nothing to count is
        ``None`` (shown as "–"), not 0: precision when nothing is predicted positive, recall
        when nothing is positive in ``reference``, F1 when neither has a positive, and
        every score of an empty set.
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
    n_pred, n_ref = int(pred_pos.sum()), int(ref_pos.sum())
    return {
        "agreement": float(np.mean(predicted == reference)),
        "precision": tp / n_pred if n_pred else None,
        "recall": tp / n_ref if n_ref else None,
        "f1": 2 * tp / (n_pred + n_ref) if n_pred + n_ref else None,
        "rows": n,
    }
