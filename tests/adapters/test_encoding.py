"""TableEncoder: DataFrame ⇄ float matrix."""
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.pandas import column, data_frames

from adapters import InputError, TableEncoder, from_frame


def _table():
    return pd.DataFrame({
        "x": [1.5, np.nan, -2.0, 0.0],
        "c": pd.Series(["b", "a", np.nan, "b"], dtype=object),
        "k": pd.Series(["z", "y", "y", "x"], dtype=object),
    })


def test_fit_attributes():
    enc = TableEncoder().fit(_table(), categorical=["c", "k"])
    assert enc.feature_names_ == ("x", "c", "k")
    assert enc.categorical_indices_ == (1, 2)
    assert enc.categories_ == {"c": ("a", "b"), "k": ("x", "y", "z")}
    assert enc.n_features_in_ == 3 and enc.categorical_ == ("c", "k")


def test_transform_codes_and_missing():
    enc = TableEncoder().fit(_table(), ["c", "k"])
    Z = enc.transform(_table())
    assert Z.dtype == np.float64
    expected = np.array([[1.5, 1, 2], [np.nan, 0, 1], [-2.0, np.nan, 1], [0.0, 1, 0]])
    np.testing.assert_array_equal(Z, expected)


def test_round_trip():
    X = _table()
    enc = TableEncoder().fit(X, ["c", "k"])
    back = enc.inverse_transform(enc.transform(X))
    pd.testing.assert_frame_equal(back, X)
    assert back["c"].dtype == object and back["x"].dtype == "float64"


def test_categorical_inferred_from_dtype():
    X = _table().assign(flag=[True, False, True, True])
    enc = TableEncoder().fit(X)
    assert enc.categorical_ == ("c", "k", "flag")
    assert enc.categories_["flag"] == ("False", "True")


def test_unseen_categories_and_inf_become_nan():
    enc = TableEncoder().fit(_table(), ["c", "k"])
    new = pd.DataFrame({"x": [np.inf, 3.0], "c": ["new", "a"], "k": ["x", None]})
    np.testing.assert_array_equal(enc.transform(new), [[np.nan, np.nan, 0], [3.0, 0, np.nan]])


def test_column_order_from_fit():
    enc = TableEncoder().fit(_table(), ["c", "k"])
    shuffled = _table()[["k", "x", "c"]]
    np.testing.assert_array_equal(enc.transform(shuffled), enc.transform(_table()))


def test_missing_and_extra_columns_named():
    enc = TableEncoder().fit(_table(), ["c", "k"])
    with pytest.raises(InputError, match="missing columns 'k'") as info:
        enc.transform(_table().drop(columns="k"))
    assert "unexpected" not in str(info.value)
    with pytest.raises(InputError, match="unexpected columns 'extra'"):
        enc.transform(_table().assign(extra=1))
    with pytest.raises(InputError, match="missing columns 'x'; unexpected columns 'y'"):
        enc.transform(_table().rename(columns={"x": "y"}))


def test_text_in_numeric_column_at_transform():
    enc = TableEncoder().fit(_table(), ["c", "k"])
    bad = _table().astype({"x": object})
    bad.loc[0, "x"] = "abc"
    with pytest.raises(InputError, match="'x' must be numeric.*'abc'"):
        enc.transform(bad)
    ok = _table().astype({"x": object})
    ok.loc[0, "x"] = "2.5"
    assert enc.transform(ok)[0, 0] == 2.5


def test_inverse_rejects_bad_codes_and_shapes():
    enc = TableEncoder().fit(_table(), ["c", "k"])
    with pytest.raises(InputError, match="'c'.*not category indices"):
        enc.inverse_transform([[0.0, 2.0, 0.0]])
    with pytest.raises(InputError, match="not category indices"):
        enc.inverse_transform([[0.0, 0.5, 0.0]])
    with pytest.raises(InputError, match=r"shape \(n, 3\)"):
        enc.inverse_transform(np.zeros((2, 4)))
    with pytest.raises(InputError, match="DataFrame"):
        enc.transform(np.zeros((2, 3)))


def test_unfitted_and_bad_fit():
    with pytest.raises(InputError, match="not fitted"):
        TableEncoder().transform(_table())
    with pytest.raises(InputError, match="not in the table: 'q'"):
        TableEncoder().fit(_table(), ["q"])
    assert repr(TableEncoder()) == "TableEncoder()"


def test_dataset_round_trip(tmp_path):
    df = pd.DataFrame({"a": [1.0, None, 3.0, 4.0], "b": ["u", "v", None, "u"],
                       "t": [0, 1, 1, 0]})
    ds = from_frame(df, "t")
    enc = TableEncoder().fit(ds.X, ds.categorical)
    pd.testing.assert_frame_equal(enc.inverse_transform(enc.transform(ds.X)), ds.X)


_text = st.one_of(st.none(), st.text(max_size=6))


@settings(max_examples=40, deadline=None)
@given(data_frames([column("num", elements=st.floats(allow_nan=True, allow_infinity=False)),
                    column("cat", elements=_text, dtype=object)]))
def test_round_trip_property(df):
    df["cat"] = df["cat"].astype(object).where(df["cat"].notna(), np.nan)
    enc = TableEncoder().fit(df, ["cat"])
    back = enc.inverse_transform(enc.transform(df))
    pd.testing.assert_frame_equal(back, df.reset_index(drop=True), check_dtype=False)
    assert back["cat"].dtype == object


def _encoder(columns, categorical=(), values=("a", "b", "c")):
    frame = pd.DataFrame({c: list(values) if c in categorical else [1.0, 2.0, 3.0]
                          for c in columns})
    return TableEncoder().fit(frame, list(categorical))


# the first five names of both lists read the same in each case: the message used to show
# only those
SIX = ["f1", "f2", "f3", "f4", "f5", "f6"]


@pytest.mark.parametrize("theirs, words", [
    (SIX[:5] + ["g6"], "other columns (with 'g6', without 'f6')"),
    (SIX[:5], "other columns (without 'f6')"),
    (SIX + ["f7"], "other columns (with 'f7')"),
    (SIX[:4] + ["f6", "f5"], "the columns in another order (its column 5 is 'f6', not 'f5'; "
                             "2 of 6 in other places)"),
])
def test_an_encoder_of_other_columns_is_told_by_what_differs(theirs, words):
    assert _encoder(SIX).difference(_encoder(theirs)) == words


def test_other_categorical_columns_and_categories_are_told_by_what_differs():
    ours = _encoder(SIX, categorical=["f6"])
    assert ours.difference(_encoder(SIX, categorical=["f5"])) == (
        "other categorical columns (with 'f5', without 'f6')")
    assert ours.difference(_encoder(SIX, categorical=["f6"], values="abd")) == (
        "other categories of column 'f6' (with 'd', without 'c')")


NFC, NFD = "caf\u00e9", "cafe\u0301"  # 'café' with 'é', and with 'e' and an accent


def test_categories_in_two_unicode_forms_are_told_by_their_code_points():
    # the two print alike, so 'with café, without café' alone would read as no difference
    ours = _encoder(SIX, categorical=["f6"], values=["a", "b", NFC])
    words = ours.difference(_encoder(SIX, categorical=["f6"], values=["a", "b", NFD]))
    assert words == (f"other categories of column 'f6' (with {NFD!r}, without {NFC!r}; "
                     f"'cafe\\u0301' and 'caf\\xe9' are the same text in two Unicode forms)")


@pytest.mark.parametrize("fitted, later", [(NFC, NFD), (NFD, NFC)])
def test_a_later_table_matches_a_category_in_another_unicode_form(fitted, later):
    # a later table (a held-out file) holding only the other form saw it as unseen (NaN)
    enc = TableEncoder().fit(pd.DataFrame({"c": [fitted, "tea", "milk"]}), ["c"])
    Z = enc.transform(pd.DataFrame({"c": [later, "tea", None, "juice", fitted]}))
    assert enc.categories_["c"][0] == fitted  # the fitted form is kept
    np.testing.assert_array_equal(Z.ravel(), [0, 2, np.nan, np.nan, 0])


def test_categories_fitted_in_both_unicode_forms_keep_their_codes():
    enc = TableEncoder().fit(pd.DataFrame({"c": [NFD, NFC, "tea"]}), ["c"])
    assert enc.transform(pd.DataFrame({"c": [NFC, NFD]})).ravel().tolist() == [
        enc.categories_["c"].index(NFC), enc.categories_["c"].index(NFD)]
