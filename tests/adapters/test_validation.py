"""Bad input at the boundary: each case fails with a one-line InputError or is handled
and noted (issue 8's list)."""
import re

import numpy as np
import pandas as pd
import pytest

from adapters import InputError, from_frame
from adapters.columns import MAX_CATEGORIES


def _raises(df, target="t", match=None, **kwargs):
    with pytest.raises(InputError, match=match) as info:
        from_frame(df, target, **kwargs)
    assert "\n" not in str(info.value)
    return str(info.value)


def _frame(**columns):
    n = max(len(v) for v in columns.values())
    base = {"t": ([0, 1] * n)[:n]}
    base.update(columns)
    return pd.DataFrame(base)


@pytest.mark.parametrize("df", [pd.DataFrame(), pd.DataFrame({"t": [], "x": []}),
                                pd.DataFrame(index=range(3))])
def test_empty_table(df):
    _raises(df, match="empty")


def test_not_a_frame():
    with pytest.raises(InputError, match="DataFrame"):
        from_frame([[1, 2]], "t")


def test_target_missing_lists_the_columns():
    message = _raises(_frame(x=[1.0, 2.0, 3.0]), target="label", match="not found")
    assert "'t'" in message and "'x'" in message


def test_a_column_named_in_another_case_is_suggested():
    # the column list was cut short before the one meant
    df = pd.DataFrame({f"c{i}": [0.0, 1.0, 2.0, 3.0] for i in range(25)})
    df["Churn"] = ["Yes", "No"] * 2
    assert "target column 'churn' not found (did you mean 'Churn'?); columns are" in _raises(
        df, target="churn")
    assert "no such column (did you mean 'c3'?)" in _raises(df, target="Churn", drop=["C3"])


def test_target_not_given():
    _raises(_frame(x=[1.0, 2.0]), target=None, match="target")


def test_missing_target_values_dropped_and_counted():
    df = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0, 5.0], "t": ["a", None, "b", "", "a"]})
    ds = from_frame(df, "t")
    assert len(ds.X) == 3 and ds.X["x"].tolist() == [1.0, 3.0, 5.0]
    assert "dropped 2 rows with a missing value in target 't'" in ds.notes
    assert ds.X.index.tolist() == [0, 2, 4]   # rows keep their numbers in the input table
    # the words read as missing are named, as for a feature
    df["t"] = ["a", "?", "b", " NA ", "a"]
    assert "dropped 2 rows with a missing value in target 't' (written '?', 'NA')" in \
        from_frame(df, "t").notes
    # beside empty cells, the note counts both
    df["t"] = ["a", "NA", "b", None, "NA"]
    assert ("dropped 3 rows with a missing value in target 't' (1 empty, 2 written 'NA')"
            in from_frame(df, "t").notes)
    df["t"] = ["a", "b", None, "b", "a"]
    assert "dropped 1 row with a missing value in target 't'" in from_frame(df, "t").notes


@pytest.mark.parametrize("n_classes, said", [(10, False), (11, True)])
def test_a_target_of_many_numbers_is_noted_as_maybe_a_quantity(n_classes, said):
    df = pd.DataFrame({"x": np.arange(66.0) % 7, "t": np.arange(66) % n_classes})
    note = (f"target 't': its {n_classes} labels are all numbers, each read as a class of its "
            f"own, with no order; if it is a quantity, give a class column made from it as "
            f"the target")
    assert (note in from_frame(df, "t").notes) == said


def test_all_target_values_missing():
    _raises(pd.DataFrame({"x": [1.0, 2.0], "t": [None, None]}), match="no values")


def test_target_with_one_class():
    _raises(pd.DataFrame({"x": [1.0, 2.0, 3.0], "t": ["a", "a", "a"]}),
            match=r"single class \('a'\); a classifier")
    # a class written as empty cells was dropped: said, as a class of missing-value words is
    _raises(pd.DataFrame({"x": [1.0, 2.0, 3.0], "t": ["a", "a", None]}),
            match=r"single class \('a'\) after 1 row with an empty label was dropped as "
                  r"missing labels; a classifier")


def test_labels_read_as_missing_are_named_when_one_class_or_none_is_left():
    """'NA' (North America?) and '?' are missing-value words: a target that loses a class
    to them says so rather than only that one class is left."""
    _raises(pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0], "t": ["EU", "NA", "EU", "NA"]}),
            match=r"single class \('EU'\) after 2 rows labelled 'NA' were dropped as "
                  r"missing labels \(rename such a label to keep it as a class\)")
    _raises(pd.DataFrame({"x": [1.0, 2.0, 3.0], "t": ["?", "n/a", None]}),
            match=r"no values after 2 rows labelled '\?', 'n/a' were dropped")
    # a positive class named as one of them: the refusal says where its rows went
    _raises(pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0], "t": ["EU", "NA", "AS", "NA"]}),
            match=r"^positive class 'NA' is not a value of target 't'; its values are 'AS', "
                  r"'EU' after 2 rows labelled 'NA' were dropped as missing labels \(rename "
                  r"such a label to keep it as a class\)$", positive="NA")
    _raises(pd.DataFrame({"x": [1.0, 2.0, 3.0], "t": ["EU", "AS", "EU"]}),
            match=r"'AS', 'EU'$", positive="NA")
    _raises(pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0], "t": ["EU", "NA", "AS", "NA"]}),
            match=r"'AS', 'EU'$", positive="OC")  # another label: nothing of NA


def test_a_positive_class_naming_two_labels_as_one_number_says_so():
    # '7' reads as the number of '007' and of '7.0': it said "'7' is not a value of target"
    df = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0], "t": ["007", "7.0", "x", "007"]})
    _raises(df, match=r"^positive class '7' matches '007', '7.0' of target 't' as the same "
                      r"number; give one of them exactly$", positive="7")
    assert from_frame(df, "t", positive="007").class_names == ("not 007", "007")


def test_binary_mode_with_too_many_classes():
    df = pd.DataFrame({"x": [1.0, 2.0, 3.0], "t": ["a", "b", "c"]})
    _raises(df, match="3 classes", binary=True)
    assert from_frame(df, "t").class_names == ("a", "b", "c")


def test_regression_like_target():
    df = pd.DataFrame({"x": np.arange(80.0), "t": np.linspace(0, 1, 80)})
    _raises(df, match="80 distinct numbers, more than 50 classes: a quantity to predict.*"
                      "above its median, 0.5[)]")
    _raises(df.assign(t=[f"w{i}" for i in range(80)]), match="80 distinct values, more than "
                                                               "50 classes; choose a class")


def test_positive_not_a_value():
    message = _raises(_frame(x=[1.0, 2.0]), match="not a value", positive="yes")
    assert "'0', '1'" in message


def test_inf_is_missing_and_noted():
    ds = from_frame(_frame(x=[1.0, np.inf, -np.inf, 4.0], s=["1", "inf", "2", "3"]), "t")
    assert np.isnan(ds.X["x"][1]) and np.isnan(ds.X["x"][2])
    assert np.isnan(ds.X["s"][1])
    assert "column 'x': 2 infinite values treated as missing" in ds.notes
    assert "column 's': 1 infinite values treated as missing" in ds.notes


@pytest.mark.parametrize("values, reason", [
    ([np.nan] * 4, "no values (all missing)"),
    (["", None, "?", "NA"], "no values (all missing)"),
    ([3.0, 3.0, 3.0, 3.0], "a single value ('3')"),
    ([1e30] * 4, "a single value ('1e+30')"),  # not the 31 digits of the float's int
    (["k", "k", "k", "k"], "a single value ('k')"),
])
def test_constant_and_all_missing_columns_dropped(values, reason):
    ds = from_frame(_frame(x=[1.0, 2.0, 3.0, 4.0], bad=values), "t")
    assert list(ds.X.columns) == ["x"]
    assert f"dropped column 'bad': {reason}" in ds.notes


def test_columns_holding_the_same_values_are_kept_and_noted():
    ds = from_frame(_frame(x=[1.0, 2.0, np.nan, 4.0], copy=[1.0, 2.0, np.nan, 4.0],
                           c=["u", "v", "u", None], d=["u", "v", "u", None],
                           near=[1.0, 2.0, 3.0, 4.0]), "t")
    assert list(ds.X.columns) == ["x", "copy", "c", "d", "near"]
    same = [n for n in ds.notes if "same values" in n]
    assert same == [f"columns {pair} hold the same values on every row: LIME and the rules "
                    f"may name any of them (--drop on the command line, drop= in Python, "
                    f"leaves the others out)" for pair in ("'x', 'copy'", "'c', 'd'")]


@pytest.mark.parametrize("values", [[3.0, 3.0, np.nan, 3.0], ["k", None, "k", "?"]])
def test_a_single_value_with_missing_cells_is_kept(values):
    # whether the value is there can be all a model knows (XGBoost and both learners read
    # a missing value)
    ds = from_frame(_frame(x=[1.0, 2.0, 3.0, 4.0], bad=values), "t")
    assert list(ds.X.columns) == ["x", "bad"]
    assert not any("'bad'" in note and "dropped" in note for note in ds.notes)


def test_every_column_dropped_is_an_error():
    message = _raises(_frame(a=[1, 1, 1], b=[None, None, None]), match="no usable")
    assert "'a'" in message and "'b'" in message


def test_no_feature_columns():
    _raises(pd.DataFrame({"t": [0, 1]}), match="no feature columns")


def test_duplicate_column_names():
    df = pd.DataFrame([[1, 2, 3, 0], [4, 5, 6, 1]], columns=["a", "b", "a", "t"])
    message = _raises(df, match="duplicate column names")
    assert "'a'" in message and "'b'" not in message


def test_names_duplicated_after_str_conversion():
    df = pd.DataFrame([[1, 2, 0], [3, 4, 1]], columns=[1, "1", "t"])
    _raises(df, match="duplicate column names: '1'")


def test_mostly_numeric_column_is_coerced_with_note():
    values = [str(i) for i in range(19)] + ["unknown"]
    ds = from_frame(_frame(x=values), "t")
    assert ds.numeric == ("x",) and np.isnan(ds.X["x"][19])
    assert any("column 'x': 1 non-numeric values" in n and "'unknown'" in n
               for n in ds.notes)


def test_mixed_column_below_threshold_is_categorical():
    values = ["1", "2", "3", "4", "5", "6", "7", "8", "a", "b"]
    ds = from_frame(_frame(x=values), "t")
    assert ds.categorical == ("x",) and ds.X["x"].tolist() == values
    # most of its values are numbers: each is a category of its own, which is noted
    assert ("column 'x': 8 of 10 values are numbers but 2 are not (e.g. 'a', 'b'), too "
            "many to read them as missing: read as categories, each number its own; make "
            "those values empty to compare the column as numbers") in ds.notes
    assert not any("are numbers" in n for n in from_frame(_frame(x=list("abcabc1")), "t").notes)


def test_high_cardinality_categorical_dropped():
    n = MAX_CATEGORIES + 20
    df = _frame(code=[f"c{i % (MAX_CATEGORIES + 1)}" for i in range(n)],
                x=list(np.arange(n, dtype=float)))
    ds = from_frame(df, "t")
    assert "code" not in ds.X.columns
    assert any(n.startswith("dropped column 'code': 101 distinct values") and
               n.endswith("(an identifier or free text?)") for n in ds.notes)
    # numbers written with separators or %: the reason says so
    dressed = _frame(amount=[f"{1000 + 7 * i:,}.5" for i in range(n)],
                     x=list(np.arange(n, dtype=float)))
    assert (f"dropped column 'amount': {n} distinct values, more than {MAX_CATEGORIES} "
            f"categories (mostly numbers written as text, see above)"
            ) in from_frame(dressed, "t").notes


@pytest.mark.parametrize("values", [
    [f"{50 + i % 30} kg" for i in range(40)],
    [f"{150 + i % 30}cm" for i in range(40)],
    [f"{i % 30 / 10} µm" for i in range(40)],
])
def test_numbers_with_a_unit_are_noted(values):
    ds = from_frame(_frame(w=values, x=list(np.arange(40.0) % 7)), "t")
    assert ds.categorical == ("w",)  # read as written, as other dressed numbers are
    unit = re.sub(r"[\d. ]", "", values[0])
    assert (f"column 'w' holds numbers with a unit (e.g. {values[0]!r}), read as "
            f"categories, each value its own; write them without {unit!r} to compare them "
            "as numbers") in ds.notes


@pytest.mark.parametrize("values", [
    ["1st", "2nd", "3rd", "4th"] * 10,  # a suffix, but not one unit
    ["a1", "b2", "c3", "d4"] * 10,
    [f"{i % 30} kg" for i in range(30)] + ["heavy"] * 10,  # too few carry the unit
])
def test_words_beside_numbers_are_not_a_unit(values):
    notes = from_frame(_frame(w=values, x=list(np.arange(40.0) % 7)), "t").notes
    assert not any("with a unit" in n for n in notes)


def test_a_column_of_distinct_numbers_with_a_unit_is_not_called_an_identifier():
    n = 40
    ds = from_frame(_frame(w=[f"{50 + i} kg" for i in range(n)], x=list(np.arange(n) % 7.0)),
                    "t")
    assert "w" not in ds.X.columns
    assert (f"dropped column 'w': a different value in every row ({n} values: mostly "
            "numbers written as text, see above)") in ds.notes


def test_identifier_column_dropped():
    df = _frame(name=[f"person {i}" for i in range(30)], x=list(np.arange(30.0) % 7))
    ds = from_frame(df, "t")
    assert list(ds.X.columns) == ["x"]
    assert any("'name': a different value in every row" in n for n in ds.notes)


@pytest.mark.parametrize("ids, noted", [
    (list(range(100_000, 100_030)), "increasing"),         # a record number
    (list(range(500, 470, -1)), "decreasing"),
    ([100 + 3 * i for i in range(30)], "increasing"),      # not consecutive: still an ID
    ([float(i % 7) for i in range(30)], None),             # repeats: a measurement
    ([i + 0.5 for i in range(30)], None),                  # not whole numbers
    ([i if i != 12 else 40 for i in range(30)], None),     # out of order once
    (list(range(10)), None),                               # too few rows to say
])
def test_whole_numbers_in_file_order_are_kept_but_noted_as_an_id(ids, noted):
    n = len(ids)
    ds = from_frame(pd.DataFrame({"record": ids, "x": np.arange(n) % 3.0,
                                  "t": ["a", "b"] * (n // 2)}), "t")
    assert "record" in ds.X.columns
    found = [note for note in ds.notes if "as a row ID does" in note]
    if noted is None:
        assert not found
    else:
        assert found == [f"column 'record' holds a different whole number on every row, "
                         f"in {noted} order, as a row ID does; it is used as a feature, so "
                         f"drop it if it is an ID (--drop on the command line, drop= in "
                         f"Python): a rule on it picks rows by their place in the file"]
        # as the note says: dropped as asked, and noted so
        dropped = from_frame(pd.DataFrame({"record": ids, "x": np.arange(n) % 3.0,
                                           "t": ["a", "b"] * (n // 2)}), "t", drop="record")
        assert list(dropped.X.columns) == ["x"]
        assert "dropped column 'record', as asked" in dropped.notes
        assert not any("as a row ID does" in note for note in dropped.notes)


@pytest.mark.parametrize("drop, words", [
    (["nope"], "cannot drop column 'nope': the table has no such column; columns are"),
    (["t"], "cannot drop column 't': it is the target"),
    (["x"], "the table has no feature columns besides target 't' once 'x' is dropped"),
])
def test_a_column_that_cannot_be_dropped_is_refused_in_one_line(drop, words):
    assert words in _raises(_frame(x=[1.0, 2.0, 3.0, 4.0]), drop=drop)


def test_keep_keeps_columns_the_reading_would_drop():
    # a model that reads them cannot be explained without them
    n = 240
    frame = pd.DataFrame({"k": 7.0, "e": np.nan, "store": [f"s{i}" for i in range(n)],
                          "x": np.arange(n) % 5.0, "t": ["a", "b"] * (n // 2)})
    assert list(from_frame(frame, "t").X.columns) == ["x"]
    ds = from_frame(frame, "t", keep=["k", "e", "store"])
    assert list(ds.X.columns) == ["k", "e", "store", "x"] and ds.categorical == ("store",)
    assert ds.X["k"].eq(7.0).all() and ds.X["e"].isna().all()
    assert ds.notes[1:] == (
        "kept column 'k', as asked: a single value ('7')",
        "kept column 'e', as asked: no values (all missing)",
        "kept column 'store', as asked: 240 distinct values, more than 100 categories (an "
        "identifier or free text?)")


@pytest.mark.parametrize("keep, drop, words", [
    (["nope"], [], "cannot keep column 'nope': the table has no such column; columns are"),
    (["t"], [], "cannot keep column 't': it is the target"),
    (["x"], ["x"], "cannot both drop and keep column 'x'"),
])
def test_a_column_that_cannot_be_kept_is_refused_in_one_line(keep, drop, words):
    assert words in _raises(_frame(x=[1.0, 2.0, 3.0, 4.0]), keep=keep, drop=drop)


def test_small_distinct_categorical_kept():
    ds = from_frame(_frame(c=["a", "b", "c", "d"], x=[1.0, 2.0, 1.0, 2.0]), "t")
    assert ds.categorical == ("c",)


def test_saved_row_index_dropped_but_named_counter_kept():
    df = _frame(**{"Unnamed: 0": list(range(6)), "year": list(range(2000, 2006)),
                   "x": [1.0, 2.0, 1.0, 3.0, 2.0, 1.0]})
    ds = from_frame(df, "t")
    assert list(ds.X.columns) == ["year", "x"]
    assert any("'Unnamed: 0': a saved row index" in n for n in ds.notes)


def test_hostile_names_and_values_survive_as_strings():
    weird = ["a'b", "x), halt(", "Foo", "_x", "naïve", "%", "a\nb", "\\", "'", "z" * 10_000]
    df = pd.DataFrame({name: [v, "other"] * 3 for name, v in zip(weird, weird[::-1])})
    df["t"] = [0, 1, 0, 1, 0, 1]
    ds = from_frame(df, "t")
    assert list(ds.X.columns) == weird
    assert ds.X["a'b"][0] == "z" * 10_000


def test_a_column_holding_the_target_in_another_form_is_noted():
    rng = np.random.default_rng(0)
    x = rng.normal(size=300)
    species = np.where(x > 0.5, "c", np.where(x > -0.5, "b", "a"))
    df = pd.DataFrame({"x": x, "code": pd.Series(species).map({"a": 10, "b": 20, "c": 30}),
                       "near": np.where(species == "a", 0.0, 1.0), "t": species})
    said = [n for n in from_frame(df, "t").notes if "tells the classes apart" in n]
    assert said == ["column 'code' tells the classes apart on every row, each of its 3 "
                    "values on rows of one class (e.g. '20' always with 'b'): if it is the "
                    "target in another form, or known only with it, drop it (--drop on the "
                    "command line, drop= in Python)"]
    # one class against the rest: the three codes still tell the two apart
    assert any("'code' tells the classes apart" in n
               for n in from_frame(df, "t", positive="c").notes)
    # sorted by class, as many tables are: found all the same
    ordered = df.sort_values("t", ignore_index=True)
    assert any("'code' tells" in n for n in from_frame(ordered, "t").notes)
    # a value on rows of two classes, or a missing value: not a copy
    df.loc[0, "code"] = 30 if species[0] != "c" else 10
    assert not any("tells the classes apart" in n for n in from_frame(df, "t").notes)
    df.loc[0, "code"] = np.nan
    assert not any("tells the classes apart" in n for n in from_frame(df, "t").notes)


def test_a_dropped_column_of_codes_and_some_numbers_names_no_note_above():
    # Titanic's Ticket: most distinct values are plain numbers, most rows hold codes; no
    # note above speaks of the column, so its reason may not point to one
    n = 400
    tickets = [("A/5 21171", "PC 17599", "STON/O2. 3101282")[i % 3] if i % 4 else
               str(100000 + i) for i in range(n)]
    ds = from_frame(_frame(ticket=tickets, x=list(np.arange(n) % 7.0)), "t")
    reason = next(n for n in ds.notes if n.startswith("dropped column 'ticket'"))
    above = any(n.startswith("column 'ticket'") for n in ds.notes)
    assert above or "see above" not in reason, reason


@pytest.mark.parametrize("number, text", [
    (2.0**53, "9007199254740992"), (2.0**53 + 2, "9007199254740994"),
    (9999999999999998.0, "9999999999999998"), (-(2.0**53 + 2), "-9007199254740994"),
    (1e16, "1e+16"), (2.5, "2.5"),
])
def test_a_whole_float_label_is_its_integer_up_to_where_repr_takes_exponent_form(number,
                                                                                  text):
    # between 2**53 and 1e16 a label printed as '9007199254740994.0' where smaller ones
    # print without '.0'
    labels = [number, 0.0] * 10 + [np.nan]
    ds = from_frame(pd.DataFrame({"x": range(21), "t": labels}), "t")
    assert text in ds.class_names


@pytest.mark.parametrize("labels, words, numbers, n", [
    ([True, False, 1, 0, 1.0, True], "'False', 'True'", "'0', '1', '1.0'", 5),
    (["true", "0", "true", "0"], "'true'", "'0'", 2),
    (["cat", "True", "1", "dog"], "'True'", "'1'", 4),  # more classes than truth values
])
def test_truth_values_written_as_words_and_as_numbers_are_refused(labels, words, numbers,
                                                                  n):
    # True and 1 were different classes (4 or 5 of them) without a word
    frame = pd.DataFrame({"x": range(len(labels)), "t": pd.Series(labels, dtype=object)})
    with pytest.raises(InputError, match=re.escape(
            f"target column 't' writes truth values both as words ({words}) and as numbers "
            f"({numbers}), which would be {n} different classes; write each truth value one "
            f"way (True or 1, False or 0)")):
        from_frame(frame, "t")
    assert from_frame(frame.assign(t=["1", "0"] * (len(labels) // 2)), "t").class_names \
        == ("0", "1")
