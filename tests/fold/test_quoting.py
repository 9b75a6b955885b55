"""quote_atom / format_number: what SWI-Prolog reads back is exactly the input."""

import math
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest

from fold import FOLDClassifier, Literal, Rule, format_number, quote_atom
from fold.quoting import format_numbers, format_term
from tests.fold.helpers import HOSTILE


def _swipl_reads(tmp_path, terms):
    """Have a plain swipl read ``t(Term).`` clauses and print each back as codes/number."""
    source = tmp_path / "atoms.pl"
    source.write_text("".join(f"t({term}).\n" for term in terms), encoding="utf-8")
    goal = ("forall(t(X), ( atom(X) -> atom_codes(X, C), format('a ~w~n', [C]) "
            "; format('n ~17g~n', [X]) ))")
    done = subprocess.run([shutil.which("swipl"), "-q", "-g", goal, "-t", "halt", str(source)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout.splitlines()


def test_quote_atom_round_trips_hostile_text(tmp_path):
    lines = _swipl_reads(tmp_path, [quote_atom(text) for text in HOSTILE])
    assert len(lines) == len(HOSTILE)
    for text, line in zip(HOSTILE, lines):
        codes = [int(c) for c in line[3:-1].split(",")] if line != "a []" else []
        assert "".join(map(chr, codes)) == text


def test_quote_atom_always_quotes():
    assert quote_atom("fly") == "'fly'"
    assert quote_atom("Foo") == "'Foo'"
    assert quote_atom("a'b") == "'a\\'b'"
    assert quote_atom("\n") == "'\\n'"


def test_quote_atom_refuses_non_text_and_surrogates():
    with pytest.raises(TypeError):
        quote_atom(3)
    with pytest.raises(ValueError, match="surrogate"):
        quote_atom("a\ud800")


def test_format_number_is_full_precision(tmp_path):
    values = [0.1, 1 / 3, -2.5e-300, 1e16, 123456789.123456789, -0.0, 7, -12, 2**70]
    lines = _swipl_reads(tmp_path, [format_number(v) for v in values])
    for value, line in zip(values, lines):
        assert float(line[2:]) == pytest.approx(float(value), rel=1e-15)
    assert format_number(0.1) == "0.1" and float(format_number(1 / 3)) == 1 / 3
    assert format_number(1e-05) == "1.0e-05"


def test_format_number_refuses_non_finite_and_bool():
    for bad in (math.inf, -math.inf, math.nan):
        with pytest.raises(ValueError):
            format_number(bad)
    with pytest.raises(TypeError):
        format_number(True)


def test_format_numbers_is_format_number_of_each():
    values = [0.1, 1 / 3, -2.5e-300, 1e16, 1e-05, 5e-324, -0.0, 0.0, 40.0, 1.5e300,
              123456789.123456789, 9.999999999999999e-05]
    assert format_numbers(np.array(values)) == [format_number(v) for v in values]
    assert format_numbers(np.zeros(0)) == []
    for bad in (math.inf, math.nan):
        with pytest.raises(ValueError, match="non-finite"):
            format_numbers([1.0, bad])


def test_format_term_numbers_and_atoms():
    assert format_term(3) == "3"
    assert format_term(True) == "'True'"
    assert format_term("x y") == "'x y'"


def test_a_float_label_is_written_as_a_float(tmp_path):
    # whole floats go to Prolog as integers, but a label is unified: label(Id, 1.0) failed
    # in a plain swipl for the class 1.0 once it was written 1
    assert format_term(1.0) == "1.0" and format_term(np.float64(-0.0)) == "-0.0"
    assert format_term(1e16) == "1.0e+16" and format_term(np.int64(3)) == "3"
    X = pd.DataFrame({"x": np.arange(20.0)})
    clf = FOLDClassifier(random_state=0).fit(X, (X["x"] > 9).to_numpy(dtype=float))
    (tmp_path / "fold.pl").write_text(clf.program_, encoding="utf-8")
    (tmp_path / "facts.pl").write_text(clf.facts(X), encoding="utf-8")
    done = subprocess.run([shutil.which("swipl"), "-q", "-g", "forall(label(I, 1.0), writeln(I))",
                           "-t", "halt", str(tmp_path / "fold.pl"), str(tmp_path / "facts.pl")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert sorted(map(int, done.stdout.split())) == list(range(10, 20))


def test_rules_and_explanations_quote_what_could_mislead():
    import numpy as np
    import pandas as pd

    from fold import FOLDClassifier
    from fold.quoting import readable

    assert readable("a\nb") == "'a\\nb'" and readable("p\u202eq") == "'p\\u202eq'"
    assert readable("Zürich 😀 x") == "Zürich 😀 x" and readable("width (cm)") == "width (cm)"
    for misleading in ("b and x > 5", "<0", "or", " a", "", "x unless", "'and'", "x\"", "'q'",
                       "a, b", "{e", "e}", "ok is bad", "x IS"):
        assert readable(misleading) == repr(misleading)
    rng = np.random.default_rng(0)
    c = rng.choice(["x\ny", "p\u202eq", "ok"], 120)
    X = pd.DataFrame({"c\u202ed": c, "v": rng.normal(size=120)})
    est = FOLDClassifier().fit(X, np.where(c == "x\ny", "pos", "neg"))
    text = str(est.rules_)
    assert "c\\u202ed" in text and "x\\ny" in text and "\u202e" not in text
    assert text.count("\n") == 1  # one rule and the default, one line each
    words = est.explain(X.iloc[[0]])
    assert "\u202e" not in str(words).split("Prolog justification")[0]
    # class labels too: It's "yes" read as a label followed by a quoted word
    odd = FOLDClassifier().fit(X, np.where(c == "x\ny", 'It\'s "yes"', "no\nway"))
    rule, default = str(odd.rules_).splitlines()
    quoted = {"'no\\nway'", "'It\\'s \"yes\"'"}
    assert {rule.split(" if ")[0], default.removesuffix(" otherwise")} == quoted


def test_a_bracket_without_its_pair_is_quoted_in_rule_text():
    """A value ``w)`` closed ``unless (`` early: the exception ``c == u`` read as a rule
    of its own, ``(p == x unless (...)) or c == u``."""
    from fold.quoting import readable

    def equal(feature, value):
        return Literal(feature, "==", value)

    nested = Rule((equal("a", "v"),), (Rule((equal("b", "w)"),)),))
    rule = Rule((equal("p", "x"),), (nested, Rule((equal("c", "u"),))))
    assert str(rule) == "p == x unless ((a == v unless (b == 'w)')) or c == u)"
    for unpaired in ("w)", "(v", "a)(b", "f(x"):
        assert readable(unpaired) == repr(unpaired) and readable(unpaired, name=True) == repr(
            unpaired)
    for paired in ("width (cm)", "f(x)", "(a)(b)", "((x))"):
        assert readable(paired) == paired


def test_a_column_named_like_a_number_is_quoted_in_rule_text():
    """``0 if 1 <= 0.02`` reads as a comparison of two numbers: the name is quoted."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(200, 3)))  # columns 0, 1, 2
    y = (X[1] > 0).astype(int)
    clf = FOLDClassifier(random_state=0).fit(X, y)
    assert str(clf.rules_).splitlines()[0] == "0 if '1' <= 0.02"
    assert "('1' is " in str(clf.explain(X.iloc[[0]]))
    assert (clf.predict(X) == y).mean() > 0.95


def test_joiners_of_persian_words_and_emoji_are_not_quoted():
    from fold.quoting import readable

    persian = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"
    assert readable(persian) == persian and readable("a\u200db") == "a\u200db"
    assert readable("a\u200bb") == "'a\\u200bb'"  # a zero-width space hides: quoted


def test_a_category_with_set_syntax_is_quoted_alone_as_in_a_set():
    X = pd.DataFrame({"v": ["a, b", "c", "{e", "d"] * 10, "w": np.arange(40.0)})
    for value in ("a, b", "{e"):
        y = np.where(X["v"] == value, "no", "yes")
        assert str(FOLDClassifier(min_support=1).fit(X, y).rules_) == (
            f"yes if v != {value!r}\nno otherwise")  # not "v != a, b"
    y = np.where(X["v"].isin(["a, b", "{e"]), "no", "yes")
    assert str(FOLDClassifier(min_support=1).fit(X, y).rules_) == (
        "no if v == 'a, b'\nno if v == '{e'\nyes otherwise")
