"""Post-pruning of a learned class theory by description length (the FOLD paper's MDL intent).

The greedy search of :mod:`fold.learner` fits its training rows closely: on
noisy data it keeps adding small rules and exceptions that only describe the
noise. After a class's rules are learned they are simplified for as long as
the *description length* of the class's training labels goes down:

    DL = mdl_weight * (bits of the theory) + (bits of its errors)

* A literal costs ``log2(columns) + log2(tests on its column)`` bits: which
  column, then which of its ``2 * distinct values`` tests (``<=``/``>`` on a
  threshold, ``==``/``!=`` on a category). The default weight, 0.5, is
  RIPPER's allowance for redundancy among the tests.
* The errors cost ``log2(n + 1) + log2 C(n, e)`` bits: how many of the ``n``
  rows are misclassified, then which. The cost grows with every error (it is
  capped at one more bit per error beyond ``n / 2``), so a simplification is
  kept only when the bits it saves in the theory pay for its extra errors.

:func:`prune_theory` edits greedily: an edit drops one literal of a rule or
exception (a body keeps at least one literal), or a whole rule or exception
with everything under it; each step applies the edit that lowers the
description length the most (ties: the first edit in rule order). A literal
that changes nothing the theory decides goes whenever its bits weigh anything
(``mdl_weight > 0``): an edit is taken only when it lowers the length.

:func:`refine_thresholds` then moves each literal, one at a time, to the
value of its column and relation that makes the fewest training errors with
the rest of the theory fixed (RIPPER's optimisation step, for thresholds): a
theory pruned to a few literals can often place them better than the greedy
search did when the literals were chosen. Both steps are deterministic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Iterator

import numpy as np

__all__ = ["Node", "DescriptionLength", "log2_binomial", "prune_theory",
           "refine_thresholds"]

Covers = Callable[["Node"], np.ndarray]


@dataclass(frozen=True)
class Node:
    """A rule during learning: literal keys ``(column, relation, index)``.

    ``exceptions`` are ``Node`` objects too (the clauses of the rule's ``ab``
    predicate). A node with no literals fires on every row its exceptions
    leave.
    """

    literals: tuple
    exceptions: tuple
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # nodes are dictionary keys of coverage caches: hash the nested tuples once
        object.__setattr__(self, "_hash", hash((self.literals, self.exceptions)))

    def __hash__(self) -> int:
        return self._hash

    def keys(self) -> Iterator[tuple]:
        """Every literal key of the rule and of its exceptions, depth first."""
        yield from self.literals
        for exception in self.exceptions:
            yield from exception.keys()


def log2_binomial(n: int, k: int) -> float:
    """``log2`` of the binomial coefficient ``C(n, k)`` (0 unless ``0 < k < n``)."""
    if k <= 0 or k >= n:
        return 0.0
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)) / math.log(2)


class DescriptionLength:
    """Bits of a theory and of the errors it makes on the training rows.

    Parameters
    ----------
    tests_per_column : sequence of int
        Number of candidate literals of each column (``2 * distinct values``).
    weight : float
        Multiplies the theory's bits; larger weights give smaller theories.

    Examples
    --------
    >>> length = DescriptionLength([4, 4], weight=1.0)
    >>> length.theory_bits(Node(((0, "<=", 1),), ()))
    3.0
    >>> length.error_bits(10, 0, 10, 0) < length.error_bits(10, 1, 10, 0)
    True
    """

    def __init__(self, tests_per_column, weight: float) -> None:
        tests = np.maximum(np.asarray(tests_per_column, dtype=np.float64), 1.0)
        self.literal_bits = np.log2(max(len(tests), 1)) + np.log2(tests)
        self.weight = float(weight)
        self._bits: dict[Node, float] = {}

    def theory_bits(self, node: Node) -> float:
        """Weighted bits of one rule with its exceptions."""
        bits = self._bits.get(node)
        if bits is None:
            bits = self._bits[node] = self.weight * float(
                sum(self.literal_bits[key[0]] for key in node.keys()))
        return bits

    @staticmethod
    def error_bits(n_fire: int, false_pos: int, n_rest: int, false_neg: int) -> float:
        """Bits of the errors among the ``n_fire`` fired and ``n_rest`` other rows."""
        n = n_fire + n_rest
        errors = false_pos + false_neg
        half = n // 2
        return math.log2(n + 1) + log2_binomial(n, min(errors, half)) + max(0, errors - half)


def _edits(node: Node) -> Iterator[Node | None]:
    """Every one-step simplification of ``node`` (None: drop the node), in rule order."""
    yield None
    if len(node.literals) > 1:
        for i in range(len(node.literals)):
            yield Node(node.literals[:i] + node.literals[i + 1:], node.exceptions)
    for i, exception in enumerate(node.exceptions):
        for edited in _edits(exception):
            middle = () if edited is None else (edited,)
            yield Node(node.literals, node.exceptions[:i] + middle + node.exceptions[i + 1:])


def _others(masks: list, empty: np.ndarray) -> list:
    """For each ``i``, the union of every mask but the ``i``-th (prefix and suffix unions)."""
    prefix, suffix = [empty], [empty]
    for mask in masks:
        prefix.append(prefix[-1] | mask)
    for mask in reversed(masks):
        suffix.append(suffix[-1] | mask)
    return [prefix[i] | suffix[len(masks) - 1 - i] for i in range(len(masks))]


def prune_theory(nodes: tuple, covers: Covers, pos: np.ndarray, neg: np.ndarray,
                 length: DescriptionLength) -> tuple[tuple, float]:
    """Simplify a class's rules while the description length decreases.

    Parameters
    ----------
    nodes : tuple of Node
        The class's rules, in order.
    covers : callable
        ``covers(node)``: boolean mask over all training rows where the rule fires.
    pos, neg : ndarray of bool
        Masks over all training rows of the class's positive and negative rows
        (rows in neither are not counted).
    length : DescriptionLength

    Returns
    -------
    nodes : tuple of Node
    bits : float
        Their description length.
    """
    nodes = tuple(nodes)
    n_pos, n_rows = int(pos.sum()), int(pos.sum() + neg.sum())
    rows = pos | neg

    def error_bits(fires: np.ndarray) -> float:
        n_fire = int(np.count_nonzero(fires & rows))
        true_pos = int(np.count_nonzero(fires & pos))
        return length.error_bits(n_fire, n_fire - true_pos, n_rows - n_fire, n_pos - true_pos)

    empty = np.zeros(len(pos), dtype=bool)
    bits = [length.theory_bits(node) for node in nodes]
    masks = [covers(node) for node in nodes]
    current = sum(bits) + error_bits(np.logical_or.reduce(masks) if masks else empty)
    while nodes:
        total = sum(bits)
        best, best_bits = None, current
        for i, (node, others) in enumerate(zip(nodes, _others(masks, empty))):
            for edited in _edits(node):
                if edited is None:
                    candidate = total - bits[i] + error_bits(others)
                else:
                    candidate = (total - bits[i] + length.theory_bits(edited)
                                 + error_bits(others | covers(edited)))
                if candidate < best_bits - 1e-9:
                    best, best_bits = (i, edited), candidate
        if best is None:
            break
        i, edited = best
        if edited is None:
            nodes = nodes[:i] + nodes[i + 1:]
            del bits[i], masks[i]
        else:
            nodes = nodes[:i] + (edited,) + nodes[i + 1:]
            bits[i], masks[i] = length.theory_bits(edited), covers(edited)
        current = best_bits
    return nodes, current


# -- threshold refinement ------------------------------------------------------

def _sites(node: Node, path: tuple = ()) -> Iterator[tuple]:
    """``(path, m)`` of every literal: exception indices down to its node, its index."""
    for m in range(len(node.literals)):
        yield path, m
    for i, exception in enumerate(node.exceptions):
        yield from _sites(exception, path + (i,))


def _node_at(node: Node, path: tuple) -> Node:
    for i in path:
        node = node.exceptions[i]
    return node


def _with_literal(node: Node, path: tuple, m: int, key: tuple) -> Node:
    """``node`` with its literal at ``(path, m)`` replaced by ``key``."""
    if not path:
        return Node(node.literals[:m] + (key,) + node.literals[m + 1:], node.exceptions)
    i = path[0]
    edited = _with_literal(node.exceptions[i], path[1:], m, key)
    return Node(node.literals, node.exceptions[:i] + (edited,) + node.exceptions[i + 1:])


def _fires_with(node: Node, path: tuple, m: int, value: bool, covers: Covers) -> np.ndarray:
    """Where ``node`` fires when its literal at ``(path, m)`` is replaced by ``value``."""
    everywhere = covers(Node((), ()))
    if not path and not value:
        return np.zeros_like(everywhere)
    mask = everywhere.copy()
    for j, key in enumerate(node.literals):
        if path or j != m:
            mask &= covers(Node((key,), ()))
    for i, exception in enumerate(node.exceptions):
        if path and i == path[0]:
            mask &= ~_fires_with(exception, path[1:], m, value, covers)
        else:
            mask &= ~covers(exception)
    return mask


def _errors_by_value(column, relation: str, rows: np.ndarray, change: np.ndarray,
                     n_rows: int) -> np.ndarray:
    """Errors (up to a constant) of the literal on each value of its column.

    ``change[r]`` is +1 where row ``rows[r]`` is wrong when the literal holds
    and right when it does not, -1 the other way round.
    """
    size = len(column.values)
    codes = column.codes[rows]
    known = codes >= 0
    # float even when no row is known (bincount then gives integers, which hold no inf)
    per_value = np.bincount(codes[known], weights=change[known], minlength=size).astype(
        np.float64, copy=False)
    if relation == "<=":
        return np.cumsum(per_value)
    if relation == ">":
        errors = per_value.sum() - np.cumsum(per_value)
        errors[-1] = np.inf  # "> largest value" covers nothing
        return errors
    if relation == "==":
        return per_value
    errors = per_value.sum() - per_value
    if len(column.neg_rows):
        at = np.zeros(n_rows)
        at[rows] = change
        errors = errors + np.bincount(column.neg_codes, weights=at[column.neg_rows],
                                      minlength=size)
    return errors


def refine_thresholds(nodes: tuple, covers: Covers, pos: np.ndarray, neg: np.ndarray,
                      table, max_passes: int = 1) -> tuple:
    """Move each literal to the value of its column with the fewest training errors.

    The column and relation of a literal stay; only its value (threshold or
    category) changes, and only when that removes at least one error. Among
    equally good values the one nearest the current value is taken.

    Parameters
    ----------
    nodes : tuple of Node
    covers : callable
        As for :func:`prune_theory`.
    pos, neg : ndarray of bool
        Masks of the class's positive and negative training rows.
    table : EncodedTable
        Gives each column's value codes.
    max_passes : int, default=1
        Sweeps over all literals (fewer when a sweep changes nothing).

    Returns
    -------
    tuple of Node
    """
    nodes = list(nodes)
    rows = pos | neg
    empty = np.zeros(len(pos), dtype=bool)
    for _ in range(max_passes):
        changed = False
        for i in range(len(nodes)):
            others = _others([covers(node) for node in nodes], empty)[i]
            for path, m in list(_sites(nodes[i])):
                node = nodes[i]
                fires_true = others | _fires_with(node, path, m, True, covers)
                fires_false = others | _fires_with(node, path, m, False, covers)
                differ = np.flatnonzero((fires_true != fires_false) & rows)
                if not len(differ):
                    continue
                # a positive row is wrong where the theory does not fire, a negative where it does
                change = ((fires_true[differ] ^ pos[differ]).astype(np.float64)
                          - (fires_false[differ] ^ pos[differ]))
                column, relation, index = _node_at(node, path).literals[m]
                errors = _errors_by_value(table.columns[column], relation, differ, change,
                                          len(pos))
                fewest = float(errors.min())
                if fewest < errors[index] - 0.5:
                    ties = np.flatnonzero(errors <= fewest + 0.5)
                    k = int(ties[np.argmin(np.abs(ties - index))])
                    nodes[i] = _with_literal(node, path, m, (column, relation, k))
                    changed = True
        if not changed:
            break
    return tuple(nodes)
