"""MaxSAT encoding of k-clause CNF learning (MLIC / IMLI), and decoding of models.

Variables come from an :class:`~pysat.formula.IDPool` keyed by meaning:

* ``("b", l, j)`` — literal ``j`` appears in clause ``l``;
* ``("used", l)`` — clause ``l`` is part of the rule (a rule has *at most* k clauses; a
  clause left out costs nothing, so no junk clause is forced in);
* ``("eta", i)`` — weighted row ``i`` is misclassified (noise);
* ``("z", i, l)`` — clause ``l`` is false on negative row ``i`` (Tseitin, only if k ≥ 2);
* ``("lex", l, g)`` — clause-symmetry breaking: clauses ``l`` and ``l+1`` agree on the
  first ``g+1`` entries of (``used``, then one ``b`` per literal group);
* ``("u", l, f)`` / ``("r", f)`` — feature ``f`` used in clause ``l`` / its at-most-one-clause
  constraint relaxed (interpretability constraints);
* ``("t", l, f)`` — clause ``l`` uses feature ``f`` that an earlier clause took (soft
  disjointness when clauses are learned one at a time).

Literals whose columns are identical on the query's rows form one group with one ``b``
variable per clause (the optimum is unchanged; decoding picks the group's first literal).

Weights are integers. ``data_fidelity`` λ is written as a fraction ``p/q`` (denominator at
most 10⁶, exact for decimals with up to six digits); a literal costs ``q`` and a
misclassified row of multiplicity ``c`` costs ``p·c``, so the MaxSAT cost is
``q·(|R| + λ·|E|)``. Mini-batch preferences (AIES 2019 §4.1) give the previous rule's
literals weight ``q`` as positive soft clauses instead of negative ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Callable, Sequence

import numpy as np
from pysat.card import CardEnc, EncType
from pysat.formula import WCNF, IDPool

from .literals import literal_matrix
from .reduction import group_literals, redundant_pairs, undominated
from .rows import WeightedRows

__all__ = ["Constraints", "OutOfTime", "Query", "Weights", "decode", "encode"]

MAX_DENOMINATOR = 10**6


class OutOfTime(Exception):
    """Encoding stopped because the fit's time limit passed."""


def _check(expired: Callable[[], bool] | None) -> None:
    if expired is not None and expired():
        raise OutOfTime


def _neighbours(x: Fraction, order: int) -> tuple[Fraction, Fraction]:
    """The fractions of denominator at most ``order`` just below and just above ``x``,
    which has a larger denominator (the bounds of :meth:`Fraction.limit_denominator`)."""
    p0, q0, p1, q1 = 0, 1, 1, 0
    n, d = x.numerator, x.denominator
    while True:
        a = n // d
        q2 = q0 + a * q1
        if q2 > order:
            break
        p0, q0, p1, q1 = p1, q1, p0 + a * p1, q2
        n, d = d, n - a * d
    k = (order - q0) // q1
    one, two = Fraction(p0 + k * p1, q0 + k * q1), Fraction(p1, q1)
    return (one, two) if one < two else (two, one)


@dataclass(frozen=True)
class Weights:
    """Integer weights of one literal and one misclassified row.

    Parameters
    ----------
    literal : int
        Weight ``q`` of one literal in the rule.
    noise : int
        Weight ``p`` of one misclassified row (``p/q`` is ``data_fidelity``).

    Examples
    --------
    >>> Weights.from_fidelity(10.0)
    Weights(literal=1, noise=10)
    >>> Weights.from_fidelity(0.25)
    Weights(literal=4, noise=1)
    """

    literal: int
    noise: int

    @classmethod
    def from_fidelity(cls, data_fidelity: float, n_rows: int | None = None) -> Weights:
        """Scale λ = ``data_fidelity`` to integer weights ``q`` (literal), ``p`` (row).

        ``p/q`` is λ's nearest fraction of denominator at most 10⁶ (``0.1`` is 1/10).
        When that is not λ (more than six decimals), a rule that ties with another at
        ``p/q`` may not at λ (``0.5000001``: one literal against two errors). Given
        ``n_rows``, the total weight of the rows of any query (at most 5·10⁵), such a
        ``p/q`` is replaced by the nearest fraction of denominator at most 10⁶ strictly
        between λ's neighbours of denominator at most ``n_rows``: two objectives
        ``|R| + λ·|E|`` then compare as they do at λ, as their difference changes sign
        only at fractions of denominator at most ``n_rows``.

        Parameters
        ----------
        data_fidelity : float
            The λ of the objective: the cost of one misclassified row relative to one
            literal.
        n_rows : int or None, default=None
            Total weight of the rows of any query; ``None`` keeps the nearest fraction.

        Returns
        -------
        Weights
            ``Weights(literal=q, noise=p)``.

        Raises
        ------
        ValueError
            If ``data_fidelity`` rounds to zero at denominator 10⁶.
        """
        exact = Fraction(float(data_fidelity))
        frac = exact.limit_denominator(MAX_DENOMINATOR)
        if frac <= 0:
            raise ValueError(
                f"data_fidelity={data_fidelity!r} is too small to be represented with "
                f"integer weights; use a value of at least {1 / MAX_DENOMINATOR}."
            )
        meant = float(frac) == float(data_fidelity)  # 0.1 is 1/10, 1/3 is 1/3
        if not meant and n_rows is not None and 1 <= n_rows <= MAX_DENOMINATOR // 2:
            lower, upper = _neighbours(exact, int(n_rows))
            if not lower < frac < upper:
                # their mediant, of denominator at most 2·n_rows, is strictly between: so
                # is one of λ's neighbours of denominator at most 10⁶
                inside = [f for f in _neighbours(exact, MAX_DENOMINATOR) if lower < f < upper]
                frac = min(inside, key=lambda f: abs(f - exact))
        return cls(literal=frac.denominator, noise=frac.numerator)

    def cost(self, size: int, errors: int) -> int:
        """Scaled objective ``q·size + p·errors``.

        Parameters
        ----------
        size : int
            Number of literals in the rule.
        errors : int
            Number (or total weight) of misclassified rows.

        Returns
        -------
        int
            The cost in integer weights.
        """
        return self.literal * int(size) + self.noise * int(errors)

    def objective(self, cost: int) -> float:
        """A scaled cost in literal units: ``|R| + λ·|E|``.

        Parameters
        ----------
        cost : int
            A cost in integer weights, as :meth:`cost` gives.

        Returns
        -------
        float
            ``cost / q``.
        """
        return cost / self.literal


@dataclass(frozen=True)
class Constraints:
    """Interpretability constraints over literal indices (JAIR 2022, extensions).

    Parameters
    ----------
    allowed : ndarray of bool, shape (2m,), optional
        Literals the rule may use (excluded features are ``False``); ``None``: all.
    required : tuple of ndarray, default=()
        One array of literal indices per required feature: every clause of the rule
        contains one (the rule may have fewer than ``n_clauses`` clauses, or none).
    disjoint : {None, "hard", "soft"}, default=None
        Each feature in at most one clause (soft: each violation costs one literal).
    feature_of : ndarray of int, shape (2m,), optional
        Feature index of each literal (needed by ``required`` and ``disjoint``).
    taken : tuple of int, default=()
        With ``disjoint``, features that clauses learned earlier already use (clause-by-
        clause learning, see :meth:`after`): their literals are left out (hard), or a
        clause using one is charged one literal per such feature (soft).
    """

    allowed: np.ndarray | None = None
    required: tuple[np.ndarray, ...] = ()
    disjoint: str | None = None
    feature_of: np.ndarray | None = field(default=None, repr=False)
    taken: tuple[int, ...] = ()

    def after(self, clauses: Sequence[frozenset[int]]) -> Constraints:
        """The constraints of a clause learned after ``clauses`` (each feature in one).

        Parameters
        ----------
        clauses : sequence of frozenset of int
            The clauses learned so far, as sets of literal indices.

        Returns
        -------
        Constraints
            These constraints with the clauses' features added to ``taken`` (unchanged
            without ``disjoint`` or ``feature_of``).
        """
        if self.disjoint is None or self.feature_of is None or not clauses:
            return self
        used = {int(self.feature_of[j]) for clause in clauses for j in clause}
        return replace(self, taken=tuple(sorted(used.union(self.taken))))

    def usable(self, n_literals: int, charged_too: bool = False) -> np.ndarray:
        """Literals a clause may use.

        Parameters
        ----------
        n_literals : int
            Number of literals (``2m``).
        charged_too : bool, default=False
            Leave out the literals of taken features under soft disjointness as well.

        Returns
        -------
        ndarray of bool of shape (n_literals,)
            Allowed literals not of a taken feature under hard disjointness (or soft too,
            with ``charged_too``).
        """
        usable = np.ones(n_literals, bool) if self.allowed is None else self.allowed.copy()
        if self.taken and (self.disjoint == "hard" or charged_too):
            usable &= ~np.isin(self.feature_of, self.taken)
        return usable

    @property
    def by_feature(self) -> bool:
        """Whether literal groups must not mix features."""
        return bool(self.required) or self.disjoint is not None


@dataclass
class Query:
    """An encoded MaxSAT query and what decoding needs.

    Parameters
    ----------
    wcnf : pysat.formula.WCNF
        The weighted formula.
    pool : pysat.formula.IDPool
        The variables, keyed by meaning (``pool.obj(v)`` decodes one).
    n_clauses : int
        Number of clauses ``k``.
    groups : list of ndarray
        Literal indices of each group of candidate literals with identical columns (one
        variable per group and clause).
    used : ndarray of int of shape (k,)
        Variable of each clause saying that it is part of the rule.
    b : ndarray of int of shape (k, n_groups)
        Variable saying that clause ``l`` holds group ``g``.
    preferred : list of dict
        Per clause, the previous rule's literals of each group (from ``previous``).
    weights : Weights
        The integer weights the query uses.
    unavoidable : int
        Weight of the rows every rule misclassifies (merged out; see :attr:`offset`).
    """

    wcnf: WCNF
    pool: IDPool
    n_clauses: int
    groups: list[np.ndarray]
    used: np.ndarray
    b: np.ndarray
    preferred: list[dict[int, np.ndarray]]
    weights: Weights
    unavoidable: int

    @property
    def offset(self) -> int:
        """Scaled cost of the rows every rule misclassifies."""
        return self.weights.noise * self.unavoidable

    def to_dimacs(self, path: str) -> None:
        """Write the query as a DIMACS WCNF file (MaxSAT Evaluation 2022 format).

        Parameters
        ----------
        path : str or Path
            Where to write.
        """
        self.wcnf.to_file(str(path))


def _lex(pool: IDPool, l: int, a: list[int], b: list[int], hard: list) -> None:
    """Clause ``l`` ≥lex clause ``l+1`` over the group order (symmetry breaking)."""
    prev = None
    for g, (x, y) in enumerate(zip(a, b)):
        guard = [] if prev is None else [-prev]
        hard.append(guard + [x, -y])
        if g == len(a) - 1:
            break
        e = pool.id(("lex", l, g))
        hard.append(guard + [-x, -y, e])
        hard.append(guard + [x, y, e])
        prev = e


def _slot_previous(previous, groups, n_clauses, member_of):
    """Order the previous clauses to agree with the symmetry-breaking order."""
    clauses: list[frozenset[int] | None] = [frozenset(c) for c in previous][:n_clauses]
    clauses += [None] * (n_clauses - len(clauses))

    def vector(c):
        bits = np.zeros(len(groups) + 1, dtype=np.int8)
        if c is not None:
            bits[0] = 1
            for j in c:
                if j in member_of:
                    bits[member_of[j] + 1] = 1
        return tuple(bits.tolist())

    return [c or frozenset() for c in sorted(clauses, key=vector, reverse=True)]


def encode(
    rows: WeightedRows,
    n_clauses: int,
    weights: Weights,
    constraints: Constraints | None = None,
    previous: Sequence[frozenset[int]] | None = None,
    symmetry_breaking: bool = True,
    prune: bool = True,
    expired: Callable[[], bool] | None = None,
) -> Query:
    """Encode learning a ``n_clauses``-clause CNF on weighted rows as weighted MaxSAT.

    Parameters
    ----------
    rows : WeightedRows
        Distinct rows with labels (``True`` = the CNF should hold) and multiplicities.
    n_clauses : int
        Number of clauses ``k``.
    weights : Weights
        Integer weights of a literal and of a misclassified row.
    constraints : Constraints, optional
        Allowed literals and interpretability constraints.
    previous : sequence of frozenset of int, optional
        The previous mini-batch's rule: its literals become weight-``q`` positive
        preferences (AIES 2019 §4.1).
    symmetry_breaking : bool, default=True
        Order the clauses lexicographically (they are interchangeable otherwise); not
        with ``previous``, whose preferences make them differ.
    prune : bool, default=True
        Leave out dominated literals (see :func:`imli.reduction.undominated`); the optimum is unchanged.
    expired : callable, optional
        Called between the steps of the encoding (and of the dominance test), which take
        seconds on wide tables; when it returns True, :class:`OutOfTime` is raised.

    Returns
    -------
    Query
        The WCNF with its variable pool and what :func:`decode` needs.

    Raises
    ------
    OutOfTime
        If ``expired()`` turned True.
    """
    constraints = constraints or Constraints()
    k = int(n_clauses)
    L = literal_matrix(rows.X)
    n_lit = L.shape[1]
    prev_lits = set().union(*previous) if previous else set()
    keep = constraints.usable(n_lit)
    if not constraints.required:
        # a literal false on every row only costs, unless the previous rule prefers it
        useless = ~L.any(axis=0)
        useless[list(prev_lits)] = False
        keep &= ~useless
    candidates = np.flatnonzero(keep)
    feature_of = constraints.feature_of if constraints.by_feature else None
    groups = group_literals(L, candidates, feature_of)
    _check(expired)
    if prune:
        groups = undominated(L, rows.labels, groups, prev_lits, feature_of, expired)
        _check(expired)
    member_of = {int(j): g for g, members in enumerate(groups) for j in members}
    reps = np.array([g[0] for g in groups], dtype=np.int64)

    pool = IDPool()
    b = np.array(
        [[pool.id(("b", l, int(j))) for j in reps] for l in range(k)], dtype=np.int64
    ).reshape(k, len(groups))
    d = len(rows)
    eta = np.array([pool.id(("eta", i)) for i in range(d)], dtype=np.int64)
    hard: list[list[int]] = []
    soft: list[list[int]] = []
    wght: list[int] = []

    used = np.array([pool.id(("used", l)) for l in range(k)], dtype=np.int64)
    G = L[:, reps] if len(groups) else np.zeros((d, 0), dtype=bool)
    pos = np.flatnonzero(rows.labels)
    neg = np.flatnonzero(~rows.labels)
    # positive rows: every used clause holds (unless noise)
    ri, gi = np.nonzero(G[pos])
    splits = np.cumsum(np.bincount(ri, minlength=pos.size))[:-1]
    for l in range(k):
        head = [-int(used[l])]
        for i, lits in zip(pos.tolist(), np.split(b[l][gi], splits)):
            hard.append([int(eta[i])] + head + lits.tolist())
    # negative rows: some used clause fails (unless noise)
    ri, gi = np.nonzero(G[neg])
    if k == 1:
        hard.extend([[int(e), int(used[0])] for e in eta[neg]])
        hard.extend(np.column_stack([eta[neg][ri], -b[0][gi]]).tolist())
    elif k > 1:
        z = np.array(
            [[pool.id(("z", int(i), l)) for l in range(k)] for i in neg], dtype=np.int64
        ).reshape(neg.size, k)
        hard.extend(np.column_stack([eta[neg], z]).tolist())
        for l in range(k):
            hard.extend([[-int(v), int(used[l])] for v in z[:, l]])
            hard.extend(np.column_stack([-z[ri, l], -b[l][gi]]).tolist())
    # a clause that is left out has no literals
    for l in range(k):
        hard.extend([[-int(v), int(used[l])] for v in b[l]])

    _check(expired)
    # soft clauses: few literals (or the previous rule's), few errors
    slots = _slot_previous(previous or [], groups, k, member_of)
    preferred: list[dict[int, np.ndarray]] = []
    for l in range(k):
        pref: dict[int, list[int]] = {}
        for j in slots[l]:
            if j in member_of:
                pref.setdefault(member_of[j], []).append(int(j))
        preferred.append({g: np.array(sorted(v)) for g, v in pref.items()})
        for g in range(len(groups)):
            var = int(b[l, g])
            if g in pref:
                soft.append([var])
                wght.append(weights.literal * len(pref[g]))
            else:
                soft.append([-var])
                wght.append(weights.literal)
    soft.extend([[-int(v)] for v in eta])
    wght.extend((weights.noise * rows.weights).tolist())

    if prune and k > 0:
        # a required feature's literal may be what makes a clause meet the constraint
        required = {int(j) for lits in constraints.required for j in lits}
        pairs = redundant_pairs(G, groups, prev_lits | required)
        _check(expired)
        if len(pairs):
            # ¬b[l,a] ∨ ¬b[l,c] for each pair (a, c), then each clause l
            both = np.stack([-b[:, pairs[:, 0]], -b[:, pairs[:, 1]]], axis=-1)
            hard.extend(both.transpose(1, 0, 2).reshape(-1, 2).tolist())
    _constraints(constraints, groups, b, used, pool, hard, soft, wght, weights)
    # the previous rule's preferences tell the clauses apart: ordering them could cut off
    # the optimum
    if symmetry_breaking and k > 1 and len(groups) > 0 and not previous:
        for l in range(k - 1):
            a = [int(used[l])] + b[l].tolist()
            _lex(pool, l, a, [int(used[l + 1])] + b[l + 1].tolist(), hard)

    _check(expired)
    wcnf = WCNF()
    wcnf.hard, wcnf.soft, wcnf.wght = hard, soft, [int(w) for w in wght]
    wcnf.nv = pool.top
    wcnf.topw = sum(wcnf.wght) + 1
    return Query(wcnf, pool, k, groups, used, b, preferred, weights, rows.unavoidable)


def _constraints(constraints, groups, b, used, pool, hard, soft, wght, weights) -> None:
    """Required features (hard), features in at most one clause (hard or soft)."""
    if not constraints.by_feature:
        return
    k = b.shape[0]
    group_feature = np.array([constraints.feature_of[g[0]] for g in groups], dtype=np.int64)
    for lits in constraints.required:
        f = constraints.feature_of[lits[0]]
        mine = np.flatnonzero(group_feature == f)
        if mine.size == 0:
            raise ValueError(
                "A required feature has no usable literal (is it also excluded?)."
            )
        for l in range(k):  # each clause of the rule (a rule may have fewer than k)
            hard.append([-int(used[l])] + b[l, mine].tolist())
    if constraints.disjoint == "soft":
        for f in constraints.taken:
            mine = np.flatnonzero(group_feature == f)
            if not mine.size:
                continue
            for l in range(k):
                charged = pool.id(("t", l, f))
                hard.extend([[-int(v), charged] for v in b[l, mine]])
                soft.append([-charged])
                wght.append(weights.literal)
    if constraints.disjoint is None or k < 2:
        return
    for f in np.unique(group_feature).tolist():
        mine = np.flatnonzero(group_feature == f)
        holds = [pool.id(("u", l, f)) for l in range(k)]
        for l in range(k):
            hard.extend([[-int(v), holds[l]] for v in b[l, mine]])
        enc = EncType.pairwise if k <= 4 else EncType.seqcounter
        card = CardEnc.atmost(lits=holds, bound=1, vpool=pool, encoding=enc)
        if constraints.disjoint == "hard":
            hard.extend(card.clauses)
        else:
            relax = pool.id(("r", f))
            hard.extend([c + [relax] for c in card.clauses])
            soft.append([-relax])
            wght.append(weights.literal)


def decode(query: Query, model: Sequence[int] | np.ndarray) -> tuple[frozenset[int], ...]:
    """Read the clauses (as sets of literal indices) from a model of the query.

    Parameters
    ----------
    query : Query
        The query the model solves.
    model : sequence of int
        Signed literals of a satisfying assignment (as returned by RC2).

    Returns
    -------
    tuple of frozenset of int
        One set of literal indices per used clause (clauses left out are omitted).
    """
    truth = np.zeros(query.pool.top + 1, dtype=bool)
    lits = np.asarray(model, dtype=np.int64)
    lits = lits[(lits > 0) & (lits <= query.pool.top)]
    truth[lits] = True
    clauses = []
    for l in range(query.n_clauses):
        if not truth[query.used[l]]:
            continue
        chosen: set[int] = set()
        for g in np.flatnonzero(truth[query.b[l]]).tolist():
            pref = query.preferred[l].get(g)
            if pref is not None:
                chosen.update(int(j) for j in pref)
            else:
                chosen.add(int(query.groups[g][0]))
        clauses.append(frozenset(chosen))
    return tuple(clauses)
