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
row vector times the literal matrix. Swapping a literal ``j`` of a clause for another reopens
the rows the clause is closed on plus the rows only ``j`` holds it open on; the latter are
disjoint over the clause's literals, so all of a clause's swaps cost one sparse product with
at most one entry per row, not one dense product per literal (a rule of hundreds of
literals made every step that many times dearer). Costs are integers (the scaled weights of
:class:`~imli.encoding.Weights`), computed exactly; ties go to the first move in a fixed
order, so the result is deterministic.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from functools import cache
from typing import Callable

import numpy as np
from scipy import sparse
from threadpoolctl import ThreadpoolController

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

    def weighted_sums(self, Vs: list, budget: Budget) -> list[np.ndarray] | None:
        """``V @ L`` for each (families, rows) matrix ``V`` of ``Vs`` (dense or sparse), as
        float64 arrays; ``None`` if the budget runs out between two blocks (on millions of
        rows one product takes seconds)."""
        outs = [np.zeros((V.shape[0], self.X.shape[1])) for V in Vs]
        for b, start in enumerate(range(0, self.X.shape[0], _BLOCK_ROWS)):
            if b and budget.expired():
                return None
            block = self.cached[b] if self.cached is not None else self._block(start)
            for V, out in zip(Vs, outs):
                part = V[:, start:start + _BLOCK_ROWS].astype(self.dtype)
                if sparse.issparse(block):
                    got = (block.T @ part.T).T
                else:
                    got = part @ block
                out += got.toarray() if sparse.issparse(got) else got
        return [np.hstack([out, np.asarray(V.sum(axis=1)).reshape(-1, 1) - out])
                for V, out in zip(Vs, outs)]


class _Search:
    """The current rule, what it predicts, and the moves of one step.

    A family of moves is priced by one row of a product with the literal matrix: either a
    dense per-row vector of its own, or (a clause's swaps) a dense vector shared by the
    clause plus one row of a sparse matrix holding each literal's own rows.
    """

    def __init__(self, setting: Setting, data: Data, rule: Rule) -> None:
        self.setting, self.rule = setting, rule
        rows = data.rows
        # flip[i]: change in weighted errors when row i's prediction turns False -> True
        self.flip = rows.weights * np.where(rows.labels, -1.0, 1.0)
        self.members = [sorted(c) for c in rule]
        self.columns = [data.by_column[:, m] for m in self.members]
        self.truth = [c.any(axis=1) for c in self.columns]
        self.counts = [c.sum(axis=1) for c in self.columns]
        self.predicted = np.ones(len(rows), dtype=bool)
        for t in self.truth:
            self.predicted &= t
        self.best: tuple[float, Rule] | None = None
        self.vectors: list[np.ndarray] = []
        self.swap_cells: list[tuple[np.ndarray, np.ndarray]] = []  # (swap row, data row)
        self.n_swaps = 0
        # (dense vector, swap row or None, base, size, allowed literals, move of a literal)
        self.families: list[tuple[int, int | None, float, int, np.ndarray, Callable]] = []

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
               make: Callable[[int], Rule]) -> int | None:
        """Moves ``make(j)`` for each allowed ``j`` in ``targets``: the scaled cost changes
        by ``size + p·(base + Σ flip over rows where j holds)``. Returns the family's
        vector, for swaps to share (``None`` if no literal is allowed)."""
        if not targets.any():
            return None
        self.vectors.append(self.flip * rows)
        self.families.append((len(self.vectors) - 1, None, base, size, targets, make))
        return len(self.vectors) - 1

    def swaps(self, owner: np.ndarray, rows: np.ndarray, n: int) -> int:
        """Add ``n`` sparse rows, row ``i`` holding ``flip`` at the ``rows`` whose
        ``owner`` is ``i``; returns the first one's index."""
        first = self.n_swaps
        self.swap_cells.append((first + owner, rows))
        self.n_swaps += n
        return first

    def swap(self, shared: int, extra: int, base: float, targets: np.ndarray,
             make: Callable[[int], Rule]) -> None:
        """Moves over the rows of vector ``shared`` and of sparse row ``extra``."""
        self.families.append((shared, extra, base, 0, targets, make))

    def swap_matrix(self) -> sparse.csr_array:
        """The sparse rows of :meth:`swaps`: at most one cell per data row and clause."""
        owner = np.concatenate([o for o, _ in self.swap_cells] or [np.zeros(0, int)])
        rows = np.concatenate([r for _, r in self.swap_cells] or [np.zeros(0, int)])
        return sparse.csr_array((self.flip[rows], (owner, rows)),
                                shape=(self.n_swaps, len(self.flip)))


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


def _moves(search: _Search, n_clauses: int) -> None:
    """Enumerate every move of one step into ``search``."""
    setting, rule = search.setting, search.rule
    q, p = setting.weights.literal, setting.weights.noise
    for l, clause in enumerate(rule):
        others = search.others(l)
        targets = _targets(setting, rule, l)
        closed = others & ~search.truth[l]  # rows this clause alone makes False
        shared = search.family(closed, 0.0, q, targets,
                               lambda j, l=l, c=clause: _replace(rule, l, c | {j}))
        search.consider(p * float(search.flip[closed].sum()) - q * len(clause),
                        rule[:l] + rule[l + 1:])
        # rows that only one literal of the clause holds open: False once it is gone
        single = np.flatnonzero(others & (search.counts[l] == 1))
        members = search.members[l]
        owner = (np.argmax(search.columns[l][single], axis=1) if members
                 else np.zeros(0, dtype=np.intp))  # an empty clause holds on no row
        drops = -np.bincount(owner, weights=search.flip[single], minlength=len(members))
        if shared is not None:
            first = search.swaps(owner, single, len(members))
        for i, j in enumerate(members):
            if not _removable(setting, clause, j):
                continue
            rest = clause - {j}
            if rest:
                search.consider(p * float(drops[i]) - q, _replace(rule, l, rest))
            if shared is not None:
                search.swap(shared, first + i, float(drops[i]), targets,
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
        sums = literals.weighted_sums([np.vstack(search.vectors), search.swap_matrix()],
                                      budget)
        if sums is None:
            return None
        dense, extra = sums
        shared, swap, base, size, targets, make = zip(*search.families)
        rows = dense[list(shared)]
        swapped = [f for f, k in enumerate(swap) if k is not None]
        rows[swapped] += extra[[swap[f] for f in swapped]]
        delta = np.where(np.vstack(targets),
                         np.array(size)[:, None] + p * (np.array(base)[:, None] + rows),
                         np.inf)
        # the first family with the lowest cost, and its first literal: the order a
        # family-by-family search would keep
        best = delta.min(axis=1)
        f = int(np.argmin(best))
        j = int(np.argmin(delta[f]))
        search.consider(float(delta[f, j]), make[f](j))
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
    with one_blas_thread():
        while not budget.expired():
            search = _Search(setting, data, rule)
            _moves(search, n_clauses)
            found = _best(search, literals, budget)
            if found is None and budget.expired():  # the step itself ran out of time
                budget.timed_out = True
            if found is None or found[0] >= 0:
                break
            rule = found[1]
        else:  # a move might have been left: the fit was cut short
            budget.timed_out = True
    return tuple(rule)


@cache
def _blas() -> ThreadpoolController:
    # the libraries are found once: a limit then costs microseconds, not milliseconds
    return ThreadpoolController()


_limit_lock = threading.Lock()
_limit_users = 0
_limiter = None


@contextmanager
def one_blas_thread():
    """One BLAS thread while the block runs, in every thread of the process. Polishes
    running at once in several threads share one limit, set by the first to start and
    lifted by the last to end: a limit each would restore the count another had set, and
    could leave the process on one thread for good. The last lifts it only while a
    library still has one thread: if someone else (FOLD's own limit, the user) has set
    another count since, that one stands."""
    global _limit_users, _limiter
    with _limit_lock:
        if _limit_users == 0:
            _limiter = _blas().limit(limits=1, user_api="blas")
        _limit_users += 1
    try:
        yield
    finally:
        with _limit_lock:
            _limit_users -= 1
            if _limit_users == 0:
                if any(lib.num_threads == 1
                       for lib in _blas().select(user_api="blas").lib_controllers):
                    _limiter.restore_original_limits()
                _limiter = None
