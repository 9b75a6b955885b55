"""The BlackBox protocol for all four kinds, and the checks on every model output."""
import pickle

import joblib
import numpy as np
import pandas as pd
import pytest
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import RandomForestClassifier
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

from adapters import (BlackBox, InputError, TableEncoder, from_frame, load_xgboost,
                      relabel_classes, wrap_callable, wrap_sklearn)
from adapters.blackbox import check_probabilities


def _pipeline(ds, y):
    columns = ColumnTransformer([
        ("num", SimpleImputer(), list(ds.numeric)),
        ("cat", make_pipeline(SimpleImputer(strategy="most_frequent"),
                              OneHotEncoder(handle_unknown="ignore")), list(ds.categorical)),
    ])
    forest = RandomForestClassifier(n_estimators=25, min_samples_leaf=3, random_state=0)
    return make_pipeline(columns, forest).fit(ds.X, y)


def _rule(X):
    """A hand-written model: P(yes) from x and the colour."""
    assert isinstance(X, pd.DataFrame) and list(X.columns) == ["x", "colour", "size", "w"]
    assert X["x"].dtype == "float64" and X["colour"].dtype == object
    assert all(type(v) is str for v in X["colour"].dropna())
    green = X["colour"].isin(["green", "grün"]).to_numpy()
    return np.where((X["x"].fillna(0).to_numpy() > 0) ^ green, 0.9, 0.1)


@pytest.fixture(scope="module")
def boxes(mixed, tmp_path_factory):
    ds, encoder, trained = mixed
    loaded = load_xgboost(trained.save(tmp_path_factory.mktemp("xgb")), encoder)
    return {
        "xgboost": trained,
        "xgboost-loaded": loaded,
        "sklearn": wrap_sklearn(_pipeline(ds, ds.y), encoder),
        "callable": wrap_callable(_rule, encoder),
    }


@pytest.mark.parametrize("name", ["xgboost", "xgboost-loaded", "sklearn", "callable"])
def test_protocol(boxes, mixed, tmp_path, name):
    ds, encoder, _ = mixed
    box = boxes[name]
    assert isinstance(box, BlackBox)
    assert box.kind == name.split("-")[0]
    assert box.classes_.tolist() == [0, 1]
    P = box.predict_proba(ds.X)
    assert P.shape == (len(ds.X), 2) and P.dtype == np.float64
    np.testing.assert_allclose(P.sum(axis=1), 1.0, atol=1e-6)
    labels = box.predict(ds.X)
    assert labels.dtype.kind == "i"
    np.testing.assert_array_equal(labels, P.argmax(axis=1))
    assert (labels == ds.y).mean() > 0.85
    Z = encoder.transform(ds.X)
    np.testing.assert_allclose(box.predict_proba_encoded(Z), P, atol=1e-12)
    shuffled = ds.X[list(reversed(ds.X.columns))]
    np.testing.assert_array_equal(box.predict_proba(shuffled), P)
    assert box.predict_proba(ds.X.iloc[:0]).shape == (0, 2)
    assert box.predict_proba_encoded(Z[:0]).shape == (0, 2)
    path = box.save(tmp_path / "out")
    assert path.is_file() and path.parent == tmp_path / "out"
    with pytest.raises(InputError, match="missing columns 'w'"):
        box.predict_proba(ds.X.drop(columns="w"))
    with pytest.raises(InputError, match=r"shape \(n, 4\)"):
        box.predict_proba_encoded(Z[:, :3])


@pytest.mark.parametrize("name", ["xgboost", "sklearn"])
def test_boxes_pickle(boxes, mixed, name):
    """joblib worker processes receive the box by pickling."""
    ds, encoder, _ = mixed
    copy = pickle.loads(pickle.dumps(boxes[name]))
    np.testing.assert_array_equal(copy.predict_proba(ds.X), boxes[name].predict_proba(ds.X))


def test_sklearn_save_is_a_joblib_pickle(boxes, mixed, tmp_path):
    ds, encoder, _ = mixed
    path = boxes["sklearn"].save(tmp_path)
    assert path.name == "black_box.joblib"
    again = wrap_sklearn(joblib.load(path), encoder)
    np.testing.assert_array_equal(again.predict_proba(ds.X), boxes["sklearn"].predict_proba(ds.X))


def test_callable_save_writes_a_note(boxes, tmp_path):
    path = boxes["callable"].save(tmp_path)
    assert path.name == "black_box.txt"
    assert "_rule" in path.read_text() and "not saved" in path.read_text()



def test_a_function_that_writes_to_its_input_leaves_the_rows_alone(mixed):
    # the pipeline labels the dataset's own rows: a function rescaling the frame it was
    # given in place rescaled them for LIME and both learners too
    ds, encoder, _ = mixed

    def rescaling(X):
        X["x"] = X["x"] / 72
        X.loc[:, "w"] = 0.0
        return _rule(X)

    X = ds.X.copy()
    wrap_callable(rescaling, encoder).predict(X)
    pd.testing.assert_frame_equal(X, ds.X)

def test_sklearn_fitted_on_string_labels(mixed):
    ds, encoder, _ = mixed
    names = np.asarray(ds.class_names, dtype=object)[ds.y]     # ("no", "yes")
    model = _pipeline(ds, names)
    assert list(model.classes_) == ["no", "yes"]
    with pytest.raises(InputError, match="not the labels 0..k-1"):
        wrap_sklearn(model, encoder)
    box = wrap_sklearn(model, encoder, class_names=ds.class_names)
    np.testing.assert_array_equal(box.predict_proba(ds.X), model.predict_proba(ds.X))
    flipped = wrap_sklearn(model, encoder, class_names=("yes", "no"))
    np.testing.assert_array_equal(flipped.predict_proba(ds.X),
                                  model.predict_proba(ds.X)[:, ::-1])


def test_sklearn_labels_are_its_own_predict(mixed):
    # A tuned threshold decides otherwise than the class with the highest probability.
    from sklearn.model_selection import FixedThresholdClassifier
    ds, encoder, _ = mixed
    names = np.asarray(ds.class_names, dtype=object)[ds.y]     # ("no", "yes")
    model = FixedThresholdClassifier(_pipeline(ds, names), threshold=0.2,
                                     pos_label="yes").fit(ds.X, names)
    box = wrap_sklearn(model, encoder, class_names=ds.class_names)
    labels = box.predict(ds.X)
    np.testing.assert_array_equal(np.asarray(ds.class_names)[labels], model.predict(ds.X))
    assert (labels != box.predict_proba(ds.X).argmax(axis=1)).sum() > 10
    flipped = wrap_sklearn(model, encoder, class_names=("yes", "no"))
    np.testing.assert_array_equal(flipped.predict(ds.X), 1 - labels)
    assert box.predict(ds.X.iloc[:0]).shape == (0,)


def test_sklearn_fitted_on_float_labels_matches_the_dataset_names():
    # pandas makes an int target with a missing value float: the model learns 0.0, 1.0.
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.normal(size=200)})
    df["t"] = (df["x"] > 0).astype(float)
    ds = from_frame(df, "t", positive=0)
    assert ds.class_names == ("1", "0")
    model = LogisticRegression().fit(df[["x"]], df["t"])
    box = wrap_sklearn(model, TableEncoder().fit(ds.X, ds.categorical),
                       class_names=ds.class_names)
    assert (box.predict(ds.X) == ds.y).mean() > 0.95


def test_relabeled_labels_are_the_models_predict(iris):
    # Class 1 against the rest: the model can predict class 1 with P(1) < 0.5.
    ds, encoder, _ = iris
    model = LogisticRegression(C=0.02, max_iter=1000).fit(ds.X, ds.y)
    box = relabel_classes(wrap_sklearn(model, encoder), [0, 1, 0])
    labels = box.predict(ds.X)
    np.testing.assert_array_equal(labels, (model.predict(ds.X) == 1).astype(int))
    assert (labels != box.predict_proba(ds.X).argmax(axis=1)).any()


def test_sklearn_multiclass_numeric_only(iris):
    ds, encoder, _ = iris
    model = LogisticRegression(max_iter=1000).fit(ds.X.to_numpy(), ds.y)
    box = wrap_sklearn(model, encoder)          # fitted on an array: gets an array
    np.testing.assert_array_equal(box.predict_proba(ds.X), model.predict_proba(ds.X.to_numpy()))
    with pytest.raises(InputError, match="fitted on 4 columns, the data has 3"):
        wrap_sklearn(model, type(encoder)().fit(ds.X.iloc[:, :3]))


def test_sklearn_wrapping_errors(mixed, iris):
    ds, encoder, _ = mixed
    with pytest.raises(InputError, match="not fitted"):
        wrap_sklearn(LogisticRegression(), encoder)
    with pytest.raises(InputError, match="no predict_proba"):
        wrap_sklearn(object(), encoder)
    other = iris[0]
    model = LogisticRegression(max_iter=1000).fit(other.X, other.y)
    with pytest.raises(InputError, match="fitted on other columns"):
        wrap_sklearn(model, encoder)


def test_callable_errors(mixed):
    ds, encoder, _ = mixed
    with pytest.raises(InputError, match="callable"):
        wrap_callable("not a function", encoder)
    with pytest.raises(InputError, match="at least 2"):
        wrap_callable(_rule, encoder, n_classes=1)


@pytest.mark.parametrize("output, match", [
    (lambda n: np.full((n, 3), 1 / 3), r"shape \(\d+, 3\).*expected"),
    (lambda n: np.full(n + 1, 0.5), "shape"),
    (lambda n: np.full((n, 1), 0.5), "shape"),
    (lambda n: np.where(np.arange(n) == 0, np.nan, 0.5), "NaN or infinite.* for 1 of"),
    (lambda n: np.full((n, 2), np.inf), "NaN or infinite"),
    (lambda n: np.full(n, 1.5), "outside"),
    (lambda n: np.full((n, 2), 0.7), "sum"),
    (lambda n: np.full(n, "high", dtype=object), "non-numeric"),
])
def test_bad_outputs_raise(mixed, output, match):
    ds, encoder, _ = mixed
    box = wrap_callable(lambda X: output(len(X)), encoder, kind="mine")
    with pytest.raises(InputError, match=match) as info:
        box.predict_proba(ds.X)
    assert "the mine model" in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(InputError, match=match):
        box.predict_proba_encoded(encoder.transform(ds.X))


def test_one_dimensional_output_only_for_two_classes(mixed):
    ds, encoder, _ = mixed
    box = wrap_callable(lambda X: np.full(len(X), 0.25), encoder)
    np.testing.assert_array_equal(box.predict_proba(ds.X[:2]), [[0.75, 0.25]] * 2)
    three = wrap_callable(lambda X: np.full(len(X), 0.25), encoder, n_classes=3)
    with pytest.raises(InputError, match="shape"):
        three.predict_proba(ds.X[:2])


def test_check_probabilities_tolerance():
    P = check_probabilities([[0.5, 0.5004], [1.0 + 1e-12, -1e-12]], 2, 2)
    assert P.min() == 0.0 and P.max() == 1.0


def test_relabel_classes_renumbers_and_merges(mixed):
    ds, encoder, _ = mixed
    def thirds(X):
        p = 1 / (1 + np.exp(-X["x"].fillna(0).to_numpy()))
        return np.column_stack([0.5 * p, 0.5 * (1 - p), 0.5 * np.ones(len(p))])

    three = wrap_callable(thirds, encoder, n_classes=3)
    assert relabel_classes(three, [0, 1, 2]) is three
    P = three.predict_proba(ds.X)
    merged = relabel_classes(three, [1, 0, 1])
    assert isinstance(merged, BlackBox) and merged.classes_.tolist() == [0, 1]
    expected = np.column_stack([P[:, 1], P[:, 0] + P[:, 2]])
    np.testing.assert_allclose(merged.predict_proba(ds.X), expected)
    np.testing.assert_allclose(merged.predict_proba_encoded(encoder.transform(ds.X)), expected)
    assert merged.predict(ds.X).tolist() == expected.argmax(axis=1).tolist()
    swapped = relabel_classes(wrap_callable(_rule, encoder), [1, 0])
    np.testing.assert_allclose(swapped.predict_proba(ds.X)[:, 0], _rule(ds.X))


def test_relabel_classes_refuses_another_number_of_classes(mixed):
    ds, encoder, _ = mixed
    with pytest.raises(InputError, match="gives 2 classes but target 't' has 3"):
        relabel_classes(wrap_callable(_rule, encoder), [0, 1, 0], "target 't'")


def _flag_table():
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"flag": rng.random(120) > 0.5, "x": rng.normal(size=120)})
    df["t"] = np.where(df["flag"], "yes", "no")
    return df, from_frame(df, "t")


@pytest.mark.parametrize("handle_unknown", ["ignore", "error"])
def test_an_estimator_that_learned_bool_categories_is_refused(handle_unknown):
    """Fitted on the raw bool column, a pipeline would meet "True"/"False" as unknown
    categories: with handle_unknown="ignore" it silently answered as another model
    (agreement with its own predictions 0.56)."""
    df, ds = _flag_table()
    pipe = make_pipeline(
        ColumnTransformer([("oh", OneHotEncoder(handle_unknown=handle_unknown), ["flag"])],
                          remainder="passthrough"),
        LogisticRegression()).fit(df[["flag", "x"]], df["t"])
    encoder = TableEncoder().fit(ds.X, ds.categorical)
    with pytest.raises(InputError, match="learned column 'flag' as bool values"):
        wrap_sklearn(pipe, encoder, class_names=ds.class_names)
    right = make_pipeline(
        ColumnTransformer([("oh", OneHotEncoder(handle_unknown=handle_unknown), ["flag"])],
                          remainder="passthrough"),
        LogisticRegression()).fit(ds.X, ds.y)
    assert (wrap_sklearn(right, encoder).predict(ds.X) == ds.y).all()


def test_an_estimator_that_cannot_read_the_columns_is_a_one_line_error():
    df, ds = _flag_table()
    model = RandomForestClassifier(n_estimators=5, random_state=0).fit(
        df[["flag", "x"]].astype(float), ds.y)   # numbers only; the dataset gives "True"
    box = wrap_sklearn(model, TableEncoder().fit(ds.X, ds.categorical))
    with pytest.raises(InputError, match="cannot read the dataset's columns") as err:
        box.predict_proba(ds.X)
    assert "\n" not in str(err.value)
