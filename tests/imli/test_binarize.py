"""Binarizer: threshold and category columns with their specs."""

import warnings
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from imli import Binarizer, IMLIClassifier, Predicate


def test_numeric_and_categorical_columns():
    df = pd.DataFrame({"age": [20.0, 30.0, 40.0, 50.0, np.nan],
                       "color": ["r", "g", "r", None, "b"],
                       "flag": [0, 1, 1, 0, 1]})
    b = Binarizer(n_thresholds=1).fit(df)
    assert b.column_specs_ == [
        Predicate("age", "<=", 35.0), Predicate("age", ">", 35.0),  # halfway to 40
        Predicate("color", "==", "b"), Predicate("color", "==", "g"),
        Predicate("color", "==", "r"), None]
    out = b.transform(df)
    assert out.dtypes.eq(bool).all()
    assert list(out.columns) == ["age <= 35.0", "age > 35.0", "color == b", "color == g",
                                 "color == r", "flag"]
    # a missing number satisfies no threshold, a missing category no category
    assert not out.iloc[4, :2].any() and not out.iloc[3, 2:5].any()
    assert out["flag"].tolist() == [False, True, True, False, True]


def test_specs_agree_with_columns():
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.normal(size=50), "c": rng.choice(["a", "b"], 50)})
    b = Binarizer(n_thresholds=4).fit(df)
    out = b.transform(df)
    for spec, name in zip(b.column_specs_, out.columns):
        assert (spec.evaluate(df[spec.feature].to_numpy()) == out[name].to_numpy()).all()


def test_dominant_value_gets_extra_thresholds():
    df = pd.DataFrame({"gain": [0.0] * 90 + [1000.0 * i for i in range(1, 11)]})
    values = {s.value for s in Binarizer(n_thresholds=2).fit(df).column_specs_}
    # the frequent 0 gets a cut of its own, halfway to the next value; the others too
    assert 500.0 in values and max(values) > 1000


def test_close_thresholds_get_distinct_names():
    df = pd.DataFrame({"x": [1.00001, 1.00002, 1.00003, 5.0]})
    names = Binarizer(n_thresholds=3).fit(df).get_feature_names_out()
    assert len(set(names)) == len(names)


def test_a_column_named_like_a_test_keeps_its_own_values():
    # A 0/1 column named "c == x" beside the category test c == x: the column overwrote
    # the test's values, so the rule printed as one and decided as the other.
    from imli import IMLIClassifier
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"c": rng.choice(["x", "y"], 200), "c == x": rng.integers(0, 2, 200)})
    b = Binarizer().fit(df)
    out = b.transform(df)
    assert list(out.columns) == ["c == x", "c == y", "'c == x'"]
    assert out.iloc[:, 0].tolist() == (df["c"] == "x").tolist()
    assert out.iloc[:, 2].tolist() == (df["c == x"] == 1).tolist()
    y = df["c == x"].to_numpy()
    clf = IMLIClassifier(n_clauses=1).fit(df, y)
    assert str(clf.rules_) == "('c == x')" and clf.score(df, y) == 1.0


def test_errors():
    with pytest.raises(ValueError, match="unknown columns"):
        Binarizer(categorical=["nope"]).fit(pd.DataFrame({"x": [1.0, 2.0]}))
    b = Binarizer().fit(pd.DataFrame({"x": [1.0, 2.0]}))
    with pytest.raises(ValueError):
        b.transform(pd.DataFrame({"x": [1.0], "y": [2.0]}))
    from imli import IMLIClassifier
    twice = pd.DataFrame([[1.0, 2.0], [2.0, 1.0]], columns=[1, "1"])
    with pytest.raises(ValueError, match=r"^duplicate column names \['1'\]"):
        IMLIClassifier().fit(twice, [0, 1])


# a 0/1 flag in several dtypes, and the same flag at predict time with one value missing
FLAGS = {
    "int": ([0, 1] * 4, [np.nan, 0.0, 1.0]),
    "bool": ([False, True] * 4, [None, False, True]),
    "boolean": (pd.array([False, True] * 4, dtype="boolean"),
                pd.array([pd.NA, False, True], dtype="boolean")),
    "Int64": (pd.array([0, 1] * 4, dtype="Int64"), pd.array([pd.NA, 0, 1], dtype="Int64")),
}


@pytest.mark.parametrize("kind", FLAGS)
def test_missing_values_satisfy_no_column(kind):
    fit_flag, new_flag = FLAGS[kind]
    df = pd.DataFrame({"flag": fit_flag, "age": np.arange(8.0),
                       "code": pd.Series([1, 2] * 4, dtype="category")})
    b = Binarizer(n_thresholds=2).fit(df)
    assert b.column_specs_[0] is None  # flag is kept as one binary column
    new = pd.DataFrame({"flag": new_flag,
                        "age": pd.array([pd.NA, 1, 6], dtype="Int64"),
                        "code": pd.Series([None, 1, 2], dtype=object)})
    out = b.transform(new)
    assert not out.iloc[0].any()  # every cell of row 0 is missing
    assert out["flag"].tolist() == [False, False, True]
    assert out["code == 1"].tolist() == [False, True, False]


@pytest.mark.parametrize("thresholds", ["quantile", "entropy"])
def test_one_number_beside_missing_cells_tests_whether_it_is_there(thresholds):
    # a flag stored as 1 or empty gave no column: the rule was empty, accuracy 0.51
    rng = np.random.default_rng(0)
    flag = rng.random(200) < 0.4
    df = pd.DataFrame({"flag": np.where(flag, 1.0, np.nan), "age": np.full(200, 30.0)})
    y = flag.astype(int)
    b = Binarizer(thresholds=thresholds).fit(df, y)
    assert [str(p) for p in b.column_specs_] == ["flag <= 1.0"]
    assert b.transform(df)["flag <= 1.0"].tolist() == flag.tolist()
    clf = IMLIClassifier(thresholds=thresholds, random_state=0).fit(df, y)
    assert (clf.predict(df) == y).all() and clf.rule_size_ == 1


@pytest.mark.parametrize("missing", [
    pd.Series([None], dtype=object), pd.Series([np.nan], dtype="category"),
    pd.Series([pd.NA], dtype="string"), pd.Series([pd.NA], dtype=object),
    pd.Series([pd.NA], dtype="boolean")], ids=["None", "category", "string", "object", "boolean"])
def test_a_category_column_missing_in_every_row_satisfies_no_column(missing):
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"num": rng.normal(size=80), "col": rng.choice(["red", "green", "blue"], 80)})
    y = ((df.num > 0) & (df.col != "blue")).astype(int)
    clf = IMLIClassifier(n_clauses=2, batch_size=None).fit(df, y)
    new = pd.DataFrame({"num": [1.0], "col": missing})
    assert not clf.binarizer_.transform(new).iloc[0, -3:].any()
    assert clf.predict(new).tolist() == [1]  # col != blue: it is no category


def test_fit_with_a_category_column_missing_in_every_row():
    df = pd.DataFrame({"num": np.arange(10.0), "col": [None] * 10})
    clf = IMLIClassifier(batch_size=None).fit(df, (df.num > 4).astype(int))
    assert clf.predict(df).tolist() == [0] * 5 + [1] * 5


@pytest.mark.parametrize("value", [2, 0.5, -1])
def test_a_0_1_column_of_a_table_refuses_other_numbers_at_predict(value):
    df = pd.DataFrame({"flag": [0, 1] * 10, "age": np.arange(20.0)})
    y = (df.flag == 1).astype(int)
    clf = IMLIClassifier(batch_size=None).fit(df, y)
    new = pd.DataFrame({"flag": [1, value], "age": [3.0, 4.0]})
    with pytest.raises(ValueError, match=r"^column 'flag' holds .*, not 0 or 1; it held only "
                                         r"0/1 values in fit"):
        clf.predict(new)
    assert clf.predict(new.iloc[:1]).tolist() == [1]


def test_integer_categories_match_equal_numbers_and_their_text():
    # numbers in an object column are numbers, as in an array; a category column (or
    # Binarizer(categorical=...)) keeps them categories
    objects = Binarizer().fit(pd.DataFrame({"code": pd.Series([1, 2, 3] * 2, dtype=object)}))
    assert all(s.is_threshold for s in objects.column_specs_)
    for codes in (pd.Series([1, 2, 3] * 2, dtype="category"),
                  pd.Series([1, 2, 3] * 2, dtype=object)):
        b = Binarizer(categorical=["code"] if codes.dtype == object else None).fit(
            pd.DataFrame({"code": codes}))
        assert [str(s) for s in b.column_specs_] == ["code == 1", "code == 2", "code == 3"]
        new = pd.DataFrame({"code": pd.Series([1.0, 2.0, np.nan, "1", 1.5, "x"], dtype=object)})
        assert b.transform(new)["code == 1"].tolist() == [True, False, False, True, False,
                                                          False]
        assert b.transform(new.astype({"code": "category"})).iloc[:3].to_numpy().tolist() == [
            [True, False, False], [False, True, False], [False, False, False]]


@pytest.mark.parametrize("number", [Decimal, Fraction])
def test_decimal_numbers_in_an_object_column_are_numbers(number):
    # database drivers give NUMERIC columns as Decimal objects, which pandas leaves as
    # object: they are thresholded, not one category per value
    values = [number(str(v)) for v in (1.5, 2.25, 3.5, 4.75)] * 3
    X = pd.DataFrame({"price": pd.Series(values + [None], dtype=object)})
    y = [0, 0, 1, 1] * 3 + [0]
    assert all(s.is_threshold for s in Binarizer().fit(X).column_specs_)
    clf = IMLIClassifier(n_clauses=1, batch_size=None).fit(X, y)
    assert str(clf.rules_) == "(price > 3.0)"
    assert clf.predict(pd.DataFrame({"price": [2.0, 4.0]})).tolist() == [0, 1]


def test_text_categories_match_no_number():
    b = Binarizer().fit(pd.DataFrame({"c": ["a", "b"] * 3}))
    with pytest.warns(UserWarning, match="never seen in fit"):
        assert not b.transform(pd.DataFrame({"c": [1.0, 2, np.nan]})).to_numpy().any()


def test_specs_agree_with_columns_on_missing_values():
    df = pd.DataFrame({"x": [0.5, 1.5, 2.5, np.nan, 3.5],
                       "c": pd.Series([1, 2, None, 1, 2], dtype="Int64").astype("category"),
                       "s": ["u", None, "v", "u", "v"]})
    b = Binarizer(n_thresholds=2).fit(df)
    new = pd.DataFrame({"x": [np.nan, None, 2.0, pd.NA, 3.0],
                        "c": [1.0, pd.NA, None, 2, np.nan],
                        "s": [None, "u", pd.NA, "v", np.nan]}, dtype=object)
    out = b.transform(new)
    for spec, name in zip(b.column_specs_, out.columns):
        assert (spec.evaluate(new[spec.feature]) == out[name].to_numpy()).all()
    assert out.to_numpy().sum(axis=1).tolist() == [1, 1, 2, 2, 2]


def test_extreme_thresholds_get_short_distinct_names():
    df = pd.DataFrame({"tiny": [1e-310, 1.1754943508222875e-308, 2.5e-308, 3e-308],
                       "big": [6.626e199, 6.6260001e199, 7e199, 8e199]})
    names = Binarizer(n_thresholds=3).fit(df).get_feature_names_out()
    assert len(set(names)) == len(names) and max(map(len, names)) < 30
    assert "tiny <= 6e-309" in names and "big > 6.62600005e+199" in names


def test_a_column_of_many_categories_is_warned_of():
    # the estimator turned 2000 shop names into 2000 columns and a 176-literal rule that
    # listed them, with no word
    import warnings

    from imli.binarize import MANY_CATEGORIES

    many = pd.DataFrame({"shop": [f"s{i}" for i in range(MANY_CATEGORIES + 1)]})
    with pytest.warns(UserWarning, match=f"column 'shop' has {MANY_CATEGORIES + 1} "
                                         "categories, one binary column each"):
        Binarizer().fit(many)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Binarizer().fit(many.iloc[:MANY_CATEGORIES])


def test_entropy_thresholds_find_the_cut_the_labels_make_on_any_scale():
    rng = np.random.default_rng(0)
    hours = rng.uniform(0, 60, 400).round(1)
    y = (hours > 30).astype(int)
    for scale in (1.0, 1e-9):
        b = Binarizer(thresholds="entropy", n_thresholds=3).fit(
            pd.DataFrame({"h": hours * scale}), y)
        cuts = [p.value for p in b.column_specs_ if p.relation == "<="]
        below, above = hours[hours <= 30].max() * scale, hours[hours > 30].min() * scale
        assert any(below <= c < above for c in cuts), (scale, cuts)
        assert len(cuts) <= 3
    with pytest.raises(ValueError, match="thresholds='entropy' .* give y to fit"):
        Binarizer(thresholds="entropy").fit(pd.DataFrame({"h": hours}))


def test_entropy_thresholds_let_imli_isolate_a_few_rare_positives():
    # quantile thresholds cannot isolate the top 5 of 1000 rows: the rule was FALSE
    from imli import IMLIClassifier

    rng = np.random.default_rng(0)
    X = pd.DataFrame({"score": rng.normal(size=1000), "other": rng.normal(size=1000)})
    y = np.zeros(1000, dtype=int)
    y[np.argsort(X["score"].to_numpy())[-5:]] = 1
    quantile = IMLIClassifier(time_limit=20).fit(X, y)
    entropy = IMLIClassifier(thresholds="entropy", time_limit=20).fit(X, y)
    assert quantile.score(X, y) < 1.0 and entropy.score(X, y) == 1.0
    assert "score >" in str(entropy.rules_)


def test_imli_after_a_binarizer_in_a_pipeline_prints_what_the_columns_mean():
    # it printed the columns' quoted names: ('f0 > 0.032' OR 'f1 > 0.856') AND ...
    from sklearn.pipeline import make_pipeline

    from imli import IMLIClassifier
    from imli.binarize import specs_of

    rng = np.random.default_rng(0)
    X = pd.DataFrame({"f0": rng.normal(size=300), "c": rng.choice(["a", "b"], 300)})
    y = ((X.f0 > 0) | (X.c == "a")).astype(int)
    piped = make_pipeline(Binarizer(), IMLIClassifier(time_limit=5)).fit(X, y)
    assert str(piped[-1].rules_) == str(IMLIClassifier(time_limit=5).fit(X, y).rules_)
    assert "'" not in str(piped[-1].rules_)
    binary = Binarizer().fit(X).transform(X)
    assert specs_of(binary) is not None
    # pandas deep-copies attrs on every operation: the meanings must copy as themselves
    # (a deep copy of every spec each time made a fit 30 times slower)
    import copy
    assert copy.deepcopy(binary.attrs) == binary.attrs
    assert all(copy.deepcopy(binary.attrs)[k] is v for k, v in binary.attrs.items())
    assert specs_of(binary.iloc[:10]) == specs_of(binary)
    assert specs_of(binary.iloc[:, ::-1]) is None  # reordered: the meanings no longer hold
    assert specs_of(binary.rename(columns=str.upper)) is None


def test_a_category_column_in_another_type_at_predict_is_warned_of():
    # codes read from a file as text at fit, and as numbers at predict
    X = pd.DataFrame({"code": ["10", "20", "30", "40"] * 5, "x": np.arange(20.0)})
    y = np.where(X["code"] == "20", "p", "n")
    clf = IMLIClassifier().fit(X, y)
    with pytest.warns(UserWarning, match=r"column 'code': 20 of 20 known values were never "
                                         r"seen in fit \(e.g. '10.5', '20.5', '30.5'; fit saw "
                                         r"'10', '20', '30', ...\)"):
        clf.predict(X.assign(code=X["code"].astype(float) + 0.5))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert (clf.predict(X) == y).all()
        # equal numbers are the same categories; a few new values, or many missing ones,
        # are no sign of another type
        assert (clf.predict(X.assign(code=X["code"].astype(int))) == y).all()
        clf.predict(X.assign(code=["10", "20", "maybe", None] * 5))
        clf.predict(X.assign(code=["10"] + [None] * 19))


def test_cells_holding_lists_are_categories_by_their_text():
    X = pd.DataFrame({"tags": [[1, 2], [3], [1, 2], None] * 5})
    b = Binarizer().fit(X)
    assert b.column_specs_ == [Predicate("tags", "==", "[1, 2]"), Predicate("tags", "==", "[3]")]
    out = b.transform(X)
    assert out["tags == '[1, 2]'"].tolist() == [True, False, True, False] * 5
    y = [1, 0, 1, 0] * 5
    assert IMLIClassifier().fit(X, y).predict(X).tolist() == y


@pytest.mark.parametrize("as_frame", [False, True])
def test_long_double_numbers_are_read_as_float64(as_frame):
    X = np.arange(40, dtype=np.longdouble).reshape(20, 2)
    if as_frame:
        X = pd.DataFrame(X, columns=["a", "b"])
    y = (np.arange(20) >= 10).astype(int)
    clf = IMLIClassifier().fit(X, y)
    assert clf.predict(X).tolist() == y.tolist()
    assert Binarizer(n_thresholds=1).fit(X).transform(X).dtypes.eq(bool).all()


def test_transform_reads_names_in_either_unicode_form_and_refuses_others_in_one_line():
    # a name written in the other form was refused as unseen, in scikit-learn's many lines
    # naming 'café' as both unseen and missing; so were reordered, missing, extra columns
    X = pd.DataFrame({"cafe\u0301": np.arange(16) % 2 * 1.0, "b": np.arange(16) // 8 * 1.0})
    binarizer = Binarizer().fit(X)
    assert binarizer.transform(X.rename(columns={"cafe\u0301": "caf\u00e9"})).equals(
        binarizer.transform(X))
    for table in (X[["b", "cafe\u0301"]], X[["b"]], X.assign(z=1.0)):
        with pytest.raises(ValueError) as caught:
            binarizer.transform(table)
        message = str(caught.value)
        assert message.startswith("X has columns [") and "\n" not in message, message
