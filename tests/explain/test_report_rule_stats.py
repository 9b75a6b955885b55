"""Per-rule coverage and precision, checked against hand-computed values."""

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from explain.report_details import lime_feature_frequency
from explain.report_md import missing_selections_note, visible
from explain.rule_stats import feature_usage, fold_rule_stats, imli_rule_stats
from fold import ClassRules, Theory
from fold import Literal as FoldLiteral
from fold import Rule as FoldRule
from imli import CNF, DNF, Clause, DecisionList, Literal, Predicate
from imli import Rule as ImliRule

CLASSES = ("no", "yes")
# Six rows over the binary columns a, b, c.
X = np.array([
    [1, 0, 0],  # r0
    [0, 1, 0],  # r1
    [0, 0, 0],  # r2
    [1, 0, 1],  # r3
    [0, 1, 1],  # r4
    [1, 1, 0],  # r5
])
BB = np.array([1, 1, 0, 0, 1, 0])
A, B, C = (Literal(j, name) for j, name in enumerate("abc"))


def _triples(stats):
    return [(s.kind, s.predicts, s.covered, s.precision) for s in stats]


def test_cnf_whole_rule_and_clauses():
    rule = CNF((Clause((A, B)), Clause((C.negate(),))))
    stats = imli_rule_stats(rule, X, BB, CLASSES)
    # whole rule holds on r0, r1, r5 (bb 1, 1, 0); clause 1 fails on r2 (bb 0);
    # clause 2 fails on r3, r4 (bb 0, 1): those rows go to "no".
    assert _triples(stats) == [
        ("rule", "yes", 3, pytest.approx(2 / 3)),
        ("clause", "no", 1, 1.0),
        ("clause", "no", 2, 0.5),
    ]
    assert stats[0].coverage == 0.5 and stats[1].coverage == pytest.approx(1 / 6)
    assert stats[1].text == "(a OR b)" and stats[2].depth == 1


def test_dnf_terms():
    rule = DNF((Clause((A, C.negate()), "AND"), Clause((B, C), "AND")))
    stats = imli_rule_stats(rule, X, BB, CLASSES)
    # term 1 holds on r0, r5 (bb 1, 0); term 2 on r4 (bb 1); the rule on r0, r4, r5.
    assert _triples(stats) == [
        ("rule", "yes", 3, pytest.approx(2 / 3)),
        ("term", "yes", 2, 0.5),
        ("term", "yes", 1, 1.0),
    ]


def test_empty_rules_say_always_or_never():
    assert imli_rule_stats(DNF(()), X, BB, CLASSES)[0].text == "yes never (no term)"
    assert imli_rule_stats(CNF(()), X, BB, CLASSES)[0].text == "yes always (no clause)"


def test_the_whole_rule_counts_its_clauses_or_terms():
    texts = [imli_rule_stats(kind(tuple(Clause((lit,), op) for lit in literals)), X, BB,
                             CLASSES)[0].text
             for kind, op in ((CNF, "OR"), (DNF, "AND")) for literals in ((A, B), (A,))]
    assert texts == ["yes IF all 2 clauses below hold", "yes IF the clause below holds",
                     "yes IF any of the 2 terms below holds", "yes IF the term below holds"]


def test_decision_list_counts_the_rows_each_rule_decides():
    rules = DecisionList((ImliRule(Clause((B,), "AND"), 1), ImliRule(Clause((C,), "AND"), 0)),
                         default=0)
    stats = imli_rule_stats(rules, X, BB, CLASSES)
    # b decides r1, r4, r5 (bb 1, 1, 0); c decides r3 (bb 0); the default r0, r2 (bb 1, 0).
    assert _triples(stats) == [
        ("list rule", "yes", 3, pytest.approx(2 / 3)),
        ("list rule", "no", 1, 1.0),
        ("default", "no", 2, 0.5),
    ]
    # each rule says its class by name, as the learner prints it
    assert [s.text for s in stats] == ["IF (b) THEN yes", "IF (c) THEN no", "no otherwise"]


def test_a_part_covering_no_row_has_no_precision():
    rule = DNF((Clause((A, A.negate()), "AND"),))
    stats = imli_rule_stats(rule, X, BB, CLASSES)
    assert stats[1].covered == 0 and stats[1].precision is None
    assert stats[1].precision_ci is None


def test_precision_comes_with_the_wilson_interval_of_its_rows():
    from explain.metrics import agreement_interval

    stats = imli_rule_stats(CNF((Clause((A, B)), Clause((C.negate(),)))), X, BB, CLASSES)
    # the rule: 2 of 3 rows right; clause 1: 1 of 1; clause 2: 1 of 2
    assert [s.precision_ci for s in stats] == [agreement_interval(2, 3),
                                               agreement_interval(1, 1),
                                               agreement_interval(1, 2)]
    assert stats[1].precision_ci[0] < 0.25  # one row right says little


def _theory():
    again = FoldRule((FoldLiteral("age", ">", 60.0),))
    exception = FoldRule((FoldLiteral("city", "==", "x"),), exceptions=(again,))
    first = FoldRule((FoldLiteral("age", ">", 30.0),), exceptions=(exception,))
    second = FoldRule((FoldLiteral("income", ">", 100.0),))
    return Theory((ClassRules("yes", (first, second)),), default="no")


FOLD_X = pd.DataFrame({
    "age": [40.0, 40.0, 70.0, 20.0, 20.0, 35.0],
    "city": ["y", "x", "x", "x", "y", "x"],
    "income": [10.0, 10.0, 10.0, 200.0, 10.0, 150.0],
})
FOLD_BB = np.array([1, 1, 1, 1, 0, 0])


def test_fold_rules_exceptions_and_default():
    stats = fold_rule_stats(_theory(), FOLD_X, FOLD_BB, CLASSES)
    # rule 1 (age > 30 unless city == x unless age > 60) fires on r0, r2 (bb yes, yes);
    # its exception holds on r1, r5 but decides r1 only (bb yes): rule 2 still gives r5
    # to yes; the exception's own exception gives r2 back;
    # rule 2 (income > 100) fires on r3, r5 (bb yes, no); the default gets r1, r4.
    # An exception decides toward the other class, named as such (not "not yes").
    assert _triples(stats) == [
        ("fold rule", "yes", 2, 1.0),
        ("exception", "no", 1, 0.0),
        ("exception", "yes", 1, 1.0),
        ("fold rule", "yes", 2, 0.5),
        ("default", "no", 2, 0.5),
    ]
    assert [s.depth for s in stats] == [0, 1, 2, 0, 0]
    assert stats[0].text == "yes if age > 30" and stats[1].text == "unless city == x"


def test_an_exception_to_an_exception_counts_only_rows_its_rule_then_takes():
    # x <= 5 would take the row from `yes if true`, y <= 5 gives it back, but z <= 5 takes
    # it too: the first rule does not fire, and the second (w > 0) gives the row to yes
    gives_back = FoldRule((FoldLiteral("y", "<=", 5.0),))
    first = FoldRule((), (FoldRule((FoldLiteral("x", "<=", 5.0),), (gives_back,)),
                          FoldRule((FoldLiteral("z", "<=", 5.0),))))
    second = FoldRule((FoldLiteral("w", ">", 0.0),))
    theory = Theory((ClassRules("yes", (first, second)),), "no")
    X = pd.DataFrame({"x": [1.0, 1.0], "y": [1.0, 1.0], "z": [1.0, 9.0], "w": [1.0, 1.0]})
    stats = fold_rule_stats(theory, X, np.array([1, 1]), CLASSES)
    # row 0: no part of the first rule decides it; row 1 (z > 5): the exception's
    # exception gives it back, and the first rule fires
    assert [(s.text, s.covered) for s in stats] == [
        ("yes if true", 1), ("unless x <= 5", 0), ("unless y <= 5", 1),
        ("unless z <= 5", 0), ("yes if w > 0", 2), ("no otherwise", 0)]


def test_fold_exceptions_are_listed_as_the_rule_prints_them():
    # "unless (city in {x, z} or age > 60)": the table had city == x, age > 60, city == z
    exceptions = tuple(FoldRule((lit,)) for lit in (
        FoldLiteral("city", "==", "x"), FoldLiteral("age", ">", 60.0),
        FoldLiteral("city", "==", "z")))
    rule = FoldRule((FoldLiteral("age", ">", 30.0),), exceptions=exceptions)
    theory = Theory((ClassRules("yes", (rule,)),), default="no")
    assert str(rule) == "age > 30 unless (city in {x, z} or age > 60)"
    stats = fold_rule_stats(theory, FOLD_X, FOLD_BB, CLASSES)
    assert [s.text for s in stats[1:4]] == ["unless city == x", "unless city == z",
                                            "unless age > 60"]


def test_labels_that_read_as_rule_text_are_quoted_as_in_the_rules():
    theory = Theory((ClassRules("no if a > 5", (FoldRule((FoldLiteral("age", ">", 30.0),)),)),),
                    default="yes otherwise")
    stats = fold_rule_stats(theory, FOLD_X, FOLD_BB, ("yes otherwise", "no if a > 5"))
    assert [s.text for s in stats] == ["'no if a > 5' if age > 30", "'yes otherwise' otherwise"]
    assert [s.predicts for s in stats] == ["no if a > 5", "yes otherwise"]  # the labels
    rule = DNF((Clause((A,), "AND"),))
    texts = [s.text for s in imli_rule_stats(rule, X, BB, ("no\nway", "yes or no"))]
    assert texts[0] == "'yes or no' IF the term below holds"
    rule = DecisionList((ImliRule(Clause((A,), "AND"), 1),), default=0)
    texts = [s.text for s in imli_rule_stats(rule, X, BB, ("no\nway", "yes or no"))]
    assert texts[-1] == "'no\\nway' otherwise"


def test_feature_usage_counts_literals_per_feature():
    imli_rule = CNF((Clause((Literal(0, "age > 3", predicate=Predicate("age", ">", 3.0)),
                             Literal(1, "age <= 9", predicate=Predicate("age", "<=", 9.0)))),
                     Clause((Literal(2, "x"),))))
    imli = SimpleNamespace(name="imli", estimator=SimpleNamespace(rules_=imli_rule))
    fold = SimpleNamespace(name="fold", estimator=SimpleNamespace(rules_=_theory()))
    assert feature_usage(imli) == {"age": 2, "x": 1}
    assert feature_usage(fold) == {"age": 2, "city": 1, "income": 1}


def test_lime_feature_frequency():
    features = np.array([[0, 1], [1, -1], [1, 2]])
    weights = np.array([[0.5, -0.2], [0.3, 0.0], [-0.1, 0.4]])
    rows = lime_feature_frequency(features, weights, ["a", "b", "c"],
                                  {"imli": {"b": 2}, "fold": {"c": 1}})
    assert [r["feature"] for r in rows] == ["b", "a", "c"]  # ties keep table order
    b, a, c = rows
    assert (b["selected"], b["rate"], b["toward_positive"]) == (3, 1.0, pytest.approx(1 / 3))
    assert (a["selected"], a["rate"], a["toward_positive"]) == (1, pytest.approx(1 / 3), 1.0)
    assert (b["imli"], b["fold"], c["imli"], c["fold"]) == (2, 0, 0, 1)


def test_lime_selections_of_missing_values_are_counted_apart():
    # LIME explains a missing value as imputed; the filtered rows do not keep it
    features = np.array([[0, 1], [1, -1], [1, 2]])
    weights = np.array([[0.5, -0.2], [0.3, 0.0], [-0.1, 0.4]])
    known = np.array([[True, False, True], [True, False, True], [True, True, True]])
    rows = lime_feature_frequency(features, weights, ["a", "b", "c"], {}, known)
    by_name = {r["feature"]: r for r in rows}
    b = by_name["b"]
    assert (b["selected"], b["selected_missing"], b["toward_positive"]) == (1, 2, 0.0)
    assert [r["feature"] for r in rows] == ["a", "b", "c"]  # ties (1 row each) keep order
    assert by_name["a"]["selected_missing"] == 0
    note = missing_selections_note(rows)
    assert note.endswith("selections the filtered rows do not keep: b (2 rows).")
    assert missing_selections_note(lime_feature_frequency(features, weights,
                                                          ["a", "b", "c"], {})) is None


def test_the_missing_selections_note_quotes_each_name_alone():
    # a name with a line break made the whole note one quoted string, escapes and all
    features = np.array([[0, 1], [1, -1], [1, 0]])
    weights = np.array([[0.5, -0.2], [0.3, 0.0], [-0.1, 0.4]])
    known = np.array([[False, True], [False, True], [True, True]])
    rows = lime_feature_frequency(features, weights, ["new\nline", "b"], {}, known)
    note = missing_selections_note(rows)
    assert note.startswith("Not counted above: LIME also selected")
    assert note.endswith("do not keep: 'new\\nline' (1 row).")
    assert visible(note) == note
