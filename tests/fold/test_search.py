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
        at = encoded.layout_index(*key)
        assert tp[at] == mask[pos].sum() and fp[at] == mask[neg].sum()
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


def test_gain_is_the_same_bits_from_the_table_and_for_a_literals_complement():
    """The lookahead compares gains of both kinds (ties decide), and a literal and its
    complement must tie exactly."""
    from fold.search import _xlog2x

    rng = np.random.default_rng(1)
    for n_pos, n_neg in ((37, 61), (1, 500), (250, 250), (0, 9)):
        table = _xlog2x(np.arange(n_pos + n_neg + 1, dtype=np.float64))
        tp = rng.integers(0, n_pos + 1, 400)
        fp = rng.integers(0, n_neg + 1, 400)
        looked_up = split_gain(tp, fp, n_pos, n_neg, table)
        assert np.array_equal(looked_up, split_gain(tp, fp, n_pos, n_neg))
        complement = split_gain(n_pos - tp, n_neg - fp, n_pos, n_neg, table)
        assert np.array_equal(looked_up, complement)


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


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=tables(), draw=st.data())
def test_sparse_search_finds_the_same_literal_as_the_full_one(data, draw):
    """Scoring only the candidates that can win (the values the rows hold, categorical
    columns, the next slot after an excluded one) picks exactly the literal, and gain,
    that scoring every candidate picks, whatever the groups and excluded literals."""
    X, _ = data
    table = _encode(X)
    rows = np.arange(table.n_rows)
    chosen = draw.draw(st.lists(st.sampled_from(rows.tolist()), min_size=2, unique=True))
    split = draw.draw(st.integers(1, len(chosen) - 1))
    pos, neg = np.array(chosen[:split]), np.array(chosen[split:])
    keys = [table.candidate(p) for p in range(2 * table.n_slots)]
    excluded = frozenset(draw.draw(st.lists(st.sampled_from(keys), max_size=3))
                         if keys else [])
    support = draw.draw(st.integers(1, 3))
    full = best_literal(table, pos, neg, excluded, 0.0, support, sparse=False)
    fast = best_literal(table, pos, neg, excluded, 0.0, support, sparse=True)
    assert full == fast


def test_sparse_search_on_a_wide_numeric_table_matches_and_is_chosen():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(3000, 4)), columns=list("abcd"))
    table = _encode(X)
    assert table.sparse_pays(20) and not table.sparse_pays(3000)
    for seed in range(20):
        pick = np.random.default_rng(seed).choice(3000, 20, replace=False)
        pos, neg = pick[:8], pick[8:]
        first = best_literal(table, pos, neg, frozenset(), 0.0, sparse=False)
        excluded = frozenset() if first is None else frozenset(
            {(first.column, first.relation, first.index)})
        for ex in (frozenset(), excluded):
            assert (best_literal(table, pos, neg, ex, 0.0, sparse=False)
                    == best_literal(table, pos, neg, ex, 0.0, sparse=True))


def test_sparse_search_matches_on_many_random_groups_and_exclusions():
    """Dense excluded sets (several literals of one column, both relations) on tables with
    repeated values, unknown cells and negations: where the excluded literal of one
    relation must not hide a candidate of the other."""
    rng = np.random.default_rng(7)
    for _ in range(400):
        n = int(rng.integers(5, 40))
        numbers = rng.integers(0, int(rng.integers(2, 12)), n).astype(float)
        numbers[rng.random(n) < 0.15] = np.nan
        cells = [np.nan if r < 0.1 else Negated(str(c)) if r < 0.25 else str(c)
                 for r, c in zip(rng.random(n), rng.choice(["a", "b", "c"], n))]
        empty = np.full(n, np.nan)  # a column no row knows (a feature LIME never kept)
        table = _encode(pd.DataFrame({"e": empty, "n": numbers,
                                      "c": pd.Series(cells, dtype=object), "z": empty}))
        rows = rng.permutation(n)[: int(rng.integers(2, n + 1))]
        cut = int(rng.integers(1, len(rows)))
        keys = [table.candidate(p) for p in range(2 * table.n_slots)]
        excluded = frozenset(keys[i] for i in rng.choice(len(keys), min(6, len(keys)),
                                                         replace=False))
        assert (best_literal(table, rows[:cut], rows[cut:], excluded, 0.0, sparse=False)
                == best_literal(table, rows[:cut], rows[cut:], excluded, 0.0, sparse=True))
