"""Literal search: the best literal by information gain, from prefix counts.

The training table is encoded once (:class:`EncodedTable`): every numeric
column as the rank of its value among the column's sorted distinct values,
every categorical column as category codes (−1 for unknown in both). For a
set of positive and negative rows, the counts of covered positives and
negatives of *every* candidate literal of a column come from one
``bincount`` over those rows' ranks and a cumulative sum — no sorting and no
per-threshold pass (the FOLD-R++ idea), so one search costs
O(rows + distinct values) per column.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .table import CATEGORICAL, NUMERIC, ColumnView, Schema

__all__ = ["EncodedColumn", "EncodedTable", "Candidate", "best_literal"]


@dataclass(frozen=True)
class EncodedColumn:
    """One column encoded for the search.

    Attributes
    ----------
    name, kind : str
    codes : ndarray of int64
        Rank (numeric) or category code (categorical); −1 when unknown.
    values : ndarray
        Sorted distinct thresholds (float64) or categories (object, str).
    neg_rows, neg_codes : ndarray of int64
        Classical negations ``-name(row, values[code])`` (categorical only).
    """

    name: str
    kind: str
    codes: np.ndarray
    values: np.ndarray
    neg_rows: np.ndarray
    neg_codes: np.ndarray


class Candidate(NamedTuple):
    """A literal found by the search: column, relation, value index, gain."""

    column: int
    relation: str
    index: int
    gain: float


def _encode_numeric(name: str, values: np.ndarray) -> EncodedColumn:
    known = ~np.isnan(values)
    uniques = np.unique(values[known])
    codes = np.full(len(values), -1, dtype=np.int64)
    codes[known] = np.searchsorted(uniques, values[known])
    empty = np.zeros(0, dtype=np.int64)
    return EncodedColumn(name, NUMERIC, codes, uniques, empty, empty)


def _encode_categorical(name: str, view: ColumnView) -> EncodedColumn:
    cells = view.categorical(name)
    known_rows = np.flatnonzero(cells.known != None)  # noqa: E711
    known_values = cells.known[known_rows].astype(str)
    categories = sorted(set(known_values.tolist()) | set(cells.negated))
    categories = np.array(categories, dtype=object)
    codes = np.full(view.n_rows, -1, dtype=np.int64)
    if len(known_rows):
        codes[known_rows] = np.searchsorted(categories.astype(str), known_values)
    neg_rows, neg_codes = [], []
    for value in sorted(cells.negated):
        rows = np.flatnonzero(cells.negated[value])
        neg_rows.append(rows)
        neg_codes.append(np.full(len(rows), categories.tolist().index(value)))
    cat = (lambda parts: np.concatenate(parts).astype(np.int64) if parts else
           np.zeros(0, dtype=np.int64))
    return EncodedColumn(name, CATEGORICAL, codes, categories, cat(neg_rows), cat(neg_codes))


class EncodedTable:
    """A training table encoded for literal search, with cached literal masks.

    Parameters
    ----------
    view : ColumnView
    schema : Schema
    """

    def __init__(self, view: ColumnView, schema: Schema) -> None:
        self.n_rows = view.n_rows
        self.columns: list[EncodedColumn] = []
        for name, kind in zip(schema.names, schema.kinds):
            if kind == NUMERIC:
                self.columns.append(_encode_numeric(name, view.numeric(name)))
            else:
                self.columns.append(_encode_categorical(name, view))
        self._masks: dict[tuple, np.ndarray] = {}

    def mask(self, column: int, relation: str, index: int) -> np.ndarray:
        """Boolean mask over all rows of the literal ``(column, relation, index)``."""
        key = (column, relation, index)
        mask = self._masks.get(key)
        if mask is None:
            codes = self.columns[column].codes
            if relation == "<=":
                mask = (codes >= 0) & (codes <= index)
            elif relation == ">":
                mask = codes > index
            elif relation == "==":
                mask = codes == index
            else:
                col = self.columns[column]
                mask = (codes >= 0) & (codes != index)
                mask[col.neg_rows[col.neg_codes == index]] = True
            self._masks[key] = mask
        return mask

    def literal_value(self, column: int, index: int) -> float | str:
        """The threshold or category of a value index."""
        value = self.columns[column].values[index]
        return float(value) if self.columns[column].kind == NUMERIC else str(value)


def _plogp(part: np.ndarray, total: np.ndarray) -> np.ndarray:
    """``part * log2(part / total)``, 0 where ``part`` is 0."""
    safe_part = np.where(part > 0, part, 1.0)
    safe_total = np.where(total > 0, total, 1.0)
    return np.where(part > 0, part * np.log2(safe_part / safe_total), 0.0)


def split_gain(tp, fp, n_pos: int, n_neg: int) -> np.ndarray:
    """Information gain (bits per row) of splitting the rows by a literal.

    ``tp``/``fp``: positives/negatives the literal covers, out of ``n_pos``
    and ``n_neg``. The gain is the entropy before minus the weighted entropy
    of the covered and uncovered parts (FOLD-R++'s score, shifted by the
    constant entropy before, so that 0 means "no information").
    """
    tp = np.asarray(tp, dtype=np.float64)
    fp = np.asarray(fp, dtype=np.float64)
    fn = n_pos - tp
    tn = n_neg - fp
    total = float(n_pos + n_neg)
    after = (_plogp(tp, tp + fp) + _plogp(fp, tp + fp)
             + _plogp(tn, tn + fn) + _plogp(fn, tn + fn)) / total
    before = (_plogp(np.float64(n_pos), np.float64(total))
              + _plogp(np.float64(n_neg), np.float64(total))) / total
    return after - before


def _column_counts(col: EncodedColumn, pos: np.ndarray, neg: np.ndarray,
                   in_pos: np.ndarray | None, in_neg: np.ndarray | None):
    size = len(col.values) + 1
    cp = np.bincount(col.codes[pos] + 1, minlength=size)[1:]
    cn = np.bincount(col.codes[neg] + 1, minlength=size)[1:]
    if col.kind == NUMERIC:
        le_p, le_n = np.cumsum(cp), np.cumsum(cn)
        gt_p, gt_n = le_p[-1] - le_p, le_n[-1] - le_n
        return (("<=", le_p, le_n), (">", gt_p[:-1], gt_n[:-1]))
    ne_p, ne_n = cp.sum() - cp, cn.sum() - cn
    if len(col.neg_rows):
        hit_p = in_pos[col.neg_rows]
        hit_n = in_neg[col.neg_rows]
        ne_p = ne_p + np.bincount(col.neg_codes[hit_p], minlength=size - 1)
        ne_n = ne_n + np.bincount(col.neg_codes[hit_n], minlength=size - 1)
    return (("==", cp, cn), ("!=", ne_p, ne_n))


def best_literal(table: EncodedTable, pos: np.ndarray, neg: np.ndarray,
                 excluded: frozenset, min_gain: float,
                 min_support: int = 1) -> Candidate | None:
    """The literal with the highest information gain on ``pos`` vs ``neg``.

    A candidate must cover at least ``min_support`` positives, rule out at
    least one negative, classify at least as many rows right as its complement would
    (FOLD-R++'s ``tp + tn >= fp + fn``) and gain more than ``min_gain`` bits.
    Ties go to the first column, then relation, then value in sorted order,
    so the search is deterministic.

    Parameters
    ----------
    table : EncodedTable
    pos, neg : ndarray of int64
        Row indices of the positive and negative examples.
    excluded : frozenset of (column, relation, index)
        Literals that may not be chosen (already in the rule).
    min_gain : float
    min_support : int

    Returns
    -------
    Candidate or None
        None when no literal qualifies.
    """
    n_pos, n_neg = len(pos), len(neg)
    if n_pos == 0 or n_neg == 0:
        return None
    in_pos = in_neg = None
    best: Candidate | None = None
    for j, col in enumerate(table.columns):
        if len(col.values) == 0:
            continue
        if col.kind == CATEGORICAL and len(col.neg_rows) and in_pos is None:
            in_pos = np.zeros(table.n_rows, dtype=bool)
            in_pos[pos] = True
            in_neg = np.zeros(table.n_rows, dtype=bool)
            in_neg[neg] = True
        for relation, tp, fp in _column_counts(col, pos, neg, in_pos, in_neg):
            if len(tp) == 0:
                continue
            gain = split_gain(tp, fp, n_pos, n_neg)
            valid = ((tp >= max(1, min_support)) & (fp < n_neg) & (tp + (n_neg - fp) >= fp + (n_pos - tp))
                     & (gain > min_gain))
            for (jj, rel, k) in excluded:
                if jj == j and rel == relation and k < len(valid):
                    valid[k] = False
            if not valid.any():
                continue
            scores = np.where(valid, gain, -np.inf)
            k = int(np.argmax(scores))
            if best is None or scores[k] > best.gain:
                best = Candidate(j, relation, k, float(scores[k]))
    return best
