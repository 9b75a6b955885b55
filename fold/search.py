"""Literal search: the best literal by information gain, from prefix counts.

The training table is encoded once (:class:`EncodedTable`): every numeric
column as the rank of its value among the column's sorted distinct values,
every categorical column as category codes (−1 for unknown in both). Each
(column, value) pair is a *slot* of one flat layout. For the positive and
the negative rows together, the counts of covered rows of *every* candidate
literal of *every* column come from one ``bincount`` over the rows' slots
and one cumulative sum — no sorting, no per-column and no per-threshold pass
(the FOLD-R++ idea, vectorised over the whole table), so one search costs
O(rows × columns + distinct values). The information gain of all candidates
is then a few lookups in a table of ``k log2 k``.

Numeric literals are written with the threshold near the middle of the gap
between the two training values they separate, as a short decimal
(:meth:`EncodedTable.literal_value`).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate
from typing import NamedTuple

import numpy as np

from .table import CATEGORICAL, NUMERIC, ColumnView, Schema

__all__ = ["EncodedColumn", "EncodedTable", "Candidate", "best_literal", "short_between",
           "split_gain"]


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
    # + 0.0 makes -0.0 plain 0.0: np.unique kept whichever zero came first, and the
    # program's text changed with the rows' order
    uniques = np.unique(values[known] + 0.0)
    codes = np.full(len(values), -1, dtype=np.int64)
    codes[known] = np.searchsorted(uniques, values[known])
    empty = np.zeros(0, dtype=np.int64)
    return EncodedColumn(name, NUMERIC, codes, uniques, empty, empty)


def _encode_categorical(name: str, view: ColumnView) -> EncodedColumn:
    cells = view.categorical(name)
    # Told apart by hashing the Python strings: a numpy '<U' array would drop trailing
    # NULs and take 'a\x00' for 'a'.
    found, seen = cells.factorized()
    categories = sorted(set(seen.tolist()) | set(cells.negated))
    code_of = {value: k for k, value in enumerate(categories)}
    categories = np.array(categories, dtype=object)
    sorted_codes = np.array([code_of[v] for v in seen.tolist()] + [-1], dtype=np.int64)
    codes = sorted_codes[found]  # -1 (unknown) takes the last
    neg_rows, neg_codes = [], []
    for value in sorted(cells.negated):
        rows = np.flatnonzero(cells.negated[value])
        neg_rows.append(rows)
        neg_codes.append(np.full(len(rows), code_of[value]))
    cat = (lambda parts: np.concatenate(parts).astype(np.int64) if parts else
           np.zeros(0, dtype=np.int64))
    return EncodedColumn(name, CATEGORICAL, codes, categories, cat(neg_rows), cat(neg_codes))


class EncodedTable:
    """A training table encoded for literal search, with cached literal masks.

    Besides the columns, the table keeps one *slot* per (column, value): the
    slots of column ``j`` are ``offsets[j] .. offsets[j] + len(values) - 1``
    and an unknown cell goes to the spare slot ``n_slots``. One ``bincount`` and a
    few vector operations count every literal at once, in slot order (the first
    relation, ``<=`` or ``==``, on every slot, then the second, ``>`` or ``!=``).
    Ties between equal gains go by the *candidate order*: column by column and,
    within a column, the first relation on every value and then the second.

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
        self._layout()
        #: ``k * log2(k)`` for every count ``k`` of rows (the gain's terms)
        self.xlog2x = _xlog2x(np.arange(self.n_rows + 1, dtype=np.float64))

    def _layout(self) -> None:
        sizes = np.array([len(col.values) for col in self.columns], dtype=np.int64)
        self.offsets = np.cumsum(sizes) - sizes
        self.n_slots = int(sizes.sum())
        # int32 halves the memory of this copy of the codes (two groups' bins must fit)
        dtype = np.int32 if 2 * (self.n_slots + 1) < 2**31 else np.int64
        slots = np.full((self.n_rows, len(self.columns)), self.n_slots, dtype=dtype)
        for j, col in enumerate(self.columns):
            known = col.codes >= 0
            slots[known, j] = self.offsets[j] + col.codes[known]
        self.slots = slots
        column_of_slot = np.repeat(np.arange(len(self.columns)), sizes)
        numeric = np.array([col.kind == NUMERIC for col in self.columns], dtype=bool)
        #: whether each column is numeric
        self.numeric_columns = numeric
        #: the column of each slot
        self.slot_column = column_of_slot
        #: the slots of the categorical columns, in order
        self.categorical_slots = np.flatnonzero(~numeric[column_of_slot])
        self._numeric_slot = numeric[column_of_slot]
        # prefix-sum bookkeeping: slot -> first and last slot of its column
        self._first_slot = np.repeat(self.offsets, sizes)
        self._last_slot = np.repeat(self.offsets + sizes - 1, sizes)
        self._numeric_first_slots = self.offsets[numeric & (sizes > 0)]
        # the columns that have values: their first slot and their number of slots
        self._column_start = self.offsets[sizes > 0]
        self._column_size = sizes[sizes > 0]
        self._column_end = self._column_start + self._column_size - 1
        self._categorical_slot = ~self._numeric_slot
        neg_rows = [col.neg_rows for col in self.columns]
        neg_slots = [self.offsets[j] + col.neg_codes for j, col in enumerate(self.columns)]
        #: the classical negations ``-name(row, value)``: their rows and the slots of
        #: their values
        self.neg_rows = np.concatenate(neg_rows) if neg_rows else np.zeros(0, np.int64)
        self.neg_slots = (np.concatenate(neg_slots).astype(np.intp) if neg_slots
                          else np.zeros(0, np.intp))
        # candidate order: per column, first relation on every value, then the second
        slot = np.arange(self.n_slots)
        second = np.zeros(self.n_slots, dtype=bool)
        local = slot - self._first_slot
        order_slot = np.concatenate([slot, slot])
        order_second = np.concatenate([second, ~second])
        order_column = np.concatenate([column_of_slot, column_of_slot])
        order_local = np.concatenate([local, local])
        order = np.lexsort((order_local, order_second, order_column))
        self._cand_index = order_slot[order] + np.where(order_second[order], self.n_slots, 0)
        self._cand_column = order_column[order]
        self._cand_second = order_second[order]
        self._cand_value = order_local[order]
        position = np.empty(2 * self.n_slots, dtype=np.int64)
        position[self._cand_index] = np.arange(2 * self.n_slots)
        self._cand_position = position

    def layout_index(self, column: int, relation: str, index: int) -> int:
        """Where the literal ``(column, relation, index)`` is in :meth:`counts`' layout:
        its slot, plus ``n_slots`` for the second relation (``>``, ``!=``)."""
        second = relation in (">", "!=")
        return int(self.offsets[column]) + index + (self.n_slots if second else 0)

    def candidate_position(self, column: int, relation: str, index: int) -> int:
        """Where the literal ``(column, relation, index)`` is in the candidate order."""
        return int(self._cand_position[self.layout_index(column, relation, index)])

    def first_candidate(self, chosen: np.ndarray) -> int:
        """The candidate position that comes first of the literals ``chosen`` (a mask in
        :meth:`counts`' layout)."""
        return int(self._cand_position[chosen].min())

    def candidate(self, position: int) -> tuple:
        """The literal key ``(column, relation, index)`` at a candidate position."""
        j = int(self._cand_column[position])
        first, second = ("<=", ">") if self.columns[j].kind == NUMERIC else ("==", "!=")
        return (j, second if self._cand_second[position] else first,
                int(self._cand_value[position]))

    def counts(self, *groups: np.ndarray) -> np.ndarray:
        """Rows of each group covered by each literal, in slot order: the first relation
        (``<=``, ``==``) on every slot, then the second (``>``, ``!=``); literal
        ``key``'s count is at :meth:`layout_index` ``(*key)``.

        Parameters
        ----------
        *groups : ndarray of int64
            Row indices, one array per group (positives, negatives, ...).

        Returns
        -------
        ndarray of int64, shape (len(groups), 2 * n_slots)
        """
        n, width = self.n_slots, self.n_slots + 1
        # group g's slot s is bin g * width + s; bin n of each group collects unknown cells
        codes = self.slots.take(np.concatenate(groups), axis=0)
        ends = list(accumulate(map(len, groups)))  # a list: numpy's cumsum costs more here
        for g in range(1, len(groups)):
            codes[ends[g - 1]:ends[g]] += g * width
        per_slot = (np.bincount(codes.ravel(), minlength=len(groups) * width)
                    .reshape(-1, width)[:, :n])
        running = per_slot.cumsum(axis=1)
        # per column: the rows before its first slot, and its known rows
        start, size = self._column_start, self._column_size
        before = running.take(start, axis=1) - per_slot.take(start, axis=1)
        known = running.take(self._column_end, axis=1) - before
        out = np.empty((len(groups), 2 * n), dtype=np.int64)
        first, second = out[:, :n], out[:, n:]
        np.subtract(running, before.repeat(size, axis=1), out=first)  # <= value
        np.copyto(first, per_slot, where=self._categorical_slot)       # == value
        np.subtract(known.repeat(size, axis=1), first, out=second)     # > / != value
        if len(self.neg_rows):
            for g, rows in enumerate(groups):
                member = np.zeros(self.n_rows, dtype=bool)
                member[rows] = True
                hit = member[self.neg_rows]
                second[g] += np.bincount(self.neg_slots[hit], minlength=n)
        return out

    def sparse_pays(self, n_rows: int) -> bool:
        """Whether :meth:`counts_at` on a few candidates beats :meth:`counts` on all of
        them for groups of ``n_rows`` rows: when the table has many more values than the
        groups hold (small exception groups of a large numeric table)."""
        n_categorical = len(self.categorical_slots)
        return 8 * (n_rows * len(self.columns) + n_categorical) < self.n_slots

    def sparse_positions(self, rows: np.ndarray, excluded) -> np.ndarray:
        """Candidate positions that :func:`best_literal` needs for groups made of ``rows``.

        On a numeric column a literal's counts change only at the values the rows hold,
        so between two of them every threshold scores as the lower one, which comes
        first in the candidate order: the first slot of each numeric column, the slots
        the rows hold, every slot of a categorical column, and after each excluded slot
        the next one not excluded, give the same best literal as all candidates.
        """
        values = self.slots[rows].ravel()
        keep = [self.categorical_slots, self._numeric_first_slots]
        by_relation: dict[str, set] = {}
        for j, relation, k in excluded:
            by_relation.setdefault(relation, set()).add(int(self.offsets[j]) + k)
        for slots in by_relation.values():
            for slot in slots:
                nxt = slot + 1
                while nxt in slots:
                    nxt += 1
                if nxt <= self._last_slot[slot]:
                    keep.append(np.array([nxt]))
        if 32 * len(values) < self.n_slots:  # sorting the few values is cheaper
            slots = np.unique(np.concatenate([values[values < self.n_slots], *keep])
                              .astype(np.int64))
            return np.sort(np.concatenate([self._cand_position[slots],
                                           self._cand_position[slots + self.n_slots]]))
        # else one pass over the slots: mark the ones kept, then their two candidates
        marked = np.zeros(self.n_slots + 1, dtype=bool)
        marked[values] = True
        for part in keep:
            marked[part] = True
        slots = np.flatnonzero(marked[:self.n_slots])
        positions = np.zeros(2 * self.n_slots, dtype=bool)
        positions[self._cand_position[slots]] = True
        positions[self._cand_position[slots + self.n_slots]] = True
        return np.flatnonzero(positions)

    def counts_at(self, positions: np.ndarray, *groups: np.ndarray) -> np.ndarray:
        """:meth:`counts` at the candidate ``positions`` only, shape ``(len(groups),
        len(positions))``: per group, sorted slots and binary searches instead of a
        pass over every value of the table."""
        index = self._cand_index[positions]
        second = index >= self.n_slots
        slot = np.where(second, index - self.n_slots, index)
        first_slot, last_slot = self._first_slot[slot], self._last_slot[slot]
        out = np.empty((len(groups), len(positions)), dtype=np.int64)
        for g, rows in enumerate(groups):
            held = np.sort(self.slots[rows].ravel())
            start = np.searchsorted(held, first_slot, side="left")
            upto = np.searchsorted(held, slot, side="right")
            equal = upto - np.searchsorted(held, slot, side="left")
            known = np.searchsorted(held, last_slot, side="right") - start
            first = np.where(self._numeric_slot[slot], upto - start, equal)
            other = known - first
            if len(self.neg_rows):
                negated = np.sort(self.neg_slots[np.isin(self.neg_rows, rows)])
                other += (np.searchsorted(negated, slot, side="right")
                          - np.searchsorted(negated, slot, side="left"))
            out[g] = np.where(second, other, first)
        return out

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

    def literal_value(self, column: int, relation: str, index: int) -> float | str:
        """The threshold or category of the literal ``(column, relation, index)``.

        A threshold lies between the column's value ``index`` and the next
        larger value, in the middle half of the gap (near where CART places its
        splits): the literal covers the same training rows as a threshold at
        the value itself, and an unseen value in the gap goes, mostly, to the
        side it is nearer to. Of the numbers there, the one with the fewest significant
        digits is taken (:func:`short_between`), so the rule prints exactly as
        it decides. ``<=`` on the largest value keeps that value.
        """
        col = self.columns[column]
        if col.kind != NUMERIC:
            return str(col.values[index])
        low = float(col.values[index])
        if index + 1 >= len(col.values):
            return low
        return short_between(low, float(col.values[index + 1]))


def short_between(low: float, high: float) -> float:
    """The number with the fewest significant digits in the middle half of ``[low, high]``
    (the midpoint when it prints about as short).

    Examples
    --------
    >>> short_between(7073.0, 7074.0), short_between(3.0, 10.0), short_between(1000.01, 1000.02)
    (7073.5, 6.5, 1000.015)
    >>> short_between(0.1234, 0.4321)
    0.3
    """
    middle = low / 2 + high / 2
    if not low <= middle < high:
        return low
    quarter = high / 4 - low / 4
    for digits in range(1, 18):
        candidate = float(f"{middle:.{digits}g}")
        if low + quarter <= candidate <= high - quarter and low <= candidate < high:
            # the midpoint itself when it prints about as short (6.5 rather than 6)
            return middle if len(repr(middle)) <= len(repr(candidate)) + 1 else candidate
    return middle


def _xlog2x(values: np.ndarray) -> np.ndarray:
    """``x * log2(x)`` elementwise, 0 where ``x`` is 0."""
    logs = np.zeros_like(values)
    np.log2(values, out=logs, where=values > 0)
    return values * logs


def split_gain(tp, fp, n_pos: int, n_neg: int, xlog2x: np.ndarray | None = None) -> np.ndarray:
    """Information gain (bits per row) of splitting the rows by a literal.

    ``tp``/``fp``: positives/negatives the literal covers, out of ``n_pos``
    and ``n_neg``. The gain is the entropy before minus the weighted entropy
    of the covered and uncovered parts (FOLD-R++'s score, shifted by the
    constant entropy before, so that 0 means "no information"). ``xlog2x``,
    a table of ``k * log2(k)`` for ``k = 0 .. n_pos + n_neg``, makes it a
    few lookups when the counts are integers.
    """
    total = n_pos + n_neg
    if xlog2x is None:
        tp = np.asarray(tp, dtype=np.float64)
        fp = np.asarray(fp, dtype=np.float64)
        fn, tn = n_pos - tp, n_neg - fp
        # grouped so that a literal and its complement get bit-identical gains
        after = ((_xlog2x(tp) + _xlog2x(fn)) + (_xlog2x(fp) + _xlog2x(tn))
                 - (_xlog2x(tp + fp) + _xlog2x(tn + fn)))
        before = _xlog2x(np.array([n_pos, n_neg, total], dtype=np.float64))
    else:
        # the same sums, as three lookups: x(k) + x(n - k) for every count k of a part
        pos_sums = xlog2x[:n_pos + 1] + xlog2x[n_pos::-1]
        neg_sums = xlog2x[:n_neg + 1] + xlog2x[n_neg::-1]
        all_sums = xlog2x[:total + 1] + xlog2x[total::-1]
        after = (pos_sums.take(tp) + neg_sums.take(fp)) - all_sums.take(tp + fp)
        before = (xlog2x[n_pos], xlog2x[n_neg], xlog2x[total])  # the same bits, no array
    return (after - (before[0] + before[1] - before[2])) / total


def best_literal(table: EncodedTable, pos: np.ndarray, neg: np.ndarray,
                 excluded: frozenset, min_gain: float,
                 min_support: int = 1, sparse: bool | None = None) -> Candidate | None:
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
    sparse : bool or None, default=None
        Score only the candidates that can win (:meth:`EncodedTable.sparse_positions`)
        instead of all; the same result. None: when it pays.

    Returns
    -------
    Candidate or None
        None when no literal qualifies.
    """
    n_pos, n_neg = len(pos), len(neg)
    if n_pos == 0 or n_neg == 0 or table.n_slots == 0:
        return None
    if sparse is None:
        sparse = table.sparse_pays(n_pos + n_neg)
    if sparse:
        positions = table.sparse_positions(np.concatenate([pos, neg]), excluded)
        tp, fp = table.counts_at(positions, pos, neg)
    else:
        positions = None
        tp, fp = table.counts(pos, neg)
    gain = split_gain(tp, fp, n_pos, n_neg, table.xlog2x)
    invalid = ((tp < max(1, min_support)) | (fp >= n_neg)
               | (2 * (tp - fp) < n_pos - n_neg) | (gain <= min_gain))
    for key in excluded:
        if positions is None:
            invalid[table.layout_index(*key)] = True
            continue
        where = table.candidate_position(*key)
        found = np.searchsorted(positions, where)
        if found < len(positions) and positions[found] == where:
            invalid[found] = True
    gain[invalid] = -np.inf
    best = int(np.argmax(gain))
    if invalid[best]:
        return None
    if positions is None:  # slot order: of equal gains, the first in candidate order
        position = table.first_candidate(gain == gain[best])
    else:
        position = int(positions[best])
    j, relation, k = table.candidate(position)
    return Candidate(j, relation, k, float(gain[best]))
