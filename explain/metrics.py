"""Fidelity of a surrogate to the black box, and its accuracy against the ground truth.

A fidelity measured on a few hundred held-out rows is an estimate: :func:`agreement_interval`
gives its Wilson score interval, and :func:`paired_comparison` says whether two surrogates
measured on the *same* rows differ by more than chance (the exact McNemar test: only the
rows where exactly one of them agrees with the reference tell them apart).
"""

from __future__ import annotations

import numpy as np
from scipy.stats import binomtest

__all__ = ["agreement_scores", "agreement_interval", "paired_comparison", "discordant_test",
           "CONFIDENCE", "SIGNIFICANCE"]

#: A paired test's p-value below this says the two surrogates differ in fidelity.
SIGNIFICANCE = 0.05
#: Confidence level of the intervals in the reports.
CONFIDENCE = 1 - SIGNIFICANCE


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

    Raises
    ------
    ValueError
        If ``predicted`` and ``reference`` differ in shape.
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


def agreement_interval(agreeing: int, rows: int, confidence: float = CONFIDENCE) -> list | None:
    """Wilson score interval of an agreement of ``agreeing`` rows out of ``rows``.

    Unlike the normal approximation it stays inside [0, 1] and is not of zero width at a
    fidelity of 1.0: a surrogate faithful on all 40 held-out rows has the 95% interval
    0.912–1, not the single point 1.

    Parameters
    ----------
    agreeing, rows : int
        Rows with equal labels, and rows compared (``0 <= agreeing <= rows``).
    confidence : float, default=0.95
        Confidence level (:data:`CONFIDENCE`).

    Returns
    -------
    list of two floats or None
        ``[low, high]``; None when there is no row.

    Examples
    --------
    >>> [round(v, 3) for v in agreement_interval(40, 40)]
    [0.912, 1.0]
    """
    if rows <= 0:
        return None
    ci = binomtest(int(agreeing), int(rows)).proportion_ci(confidence, method="wilson")
    return [float(ci.low), float(ci.high)]


def paired_comparison(a_predicted, b_predicted, reference) -> dict:
    """Test whether two surrogates agree with ``reference`` equally often on the same rows.

    The exact (binomial) McNemar test.

    Rows where both agree, or both disagree, say nothing about which is more faithful;
    of the ``a_only + b_only`` rows where just one agrees, each is ``a``'s with probability
    1/2 if the two are equally faithful.

    Parameters
    ----------
    a_predicted, b_predicted, reference : array-like of shape (n_rows,)
        Labels of the same rows by surrogate ``a``, surrogate ``b`` and the reference.

    Returns
    -------
    dict
        ``a_only`` (rows where only ``a`` agrees with ``reference``), ``b_only``, and
        ``p_value``: two-sided, 1.0 when no row tells them apart.

    Raises
    ------
    ValueError
        If the three differ in shape.

    Examples
    --------
    >>> paired_comparison([1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 1, 1])
    {'a_only': 1, 'b_only': 1, 'p_value': 1.0}
    """
    a, b, ref = (np.asarray(v) for v in (a_predicted, b_predicted, reference))
    if not a.shape == b.shape == ref.shape:
        raise ValueError(f"the labels differ in shape: {a.shape}, {b.shape}, {ref.shape}")
    a_right, b_right = a == ref, b == ref
    return discordant_test(int(np.sum(a_right & ~b_right)), int(np.sum(b_right & ~a_right)))


def discordant_test(a_only: int, b_only: int) -> dict:
    """Run :func:`paired_comparison`'s test from its counts of discordant rows.

    Parameters
    ----------
    a_only : int
        Rows where only ``a`` agrees with the reference.
    b_only : int
        Rows where only ``b`` does.

    Returns
    -------
    dict
        ``a_only``, ``b_only`` and the two-sided ``p_value`` (1.0 when both are 0).
    """
    n = a_only + b_only
    p_value = 1.0 if n == 0 else float(binomtest(a_only, n, 0.5).pvalue)
    return {"a_only": int(a_only), "b_only": int(b_only), "p_value": min(1.0, p_value)}
