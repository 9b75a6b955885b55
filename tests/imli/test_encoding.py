"""Encode → solve → decode, step by step, with optima computed by hand."""

from fractions import Fraction

import numpy as np
import pytest

from imli.encoding import Constraints, OutOfTime, Weights, decode, encode
from imli.literals import LiteralSpace
from imli.rows import merge_rows
from imli.solver import solve
from imli.strategies import Budget, Data, Setting, run_query


def _solve(X, y, k, fidelity=10.0, **kwargs):
    query = encode(merge_rows(np.array(X, bool), np.array(y, bool)), k,
                   Weights.from_fidelity(fidelity), **kwargs)
    solution = solve(query.wcnf)
    assert solution.optimal
    return query, solution, decode(query, solution.model)


def test_weights_are_scaled_integers():
    assert Weights.from_fidelity(10.0) == Weights(1, 10)
    assert Weights.from_fidelity(0.25) == Weights(4, 1)
    assert Weights.from_fidelity(1e-4) == Weights(10_000, 1)
    # seven decimals: 1/2 would tie one literal with two errors, which 0.5000001 does not
    assert Weights.from_fidelity(0.5000001) == Weights(2, 1)
    for fidelity, lower, upper in ((0.5000001, Fraction(1, 2), Fraction(2, 3)),
                                   (0.4999999, Fraction(1, 3), Fraction(1, 2))):
        w = Weights.from_fidelity(fidelity, n_rows=4)  # strictly between, as λ is
        assert lower < Fraction(w.noise, w.literal) < upper and w.literal <= 10**6
        assert abs(w.noise / w.literal - fidelity) < 1e-6
    for fidelity in (10.0, 0.1, 1 / 3, 2.5):  # meant exactly: kept
        assert Weights.from_fidelity(fidelity, n_rows=4) == Weights.from_fidelity(fidelity)
    assert Weights.from_fidelity(2.5).objective(Weights(2, 5).cost(3, 1)) == 3 + 2.5
    with pytest.raises(ValueError, match="too small"):
        Weights.from_fidelity(1e-9)


def test_single_literal_rule():
    # y = x0: the optimum is the one-literal clause (x0), cost 1
    query, solution, clauses = _solve([[1, 0], [1, 1], [0, 1], [0, 0]], [1, 1, 0, 0], 1)
    assert solution.cost == 1
    assert clauses == (frozenset({0}),)


@pytest.mark.parametrize(
    "fidelity, cost, expected",
    [
        (10.0, 2, (frozenset({0, 1}),)),  # (x0 OR x1): two literals, no error
        (1.5, 3, ()),  # empty CNF (true): one error of weight 3/2 → scaled cost 3 = 2·1.5
        (0.5, 1, ()),  # one error costs less than a literal
    ],
)
def test_fidelity_trades_size_for_errors(fidelity, cost, expected):
    _, solution, clauses = _solve([[1, 0], [0, 1], [0, 0]], [1, 1, 0], 1, fidelity)
    assert solution.cost == cost
    assert clauses == expected


def test_two_clauses_and_the_false_clause():
    X = [[0, 0], [0, 1], [1, 0], [1, 1]]
    y = [0, 0, 0, 1]  # x0 AND x1
    _, solution, clauses = _solve(X, y, 2)
    assert solution.cost == 2
    assert sorted(map(sorted, clauses)) == [[0], [1]]
    # with one clause the best is the empty (false) clause: one positive row lost
    _, solution, clauses = _solve(X, y, 1)
    assert solution.cost == 10
    assert clauses == (frozenset(),)


def test_conflicting_duplicates_are_counted_once():
    X = [[1]] * 4 + [[0]] * 2
    y = [1, 1, 1, 0, 0, 0]
    rows = merge_rows(np.array(X, bool), np.array(y, bool))
    assert rows.weights.tolist() == [2, 2] and rows.unavoidable == 1
    query, solution, clauses = _solve(X, y, 1)
    assert clauses == (frozenset({0}),)
    assert solution.cost == 1 and query.offset == 10


def test_noise_weight_is_fidelity_times_count():
    query = encode(merge_rows(np.array([[1], [1], [1], [0]], bool),
                              np.array([1, 1, 1, 0], bool)), 1, Weights(1, 10))
    eta_weights = sorted(w for c, w in zip(query.wcnf.soft, query.wcnf.wght)
                         if query.pool.obj(abs(c[0]))[0] == "eta")
    assert eta_weights == [10, 30]
    assert all(isinstance(w, int) and w >= 1 for w in query.wcnf.wght)


def test_variables_are_keyed_by_meaning():
    query = encode(merge_rows(np.array([[1, 0], [0, 1], [1, 1]], bool),
                              np.array([1, 0, 0], bool)), 2, Weights(1, 10))
    kinds = {query.pool.obj(v)[0] for v in range(1, query.pool.top + 1)
             if query.pool.obj(v) is not None}
    assert {"b", "eta", "z", "used"} <= kinds
    for l in range(2):
        for g, members in enumerate(query.groups):
            assert query.pool.obj(int(query.b[l, g])) == ("b", l, int(members[0]))


def test_previous_rule_is_a_preference():
    X, y = [[1, 0], [1, 1], [0, 1], [0, 0]], [1, 1, 0, 0]
    query, solution, clauses = _solve(X, y, 1, previous=(frozenset({1}),))
    # keeping x1 (preferred) would misclassify (0, 1): dropping it costs 1, adding x0 1
    assert clauses == (frozenset({0}),) and solution.cost == 2
    positive_units = [c for c in query.wcnf.soft if c[0] > 0]
    assert [query.pool.obj(c[0]) for c in positive_units] == [("b", 0, 1)]


def test_exclude_and_require():
    X, y = [[1, 0], [1, 1], [0, 1], [0, 0]], [1, 1, 0, 0]
    feature_of = np.array([0, 1, 0, 1])
    no_x0 = Constraints(allowed=np.array([False, True, False, True]))
    _, solution, clauses = _solve(X, y, 1, constraints=no_x0)
    assert not {0, 2} & set().union(*clauses)
    need_x1 = Constraints(required=(np.array([1, 3]),), feature_of=feature_of)
    _, solution, clauses = _solve(X, y, 2, constraints=need_x1)
    assert all(c & {1, 3} for c in clauses)


def test_disjoint_features_hard():
    rng = np.random.default_rng(3)
    X = rng.random((12, 3)) < 0.5
    y = (X[:, 0] | X[:, 1]) & (X[:, 0] | X[:, 2])
    feature_of = np.array([0, 1, 2, 0, 1, 2])
    cons = Constraints(disjoint="hard", feature_of=feature_of)
    _, _, clauses = _solve(X, y, 2, constraints=cons)
    used = [set(feature_of[list(c)].tolist()) for c in clauses]
    if len(used) == 2:
        assert not used[0] & used[1]


@pytest.mark.parametrize("seed", range(6))
def test_symmetry_breaking_and_pruning_keep_the_optimum(seed):
    rng = np.random.default_rng(seed)
    X = rng.random((14, 4)) < 0.5
    y = rng.random(14) < 0.5
    costs = set()
    for sb in (True, False):
        for prune in (True, False):
            query = encode(merge_rows(X, y), 2, Weights(1, 3), symmetry_breaking=sb,
                           prune=prune)
            costs.add(solve(query.wcnf).cost)
    assert len(costs) == 1


def test_dimacs_export(tmp_path):
    query = encode(merge_rows(np.array([[1, 0], [0, 1]], bool), np.array([1, 0], bool)),
                   1, Weights(1, 10))
    path = tmp_path / "q.wcnf"
    query.to_dimacs(path)
    lines = path.read_text().splitlines()
    assert sum(line.startswith("h ") for line in lines) == len(query.wcnf.hard)
    assert sum(not line.startswith(("h ", "c")) for line in lines) == len(query.wcnf.soft)


def test_disjoint_features_soft_costs_at_most_the_hard_version():
    rng = np.random.default_rng(5)
    X = rng.random((16, 3)) < 0.5
    y = (X[:, 0] | X[:, 1]) & (X[:, 0] | X[:, 2])
    feature_of = np.array([0, 1, 2, 0, 1, 2])
    costs = {}
    for kind in ("hard", "soft"):
        cons = Constraints(disjoint=kind, feature_of=feature_of)
        costs[kind] = _solve(X, y, 2, constraints=cons)[1].cost
    free = _solve(X, y, 2)[1].cost
    assert free <= costs["soft"] <= costs["hard"]


def test_a_taken_feature_is_left_out_when_hard_and_charged_one_literal_when_soft():
    # y = x0 exactly; an earlier clause (learned one at a time) already holds feature 0
    X = np.array([[1, 0], [1, 1], [0, 1], [0, 0], [1, 0], [0, 0]], bool)
    y = X[:, 0].copy()
    feature_of = np.array([0, 1, 0, 1])
    earlier = [frozenset({0})]
    hard = Constraints(disjoint="hard", feature_of=feature_of).after(earlier)
    soft = Constraints(disjoint="soft", feature_of=feature_of).after(earlier)
    assert hard.taken == soft.taken == (0,)
    _, solution, clauses = _solve(X, y, 1, constraints=hard)
    assert not {0, 2} & set().union(*clauses)  # x0 / ¬x0 are out
    assert solution.cost == 10 * 3  # x1 cannot pay for itself: three errors
    _, solution, clauses = _solve(X, y, 1, constraints=soft)
    assert clauses == (frozenset({0}),)
    assert solution.cost == 1 + 1  # the literal, and one more for reusing feature 0
    unconstrained = Constraints(feature_of=feature_of).after(earlier)
    assert unconstrained.taken == ()


class _Clock:
    """An ``expired`` callable that turns True on its ``after``-th call."""

    def __init__(self, after: int) -> None:
        self.after, self.calls = after, 0

    def __call__(self) -> bool:
        self.calls += 1
        return self.calls >= self.after


def test_encoding_stops_at_each_check_when_the_time_is_up():
    rng = np.random.default_rng(3)
    rows = merge_rows(rng.random((60, 40)) < 0.5, rng.random(60) < 0.5)
    plain = encode(rows, 2, Weights(1, 4))
    never = _Clock(after=10**9)
    timed = encode(rows, 2, Weights(1, 4), expired=never)
    assert timed.wcnf.hard == plain.wcnf.hard and timed.wcnf.soft == plain.wcnf.soft
    assert never.calls >= 4  # between the steps and the dominance test's chunks
    for after in range(1, never.calls + 1):
        with pytest.raises(OutOfTime):
            encode(rows, 2, Weights(1, 4), expired=_Clock(after))


def test_a_query_whose_encoding_runs_out_of_time_is_a_time_out():
    rng = np.random.default_rng(4)
    X, y = rng.random((40, 8)) < 0.5, rng.random(40) < 0.5
    space = LiteralSpace(tuple(f"x{i}" for i in range(8)), (None,) * 8)
    setting = Setting(Weights(1, 4), space)

    class _Once(Budget):  # time is left when the query starts, not during its encoding
        def expired(self) -> bool:
            self.calls = getattr(self, "calls", 0) + 1
            return self.calls > 1

    budget = _Once(None)
    assert run_query(setting, Data.of(merge_rows(X, y)), 2, budget) == (None, False)
    assert budget.timed_out and budget.n_queries == 0


def test_the_previous_rule_keeps_its_optimum_under_symmetry_breaking():
    """With the previous rule's literals preferred per clause the clauses differ, so an
    ordering of them must not cut off the query's optimum (it did on 38 of 400 such
    random queries)."""
    rng = np.random.default_rng(0)
    for _ in range(120):
        n = int(rng.integers(4, 9))
        X, y = rng.random((n, 3)) < 0.5, rng.random(n) < 0.5
        previous = tuple(frozenset(rng.choice(6, size=int(rng.integers(1, 3)),
                                              replace=False).tolist()) for _ in range(2))
        costs = {_solve(X, y, 2, 2.0, previous=previous, symmetry_breaking=b)[1].cost
                 for b in (True, False)}
        assert len(costs) == 1
