"""Identical rows merged into weighted rows before encoding.

On LIME-filtered data many rows are identical; each distinct (row, label) pattern becomes
one weighted row whose noise clause weighs ``data_fidelity × count``. When the same binary
row appears with both labels, every rule misclassifies at least ``min(pos, neg)`` of them:
those are counted once in :attr:`WeightedRows.unavoidable`, and the row is kept only with
its majority label and weight ``|pos - neg|`` (dropped when the counts tie). This leaves the
optimum of ``|R| + λ·|E|`` unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["WeightedRows", "distinct_rows", "merge_rows", "weigh"]


@dataclass(frozen=True)
class WeightedRows:
    """Distinct binary rows with net labels and integer weights.

    Parameters
    ----------
    X : ndarray of bool, shape (d, m)
        Distinct rows.
    labels : ndarray of bool, shape (d,)
        Each row's (majority) label.
    weights : ndarray of int64, shape (d,)
        Net count of each row (at least 1).
    unavoidable : int
        Rows misclassified by every rule (the minority side of conflicting duplicates).
    """

    X: np.ndarray
    labels: np.ndarray
    weights: np.ndarray
    unavoidable: int = 0

    def __len__(self) -> int:
        return int(self.X.shape[0])

    @property
    def total(self) -> int:
        """Number of original rows represented."""
        return int(self.weights.sum()) + 2 * self.unavoidable

    def subset(self, index: np.ndarray) -> WeightedRows:
        """The rows at ``index``, without the unavoidable count.

        Parameters
        ----------
        index : ndarray of int or bool
            Positions, or a mask, of the rows to keep.

        Returns
        -------
        WeightedRows
            Those rows, with ``unavoidable=0``.
        """
        return WeightedRows(self.X[index], self.labels[index], self.weights[index], 0)

    def errors(self, predictions: np.ndarray) -> int:
        """Weighted count of misclassified rows, including the unavoidable ones.

        Parameters
        ----------
        predictions : ndarray of bool of shape (n_rows,)
            A rule's value on each distinct row.

        Returns
        -------
        int
            Total weight of the rows whose label differs, plus ``unavoidable``.
        """
        wrong = predictions != self.labels
        return int(self.weights[wrong].sum()) + self.unavoidable


def distinct_rows(
    X: np.ndarray, codes: np.ndarray, n_classes: int, weights: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Distinct rows and how often each appears with each class.

    Parameters
    ----------
    X : ndarray of bool, shape (n, m)
    codes : ndarray of int, shape (n,)
        Class index of each row, in ``0 .. n_classes-1``.
    n_classes : int
    weights : ndarray of int, shape (n,), optional
        Multiplicity of each row (default 1).

    Returns
    -------
    rows : ndarray of bool, shape (d, m)
        Distinct rows in a deterministic (byte-sorted) order.
    counts : ndarray of int64, shape (d, n_classes)
    """
    X = np.asarray(X, dtype=bool)
    n, m = X.shape
    w = np.ones(n, dtype=np.int64) if weights is None else np.asarray(weights, np.int64)
    if n == 0:
        return X.copy(), np.zeros((0, n_classes), dtype=np.int64)
    packed = np.packbits(X, axis=1) if m else np.zeros((n, 1), dtype=np.uint8)
    keys = np.ascontiguousarray(packed).view(np.dtype((np.void, packed.shape[1]))).ravel()
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    inverse = inverse.ravel()
    counts = np.zeros((first.shape[0], n_classes), dtype=np.int64)
    np.add.at(counts, (inverse, np.asarray(codes, dtype=np.int64)), w)
    return X[first], counts


def weigh(X: np.ndarray, pos: np.ndarray, neg: np.ndarray) -> WeightedRows:
    """Weighted rows from per-row positive and negative counts (conflicts cancel)."""
    pos = np.asarray(pos, dtype=np.int64)
    neg = np.asarray(neg, dtype=np.int64)
    keep = pos != neg
    unavoidable = int(np.minimum(pos, neg).sum())
    return WeightedRows(X[keep], (pos > neg)[keep], np.abs(pos - neg)[keep], unavoidable)


def merge_rows(X: np.ndarray, y: np.ndarray, weights: np.ndarray | None = None) -> WeightedRows:
    """Merge identical rows; rows with both labels cancel out pairwise.

    Parameters
    ----------
    X : ndarray of bool, shape (n, m)
        The binary rows.
    y : ndarray of bool, shape (n,)
        The label of each row.
    weights : ndarray of int, shape (n,), optional
        Multiplicity of each row (default 1).

    Returns
    -------
    WeightedRows
        Distinct rows in a deterministic (byte-sorted) order.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1, 0], [1, 0], [1, 0], [0, 1]], dtype=bool)
    >>> rows = merge_rows(X, np.array([1, 1, 0, 0], dtype=bool))
    >>> rows.weights.tolist(), rows.labels.tolist(), rows.unavoidable
    ([1, 1], [False, True], 1)
    """
    rows, counts = distinct_rows(X, np.asarray(y, dtype=np.int64), 2, weights)
    return weigh(rows, counts[:, 1], counts[:, 0])
