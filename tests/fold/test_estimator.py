"""FOLDClassifier as a scikit-learn estimator."""

import pickle
import subprocess
import sys
import unicodedata
import warnings
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.datasets import load_iris
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer
from sklearn.utils.estimator_checks import parametrize_with_checks

import fold
from fold import FoldInputError, FOLDClassifier, Negated
from tests.estimator_checks import (check_a_category_column_ordered_or_not_is_read_by_its_values,
                                    check_an_array_keeps_categories_that_read_as_numbers,
                                    check_arrays_of_dates_and_odd_labels_are_refused_in_one_line,
                                    check_labels_and_column_names_in_either_unicode_form,
                                    check_labels_tables_and_columns_are_read_as_given,
                                    check_numbers_given_as_text_at_predict_read_as_in_fit,
                                    check_object_labels_of_numbers_or_bools_are_classes)
from tests.fold.helpers import python_decisions, run_swipl


@parametrize_with_checks([FOLDClassifier(random_state=0)])
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_clone_pipeline_gridsearch_and_string_labels():
    data = load_iris(as_frame=True)
    y = np.asarray(data.target_names)[data.target]
    pipe = make_pipeline(FunctionTransformer(lambda X: X), FOLDClassifier(random_state=0))
    search = GridSearchCV(pipe, {"foldclassifier__exception_ratio": [0.3, 0.5]}, cv=3)
    search.fit(data.data, y)
    assert set(search.predict(data.data)) <= set(data.target_names)
    assert clone(FOLDClassifier(min_support=3)).get_params()["min_support"] == 3


def test_worker_processes_and_a_fresh_interpreter_predict_as_this_process(tmp_path):
    # loky pickles the estimator to its worker processes; each starts its own SWI-Prolog
    data = load_iris(as_frame=True)
    X, y = data.data, np.asarray(data.target_names)[data.target]
    clf = FOLDClassifier(random_state=0)
    assert (cross_val_score(clf, X, y, cv=3, n_jobs=2) == cross_val_score(clf, X, y, cv=3)).all()
    fitted = clf.fit(X, y)
    (tmp_path / "clf.pkl").write_bytes(pickle.dumps(fitted))
    script = ("import pickle, sys\n"
              "from sklearn.datasets import load_iris\n"
              "clf = pickle.loads(open(sys.argv[1], 'rb').read())\n"
              "print(' '.join(clf.predict(load_iris(as_frame=True).data)))\n")
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "clf.pkl")],
                          capture_output=True, text=True, timeout=120,
                          cwd=Path(fold.__file__).parents[1])
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == fitted.predict(X).tolist()


def test_parameter_names_are_each_classes_own():
    # FOLDClassifier caches the names read from __init__; a subclass has its own
    class WithOneMore(FOLDClassifier):
        def __init__(self, extra=1, exception_ratio=0.5):
            super().__init__(exception_ratio=exception_ratio)
            self.extra = extra

    assert sorted(FOLDClassifier().get_params()) == sorted(
        ["exception_ratio", "min_gain", "max_rule_length", "max_exception_depth",
         "min_support", "mdl_weight", "try_complement", "lookahead", "class_order",
         "prolog_timeout", "random_state"])
    assert WithOneMore(extra=2).get_params() == {"exception_ratio": 0.5, "extra": 2}
    assert "extra" not in FOLDClassifier().get_params()
    assert clone(WithOneMore(extra=3)).extra == 3


def test_not_fitted_and_bad_parameters():
    X = pd.DataFrame({"a": [1.0, 2.0]})
    for method in ("predict", "predict_python", "explain"):
        with pytest.raises(NotFittedError):
            getattr(FOLDClassifier(), method)(X.iloc[[0]])
    with pytest.raises(ValueError, match="exception_ratio"):
        FOLDClassifier(exception_ratio=-1).fit(X, [0, 1])
    with pytest.raises(ValueError, match="min_support"):
        FOLDClassifier(min_support=0).fit(X, [0, 1])
    with pytest.raises(ValueError, match="mdl_weight"):
        FOLDClassifier(mdl_weight=-0.5).fit(X, [0, 1])
    with pytest.raises(ValueError, match="try_complement"):
        FOLDClassifier(try_complement="yes").fit(X, [0, 1])
    with pytest.raises(ValueError, match="lookahead"):
        FOLDClassifier(lookahead=1).fit(X, [0, 1])
    # in milliseconds a C long: 1e16 s came out as a limit already passed
    with pytest.raises(ValueError, match=r"'prolog_timeout' .* range \(0.0, 1000000000.0\]"):
        FOLDClassifier(prolog_timeout=1e16).fit(X, [0, 1])
    slow = FOLDClassifier(prolog_timeout=1e9).fit(X, [0, 1])
    assert slow.predict(X).tolist() == [0, 1]


def test_exception_depth_is_bounded_where_rows_alike_nest_exceptions_to_it():
    # no literal tells these rows apart: each exception of no literal posed its rule's
    # rows again, down to max_exception_depth (depth 2000 was a RecursionError; it no
    # longer nests, tests/fold/test_learner.py, but the bound stays)
    X = pd.DataFrame({"a": [1.0, 1.0, 2.0, 2.0] * 3})
    y = ["p", "n"] * 6
    deepest = FOLDClassifier(max_exception_depth=100, min_support=1, mdl_weight=None)
    assert deepest.fit(X, y).predict(X).tolist() == ["p"] * 12
    with pytest.raises(ValueError, match=r"'max_exception_depth' .* range \[0, 100\]"):
        FOLDClassifier(max_exception_depth=101).fit(X, y)


def test_input_problems_have_clear_errors():
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": ["x", "y", "x"]})
    clf = FOLDClassifier(min_support=1).fit(X, [0, 1, 0])
    with pytest.raises(ValueError, match=r"^X has columns \['b', 'a'\], the model was fitted on"):
        clf.predict(X[["b", "a"]])
    with pytest.raises(ValueError, match="infinity"):
        FOLDClassifier().fit(pd.DataFrame({"a": [1.0, np.inf]}), [0, 1])
    mixed = pd.DataFrame({"a": [1.0, np.inf], "b": pd.Series(["x", "y"], dtype=object)})
    with pytest.raises(FoldInputError, match="infinity"):   # object array: checked by fold
        FOLDClassifier().fit(mixed, [0, 1])
    with pytest.raises(FoldInputError, match="holds .p., not a number"):
        clf.predict(pd.DataFrame({"a": ["p", "q", "r"], "b": ["x", "y", "x"]}))
    with pytest.raises(FoldInputError, match=r"^duplicate column names \['a'\]"):
        FOLDClassifier().fit(pd.DataFrame([[1.0, 2.0]], columns=["a", "a"]), [0])


def test_object_array_columns_keep_their_types():
    rng = np.random.default_rng(0)
    value, colour = rng.normal(size=120), rng.choice(["red", "blue"], 120)
    X = np.array([[c, float(v)] for c, v in zip(colour, value)], dtype=object)
    y = (value > 0.3).astype(int)
    clf = FOLDClassifier().fit(X, y)
    assert clf.schema_.kinds == ("categorical", "numeric")
    assert clf.score(X, y) == 1.0
    # numpy writes every cell of such rows as text: the numbers are numbers again
    text = np.asarray([[c, float(v)] for c, v in zip(colour, value)])
    assert text.dtype.kind == "U"
    again = FOLDClassifier().fit(text, y)
    assert again.schema_.kinds == ("categorical", "numeric") and again.rules_ == clf.rules_
    assert (again.predict(text) == clf.predict(X)).all()
    unknown = FOLDClassifier().fit(np.vstack([text, ["red", "nan"]]), np.append(y, 0))
    assert unknown.schema_.kinds == ("categorical", "numeric")   # "nan": a missing number
    flags = np.asarray([["True", "1.5"], ["False", "2"]], dtype=object)
    assert FOLDClassifier().fit(flags, [0, 1]).schema_.kinds == ("categorical", "numeric")


def test_a_nan_among_words_in_a_list_or_an_array_of_text_is_unknown():
    """numpy writes such a NaN as the word "nan", which passed a '!=' test as a value."""
    X = pd.DataFrame({"a": ["no", "maybe", "no", "yes"] * 6, "b": np.arange(24.0)})
    y = np.where(X["a"] == "yes", "walk", "fly")
    clf = FOLDClassifier(class_order=["fly", "walk"]).fit(X, y)
    assert str(clf.rules_) == "fly if a != yes\nwalk otherwise"
    rows = [[np.nan, 1.0], ["no", np.nan]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)   # the array has no column names
        for given in (rows, np.asarray(rows), np.asarray(rows, dtype=object)):
            assert list(clf.predict(given)) == ["walk", "fly"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        clf.predict([["no", np.nan]])
    assert [str(w.message) for w in caught] == [
        "X does not have valid feature names, but FOLDClassifier was fitted with feature names"]
    fitted = FOLDClassifier(class_order=["fly", "walk"]).fit(X.to_numpy().astype(str), y)
    assert str(fitted.rules_) == "fly if x0 != yes\nwalk otherwise"
    assert fitted.schema_.kinds == clf.schema_.kinds
    both = [[a, np.nan if i % 3 else float(i)] for i, a in enumerate(X["a"])]
    from_list = FOLDClassifier(class_order=["fly", "walk"]).fit(both, y)
    assert from_list.schema_.kinds == ("categorical", "numeric")
    assert str(from_list.rules_) == "fly if x0 != yes\nwalk otherwise"

def test_nullable_and_categorical_dtypes_together():
    # scikit-learn's check of such a frame casts the categories to float, and failed
    X = pd.DataFrame({"c": pd.Categorical(list("abab") * 5),
                      "n": pd.array([1, 2, None, 4] * 5, dtype="Int64"),
                      "b": pd.array([True, False, None, True] * 5, dtype="boolean")})
    y = np.array([0, 1, 0, 1] * 5)
    clf = FOLDClassifier().fit(X, y)
    assert clf.schema_.kinds == ("categorical", "numeric", "categorical")
    assert clf.score(X, y) == 1.0
    with pytest.raises(ValueError, match="0 sample"):
        clf.predict(X.iloc[:0])


UNCOMPARABLE = {
    "datetime": pd.date_range("2024-01-01", periods=6),
    "datetime_tz": pd.date_range("2024-01-01", periods=6, tz="UTC"),
    "timedelta": pd.to_timedelta(np.arange(6), unit="D"),
    "period": pd.period_range("2024-01", periods=6, freq="M"),
    "interval": pd.interval_range(0, 6),
    "complex": np.arange(6) + 1j,
    # as objects (a column's .dt.date), still dates
    "date-objects": pd.Series(pd.date_range("2024-01-01", periods=6).date, dtype=object),
    "timedelta-objects": pd.Series(
        list(pd.to_timedelta(np.arange(6), unit="D").to_pytimedelta()), dtype=object),
}


@pytest.mark.parametrize("kind", sorted(UNCOMPARABLE))
def test_uncomparable_columns_are_refused_on_fit_and_predict(kind):
    # one category per date, or a dropped imaginary part, would give silently wrong rules
    y = [0, 1, 0, 1, 1, 0]
    bad = pd.DataFrame({"x": np.arange(6.0), "c": UNCOMPARABLE[kind]})
    with pytest.raises(FoldInputError, match=r"column 'c' has dtype .*convert it"):
        FOLDClassifier().fit(bad, y)
    clf = FOLDClassifier().fit(bad.assign(c=np.arange(6.0)), y)
    with pytest.raises(FoldInputError, match="column 'c'"):
        clf.predict(bad)


def test_attributes():
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "b": ["x", "y", "x", "y"]})
    clf = FOLDClassifier(min_support=1).fit(X, ["n", "n", "p", "p"])
    assert clf.n_features_in_ == 2 and list(clf.feature_names_in_) == ["a", "b"]
    assert list(clf.classes_) == ["n", "p"]
    assert clf.program_.startswith(":- encoding(utf8).\n%") and "'label'(X, Label)" in clf.program_
    assert clf.n_rules_ == clf.rules_.n_rules and clf.rule_size_ == clf.rules_.n_literals


@pytest.mark.parametrize("fitted", [
    pytest.param(pd.Series([1, 2, 3] * 20).astype("category"), id="int-category"),
    # (an object column of numbers only is numeric, as in an array)
    pytest.param(pd.Series([1, "2", 3] * 20, dtype=object), id="mixed-object"),
    pytest.param(pd.Series(["1", "2", "3"] * 20), id="str"),
])
def test_categories_are_numbers_by_value(fitted, tmp_path):
    # 1, 1.0 and np.int64(1) are the category "1": in Python and in Prolog
    X = pd.DataFrame({"code": fitted, "z": np.arange(60.0) % 7})
    y = np.where(X["code"].astype(int) == 1, "a", "b")
    clf = FOLDClassifier(class_order=["a", "b"]).fit(X, y)
    assert str(clf.rules_) == "a if code == 1\nb otherwise"
    Xp = pd.DataFrame({"code": [1.0, 2.0, np.nan, 1, np.int64(1), 1.5, "1", True],
                       "z": np.arange(8.0)})
    expected = ["a", "b", "b", "a", "a", "b", "a", "b"]
    assert clf.predict(Xp).tolist() == expected
    assert clf.predict_python(Xp).tolist() == expected
    assert (run_swipl(clf, Xp, tmp_path) == python_decisions(clf, Xp)).all()
    float_codes = pd.DataFrame({"code": [1.0, 2.0, np.nan], "z": [0.0, 1.0, 2.0]})
    assert clf.predict(float_codes).tolist() == ["a", "b", "b"]


@pytest.mark.parametrize("number", [Decimal, Fraction])
def test_decimal_numbers_in_an_object_column_are_numbers(number, tmp_path):
    # database drivers give NUMERIC columns as Decimal objects, which pandas leaves as
    # object: they are compared as numbers, not as one category per value
    values = [number(str(v)) for v in (1.5, 2.25, 3.5, 4.75)] * 5
    X = pd.DataFrame({"price": pd.Series(values + [None], dtype=object)})
    y = ["lo", "lo", "hi", "hi"] * 5 + ["lo"]
    clf = FOLDClassifier(class_order=["hi", "lo"]).fit(X, y)
    assert clf.schema_.kinds == ("numeric",)
    assert str(clf.rules_) == "hi if price > 3\nlo otherwise"
    assert clf.predict(X).tolist() == y
    assert (run_swipl(clf, X, tmp_path) == python_decisions(clf, X)).all()
    assert FOLDClassifier().fit(X.to_numpy(), y).schema_.kinds == ("numeric",)  # an array


def test_values_that_differ_only_by_a_trailing_nul_stay_apart(tmp_path):
    # numpy string arrays drop trailing NULs: "a\x00" must not be read as "a"
    X = pd.DataFrame({"c": pd.Series(["a\x00", "a"] * 20 + ["b"] * 10, dtype=object)})
    y = np.array(["p", "n"] * 20 + ["n"] * 10, dtype=object)
    clf = FOLDClassifier(min_support=1, mdl_weight=None).fit(X, y)
    assert clf.predict_python(X).tolist() == y.tolist()
    assert clf.predict(X).tolist() == y.tolist()
    assert (run_swipl(clf, X, tmp_path) == python_decisions(clf, X)).all()


@pytest.mark.parametrize("missing", [None, np.nan])
def test_missing_labels_are_a_clear_error(missing):
    X = pd.DataFrame({"a": np.arange(6.0)})
    y = np.array(["a", "b", missing, "a", "b", "a"], dtype=object)
    with pytest.raises(ValueError, match="y contains missing labels"):
        FOLDClassifier().fit(X, y)


def test_one_class_is_a_default_and_boolean_sizes_are_refused():
    X = pd.DataFrame({"a": np.arange(6.0)})
    one = FOLDClassifier().fit(X, np.zeros(6))
    assert str(one.rules_) == "0.0 otherwise" and (one.predict(X) == 0).all()
    for name in ("min_support", "max_rule_length", "max_exception_depth", "exception_ratio",
                 "min_gain", "mdl_weight", "prolog_timeout"):
        with pytest.raises(ValueError, match=f"'{name}' parameter .* must be a number"):
            FOLDClassifier(**{name: True}).fit(X, ["a", "b"] * 3)


def test_an_array_at_predict_stands_for_the_fitted_columns_in_order():
    """As for any scikit-learn estimator fitted on a DataFrame: a warning, then the array's
    columns are the fitted ones by position (it was refused as columns x0, x1)."""
    X = pd.DataFrame({"a": np.arange(20.0), "c": np.where(np.arange(20) % 2, "u", "v")})
    y = (X["a"] > 9).astype(int).to_numpy()
    clf = FOLDClassifier().fit(X, y)
    with pytest.warns(UserWarning, match="does not have valid feature names"):
        assert np.array_equal(clf.predict(X.to_numpy()), clf.predict(X))
        with pytest.raises(ValueError, match="expecting 2 features"):
            clf.predict(X.to_numpy()[:, :1])


def test_more_classes_than_a_program_can_hold_are_refused():
    X = pd.DataFrame({"a": np.arange(10_001.0)})
    with pytest.raises(FoldInputError, match=r"^y has 10001 classes; FOLD learns at most "
                                             r"10,000 \(its program"):
        FOLDClassifier().fit(X, np.arange(10_001))


def test_an_array_at_predict_keeps_categories_that_read_as_numbers():
    check_an_array_keeps_categories_that_read_as_numbers(FOLDClassifier(min_support=1))


def test_a_frame_at_predict_stands_for_the_fitted_array_columns_in_order():
    """As for any scikit-learn estimator fitted on an array: one warning, then the frame's
    columns are the array's by position."""
    X = pd.DataFrame({"a": np.arange(20.0), "c": np.where(np.arange(20) % 2, "u", "v")})
    y = np.where((X["a"] > 9) & (X["c"] == "u"), "yes", "no")
    clf = FOLDClassifier().fit(X.to_numpy(), y)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert np.array_equal(clf.predict(X), y)
    assert [str(w.message) for w in caught] == [
        "X has feature names, but FOLDClassifier was fitted without feature names"]
    named = FOLDClassifier().fit(X.set_axis([0, 1], axis=1), y)  # names, though not text
    with pytest.raises(ValueError, match=r"^X has columns \[1, 0\], the model was fitted "
                                         r"on \['0', '1'\]; pass the same columns"):
        named.predict(X.set_axis([1, 0], axis=1))
    # a column more or fewer: the same words (scikit-learn's only counted them, or refused
    # names of two types)
    for model in (named, clf):
        fitted = "'0', '1'" if model is named else "'x0', 'x1'"
        with pytest.raises(ValueError, match=rf"^X has columns \[0, 1, 'z'\], the model was "
                                             rf"fitted on \[{fitted}\]; pass the same"):
            model.predict(X.set_axis([0, 1], axis=1).assign(z=1.0))
        with pytest.raises(ValueError, match=rf"^X has columns \[0\], the model was fitted on "
                                             rf"\[{fitted}\]; pass the same"):
            model.predict(X.set_axis([0, 1], axis=1)[[0]])


@pytest.mark.parametrize("bad", ["class_order", "missing label"])
def test_a_failed_refit_leaves_the_model_it_had(bad):
    X = pd.DataFrame({"a": np.arange(40.0), "c": np.where(np.arange(40) % 3, "u", "v")})
    y = np.where(X["a"] > 19, 1, 0)
    clf = FOLDClassifier(class_order=[1, 0]).fit(X, y)
    fitted = {k: v for k, v in vars(clf).items() if k.endswith("_")}
    if bad == "class_order":  # refused once the classes are known
        refit, message = (X, np.where(y == 1, "yes", "no")), "class_order="
    else:  # refused once the new columns are recorded
        labels = np.where(y == 1, "yes", None).astype(object)
        refit, message = (X.assign(b=1.0), labels), "missing labels"
    with pytest.raises(ValueError, match=message):
        clf.fit(*refit)
    assert {k: v for k, v in vars(clf).items() if k.endswith("_")}.keys() == fitted.keys()
    assert all(getattr(clf, k) is v for k, v in fitted.items())
    assert np.array_equal(clf.predict(X), y)


def test_a_tested_column_of_unseen_values_at_predict_is_warned_about():
    # fitted on bools, given 0/1: no row matched "flag == True", silently
    X = pd.DataFrame({"flag": [True, False] * 10, "x": np.arange(20.0)})
    y = np.where(X["flag"], "p", "n")
    clf = FOLDClassifier().fit(X, y)
    assert clf.categories_ == {"flag": frozenset({"False", "True"})}
    with pytest.warns(UserWarning, match=r"column 'flag': 20 of 20 values were never seen "
                                         r"in fit \(e.g. '1', '0'; fit saw 'False', 'True'\)"):
        clf.predict(X.assign(flag=X["flag"].astype(int)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert (clf.predict(X) == y).all()
        clf.predict(X.assign(flag=[True, False, "maybe", None] * 5))  # few new: no warning


def test_a_category_fit_saw_only_negated_is_not_warned_about_as_unseen():
    # a LIME-filtered one-hot view: 'c' only in "city != c" cells; predicting a full row of
    # city c warned "never seen in fit (e.g. 'c'; fit saw 'b')"
    X = pd.DataFrame({"city": pd.Series([Negated("c"), "b"] * 20, dtype=object),
                      "x": np.arange(40.0)})
    y = np.array(["yes", "no"] * 20)
    clf = FOLDClassifier(random_state=0).fit(X, y)
    assert clf.categories_ == {"city": frozenset({"b", "c"})}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert clf.predict(pd.DataFrame({"city": ["c"], "x": [0.0]})).tolist() == ["yes"]
    with pytest.warns(UserWarning, match=r"\(e.g. 'd'; fit saw 'b', 'c'\)"):
        clf.predict(pd.DataFrame({"city": ["d"], "x": [0.0]}))


def test_object_columns_of_numbers_are_numbers():
    """scikit-learn's set_output(transform="pandas") gives imputed numbers as object
    columns: FOLD read each value as a category and learned "1 if true" (0.627, the
    majority's share), silently; the same values in an object array gave 0.937."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.impute import SimpleImputer

    data = load_breast_cancer(as_frame=True)
    X = data.data[["mean radius", "mean texture"]].assign(
        site=np.where(np.arange(len(data.data)) % 2, "a", "b"))
    scores = [make_pipeline(SimpleImputer(strategy="most_frequent"), FOLDClassifier())
              .set_output(transform=output).fit(X, data.target).score(X, data.target)
              for output in ("default", "pandas")]
    assert scores[0] == scores[1] > 0.9
    objects = X.astype(object)
    model = FOLDClassifier().fit(objects, data.target)
    assert model.score(objects, data.target) == scores[0]
    assert model.schema_.kinds == ("numeric", "numeric", "categorical")
    # a column fitted as categories stays so at predict, whatever its cells look like
    codes = pd.DataFrame({"code": np.array(["1", "2", "3"] * 20, dtype=object)})
    fitted = FOLDClassifier().fit(codes, np.arange(60) % 3 == 0)
    assert fitted.schema_.kinds == ("categorical",)
    numbers = codes.assign(code=codes["code"].astype(int).astype(object))
    assert fitted.predict(numbers).tolist() == fitted.predict(codes).tolist()


def test_an_object_column_with_no_known_cell_stays_categorical():
    """LIME's filtered rows can leave a categorical column with no known cell: read as
    numbers, it refused the text of full rows at predict."""
    X = pd.DataFrame({"c": pd.Series([np.nan] * 20, dtype=object), "x": np.arange(20.0)})
    model = FOLDClassifier().fit(X, [0, 1] * 10)
    assert model.schema_.kinds == ("categorical", "numeric")
    assert len(model.predict(pd.DataFrame({"c": ["a", "b"], "x": [1.0, 2.0]}))) == 2


def test_object_numbers_with_pandas_na_are_numbers():
    """pd.NA (what Int64.astype(object) gives) left the column categorical, where None
    and NaN made it numeric."""
    for missing in (None, np.nan, pd.NA):
        column = pd.Series(list(np.arange(40) % 10), dtype=object)
        column[::10] = missing
        model = FOLDClassifier().fit(pd.DataFrame({"x": column}), np.arange(40) % 10 > 4)
        assert model.schema_.kinds == ("numeric",), missing


def test_labels_are_checked_as_scikit_learn_does():
    """The check of y is skipped only where scikit-learn's passes in silence: its error
    for continuous labels and its warning for more classes than half the rows still
    come; labels that do not compare are refused in one line (numpy's sort raised)."""
    X = pd.DataFrame({"x": np.arange(40.0)})
    with pytest.raises(ValueError, match="Unknown label type: continuous"):
        FOLDClassifier().fit(X, np.linspace(0, 1, 40))
    with pytest.raises(FoldInputError, match="mixes labels of types int, str"):
        FOLDClassifier().fit(X, np.array(["a", 1] * 20, dtype=object))
    for y in (np.array([f"c{i}" for i in range(40)], dtype=object), np.arange(40)):
        with pytest.warns(UserWarning, match="greater than 50%"):
            FOLDClassifier().fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        FOLDClassifier().fit(X, np.array(["a", "b"] * 20, dtype=object))


def test_arrays_of_dates_and_odd_labels_are_refused_in_one_line():
    check_arrays_of_dates_and_odd_labels_are_refused_in_one_line(FOLDClassifier(min_support=1))


def test_numbers_given_as_text_at_predict_read_as_in_fit():
    check_numbers_given_as_text_at_predict_read_as_in_fit(FOLDClassifier(min_support=1))


def test_labels_tables_and_columns_are_read_as_given():
    check_labels_tables_and_columns_are_read_as_given(FOLDClassifier(min_support=1))


@pytest.mark.parametrize("order", [["p"], ["p", "p"], ["p", "x"], [["p", "n"]], [["p"], ["n"]]])
def test_a_class_order_that_is_not_the_classes_once_each_is_refused_in_one_line(order):
    X = np.arange(20.0).reshape(-1, 1)
    with pytest.raises(FoldInputError, match=r"^class_order=.* must list each class of y "
                       r"exactly once \(classes: \['n', 'p'\]\)$"):
        FOLDClassifier(class_order=order).fit(X, ["p", "n"] * 10)
    fitted = FOLDClassifier(class_order=["p", "n"]).fit(X, ["p", "n"] * 10)
    assert fitted.class_order_.tolist() == [1, 0]


@pytest.mark.parametrize("unit", ["ns", "D"])
def test_labels_of_dates_and_time_spans_are_written_as_such(unit):
    # datetime64[ns] labels were written as integers (1577836800000000000)
    X = pd.DataFrame({"a": np.arange(40) % 4 * 1.0})
    dates = np.where(X.a < 2, np.datetime64("2020-01-01"),
                     np.datetime64("2021-01-01")).astype(f"datetime64[{unit}]")
    for y, first in ((dates, "'2020-01-01"), (dates - dates.min(), "'0 ")):
        clf = FOLDClassifier().fit(X, y)
        classes = clf.program_.split("Classes: ")[1].splitlines()[0]
        assert classes.startswith(first) and "0000000000," not in classes, classes
        assert str(clf.explain(X.iloc[[0]])).startswith(f"Predicted {first}")
        assert clf.predict(X).dtype == y.dtype and (clf.predict(X) == y).all()


def test_zeros_of_either_sign_give_one_program_whatever_the_rows_order():
    # the threshold was written -0.0 or 0.0 after whichever zero came first
    X = pd.DataFrame({"z": [0.0, -0.0, np.nan, 0.0, np.nan, -0.0] * 5})
    y = np.array([1, 1, 0, 1, 0, 1] * 5)
    forward = FOLDClassifier().fit(X, y).program_
    backward = FOLDClassifier().fit(X.iloc[::-1].reset_index(drop=True), y[::-1]).program_
    assert forward == backward and "-0.0" not in forward


@pytest.mark.parametrize("timeout", [1e16, float("nan"), -1.0, None, True])
def test_a_prolog_timeout_set_after_fit_is_checked_where_it_is_used(timeout):
    # the error says "raise prolog_timeout": set after fit, 1e16 s was a limit already
    # passed (a timeout), NaN "cannot convert float NaN to integer"
    X = pd.DataFrame({"a": [1.0, 2.0]})
    clf = FOLDClassifier().fit(X, [0, 1]).set_params(prolog_timeout=timeout)
    for method in (clf.predict, clf.explain, clf.evaluate_prolog):
        with pytest.raises(ValueError, match="'prolog_timeout' parameter"):
            method(X.iloc[[0]])
    assert clf.set_params(prolog_timeout=30).explain(X.iloc[[1]]).label == 1


@pytest.mark.parametrize("shape", [(60, 0), (0, 3)])
def test_an_empty_table_is_refused_with_its_own_shape(shape):
    # a frame of 60 rows and no columns was said to be of shape (1, 0)
    X = pd.DataFrame(np.zeros(shape), columns=[f"c{i}" for i in range(shape[1])])
    with pytest.raises(ValueError, match=rf"shape=\({shape[0]}, {shape[1]}\)\) while a "
                                         r"minimum of 1 is required"):
        FOLDClassifier().fit(X, np.arange(shape[0]) % 2)


CAFE, ZURICH = "caf\u00e9", "z\u00fcrich"  # NFC; NFD: "cafe\u0301", "zu\u0308rich"


def _cities(form: str) -> pd.DataFrame:
    """A table of cities, their text in Unicode ``form``, with a column of negations
    (``Negated``) of them."""
    city = np.array([CAFE, ZURICH, "rome", "oslo"], dtype=object)[np.arange(48) % 4]
    seen = [Negated(unicodedata.normalize(form, c)) if i % 3 == 0 else c
            for i, c in enumerate(city)]
    return pd.DataFrame({"city": [unicodedata.normalize(form, c) for c in city],
                         "seen": pd.Series(seen, dtype=object),
                         "x": np.tile([0.5, 1.5, 2.5], 16)})


def test_text_in_either_unicode_form_is_one_category(tmp_path):
    # fitted on precomposed "é" (NFC), a table writing "e" and a combining accent (NFD)
    # matched no city == 'café': a third of the predictions were silently wrong
    nfc, nfd = _cities("NFC"), _cities("NFD")
    y = (nfc["city"] == CAFE).to_numpy(dtype=int)
    clf = FOLDClassifier(random_state=0).fit(nfc, y)
    for table in (nfd, nfd.astype({"city": "category"})):
        assert clf.predict(table).tolist() == clf.predict(nfc).tolist() == y.tolist()
        assert np.array_equal(python_decisions(clf, table), clf.evaluate_prolog(table).decisions)
        assert [str(clf.explain(table.iloc[[i]])) for i in range(4)] == [
            str(clf.explain(nfc.iloc[[i]])) for i in range(4)]
    assert clf.facts(nfd) == clf.facts(nfc)
    assert np.array_equal(run_swipl(clf, nfd, tmp_path), python_decisions(clf, nfc))
    # fitted on NFD, or on a table holding both forms: the same program, in NFC
    mixed = pd.concat([nfc.iloc[::2], nfd.iloc[1::2]]).sort_index()
    for other in (nfd, mixed):
        assert FOLDClassifier(random_state=0).fit(other, y).program_ == clf.program_
    assert CAFE in clf.program_ and "cafe\u0301" not in clf.program_
    assert Negated("cafe\u0301") == Negated(CAFE)


def test_labels_and_column_names_in_either_unicode_form():
    check_labels_and_column_names_in_either_unicode_form(FOLDClassifier(random_state=0))


def test_labels_in_two_unicode_forms_are_one_class_in_the_program_and_class_order():
    nfc, nfd = CAFE, "cafe\u0301"
    X = pd.DataFrame({"a": np.arange(12) % 3 * 1.0})
    y = np.array([nfc, nfd, "tea"] * 4, dtype=object)
    with pytest.warns(UserWarning, match="same text in different Unicode characters"):
        clf = FOLDClassifier(class_order=["tea", nfd], random_state=0).fit(X, y)
    assert clf.classes_[clf.class_order_].tolist() == ["tea", nfc]
    assert nfc in clf.program_ and nfd not in clf.program_
    assert clf.predict(X).tolist() == [nfc, nfc, "tea"] * 4


def test_object_labels_of_numbers_or_bools_are_classes():
    check_object_labels_of_numbers_or_bools_are_classes(FOLDClassifier(random_state=0))


def test_a_category_column_ordered_or_not_is_read_by_its_values():
    check_a_category_column_ordered_or_not_is_read_by_its_values(FOLDClassifier(random_state=0))


def test_names_scikit_learn_does_not_keep_are_matched_in_either_unicode_form():
    # numpy's str_ names give no feature_names_in_; the schema's names were compared as
    # written, so 'café' in the other form was refused as other columns, printing alike
    X = pd.DataFrame({"a": np.arange(16) % 2 * 1.0, "b": np.arange(16) // 8 * 1.0})
    y = np.where(X["a"] > 0, "y", "n")
    clf = FOLDClassifier(random_state=0).fit(
        X.set_axis(pd.Index([np.str_("a"), np.str_("cafe\u0301")]), axis=1), y)
    assert not hasattr(clf, "feature_names_in_")
    assert (clf.predict(X.set_axis(["a", "caf\u00e9"], axis=1)) == y).all()
