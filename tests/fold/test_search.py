"""Literal search: vectorised counts and choices equal a literal-by-literal reference."""

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fold import Literal, Negated
from fold.search import EncodedTable, best_literal, split_gain
from fold.table import ColumnView, Schema
from tests.fold.helpers import tables

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _encode(X: pd.DataFrame) -> EncodedTable:
    schema = Schema.from_frame(X)
    return EncodedTable(ColumnView(X, schema), schema)


def _split(y) -> tuple:
    first = y[0]
    pos = np.flatnonzero(y == first)
    neg = np.flatnonzero(y != first)
    return pos, neg


@SETTINGS
@given(tables())
def test_counts_and_thresholds_agree_with_each_literal(table):
    X, y = table
    encoded = _encode(X)
    pos, neg = _split(y)
    tp, fp = encoded.counts(pos, neg)
    assert tp.shape == fp.shape == (2 * encoded.n_slots,)
    for position in range(2 * encoded.n_slots):
        key = encoded.candidate(position)
        assert encoded.candidate_position(*key) == position
        mask = encoded.mask(*key)
        assert tp[position] == mask[pos].sum() and fp[position] == mask[neg].sum()
        # the public literal (threshold halfway to the next value) covers the same rows
        column, relation, index = key
        literal = Literal(encoded.columns[column].name, relation,
                          encoded.literal_value(column, relation, index))
        assert (literal.covers(X) == mask).all(), (literal, key)


def _reference_best(encoded, pos, neg, min_support):
    """Score every literal one at a time; the first best in candidate order."""
    best, best_gain = None, -np.inf
    n_pos, n_neg = len(pos), len(neg)
    for position in range(2 * encoded.n_slots):
        key = encoded.candidate(position)
        mask = encoded.mask(*key)
        tp, fp = int(mask[pos].sum()), int(mask[neg].sum())
        gain = float(split_gain(np.array([tp]), np.array([fp]), n_pos, n_neg)[0])
        ok = (tp >= min_support and fp < n_neg and tp + (n_neg - fp) >= fp + (n_pos - tp)
              and gain > 0.0)
        if ok and gain > best_gain + 1e-12:
            best, best_gain = key, gain
    return best


@SETTINGS
@given(tables(), st.sampled_from([1, 2]))
def test_best_literal_is_the_first_of_highest_gain(table, min_support):
    X, y = table
    encoded = _encode(X)
    pos, neg = _split(y)
    found = best_literal(encoded, pos, neg, frozenset(), 0.0, min_support)
    expected = _reference_best(encoded, pos, neg, min_support)
    if expected is None:
        assert found is None
    else:
        assert (found.column, found.relation, found.index) == expected


def test_gain_from_the_lookup_table_equals_the_formula():
    rng = np.random.default_rng(0)
    n_pos, n_neg = 37, 61
    tp = rng.integers(0, n_pos + 1, 500)
    fp = rng.integers(0, n_neg + 1, 500)
    table = np.zeros(n_pos + n_neg + 1)
    k = np.arange(1, n_pos + n_neg + 1, dtype=float)
    table[1:] = k * np.log2(k)
    assert np.allclose(split_gain(tp, fp, n_pos, n_neg, table), split_gain(tp, fp, n_pos, n_neg),
                       rtol=0, atol=1e-12)
    # a literal that separates the classes perfectly gains the whole entropy
    total = n_pos + n_neg
    entropy = -(n_pos / total) * np.log2(n_pos / total) - (n_neg / total) * np.log2(n_neg / total)
    assert np.isclose(split_gain(np.array([n_pos]), np.array([0]), n_pos, n_neg)[0], entropy)


def test_thresholds_lie_halfway_between_training_values():
    X = pd.DataFrame({"a": [1.0, 2.0, 4.0, np.nan], "b": ["x", "y", Negated("x"), np.nan]})
    X["b"] = X["b"].astype(object)
    encoded = _encode(X)
    assert encoded.literal_value(0, "<=", 0) == 1.5
    assert encoded.literal_value(0, ">", 1) == 3.0
    assert encoded.literal_value(0, "<=", 2) == 4.0      # the largest value keeps itself
    assert encoded.literal_value(1, "!=", 0) == "x"
    # b != x holds for y and for the classical negation -b(x), not for unknown
    assert encoded.mask(1, "!=", 0).tolist() == [False, True, True, False]


def test_excluded_literals_are_never_chosen():
    X = pd.DataFrame({"a": np.arange(10.0), "b": np.arange(10.0) % 3})
    y = np.array(["p"] * 5 + ["n"] * 5)
    encoded = _encode(X)
    pos, neg = _split(y)
    first = best_literal(encoded, pos, neg, frozenset(), 0.0)
    assert (first.column, first.relation, first.index) == (0, "<=", 4)
    second = best_literal(encoded, pos, neg, frozenset({(0, "<=", 4)}), 0.0)
    assert (second.column, second.relation, second.index) != (0, "<=", 4)
