"""Simplification never changes what a clause or term says, on any row, missing values too."""

import itertools

import numpy as np
import pytest

from imli.literals import LiteralSpace, literal_matrix
from imli.predicates import Predicate
from imli.redundancy import simplify

THRESHOLDS = (1.0, 2.0, 3.0)
SPECS = [Predicate("f", "<=", t) for t in THRESHOLDS] + [
    Predicate("f", ">", t) for t in THRESHOLDS]
SPACE = LiteralSpace(tuple(map(str, SPECS)), tuple(SPECS))
# every side of every threshold, and a missing value (LIME's filtered rows have many)
VALUES = np.array([np.nan, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5])
L = literal_matrix(np.column_stack([s.evaluate(VALUES) for s in SPECS]))


def truth(parts, connective):
    """A CNF (clauses joined by AND) or a DNF (terms joined by OR) on every row."""
    inner = (lambda c: L[:, sorted(c)].any(axis=1)) if connective == "OR" else (
        lambda c: L[:, sorted(c)].all(axis=1))
    values = [inner(c) for c in parts]
    if connective == "OR":
        return np.logical_and.reduce(values) if values else np.ones(len(VALUES), bool)
    return np.logical_or.reduce(values) if values else np.zeros(len(VALUES), bool)


@pytest.mark.parametrize("connective", ["AND", "OR"])
def test_every_small_clause_keeps_its_truth_on_every_row(connective):
    shrunk = 0
    for size in (1, 2, 3):
        for clause in itertools.combinations(range(2 * len(SPECS)), size):
            simple = simplify((frozenset(clause),), SPACE, L, connective, True)
            assert (truth(simple, connective) == truth((clause,), connective)).all(), clause
            shrunk += sum(map(len, simple)) < size
    assert shrunk > 200


def test_a_plain_threshold_lets_a_term_read_its_complemented_ones_as_plain():
    m = len(SPECS)
    # f > 2 AND not (f <= 1): f is known, so not (f <= 1) is f > 1, implied by f > 2
    assert simplify((frozenset({4, 0 + m}),), SPACE, L, "AND", True) == (frozenset({4}),)
    # f > 1 AND not (f > 3): reads as f > 1 AND f <= 3, as long but plain
    assert simplify((frozenset({3, 5 + m}),), SPACE, L, "AND", True) == (frozenset({3, 2}),)
    # not (f <= 1) AND not (f > 3) holds where f is missing: nothing to read
    term = frozenset({0 + m, 5 + m})
    assert simplify((term,), SPACE, L, "AND", True) == (term,)


def test_a_complemented_threshold_lets_a_clause_read_its_plain_ones_as_complemented():
    m = len(SPECS)
    # not (f <= 2) OR f > 1: true where f is missing, else f > 1: not (f <= 1)
    assert simplify((frozenset({1 + m, 3}),), SPACE, L, "OR", True) == (frozenset({0 + m}),)
    # not (f <= 3) OR f <= 1: nothing drops, so the clause stays as learned
    clause = frozenset({2 + m, 0})
    assert simplify((clause,), SPACE, L, "OR", True) == (clause,)


def test_specs_the_rows_contradict_are_not_trusted():
    # a column that says f <= 1 but holds something else: no swap through it
    m = len(SPECS)
    lying = L.copy()
    lying[:, 0] = ~lying[:, 0]
    lying[:, m] = ~lying[:, m]
    term = frozenset({4, 0 + m})
    assert simplify((term,), SPACE, lying, "AND", True) == (term,)
