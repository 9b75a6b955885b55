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
    # groups in order of their first candidate, members in candidate order
    rank = np.empty_like(first)
    rank[np.argsort(first, kind="stable")] = np.arange(first.size)
    group = rank[inverse.ravel()]
    members = np.asarray(candidates, dtype=np.int64)[np.argsort(group, kind="stable")]
    ends = np.cumsum(np.bincount(group, minlength=first.size)).tolist()
    return [members[a:b] for a, b in zip([0] + ends[:-1], ends)]


def _preferred(groups, preferred) -> np.ndarray:
    """Whether each group holds a preferred literal (one of the previous rule's)."""
    held = np.zeros(len(groups), dtype=bool)
    if preferred and groups:
        members = np.concatenate(groups)
        owner = np.repeat(np.arange(len(groups)), [len(g) for g in groups])
        marked = np.zeros(max(int(members.max()), max(preferred)) + 1, dtype=bool)
        marked[list(preferred)] = True
        held[owner[marked[members]]] = True
    return held


def undominated(L, labels, groups, preferred, feature_of, expired=None):
    """Drop literal groups that another group dominates on the query's rows.

    Group ``a`` dominates ``b`` when ``a`` is true on every positive row ``b`` is true on
    and false on every negative row ``b`` is false on. Swapping ``b`` for ``a`` in any
    clause then makes no row worse and costs no more, so some optimum avoids ``b``
    (AIES-style thresholds make this common: between two cut points with no negative
    row, the looser one wins). Groups of the previous rule (preferences) always stay;
    with feature constraints, only literals of the same feature compete. ``expired``
    (optional) is passed on to :func:`_strictly_contained`.
    """
    if len(groups) < 2:
        return groups
    reps = np.array([g[0] for g in groups], dtype=np.int64)
    G = L[:, reps].astype(bool)
    # the rows where a literal is right: true on a positive, false on a negative; a
    # dominates b exactly when its right rows are a strict superset of b's
    right = np.where(np.asarray(labels, dtype=bool)[:, None], G, ~G)
    keep = np.ones(len(groups), dtype=bool)
    if feature_of is None:
        keep = ~_strictly_contained(right, expired=expired)
    else:
        fid = feature_of[reps]
        order = np.argsort(fid, kind="stable")
        starts = np.flatnonzero(np.r_[True, fid[order][1:] != fid[order][:-1]])
        for block in np.split(order, starts[1:]):
            keep[block] = ~_strictly_contained(right[:, block], expired=expired)
    keep |= _preferred(groups, preferred)
    return [g for g, k in zip(groups, keep) if k]


def _strictly_contained(sets: np.ndarray, cells: int = 1 << 22, expired=None) -> np.ndarray:
    """For each column of the boolean ``sets`` (rows x n), whether another column holds it.

    Columns are packed into 64-bit words and visited from the largest set down, a chunk
    at a time; a chunk is compared only with the uncontained columns seen so far and with
    itself (a strict superset is larger, and whatever holds a superset holds the set).
    A chunk's comparison holds at most ``cells`` words (32 MB by default). When
    ``expired()`` turns True between chunks, the columns not yet visited count as not
    contained (kept: the reduction is only a speed-up).
    """
    n = sets.shape[1]
    contained = np.zeros(n, dtype=bool)
    if n < 2:
        return contained
    packed = np.packbits(sets, axis=0)
    pad = -packed.shape[0] % 8
    words = np.ascontiguousarray(
        np.pad(packed, ((0, pad), (0, 0))).T).view(np.uint64)  # n x words
    sizes = sets.sum(axis=0)
    order = np.argsort(-sizes, kind="stable")
    maximal = np.zeros(0, dtype=np.int64)
    lo = 0
    while lo < n and not (expired is not None and expired()):
        step = max(1, min(512, cells // ((maximal.size + 512) * words.shape[1])))
        part = order[lo:lo + step]
        lo += step
        against = np.concatenate([maximal, part])
        b = words[part][:, None, :]
        holds = ((words[against][None, :, :] & b) == b).all(axis=2)  # [b, a]: a holds b
        holds &= sizes[against][None, :] > sizes[part][:, None]  # strictly
        inside = holds.any(axis=1)
        contained[part] = inside
        maximal = np.concatenate([maximal, part[~inside]])
    return contained


def redundant_pairs(G, groups, preferred):
    """Pairs of groups that an optimal clause never holds together.

    If ``a ⇒ b`` on every row, ``a OR b`` is ``b`` (``a`` is redundant: Alg. 1 of AIES
    2019 generalised beyond sibling thresholds); if every row has ``a`` or ``b``, the
    clause is always true and costs more than leaving it out. Either way no optimum holds
    both, and the hard clause ``¬b[l,a] ∨ ¬b[l,b]`` lets the solver skip those rules
    (RC2 turns such at-most-one groups into cheaper cores). Preferred groups are exempt
    (the previous rule's literals, and those of a feature every clause must hold).
    Returns the pairs ``(a, b)``, ``a < b``, as an ``(n_pairs, 2)`` array.
    """
    n = len(groups)
    if n < 2:
        return np.zeros((0, 2), dtype=np.int64)
    F = G.astype(np.float32)
    implies = (F.T @ (1.0 - F)) == 0  # [a, b]: no row with a and not b
    cover = ((1.0 - F).T @ (1.0 - F)) == 0  # [a, b]: no row with neither
    pairs = np.triu(implies | implies.T | cover, k=1)
    if preferred:
        free = ~_preferred(groups, preferred)
        pairs &= free[:, None] & free[None, :]
    return np.argwhere(pairs)
