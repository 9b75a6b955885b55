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
from typing import NamedTuple

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


#: Relations of the grid's literals: the first (``<=`` or ``==``) and the second.
_RELATIONS = (("==", "!="), ("<=", ">"))


class _Grid(NamedTuple):
    """The lookahead's literals, in column, relation, value order: ``slot`` (the
    :class:`~fold.search.EncodedTable` slot of the value) and ``second`` (``>``/``!=``
    rather than ``<=``/``==``)."""

    slot: np.ndarray
    second: np.ndarray

    def __len__(self) -> int:
        return len(self.slot)

    def take(self, which) -> _Grid:
        return _Grid(self.slot[which], self.second[which])

    def key(self, table: EncodedTable, i: int) -> tuple:
        """The literal key ``(column, relation, index)`` of literal ``i``."""
        slot = int(self.slot[i])
        column = int(table.slot_column[slot])
        relation = _RELATIONS[bool(table.numeric_columns[column])][bool(self.second[i])]
        return column, relation, slot - int(table.offsets[column])


class _Cells(NamedTuple):
    """The searched rows' slots, prepared for :func:`_grid`: each numeric column's
    slots sorted (unknown, slot ``n_slots``, last), how many are known, the largest
    known one; the categorical columns' slots."""

    ordered: np.ndarray
    known: np.ndarray
    top: np.ndarray
    categorical: np.ndarray

    @classmethod
    def of(cls, table: EncodedTable, cells: np.ndarray) -> _Cells:
        numeric = table.numeric_columns
        ordered = np.sort(cells[:, numeric], axis=0)
        known = (ordered < table.n_slots).sum(axis=0)
        top = ordered[np.maximum(known - 1, 0), np.arange(ordered.shape[1])]
        return cls(ordered, known, top, cells[:, ~numeric])

    def varied(self, table: EncodedTable) -> int:
        """Numeric columns with two known values plus categorical ones with one."""
        return (int(np.count_nonzero(self.ordered[0] < self.top))
                + int(np.count_nonzero(self.categorical.min(axis=0, initial=table.n_slots)
                                       < table.n_slots)))


def _grid(table: EncodedTable, cells: _Cells, quantiles: int = QUANTILES) -> _Grid:
    """Literals of the lookahead on the rows whose slots ``cells`` holds: ``<=`` and
    ``>`` on each numeric column's ``k / quantiles``-quantiles of the known values
    (never its largest, which splits nothing), ``==`` and ``!=`` on each categorical
    column's ``quantiles`` most frequent values."""
    fraction = np.arange(1, quantiles)[:, None] / quantiles
    at = np.floor(fraction * np.maximum(cells.known - 1, 0)).astype(np.intp)
    cuts = cells.ordered[at, np.arange(at.shape[1])]
    keep = cuts < cells.top
    keep[1:] &= cuts[1:] != cuts[:-1]
    first = np.sort(np.concatenate([cuts[keep], _frequent(table, cells.categorical,
                                                           quantiles)]))
    slot = np.concatenate([first, first])
    second = np.arange(2 * len(first)) >= len(first)
    # column, then relation, then value: a slot's column grows with the slot, so a stable
    # sort by column and relation keeps the values in order
    order = np.argsort(2 * table.slot_column[slot] + second, kind="stable")
    return _Grid(slot[order], second[order])


def _frequent(table: EncodedTable, cells: np.ndarray, count: int) -> np.ndarray:
    """The slots of each categorical column's ``count`` most frequent values in
    ``cells`` (ties: the first value)."""
    slots = table.categorical_slots
    if not len(slots):
        return slots
    counts = np.bincount(cells.ravel(), minlength=table.n_slots + 1)[slots]
    owner = table.slot_column[slots]
    order = np.lexsort((slots, -counts, owner))
    ranked = owner[order]
    rank = np.arange(len(order)) - np.searchsorted(ranked, ranked)
    return slots[order[(rank < count) & (counts[order] > 0)]]


def _masks(table: EncodedTable, grid: _Grid, rows: np.ndarray,
           cells: np.ndarray) -> np.ndarray:
    """Float32 0/1 matrix: whether the ``grid`` literal ``i`` holds on ``rows[r]``
    (whose slots are ``cells``)."""
    column = table.slot_column[grid.slot]
    numeric = table.numeric_columns[column]
    held = cells.T[column]
    # ``<=`` holds on the column's slots up to the value's, ``==`` on the value's only
    low = np.where(numeric, table.offsets[column], grid.slot).astype(cells.dtype)[:, None]
    holds = (held >= low) & (held <= grid.slot.astype(cells.dtype)[:, None])
    holds ^= grid.second[:, None]  # ``>``, ``!=``: the other known values
    holds &= held < table.n_slots
    out = holds.astype(np.float32)
    if len(table.neg_rows):
        # ``!=`` also holds on a classical negation of its value (Negated cells)
        literal = np.full(table.n_slots, -1)
        negatable = grid.second & ~numeric
        literal[grid.slot[negatable]] = np.flatnonzero(negatable)
        position = np.full(table.n_rows, -1)
        position[rows] = np.arange(len(rows))
        which = literal[table.neg_slots]
        at = position[table.neg_rows]
        hit = (which >= 0) & (at >= 0)
        out[which[hit], at[hit]] = 1.0
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
    rows = np.concatenate([pos, neg])
    cells = table.slots[rows]
    prepared = _Cells.of(table, cells)
    # Every grid has two literals on each categorical column with a known value and on
    # each numeric one with two: a floor on the pairs scored, and on the gain needed.
    floor = 2 * prepared.varied(table)
    if entropy < needed_gain(n_rows, max(floor * (floor - 1) // 2, 1)):
        return None
    for quantiles in (QUANTILES, QUANTILES // 2, 2):
        grid = _grid(table, prepared, quantiles)
        if (len(grid) <= MAX_KEYS and len(grid) * n_rows <= MAX_CELLS
                and len(grid) ** 2 * n_rows <= MAX_WORK):
            break
    else:
        return None
    n_pairs = len(grid) * (len(grid) - 1) // 2
    needed = needed_gain(n_rows, max(n_pairs, 1))
    if n_pairs == 0 or entropy < needed:
        return None
    holds = _masks(table, grid, rows, cells)
    # A pair covers a subset of each literal's rows, and the gain is convex in the
    # counts, so it gains at most what the corners of that literal's counts gain.
    tp = holds[:, :n_pos].sum(axis=1).astype(np.intp)
    fp = holds[:, n_pos:].sum(axis=1).astype(np.intp)
    zero = np.zeros_like(tp)
    bound = split_gain(np.concatenate([tp, tp, zero]), np.concatenate([fp, zero, fp]),
                       n_pos, n_neg, table.xlog2x).reshape(3, -1).max(axis=0)
    useful = (tp >= max(1, min_support)) & (bound >= needed) & (bound > beat)
    if useful.sum() < 2:
        return None
    grid, holds = grid.take(useful), holds[useful]
    on_pos, on_neg = holds[:, :n_pos], holds[:, n_pos:]
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
    return grid.key(table, i), grid.key(table, j), float(gain[best])
