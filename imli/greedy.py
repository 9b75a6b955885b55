"""A greedy CNF learner: the incumbent when a time limit strikes before any MaxSAT answer.

Clause by clause (separate and conquer), literals are added while each addition lowers the
objective ``|R| + λ·|E|``; a clause is kept only if it lowers the objective of the rule.
It needs no solver and costs a few matrix-vector products per literal, so it always gives
the anytime strategy a (usually modest) non-trivial rule to fall back on.
"""

from __future__ import annotations

import numpy as np

from .encoding import Weights
from .literals import literal_matrix
from .rows import WeightedRows

__all__ = ["greedy_cnf"]


def greedy_cnf(
    rows: WeightedRows,
    n_clauses: int,
    weights: Weights,
    allowed: np.ndarray | None = None,
    disjoint_of: np.ndarray | None = None,
    required: tuple[np.ndarray, ...] = (),
) -> tuple[frozenset[int], ...]:
    """Greedily learn at most ``n_clauses`` clauses (CNF form: ``True`` rows satisfy it).

    Parameters
    ----------
    rows : WeightedRows
    n_clauses : int
    weights : Weights
    allowed : ndarray of bool, shape (2m,), optional
        Literals that may be used.
    disjoint_of : ndarray of int, shape (2m,), optional
        The feature of each literal, when each feature may appear in one clause only.
    required : tuple of ndarray
        Literal indices of each feature every clause must contain: a clause the greedy
        search leaves without one gets that feature's best literal.

    Returns
    -------
    tuple of frozenset of int
    """
    L = literal_matrix(rows.X)
    cand = np.flatnonzero(allowed) if allowed is not None else np.arange(L.shape[1])
    if cand.size == 0 or len(rows) == 0:
        return ()
    F = L[:, cand].astype(np.float64)
    w = rows.weights.astype(np.float64)
    pos_ok = rows.labels.copy()  # positives still predicted correctly
    neg_open = ~rows.labels  # negatives not yet rejected by a clause
    clauses: list[frozenset[int]] = []
    open_ = np.ones(cand.size, dtype=bool)  # candidates whose feature no clause holds yet
    need = [np.flatnonzero(np.isin(cand, group)) for group in required]
    for _ in range(n_clauses):
        if not neg_open.any():
            break
        sat = np.zeros(len(rows), dtype=bool)
        chosen: list[int] = []
        while True:
            vec = weights.noise * w * ((pos_ok & ~sat).astype(float) - (neg_open & ~sat))
            gains = vec @ F - weights.literal
            gains[~open_] = -np.inf
            if chosen:
                gains[chosen] = -np.inf
            best = int(np.argmax(gains))
            if gains[best] <= 0:
                break
            chosen.append(best)
            sat |= L[:, cand[best]]
        for group in need:
            if not group.size:  # no clause can hold this feature: none is learned
                return tuple(clauses)
            if not np.isin(group, chosen).any():
                vec = weights.noise * w * ((pos_ok & ~sat).astype(float) - (neg_open & ~sat))
                best = int(group[np.argmax(vec @ F[:, group])])
                chosen.append(best)
                sat |= L[:, cand[best]]
        # benefit of adding the clause: rejected negatives minus lost positives
        benefit = weights.noise * (w[neg_open & ~sat].sum() - w[pos_ok & ~sat].sum())
        if benefit - weights.literal * len(chosen) <= 0:
            break
        clauses.append(frozenset(int(cand[j]) for j in chosen))
        if disjoint_of is not None:
            open_ &= ~np.isin(disjoint_of[cand], disjoint_of[cand[chosen]])
        pos_ok &= sat
        neg_open &= sat
    return tuple(clauses)
