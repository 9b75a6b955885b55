"""Rule objects: printing, exact repr, evaluation, negation."""

import numpy as np
import pandas as pd
import pytest

import imli
from imli import CNF, DNF, Clause, DecisionList, DecisionSet, Literal, Predicate, Rule

NAMESPACE = {name: getattr(imli, name) for name in imli.__all__}

PL = Predicate("petal length", "<=", 5.0)
SW = Predicate("sepal width", ">", 3.1000000000000001)


def _cnf():
    a = Literal(0, "pl<=5", predicate=PL)
    b = Literal(1, "sw>3.1", predicate=SW)
    c = Literal(2, "x2")
    return CNF((Clause((a, b)), Clause((c.negate(),))))


def test_cnf_prints_column_meanings():
    assert str(_cnf()) == "(petal length <= 5.0 OR sepal width > 3.1) AND (not x2)"


def test_repr_rebuilds_exactly():
    rule = CNF((Clause((Literal(0, "t", predicate=Predicate("f", "<=", 0.1 + 0.2)),)),))
    rebuilt = eval(repr(rule), NAMESPACE)
    assert rebuilt == rule
    assert rebuilt.clauses[0].literals[0].predicate.value == 0.1 + 0.2
    assert hash(rebuilt) == hash(rule)


def test_numpy_values_become_plain_and_print_exactly():
    p = Predicate("f", ">", np.float64(2.123456789))
    assert type(p.value) is float and p.value == 2.123456789
    assert str(p) == "f > 2.123456789" and p.describe(4) == "f > 2.123"
    assert "2.123456789" in repr(p)


def test_close_thresholds_print_apart():
    lits = (Literal(0, "a", predicate=Predicate("f", "<=", 1.00001)),
            Literal(1, "b", predicate=Predicate("f", "<=", 1.00002)))
    text = str(Clause(lits))
    assert "1.00001" in text and "1.00002" in text


def test_extreme_thresholds_print_short_and_apart():
    tiny = 1.1754943508222875e-300
    lits = (Literal(0, "a", predicate=Predicate("tiny", ">", tiny)),
            Literal(1, "b", predicate=Predicate("tiny", ">", float(np.nextafter(tiny, 1)))),
            Literal(2, "c", predicate=Predicate("big", "<=", 6.626e199)))
    assert str(Clause(lits)) == ("(tiny > 1.1754943508222875e-300 OR "
                                 "tiny > 1.1754943508222877e-300 OR big <= 6.626e+199)")
    assert Clause(lits[::2]).describe(4) == "(tiny > 1.175e-300 OR big <= 6.626e+199)"


def test_covers_and_fired():
    rule = _cnf()
    X = np.array([[1, 0, 0], [0, 0, 0], [0, 1, 1], [1, 1, 0]])
    assert rule.covers(X).tolist() == [True, False, False, True]
    assert rule.fired(X).tolist() == [[True, True], [False, True], [True, False], [True, True]]
    assert rule.size == 3


def test_negation_is_complement():
    rule = _cnf()
    X = np.array([[a, b, c] for a in (0, 1) for b in (0, 1) for c in (0, 1)])
    dnf = rule.negate()
    assert isinstance(dnf, DNF)
    assert (dnf.covers(X) == ~rule.covers(X)).all()
    assert dnf.negate() == rule


def test_complemented_literals_print_safely():
    assert str(Literal(0, "n", True, PL)) == "not (petal length <= 5.0)"
    # true for a missing value, which `color != red` (a known other colour) is not
    assert str(Literal(0, "n", True, Predicate("color", "==", "red"))) == "not (color == red)"
    assert str(Literal(0, "n", False, Predicate("color", "!=", "red"))) == "color != red"
    assert str(Literal(0, "n", True, Predicate("color", "!=", "red"))) == "not (color != red)"


def test_categories_of_one_feature_print_as_a_set():
    colour = [Predicate("colour", "==", v) for v in ("red", "a, b", "<0")]
    no_colour = [Literal(i, f"c{i}", True, p) for i, p in enumerate(colour)]
    size = Literal(3, "s", False, PL)
    term = Clause((no_colour[0], size, *no_colour[1:]), "AND")
    # where the first of them stands; a member holding set syntax is quoted
    assert str(term) == "(not (colour in {red, 'a, b', '<0'}) AND petal length <= 5.0)"
    assert str(term.negate()) == ("(colour in {red, 'a, b', '<0'} OR "
                                  "not (petal length <= 5.0))")
    # one category alone, or categories joined by the other connective, print as before
    assert str(Clause((no_colour[0], size), "AND")) == \
        "(not (colour == red) AND petal length <= 5.0)"
    assert str(Clause((no_colour[0], no_colour[2]), "OR")) == \
        "(not (colour == red) OR not (colour == '<0'))"
    assert len(term) == 4   # each category is still a literal
    # a test of the other kind on the same feature keeps its own place
    red = Literal(4, "r", False, colour[0])
    assert str(Clause((red, *no_colour[1:]), "AND")) == \
        "(colour == red AND not (colour in {'a, b', '<0'}))"


def test_only_tests_of_one_meaning_share_a_set():
    # `c != v` columns (a known other category, as the pipeline's negated categories) and
    # complemented `c == v` columns (true for a missing value) never share a set
    other = [Literal(i, f"o{i}", False, Predicate("city", "!=", v))
             for i, v in enumerate(("a", "b"))]
    not_c = Literal(2, "c", True, Predicate("city", "==", "c"))
    not_d = Literal(3, "d", True, Predicate("city", "==", "d"))
    term = Clause((*other, not_c, not_d), "AND")
    assert str(term) == "(city not in {a, b} AND not (city in {c, d}))"
    # the sets say what the literals do: a missing city satisfies only the second
    X = np.array([[0, 0, 0, 0],    # missing: no column holds
                  [0, 1, 0, 0],    # a
                  [1, 1, 1, 0]])   # c
    assert Clause(tuple(other), "AND").evaluate(X).tolist() == [False, False, True]
    assert Clause((not_c, not_d), "AND").evaluate(X).tolist() == [True, True, False]
    cities = np.array([None, "a", "c"], dtype=object)
    assert (Predicate("city", "!=", "a").evaluate(cities)
            & Predicate("city", "!=", "b").evaluate(cities)).tolist() == [False, False, True]


def test_empty_rules():
    X = np.zeros((2, 1))
    assert CNF(()).covers(X).all() and str(CNF(())) == "TRUE"
    assert not DNF(()).covers(X).any() and str(DNF(())) == "FALSE"
    assert not Clause(()).evaluate(X).any() and Clause((), "AND").evaluate(X).all()


def test_decision_list_first_match_decides():
    a, b = Literal(0, "a"), Literal(1, "b")
    dl = DecisionList((Rule(Clause((a,), "AND"), "x"), Rule(Clause((b,), "AND"), "y")), "z")
    X = np.array([[1, 1], [0, 1], [0, 0]])
    assert dl.predict(X).tolist() == ["x", "y", "z"]
    assert dl.decisive(X).tolist() == [0, 1, 2]
    assert str(dl).splitlines() == ["IF (a) THEN x", "ELSE IF (b) THEN y", "ELSE z"]
    assert eval(repr(dl), NAMESPACE) == dl


def test_decision_set_votes_and_counts_overlap():
    a, b, c = Literal(0, "a"), Literal(1, "b"), Literal(2, "c")
    ds = DecisionSet((Rule(Clause((a,), "AND"), "x"), Rule(Clause((b,), "AND"), "y"),
                      Rule(Clause((c,), "AND"), "y")), "z")
    X = np.array([[1, 1, 1], [1, 1, 0], [0, 0, 0], [1, 0, 0]])
    # two votes for y beat one for x; a tie goes to the earliest rule
    assert ds.predict(X).tolist() == ["y", "x", "z", "x"]
    assert ds.overlap(X) == 2


@pytest.mark.parametrize("kind", [DecisionList, DecisionSet])
def test_relabel_names_every_label_and_the_default(kind):
    a, b = Literal(0, "a"), Literal(1, "b")
    rules = kind((Rule(Clause((a,), "AND"), 1), Rule(Clause((b,), "AND"), 0)), 0)
    named = rules.relabel({0: "no", 1: "yes"})
    assert named == kind((Rule(Clause((a,), "AND"), "yes"), Rule(Clause((b,), "AND"), "no")),
                         "no")
    assert rules.relabel(("no", "yes")) == named  # names by position, as class_names
    X = np.array([[1, 0], [0, 1], [0, 0]])
    assert named.predict(X).tolist() == [("no", "yes")[v] for v in rules.predict(X)]


def test_a_decision_set_tie_goes_to_the_label_fired_first():
    # A and B both get two votes; A's first fired rule (2) comes before B's (4), and
    # the earliest rule fired (0, C) is neither: it went to B, listed first (1, not fired)
    rules = tuple(Rule(Clause((Literal(j, f"x{j}"),), "AND"), label)
                  for j, label in enumerate("CBAABB"))
    ds = DecisionSet(rules, "D")
    X = np.array([[1, 0, 1, 1, 1, 1], [1, 1, 0, 1, 1, 0], [0, 1, 1, 1, 1, 0],
                  [0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0]])
    assert ds.predict(X).tolist() == ["A", "B", "B", "D", "C"]
    # votes are counted for labels numpy's == does not match in an object array
    day = {c: np.datetime64(f"2020-01-0{i + 1}", "ns") for i, c in enumerate("ABCD")}
    dated = DecisionSet(tuple(Rule(r.term, day[r.label]) for r in rules), day["D"])
    assert dated.predict(X).tolist() == [day[c] for c in "ABBDC"]


def test_invalid_values_raise():
    with pytest.raises(ValueError, match="relation"):
        Predicate("f", "<", 1.0)
    with pytest.raises(ValueError, match="numeric"):
        Predicate("f", "<=", "abc")
    with pytest.raises(ValueError, match="OR"):
        CNF((Clause((), "AND"),))
    for missing in (np.nan, None, pd.NA):
        with pytest.raises(ValueError, match="missing"):
            _cnf().covers(np.array([[missing, 0, 0]], dtype=object))


def test_learned_thresholds_print_exactly_as_they_decide():
    from imli import IMLIClassifier

    price = 1000 + np.random.default_rng(0).integers(0, 4, 200) * 0.01
    X = pd.DataFrame({"price": price})
    clf = IMLIClassifier(n_clauses=1, rule_type="DNF").fit(X, (price > 1000.015).astype(int))
    text = str(clf.rules_)
    assert text == "(price > 1000.015)"
    printed = float(text.split(">")[1].strip(" )"))
    assert (clf.predict(X) == (price > printed)).all()
