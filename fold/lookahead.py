"""Two-literal lookahead for when no single literal tells the classes apart.

The greedy search of :func:`fold.search.best_literal` adds one literal at a time.
When the label depends on two features together and on neither alone (``(a > 0) xor
(b > 0)``), every single literal's information gain is noise: the search starts a rule
with a random literal, and the description length then prunes the rule away, so the
class gets no rule at all. Top-down rule learners meet this with a lookahead. Here,
when the best literal to start a rule with is not significant, the conjunctions of two
literals are scored too, on a grid (the quantiles of each numeric column's values on the
rows searched, each categorical column's most frequent values), all at once by two
matrix products. The best pair starts the rule when it is significant and gains more
than the greedy search's first two literals; the search then goes on from it, and
:func:`fold.pruning.refine_thresholds` later moves its thresholds off the grid.

Significance is the G-test of a split against the labels (``2 N ln 2`` times the gain
in bits per row is chi-squared with one degree of freedom when the split and the labels
are independent), Bonferroni-corrected for the number of literals or pairs scored.
A literal none of whose pairs could be significant and gain more than the best single
literal (the gain is convex in the counts, so a pair gains at most what the corners of
its literals' counts gain) is dropped before the products, which changes no result.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

from .search import EncodedTable, split_gain

__all__ = ["ALPHA", "MAX_CELLS", "MAX_KEYS", "MAX_WORK", "QUANTILES", "best_pair",
           "chance_probability", "needed_gain"]

#: Family-wise level of the significance tests.
ALPHA = 0.01
#: The lookahead's grid: per numeric column the ``k / QUANTILES``-quantiles of the
#: values searched (``k = 1 .. QUANTILES - 1``, the median among them), per categorical
#: column its ``QUANTILES`` most frequent values. A grid over the budgets below is made
#: coarser (``QUANTILES / 2``, then the median and the two most frequent values); when
#: even that is over them the lookahead is not tried.
QUANTILES = 8
#: Budgets of one lookahead: literals in the grid, grid cells (literals × rows, 4 bytes
#: each) and multiply-adds of the pair counts (literals² × rows).
MAX_KEYS, MAX_CELLS, MAX_WORK = 2048, 2**25, 2**33


def chance_probability(gain: float, n_rows: int, n_tests: int) -> float:
    """Bonferroni-corrected p-value of the best of ``n_tests`` splits of ``n_rows`` rows
    gaining ``gain`` bits per row (G-test, one degree of freedom), at most 1."""
    statistic = 2.0 * math.log(2.0) * n_rows * max(gain, 0.0)
    return min(1.0, n_tests * math.erfc(math.sqrt(statistic / 2.0)))


def needed_gain(n_rows: int, n_tests: int) -> float:
    """The gain (bits per row) at which :func:`chance_probability` is :data:`ALPHA`
    (infinite when no gain of at most one bit per row reaches it)."""
    statistic = NormalDist().inv_cdf(ALPHA / (2 * n_tests)) ** 2
    gain = statistic / (2.0 * math.log(2.0) * n_rows)
    return gain if gain <= 1.0 else math.inf


def _codes(table: EncodedTable, rows: np.ndarray) -> np.ndarray:
    """Every column's value codes on ``rows`` (−1: unknown), rows × columns."""
    slots = table.slots[rows]
    return np.where(slots == table.n_slots, -1, slots - table.offsets.astype(slots.dtype))


#: Relations of the grid's literals, by code.
_RELATIONS = ("<=", ">", "==", "!=")


def _grid(table: EncodedTable, codes: np.ndarray, quantiles: int = QUANTILES) -> np.ndarray:
    """Literals of the lookahead on the rows whose ``codes`` (:func:`_codes`) are given,
    as rows ``(column, relation code, value index)`` in column order: ``<=`` and ``>``
    on each numeric column's ``k / quantiles``-quantiles of the known values (never its
    largest, which splits nothing), ``==`` and ``!=`` on each categorical column's
    ``quantiles`` most frequent values."""
    n = len(codes)
    numeric = table.numeric_columns
    ordered = np.sort(codes[:, numeric], axis=0)  # unknown (-1) first
    known = (ordered >= 0).sum(axis=0)
    fraction = np.arange(1, quantiles)[:, None] / quantiles
    at = np.minimum((n - known) + np.floor(fraction * np.maximum(known - 1, 0)).astype(np.int64),
                    n - 1)
    cuts = np.take_along_axis(ordered, at, axis=0)
    keep = ((cuts >= 0) & (cuts < ordered[-1])
            & np.vstack([np.ones((1, cuts.shape[1]), dtype=bool), cuts[1:] != cuts[:-1]]))
    which, column = np.nonzero(keep.T)  # by column, then by value
    numeric_part = np.column_stack([np.flatnonzero(numeric)[which], np.zeros_like(which),
                                    cuts.T[which, column]])
    grid = np.concatenate([numeric_part, _frequent(table, codes, quantiles)]).astype(np.int64)
    second = grid.copy()
    second[:, 1] += 1  # ``>`` after ``<=``, ``!=`` after ``==``
    both = np.concatenate([grid, second])
    return both[np.lexsort((both[:, 2], both[:, 1], both[:, 0]))]


def _frequent(table: EncodedTable, codes: np.ndarray, count: int) -> np.ndarray:
    """``(column, 2, value index)`` of each categorical column's ``count`` most frequent
    values in ``codes`` (ties: the first value)."""
    columns = np.flatnonzero(~table.numeric_columns)
    if not len(columns):
        return np.zeros((0, 3), dtype=np.int64)
    sizes = np.array([len(table.columns[j].values) for j in columns], dtype=np.int64)
    start = np.cumsum(sizes) - sizes
    cells = codes[:, columns]
    known = cells >= 0
    counts = np.bincount((cells + start)[known], minlength=int(sizes.sum()))
    owner = np.repeat(np.arange(len(columns)), sizes)
    value = np.arange(len(counts)) - start[owner]
    order = np.lexsort((value, -counts, owner))
    rank = np.arange(len(order)) - start[owner[order]]
    chosen = order[(rank < count) & (counts[order] > 0)]
    chosen = chosen[np.lexsort((value[chosen], owner[chosen]))]
    return np.column_stack([columns[owner[chosen]], np.full(len(chosen), 2), value[chosen]])


def _key(literal: np.ndarray) -> tuple:
    return int(literal[0]), _RELATIONS[int(literal[1])], int(literal[2])


def _masks(table: EncodedTable, grid: np.ndarray, rows: np.ndarray,
           codes: np.ndarray) -> np.ndarray:
    """Float32 0/1 matrix: whether the ``grid`` literal ``i`` holds on ``rows[r]`` (whose
    :func:`_codes` are ``codes``)."""
    column, relation, index = grid.T
    cells = codes[:, column]
    known = cells >= 0
    holds = np.select([relation == 0, relation == 1, relation == 2],
                      [known & (cells <= index), cells > index, cells == index],
                      known & (cells != index))
    out = holds.T.astype(np.float32)
    # ``!=`` also holds on a classical negation of its value (Negated cells)
    negated = [i for i in np.flatnonzero(relation == 3)
               if len(table.columns[column[i]].neg_rows)]
    if negated:
        position = np.full(table.n_rows, -1)
        position[rows] = np.arange(len(rows))
        for i in negated:
            col = table.columns[column[i]]
            at = position[col.neg_rows[col.neg_codes == index[i]]]
            out[i, at[at >= 0]] = 1.0
    return out


def best_pair(table: EncodedTable, pos: np.ndarray, neg: np.ndarray, min_support: int = 1,
              beat: float = -math.inf) -> tuple[tuple, tuple, float] | None:
    """The conjunction of two grid literals with the highest information gain on ``pos``
    vs ``neg``, when it is significant and gains more than ``beat``: ``(first, second,
    gain)`` with literal keys ``(column, relation, index)``, the first the one that gains
    more alone; else None.

    A pair must meet :func:`fold.search.best_literal`'s conditions (cover at least
    ``min_support`` positives, rule out a negative, classify at least as many rows right
    as its complement), cover a larger share of the positives than of the negatives (it
    starts a rule for the positives) and have a chance probability under :data:`ALPHA`
    among all the pairs scored.
    """
    n_pos, n_neg = len(pos), len(neg)
    n_rows = n_pos + n_neg
    if n_pos == 0 or n_neg == 0:
        return None
    share = n_pos / n_rows
    entropy = -(share * math.log2(share) + (1 - share) * math.log2(1 - share))
    # no split gains more than the labels' entropy, and none is significant below
    # needed_gain(n_rows, 1): cheap exits before the grid
    if entropy <= beat or entropy < needed_gain(n_rows, 1):
        return None
    if 2 * len(table.columns) * n_rows > MAX_CELLS:
        return None  # about two literals per column in the coarsest grid: over budget
    codes_pos, codes_neg = _codes(table, pos), _codes(table, neg)
    codes = np.vstack([codes_pos, codes_neg])
    # Every grid has two literals on each categorical column with a known value and on
    # each numeric one with two: a floor on the pairs scored, and on the gain needed.
    known = codes >= 0
    lowest = np.where(known, codes, np.iinfo(codes.dtype).max).min(axis=0)
    varied = np.where(table.numeric_columns, lowest < codes.max(axis=0), known.any(axis=0))
    floor = 2 * int(np.count_nonzero(varied))
    if entropy < needed_gain(n_rows, max(floor * (floor - 1) // 2, 1)):
        return None
    for quantiles in (QUANTILES, QUANTILES // 2, 2):
        grid = _grid(table, codes, quantiles)
        if (len(grid) <= MAX_KEYS and len(grid) * n_rows <= MAX_CELLS
                and len(grid) ** 2 * n_rows <= MAX_WORK):
            break
    else:
        return None
    n_pairs = len(grid) * (len(grid) - 1) // 2
    needed = needed_gain(n_rows, max(n_pairs, 1))
    if n_pairs == 0 or entropy < needed:
        return None
    on_pos = _masks(table, grid, pos, codes_pos)
    on_neg = _masks(table, grid, neg, codes_neg)
    # A pair covers a subset of each literal's rows, and the gain is convex in the
    # counts, so it gains at most what the corners of that literal's counts gain.
    tp, fp = on_pos.sum(axis=1).astype(np.intp), on_neg.sum(axis=1).astype(np.intp)
    zero = np.zeros_like(tp)
    bound = np.maximum.reduce([split_gain(tp, fp, n_pos, n_neg, table.xlog2x),
                               split_gain(tp, zero, n_pos, n_neg, table.xlog2x),
                               split_gain(zero, fp, n_pos, n_neg, table.xlog2x)])
    useful = (tp >= max(1, min_support)) & (bound >= needed) & (bound > beat)
    if useful.sum() < 2:
        return None
    grid, on_pos, on_neg = grid[useful], on_pos[useful], on_neg[useful]
    # counts are sums of 0/1 products, exact in float32 below 2**24 rows; float64 for
    # the products below
    tp = (on_pos @ on_pos.T).astype(np.float64)
    fp = (on_neg @ on_neg.T).astype(np.float64)
    valid = ((tp >= max(1, min_support)) & (fp < n_neg) & (2 * (tp - fp) >= n_pos - n_neg)
             & (tp * n_neg > fp * n_pos) & ~np.tri(len(grid), dtype=bool))  # i < j
    pairs = np.flatnonzero(valid)
    if not len(pairs):
        return None
    gain = split_gain(np.rint(tp.ravel()[pairs]).astype(np.intp),
                      np.rint(fp.ravel()[pairs]).astype(np.intp), n_pos, n_neg, table.xlog2x)
    best = int(np.argmax(gain))
    if gain[best] < needed or gain[best] <= beat:
        return None
    i, j = divmod(int(pairs[best]), len(grid))
    alone = split_gain(np.rint([tp[i, i], tp[j, j]]).astype(np.intp),
                       np.rint([fp[i, i], fp[j, j]]).astype(np.intp), n_pos, n_neg,
                       table.xlog2x)
    if alone[0] < alone[1]:
        i, j = j, i
    return _key(grid[i]), _key(grid[j]), float(gain[best])
