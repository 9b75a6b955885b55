"""Datasets: bundled tables, DataFrames, column typing and the positive class."""
import numpy as np
import pandas as pd
import pytest
from sklearn import datasets as sk

from adapters import BUNDLED, Dataset, InputError, from_frame, load_dataset


def test_bundled_names():
    assert BUNDLED == ("breast_cancer", "wine", "iris")


def test_breast_cancer_is_wdbc_with_malignant_positive():
    ds = load_dataset("breast_cancer")
    raw = sk.load_breast_cancer()
    assert ds.name == "breast_cancer"
    assert ds.X.shape == (569, 30)
    assert list(ds.X.columns) == list(raw.feature_names)
    assert ds.class_names == ("benign", "malignant")
    np.testing.assert_array_equal(ds.y, (raw.target == 0).astype(int))  # 0 = malignant there
    np.testing.assert_array_equal(ds.X.to_numpy(), raw.data)
    assert ds.categorical == () and ds.numeric == tuple(raw.feature_names)
    assert (ds.X.dtypes == "float64").all()
    assert any("malignant" in note for note in ds.notes)


@pytest.mark.parametrize("name", ["wine", "iris"])
def test_multiclass_bundled_stays_multiclass(name):
    ds = load_dataset(name)
    raw = getattr(sk, f"load_{name}")()
    np.testing.assert_array_equal(ds.y, raw.target)
    assert ds.class_names == tuple(raw.target_names)
    assert ds.y.dtype.kind == "i"


@pytest.mark.parametrize("positive", ["virginica", 2, "2", "VIRGINICA"])
def test_one_vs_rest_by_name_or_index(positive):
    ds = load_dataset("iris", positive=positive)
    assert ds.class_names == ("not virginica", "virginica")
    np.testing.assert_array_equal(ds.y, (sk.load_iris().target == 2).astype(int))
    assert any("one-vs-rest" in note for note in ds.notes)


def test_bundled_index_out_of_range():
    with pytest.raises(InputError, match="out of range"):
        load_dataset("wine", positive=3)


def test_bundled_positive_not_a_class():
    with pytest.raises(InputError, match="not a value"):
        load_dataset("wine", positive="merlot")


def test_binary_mode_refuses_multiclass_without_positive():
    with pytest.raises(InputError, match="3 classes.*positive"):
        load_dataset("wine", binary=True)
    assert load_dataset("wine", positive="class_1", binary=True).y.max() == 1


def _mixed():
    return pd.DataFrame({
        "age": [25, 31, np.nan, 47, 52, 38, 29, 61],
        "city": ["Paris", "Lyon", None, "Paris", " Nice ", "Lyon", "Paris", "Nice"],
        "score": ["1.5", "2", "3.25", "", "4", "5", "6", "7"],
        "member": [True, False, True, True, False, False, True, False],
        "label": ["yes", "no", "no", "yes", "no", "no", "no", "yes"],
    })


def test_from_frame_types_and_values():
    ds = from_frame(_mixed(), "label", name="mixed")
    assert isinstance(ds, Dataset)
    assert ds.name == "mixed" and ds.target == "label"
    assert list(ds.X.columns) == ["age", "city", "score", "member"]
    assert ds.categorical == ("city", "member")
    assert ds.numeric == ("age", "score")
    assert ds.X["age"].dtype == "float64" and ds.X["score"].dtype == "float64"
    assert ds.X["city"].dtype == object and ds.X["member"].dtype == object
    assert ds.X["city"].tolist()[:5] == ["Paris", "Lyon", ds.X["city"][2], "Paris", "Nice"]
    assert pd.isna(ds.X["city"][2]) and pd.isna(ds.X["score"][3])
    assert all(type(v) is str for v in ds.X["city"].dropna())
    assert ds.X["member"].tolist()[:2] == ["True", "False"]
    assert ds.X["score"].tolist()[:3] == [1.5, 2.0, 3.25]


def test_input_frame_is_not_modified():
    df = _mixed()
    before = df.copy()
    from_frame(df, "label")
    pd.testing.assert_frame_equal(df, before)


def test_default_positive_of_a_yes_no_target_is_yes_and_noted():
    ds = from_frame(_mixed(), "label")
    assert ds.class_names == ("no", "yes")
    assert ds.y.tolist() == [1, 0, 0, 1, 0, 0, 0, 1]
    assert any("'yes'" in note and "yes side" in note for note in ds.notes)


@pytest.mark.parametrize("labels, positive", [
    ([0, 1, 1, 1], "1"), ([-1, 1, 1, 1], "1"), ([True, False, True, True], "True"),
    (["No", "Yes", "Yes", "Yes"], "Yes"), (["n", "y", "y", "y"], "y"),
    (["positive", "negative", "positive", "positive"], "positive"),
])
def test_the_yes_of_a_yes_no_target_is_positive_even_when_most_rows_have_it(labels, positive):
    """A 0/1 target whose 1 is the majority keeps 1 as class 1 (the minority rule made "0"
    the positive class and the rules read backwards: "0 IF ... ELSE 1")."""
    ds = from_frame(pd.DataFrame({"x": np.arange(4.0), "t": labels}), "t")
    assert ds.class_names[1] == positive
    assert ds.y.tolist() == [int(str(v) == positive) for v in labels]


def test_default_positive_of_other_labels_is_the_minority():
    df = pd.DataFrame({"x": np.arange(5.0), "t": ["cat", "dog", "dog", "dog", "cat"]})
    ds = from_frame(df, "t")
    assert ds.class_names == ("dog", "cat")
    assert any("'cat'" in n and "the minority class" in n for n in ds.notes)
    two_numbers = pd.DataFrame({"x": np.arange(3.0), "t": [1, 2, 2]})
    assert from_frame(two_numbers, "t").class_names == ("2", "1")


def test_positive_tie_takes_later_label_and_says_it_is_a_tie():
    df = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0], "t": ["a", "b", "a", "b"]})
    ds = from_frame(df, "t")
    assert ds.class_names == ("a", "b")
    assert any("as many rows as 'a'" in n for n in ds.notes)
    assert not any("minority" in n for n in ds.notes)


def test_positive_matched_as_string():
    df = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0], "t": [0, 1, 1, 1]})
    for positive in (1, "1", 1.0, " 1 ", "1.0", "1e0"):
        ds = from_frame(df, "t", positive=positive)
        assert ds.class_names == ("0", "1") and ds.y.tolist() == [0, 1, 1, 1]
    assert from_frame(df, "t", positive=0).y.tolist() == [1, 0, 0, 0]
    as_text = pd.DataFrame({"x": [1.0, 2.0, 3.0], "t": ["0.0", "1.0", "2.5"]})
    assert from_frame(as_text, "t", positive="1").class_names == ("not 1.0", "1.0")
    with pytest.raises(InputError, match="not a value"):
        from_frame(df, "t", positive="2.0")


def test_one_number_spelled_two_ways_is_one_class():
    df = pd.DataFrame({"x": np.arange(6.0), "t": ["1", "1.0", "0", "0.0", "1", "0"]})
    ds = from_frame(df, "t")
    assert set(ds.class_names) == {"0", "1"} and ds.y.tolist() == [1, 1, 0, 0, 1, 0]
    assert any("'1' = '1.0'" in n and "one class" in n for n in ds.notes)
    assert from_frame(df, "t", positive="1").y.tolist() == [1, 1, 0, 0, 1, 0]
    distinct = pd.DataFrame({"x": np.arange(4.0), "t": ["01", "02", "01", "02"]})
    assert from_frame(distinct, "t").class_names == ("01", "02")   # spelled once: kept


def test_positive_matching_several_labels_by_case_is_refused():
    df = pd.DataFrame({"x": np.arange(6.0), "t": ["Yes", "yes", "no", "no", "Yes", "no"]})
    with pytest.raises(InputError, match="matches 'Yes', 'yes'.*give one of them exactly"):
        from_frame(df, "t", positive="YES")


def test_labels_differing_only_in_case_are_noted():
    df = pd.DataFrame({"x": np.arange(8.0), "t": ["yes", "Yes", "no", "no", "yes", "No",
                                                  "no", "yes"]})
    ds = from_frame(df, "t", positive="yes")
    assert ("target 't': labels 'No', 'no' differ only in case and are different classes "
            "(1, 3 rows); write them alike to make them one") in ds.notes
    assert any("labels 'Yes', 'yes'" in n for n in ds.notes)
    assert not any("only in case" in n for n in from_frame(df.assign(t=df.t.str.lower()),
                                                            "t").notes)


def test_float_target_with_missing_prints_as_integers():
    df = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0, 5.0], "t": [0, 1, None, 1, 0]})
    ds = from_frame(df, "t", positive="1")
    assert ds.class_names == ("0", "1") and ds.y.tolist() == [0, 1, 1, 0]


def test_multiclass_frame_numeric_order():
    df = pd.DataFrame({"x": np.arange(6.0), "t": [10, 2, 2, 10, 3, 3]})
    ds = from_frame(df, "t")
    assert ds.class_names == ("2", "3", "10")
    assert ds.y.tolist() == [2, 0, 0, 2, 1, 1]
    assert ds.source_labels == (("2", 0), ("3", 1), ("10", 2))


@pytest.mark.parametrize("positive, names, source", [
    (None, ("b", "a"), (("a", 1), ("b", 0))),  # the minority is class 1
    ("b", ("a", "b"), (("a", 0), ("b", 1))),
])
def test_source_labels_map_a_models_classes_to_y(positive, names, source):
    df = pd.DataFrame({"x": np.arange(5.0), "t": ["b", "a", "b", "b", "a"]})
    ds = from_frame(df, "t", positive=positive)
    assert ds.class_names == names and ds.source_labels == source


def test_bundled_source_labels_follow_scikit_learns_numbering():
    ds = load_dataset("breast_cancer")  # target 0 is malignant, the positive class
    assert ds.source_labels == (("malignant", 1), ("benign", 0))
    assert load_dataset("wine", positive="class_2").source_labels == (
        ("class_0", 0), ("class_1", 0), ("class_2", 1))


def test_non_string_column_names_become_strings():
    df = pd.DataFrame({0: [1.0, 2.0, 3.0], 1: ["a", "b", "a"], "t": [0, 1, 0]})
    ds = from_frame(df, "t")
    assert list(ds.X.columns) == ["0", "1"]


def test_category_dtype_stays_categorical_even_if_numeric_looking():
    df = pd.DataFrame({"grade": pd.Categorical([1, 2, 3, 1]), "t": [0, 1, 1, 0]})
    ds = from_frame(df, "t")
    assert ds.categorical == ("grade",)
    assert ds.X["grade"].tolist() == ["1", "2", "3", "1"]


def test_nullable_and_string_dtypes():
    df = pd.DataFrame({
        "n": pd.array([1, None, 3, 4], dtype="Int64"),
        "s": pd.array(["a", None, "b", "a"], dtype="string"),
        "t": [0, 1, 1, 0],
    })
    ds = from_frame(df, "t")
    assert ds.X["n"].dtype == "float64" and np.isnan(ds.X["n"][1])
    assert ds.X["s"].dtype == object and pd.isna(ds.X["s"][1])
    assert ds.X["s"][0] == "a" and type(ds.X["s"][0]) is str


def test_dataset_checks_its_parts():
    X = pd.DataFrame({"a": [1.0, 2.0]})
    with pytest.raises(ValueError):
        Dataset("d", X, np.array([0]), "t", ("a", "b"), ())
    with pytest.raises(ValueError):
        Dataset("d", X, np.array([0, 2]), "t", ("a", "b"), ())
    with pytest.raises(ValueError):
        Dataset("d", X, np.array([0, 1]), "t", ("a", "b"), ("nope",))
    ds = Dataset("d", X, np.array([0, 1]), "t", ["a", "b"], [])
    assert ds.class_names == ("a", "b") and ds.n_classes == 2
    with pytest.raises(AttributeError):
        ds.name = "other"


def test_dates_read_as_categories_are_noted():
    n = 60
    df = pd.DataFrame({"iso": [f"2021-01-{i % 28 + 1:02d}" for i in range(n)],
                       "stamp": pd.to_datetime([f"2021-02-{i % 20 + 1:02d}" for i in range(n)]),
                       "eu": ["27/01/2021 10:30", "28/01/2021 11:00"] * (n // 2),
                       "month": ["May", "June"] * (n // 2), "y": [0, 1] * (n // 2)})
    ds = from_frame(df, "y")
    dated = [n for n in ds.notes if "holds dates" in n]
    assert [n.split("'")[1] for n in dated] == ["iso", "stamp", "eu"]
    assert "iso" in ds.categorical and "month" in ds.categorical


def test_labels_that_one_float_holds_stay_apart():
    big = np.array([2**62, 2**62 + 1, 5] * 2, dtype=np.int64)  # one float64: 2**62
    ds = from_frame(pd.DataFrame({"x": np.arange(6.0), "t": big}), "t", positive=str(2**62 + 1))
    assert ds.class_names == ("not 4611686018427387905", "4611686018427387905")
    assert ds.y.tolist() == [0, 1, 0, 0, 1, 0]
    text = ["4611686018427387905", "4611686018427387904", "1e-400", "0", "0.50", "0.5"]
    ds = from_frame(pd.DataFrame({"x": np.arange(6.0), "t": text}), "t")
    assert ds.class_names == ("0", "1e-400", "0.5", "4611686018427387904",
                              "4611686018427387905")  # numeric order, exactly
    assert "labels written differently for the same number are one class ('0.50' = '0.5')" \
        in ds.notes[0]


def test_a_csv_value_with_spaces_before_it_outside_quotes_is_noted_when_merged(tmp_path):
    # the reader drops spaces after a delimiter ('a, b' files): ' a' and 'a' become one
    rows = ["c,g,n,y"] + [" a,u, 1,no", "a, v,1,yes", "b,u,x, yes", "b, v, NA,no",
                          "b,u,NA,no"] * 3
    path = tmp_path / "lead.csv"
    path.write_text("\n".join(rows) + "\n")
    ds = load_dataset(path, "y")
    assert ("column 'c': values that differ only in the spaces around them are one category "
            "(' a', 'a')") in ds.notes
    assert ("target 'y': labels that differ only in the spaces around them are one class "
            "(' yes', 'yes')") in ds.notes
    assert sorted(set(ds.X["c"])) == ["a", "b"] and ds.class_names == ("no", "yes")
    # a value written one way only (' v', 'u'), numbers and missing words among text, and
    # spaces before every value or in quotes (which the columns' own check notes) say
    # nothing more
    assert len([n for n in ds.notes if "differ only" in n]) == 2
    path.write_text("c, g, y\n" + "".join(f"{v}, x, {t}\n" for v, t in
                                          [("a", "no"), ("b", "yes")] * 4))
    assert not any("differ only" in n for n in load_dataset(path, "y").notes)
    path.write_text('c,y\n' + '" a",no\na,yes\n a,no\nb,yes\n' * 3)
    quoted_spaces = [n for n in load_dataset(path, "y").notes if "differ only" in n]
    assert quoted_spaces == ["column 'c': values that differ only in the spaces around "
                             "them are one category (' a', 'a')"]
    # when the merge leaves one class, the refusal says why
    path.write_text("x,y\n" + "1, yes\n2,yes\n" * 4)
    with pytest.raises(InputError, match=r"^target column 'y' has a single class \('yes'\); "
                                         r"a classifier needs at least two \(target 'y': "
                                         r"labels that differ only in the spaces around them "
                                         r"are one class \(' yes', 'yes'\)\)$"):
        load_dataset(path, "y")


def test_values_that_differ_only_in_spaces_are_one_and_say_so():
    df = pd.DataFrame({"x": np.arange(8.0), "v": ["a", "a ", " a", "b"] * 2,
                       "t": [" yes", "yes", "no", "no"] * 2})
    ds = from_frame(df, "t")
    assert ds.class_names == ("no", "yes") and sorted(set(ds.X["v"])) == ["a", "b"]
    assert ("column 'v': values that differ only in the spaces around them are one category "
            "('a', 'a ', ' a')") in ds.notes
    assert ("target 't': labels that differ only in the spaces around them are one class "
            "(' yes', 'yes')") in ds.notes
    with pytest.raises(InputError, match=r"single class \('yes'\) \(labels that differ only "
                                         r"in the spaces around them are one: ' yes', 'yes'\)"):
        from_frame(df.assign(t=[" yes", "yes"] * 4), "t")
    assert not any("spaces" in n for n in from_frame(df.assign(v="a", t="no").assign(
        t=["yes", "no"] * 4), "t").notes)


def test_the_rest_is_not_named_like_a_class():
    df = pd.DataFrame({"x": np.arange(6.0), "t": ["a", "b", "not a"] * 2})
    ds = from_frame(df, "t", positive="a")
    assert ds.class_names == ("not a (rest)", "a") and ds.y.tolist() == [1, 0, 0] * 2


def test_a_file_named_like_a_bundled_dataset_is_not_taken_for_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "wine").write_text("x,label\n1,a\n2,b\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"^'wine' names both a bundled dataset and a file "
                                         r"here; give ./wine for the file"):
        load_dataset("wine")
    assert load_dataset("./wine", target="label").X.shape == (2, 1)
    assert load_dataset("iris").X.shape == (150, 4)  # no file of that name here


def test_integer_categories_with_a_missing_value_keep_their_integers():
    # pandas' to_numpy(object, na_value=nan) makes them floats: '1.0', and 2**60 + 1 = 2**60
    codes = pd.Series([1, 2**60, 2**60 + 1, None] * 3, dtype=object).astype("category")
    ds = from_frame(pd.DataFrame({"c": codes, "t": [0, 1, 1] * 4}), "t")
    assert sorted(ds.X["c"].dropna().unique()) == ["1", "1152921504606846976",
                                                   "1152921504606846977"]


def test_category_values_that_differ_only_in_spaces_are_noted():
    df = pd.DataFrame({"c": pd.Series(["a", "a ", "b"] * 4, dtype="category"),
                       "t": [0, 1] * 6})
    ds = from_frame(df, "t")
    assert sorted(ds.X["c"].unique()) == ["a", "b"]
    assert ("column 'c': values that differ only in the spaces around them are one "
            "category ('a', 'a ')") in ds.notes


@pytest.mark.parametrize("cell, kind", [([1, 2], "list"), ({"a": 1}, "dict"), ({1}, "set"),
                                        ((1, 2), "tuple"), (np.array([1, 2]), "ndarray")])
@pytest.mark.parametrize("column", ["c", "t"])
def test_a_cell_holding_several_values_is_refused_in_one_line(cell, kind, column):
    cells = pd.Series([None] * 6, dtype=object)
    for i in range(0, 6, 2):
        cells[i] = cell
    df = pd.DataFrame({"x": np.arange(6.0), "c": ["u", "v"] * 3, "t": [0, 1] * 3})
    df[column] = cells if kind != "tuple" else cells.astype("category")  # tuples hash
    with pytest.raises(InputError, match=rf"^column '{column}' has a cell holding several "
                                         rf"values \(.*, a {kind}\); give each cell a single "
                                         r"number or word$"):
        from_frame(df, "t")


@pytest.mark.parametrize("dtype", [np.float32, np.float16, "Float32"])
def test_a_narrow_float_target_is_labelled_by_its_own_shortest_decimal(dtype):
    df = pd.DataFrame({"x": np.arange(6.0), "t": pd.Series([0.1, 0.2] * 3, dtype=dtype)})
    assert from_frame(df, "t").class_names == ("0.1", "0.2")
    for given in (0.1, "0.1", np.float32(0.1)):
        assert from_frame(df, "t", positive=given).class_names == ("0.2", "0.1")


def test_a_complex_target_keeps_its_imaginary_part():
    df = pd.DataFrame({"x": np.arange(6.0), "t": [1 + 2j, 1 + 3j, 1 + 3j] * 2})
    assert from_frame(df, "t").class_names == ("(1+3j)", "(1+2j)")


@pytest.mark.parametrize("column, said", [
    ("c", "column 'c': '1', '1.0' are one number written differently, read as different "
          "categories; write them alike to make them one"),
    ("t", "target 't': '1', '1.0' are one number written differently, read as different "
          "classes; write them alike to make them one"),
])
def test_one_number_written_two_ways_beside_words_is_noted(column, said):
    df = pd.DataFrame({"x": np.arange(8.0), "c": ["u", "v"] * 4, "t": [0, 1] * 4})
    df[column] = pd.Series([1, 1.0, "x", "y"] * 2, dtype=object)
    ds = from_frame(df, "t")
    assert said in ds.notes
    assert sorted(pd.unique(ds.X["c"] if column == "c" else np.asarray(ds.class_names))) \
        == ["1", "1.0", "x", "y"]


@pytest.mark.parametrize("values", [["01", "1", "x", "y"], ["1", "2", "x", "y"],
                                    ["sNaN", "Infinity", "x", "y"]])
def test_codes_and_distinct_numbers_are_not_called_one_number(values):
    df = pd.DataFrame({"c": values * 2, "t": values * 2})
    assert not any("one number" in n for n in from_frame(df, "t").notes)


def _by_hand(**change):
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "c": ["u", "v", None, "v"]})
    parts = dict(name="d", X=X, y=np.array([0, 1, 0, 1]), target="t", class_names=("n", "y"),
                 categorical=("c",))
    parts.update(change)
    return Dataset(**parts)


@pytest.mark.parametrize("change, words", [
    (lambda X: X.set_axis([0, "c"], axis=1), r"^Dataset.X's columns must have distinct str "
                                              r"names"),
    (lambda X: X.set_axis(list("wxyz")), r"^Dataset.X's index must be distinct integers"),
    (lambda X: X.set_axis([0, 0, 1, 2]), r"^Dataset.X's index must be distinct integers"),
    (lambda X: X.assign(a=X.a.astype(object)), r"^Dataset.X's columns \['a'\] are not in "
                                                r"Dataset.categorical but do not hold numbers"),
])
def test_a_dataset_built_by_hand_is_checked_where_runs_failed_later(change, words):
    # each ran through LIME, then failed deep inside (a KeyError, fold's ids, a literal)
    X = _by_hand().X
    categorical = ("c",) if "c" in change(X).columns else ()
    with pytest.raises(ValueError, match=words):
        _by_hand(X=change(X), categorical=categorical)


def test_a_dataset_of_two_classes_of_one_name_is_refused():
    with pytest.raises(ValueError, match=r"^Dataset.class_names must be distinct, got "
                                         r"\('a', 'a'\)"):
        _by_hand(class_names=("a", "a"))


def test_a_dataset_built_by_hand_keeps_its_parts_in_the_documented_types():
    X = _by_hand().X.assign(c=pd.Series(["u", "v", pd.NA, "v"], dtype="string"))
    ds = _by_hand(X=X, y=[0, 1, 0, 1], class_names=(np.int64(0), 1))
    assert isinstance(ds.y, np.ndarray) and ds.class_names == ("0", "1")
    assert ds.X["c"].dtype == object and np.isnan(ds.X["c"][2])  # pd.NA read as NaN


def test_cells_of_spaces_alone_read_as_missing_are_counted():
    # an empty cell goes without saying; " " (Telco's TotalCharges) was silent too
    df = pd.DataFrame({"b": ["", " ", "  ", "4", "5", "6"], "a": np.arange(6.0),
                       "t": [0, 1] * 3})
    ds = from_frame(df, "t")
    assert ds.X["b"].isna().sum() == 3
    assert "column 'b': 2 values ' ', '  ' read as missing" in ds.notes



@pytest.mark.parametrize("source, words", [
    (None, r"^load_dataset takes a bundled dataset's name .* or a CSV file's path, got None"),
    (pd.DataFrame({"a": [1.0], "target": [0]}),
     r"^load_dataset takes .* got a DataFrame: read a DataFrame with from_frame\(df, target\)"),
    (3, r"^load_dataset takes .* got 3"),
])
def test_load_dataset_of_something_not_a_name_or_path_says_what_it_takes(source, words):
    # each gave pathlib's TypeError "expected str, bytes or os.PathLike object"
    with pytest.raises(InputError, match=words):
        load_dataset(source, target="target")


@pytest.mark.parametrize("values", [
    ["Jan 29, 2021", "Feb 3, 2021"],
    ["January 29, 2021", "February 3, 2021"],
    ["29 Jan 2021", "3 Feb 2021"],
    ["29-Jan-2021", "03-Feb-2021"],
    ["Fri, 29 Jan 2021 10:30:00", "Wed, 03 Feb 2021 08:00:00"],
    ["01/29/2021 03:00 PM", "02/03/2021 11:15 AM"],
    ["2021-01", "2021-02"],
    ["10:30", "23:05:59"],
])
def test_dates_and_times_in_other_forms_are_noted(values):
    # read as categories like ISO dates, so they get the same note
    n = 60
    df = pd.DataFrame({"when": values * (n // 2), "y": [0, 1, 1] * (n // 3)})
    ds = from_frame(df, "y")
    assert "when" in ds.categorical
    assert any(n.startswith("column 'when' holds dates or times") for n in ds.notes)


def test_a_dropped_column_of_dates_says_so():
    n = 300
    days = pd.Timestamp("2021-01-01") + pd.to_timedelta(np.arange(n), unit="D")
    df = pd.DataFrame({"iso": days.strftime("%Y-%m-%d"), "mon": days.strftime("%b %d, %Y"),
                       "x": np.arange(n) % 7.0, "y": [0, 1, 1] * (n // 3)})
    ds = from_frame(df, "y")
    for name in ("iso", "mon"):
        assert any(n.startswith(f"column '{name}' holds dates") for n in ds.notes)
        reason = next(n for n in ds.notes if n.startswith(f"dropped column '{name}'"))
        assert reason.endswith("(dates or times, see above)"), reason


def test_dates_written_as_eight_digit_numbers_are_noted():
    n = 60
    days = pd.Timestamp("2021-01-01") + pd.to_timedelta(np.arange(n) % 40, unit="D")
    df = pd.DataFrame({"day": days.strftime("%Y%m%d").astype(int),
                       "code": [10000000 + 7919 * i for i in range(n)],
                       "y": [0, 1, 1] * (n // 3)})
    ds = from_frame(df, "y")
    assert ds.numeric == ("day", "code")  # read as numbers, as written
    dated = [n for n in ds.notes if "YYYYMMDD" in n]
    assert len(dated) == 1 and dated[0].startswith("column 'day' holds whole numbers "
                                                   "that read as dates")


@pytest.mark.parametrize("kind", [object, "category"])
def test_categories_in_two_unicode_forms_are_one_in_any_column_dtype(kind):
    # a pandas categorical column kept both forms: two categories that print alike
    composed, decomposed = "caf\u00e9", "cafe\u0301"
    df = pd.DataFrame({"c": pd.Series([composed, decomposed, "tea"] * 4, dtype=kind),
                       "t": [0, 1] * 6})
    ds = from_frame(df, "t")
    assert set(ds.X["c"]) == {composed, "tea"}
    assert any("'caf\\xe9' = 'cafe\\u0301'" in note for note in ds.notes)


@pytest.mark.parametrize("given", ["vi\u1ec7t", "vie\u0323\u0302t", "vi\u00ea\u0323t"])
def test_missing_matches_a_value_in_any_unicode_form(given):
    # 'ê' and a dot below (a mixed form) was neither the composed 'ệ' nor the decomposed
    # 'e', dot below, circumflex: the cell was kept, though the encoder reads it as 'ệ'
    cells = ["vi\u1ec7t", "vie\u0323\u0302t", "vi\u00ea\u0323t", "tea"]
    df = pd.DataFrame({"c": cells * 3, "t": [0, 1] * 6})
    ds = from_frame(df, "t", missing=[given])
    assert ds.X["c"].isna().sum() == 9 and set(ds.X["c"].dropna()) == {"tea"}
    assert not any("given as missing" in note for note in ds.notes)


@pytest.mark.parametrize("given", ["CAF\u00c9", "CAFE\u0301", "cafe\u0301"])
def test_positive_matches_a_label_but_for_case_in_either_unicode_form(given):
    # 'CAFE' and an accent matched nothing, while 'CAFÉ', printed the same, matched 'café'
    df = pd.DataFrame({"x": np.arange(6.0), "t": ["caf\u00e9", "tea"] * 3})
    assert from_frame(df, "t", positive=given).y.tolist() == [1, 0] * 3


@pytest.mark.parametrize("given", ["\u00c9TAT", "E\u0301TAT"])
def test_a_column_named_but_for_case_is_hinted_in_either_unicode_form(given):
    df = pd.DataFrame({"\u00e9tat": np.arange(4.0), "t": [0, 1] * 2})
    with pytest.raises(InputError, match=r"not found \(did you mean '\u00e9tat'\?\)"):
        from_frame(df, given)


def test_values_stripped_of_spaces_are_noted_when_none_merge():
    df = pd.DataFrame({"x": np.arange(8.0), "v": pd.Series(["a ", "b"] * 4, dtype="category"),
                       "t": ["yes", "no", " no", "yes"] * 2})
    notes = from_frame(df, "t").notes
    assert ("column 'v': values written with spaces around them are read without them "
            "(e.g. 'a ' as 'a')") in notes
    assert not any("target 't': labels written with spaces" in n for n in notes)  # merged:
    assert any(n.startswith("target 't': labels that differ only") for n in notes)  # said so
