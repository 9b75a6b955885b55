"""Binarizer: threshold and category columns with their specs."""

import numpy as np
import pandas as pd
import pytest

from imli import Binarizer, Predicate


def test_numeric_and_categorical_columns():
    df = pd.DataFrame({"age": [20.0, 30.0, 40.0, 50.0, np.nan],
                       "color": ["r", "g", "r", None, "b"],
                       "flag": [0, 1, 1, 0, 1]})
    b = Binarizer(n_thresholds=1).fit(df)
    assert b.column_specs_ == [
        Predicate("age", "<=", 30.0), Predicate("age", ">", 30.0),
        Predicate("color", "==", "b"), Predicate("color", "==", "g"),
        Predicate("color", "==", "r"), None]
    out = b.transform(df)
    assert out.dtypes.eq(bool).all()
    assert list(out.columns) == ["age <= 30.0", "age > 30.0", "color == b", "color == g",
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
    assert 0.0 in values and max(values) > 0


def test_close_thresholds_get_distinct_names():
    df = pd.DataFrame({"x": [1.00001, 1.00002, 1.00003, 5.0]})
    names = Binarizer(n_thresholds=3).fit(df).get_feature_names_out()
    assert len(set(names)) == len(names)


def test_errors():
    with pytest.raises(ValueError, match="unknown columns"):
        Binarizer(categorical=["nope"]).fit(pd.DataFrame({"x": [1.0, 2.0]}))
    b = Binarizer().fit(pd.DataFrame({"x": [1.0, 2.0]}))
    with pytest.raises(ValueError):
        b.transform(pd.DataFrame({"x": [1.0], "y": [2.0]}))
