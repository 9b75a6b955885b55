"""Checks both learners' estimators must pass, written once."""

import re
import warnings

import numpy as np
import pandas as pd
import pytest


def check_an_array_keeps_categories_that_read_as_numbers(estimator):
    """Fitted on a frame whose text column reads as numbers (``"01"``, ``"1.0"``), the
    estimator given the same rows as an array predicts them alike, with scikit-learn's
    one warning: ``"01"`` is not ``"1.0"``, nor 1."""
    X = pd.DataFrame({"code": ["01", "1.0", "02", "2"] * 8, "w": np.arange(32.0)})
    y = np.where(X["code"].isin(["01", "2"]), "yes", "no")
    clf = estimator.fit(X, y)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert (clf.predict(X.to_numpy()) == y).all()
    assert [str(w.message) for w in caught] == [
        f"X does not have valid feature names, but {type(estimator).__name__} was fitted "
        "with feature names"]


def check_arrays_of_dates_and_odd_labels_are_refused_in_one_line(estimator):
    """What a DataFrame's column types refuse, an array's dtype refuses too, at fit and at
    predict (a date array read as nanoseconds answered every row alike); sparse input,
    complex numbers, bytes labels and text beside numbers in y are one-line errors,
    whichever label comes first."""
    import scipy.sparse

    days = np.array([0, 1, 2, 3, 10, 11, 12, 13] * 4)
    y = np.where(days >= 10, "late", "early")
    dates = (np.datetime64("2020-01-01") + days.astype("timedelta64[D]")).reshape(-1, 1)

    def refused(call, pattern):
        with pytest.raises((ValueError, TypeError)) as caught:
            call()
        message = str(caught.value)
        assert re.search(pattern, message) and "\n" not in message, message

    fit = estimator.fit
    refused(lambda: fit(dates, y), r"^X has dtype datetime64\[D\], which .* cannot")
    refused(lambda: fit(days.astype("timedelta64[D]").reshape(-1, 1), y),
            r"^X has dtype timedelta64\[D\]")
    as_objects = pd.Series(dates.ravel()).dt.date.to_numpy().reshape(-1, 1)
    refused(lambda: fit(as_objects, y), r"^column 'x0' has dtype object \(date values\)")
    refused(lambda: fit(days.reshape(-1, 1) + 1j, y), r"^Complex data not supported: X has")
    refused(lambda: fit(scipy.sparse.csr_matrix(days.reshape(-1, 1).astype(float)), y),
            r"^Sparse data was passed for X, but dense data is required")
    clf = fit(days.reshape(-1, 1).astype(float), y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        refused(lambda: clf.predict(dates), r"^X has dtype datetime64\[D\]")
    X = pd.DataFrame({"a": days.astype(float)})
    refused(lambda: fit(X, np.where(days >= 10, 1 + 1j, 2)), r"^Complex data not supported: y")
    refused(lambda: fit(X, np.where(days >= 10, b"late", b"early")), r"^y holds bytes labels")
    for first in ("x", 0):
        labels = np.array([first] + [0, "x"] * 15 + [1], dtype=object)
        refused(lambda: fit(X, labels), r"^y mixes labels of types int, str, which do not")


def check_numbers_given_as_text_at_predict_read_as_in_fit(estimator):
    """A column fitted as numbers, given as text at predict, is read as ``fit`` reads text
    (Python's ``float``, ``"nan"`` unknown): the same labels as the numbers. Text that is
    no number (``""`` too, which in ``fit`` makes a column categorical) and integers
    beyond float64 are one-line errors naming the column."""
    rng = np.random.default_rng(3)
    X = pd.DataFrame({"a": rng.normal(size=80).round(3), "b": rng.choice(["x", "y"], 80)})
    X.loc[::7, "a"] = np.nan
    y = np.where(X["a"] > 0.2, "hi", "lo")
    clf = estimator.fit(X, y)
    expected = clf.predict(X)
    assert len(set(expected)) == 2
    as_text = X.assign(a=[repr(float(v)) for v in X["a"]])  # 'nan' where unknown
    assert as_text["a"].str.fullmatch("nan").sum() == X["a"].isna().sum() > 0
    assert (clf.predict(as_text) == expected).all()
    for bad, pattern in (("", r"holds '', not a number"), (" ", r"holds ' ', not a number"),
                         ("x" * 500, r"holds 'x+\.\.\.x+', not a number"),
                         (10**400, r"beyond the range of float64")):
        cells = as_text["a"].to_numpy(dtype=object)
        cells[5] = bad
        with pytest.raises(ValueError) as caught:
            clf.predict(as_text.assign(a=cells))
        message = str(caught.value)
        assert re.search(r"^column 'a' .*" + pattern, message) and "\n" not in message, message


def check_labels_tables_and_columns_are_read_as_given(estimator):
    """A list of labels that differ by a trailing NUL stays two classes (a numpy text array
    would drop the NUL); X that is not a table (a Series, a 1-D list, a dict) and columns
    other than the fitted ones are one-line errors, not scikit-learn's many lines."""
    X = pd.DataFrame({"a": np.arange(40) % 4 * 1.0, "b": np.arange(40) % 3 * 1.0})
    y = ["a\x00" if v < 2 else "a" for v in X["a"]]
    clf = estimator.fit(X, y)
    assert clf.classes_.tolist() == ["a", "a\x00"]
    assert clf.predict(X).tolist() == y

    def refused(call, pattern):
        with pytest.raises(ValueError) as caught:
            call()
        message = str(caught.value)
        assert re.search(pattern, message) and "\n" not in message, message

    for table, got in ((X.iloc[0], "a pandas Series"), ({"a": [0.0], "b": [1.0]}, "a dict"),
                       (X["a"].tolist(), r"a 1-D array .*\. Reshape your data"),
                       (X.iloc[:2].to_dict("records"), r"a list of dicts \(one per row\)")):
        refused(lambda: clf.predict(table), r"^Expected a 2-D table .* got " + got)
        refused(lambda: estimator.fit(table, y[:1]), r"^Expected a 2-D table .* got " + got)
    clf = estimator.fit(X, y)
    for table in (X[["b", "a"]], X[["a"]], X.assign(c=1.0), X.rename(columns={"b": "z"})):
        refused(lambda: clf.predict(table), r"^X has columns \[.*\], .*fitted on \['a', 'b'\]")


def check_labels_and_column_names_in_either_unicode_form(estimator):
    """Labels that are the same text in two Unicode forms (``"é"`` as one character, NFC,
    or as ``"e"`` and an accent, NFD) print alike: they are one class, in NFC, with a
    warning naming them; a label in one form only stays as written. Column names alike so
    are refused in one line, and a table at predict may name a column in either form."""
    nfc, nfd = "caf\u00e9", "cafe\u0301"
    X = pd.DataFrame({"a": np.arange(32) % 2 * 1.0, "b": np.arange(32) % 4 * 1.0})
    y = np.where(X["a"] == 1, "tea", np.where(X["b"] == 0, nfc, nfd)).astype(object)
    with pytest.warns(UserWarning, match=r"^y: labels 'caf\\xe9' = 'cafe\\u0301' \(escaped"):
        clf = estimator.fit(X, y)
    assert clf.classes_.tolist() == [nfc, "tea"]
    assert clf.predict(X).tolist() == np.where(X["a"] == 1, "tea", nfc).tolist()
    # a numpy text array's labels are np.str_: named as text, not as np.str_('caf\xe9')
    with pytest.warns(UserWarning, match=r"^y: labels 'caf\\xe9' = 'cafe\\u0301' \(escaped"):
        assert estimator.fit(X, y.astype(str)).classes_.tolist() == [nfc, "tea"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        alone = estimator.fit(X, np.where(X["a"] == 1, "tea", nfd))
        assert alone.classes_.tolist() == [nfd, "tea"]
        named = estimator.fit(X.rename(columns={"a": nfd}), y == "tea")
        assert (named.predict(X.rename(columns={"a": nfc})) == (y == "tea")).all()
    # names fitted as numbers are no text to compare: other names are refused in one line
    # (IMLI raised AttributeError: 'int' object has no attribute 'isascii')
    numbered = estimator.fit(X.set_axis([0, 1], axis=1), y == "tea")
    with pytest.raises(ValueError, match=r"^X has columns \['a', 'b'\], .*fitted on"):
        numbered.predict(X)
    with pytest.raises(ValueError) as caught:
        estimator.fit(X.set_axis([nfc, nfd], axis=1), y == "tea")
    message = str(caught.value)
    assert message.startswith("column names 'caf\\xe9', 'cafe\\u0301' (escaped, as they "
                              "print alike) are the same text") and "\n" not in message


def check_object_labels_of_numbers_or_bools_are_classes(estimator):
    """A pandas Series of labels of dtype object holding only numbers, or only bools, is
    read as numpy's array of them (scikit-learn refused it as an "unknown" label type,
    "a regression target"); 1 beside 1.0 is one class; True beside 1 is refused in one
    line."""
    X = pd.DataFrame({"a": np.arange(24) % 2 * 1.0, "b": np.arange(24) % 3 * 1.0})
    flag = (X["a"] == 1).to_numpy()
    for labels, classes in ((flag.astype(int), [0, 1]), (flag, [False, True]),
                            (np.where(flag, 1, 0.0), [0.0, 1.0])):
        y = pd.Series(labels.tolist(), dtype=object)
        clf = estimator.fit(X, y)
        assert clf.classes_.tolist() == classes and clf.classes_.dtype != object
        assert clf.predict(X).tolist() == np.asarray(classes)[flag.astype(int)].tolist()
    mixed = pd.Series([1 if f else 0.0 for f in flag], dtype=object)
    assert estimator.fit(X, mixed).classes_.tolist() == [0.0, 1.0]
    with pytest.raises(ValueError) as caught:
        estimator.fit(X, pd.Series([True, 1, 0, False] * 6, dtype=object))
    assert str(caught.value) == "y mixes labels of types bool, int; give every label one type"


def check_a_category_column_ordered_or_not_is_read_by_its_values(estimator):
    """A pandas ``category`` column, ordered or not, with categories no row holds, is read
    as its values are as text: the same rules, and predictions, as an object column."""
    sizes = np.array(["S", "M", "L", "M", "S", "L"] * 5, dtype=object)
    X = pd.DataFrame({"size": sizes, "w": np.arange(30) % 4 * 1.0})
    y = np.where(sizes == "M", "mid", "edge")
    expected = str(estimator.fit(X, y).rules_)
    for ordered in (False, True):
        kind = pd.CategoricalDtype(["XS", "S", "M", "L", "XL"], ordered=ordered)
        clf = estimator.fit(X.astype({"size": kind}), y)
        assert str(clf.rules_) == expected and "XS" not in expected
        assert (clf.predict(X) == y).all() and (clf.predict(X.astype({"size": kind})) == y).all()
