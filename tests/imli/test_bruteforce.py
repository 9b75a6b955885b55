"""The one-query optimum equals the exhaustive minimum on tiny random instances."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from imli import IMLIClassifier


def exhaustive_minimum(X, y, n_clauses, fidelity, required=None):
    """min over CNFs of at most ``n_clauses`` clauses of |R| + fidelity·|E|; with
    ``required``, a column every clause must test (as itself or its complement)."""
    L = np.hstack([X, 1 - X]).astype(bool)
    n, M = L.shape
    masks = np.arange(2**M)
    chosen = (masks[:, None] >> np.arange(M)) & 1  # (S, M)
    if required is not None:
        chosen = chosen[(chosen[:, required] | chosen[:, required + M // 2]) == 1]
    truth = (chosen @ L.T.astype(int)) > 0  # (S, n): clause true on row
    size = chosen.sum(axis=1)
    # the "absent" clause: true everywhere, no literal
    truth = np.vstack([truth, np.ones(n, bool)]).astype(float)
    size = np.append(size, 0)
    pos, neg = y.astype(float), 1.0 - y
    if n_clauses == 1:
        errors = pos @ (1 - truth.T) + truth @ neg
        return float(np.min(size + fidelity * errors))
    both_pos = (truth * pos) @ truth.T  # positives where both clauses hold
    both_neg = (truth * neg) @ truth.T
    errors = pos.sum() - both_pos + both_neg
    total = size[:, None] + size[None, :] + fidelity * errors
    return float(total.min())


@st.composite
def instances(draw):
    m = draw(st.integers(1, 5))
    k = draw(st.integers(1, 2)) if m <= 4 else 1
    n = draw(st.integers(2, 9))
    # rows drawn from a small pool so duplicates (with either label) occur
    pool = draw(st.lists(st.lists(st.integers(0, 1), min_size=m, max_size=m),
                         min_size=1, max_size=6))
    rows = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n).filter(
        lambda v: 0 < sum(v) < len(v)))
    fidelity = draw(st.sampled_from([0.5, 1.0, 2.5, 10.0]))
    return np.array(rows), np.array(y), k, fidelity


@settings(max_examples=60, deadline=None)
@given(instances())
def test_cnf_optimum_matches_exhaustive_search(case):
    X, y, k, fidelity = case
    clf = IMLIClassifier(n_clauses=k, data_fidelity=fidelity, batch_size=None).fit(X, y)
    assert clf.optimal_
    assert np.isclose(clf.objective_, exhaustive_minimum(X, y, k, fidelity))


@settings(max_examples=30, deadline=None)
@given(instances())
def test_dnf_optimum_is_the_cnf_optimum_of_flipped_labels(case):
    X, y, k, fidelity = case
    clf = IMLIClassifier(n_clauses=k, rule_type="DNF", data_fidelity=fidelity,
                         batch_size=None).fit(X, y)
    assert clf.optimal_
    assert np.isclose(clf.objective_, exhaustive_minimum(X, 1 - y, k, fidelity))


def test_exhaustive_helper_on_a_known_case():
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    assert exhaustive_minimum(X, np.array([0, 0, 0, 1]), 2, 10.0) == 2.0
    assert exhaustive_minimum(X, np.array([0, 0, 0, 1]), 1, 10.0) == 10.0


@settings(max_examples=60, deadline=None)
@given(instances(), st.integers(0, 4))
def test_with_a_required_feature_the_optimum_matches_exhaustive_search(case, column):
    """Every clause holds the feature, and the rule has at most k clauses, maybe none."""
    X, y, k, fidelity = case
    column %= X.shape[1]
    clf = IMLIClassifier(n_clauses=k, data_fidelity=fidelity, batch_size=None,
                         include_features=[f"x{column}"]).fit(X, y)
    assert clf.optimal_
    assert np.isclose(clf.objective_, exhaustive_minimum(X, y, k, fidelity, column))
    assert all(f"x{column}" in str(clause) for clause in clf.rules_.clauses)


def test_a_fidelity_of_seven_decimals_is_not_rounded_into_a_tie():
    # 0.5000001 was solved as 1/2, where the constant rule (two errors) ties with (x0)
    # (one literal): the constant came back, claimed optimal, and cost 2e-7 more
    X, y = np.array([[1], [1], [0], [0]]), np.array([1, 1, 0, 0])
    for fidelity, best in ((0.5000001, 1.0), (0.4999999, 0.9999998)):
        for rule_type in ("CNF", "DNF"):
            clf = IMLIClassifier(n_clauses=1, rule_type=rule_type, data_fidelity=fidelity,
                                 batch_size=None).fit(X, y)
            assert clf.optimal_ and clf.objective_ == pytest.approx(best, abs=1e-12)
            assert clf.objective_ == pytest.approx(exhaustive_minimum(
                X, y if rule_type == "CNF" else 1 - y, 1, fidelity), abs=1e-12)


def exhaustive_over(L, feature, y, n_clauses, fidelity, disjoint=None):
    """min of |R| + fidelity·|E| over CNFs of at most ``n_clauses`` clauses of the
    literals (columns of ``L``, each of feature ``feature[j]``); ``disjoint`` as in
    ``IMLIClassifier`` (two clauses sharing a feature: refused, or one literal more)."""
    n, M = L.shape
    chosen = ((np.arange(2**M)[:, None] >> np.arange(M)) & 1).astype(bool)
    truth = np.vstack([(chosen.astype(int) @ L.T.astype(int)) > 0, np.ones(n, bool)])
    size = np.append(chosen.sum(axis=1), 0)
    uses = np.vstack([chosen[:, feature == f].any(axis=1) for f in np.unique(feature)]
                     + [np.zeros(2**M, bool)]).T  # (rules, features + 1), the last never
    uses = np.vstack([uses, np.zeros(uses.shape[1], bool)]).astype(int)
    T, pos = truth.astype(float), y.astype(float)
    if n_clauses == 1:
        return float(np.min(size + fidelity * (pos @ (1 - T.T) + T @ (1 - pos))))
    errors = pos.sum() - (T * pos) @ T.T + (T * (1 - pos)) @ T.T
    total = size[:, None] + size[None, :] + fidelity * errors
    shared = uses @ uses.T
    if disjoint == "hard":
        total = np.where(shared > 0, np.inf, total)
    elif disjoint == "soft":
        total = total + shared
    return float(total.min())


@settings(max_examples=40, deadline=None)
@given(instances(), st.sampled_from([None, "hard", "soft"]), st.booleans())
def test_disjoint_and_missing_optimum_matches_exhaustive_search(case, disjoint, missing):
    """Each feature in one clause (or charged once more), over 0/1 columns with NaN
    cells, which satisfy neither threshold column but both complements; the printed
    rule, its size and its predictions are the rule's."""
    X, y, k, fidelity = case
    X = X[:, :2].astype(float)
    if missing:
        X[::3, 0] = np.nan
    clf = IMLIClassifier(n_clauses=k, data_fidelity=fidelity, batch_size=None,
                         disjoint_features=disjoint).fit(X, y)
    B = clf.binarizer_.transform(X).to_numpy(dtype=bool) if clf.binarizer_ is not None else X == 1
    names = clf.binarizer_.literal_names() if clf.binarizer_ is not None else [
        f"x{j}" for j in range(X.shape[1])]
    feature = np.array([int(str(name).split()[0][1:]) for name in names] * 2)
    best = exhaustive_over(np.hstack([B, ~B]), feature, y, k, fidelity, disjoint)
    used = [{feature[lit.column] for lit in c.literals} for c in clf.rules_.clauses]
    shared = sum(len(used[i] & used[j]) for i in range(len(used)) for j in range(i))
    assert clf.optimal_
    assert np.isclose(clf.objective_ + (shared if disjoint == "soft" else 0), best)
    assert clf.rule_size_ == sum(len(c.literals) for c in clf.rules_.clauses)
    assert (clf.predict(X) == clf.rules_.covers(B)).all()
    assert disjoint != "hard" or not shared
