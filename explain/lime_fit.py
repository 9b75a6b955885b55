"""Lime's local models in closed form, for a batch of rows at once.

For one row lime fits scikit-learn ``Ridge`` models with ``fit_intercept=True`` and the
kernel weights as sample weights (``lime.lime_base.LimeBase``):

- ``forward_selection``: greedy, adding the feature whose ``Ridge(alpha=0)`` fit has the
  highest weighted R² (first feature wins a tie);
- ``highest_weights``: the largest ``|coef|`` of ``Ridge(alpha=0.01)`` on all features;
- ``lasso_path``: scikit-learn's LARS path (delegated to lime itself, row by row);
- ``none``: every feature;
- ``auto``: ``forward_selection`` for at most 6 features, else ``highest_weights``;

then the explanation is ``Ridge(alpha=1)`` on the selected features, sorted by decreasing
``|coef|`` (stable). All of them depend on the data only through the weighted, centered Gram
matrix ``G = Xcᵀ W Xc`` and ``g = Xcᵀ W yc``: ridge is ``(G + αI)⁻¹ g``, and the R² gain of
adding feature ``f`` to a selected set ``S`` is ``(g_f|S)² / G_ff|S`` with the partial
quantities kept up to date by a sweep — no model is refitted.

A feature whose residual variance is zero (a constant 0/1 column, or one collinear with the
selected set) adds nothing: its gain is 0, as scikit-learn's SVD fallback gives.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Moments", "LocalFits", "weighted_moments", "forward_selection",
           "highest_weights", "fit_local_models", "stack_fits"]

_RESIDUAL_TOL = 1e-12


@dataclass(frozen=True)
class Moments:
    """Weighted, centered second moments of each row's neighbourhood.

    Parameters
    ----------
    gram : ndarray, shape (R, d, d)
        Weighted Gram matrix of the centered features.
    cross : ndarray, shape (R, d)
        Weighted cross products of the centered features and labels.
    total : ndarray, shape (R,)
        Weighted total sum of squares of the labels.
    x_mean, y_mean : ndarray, shapes (R, d) and (R,)
        Weighted means (scikit-learn's ``X_offset``, ``y_offset``).
    """

    gram: np.ndarray
    cross: np.ndarray
    total: np.ndarray
    x_mean: np.ndarray
    y_mean: np.ndarray


@dataclass(frozen=True)
class LocalFits:
    """Each row's explanation: lime's ``local_exp`` as arrays.

    Parameters
    ----------
    features : ndarray of int, shape (R, top_k)
        Feature indices by decreasing ``|weight|``; -1 pads rows with fewer features.
    weights : ndarray of float, shape (R, top_k)
        Local ridge coefficients (0.0 in padded slots).
    intercepts, scores : ndarray of float, shape (R,)
        The ridge intercept and its weighted R² on the neighbourhood (lime's ``score``).
    """

    features: np.ndarray
    weights: np.ndarray
    intercepts: np.ndarray
    scores: np.ndarray


def stack_fits(parts) -> LocalFits:
    """The fits of consecutive groups of rows, one after the other.

    Parameters
    ----------
    parts : sequence of LocalFits
        At least one.

    Returns
    -------
    LocalFits
        Their rows concatenated in order (the one part itself when alone).
    """
    if len(parts) == 1:
        return parts[0]
    return LocalFits(*(np.concatenate([getattr(p, name) for p in parts])
                       for name in ("features", "weights", "intercepts", "scores")))


def weighted_moments(binary: np.ndarray, y: np.ndarray, w: np.ndarray) -> Moments:
    """Center by the weighted means and form the weighted Gram matrices.

    Parameters
    ----------
    binary : ndarray, shape (R, d, n)
        Feature-major 0/1 neighbourhood of each row.
    y, w : ndarray, shape (R, n)
        Labels (the explained class's probability) and kernel weights.

    Returns
    -------
    Moments
        Each row's moments.
    """
    total_w = w.sum(axis=1)
    x_mean = np.einsum("rdn,rn->rd", binary, w) / total_w[:, None]
    y_mean = np.einsum("rn,rn->r", y, w) / total_w
    root = np.sqrt(w)
    xs = binary - x_mean[:, :, None]
    xs *= root[:, None, :]
    ys = (y - y_mean[:, None]) * root
    gram = xs @ xs.transpose(0, 2, 1)
    cross = np.einsum("rdn,rn->rd", xs, ys)
    total = np.einsum("rn,rn->r", ys, ys)
    return Moments(gram, cross, total, x_mean, y_mean)


def forward_selection(m: Moments, k: int) -> np.ndarray:
    """Lime's greedy forward selection.

    Parameters
    ----------
    m : Moments
        The rows' moments.
    k : int
        Features to select.

    Returns
    -------
    ndarray of int of shape (R, min(k, d))
        Each row's features, in order of selection.
    """
    n_rows, d, _ = m.gram.shape
    gram = m.gram.copy()
    cross = m.cross.copy()
    scale = np.maximum(np.abs(np.diagonal(m.gram, axis1=1, axis2=2)).max(axis=1), 1e-300)
    used = np.zeros((n_rows, d), dtype=bool)
    rows = np.arange(n_rows)
    chosen = np.empty((n_rows, min(k, d)), dtype=np.intp)
    for step in range(chosen.shape[1]):
        diag = np.diagonal(gram, axis1=1, axis2=2)
        alive = diag > _RESIDUAL_TOL * scale[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            gain = np.where(alive, cross**2 / diag, 0.0)
        gain[used] = -np.inf
        best = np.argmax(gain, axis=1)
        chosen[:, step] = best
        used[rows, best] = True
        pivot = diag[rows, best]
        ok = alive[rows, best]
        col = gram[rows, :, best] / np.where(ok, pivot, 1.0)[:, None]
        col[~ok] = 0.0
        # sweep the chosen feature out of the Gram matrix and the cross products
        cross -= col * cross[rows, best][:, None]
        gram -= col[:, :, None] * gram[rows, best, :][:, None, :]
    return chosen


def _solve_ridge(gram: np.ndarray, cross: np.ndarray, alpha: float) -> np.ndarray:
    a = gram + alpha * np.eye(gram.shape[-1])
    return np.linalg.solve(a, cross[..., None])[..., 0]


def highest_weights(m: Moments, k: int) -> np.ndarray:
    """Lime's ``highest_weights``: top ``|coef|`` of ``Ridge(alpha=0.01)``.

    Parameters
    ----------
    m : Moments
        The rows' moments.
    k : int
        Features to select.

    Returns
    -------
    ndarray of int of shape (R, min(k, d))
        Each row's features by decreasing ``|coef|``.
    """
    coef = _solve_ridge(m.gram, m.cross, 0.01)
    return np.argsort(-np.abs(coef), axis=1, kind="stable")[:, :k]


def _final_ridge(m: Moments, rows: np.ndarray, used: np.ndarray):
    """Ridge(alpha=1) on the features ``used`` (R', j) of rows ``rows``."""
    gram = m.gram[rows[:, None, None], used[:, :, None], used[:, None, :]]
    cross = np.take_along_axis(m.cross[rows], used, axis=1)
    coef = _solve_ridge(gram, cross, 1.0)
    x_mean = np.take_along_axis(m.x_mean[rows], used, axis=1)
    intercept = m.y_mean[rows] - np.einsum("rj,rj->r", x_mean, coef)
    rss = (m.total[rows] - 2 * np.einsum("rj,rj->r", coef, cross)
           + np.einsum("ri,rij,rj->r", coef, gram, coef))
    with np.errstate(divide="ignore", invalid="ignore"):
        score = np.where(m.total[rows] > 0, 1 - rss / m.total[rows], 1.0)
    return coef, intercept, score


def resolved_selection(method: str, k: int) -> str:
    """Lime's feature selection ``method`` for ``k`` features: ``auto`` as lime resolves
    it, ``forward_selection`` for at most 6, else ``highest_weights``."""
    if method == "auto":
        return "forward_selection" if k <= 6 else "highest_weights"
    return method


def _select(m, k, method, lasso):
    d = m.gram.shape[1]
    method = resolved_selection(method, k)
    if method == "forward_selection":
        return forward_selection(m, k)
    if method == "highest_weights":
        return highest_weights(m, k)
    if method == "none":
        return np.broadcast_to(np.arange(d), (m.gram.shape[0], d))
    if method == "lasso_path":
        return [np.asarray(lasso(r), dtype=np.intp) for r in range(m.gram.shape[0])]
    raise ValueError(f"unknown feature_selection {method!r}; choose 'auto', "
                     "'forward_selection', 'highest_weights', 'lasso_path' or 'none'")


def fit_local_models(binary, y, w, top_k, method="auto", lasso=None) -> LocalFits:
    """Feature selection and the final weighted ridge for every row of a batch.

    Parameters
    ----------
    binary : ndarray, shape (R, d, n)
        Feature-major 0/1 neighbourhood of each row.
    y, w : ndarray, shape (R, n)
        Labels (the explained class's probability) and kernel weights.
    top_k : int
        Lime's ``num_features``; also the width of the result.
    method : str, default="auto"
        Lime's ``feature_selection``.
    lasso : callable, optional
        ``lasso(r) -> indices`` for row ``r`` (``lasso_path`` only).

    Returns
    -------
    LocalFits
        Each row's selected features, weights, intercept and score.

    Raises
    ------
    ValueError
        If ``method`` is not one of lime's.
    """
    m = weighted_moments(binary, y, w)
    n_rows = m.gram.shape[0]
    selected = _select(m, top_k, method, lasso)
    fits = LocalFits(np.full((n_rows, top_k), -1, dtype=np.intp), np.zeros((n_rows, top_k)),
                     np.zeros(n_rows), np.zeros(n_rows))
    groups = {}
    for r in range(n_rows):  # rows with the same number of selected features solve together
        groups.setdefault(len(selected[r]), []).append(r)
    for width, members in groups.items():
        rows = np.asarray(members)
        if width == 0:
            fits.intercepts[rows], fits.scores[rows] = m.y_mean[rows], 0.0
            continue
        used = np.stack([np.asarray(selected[r]) for r in members])
        coef, intercept, score = _final_ridge(m, rows, used)
        order = np.argsort(-np.abs(coef), axis=1, kind="stable")[:, :top_k]
        j = order.shape[1]
        fits.features[rows, :j] = np.take_along_axis(used, order, axis=1)
        fits.weights[rows, :j] = np.take_along_axis(coef, order, axis=1)
        fits.intercepts[rows], fits.scores[rows] = intercept, score
    return fits
