"""Smaller queries with the same optimum: literal groups and dominated literals.

* Literals whose columns are identical on the query's rows form one group (one ``b``
  variable per clause).
* A group that another group dominates is left out (:func:`undominated`).
* Pairs of groups an optimal clause never holds together get a binary hard clause
  (:func:`redundant_pairs`).
"""

from __future__ import annotations

import numpy as np

__all__ = ["group_literals", "redundant_pairs", "undominated"]


def group_literals(L: np.ndarray, candidates: np.ndarray, feature_of: np.ndarray | None):
    """Group candidate literals with identical columns (and, if given, one feature)."""
    if candidates.size == 0:
        return []
    packed = np.packbits(L[:, candidates], axis=0).T
    if feature_of is not None:
        fid = feature_of[candidates].astype(">i8").view(np.uint8).reshape(-1, 8)
        packed = np.hstack([fid, packed])
    packed = np.ascontiguousarray(packed)
    keys = packed.view(np.dtype((np.void, packed.shape[1]))).ravel()
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    inverse = inverse.ravel()
    order = np.argsort(first, kind="stable")
    groups = [[] for _ in order]
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    for pos, g in enumerate(inverse):
        groups[rank[g]].append(candidates[pos])
    return [np.array(g, dtype=np.int64) for g in groups]


def undominated(L, labels, groups, preferred, feature_of):
    """Drop literal groups that another group dominates on the query's rows.

    Group ``a`` dominates ``b`` when ``a`` is true on every positive row ``b`` is true on
    and false on every negative row ``b`` is false on. Swapping ``b`` for ``a`` in any
    clause then makes no row worse and costs no more, so some optimum avoids ``b``
    (AIES-style thresholds make this common: between two cut points with no negative
    row, the looser one wins). Groups of the previous rule (preferences) always stay;
    with feature constraints, only literals of the same feature compete.
    """
    if len(groups) < 2:
        return groups
    reps = np.array([g[0] for g in groups], dtype=np.int64)
    G = L[:, reps].astype(np.float32)
    P, N = G[labels], G[~labels]
    # lost[b, a]: positive rows where b holds and a does not; gained[a, b]: negative rows
    # where a holds and b does not
    lost = P.T @ (1.0 - P)
    gained = N.T @ (1.0 - N)
    dominates = (lost.T == 0) & (gained == 0)  # [a, b]: a dominates b
    np.fill_diagonal(dominates, False)
    if feature_of is not None:
        fid = feature_of[reps]
        dominates &= fid[:, None] == fid[None, :]
    keep = ~dominates.any(axis=0)
    for g, members in enumerate(groups):
        if not keep[g] and preferred.intersection(members.tolist()):
            keep[g] = True
    return [g for g, k in zip(groups, keep) if k]


def redundant_pairs(G, groups, preferred):
    """Pairs of groups that an optimal clause never holds together.

    If ``a ⇒ b`` on every row, ``a OR b`` is ``b`` (``a`` is redundant: Alg. 1 of AIES
    2019 generalised beyond sibling thresholds); if every row has ``a`` or ``b``, the
    clause is always true and costs more than leaving it out. Either way no optimum holds
    both, and the hard clause ``¬b[l,a] ∨ ¬b[l,b]`` lets the solver skip those rules
    (RC2 turns such at-most-one groups into cheaper cores). Preferred groups are exempt.
    """
    n = len(groups)
    if n < 2:
        return []
    F = G.astype(np.float32)
    implies = (F.T @ (1.0 - F)) == 0  # [a, b]: no row with a and not b
    cover = ((1.0 - F).T @ (1.0 - F)) == 0  # [a, b]: no row with neither
    pairs = np.triu(implies | implies.T | cover, k=1)
    if preferred:
        free = np.array([not preferred.intersection(g.tolist()) for g in groups])
        pairs &= free[:, None] & free[None, :]
    return np.argwhere(pairs).tolist()
