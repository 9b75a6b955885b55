"""explain(): the rule that fired, the exceptions that did not, words and Prolog."""

import re

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_digits

from fold import Explanation, FOLDClassifier

NAN = np.nan


def _birds():
    X = pd.DataFrame({
        "bird": ["yes", "yes", NAN, "yes"],
        "penguin": [NAN, NAN, NAN, "yes"],
        "cat": [NAN, NAN, "yes", NAN],
    })
    return X, FOLDClassifier(random_state=0).fit(X, ["fly", "fly", "no", "no"])


def test_explain_a_row_covered_by_a_rule():
    X, clf = _birds()
    why = clf.explain(X.iloc[[0]])
    assert isinstance(why, Explanation)
    assert why.label == "fly" and why.rule == clf.rules_.classes[0].rules[0]
    assert why.exceptions == why.rule.exceptions
    assert "rule 1 of class 'fly' fired" in why.text
    assert "bird == yes" in why.text
    assert "not the exception [penguin == yes]: penguin == yes fails (penguin is unknown)" \
        in why.text
    assert "fly(0) holds because" in why.prolog
    assert "bird(0,yes) is a fact" in why.prolog
    assert "\\+ ab0(0) holds, because ab0(0) fails" in why.prolog
    assert "Prolog justification" in str(why)


def test_explain_a_row_stopped_by_an_exception():
    X, clf = _birds()
    why = clf.explain(X.iloc[[3]])
    assert why.label == "no" and why.rule is None
    # and why the exception holds: the row's cells, in words and in the proof
    assert "its exception [penguin == yes] holds (penguin is 'yes')" in why.text
    assert why.row_id == 3
    assert "fly(3) fails" in why.prolog
    assert re.search(r"fails at \\\+ab0\(3\)\n +ab0\(3\) holds because\n +penguin\(3,yes\) "
                     r"is a fact", why.prolog), why.prolog
    assert "label(3,no) holds" in why.prolog
    assert "row(3) is a fact" in why.prolog


def test_explain_says_why_an_exception_to_an_exception_does_not_hold():
    X = pd.DataFrame({"bird": ["yes"] * 6 + [NAN] * 2,
                      "penguin": [NAN] * 3 + ["yes"] * 3 + [NAN] * 2,
                      "super": [NAN] * 5 + ["yes"] + [NAN] * 2})
    clf = FOLDClassifier(min_support=1).fit(X, ["fly"] * 3 + ["no", "no", "fly", "no", "no"])
    assert str(clf.rules_).startswith(
        "fly if bird == yes unless (penguin == yes unless (super == yes))")
    why = clf.explain(X.iloc[[3]])
    assert ("its exception [penguin == yes unless (super == yes)] holds (penguin is 'yes'; "
            "not [super == yes]: super == yes fails (super is unknown))") in why.text
    assert "a clause of ab1(3) fails at super(3,yes)" in why.prolog
    why = clf.explain(X.iloc[[5]])
    assert why.label == "fly"
    assert "its exception [super == yes] holds (super is 'yes')" in why.text
    assert re.search(r"ab1\(5\) holds because\n +super\(5,yes\) is a fact", why.prolog)


def test_explain_names_the_row_by_its_integer_index_label_else_0():
    X, clf = _birds()
    assert clf.explain(X.iloc[[0]]).row_id == 0
    relabelled = X.set_axis([10, 11, 12, 13])
    why = clf.explain(relabelled.iloc[[1]])
    assert why.row_id == 11 and "fly(11) holds because" in why.prolog
    named = X.set_axis(["a", "b", "c", "d"])
    why = clf.explain(named.iloc[[1]])
    assert why.row_id == 0 and "fly(0) holds because" in why.prolog
    big = X.set_axis(pd.Index(np.array([0, 1, 2, 2**64 - 1], dtype=np.uint64)))
    why = clf.explain(big.iloc[[3]])
    assert why.row_id == 0 and "label(0,no) holds" in why.prolog
    assert clf.explain(X.set_axis([0, 1, 2, -(2**63)]).iloc[[3]]).row_id == -(2**63)


def test_a_later_class_shows_its_own_rule_first_then_the_earlier_classes():
    # the earlier classes' failures were printed under "rule 1 of class 'mid' fired:", as
    # if they were its conditions
    X = pd.DataFrame({"x": [1.0, 2, 3, 4, 5, 6, 7, 8, 9]})
    clf = FOLDClassifier(random_state=0).fit(X, ["lo"] * 3 + ["mid"] * 3 + ["hi"] * 3)
    rows = {label: i for i, label in enumerate(clf.predict(X))}
    labels = [c.label for c in clf.rules_.classes]
    later = next(label for label in labels[1:] if label in rows)
    lines = clf.explain(X.iloc[[rows[later]]]).text.splitlines()
    assert lines[0].startswith(f"Predicted {later!r}: rule 1 of class {later!r} fired:")
    cut = lines.index("Rules of earlier classes, which do not fire:")
    assert all("does not fire" not in line for line in lines[1:cut])
    assert all("does not fire" in line for line in lines[cut + 1:])
    assert any(f"class {labels[0]!r} does not fire" in line for line in lines[cut + 1:])


def test_the_proof_shows_an_unknown_cell_as_an_anonymous_variable():
    # it printed SWI's internal name: "fails at w(6,_7318)"
    X = pd.DataFrame({"w": [1.0, 2, 3, 4, 5, 6, NAN, 8], "c": list("aabbaabb")})
    clf = FOLDClassifier(random_state=0, min_support=1, mdl_weight=None).fit(
        X, ["n", "n", "n", "y", "y", "y", "y", "y"])
    proof = clf.explain(X.iloc[[6]]).prolog
    assert "fails at w(6,_)" in proof and not re.search(r"_[A-Z0-9]", proof), proof


def test_a_row_given_as_a_list_or_array_is_explained_as_row_0():
    # a list has a method called index, which was taken for a table's index
    X, clf = _birds()
    for row in ([["yes", NAN, NAN]], np.array([["yes", NAN, NAN]], dtype=object)):
        with pytest.warns(UserWarning, match="does not have valid feature names"):
            why = clf.explain(row)   # scikit-learn's warning, as for any estimator
        assert why.row_id == 0 and why.label == "fly"


@pytest.mark.parametrize("value, shown", [(0.3000001, "0.3000001"), (0.25, "0.25"),
                                          (123456789.0, "123456789")])  # whole: no .0
def test_a_cell_value_prints_exactly_when_six_digits_would_round_it(value, shown):
    X = pd.DataFrame({"x": [0.1, 0.2, 0.25, 0.35, 0.4, 0.5]})
    clf = FOLDClassifier(min_support=1, class_order=["lo", "hi"]).fit(
        X, ["lo", "lo", "lo", "hi", "hi", "hi"])
    assert str(clf.rules_).startswith("lo if x <= 0.3\n")
    assert f"(x is {shown})" in clf.explain(pd.DataFrame({"x": [value]})).text


def test_labels_held_as_numpy_scalars_read_as_plain_values():
    # a list of numpy strings (list(np.array([...]))) printed "Predicted np.str_('a')"
    X = pd.DataFrame({"x": [1.0, 2, 3, 4]})
    clf = FOLDClassifier(min_support=1).fit(X, list(np.array(["a", "a", "b", "b"])))
    texts = [clf.explain(X.iloc[[i]]).text for i in (0, 3)]
    assert all("np." not in text for text in texts), texts
    assert {texts[0].split(":")[0], texts[1].split(" (")[0]} == {"Predicted 'a'",
                                                                "Predicted 'b'"}, texts


@pytest.mark.parametrize("y", [
    np.array(["2020-01-01", "2020-01-01", "2021-01-01", "2021-01-01"], dtype="datetime64[D]"),
    np.array([1, 1, 2, 2], dtype="timedelta64[s]"),
    ["a", "a", "b", "b"],
])
def test_the_explanation_label_is_the_label_predict_gives(y):
    # the label of a date class was its text, '2020-01-01', which predict's date is not
    X = pd.DataFrame({"x": [1.0, 2, 3, 4]})
    clf = FOLDClassifier(min_support=1).fit(X, y)
    predicted = clf.predict(X)
    for i in range(len(X)):
        label = clf.explain(X.iloc[[i]]).label
        assert label == predicted[i] and type(label) is type(predicted[i])


def test_the_proof_writes_predicates_named_as_operators_as_written_in_the_program():
    # a class '+' and a column '-' read "+3 holds because / 3-b is a fact", as if sums
    X = pd.DataFrame({"-": pd.Series(["a", "a", "b", "b"], dtype=object),
                      "is": [1.0, 2, 3, 4]})
    clf = FOLDClassifier(min_support=1).fit(X, ["\\", "\\", "+", "+"])
    assert str(clf.rules_) == "+ if - == b\n\\ otherwise"
    proof = clf.explain(X.iloc[[3]]).prolog
    assert "+(3) holds because\n    -(3,b) is a fact" in proof, proof
    proof = clf.explain(X.iloc[[0]]).prolog
    assert "+(0) fails:\n    a clause of +(0) fails at -(0,b)" in proof, proof
    assert "(\\)=(\\) holds" in proof  # the built-ins keep their operators


def test_a_failed_comparison_in_the_proof_names_the_fact_it_tests():
    # "fails at 1.0>1.5" did not say whether a or b is 1.0
    a, b = [1.0, 2, 1, 2, 4, 5, 4, 5], [2.0, 3, 1, 0, 2, 3, 1, 0]
    X = pd.DataFrame({"a": a, "b": b})
    y = ["p" if ai <= 2.5 and bi > 1.5 else "q" for ai, bi in zip(a, b)]
    clf = FOLDClassifier(min_support=1, mdl_weight=None, class_order=["p", "q"]).fit(X, y)
    assert str(clf.rules_) == "p if a <= 3 and b > 1.5\nq otherwise"
    proof = clf.explain(pd.DataFrame({"a": [1.0], "b": [1.0]})).prolog
    assert "a clause of p(0) fails at 1>1.5 (after the fact b(0,1))\n" in proof, proof
    # a failed data goal or exception is shown as before
    proof = clf.explain(pd.DataFrame({"a": [NAN], "b": [1.0]})).prolog
    assert "a clause of p(0) fails at a(0,_)\n" in proof, proof


def test_a_program_with_no_rule_says_so():
    # it said "no rule of an earlier class fired." where there is no rule at all
    X = pd.DataFrame({"x": [1.0, 2, 3, 4]})
    why = FOLDClassifier().fit(X, ["u"] * 4).explain(X.iloc[[0]])
    assert why.text == "Predicted 'u' (the default): the program has no rule."
    assert why.rule is None and "label(0,u) holds because" in why.prolog


def test_the_summary_is_the_reason_on_one_line():
    X, clf = _birds()
    assert clf.explain(X.iloc[[0]]).summary == (
        "rule 1 of class 'fly' fired: bird == yes (bird is 'yes'); no exception holds: "
        "penguin == yes fails (penguin is unknown)")
    assert clf.explain(X.iloc[[3]]).summary == (
        "no rule fired: rule 1 of class 'fly' does not fire: its exception [penguin == yes] "
        "holds (penguin is 'yes')")
    X = pd.DataFrame({"x": [1.0, 2, 3, 4]})
    assert FOLDClassifier().fit(X, ["u"] * 4).explain(X.iloc[[0]]).summary == (
        "the program has no rule")


def test_a_later_class_sums_up_its_own_rule_only():
    X = pd.DataFrame({"x": [1.0, 2, 3, 4, 5, 6, 7, 8, 9]})
    clf = FOLDClassifier(random_state=0).fit(X, ["lo"] * 3 + ["mid"] * 3 + ["hi"] * 3)
    for i in range(len(X)):
        why = clf.explain(X.iloc[[i]])
        assert "\n" not in why.summary and "does not fire" not in why.summary.split(": ")[0]
        if why.rule is not None:
            head = why.text.splitlines()[0]
            assert head == f"Predicted {why.label!r}: {why.summary.split(': ')[0]}:"
            assert f"(x is {X.x[i]:g})" in why.summary


def test_the_summary_names_an_exception_overruled_by_its_own_exception():
    # "no exception holds: its exception [super == yes] holds" read as the rule's own
    # exception holding; it is the exception's (penguin == yes), which does not hold
    X = pd.DataFrame({"bird": ["yes"] * 6 + [NAN] * 2,
                      "penguin": [NAN] * 3 + ["yes"] * 3 + [NAN] * 2,
                      "super": [NAN] * 5 + ["yes"] + [NAN] * 2})
    clf = FOLDClassifier(min_support=1).fit(X, ["fly"] * 3 + ["no", "no", "fly", "no", "no"])
    why = clf.explain(X.iloc[[5]])
    assert why.label == clf.predict(X.iloc[[5]])[0] == "fly"
    assert why.summary == (
        "rule 1 of class 'fly' fired: bird == yes (bird is 'yes'); no exception holds: "
        "penguin == yes is overruled, as its exception [super == yes] holds (super is 'yes')")


def test_a_default_summary_names_the_exception_that_holds_without_its_own():
    # it spelled out the exception's own exceptions and why each fails: on a larger
    # program, a thousand characters on one line
    X = pd.DataFrame({"bird": ["yes"] * 6 + [NAN] * 2,
                      "penguin": [NAN] * 3 + ["yes"] * 3 + [NAN] * 2,
                      "super": [NAN] * 5 + ["yes"] + [NAN] * 2})
    clf = FOLDClassifier(min_support=1).fit(X, ["fly"] * 3 + ["no", "no", "fly", "no", "no"])
    why = clf.explain(X.iloc[[3]])
    assert why.label == clf.predict(X.iloc[[3]])[0] == "no" and why.rule is None
    assert why.summary == (
        "no rule fired: rule 1 of class 'fly' does not fire: its exception "
        "[penguin == yes unless …] holds (penguin is 'yes'; its own exception does not hold)")
    # the text keeps the whole reason
    assert ("its exception [penguin == yes unless (super == yes)] holds (penguin is 'yes'; "
            "not [super == yes]: super == yes fails (super is unknown))") in why.text


def test_the_words_and_the_justification_show_a_cell_alike():
    # digits' pixels are whole floats: the words read 'pixel_3_6 is 0', the proof
    # 'pixel_3_6(2,0.0)' beside the row id 2, which read as 2.0
    digits = load_digits(as_frame=True)
    keep = digits.target.isin([3, 8]).to_numpy()
    X, y = digits.data[keep].reset_index(drop=True), digits.target[keep].to_numpy()
    clf = FOLDClassifier(random_state=0).fit(X, y)
    compared = 0
    for i in range(30):
        why = clf.explain(X.iloc[[i]])
        facts = dict(re.findall(rf"(\w+)\({i},([^,()]+)\) is a fact", why.prolog))
        facts.update(re.findall(rf"after the fact (\w+)\({i},([^,()]+)\)", why.prolog))
        for feature, shown in re.findall(r"(\w+) is ([-\d.e+]+)", why.text):
            value = X.at[i, feature]
            assert float(shown) == value
            assert ".0" not in shown or not value.is_integer()
            if feature in facts:
                assert facts[feature] == shown, (feature, why)
                compared += 1
    assert compared >= 30
