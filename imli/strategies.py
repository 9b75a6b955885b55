"""How CNF rules are learned: one query (MLIC), mini-batches (IMLI), clause by clause.

All functions work in *CNF form*: a row's label is ``True`` when the CNF should hold on it
(DNF, decision-list and decision-set learning call them on complemented labels). Clauses are
frozensets of literal indices (see :mod:`imli.literals`).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cached_property

import numpy as np

from .encoding import Constraints, OutOfTime, Query, Weights, decode, encode
from .greedy import greedy_cnf
from .literals import LiteralSpace, literal_matrix
from .redundancy import simplify
from .rows import WeightedRows
from .solver import SolverConfig, solve

__all__ = [
    "Budget",
    "Data",
    "Result",
    "Setting",
    "best_of",
    "greedy",
    "iterative",
    "joint",
    "minibatch",
    "predict_cnf",
]

Clauses = tuple[frozenset[int], ...]
#: Rows per mini-batch of the anytime incumbent computed before a time-limited joint query.
INCUMBENT_BATCH = 100
#: Share of the time limit the incumbent may use.
INCUMBENT_SHARE = 0.25


@dataclass
class Budget:
    """Wall-clock budget of one fit, and what happened to it."""

    seconds: float | None
    start: float = field(default_factory=time.monotonic)
    timed_out: bool = False
    n_queries: int = 0

    def __post_init__(self) -> None:
        # a numpy scalar limit would reach threading's join, which refuses it mid-fit
        if self.seconds is not None:
            self.seconds = float(self.seconds)

    def remaining(self) -> float | None:
        """Seconds left (``None``: unlimited)."""
        if self.seconds is None:
            return None
        return self.seconds - (time.monotonic() - self.start)

    def expired(self) -> bool:
        """Whether the limit has passed."""
        left = self.remaining()
        return left is not None and left <= 0

    def share(self, fraction: float) -> Budget:
        """A budget ending after ``fraction`` of the time left."""
        left = self.remaining()
        return Budget(None if left is None else max(left, 0.0) * fraction)

    def absorb(self, part: Budget) -> None:
        """Count the queries and the time-out of ``part`` (a :meth:`share`) as this one's."""
        if part is not self:
            self.n_queries += part.n_queries
            self.timed_out = self.timed_out or part.timed_out


@dataclass(frozen=True)
class Setting:
    """Everything a query needs besides the rows."""

    weights: Weights
    space: LiteralSpace
    constraints: Constraints = field(default_factory=Constraints)
    solver: SolverConfig = field(default_factory=SolverConfig)
    symmetry_breaking: bool = True

    def after(self, clauses) -> Setting:
        """The setting of a clause (or rule) learned after ``clauses``
        (see :meth:`Constraints.after`)."""
        return replace(self, constraints=self.constraints.after(clauses))


@dataclass(frozen=True)
class Data:
    """Weighted rows with their literal matrix."""

    rows: WeightedRows
    L: np.ndarray

    @classmethod
    def of(cls, rows: WeightedRows) -> Data:
        """Attach the literal matrix."""
        return cls(rows, literal_matrix(rows.X))

    def subset(self, index: np.ndarray) -> Data:
        """Rows at ``index``."""
        return Data(self.rows.subset(index), self.L[index])

    @cached_property
    def by_column(self) -> np.ndarray:
        """``L`` stored column by column: a clause reads whole columns (7x faster)."""
        return np.asfortranarray(self.L)


@dataclass(frozen=True)
class Result:
    """A learned CNF (literal sets), whether it is a proven optimum, and its cost."""

    clauses: Clauses
    optimal: bool
    cost: int


def predict_cnf(clauses: Clauses, L: np.ndarray) -> np.ndarray:
    """Truth of the CNF on every row of the literal matrix ``L``."""
    out = np.ones(L.shape[0], dtype=bool)
    for clause in clauses:
        out &= L[:, sorted(clause)].any(axis=1) if clause else False
    return out


def charged(constraints: Constraints, clauses: Clauses) -> int:
    """Literals soft disjointness charges, as the query does: one for each feature that
    several clauses use, and one for each clause using a feature an earlier clause took."""
    if constraints.disjoint != "soft" or constraints.feature_of is None:
        return 0
    features = [{int(constraints.feature_of[j]) for j in c} for c in clauses]
    counts = Counter(f for used in features for f in used)
    taken = set(constraints.taken)
    return (sum(n > 1 for n in counts.values())
            + sum(len(used & taken) for used in features))


def cost(setting: Setting, clauses: Clauses, data: Data) -> int:
    """Scaled objective ``q·|R| + p·|E|`` on ``data``, with the literals soft
    disjointness charges (the objective the query minimises)."""
    size = sum(len(c) for c in clauses) + charged(setting.constraints, clauses)
    return setting.weights.cost(size, data.rows.errors(predict_cnf(clauses, data.by_column)))


def _hint(query: Query, clauses: Clauses) -> list[int]:
    """A partial assignment of ``query`` that encodes ``clauses`` (for CP-SAT)."""
    member_of = {int(j): g for g, members in enumerate(query.groups) for j in members}
    hint = []
    for l in range(query.n_clauses):
        chosen = set()
        if l < len(clauses):
            chosen = {member_of[j] for j in clauses[l] if j in member_of}
        hint.append(int(query.used[l]) if l < len(clauses) else -int(query.used[l]))
        hint.extend(int(v) if g in chosen else -int(v) for g, v in enumerate(query.b[l]))
    return hint


def run_query(
    setting: Setting,
    data: Data,
    n_clauses: int,
    budget: Budget,
    previous: Clauses | None = None,
    hint: Clauses | None = None,
) -> tuple[Clauses | None, bool]:
    """Encode → solve → decode → simplify one query; ``(None, False)`` on a time-out."""
    if budget.expired():
        budget.timed_out = True
        return None, False
    try:
        query = encode(
            data.rows,
            n_clauses,
            setting.weights,
            setting.constraints,
            previous,
            setting.symmetry_breaking,
            expired=budget.expired,
        )
    except OutOfTime:
        budget.timed_out = True
        return None, False
    solution = solve(
        query.wcnf,
        setting.solver,
        budget.remaining(),
        hint=_hint(query, hint) if hint is not None else None,
    )
    budget.n_queries += 1
    if not solution.optimal:
        budget.timed_out = True
    if solution.model is None:
        return None, False
    clauses = simplify(decode(query, solution.model), setting.space, data.L, "OR")
    return clauses, solution.optimal


def greedy(setting: Setting, data: Data, n_clauses: int) -> Result:
    """The greedy incumbent (see :mod:`imli.greedy`)."""
    c = setting.constraints
    # soft disjointness is kept as if hard: the fallback never pays for a violation
    disjoint_of = c.feature_of if c.disjoint is not None else None
    usable = c.usable(data.L.shape[1], charged_too=True)
    for group in c.required:  # in every clause, though an earlier rule used it
        usable[group] = True if c.allowed is None else c.allowed[group]
    clauses = greedy_cnf(data.rows, n_clauses, setting.weights, usable, disjoint_of,
                         c.required)
    clauses = simplify(clauses, setting.space, data.L, "OR")
    return Result(clauses, False, cost(setting, clauses, data))


def best_of(*results: Result | None) -> Result | None:
    """Lowest cost; among equals, a proven optimum, then the earliest."""
    found = [r for r in results if r is not None]
    if not found:
        return None
    return min(found, key=lambda r: (r.cost, not r.optimal))


def batches(rows: WeightedRows, batch_size: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Shuffle the distinct rows and cut them into batches of about ``batch_size`` rows
    (counting multiplicities)."""
    order = rng.permutation(len(rows))
    if order.size == 0:
        return [order]
    cumulative = np.cumsum(rows.weights[order])
    # a batch as large as all rows is one batch (and 2**63 overflows int64)
    cut = (cumulative - rows.weights[order]) // int(min(batch_size, cumulative[-1]))
    return [order[cut == c] for c in np.unique(cut)]


def joint(setting: Setting, data: Data, n_clauses: int, budget: Budget, rng) -> Result | None:
    """MLIC: one query over all rows, so the result is an optimum of the objective.

    With a time limit an incumbent is found first (greedy, then mini-batches within a
    quarter of the time); if the query does not finish, the best incumbent is returned
    (not optimal).
    """
    incumbents: list[Result | None] = []
    if budget.seconds is not None:
        incumbents.append(greedy(setting, data, n_clauses))
        if data.rows.total > INCUMBENT_BATCH:
            sub = budget.share(INCUMBENT_SHARE)
            found = minibatch(setting, data, n_clauses, sub, INCUMBENT_BATCH, 1, rng)
            budget.n_queries += sub.n_queries
            incumbents.append(found)
    start = best_of(*incumbents)
    clauses, optimal = run_query(
        setting, data, n_clauses, budget, hint=start.clauses if start else None
    )
    exact = None if clauses is None else Result(clauses, optimal, cost(setting, clauses, data))
    return best_of(exact, *incumbents)


def minibatch(
    setting: Setting,
    data: Data,
    n_clauses: int,
    budget: Budget,
    batch_size: int,
    n_passes: int,
    rng: np.random.Generator,
) -> Result | None:
    """IMLI (AIES 2019 §4.1): sequential mini-batches, each query preferring the previous
    rule's literals; the rule with the lowest objective on all rows is kept."""
    best, previous = None, None
    parts = batches(data.rows, batch_size, rng)
    for _ in range(n_passes):
        for index in parts:
            clauses, _ = run_query(setting, data.subset(index), n_clauses, budget, previous)
            if clauses is None:
                return best
            if clauses != previous:  # an unchanged rule keeps its cost
                best = best_of(best, Result(clauses, False, cost(setting, clauses, data)))
            previous = clauses
    return best


def iterative(
    setting: Setting,
    data: Data,
    n_clauses: int,
    budget: Budget,
    batch_size: int | None,
    n_passes: int,
    rng: np.random.Generator,
) -> Result | None:
    """JAIR 2022 Alg. 2: learn one clause at a time (with mini-batches if
    ``batch_size``), then set aside the rows it rejects (their prediction is settled)."""
    remaining = np.ones(len(data.rows), dtype=bool)
    clauses: list[frozenset[int]] = []
    for _ in range(n_clauses):
        index = np.flatnonzero(remaining)
        if data.rows.labels[index].all():
            break  # no negative row left to reject
        sub = data.subset(index)
        step = setting.after(clauses)
        if batch_size is None:
            found, _ = run_query(step, sub, 1, budget)
        else:
            result = minibatch(step, sub, 1, budget, batch_size, n_passes, rng)
            found = None if result is None else result.clauses
        if not found:
            break  # time-out, or no clause improves the objective
        clause = found[0]
        holds = predict_cnf((clause,), data.by_column)
        if not (remaining & ~holds).any():
            break
        clauses.append(clause)
        remaining &= holds
    if not clauses and budget.timed_out:
        return None
    final = simplify(clauses, setting.space, data.L, "OR")
    return Result(final, False, cost(setting, final, data))
