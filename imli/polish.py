"""Local search that polishes a learned CNF on all training rows.

Mini-batch and clause-by-clause learning see a few rows at a time, so the rule they return
is seldom a local optimum of ``|R| + λ·|E|`` on the whole training set. :func:`polish`
repeatedly makes the best of these moves, each evaluated exactly on every (weighted)
training row:

* add a literal to a clause, or swap one of its literals for another;
* drop a literal from a clause, or a whole clause;
* add a one-literal clause while the rule has fewer than ``n_clauses`` clauses;

and stops when no move strictly lowers the objective (or the time budget is spent). A move
never uses an excluded literal, never removes a required feature's last literal from a
clause, and never puts a feature into a second clause when features must be disjoint, so
the polished rule meets the same constraints as the one it started from.

One step costs a single matrix product: for a given clause (and a given literal taken out
of it), the rows whose prediction a new literal ``j`` would flip are the rows of a fixed set
where ``j`` is true, so the change in errors of every choice of ``j`` is one weighted
row vector times the literal matrix. Costs are integers (the scaled weights of
:class:`~imli.encoding.Weights`), computed exactly; ties go to the first move in a fixed
order, so the result is deterministic.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
from scipy import sparse
from threadpoolctl import threadpool_limits

from .strategies import Budget, Clauses, Data, Setting

__all__ = ["polish"]

#: Total row weight below which float32 sums of integer weights are exact.
_FLOAT32_EXACT = 2**24
#: Rows per block of the literal matrix's float copy, and the most cells kept in memory.
_BLOCK_ROWS = 2**16
_CACHED_CELLS = 2**26
#: Share of true cells below which a block of columns is multiplied as a sparse matrix.
_SPARSE_DENSITY = 0.1

Rule = list[frozenset[int]]


class _Literals:
    """The literal matrix as floats, for products with per-row weight vectors.

    Only its first half, the columns, is multiplied: the complements' sums are each
    family's total weight less those (``L = [X, ~X]``). A sparse block of columns (one-hot
    categories) is kept sparse, so a step costs the nonzero cells rather than rows times
    columns: thousands of categories made each step, and the whole search, hundreds of
    times slower. Integer sums are exact: float32 while the total row weight stays below
    2**24, float64 otherwise. Up to :data:`_CACHED_CELLS` cells the float copy is made
    once; beyond that it is made block by block for every product, so memory stays bounded
    on huge inputs.
    """

    def __init__(self, data: Data) -> None:
        self.X = data.L[:, :data.L.shape[1] // 2]
        self.dtype = np.float32 if data.rows.weights.sum() < _FLOAT32_EXACT else np.float64
        self.cached = (
            [self._block(s) for s in range(0, self.X.shape[0], _BLOCK_ROWS)]
            if self.X.size <= _CACHED_CELLS else None
        )

    def _block(self, start: int):
        block = self.X[start:start + _BLOCK_ROWS]
        if block.size and np.count_nonzero(block) <= _SPARSE_DENSITY * block.size:
            return sparse.csc_array(block, dtype=self.dtype)
        return block.astype(self.dtype)

    def weighted_sums(self, V: np.ndarray, budget: Budget) -> np.ndarray | None:
        """``V @ L`` for a (families, rows) matrix ``V``, as float64; ``None`` if the budget
        runs out between two blocks (on millions of rows one product takes seconds)."""
        out = np.zeros((V.shape[0], self.X.shape[1]))
        for b, start in enumerate(range(0, self.X.shape[0], _BLOCK_ROWS)):
            if b and budget.expired():
                return None
            block = self.cached[b] if self.cached is not None else self._block(start)
            part = V[:, start:start + _BLOCK_ROWS].astype(self.dtype)
            out += (block.T @ part.T).T if sparse.issparse(block) else part @ block
        return np.hstack([out, V.sum(axis=1)[:, None] - out])


class _Search:
    """The current rule, what it predicts, and the best move found in one step."""

    def __init__(self, setting: Setting, data: Data, rule: Rule) -> None:
        self.setting, self.rule = setting, rule
        L, rows = data.L, data.rows
        # flip[i]: change in weighted errors when row i's prediction turns False -> True
        self.flip = rows.weights * np.where(rows.labels, -1.0, 1.0)
        self.truth = [L[:, sorted(c)].any(axis=1) for c in rule]
        self.counts = [L[:, sorted(c)].sum(axis=1) for c in rule]
        self.predicted = np.ones(len(rows), dtype=bool)
        for t in self.truth:
            self.predicted &= t
        self.best: tuple[float, Rule] | None = None
        self.families: list[tuple[np.ndarray, float, int, np.ndarray, Callable]] = []

    def others(self, l: int) -> np.ndarray:
        """Rows where every clause but ``l`` holds."""
        out = np.ones_like(self.predicted)
        for i, t in enumerate(self.truth):
            if i != l:
                out &= t
        return out

    def consider(self, delta: float, rule: Rule) -> None:
        """Keep ``rule`` if its change in scaled cost is the lowest so far."""
        if self.best is None or delta < self.best[0]:
            self.best = (delta, rule)

    def family(self, rows: np.ndarray, base: float, size: int, targets: np.ndarray,
               make: Callable[[int], Rule]) -> None:
        """Moves ``make(j)`` for each allowed ``j`` in ``targets``: the scaled cost changes
        by ``size + p·(base + Σ flip over rows where j holds)``."""
        if targets.any():
            self.families.append((self.flip * rows, base, size, targets, make))


def _replace(rule: Rule, l: int, clause: frozenset[int]) -> Rule:
    return rule[:l] + [clause] + rule[l + 1:]


def _targets(setting: Setting, rule: Rule, l: int) -> np.ndarray:
    """Literals that may enter clause ``l`` (``l == len(rule)``: a new clause)."""
    c = setting.constraints
    n = setting.space.n_literals
    ok = np.ones(n, dtype=bool) if c.allowed is None else c.allowed.copy()
    if l < len(rule):
        ok[sorted(rule[l])] = False
    if c.disjoint is not None and c.feature_of is not None:
        taken = {int(c.feature_of[j]) for i, cl in enumerate(rule) if i != l for j in cl}
        ok &= ~np.isin(c.feature_of, sorted(taken))
    return ok


def _removable(setting: Setting, clause: frozenset[int], j: int) -> bool:
    """Whether ``j`` is not the last literal of a required feature in ``clause``."""
    for group in setting.constraints.required:
        members = clause.intersection(group.tolist())
        if members == {j}:
            return False
    return True


def _moves(search: _Search, data: Data, n_clauses: int) -> None:
    """Enumerate every move of one step into ``search``."""
    setting, rule, L = search.setting, search.rule, data.L
    q, p = setting.weights.literal, setting.weights.noise
    for l, clause in enumerate(rule):
        others = search.others(l)
        targets = _targets(setting, rule, l)
        closed = others & ~search.truth[l]  # rows this clause alone makes False
        search.family(closed, 0.0, q, targets, lambda j, l=l, c=clause: _replace(rule, l, c | {j}))
        search.consider(p * float(search.flip[closed].sum()) - q * len(clause),
                        rule[:l] + rule[l + 1:])
        for j in sorted(clause):
            if not _removable(setting, clause, j):
                continue
            rest = clause - {j}
            reopened = others & (search.counts[l] == L[:, j])  # False once j is gone
            drop = -float(search.flip[reopened & L[:, j]].sum())
            if rest:
                search.consider(p * drop - q, _replace(rule, l, rest))
            search.family(reopened, drop, 0, targets,
                          lambda k, l=l, r=rest: _replace(rule, l, r | {k}))
    if len(rule) < n_clauses and not setting.constraints.required:
        # a new clause {j}: predicted rows where j is false turn False
        predicted = search.predicted
        search.family(predicted, -float(search.flip[predicted].sum()), q,
                      _targets(setting, rule, len(rule)), lambda j: rule + [frozenset({j})])


def _best(search: _Search, literals: _Literals, budget: Budget) -> tuple[float, Rule] | None:
    """The lowest-cost move of the step (``None`` if there is none, or if the budget ran out
    before every move was priced)."""
    p = search.setting.weights.noise
    if search.families:
        gains = literals.weighted_sums(np.vstack([v for v, *_ in search.families]), budget)
        if gains is None:
            return None
        for row, (_, base, size, targets, make) in zip(gains, search.families):
            delta = np.where(targets, size + p * (base + row), np.inf)
            j = int(np.argmin(delta))
            search.consider(float(delta[j]), make(j))
    return search.best


def polish(setting: Setting, data: Data, clauses: Clauses, n_clauses: int,
           budget: Budget) -> Clauses:
    """Improve a CNF by local search until no move strictly lowers ``|R| + λ·|E|``.

    Parameters
    ----------
    setting : Setting
        Weights, literal space and constraints (the same as for learning).
    data : Data
        All training rows (CNF form: ``True`` rows should satisfy the rule).
    clauses : tuple of frozenset of int
        The rule to start from.
    n_clauses : int
        Most clauses the rule may have.
    budget : Budget
        Stops once the time limit has passed: between steps, or within a step between two
        blocks of rows (that step's move is then not made).

    Returns
    -------
    tuple of frozenset of int
        A rule whose objective on ``data`` is at most that of ``clauses``.
    """
    literals = _Literals(data)
    rule = [frozenset(c) for c in clauses]
    # The products have a few dozen rows: one BLAS thread is about as fast on an idle
    # machine and many times faster when the cores are shared.
    with threadpool_limits(limits=1, user_api="blas"):
        while not budget.expired():
            search = _Search(setting, data, rule)
            _moves(search, data, n_clauses)
            found = _best(search, literals, budget)
            if found is None or found[0] >= 0:
                break
            rule = found[1]
    return tuple(rule)
