"""The two LIME engines behind :func:`explain.lime_runner.explain_rows`.

Both take lime's own fitted ``LimeTabularExplainer`` and explain a batch of rows with
``explain(rows, seeds, labels, predict_fn) -> LocalFits``; row ``r`` depends only on
``seeds[r]`` and ``labels[r]``, never on the other rows of the batch.

:class:`BatchedLime`
    Draws every row's neighbourhood (:mod:`explain.lime_sampling`), calls the black box
    once on the stacked batch, computes distances and kernel weights, and fits lime's local
    models in closed form (:mod:`explain.lime_fit`).
:class:`ReferenceLime`
    Stock ``explainer.explain_instance`` per row, with the explainer's random state (shared
    by its discretizer and ``LimeBase``) reseeded to the row's seed first.
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
from scipy.linalg import LinAlgWarning

from adapters import InputError, blackbox
from explain.lime_fit import LocalFits, fit_local_models, stack_fits
from explain.lime_sampling import FastConstants, SamplingTables, sample_neighbourhoods
from explain.lime_truncnorm import ExactTruncnormPPF

__all__ = ["BatchedLime", "ReferenceLime", "check_probabilities"]


def check_probabilities(p, n_rows: int) -> np.ndarray:
    """The black box's output as a float (n_rows, n_classes) array, or a clear error.

    Parameters
    ----------
    p : array-like
        What ``predict_fn`` returned.
    n_rows : int
        Rows it was given.

    Returns
    -------
    ndarray of float64 of shape (n_rows, n_classes)
        ``p``, checked.

    Raises
    ------
    adapters.InputError
        Unless ``p`` has one row per input row, at least two classes, and finite values
        in [0, 1] summing to 1 per row.
    """
    try:
        p = np.asarray(p, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError("predict_fn returned non-numeric output; it must return class "
                         "probabilities") from None
    if p.ndim != 2 or p.shape[0] != n_rows or p.shape[1] < 2:
        raise InputError(
            f"predict_fn must return class probabilities of shape (n_rows, n_classes) with "
            f"n_classes >= 2; got shape {p.shape} for {n_rows} rows")
    return blackbox.check_probabilities(p, n_rows, p.shape[1], "predict_fn")


class BatchedLime:
    """Lime's algorithm for a batch of rows, vectorized (issue 5).

    Parameters
    ----------
    explainer : lime.lime_tabular.LimeTabularExplainer
        Fitted with ``discretize_continuous=True``; its discretizer, bin statistics,
        category frequencies and kernel are used as they are.
    num_samples : int
        Samples per row (lime's ``num_samples``).
    top_k : int
        Features per explanation (lime's ``num_features``).
    feature_selection : str, default="auto"
        Lime's ``feature_selection`` method.
    mode : {"fast", "exact"}, default="fast"
        Sampling mode, see :mod:`explain.lime_sampling`.
    fix_zero_width_bins : bool, default=True
        Give zero-width bins their value instead of lime's ~0.0.
    fit_rows : int, optional
        Rows whose local models are fitted at once (their 0/1 views are the batch's
        largest arrays); by default the whole batch. The samples and the black box's call
        stay shared by the whole batch either way.
    negations : ndarray of int, shape (E, 2), optional
        The one-hot view's extra features (:func:`~explain.lime_sampling.one_hot_negations`):
        feature ``n_features + e`` of an explanation is "not the value ``e``".

    Raises
    ------
    ValueError
        If ``mode`` is neither ``"fast"`` nor ``"exact"``.
    """

    def __init__(self, explainer, num_samples, top_k, feature_selection="auto", mode="fast",
                 fix_zero_width_bins=True, fit_rows=None, negations=None):
        if mode not in ("fast", "exact"):
            raise ValueError(f"mode must be 'fast' or 'exact', got {mode!r}")
        self.tables = SamplingTables.from_explainer(explainer, fix_zero_width_bins)
        self.num_samples = int(num_samples)
        self.top_k = int(top_k)
        self.feature_selection = feature_selection
        self.mode = mode
        self.fit_rows = fit_rows
        self.negations = negations
        self.kernel_fn = explainer.base.kernel_fn
        self.base = explainer.base
        if mode == "exact":
            self._ppf, self._constants = ExactTruncnormPPF(self.tables.a, self.tables.b), None
        else:
            self._ppf, self._constants = None, FastConstants(self.tables)

    def explain(self, rows, seeds, labels, predict_fn) -> LocalFits:
        """Explain ``rows`` (R, d) toward ``labels`` (R,) with one black-box call.

        Rows with the same seed share their perturbations (lime draws them independently
        of the row), so the black box sees each distinct seed's samples once.

        Parameters
        ----------
        rows : ndarray of shape (R, n_features)
            Encoded rows.
        seeds : sequence of int
            Per-row seeds.
        labels : sequence of int
            Class explained per row.
        predict_fn : callable
            ``predict_fn(Z) -> (len(Z), n_classes)`` probabilities.

        Returns
        -------
        LocalFits
            Each row's selected features, weights, intercept and score.

        Raises
        ------
        adapters.InputError
            If ``predict_fn`` does not return class probabilities.
        """
        rows = np.asarray(rows, dtype=np.float64)
        hood = sample_neighbourhoods(self.tables, rows, seeds, self.num_samples, self.mode,
                                     constants=self._constants, ppf=self._ppf)
        inputs = hood.black_box_input()
        proba = check_probabilities(predict_fn(inputs), len(inputs))
        del inputs
        y = hood.responses(proba, np.asarray(labels, dtype=np.intp))
        step = self.fit_rows or max(len(rows), 1)
        return stack_fits([self._fit(hood, y, slice(start, start + step))
                           for start in range(0, max(len(rows), 1), step)])

    def _fit(self, hood, y, which) -> LocalFits:
        binary, y = hood.binary(which, self.negations), y[which]
        # lime: euclidean distance of the 0/1 rows to the all-ones first row
        mismatches = binary.shape[1] - binary.sum(axis=1)
        weights = self.kernel_fn(np.sqrt(mismatches))
        def lasso(r):  # lime's own LARS path, row by row (only for "lasso_path")
            return self.base.feature_selection(binary[r].T, y[r], weights[r],
                                               self.top_k, "lasso_path")

        return fit_local_models(binary, y, weights, self.top_k, self.feature_selection,
                                lasso if self.feature_selection == "lasso_path" else None)


class ReferenceLime:
    """Stock lime, one ``explain_instance`` per row (the ``reference`` engine).

    Parameters
    ----------
    explainer : lime.lime_tabular.LimeTabularExplainer
        The explainer whose ``explain_instance`` runs.
    num_samples : int
        Samples per row (lime's ``num_samples``).
    top_k : int
        Features per explanation (lime's ``num_features``).
    """

    def __init__(self, explainer, num_samples, top_k):
        self.explainer = explainer
        self.num_samples = int(num_samples)
        self.top_k = int(top_k)

    def explain(self, rows, seeds, labels, predict_fn) -> LocalFits:
        """Explain ``rows`` one by one, as :meth:`BatchedLime.explain` does in a batch.

        Parameters
        ----------
        rows : ndarray of shape (R, n_features)
            Encoded rows.
        seeds : sequence of int
            Per-row seeds (the explainer's random state is seeded with each).
        labels : sequence of int
            Class explained per row.
        predict_fn : callable
            ``predict_fn(Z) -> (len(Z), n_classes)`` probabilities.

        Returns
        -------
        LocalFits
            Each row's selected features, weights, intercept and score.
        """
        n_rows, k = len(rows), self.top_k
        fits = LocalFits(np.full((n_rows, k), -1, dtype=np.intp), np.zeros((n_rows, k)),
                         np.zeros(n_rows), np.zeros(n_rows))
        # a private copy: explain_instance mutates the explainer's random state, and batches
        # may run in threads (Dask workers) sharing this engine
        explainer = copy.deepcopy(self.explainer)
        if self.num_samples > len(explainer.feature_names):
            self._explain_each(explainer, rows, seeds, labels, predict_fn, fits)
            return fits
        # lime's ridge on no more samples than features warns of every row; the run warns
        # of that once (catch_warnings is process-wide, so only in this case)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", LinAlgWarning)
            self._explain_each(explainer, rows, seeds, labels, predict_fn, fits)
        return fits

    def _explain_each(self, explainer, rows, seeds, labels, predict_fn, fits) -> None:
        k = self.top_k

        def checked(Z):
            return check_probabilities(predict_fn(Z), len(Z))

        for r, (row, seed, label) in enumerate(zip(rows, seeds, labels)):
            # one RandomState object is shared by the explainer, its discretizer and LimeBase
            explainer.random_state.seed(int(seed))
            label = int(label)
            exp = explainer.explain_instance(
                np.asarray(row, dtype=np.float64), checked, labels=(label,),
                num_features=k, num_samples=self.num_samples, model_regressor=None)
            pairs = exp.local_exp[label][:k]
            fits.features[r, :len(pairs)] = [f for f, _ in pairs]
            fits.weights[r, :len(pairs)] = [v for _, v in pairs]
            fits.intercepts[r], fits.scores[r] = exp.intercept[label], exp.score
