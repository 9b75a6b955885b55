"""IMLIClassifier.explain: the clauses, terms or rules that decide one row's label."""

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.exceptions import NotFittedError

from imli import (CNF, DNF, Binarizer, Clause, DecisionList, DecisionSet, IMLIClassifier,
                  Literal, Predicate, Rule)
from imli.explanation import explain_row
from imli.predicates import format_value, readable

ROWS = range(0, 150, 7)


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    return X.iloc[:300, :6], y.iloc[:300]


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True, as_frame=True)


@pytest.mark.parametrize("rule_type", ["CNF", "DNF"])
def test_the_decisive_clauses_decide_as_said(cancer, rule_type):
    X, y = cancer
    clf = IMLIClassifier(n_clauses=2, rule_type=rule_type, random_state=0,
                         time_limit=10).fit(X, y)
    both = set()
    for i in ROWS:
        row = X.iloc[[i]]
        e = clf.explain(row)
        assert e.label == clf.predict(row)[0]
        Xb, _ = clf._binary(row, reset=False)
        holds = [bool(c.evaluate(Xb)[0]) for c in e.decisive]
        positive = e.label == clf.classes_[1]
        both.add(positive)
        if rule_type == "CNF":
            # positive: every clause, each true; negative: the failing clauses only
            assert holds == [positive] * len(e.decisive)
            assert (len(e.decisive) == len(clf.rules_.clauses)) or not positive
        else:
            assert holds == [positive] * len(e.decisive)
            assert (len(e.decisive) == len(clf.rules_.clauses)) or positive
        assert e.decisive and str(e).startswith(f"{e.label}: ")
        for clause in e.decisive:
            assert str(clause) in e.text
    assert both == {True, False}


def test_each_literal_shows_the_rows_value(iris):
    X, y = iris
    clf = IMLIClassifier(mode="decision_list", random_state=0, time_limit=10).fit(X, y)
    for i in ROWS:
        row = X.iloc[[i]]
        e = clf.explain(row)
        assert e.label == clf.predict(row)[0]
        shown = [line for line in e.text.splitlines() if line.startswith("      ")]
        assert shown
        for line in shown:
            feature = next(c for c in X.columns if f"({c} is " in line)
            assert f"({feature} is {float(X.iloc[i][feature])!r})" in line


def test_a_decision_list_is_decided_by_its_first_rule_that_fires(iris):
    X, y = iris
    clf = IMLIClassifier(mode="decision_list", random_state=0, time_limit=10).fit(X, y)
    rules = clf.rules_
    seen = set()
    for i in ROWS:
        row = X.iloc[[i]]
        e = clf.explain(row)
        Xb, _ = clf._binary(row, reset=False)
        k = int(rules.decisive(Xb)[0])
        seen.add(k)
        assert e.decisive == rules.rules[k:k + 1]
        assert e.text.count("fails: ") == k
        if k == len(rules.rules):
            assert "no rule fires, so the default" in e.text
    assert len(seen) >= 2


def test_a_decision_set_names_the_rules_that_vote_for_the_label(iris):
    X, y = iris
    clf = IMLIClassifier(mode="decision_set", random_state=0, time_limit=10).fit(X, y)
    for i in ROWS:
        row = X.iloc[[i]]
        e = clf.explain(row)
        Xb, _ = clf._binary(row, reset=False)
        fired = clf.rules_.fired(Xb)[0]
        assert e.label == clf.predict(row)[0]
        assert e.decisive == tuple(r for r, f in zip(clf.rules_.rules, fired)
                                   if f and r.label == e.label)
        assert bool(e.decisive) == bool(fired.any())


def test_a_missing_value_is_shown_as_unknown(cancer):
    X, y = cancer
    clf = IMLIClassifier(n_clauses=1, random_state=0, time_limit=10).fit(X, y)
    row = X.iloc[[0]].copy()
    row.iloc[0, :] = np.nan
    e = clf.explain(row)
    assert e.label == clf.predict(row)[0]
    # the word FOLD's explanations use, so that a report's reasons say one word
    assert " is unknown)" in e.text and "missing" not in e.text


def test_a_binary_matrix_shows_each_columns_bit():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(80, 4))
    y = X[:, 0] | X[:, 1]
    clf = IMLIClassifier(n_clauses=1, random_state=0).fit(X, y)
    e = clf.explain(X[[0]])
    assert e.label == clf.predict(X[[0]])[0]
    assert all(f"(x{c} is {X[0, c]})" in e.text or f"x{c}" not in e.text for c in range(4))


def test_rules_without_clauses_say_so():
    B = np.zeros((1, 1), dtype=bool)
    classes = np.array(["no", "yes"])
    assert explain_row(CNF(()), B, {}, classes, "yes").text.endswith("TRUE (it has no clause)")
    assert explain_row(DNF(()), B, {}, classes, "no").text.endswith("FALSE (it has no term)")
    lit = Literal(0, "f", predicate=Predicate("f", "<=", 1.0))
    e = explain_row(DecisionList((), "no"), B, {"f": 3.0}, classes, "no")
    assert e.decisive == () and e.text == "no: it has no rule (ALWAYS no)"
    e = explain_row(CNF((Clause((lit,)),)), B, {"f": 3.0}, classes, "no")
    assert e.text.splitlines()[-1].strip() == "f <= 1.0   (f is 3.0)"


def test_bad_calls_are_one_line_errors(iris):
    X, y = iris
    with pytest.raises(NotFittedError):
        IMLIClassifier().explain(X.iloc[[0]])
    clf = IMLIClassifier(mode="decision_list", random_state=0, time_limit=10).fit(X, y)
    with pytest.raises(ValueError, match=r"^explain needs exactly one row, got 2; pass "):
        clf.explain(X.iloc[:2])
    with pytest.raises(ValueError, match="pandas Series"):
        clf.explain(X.iloc[0])
    with pytest.raises(ValueError):
        clf.explain(pd.DataFrame({"other": [1.0]}))


def test_binary_columns_with_predicates_show_the_columns_bit_not_a_feature_value():
    """On a binarized view (``column_specs``) the row holds no value of the feature: the
    literal shows its column's 0 or 1, by the column's name ("age is 1" would read as an
    age)."""
    clf, X, _ = _binarized_age()
    assert str(clf.rules_) == "(age > 45.0)"
    for i in range(5):
        text = clf.explain(X.iloc[[i]]).text
        assert text.endswith(f"age > 45.0   (column old is {X['old'].iloc[i]})")
        assert "age is" not in text


def test_original_values_can_be_shown_beside_a_binarized_views_literals():
    clf, X, age = _binarized_age()
    raw = pd.DataFrame({"age": age})
    text = clf.explain(X.iloc[[3]], values=raw.iloc[[3]]).text
    assert text.endswith(f"age > 45.0   (age is {float(age[3])!r})")
    with pytest.raises(ValueError, match="^values must be a DataFrame with the one row"):
        clf.explain(X.iloc[[3]], values=raw.iloc[:2])


def test_a_binary_column_named_like_a_feature_is_not_shown_as_its_value():
    """On a binarized view a column may bear the name of a feature another column tests
    ("age" holding whether income > 5): its bit is no value of that feature."""
    rng = np.random.default_rng(0)
    age, income = rng.uniform(20, 70, 120), rng.uniform(0, 10, 120)
    X = pd.DataFrame({"old": (age > 45).astype(int), "age": (income > 5).astype(int)})
    clf = IMLIClassifier(n_clauses=1, random_state=0).fit(
        X, (age > 45).astype(int),
        column_specs=[Predicate("age", ">", 45.0), Predicate("income", ">", 5.0)])
    assert str(clf.rules_) == "(age > 45.0)"
    for i in range(5):
        text = clf.explain(X.iloc[[i]]).text
        assert text.endswith(f"age > 45.0   (column old is {X['old'].iloc[i]})")


def _binarized_age():
    age = np.random.default_rng(0).uniform(20, 70, 120)
    X = pd.DataFrame({"old": (age > 45).astype(int), "young": (age <= 30).astype(int)})
    clf = IMLIClassifier(n_clauses=1, random_state=0).fit(
        X, (age > 45).astype(int),
        column_specs=[Predicate("age", ">", 45.0), Predicate("age", "<=", 30.0)])
    return clf, X, age


def test_values_without_a_feature_of_the_rule_are_refused():
    clf, X, age = _binarized_age()
    with pytest.raises(ValueError, match=r"^values has no column 'age', a feature the rule "):
        clf.explain(X.iloc[[3]], values=pd.DataFrame({"Age": [age[3]]}))


@pytest.mark.parametrize("cell", [np.nan, pd.NA, 30.0])
def test_values_that_contradict_the_row_are_refused(cell):
    """A value shown beside a literal must make it hold or fail as the rule reads the row
    (another row's values, or a missing one, would show 'age > 45.0 (age is 30.0)')."""
    clf, X, age = _binarized_age()
    i = int(np.argmax(age > 45))
    values = pd.DataFrame({"age": pd.array([cell], dtype=object)})
    with pytest.raises(ValueError, match=r"^values do not match X: age is "):
        clf.explain(X.iloc[[i]], values=values)


def test_a_frozenset_cell_is_a_value_known_to_be_none_of_its_categories():
    # LIME's one-hot view keeps "city is not b" (the binary view's city != b column; the
    # table's cell, given to explain, as the categories it is not)
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"not b": rng.integers(0, 2, 80), "not d": rng.integers(0, 2, 80)})
    clf = IMLIClassifier(n_clauses=2, batch_size=None, random_state=0).fit(
        X, X["not b"] & X["not d"],
        column_specs=[Predicate("city", "!=", "b"), Predicate("city", "!=", "d")])
    assert str(clf.rules_) == "(city != b) AND (city != d)"
    row = pd.DataFrame({"not b": [1], "not d": [0]})
    e = clf.explain(row, values=pd.DataFrame({"city": [frozenset({"b", "c"})]}))
    assert e.label == 0 and e.summary == (
        "1 of 2 clauses fails, every literal of it false: city != d fails "
        "(city is known not b, c)")
    both = clf.explain(row.assign(**{"not d": 1}),
                       values=pd.DataFrame({"city": [frozenset({"b", "d"})]}))
    assert both.label == 1 and "(city is known not b, d)" in both.summary
    # a known city other than b and d would make city != d hold: not this row's values
    for cell in ("a", frozenset({"d"})):
        with pytest.raises(ValueError, match=r"^values do not match X: city is "):
            clf.explain(row, values=pd.DataFrame({"city": [cell]}))


def test_a_category_named_unknown_is_quoted_where_an_empty_cell_reads_unknown():
    # the bank marketing table's job has a category 'unknown': unquoted, "(job is unknown)"
    # would read as a missing value
    X = pd.DataFrame({"is admin": [1, 0, 0, 1] * 10})
    clf = IMLIClassifier(n_clauses=1, batch_size=None, random_state=0).fit(
        X, X["is admin"], column_specs=[Predicate("job", "==", "admin")])
    assert str(clf.rules_) == "(job == admin)"
    row = pd.DataFrame({"is admin": [0]})
    shown = {cell: clf.explain(row, values=pd.DataFrame({"job": pd.array([cell], dtype=object)}))
             .summary for cell in ("Unknown", np.nan, frozenset({"admin", "unknown"}))}
    assert "(job is 'Unknown')" in shown["Unknown"]
    assert "(job is unknown)" in shown[np.nan]
    assert "(job is known not 'unknown', admin)" in shown[frozenset({"admin", "unknown"})]


def test_values_with_two_columns_of_one_name_are_refused():
    clf, X, age = _binarized_age()
    values = pd.DataFrame([[age[3], 1.0]], columns=["age", "age"])
    with pytest.raises(ValueError, match=r"^values has two columns of one name"):
        clf.explain(X.iloc[[3]], values=values)


def test_the_row_is_checked_once(iris):
    """An array for a DataFrame-fitted estimator: scikit-learn's warning comes once."""
    X, y = iris
    clf = IMLIClassifier(mode="decision_list", random_state=0, time_limit=10).fit(X, y)
    with pytest.warns(UserWarning, match="does not have valid feature names") as caught:
        e = clf.explain(X.to_numpy()[[60]])
    assert len(caught) == 1
    assert e.label == clf.predict(X.iloc[[60]])[0]


def _bits(*literals):
    return [Literal(i, name) for i, name in enumerate(literals)]


@pytest.mark.parametrize("rule, row, head", [
    (CNF((Clause(_bits("a")),)), [0, 0], "no: its one clause fails, every literal of it false"),
    (CNF((Clause(_bits("a")),)), [1, 0], "yes: its one clause holds, by the literal shown"),
    (CNF((Clause(_bits("a", "b")),)), [1, 1],
     "yes: its one clause holds, by the literals shown"),
    (CNF((Clause(_bits("a")), Clause(_bits("a", "b")[1:]))), [0, 0],
     "no: both clauses fail, every literal of each false"),
    (CNF((Clause(_bits("a")), Clause(_bits("a", "b")[1:]))), [0, 1],
     "no: 1 of 2 clauses fails, every literal of it false"),
    (CNF((Clause(_bits("a", "b")), Clause(_bits("a")))), [1, 1],
     "yes: both clauses hold, each by the literals shown"),
    (CNF((Clause(_bits("a", "b")), Clause(_bits("a")))), [1, 0],
     "yes: both clauses hold, each by the literal shown"),
    (DNF((Clause(_bits("a", "b"), "AND"),)), [1, 1],
     "yes: its one term holds, every literal of it true"),
    (DNF((Clause(_bits("a", "b"), "AND"),)), [1, 0],
     "no: its one term fails at the literal shown"),
    (DNF((Clause(_bits("a"), "AND"), Clause(_bits("a", "b")[1:], "AND"))), [1, 0],
     "yes: 1 of 2 terms holds, every literal of it true"),
    (DNF((Clause(_bits("a"), "AND"), Clause(_bits("a", "b")[1:], "AND"))), [1, 1],
     "yes: both terms hold, every literal of each true"),
    (DNF((Clause(_bits("a"), "AND"), Clause(_bits("a", "b")[1:], "AND"))), [0, 0],
     "no: no term holds; each fails at the literal shown"),
])
def test_counts_read_well(rule, row, head):
    B = np.array([row], dtype=bool)
    label = "yes" if rule.covers(B)[0] else "no"
    e = explain_row(rule, B, {}, np.array(["no", "yes"]), label)
    assert e.text.splitlines()[0] == head


def test_a_tie_in_a_decision_set_is_not_called_outvoted():
    a, b = _bits("a", "b")
    rules = DecisionSet((Rule(Clause((a,), "AND"), "x"), Rule(Clause((b,), "AND"), "y")), "z")
    B = np.ones((1, 2), dtype=bool)
    label = rules.predict(B)[0]
    text = explain_row(rules, B, {}, np.array(["x", "y", "z"]), label).text
    assert label == "x" and "outvoted" not in text
    assert text.splitlines()[0] == ("x: one of its rules fires, as many as for y; the tie "
                                    "goes to the label whose first rule to fire comes earlier")
    assert "  fires too, tied: IF (b) THEN y" in text.splitlines()
    rules = DecisionSet(rules.rules + (Rule(Clause((b,), "AND"), "y"),), "z")
    text = explain_row(rules, B, {}, np.array(["x", "y", "z"]), "y").text
    assert text.splitlines()[0] == "y: 2 of its rules fire"
    assert "  fires too, outvoted: IF (a) THEN x" in text.splitlines()


def test_a_tie_in_a_decision_set_names_the_rule_that_breaks_it():
    # predict breaks a tie by the earliest rule that fires, not the label's first rule:
    # here x's first rule (c) comes before y's, but does not fire, and y wins
    a, b, c = _bits("a", "b", "c")
    rules = DecisionSet((Rule(Clause((c,), "AND"), "x"), Rule(Clause((b,), "AND"), "y"),
                         Rule(Clause((a,), "AND"), "x")), "z")
    B = np.array([[1, 1, 0]], dtype=bool)
    label = rules.predict(B)[0]
    text = explain_row(rules, B, {}, np.array(["x", "y", "z"]), label).text
    assert label == "y"
    assert text.splitlines()[0] == ("y: one of its rules fires, as many as for x; the tie "
                                    "goes to the label whose first rule to fire comes earlier")


@pytest.mark.parametrize("kind", [DecisionList, DecisionSet])
def test_a_collection_without_rules_says_it_always_gives_its_default(kind):
    B = np.ones((1, 1), dtype=bool)
    e = explain_row(kind((), "z"), B, {}, np.array(["x", "z"]), "z")
    assert e.text == "z: it has no rule (ALWAYS z)" and e.decisive == ()


@pytest.mark.parametrize("fit_frame", [True, False])
def test_values_are_read_by_position_as_predict_reads_them(fit_frame):
    """Fitted on a DataFrame of integer column names and shown an array, or fitted on an
    array and shown a DataFrame: predict reads the columns by position, and so does the
    value shown (not the literal's column bit, by the literal's name)."""
    A = np.random.default_rng(0).uniform(0, 10, (80, 2))
    clf = IMLIClassifier(n_clauses=1, random_state=0).fit(
        pd.DataFrame(A) if fit_frame else A, (A[:, 0] > 5).astype(int))
    row = A[[0]] if fit_frame else pd.DataFrame(A[[0]], columns=["p", "q"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # scikit-learn's, about the names
        text = clf.explain(row).text
    name = "'0'" if fit_frame else "x0"
    assert text.endswith(f"({name} is {float(A[0, 0])!r})"), text


def test_an_integer_column_beside_a_float_one_shows_its_integer():
    X = pd.DataFrame({"age": [25, 38, 52, 61, 33, 47] * 4,
                      "w": [1.5, 2.5, 3.5, 1.0, 2.0, 3.0] * 4})
    clf = IMLIClassifier(n_clauses=1, random_state=0).fit(X, X["age"] > 40)
    assert clf.explain(X.iloc[[2]]).text.endswith("(age is 52)")


def _claims(e, positive):
    """(whether the block says its literals hold, the literal's text, its value's text) for
    each literal line of ``e``."""
    claim = positive
    for line in e.text.splitlines()[1:]:
        if line.startswith("      "):
            literal, value = line.strip().split("   (", 1)
            yield claim, literal, value[:-1]
        elif line.startswith(("  fires: ", "  fails: ")):
            claim = line.startswith("  fires: ")


@pytest.mark.parametrize("kind", [{"rule_type": "CNF"}, {"rule_type": "DNF"},
                                  {"mode": "decision_list"}, {"mode": "decision_set"}])
def test_every_literal_shown_holds_or_fails_as_said_on_the_rows_own_value(kind):
    """Text with set forms, missing numbers and text, awkward names: each literal line is
    true (or false) as its block says, on the binary row and on the raw value shown."""
    rng = np.random.default_rng(3)
    n = 90
    num = rng.uniform(0, 10, n)
    num[rng.random(n) < .15] = np.nan
    txt = rng.choice(["a", "b OR c", "it's\n2", "名\u202e", "1", None], n)
    X = pd.DataFrame({"c <= 3": num, "x AND y": txt, "1.5": rng.normal(size=n)})
    if "mode" in kind:
        y = np.where(txt == "a", "A", np.where(np.nan_to_num(num) > 6, "B", "C"))
    else:
        y = ((np.nan_to_num(num, nan=4) > 6) | np.isin(txt, ["a", "1"])).astype(int)
    clf = IMLIClassifier(n_clauses=3, random_state=0, time_limit=10, **kind).fit(X, y)
    by_text = {str(lit): lit for lit in clf.rules_.literals}
    seen = set()
    for i in range(n):
        e = clf.explain(X.iloc[[i]])
        assert e.label == clf.predict(X.iloc[[i]])[0]
        Xb, _ = clf._binary(X.iloc[[i]], reset=False)
        for claim, text, value in _claims(e, e.label == clf.classes_[-1]):
            lit = by_text[text]
            cell = X.iloc[i][lit.predicate.feature]
            shown = "unknown" if pd.isna(cell) else format_value(cell)
            assert value == f"{readable(lit.predicate.feature, name=True)} is {shown}"
            assert bool(lit.evaluate(Xb)[0]) == claim
            column = np.empty(1, dtype=object)
            column[0] = cell
            assert (bool(lit.predicate.evaluate(column)[0]) != lit.negated) == claim
            seen.add((claim, pd.isna(cell)))
    assert (True, False) in seen and any(missing for _, missing in seen)
    assert (False, False) in seen or kind == {"mode": "decision_set"}  # a rule always fires


@pytest.mark.parametrize("cell", ["abc", pd.Timestamp("2020-01-01")])
def test_values_that_are_no_numbers_for_a_threshold_are_a_one_line_error(cell):
    clf, X, age = _binarized_age()
    with pytest.raises(ValueError, match=r"^values holds .* for age, which age > 45.0 "
                                         r"reads as a number; give the row's original"):
        clf.explain(X.iloc[[3]], values=pd.DataFrame({"age": [cell]}))


def test_a_binary_column_named_as_its_feature_shows_its_bit_as_the_columns():
    """'smoker == yes   (smoker is 1)' would read as a smoker of value 1."""
    rng = np.random.default_rng(0)
    smoker = rng.integers(0, 2, 60)
    X = pd.DataFrame({"smoker": smoker, "old": rng.integers(0, 2, 60)})
    clf = IMLIClassifier(n_clauses=1, random_state=0).fit(
        X, smoker, column_specs=[Predicate("smoker", "==", "yes"), Predicate("age", ">", 45.0)])
    assert str(clf.rules_) == "(smoker == yes)"
    text = clf.explain(X.iloc[[0]]).text
    assert text.endswith(f"smoker == yes   (column smoker is {smoker[0]})"), text


@pytest.mark.parametrize("kind", [{"rule_type": "CNF"}, {"rule_type": "DNF"},
                                  {"mode": "decision_list"}, {"mode": "decision_set"}])
def test_the_summary_is_the_reason_on_one_line(cancer, kind):
    """The summary is the text's head without the label, then the deciding literals, each
    holding or failing as said on the row's own value."""
    X, y = cancer
    clf = IMLIClassifier(n_clauses=2, random_state=0, time_limit=10, **kind).fit(X, y)
    for i in ROWS:
        row = X.iloc[[i]]
        e = clf.explain(row)
        head = e.text.splitlines()[0]
        assert "\n" not in e.summary and head == f"{e.label}: {e.summary.split(': ')[0]}"
        Xb, _ = clf._binary(row, reset=False)
        literals = [lit for part in e.summary.split(": ", 1)[1:]
                    for clause in part.split("; ") for lit in clause.split(", ")]
        assert literals or not e.decisive
        for shown in literals:
            text, value = shown[:-1].split(" (")
            feature = value.split(" is ")[0]
            assert value == f"{feature} is {float(X.iloc[i][feature])!r}"
            literal = next(lit for lit in clf.rules_.literals
                           if str(lit) == text.removesuffix(" fails"))
            assert bool(literal.evaluate(Xb)[0]) != text.endswith(" fails")
            assert f"      {literal}   ({value})" in e.text.splitlines()


def test_a_summary_says_when_a_rule_has_no_clause():
    B = np.zeros((1, 1), dtype=bool)
    classes = np.array(["no", "yes"])
    assert explain_row(CNF(()), B, {}, classes, "yes").summary == (
        "the rule is TRUE (it has no clause)")
    assert explain_row(DecisionSet((), "no"), B, {}, classes, "no").summary == "it has no rule"


def test_a_summary_shows_an_empty_clause_or_term_as_its_constant():
    # IMLI learns "always no" as a CNF of one empty clause ("always yes": a DNF of one empty
    # term); beside other terms, an empty one left a stray "; " and no word of it
    a, b = Literal(0, "a"), Literal(1, "b")
    B = np.array([[True, False]])
    classes = np.array(["no", "yes"])
    cases = [
        (CNF((Clause(()),)), "no", "its one clause fails, every literal of it false: "
         "FALSE (no literal)"),
        (DNF((Clause((), "AND"),)), "yes", "its one term holds, every literal of it true: "
         "TRUE (no literal)"),
        (DNF((Clause((), "AND"), Clause((a,), "AND"))), "yes",
         "both terms hold, every literal of each true: TRUE (no literal); a (a is 1)"),
        (CNF((Clause(()), Clause((b,)))), "no",
         "both clauses fail, every literal of each false: FALSE (no literal); b fails (b is 0)"),
        (DecisionList((Rule(Clause((b,), "AND"), "no"), Rule(Clause((), "AND"), "yes")), "no"),
         "yes", "rule 2 fires: TRUE (no literal)"),
    ]
    for rule, label, summary in cases:
        e = explain_row(rule, B, {}, classes, label)
        assert e.label == label and e.summary == summary
        assert e.text.splitlines()[0] == f"{label}: {summary.split(': ')[0]}"


@pytest.mark.parametrize("kind", [{"rule_type": "CNF"}, {"rule_type": "DNF"},
                                  {"mode": "decision_list"}, {"mode": "decision_set"}])
def test_class_names_name_the_labels_in_the_words(cancer, kind):
    """A rule learned on codes 0 and 1 explained with its classes' names: the words name
    the classes (a decision list's THEN too), the label stays predict's."""
    X, y = cancer
    clf = IMLIClassifier(n_clauses=2, random_state=0, time_limit=10, **kind).fit(X, y)
    names = ["no tumour", "tumour"]
    for i in ROWS:
        row = X.iloc[[i]]
        coded, named = clf.explain(row), clf.explain(row, class_names=names)
        assert named.label == coded.label == clf.predict(row)[0]
        assert named.text.startswith(f"{names[coded.label]}: ")
        # the same words but the names (a decision set's tie names the other class)
        assert named.summary == coded.summary or "as many as for" in coded.summary
        assert "THEN 0" not in named.text and "THEN 1" not in named.text
        if "mode" in kind:
            assert f"THEN {names[0]}" in str(named) or f"THEN {names[1]}" in str(named)


def test_class_names_give_each_class_a_name_of_its_own(iris):
    X, y = iris
    clf = IMLIClassifier(mode="decision_set", random_state=0, time_limit=10).fit(X, y)
    assert clf.explain(X.iloc[[60]], class_names="abc").text.startswith("b: ")
    for bad in (["a", "b"], ["a", "a", "c"]):
        with pytest.raises(ValueError, match="^class_names must give each of the 3 classes"):
            clf.explain(X.iloc[[60]], class_names=bad)


def test_a_cell_in_either_unicode_form_is_one_category():
    # a value or frozenset of categories written "e" and a combining accent (NFD) was
    # not the rule's café (NFC): "values do not match X", or the accent shown apart
    nfc, nfd = "caf\u00e9", "cafe\u0301"
    X = pd.DataFrame({"not cafe": [1, 0] * 20})
    clf = IMLIClassifier(n_clauses=1, batch_size=None, random_state=0).fit(
        X, X["not cafe"], column_specs=[Predicate("city", "!=", nfc)])
    assert str(clf.rules_) == f"(city != {nfc})"
    for row, cells in (([1], (frozenset({nfc, "b"}), frozenset({nfd, "b"}))),
                       ([0], (nfc, nfd))):
        shown = {str(clf.explain(pd.DataFrame({"not cafe": row}),
                                 values=pd.DataFrame({"city": [cell]}))) for cell in cells}
        assert len(shown) == 1 and nfd not in shown.pop()


def test_values_name_a_feature_in_either_unicode_form():
    # a 'café' column in the other form was "values has no column 'café'", printing alike
    nfc, nfd = "caf\u00e9", "cafe\u0301"
    raw = pd.DataFrame({nfd: np.arange(16) % 4 * 1.0, "b": np.arange(16) // 8 * 1.0})
    y = np.where(raw[nfd] > 1, "y", "n")
    X = Binarizer().fit(raw, y).transform(raw)
    clf = IMLIClassifier(random_state=0).fit(X, y)
    shown = clf.explain(X.iloc[[3]], values=raw.iloc[[3]]).summary
    assert "is 3.0" in shown
    other = raw.rename(columns={nfd: nfc}).iloc[[3]]
    assert clf.explain(X.iloc[[3]], values=other).summary == shown
    with pytest.raises(ValueError, match="^values has two columns of one name"):
        clf.explain(X.iloc[[3]], values=raw.iloc[[3]].assign(**{nfc: 3.0}))
