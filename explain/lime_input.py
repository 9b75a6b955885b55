"""What LIME sees of a table: a NaN-free float matrix, and a black box that reads it.

LIME perturbs rows by sampling from training statistics, which NaN would poison. So a
numeric missing value is imputed with the training median and a categorical one becomes an
extra category ``(missing)``; the prediction function maps that category back to NaN before
the black box sees it. Imputation only shapes LIME's sampling: a feature that is missing in
a row is never kept in that row's transformed data (see :mod:`explain.transform`).
"""

from __future__ import annotations

import hashlib
import warnings

import numpy as np
import pandas as pd

from adapters import BlackBox, InputError, TableEncoder
from explain.lime_runner import discretizer_edges, make_explainer, probe_rows

MISSING = "(missing)"


class LimeInput:
    """The LIME view of a table encoded by a fitted :class:`adapters.TableEncoder`.

    Parameters
    ----------
    encoder : TableEncoder
        Fitted on the training rows.
    black_box : BlackBox
        The model being explained.
    X_train : DataFrame
        The training rows (raw).
    labels_train : ndarray
        The black box's labels of the training rows (for the entropy discretizer).
    """

    def __init__(self, encoder: TableEncoder, black_box: BlackBox, X_train: pd.DataFrame,
                 labels_train: np.ndarray):
        self.encoder = encoder
        self.black_box = black_box
        self.feature_names = list(encoder.feature_names_)
        self.categorical_indices = list(encoder.categorical_indices_)
        self._n_categories = {
            j: len(encoder.categories_[self.feature_names[j]]) for j in self.categorical_indices
        }
        self.categorical_names = {
            j: [str(v) for v in encoder.categories_[self.feature_names[j]]] + [MISSING]
            for j in self.categorical_indices
        }
        Z = encoder.transform(X_train)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a column of no value (kept)
            medians = np.nanmedian(np.where(np.isfinite(Z), Z, np.nan), axis=0)
        self._fill = np.where(np.isnan(medians), 0.0, medians)
        for j, n in self._n_categories.items():
            self._fill[j] = n
        self.training_data = self._impute(Z)
        self.training_labels = np.asarray(labels_train)
        self._explainers = {}
        digest = hashlib.sha256(np.ascontiguousarray(
            self.predict_fn(probe_rows(self.training_data,
                                       categorical_features=self.categorical_indices))
        ).tobytes())
        digest.update(black_box.kind.encode())
        self.fingerprint = digest.hexdigest()

    def _impute(self, Z: np.ndarray) -> np.ndarray:
        Z = np.array(Z, dtype=np.float64, copy=True)
        missing = ~np.isfinite(Z)
        if missing.any():
            Z[missing] = np.broadcast_to(self._fill, Z.shape)[missing]
        return Z

    def rows(self, X: pd.DataFrame) -> np.ndarray:
        """The rows of ``X`` as LIME explains them (encoded, imputed).

        Parameters
        ----------
        X : DataFrame
            Rows with the encoder's columns.

        Returns
        -------
        ndarray of float64 of shape (n_rows, n_features)
            Encoded rows; a missing number is the training median, a missing category a
            code of its own (one past the column's categories).
        """
        return self._impute(self.encoder.transform(X))

    def predict_fn(self, Z: np.ndarray) -> np.ndarray:
        """Class probabilities of LIME's (possibly perturbed) rows.

        Parameters
        ----------
        Z : ndarray of shape (n_rows, n_features)
            Rows as :meth:`rows` gives them; the missing-category code is read as missing.

        Returns
        -------
        ndarray of float64 of shape (n_rows, n_classes)
            The black box's probabilities.

        Raises
        ------
        adapters.InputError
            If the black box's output is not class probabilities.
        """
        Z = np.array(Z, dtype=np.float64, copy=True)
        for j, n in self._n_categories.items():
            column = Z[:, j]
            column[column >= n] = np.nan
        try:
            return self.black_box.predict_proba_encoded(Z)
        except InputError as err:  # its row counts are LIME's, not the table's
            raise InputError(f"{err} (the rows LIME asked about: training rows or samples "
                             f"it drew around them)") from None

    def explainer(self, lime_config):
        """The lime explainer of these training rows under ``lime_config``.

        Made once per setting (its entropy discretizer fits a tree per feature).

        Parameters
        ----------
        lime_config : LimeConfig
            The LIME settings.

        Returns
        -------
        lime.lime_tabular.LimeTabularExplainer
            As :func:`~explain.lime_runner.make_explainer` makes it.
        """
        if lime_config not in self._explainers:  # a frozen dataclass: hashable
            self._explainers[lime_config] = make_explainer(
                self.training_data, lime_config, self.categorical_indices,
                self.categorical_names, self.feature_names, self.training_labels)
        return self._explainers[lime_config]

    def __getstate__(self):
        # predict_fn goes to LIME's worker processes with this object: not the explainers
        state = dict(self.__dict__)
        state["_explainers"] = {}
        return state

    def bin_edges(self, lime_config) -> dict[str, np.ndarray]:
        """Each numeric feature's bin edges, by name: those of the explainer LIME runs with.

        Built without explaining any row, so views without LIME use the same bins.

        Parameters
        ----------
        lime_config : LimeConfig
            The LIME settings.

        Returns
        -------
        dict of str to ndarray of float64
            The inner edges of each discretized feature.
        """
        explainer = self.explainer(lime_config)
        return {self.feature_names[j]: e for j, e in discretizer_edges(explainer).items()}
