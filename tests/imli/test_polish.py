"""Local search on all training rows: never worse, a local optimum, within the constraints."""

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from imli import IMLIClassifier, TimeLimitWarning
from imli.encoding import Constraints, Weights
from imli.literals import LiteralSpace
import imli.polish as polish_module
from imli.polish import polish
from imli.rows import merge_rows
from imli.strategies import Budget, Data, Setting, cost


def setting_for(m, fidelity=2.0, **constraints):
    space = LiteralSpace(tuple(f"x{i}" for i in range(m)), (None,) * m)
    if constraints:
        constraints = Constraints(feature_of=space.feature_of, **constraints)
    return Setting(Weights.from_fidelity(fidelity), space, constraints or Constraints())


def neighbours(rule, n_literals, n_clauses):
    """Every rule one move away, enumerated naively."""
    out = []
    for l, clause in enumerate(rule):
        out.append(rule[:l] + rule[l + 1:])
        for j in range(n_literals):
            if j not in clause:
                out.append(rule[:l] + [clause | {j}] + rule[l + 1:])
        for j in clause:
            if len(clause) > 1:
                out.append(rule[:l] + [clause - {j}] + rule[l + 1:])
            for k in range(n_literals):
                if k not in clause:
                    out.append(rule[:l] + [clause - {j} | {k}] + rule[l + 1:])
    if len(rule) < n_clauses:
        out.extend(rule + [frozenset({j})] for j in range(n_literals))
    return out


@st.composite
def instances(draw):
    m = draw(st.integers(1, 4))
    n = draw(st.integers(2, 12))
    X = np.array(draw(st.lists(st.lists(st.booleans(), min_size=m, max_size=m),
                               min_size=n, max_size=n)))
    y = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    k = draw(st.integers(1, 3))
    # an empty clause (false on every row) may come from learning
    start = draw(st.lists(st.frozensets(st.integers(0, 2 * m - 1), min_size=0, max_size=3),
                          max_size=k))
    fidelity = draw(st.sampled_from([0.5, 1.0, 3.0, 10.0]))
    return X, y, k, start, fidelity


@settings(max_examples=80, deadline=None)
@given(instances())
def test_result_is_never_worse_and_a_local_optimum(case):
    X, y, k, start, fidelity = case
    setting = setting_for(X.shape[1], fidelity)
    data = Data.of(merge_rows(X, y))
    found = polish(setting, data, tuple(start), k, Budget(None))
    assert len(found) <= k
    best = cost(setting, found, data)
    assert best <= cost(setting, tuple(start), data)
    for other in neighbours(list(found), 2 * X.shape[1], k):
        assert cost(setting, tuple(other), data) >= best


def test_finds_the_rule_from_nothing():
    rng = np.random.default_rng(0)
    X = rng.random((60, 4)) < 0.5
    y = X[:, 1] & ~X[:, 2]
    found = polish(setting_for(4, 5.0), Data.of(merge_rows(X, y)), (), 2, Budget(None))
    assert sorted(map(sorted, found)) == [[1], [6]]  # x1 AND (not x2)


def test_moves_respect_the_constraints():
    rng = np.random.default_rng(1)
    X = rng.random((80, 4)) < 0.5
    y = (X[:, 0] | X[:, 1]) & (X[:, 0] | X[:, 3])
    data = Data.of(merge_rows(X, y))
    allowed = np.ones(8, dtype=bool)
    allowed[[1, 5]] = False  # x1 and its complement are excluded
    plain = Data.of(merge_rows(X, X[:, 1]))  # x1 is the perfect rule, but excluded
    found = polish(setting_for(4, 10.0, allowed=allowed), plain, (), 2, Budget(None))
    assert not {1, 5} & set().union(*found)
    start = (frozenset({0, 1}), frozenset({3}))
    free = polish(setting_for(4, 10.0), data, start, 2, Budget(None))
    assert sorted(map(sorted, free)) == [[0, 1], [0, 3]]  # x0 in both clauses
    disjoint = polish(setting_for(4, 10.0, disjoint="hard"), data, start, 2, Budget(None))
    features = [{j % 4 for j in c} for c in disjoint]
    assert all(not a & b for i, a in enumerate(features) for b in features[i + 1:])
    required = setting_for(4, 10.0, required=(np.array([3, 7]),))
    kept = polish(required, data, (frozenset({3}),), 2, Budget(None))
    assert all(c & {3, 7} for c in kept)


@pytest.mark.parametrize("patch", [
    {"_BLOCK_ROWS": 7, "_CACHED_CELLS": 0},  # float copies made block by block
    {"_BLOCK_ROWS": 7},  # cached blocks
    {"_FLOAT32_EXACT": 0},  # float64 sums
    {"_SPARSE_DENSITY": 1.0},  # every block a sparse matrix
    {"_SPARSE_DENSITY": 1.0, "_BLOCK_ROWS": 7, "_CACHED_CELLS": 0, "_FLOAT32_EXACT": 0},
])
def test_blocks_and_precision_do_not_change_the_result(monkeypatch, patch):
    rng = np.random.default_rng(6)
    X = rng.random((300, 6)) < 0.5
    y = (X[:, 0] & X[:, 1] | X[:, 2]) ^ (rng.random(300) < 0.1)
    setting, data = setting_for(6, 3.0), Data.of(merge_rows(X, y))
    plain = polish(setting, data, (), 3, Budget(None))
    for name, value in patch.items():
        monkeypatch.setattr(polish_module, name, value)
    assert polish(setting, data, (), 3, Budget(None)) == plain
    assert plain  # a non-trivial rule, so the comparison means something


def test_stops_when_the_budget_is_spent():
    rng = np.random.default_rng(2)
    X = rng.random((200, 6)) < 0.5
    y = X[:, 0] ^ X[:, 1]
    spent = Budget(0.0)
    assert polish(setting_for(6), Data.of(merge_rows(X, y)), (), 3, spent) == ()
    assert spent.timed_out  # cut short: the fit says so (timed_out_, TimeLimitWarning)
    finished = Budget(None)
    polish(setting_for(6), Data.of(merge_rows(X, y)), (), 3, finished)
    assert not finished.timed_out


class _ExpiresAfter(Budget):
    """A budget that runs out after ``checks`` looks at the clock."""

    def __init__(self, checks: int) -> None:
        super().__init__(None)
        self.checks = checks

    def expired(self) -> bool:
        self.checks -= 1
        return self.checks < 0


def test_stops_within_a_step_between_blocks(monkeypatch):
    # on millions of rows one step's product takes seconds: the clock is read between blocks
    rng = np.random.default_rng(2)
    X = rng.random((200, 6)) < 0.5
    y = X[:, 0] & X[:, 1]
    setting, data = setting_for(6, 5.0), Data.of(merge_rows(X, y))
    monkeypatch.setattr(polish_module, "_BLOCK_ROWS", 16)
    assert polish(setting, data, (), 3, Budget(None))  # the search does find moves
    # the step starts (1st check), then the budget runs out after the first block
    cut = _ExpiresAfter(1)
    assert polish(setting, data, (), 3, cut) == () and cut.timed_out
    # with a budget for one whole step, exactly one move is made
    blocks = -(-len(data.rows) // 16)
    one_step = polish(setting, data, (), 3, _ExpiresAfter(blocks))
    assert len(one_step) == 1 and sum(map(len, one_step)) == 1


@pytest.fixture(scope="module")
def noisy():
    rng = np.random.default_rng(3)
    X = rng.random((400, 12)) < 0.5
    y = ((X[:, 0] & X[:, 1]) | X[:, 2] & ~X[:, 3]) ^ (rng.random(400) < 0.08)
    return X, y


@pytest.mark.parametrize("rule_type", ["CNF", "DNF"])
def test_estimator_polish_never_raises_the_objective(noisy, rule_type):
    X, y = noisy
    kwargs = dict(n_clauses=3, rule_type=rule_type, batch_size=20, random_state=4)
    rough = IMLIClassifier(polish=False, **kwargs).fit(X, y)
    fine = IMLIClassifier(**kwargs).fit(X, y)
    assert fine.objective_ <= rough.objective_
    again = IMLIClassifier(**kwargs).fit(X, y)
    assert repr(again.rules_) == repr(fine.rules_)



def test_the_polish_never_raises_the_objective_soft_disjointness_charges():
    # from the constant rule, the restart from the greedy rule (x0 in both clauses, as
    # include_features asks) won on |R| + λ·|E| alone (2.67 against 3.33) though the
    # feature shared cost one literal more (3.67): the charged objective rose
    X = np.array([[1, 0, 1, 0, 0], [1, 0, 1, 0, 0], [0, 1, 0, 0, 1], [1, 1, 1, 1, 0],
                  [1, 1, 1, 1, 0], [1, 0, 1, 0, 0], [0, 0, 0, 0, 0], [1, 1, 1, 1, 0],
                  [0, 0, 0, 0, 0], [1, 0, 1, 0, 0], [0, 1, 0, 0, 1], [1, 0, 1, 0, 0]])
    y = np.array([1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0])
    kwargs = dict(n_clauses=2, data_fidelity=1 / 3, include_features=["x0"],
                  disjoint_features="soft", batch_size=3)

    def charged(clf):
        used = [{lit.column for lit in c.literals} for c in clf.rules_.clauses]
        return clf.objective_ + sum(len(used[i] & used[j]) for i in range(len(used))
                                    for j in range(i))

    rough = IMLIClassifier(polish=False, **kwargs).fit(X, y)
    assert charged(IMLIClassifier(**kwargs).fit(X, y)) <= charged(rough)
    setting = setting_for(5, 1 / 3, disjoint="soft")
    shared = (frozenset({0, 2}), frozenset({5}))  # (x0 OR x2) AND (not x0)
    data = Data.of(merge_rows(X, y.astype(bool)))
    assert cost(setting, shared, data) == cost(setting_for(5, 1 / 3), shared, data) + 3

def test_time_limit_keeps_time_for_the_polish(noisy):
    X, y = noisy
    # thousands of mini-batches of 5 rows: far more than the 0.75 s left to learning, on
    # any machine (at most 4096 distinct rows, so the polish is quick)
    X = np.repeat(X, 50, axis=0) ^ (np.random.default_rng(5).random((20000, 12)) < 0.05)
    y = np.repeat(y, 50)
    start = time.monotonic()
    with pytest.warns(TimeLimitWarning):
        clf = IMLIClassifier(n_clauses=3, batch_size=5, time_limit=1.0).fit(X, y)
    assert time.monotonic() - start < 5.0
    assert clf.timed_out_ and clf.rule_size_ > 0
    # the mini-batches were cut short, yet the rule is polished: no move improves it
    rule = tuple(frozenset(l.column + 12 * l.negated for l in c.literals)
                 for c in clf.rules_.clauses)
    setting, data = setting_for(12, 10.0), Data.of(merge_rows(X, y))
    again = polish(setting, data, rule, 3, Budget(None))
    assert cost(setting, again, data) == cost(setting, rule, data)


def test_an_empty_clause_is_polished_like_any_other():
    # an empty clause is false on every row: the rule predicts False until it is fixed
    rng = np.random.default_rng(7)
    X = rng.random((60, 4)) < 0.5
    y = X[:, 1] & ~X[:, 2]
    setting, data = setting_for(4, 5.0), Data.of(merge_rows(X, y))
    found = polish(setting, data, (frozenset(), frozenset({1})), 2, Budget(None))
    assert sorted(map(sorted, found)) == [[1], [6]]


def _blas_threads():
    from threadpoolctl import threadpool_info

    return {lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"}


def test_polishes_in_threads_that_overlap_give_the_threads_back_in_any_order():
    # a limit per polish (threadpool_limits) restored, at the second polish's end, the one
    # thread the first had set: the process was left on one BLAS thread
    from imli.polish import one_blas_thread

    before = _blas_threads()
    if not before or before == {1}:
        pytest.skip("no BLAS library with more than one thread here")
    first, second = one_blas_thread(), one_blas_thread()
    first.__enter__()
    second.__enter__()
    assert _blas_threads() == {1}
    first.__exit__(None, None, None)  # the first polish ends while the second runs
    assert _blas_threads() == {1}
    second.__exit__(None, None, None)
    assert _blas_threads() == before


def test_imli_and_fold_limits_that_overlap_give_the_threads_back_in_any_order():
    # the two learners keep their own limits (neither imports the other): one ending
    # inside the other left the process on one thread
    from fold.learner import blas_limit
    from imli.polish import one_blas_thread

    before = _blas_threads()
    if not before or before == {1}:
        pytest.skip("no BLAS library with more than one thread here")
    for makers in ((blas_limit, one_blas_thread), (one_blas_thread, blas_limit)):
        for first_out in (True, False):
            first, second = (make() for make in makers)
            first.__enter__()
            second.__enter__()
            assert _blas_threads() == {1}
            for limit in (first, second) if first_out else (second, first):
                limit.__exit__(None, None, None)
            assert _blas_threads() == before, (makers, first_out)
