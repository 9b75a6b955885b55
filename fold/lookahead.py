"""Two-literal lookahead for when no single literal tells the classes apart.

The greedy search of :func:`fold.search.best_literal` adds one literal at a time.
When the label depends on two features together and on neither alone (``(a > 0) xor
(b > 0)``), every single literal's information gain is noise: the search starts a rule
with a random literal, and the description length then prunes the rule away, so the
class gets no rule at all. Quinlan's FOIL meets the same problem with lookahead. Here,
when the best literal to start a rule with is not significant, the conjunctions of two
literals are scored too, on a grid (the quantiles of each numeric column's values on the
rows searched, each categorical column's most frequent values), all at once by two
matrix products. The best pair starts the rule when it is significant and gains more
than the greedy search's first two literals; the search then goes on from it, and
:func:`fold.pruning.refine_thresholds` later moves its thresholds off the grid.

Significance is the G-test of a split against the labels (``2 N ln 2`` times the gain
in bits per row is chi-squared with one degree of freedom when the split and the labels
are independent), Bonferroni-corrected for the number of literals or pairs scored.
A literal whose best pair could not reach significance (the gain is convex in the
counts, so a pair gains at most what the corners of its literals' counts gain) is
dropped before the products, which changes no result.
"""

from __future__ import annotations

import math

import numpy as np

from .search import EncodedTable, split_gain
from .table import NUMERIC

__all__ = ["ALPHA", "QUANTILES", "best_pair", "chance_probability", "needed_gain"]

#: Family-wise level of the significance tests.
ALPHA = 0.01
#: The lookahead's grid: per numeric column the ``k / QUANTILES``-quantiles of the
#: values searched (``k = 1 .. QUANTILES - 1``, the median among them), per categorical
#: column its ``QUANTILES`` most frequent values.
QUANTILES = 8


def chance_probability(gain: float, n_rows: int, n_tests: int) -> float:
    """Bonferroni-corrected p-value of the best of ``n_tests`` splits of ``n_rows`` rows
    gaining ``gain`` bits per row (G-test, one degree of freedom), at most 1."""
    statistic = 2.0 * math.log(2.0) * n_rows * max(gain, 0.0)
    return min(1.0, n_tests * math.erfc(math.sqrt(statistic / 2.0)))


def needed_gain(n_rows: int, n_tests: int) -> float:
    """The smallest gain (bits per row) whose :func:`chance_probability` is under
    :data:`ALPHA` (bisection; above 1 when none is)."""
    if chance_probability(1.0, n_rows, n_tests) >= ALPHA:
        return math.inf
    low, high = 0.0, 1.0
    for _ in range(50):
        middle = (low + high) / 2
        if chance_probability(middle, n_rows, n_tests) < ALPHA:
            high = middle
        else:
            low = middle
    return high


def _codes(table: EncodedTable, rows: np.ndarray) -> np.ndarray:
    """Every column's value codes on ``rows`` (−1: unknown), rows × columns."""
    slots = table.slots[rows].astype(np.int64)
    return np.where(slots == table.n_slots, -1, slots - table.offsets)


def _grid(table: EncodedTable, codes: np.ndarray, excluded: frozenset) -> list[tuple]:
    """Literal keys of the lookahead on the rows whose ``codes`` (:func:`_codes`) are
    given: ``<=`` and ``>`` on each numeric column's ``k / QUANTILES``-quantiles of the
    known values (never its largest, which splits nothing), ``==`` and ``!=`` on each
    categorical column's ``QUANTILES`` most frequent values."""
    n = len(codes)
    numeric = np.array([col.kind == NUMERIC for col in table.columns], dtype=bool)
    ordered = np.sort(codes[:, numeric], axis=0)  # unknown (-1) first
    known = (ordered >= 0).sum(axis=0)
    fraction = np.arange(1, QUANTILES)[:, None] / QUANTILES
    at = np.minimum((n - known) + np.floor(fraction * np.maximum(known - 1, 0)).astype(np.int64),
                    n - 1)
    quantiles = np.take_along_axis(ordered, at, axis=0)
    keep = ((quantiles >= 0) & (quantiles < ordered[-1])
            & np.vstack([np.ones((1, quantiles.shape[1]), dtype=bool),
                         quantiles[1:] != quantiles[:-1]]))
    values = {}
    for j, column in enumerate(np.flatnonzero(numeric)):
        values[int(column)] = (quantiles[keep[:, j], j], ("<=", ">"))
    for column in np.flatnonzero(~numeric):
        column_codes = codes[:, column]
        counts = np.bincount(column_codes[column_codes >= 0],
                             minlength=len(table.columns[column].values))
        top = np.argsort(-counts, kind="stable")[:QUANTILES]
        values[int(column)] = (np.sort(top[counts[top] > 0]), ("==", "!="))
    keys = []
    for column in sorted(values):
        held, relations = values[column]
        keys += [(column, relation, int(v)) for relation in relations for v in held
                 if (column, relation, int(v)) not in excluded]
    return keys


def _masks(table: EncodedTable, keys: list[tuple], rows: np.ndarray,
           codes: np.ndarray) -> np.ndarray:
    """Float32 0/1 matrix: whether literal ``keys[i]`` holds on ``rows[r]`` (whose
    :func:`_codes` are ``codes``)."""
    column = np.array([key[0] for key in keys], dtype=np.int64)
    relation = np.array([key[1] for key in keys], dtype=object)
    index = np.array([key[2] for key in keys], dtype=np.int64)
    cells = codes[:, column]
    out = np.where(relation == "<=", (cells >= 0) & (cells <= index),
                   (cells > index) & (relation == ">")).T.astype(np.float32)
    for i in np.flatnonzero((relation == "==") | (relation == "!=")):
        # categorical: the table's mask knows the classical negations
        out[i] = table.mask(*keys[i])[rows]
    return out


def best_pair(table: EncodedTable, pos: np.ndarray, neg: np.ndarray, excluded: frozenset,
              min_support: int = 1) -> tuple[tuple, tuple, float] | None:
    """The conjunction of two grid literals with the highest information gain on ``pos``
    vs ``neg``, when it is significant: ``(first, second, gain)`` with literal keys
    ``(column, relation, index)``, the first the one that gains more alone; else None.

    A pair must meet :func:`fold.search.best_literal`'s conditions (cover at least
    ``min_support`` positives, rule out a negative, classify at least as many rows right
    as its complement), cover a larger share of the positives than of the negatives (it
    starts a rule for the positives) and have a chance probability under :data:`ALPHA`
    among all the pairs scored.
    """
    n_pos, n_neg = len(pos), len(neg)
    if n_pos == 0 or n_neg == 0:
        return None
    codes_pos, codes_neg = _codes(table, pos), _codes(table, neg)
    keys = _grid(table, np.vstack([codes_pos, codes_neg]), excluded)
    n_pairs = len(keys) * (len(keys) - 1) // 2
    needed = needed_gain(n_pos + n_neg, max(n_pairs, 1))
    p = n_pos / (n_pos + n_neg)
    if n_pairs == 0 or -(p * math.log2(p) + (1 - p) * math.log2(1 - p)) < needed:
        return None  # no split gains more than the labels' entropy
    on_pos = _masks(table, keys, pos, codes_pos)
    on_neg = _masks(table, keys, neg, codes_neg)
    # A pair covers a subset of each literal's rows, and the gain is convex in the
    # counts, so it gains at most what the corners of that literal's counts gain.
    tp, fp = on_pos.sum(axis=1).astype(np.intp), on_neg.sum(axis=1).astype(np.intp)
    zero = np.zeros_like(tp)
    bound = np.maximum.reduce([split_gain(tp, fp, n_pos, n_neg, table.xlog2x),
                               split_gain(tp, zero, n_pos, n_neg, table.xlog2x),
                               split_gain(zero, fp, n_pos, n_neg, table.xlog2x)])
    useful = (tp >= max(1, min_support)) & (bound >= needed)
    if useful.sum() < 2:
        return None
    keys = [key for key, keep in zip(keys, useful) if keep]
    on_pos, on_neg = on_pos[useful], on_neg[useful]
    # counts are sums of 0/1 products: exact in float32 below 2**24 rows
    tp, fp = on_pos @ on_pos.T, on_neg @ on_neg.T
    first, second = np.triu_indices(len(keys), 1)
    tp_pair, fp_pair = tp[first, second], fp[first, second]
    valid = np.flatnonzero((tp_pair >= max(1, min_support)) & (fp_pair < n_neg)
                           & (2 * (tp_pair - fp_pair) >= n_pos - n_neg)
                           & (tp_pair * n_neg > fp_pair * n_pos))
    if not len(valid):
        return None
    gain = split_gain(np.rint(tp_pair[valid]).astype(np.intp),
                      np.rint(fp_pair[valid]).astype(np.intp), n_pos, n_neg, table.xlog2x)
    best = int(np.argmax(gain))
    if gain[best] < needed:
        return None
    i, j = int(first[valid[best]]), int(second[valid[best]])
    alone = split_gain(np.rint([tp[i, i], tp[j, j]]).astype(np.intp),
                       np.rint([fp[i, i], fp[j, j]]).astype(np.intp), n_pos, n_neg,
                       table.xlog2x)
    if alone[0] < alone[1]:
        i, j = j, i
    return keys[i], keys[j], float(gain[best])
