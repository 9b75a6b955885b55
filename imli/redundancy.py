"""Simplification of learned rules that never changes a prediction on the training rows.

"The training rows" are those the objective counts (:func:`imli.rows.merge_rows`): copies
of one row with as many of each label cost the same whatever the rule says, so the rule's
prediction on them may change.

* Redundant sibling thresholds (AIES 2019, Alg. 1): in a disjunction, ``f > 3 OR f > 5``
  keeps ``f > 3``; in a conjunction it keeps ``f > 5``. A literal is dropped only if the
  training rows confirm the implication the column specs promise.
* A clause holding a literal and its complement is always true (dropped from a CNF); a term
  holding both is always false (dropped from a DNF).
* Duplicate clauses, and clauses whose literals include another clause's (subsumed), go.
* :func:`canonicalize` swaps a complemented column for an identical plain column of the
  same feature (``not (f <= t)`` → ``f > t``) when they agree on every training row.
* Where a missing value keeps them apart (LIME's filtered rows), a term's plain threshold
  literal on ``f`` (false where ``f`` is missing) still lets its complemented literals on
  ``f`` read as their plain counterparts: ``f > 3 AND not (f <= 7)`` is ``f > 3 AND f > 7``,
  that is ``f > 7``. A clause's complemented literal (true where ``f`` is missing) lets its
  plain ones read as complemented, when that makes siblings to drop. Each swap is exact on
  every row, and confirmed on the training rows as sibling drops are. This is done on the
  rule a fit returns (``read_known``), so learning itself is unchanged.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .literals import LiteralSpace

__all__ = ["canonicalize", "remove_redundant_literals", "simplify"]

Clauses = tuple[frozenset[int], ...]


def _family(space: LiteralSpace, j: int):
    """(feature, relation, negated) and the direction of a threshold literal, or None."""
    m = space.n_columns
    column, negated = (j, False) if j < m else (j - m, True)
    spec = space.specs[column]
    if spec is None or not spec.is_threshold:
        return None
    # "down": true on fewer rows as the threshold grows (f > t, not f <= t)
    down = (spec.relation == ">") != negated
    return (spec.feature, spec.relation, negated), down, float(spec.value)


def _read_as_known(clause: frozenset[int], space: LiteralSpace, L: np.ndarray,
                   connective: str, allowed: np.ndarray | None = None) -> frozenset[int]:
    """``clause`` with each threshold literal whose reading the rest of the clause fixes
    where its feature is missing swapped for its counterpart (see the module docstring):
    in a term (``"AND"``) a complemented literal of a feature that also has a plain
    threshold literal becomes plain; in a clause (``"OR"``) a plain literal of a feature
    that also has a complemented threshold literal becomes complemented. A counterpart
    that is not ``allowed`` (a mask over the literals) is not swapped in."""
    m = space.n_columns
    want_plain = connective == "AND"
    columns = {(s.feature, s.relation, s.value): c for c, s in enumerate(space.specs)
               if s is not None and s.is_threshold}
    anchors: dict[int, list[int]] = {}
    for j in clause:
        spec = space.specs[j % m]
        if spec is not None and spec.is_threshold and (j < m) == want_plain:
            anchors.setdefault(int(space.feature_of[j]), []).append(j)
    out = set(clause)
    for j in sorted(clause):
        anchor = anchors.get(int(space.feature_of[j]))
        if anchor is None or (j < m) == want_plain:
            continue
        spec = space.specs[j % m]
        other = columns.get((spec.feature, spec.negate().relation, spec.value))
        if other is None:
            continue
        k = other if want_plain else other + m
        if allowed is not None and not allowed[k]:
            continue
        # where the anchors decide the feature is known (AND) or leave the clause open
        # (OR), j and k agree: as the column specs say, and as the rows must confirm
        fixed = L[:, anchor].any(axis=1) if want_plain else ~L[:, anchor].any(axis=1)
        if not np.any(fixed & (L[:, j] != L[:, k])):
            out.discard(j)
            out.add(k)
    return frozenset(out)


def remove_redundant_literals(
    clause: frozenset[int], space: LiteralSpace, L: np.ndarray, connective: str = "OR",
    read_known: bool = False, allowed: np.ndarray | None = None,
) -> frozenset[int]:
    """AIES Alg. 1 on one clause (``"OR"``) or term (``"AND"``); with ``read_known``,
    after reading threshold literals as the clause's other literals let them be read
    (:func:`_read_as_known`; for a clause, only when that drops a literal).

    Parameters
    ----------
    clause : frozenset of int
        Literal indices.
    space : LiteralSpace
        Column specs (only threshold columns have siblings).
    L : ndarray of bool, shape (n, 2m)
        Literal matrix of the training rows, used to confirm each implication.
    connective : {"OR", "AND"}
    read_known : bool, default=False
    allowed : ndarray of bool, shape (2m,), optional
        The literals a rule may hold (the fit's ``exclude_features`` are not): reading
        as known swaps in no other.

    Returns
    -------
    frozenset of int
    """
    if not read_known:
        return _drop_siblings(clause, space, L, connective)
    read = _drop_siblings(_read_as_known(clause, space, L, connective, allowed), space, L,
                          connective)
    if connective == "AND" or len(read) < len(clause):
        return read
    return _drop_siblings(clause, space, L, connective)


def _drop_siblings(
    clause: frozenset[int], space: LiteralSpace, L: np.ndarray, connective: str = "OR"
) -> frozenset[int]:
    """AIES Alg. 1 on one clause or term (arguments as :func:`remove_redundant_literals`):
    of sibling thresholds keep the most general (OR) or the most specific (AND)."""
    families: dict[tuple, list[tuple[float, int, bool]]] = {}
    for j in clause:
        fam = _family(space, j)
        if fam is not None:
            key, down, value = fam
            families.setdefault(key, []).append((value, j, down))
    drop = set()
    for members in families.values():
        if len(members) < 2:
            continue
        members.sort()
        down = members[0][2]
        # the most general literal for OR, the most specific for AND
        keep_first = down == (connective == "OR")
        keep = members[0][1] if keep_first else members[-1][1]
        for _, j, _ in members:
            if j == keep:
                continue
            weaker, stronger = (keep, j) if connective == "OR" else (j, keep)
            # dropping is exact on the data only if stronger => weaker on every row
            if not np.any(L[:, stronger] & ~L[:, weaker]):
                drop.add(j)
    return frozenset(clause - drop)


def simplify(
    clauses: Sequence[frozenset[int]],
    space: LiteralSpace,
    L: np.ndarray,
    connective: str = "OR",
    read_known: bool = False,
    allowed: np.ndarray | None = None,
) -> Clauses:
    """Alg. 1 on every clause, then drop constant, duplicate and subsumed clauses.

    Parameters
    ----------
    clauses : sequence of frozenset of int
        Clauses of a CNF (``connective="OR"``) or terms of a DNF (``"AND"``).
    space : LiteralSpace
    L : ndarray of bool, shape (n, 2m)
        Literal matrix of the training rows.
    connective : {"OR", "AND"}
    read_known : bool, default=False
        Also read threshold literals as the clause's other literals let them be read
        (:func:`_read_as_known`). Done on the rule a fit returns, not between the
        mini-batches of learning, whose queries each prefer the previous rule's literals.
    allowed : ndarray of bool, shape (2m,), optional
        The literals a rule may hold: reading as known swaps in no other.

    Returns
    -------
    tuple of frozenset of int
        Equivalent on the training rows; never larger.
    """
    out: list[frozenset[int]] = []
    for clause in clauses:
        clause = remove_redundant_literals(frozenset(clause), space, L, connective,
                                           read_known, allowed)
        if any(space.negate(j) in clause for j in clause):
            continue  # OR: always true in a CNF; AND: always false in a DNF
        out.append(clause)
    kept: list[frozenset[int]] = []
    for i, clause in enumerate(out):
        subsumed = any(
            other < clause or (other == clause and k < i) for k, other in enumerate(out)
        )
        if not subsumed:
            kept.append(clause)
    return tuple(kept)


def canonicalize(clauses: Sequence[frozenset[int]], canon: np.ndarray) -> Clauses:
    """Replace literals through the map of :meth:`LiteralSpace.canonical`."""
    return tuple(frozenset(int(canon[j]) for j in clause) for clause in clauses)
