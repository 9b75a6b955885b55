"""Predicates: evaluation on raw values (missing values, categories) and number printing."""

from datetime import timedelta
from decimal import Decimal

import numpy as np
import pandas as pd
import pytest

from imli import Predicate
from imli.predicates import category_codes, category_texts, format_value

MISSING = [None, np.nan, pd.NA, pd.NaT]


@pytest.mark.parametrize("relation", ["<=", ">"])
def test_a_missing_value_satisfies_no_threshold(relation):
    values = np.array([1.0, 3.0, *MISSING], dtype=object)
    result = Predicate("f", relation, 2.0).evaluate(values)
    assert result.tolist() == [relation == "<=", relation == ">"] + [False] * len(MISSING)
    nullable = pd.Series([1, 3, None], dtype="Int64")
    assert Predicate("f", relation, 2.0).evaluate(nullable).tolist() == result[:3].tolist()


def test_categories_match_numerically_equal_values():
    values = np.array([1, 1.0, np.int64(1), np.float32(1.0), "1", 2, 1.5, "1.0", *MISSING],
                      dtype=object)
    expected = [True] * 5 + [False] * (3 + len(MISSING))
    for category in ("1", 1, 1.0):
        assert Predicate("code", "==", category).evaluate(values).tolist() == expected
    # `!=` is a known other category: a missing value satisfies neither test
    assert Predicate("code", "!=", "1").evaluate(values).tolist() == (
        [False] * 5 + [True] * 3 + [False] * len(MISSING))
    assert Predicate("x", "==", 1.5).evaluate([1.5, np.float64(1.5), "1.5", 1]).tolist() == [
        True, True, True, False]


def test_booleans_stay_their_own_categories():
    values = np.array([True, np.True_, 1, "True", None], dtype=object)
    assert Predicate("b", "==", "True").evaluate(values).tolist() == [
        True, True, False, True, False]
    assert Predicate("b", "==", "1").evaluate(values).tolist() == [
        False, False, True, False, False]


@pytest.mark.parametrize("values, expected", [
    # True == 1 in Python, but they are two categories
    ([1, True, 1.0, False, 0, np.True_, None], ["1", "True", "1", "False", "0", "True", None]),
    ([True, 1, "a", np.nan, 0.0, False, "True"], ["True", "1", "a", None, "0", "False", "True"]),
    (pd.Series(["b", None, "a", "b"], dtype="category"), ["b", None, "a", "b"]),
    (pd.Series([3, None, 3], dtype="Int64"), ["3", None, "3"]),
    # equal values that print differently keep their own texts, whatever comes first
    ([Decimal("1.0"), Decimal("1"), 2], ["1.0", "1", "2"]),
    ([timedelta(days=1), pd.Timedelta(days=1)], [str(timedelta(days=1)),
                                                 str(pd.Timedelta(days=1))]),
])
def test_category_codes_give_each_value_its_own_text(values, expected):
    assert category_texts(values).tolist() == expected
    codes, texts = category_codes(values)
    assert [None if c < 0 else texts[c] for c in codes] == expected
    assert len(texts) == len(set(texts))


@pytest.mark.parametrize("value, text", [
    (0.78, "0.78"), (39.5, "39.5"), (30.0, "30.0"), (-2.0, "-2.0"), (0.0, "0.0"),
    (2.123456789, "2.123456789"), (123456.789, "123456.789"), (0.00012345, "0.00012345"),
    (1.1754943508222875e-308, "1.1754943508222876e-308"), (6.626e199, "6.626e+199"),
    (-5e-300, "-5e-300"), (1e16, "1e+16"), (3.3e-05, "3.3e-05"), (0.1 + 0.2, "0.30000000000000004"),
])
def test_numbers_print_exactly_in_the_fewest_digits(value, text):
    assert format_value(value) == text
    assert format_value(np.float64(value)) == text
    assert float(text) == value


@pytest.mark.parametrize("value", [1.1754943508222875e-308, 6.626e199, 1 / 3, 5e-324, 1e300])
def test_numbers_round_trip_with_enough_digits(value):
    assert float(format_value(value, 17)) == value
    assert len(format_value(value, 17)) <= 24


def test_rule_text_quotes_what_could_mislead():
    import pandas as pd

    from imli import IMLIClassifier
    from imli.predicates import readable

    assert readable("a\nb") == "'a\\nb'" and readable("Zürich 😀") == "Zürich 😀"
    for misleading in ("b AND x > 5", "<0", "not", "x OR", "", "'and'", "\"x", "a, b", "{e"):
        assert readable(misleading) == repr(misleading)
    rng = np.random.default_rng(0)
    c = rng.choice(["x\ny", "p\u202eq", "ok"], 120)
    flag = rng.integers(0, 2, 120)
    X = pd.DataFrame({"c\u202ed": c, "fl\nag": flag})
    y = np.where((c == "x\ny") | (flag == 1), 1, 0)
    text = str(IMLIClassifier(n_clauses=2, rule_type="DNF").fit(X, y).rules_)
    assert "\n" not in text and "\u202e" not in text
    assert "fl\\nag" in text and "c\\u202ed" in text


def test_the_word_is_is_quoted_where_an_explanation_would_read_as_two_tests():
    """A value ``ok is bad`` showed as ``(state is ok is bad)``: state ``ok``, and what?"""
    import pandas as pd

    from imli import IMLIClassifier
    from imli.predicates import readable

    for misleading in ("ok is bad", "is", "x IS", "Is y", "a\tis b", " a", "a ", ""):
        assert readable(misleading) == repr(misleading)
    for plain in ("no checking", "island", "this", "Isle of Man", "a  b", "isn't"):
        assert readable(plain) == plain
    rng = np.random.default_rng(0)
    c = rng.choice(["ok is bad", "fine", "Isle of Man"], 90)
    X = pd.DataFrame({"state": c, "x is y": rng.normal(size=90)})
    clf = IMLIClassifier(n_clauses=1, rule_type="DNF").fit(X, np.where(c == "ok is bad", 1, 0))
    assert str(clf.rules_) == "(state == 'ok is bad')"
    row = int(np.flatnonzero(c == "ok is bad")[0])
    assert "(state is 'ok is bad')" in str(clf.explain(X.iloc[[row]]))


def test_a_bracket_without_its_pair_is_quoted_in_rule_text():
    """A name ``flag (0/1`` opened a bracket that its clause's ``)`` closed:
    ``(flag (0/1) OR …``."""
    import pandas as pd

    from imli import IMLIClassifier
    from imli.predicates import readable

    for unpaired in ("w)", "(v", "a)(b", "f(x"):
        assert readable(unpaired) == repr(unpaired) == readable(unpaired, name=True)
    for paired in ("width (cm)", "f(x)", "(a)(b)", "((x))"):
        assert readable(paired) == paired
    rng = np.random.default_rng(0)
    c = rng.choice(["w)", "(v", "ok"], 120)
    flag = rng.integers(0, 2, 120)
    X = pd.DataFrame({"c": c, "flag (0/1": flag})
    y = np.where((c == "w)") | (flag == 1), 1, 0)
    text = str(IMLIClassifier(n_clauses=2, rule_type="DNF").fit(X, y).rules_)
    assert "'(v'" in text and "'flag (0/1'" in text


@pytest.mark.parametrize("value, text", [(7073.5, "7073.5"), (123456.789, "123456.8"),
                                         (39.5, "39.5"), (0.123456, "0.1235")])
def test_rounded_numbers_are_never_rounded_into_their_integer_part(value, text):
    assert format_value(value, 4) == text


def test_a_column_named_like_a_number_is_quoted():
    assert Predicate("1e5", "<=", 2.0).describe() == "'1e5' <= 2.0"
    assert Predicate("-3", "==", "1").describe() == "'-3' == 1"
    assert Predicate("x1", ">", 0.5).describe() == "x1 > 0.5"


def test_joiners_of_persian_words_and_emoji_are_not_quoted():
    persian = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"
    family = "\U0001f468\u200d\U0001f469"
    assert Predicate(persian, ">", 1.0).describe() == f"{persian} > 1.0"
    assert Predicate("x", "==", family).describe() == f"x == {family}"
    assert Predicate("x\u202e", ">", 1.0).describe() == "'x\\u202e' > 1.0"  # still quoted
