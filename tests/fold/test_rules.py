"""Rule objects: values that evaluate themselves; NaN and Negated semantics."""

import dataclasses
import re

import numpy as np
import pandas as pd
import pytest

from fold import ClassRules, FoldInputError, Literal, Negated, Rule, Theory, get_engine
from fold.program import write_program
from fold.table import Schema

NAN = np.nan


def test_unknown_satisfies_neither_a_literal_nor_its_negation():
    X = pd.DataFrame({"age": [20.0, 40.0, NAN], "kind": ["a", NAN, "b"]})
    assert Literal("age", "<=", 30.0).covers(X).tolist() == [True, False, False]
    assert Literal("age", ">", 30.0).covers(X).tolist() == [False, True, False]
    assert Literal("kind", "==", "a").covers(X).tolist() == [True, False, False]
    assert Literal("kind", "!=", "a").covers(X).tolist() == [False, False, True]


def test_negated_cell_is_classical_negation():
    X = pd.DataFrame({"thal": [Negated("3"), "3", "7", NAN, Negated("6", "7")]})
    assert Literal("thal", "!=", "3").covers(X).tolist() == [True, False, True, False, False]
    assert Literal("thal", "==", "3").covers(X).tolist() == [False, True, False, False, False]
    # knowing "not 3" says nothing about 7
    assert Literal("thal", "!=", "7").covers(X).tolist() == [False, True, False, False, True]
    assert Literal("thal", "==", "7").covers(X).tolist() == [False, False, True, False, False]


def test_negated_marker_value():
    assert Negated(3) == Negated("3")
    assert repr(Negated("b", "a")) == "Negated('a', 'b')"
    with pytest.raises(FoldInputError):
        Negated()


def test_rules_are_immutable_hashable_and_repr_rebuilds():
    rule = Rule((Literal("a", "<=", 0.1 + 0.2),), (Rule((Literal("b", "==", "x'y"),)),))
    theory = Theory((ClassRules("yes", (rule,)),), "no")
    assert eval(repr(theory)) == theory
    assert hash(eval(repr(rule))) == hash(rule)
    assert rule.literals[0].value == 0.1 + 0.2  # exact, not rounded
    with pytest.raises(dataclasses.FrozenInstanceError):
        rule.literals = ()
    assert str(rule) == "a <= 0.30000000000000004 unless (b == x'y)"  # exact


def test_an_exception_with_exceptions_among_several_is_bracketed():
    inner = Rule((Literal("b", "==", "u"),), (Rule((Literal("c", ">", 1.0),)),))
    rule = Rule((Literal("a", ">", 0.0),), (Rule((Literal("d", "==", "v"),)), inner))
    assert str(rule) == "a > 0 unless (d == v or (b == u unless (c > 1)))"
    alone = Rule((Literal("a", ">", 0.0),), (inner,))
    assert str(alone) == "a > 0 unless (b == u unless (c > 1))"



def test_categories_of_one_feature_print_as_a_set():
    single = [Rule((Literal("city", "==", v),)) for v in ("x", "a, b")]
    other = Rule((Literal("city", "==", "y"), Literal("a", ">", 1.0)))  # not a single test
    body = (Literal("kind", "!=", "p"), Literal("a", ">", 0.0), Literal("kind", "!=", "{q}"))
    rule = Rule(body, (single[0], other, single[1]))
    assert str(rule) == ("kind not in {p, '{q}'} and a > 0 unless "
                         "(city in {x, 'a, b'} or city == y and a > 1)")
    assert rule.n_literals == 7   # each category is still a literal
    assert rule.printed_exceptions == (single[0], single[1], other)  # as the text shows
    # one test alone, or tests that a set would not join, print as before
    assert str(Rule(body[:2], single[:1])) == "kind != p and a > 0 unless (city == x)"
    assert str(Rule((Literal("kind", "==", "p"), Literal("kind", "==", "q")))) == \
        "kind == p and kind == q"

def test_rule_with_exceptions_and_theory_decision_list():
    X = pd.DataFrame({"a": [1.0, 1.0, 5.0, NAN], "b": ["x", "y", "x", "x"]})
    rule = Rule((Literal("a", "<=", 2.0),), (Rule((Literal("b", "==", "y"),)),))
    assert rule.covers(X).tolist() == [True, False, False, False]
    theory = Theory((ClassRules("p", (rule,)), ClassRules("q", (Rule((Literal("b", "==", "x"),)),))),
                    "r")
    assert theory.predict(X).tolist() == ["p", "r", "q", "q"]
    assert theory.n_rules == 3 and theory.n_literals == 3


def test_literal_validation():
    with pytest.raises(FoldInputError):
        Literal("a", "<", 1.0)
    with pytest.raises(FoldInputError):
        Literal("a", "<=", "x")
    with pytest.raises(FoldInputError):
        Literal("a", "==", 1.0)
    with pytest.raises(FoldInputError):
        Literal("a", ">", float("inf"))


@pytest.mark.parametrize("value, text", [(7073.5, "7073.5"), (123457.5, "123457.5"),
                                         (0.123456789, "0.123456789"), (30.0, "30")])
def test_thresholds_are_never_rounded_into_their_integer_part(value, text):
    assert str(Literal("x", ">", value)) == f"x > {text}"


def test_learned_thresholds_print_exactly_as_they_decide():
    from fold import FOLDClassifier

    X = pd.DataFrame({"v": np.repeat([12345.6, 12345.7], 50)})
    clf = FOLDClassifier().fit(X, np.repeat(["a", "b"], 50))
    assert str(clf.rules_).splitlines()[0] == "a if v <= 12345.65"


@pytest.mark.parametrize("literal, words", [
    (Literal("x", "==", "1"), "literal x == 1 is a categorical test of the numeric column 'x'"),
    (Literal("c", ">", 1.0), "literal c > 1 is a numeric test of the categorical column 'c'"),
    (Literal("z", "<=", 1.0), "literal z <= 1 tests 'z', which is not a column of the schema"),
])
def test_a_hand_built_literal_that_does_not_fit_its_column_is_not_written(literal, words):
    # Python would read 1.0 as the category "1"; the program's facts hold the number 1.0
    schema = Schema.from_frame(pd.DataFrame({"x": [1.0, 2.0], "c": ["a", "b"]}))
    theory = Theory((ClassRules("one", (Rule((literal,)),)),), "other")
    with pytest.raises(FoldInputError, match=f"^{re.escape(words)}$"):
        write_program(theory, schema, get_engine().reserved_predicates())
