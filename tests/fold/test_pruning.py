"""Post-pruning by description length and threshold refinement, on hand-made theories."""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings

from fold.learner import FoldLearner, LearnerSettings
from fold.pruning import (DescriptionLength, Node, log2_binomial, prune_theory,
                          refine_thresholds)
from fold.search import EncodedTable
from fold.table import ColumnView, Schema
from tests.fold.helpers import tables


def _learner(X: pd.DataFrame, weight: float = 0.5, min_support: int = 1) -> FoldLearner:
    schema = Schema.from_frame(X)
    table = EncodedTable(ColumnView(X, schema), schema)
    return FoldLearner(table, LearnerSettings(mdl_weight=weight, min_support=min_support))


def _masks(y: np.ndarray) -> tuple:
    return y == 1, y == 0


def test_log2_binomial_is_exact():
    for n in range(0, 40):
        for k in range(0, n + 1):
            assert log2_binomial(n, k) == pytest.approx(math.log2(math.comb(n, k)), abs=1e-9)


def test_error_bits_grow_with_every_error():
    for n in range(1, 60):
        for n_fire in range(0, n + 1):
            bits = [DescriptionLength.error_bits(n_fire, min(e, n_fire), n - n_fire,
                                                 e - min(e, n_fire)) for e in range(n + 1)]
            assert all(a < b for a, b in zip(bits, bits[1:])), (n, n_fire)


def test_theory_bits_count_each_literal_by_its_column():
    length = DescriptionLength([2, 8], weight=0.5)  # 2 columns: log2(2) = 1 bit to choose
    node = Node(((0, "==", 0), (1, "<=", 3)), (Node(((1, ">", 5),), ()),))
    assert length.theory_bits(node) == pytest.approx(0.5 * ((1 + 1) + (1 + 3) + (1 + 3)))


# 40 rows, a = 0..39; the class is a >= 20, plus one noisy row at a = 5
A = np.arange(40.0)
Y = (A >= 20).astype(int)
Y[5] = 1


def test_pruning_drops_redundant_literals_and_rules_that_fit_one_noisy_row():
    learner = _learner(pd.DataFrame({"a": A}))
    pos, neg = _masks(Y)
    main = Node(((0, ">", 10), (0, ">", 19)), ())       # a > 10.5 is implied by a > 19.5
    noise = Node(((0, ">", 4), (0, "<=", 5)), ())       # exactly the row a = 5
    nodes, bits = prune_theory((main, noise), learner.covers, pos, neg, learner.length)
    assert nodes == (Node(((0, ">", 19),), ()),)
    assert bits == pytest.approx(learner.description_length(nodes, np.flatnonzero(pos),
                                                            np.flatnonzero(neg)))
    # without a cost for the theory only the redundant literal could go, and it does not
    # lower the description length, so the rule that fits the noisy row stays
    plain = _learner(pd.DataFrame({"a": A}), weight=0.0)
    kept, _ = prune_theory((main, noise), plain.covers, pos, neg, plain.length)
    assert noise in kept


def test_pruning_keeps_rules_that_pay_for_their_literals():
    y = ((A >= 20) | (A < 8)).astype(int)               # two real regions, 28 rows
    learner = _learner(pd.DataFrame({"a": A}))
    pos, neg = _masks(y)
    nodes = (Node(((0, ">", 19),), ()), Node(((0, "<=", 7),), ()))
    assert prune_theory(nodes, learner.covers, pos, neg, learner.length)[0] == nodes


def test_refinement_moves_a_threshold_to_where_it_errs_least():
    y = (A >= 20).astype(int)
    learner = _learner(pd.DataFrame({"a": A}))
    pos, neg = _masks(y)
    loose = (Node(((0, ">", 9),), ()),)                 # a > 9.5: ten false positives
    assert refine_thresholds(loose, learner.covers, pos, neg, learner.table) == (
        Node(((0, ">", 19),), ()),)


def test_refinement_reaches_literals_inside_exceptions():
    # the class: b == p unless a > 29.5; the exception starts too early at a > 24.5
    b = np.where(np.arange(40) % 2 == 0, "p", "q").astype(object)
    X = pd.DataFrame({"a": A, "b": b})
    y = ((b == "p") & (A <= 29)).astype(int)
    learner = _learner(X)
    pos, neg = _masks(y)
    early = (Node(((1, "==", 0),), (Node(((0, ">", 24),), ()),)),)
    refined = refine_thresholds(early, learner.covers, pos, neg, learner.table)
    # a > 28.5 and a > 29.5 decide every p row alike (a = 29 is a q row): the nearer one
    assert refined == (Node(((1, "==", 0),), (Node(((0, ">", 28),), ()),)),)


def test_refinement_of_a_literal_whose_rows_are_all_unknown_in_its_column():
    # every row the literal a > 1.5 decides has no a: no value of a changes an error
    # (numpy's bincount of no rows gave integers, and '> largest value' could not be inf)
    X = pd.DataFrame({"a": [1.0, 2.0, np.nan, np.nan], "b": ["q", "q", "p", "p"]})
    learner = _learner(X)
    pos, neg = _masks(np.array([0, 0, 1, 0]))
    theory = (Node(((0, ">", 0), (1, "==", 0)), ()),)
    assert refine_thresholds(theory, learner.covers, pos, neg, learner.table) == theory


def test_refinement_leaves_a_theory_without_errors_alone():
    y = (A >= 20).astype(int)
    learner = _learner(pd.DataFrame({"a": A}))
    pos, neg = _masks(y)
    exact = (Node(((0, ">", 19),), ()),)
    assert refine_thresholds(exact, learner.covers, pos, neg, learner.table) == exact


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(tables())
def test_polishing_never_lengthens_the_description(table):
    X, y = table
    learner = _learner(X.reset_index(drop=True))
    pos = np.flatnonzero(y == y[0])
    neg = np.flatnonzero(y != y[0])
    if not len(neg):
        return
    grown = learner.fold(pos, neg)
    before = learner.description_length(grown, pos, neg)
    polished, bits = learner.polish(grown, pos, neg)
    assert bits <= before + 1e-9
    assert bits == pytest.approx(learner.description_length(polished, pos, neg))
    # refinement alone never adds an error
    pos_mask, neg_mask = np.isin(np.arange(len(y)), pos), np.isin(np.arange(len(y)), neg)
    refined = refine_thresholds(grown, learner.covers, pos_mask, neg_mask, learner.table)

    def errors(nodes):
        fires = learner._union(nodes)
        return int((~fires[pos]).sum() + fires[neg].sum())

    assert errors(refined) <= errors(grown)


def _naive_prune_rules(learner: FoldLearner, rules: list, pos: np.ndarray) -> tuple:
    """The definition: smallest first, drop a rule when the others cover the same positives."""
    kept = list(rules)
    for node in sorted(rules, key=lambda n: int(learner.covers(n)[pos].sum())):
        others = [other for other in kept if other is not node]
        union = [np.any([learner.covers(o)[pos] for o in group], axis=0)
                 if group else np.zeros(len(pos), bool) for group in (kept, others)]
        if np.array_equal(*union):
            kept = others
    return tuple(kept)


def test_redundant_rules_are_dropped_as_defined():
    rng = np.random.default_rng(3)
    X = pd.DataFrame({"a": rng.integers(0, 8, 120).astype(float),
                      "b": rng.integers(0, 5, 120).astype(float)})
    learner = _learner(X)
    pos = np.flatnonzero(rng.random(120) < 0.5)
    for _ in range(60):
        rules = []
        for _ in range(rng.integers(0, 7)):
            column = int(rng.integers(0, 2))
            relation = "<=" if rng.random() < 0.5 else ">"
            index = int(rng.integers(0, 4))
            rules.append(Node(((column, relation, index),), ()))
        assert learner._prune_rules(rules, pos) == _naive_prune_rules(learner, rules, pos)
