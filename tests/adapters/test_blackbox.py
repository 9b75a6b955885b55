"""The BlackBox protocol for all four kinds, and the checks on every model output."""
import pickle

import joblib
import numpy as np
import pandas as pd
import pytest
import xgboost as xgb
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import RandomForestClassifier
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression, RidgeClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.svm import SVC

from adapters import (BlackBox, InputError, TableEncoder, from_frame, load_xgboost,
                      relabel_classes, wrap_callable, wrap_sklearn)
from adapters.blackbox import check_probabilities
from adapters.wrappers import _category_encoders


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


def test_a_model_joblib_cannot_pickle_is_not_saved_and_says_why(tmp_path):
    """A lambda in a FunctionTransformer made write_run fail after LIME and both fits,
    with no report written."""
    from sklearn.preprocessing import FunctionTransformer

    X = pd.DataFrame({"x": np.arange(20.0)})
    model = make_pipeline(FunctionTransformer(lambda X: 2 * X),
                          LogisticRegression()).fit(X, np.arange(20) % 2)
    path = wrap_sklearn(model, TableEncoder().fit(X)).save(tmp_path)
    assert path.name == "black_box.txt" and not (tmp_path / "black_box.joblib").exists()
    assert "Pipeline, not saved: joblib could not pickle it" in path.read_text()


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
    # a scikit-learn step writing to its input: predict (its own) too
    from sklearn.preprocessing import FunctionTransformer

    def to_milli(X):
        X["x"] = X["x"] * 1000
        return X

    model = make_pipeline(FunctionTransformer(to_milli), _pipeline(ds, ds.y))
    box = wrap_sklearn(model.fit(ds.X.copy(), ds.y), encoder)
    box.predict(X)
    box.predict_proba(X)
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


def test_sklearn_probabilities_of_class_1_alone_in_another_order(mixed):
    # P(classes_[1]) as a 1-D array, classes put in another order: an IndexError
    from sklearn.base import BaseEstimator, ClassifierMixin

    class OneColumn(ClassifierMixin, BaseEstimator):
        def fit(self, X, y):
            self.model_ = _pipeline(ds, y)
            self.classes_ = self.model_.classes_
            return self

        def predict_proba(self, X):
            return self.model_.predict_proba(X)[:, 1]

        def predict(self, X):
            return self.model_.predict(X)

    ds, encoder, _ = mixed
    names = np.asarray(ds.class_names, dtype=object)[ds.y]     # ("no", "yes")
    model = OneColumn().fit(ds.X, names)
    flipped = wrap_sklearn(model, encoder, class_names=("yes", "no"))
    np.testing.assert_allclose(flipped.predict_proba(ds.X)[:, 0], model.predict_proba(ds.X))


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
    with pytest.warns(UserWarning, match=r"^the LogisticRegression was fitted on an array, "
                      r"which names no columns: its columns are read as the data's "
                      r"'sepal length \(cm\)', .*, in this order$"):
        box = wrap_sklearn(model, encoder)      # fitted on an array: gets an array
    np.testing.assert_array_equal(box.predict_proba(ds.X), model.predict_proba(ds.X.to_numpy()))
    with pytest.raises(InputError, match="fitted on 4 columns, the data has 3"):
        wrap_sklearn(model, type(encoder)().fit(ds.X.iloc[:, :3]))


def test_a_classifier_without_predict_proba_is_explained_through_its_scores(mixed, iris):
    """RidgeClassifier and SVC(probability=False) were refused (no predict_proba): LIME
    explains the logistic function (two classes) or softmax (more) of decision_function,
    whose largest is the class it predicts; the labels are its own predict."""
    ds, encoder, _ = mixed
    columns = ColumnTransformer([("x", SimpleImputer(), ["x", "w"]),
                                 ("c", make_pipeline(SimpleImputer(strategy="most_frequent"),
                                                     OneHotEncoder()), ["colour", "size"])])
    names = np.asarray(ds.class_names)
    for model in (RidgeClassifier(), SVC()):
        pipeline = make_pipeline(columns, model).fit(ds.X, names[ds.y])
        with pytest.warns(UserWarning, match=r"has no predict_proba: LIME explains the "
                                             r"scores of its decision_function, made "
                                             r"probabilities by the logistic function"):
            box = wrap_sklearn(pipeline, encoder, class_names=ds.class_names[::-1])
        score = pipeline.decision_function(ds.X)   # of pipeline.classes_[1]
        P = box.predict_proba(ds.X)
        np.testing.assert_allclose(P[:, list(ds.class_names[::-1]).index(
            pipeline.classes_[1])], 1 / (1 + np.exp(-score)), rtol=0, atol=1e-12)
        np.testing.assert_array_equal(np.asarray(ds.class_names[::-1])[box.predict(ds.X)],
                                      pipeline.predict(ds.X))
        np.testing.assert_array_equal(box.predict(ds.X), P.argmax(axis=1))
    ds, encoder, _ = iris
    ovo = make_pipeline(StandardScaler(), SVC(decision_function_shape="ovo")).fit(ds.X, ds.y)
    with pytest.raises(InputError, match=r"a score per pair of classes \(decision_function_"
                                         r"shape='ovo'\), not per class; set it to 'ovr'"):
        wrap_sklearn(ovo, encoder)
    for model in (RidgeClassifier().fit(ds.X, ds.y),
                  ovo.set_params(svc__decision_function_shape="ovr")):
        with pytest.warns(UserWarning, match="made probabilities by the softmax"):
            box = wrap_sklearn(model, encoder)
        np.testing.assert_array_equal(box.predict(ds.X), model.predict(ds.X))
        np.testing.assert_array_equal(box.predict_proba(ds.X).argmax(axis=1),
                                      model.decision_function(ds.X).argmax(axis=1))


def test_sklearn_wrapping_errors(mixed, iris):
    ds, encoder, _ = mixed
    with pytest.raises(InputError, match="not fitted"):
        wrap_sklearn(LogisticRegression(), encoder)
    with pytest.raises(InputError, match="^object has neither predict_proba nor "
                                         "decision_function; wrap a classifier"):
        wrap_sklearn(object(), encoder)
    other = iris[0]
    model = LogisticRegression(max_iter=1000).fit(other.X, other.y)
    with pytest.raises(InputError, match="fitted on other columns"):
        wrap_sklearn(model, encoder)


def test_a_model_of_fewer_columns_is_told_to_drop_the_others():
    # the advice was to wrap it with the encoder of its own columns, which the pipeline
    # then refused, asking for the encoder of the table's columns: a circle
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"age": rng.integers(18, 80, 200), "city": rng.choice(["a", "b"], 200),
                          "extra": rng.normal(size=200)})
    frame["y"] = np.where((frame.age > 50) | (frame.city == "a"), "yes", "no")
    columns = ColumnTransformer([("n", "passthrough", ["age"]),
                                 ("c", OneHotEncoder(handle_unknown="ignore"), ["city"])])
    model = make_pipeline(columns, LogisticRegression(max_iter=1000))
    model.fit(frame[["age", "city"]], frame.y)
    ds = from_frame(frame, "y")
    with pytest.raises(InputError, match=r"it does not know 'extra'; explain it on a table of "
                                         r"the columns it was fitted on \(drop= in "
                                         r"load_dataset or from_frame leaves a column out"):
        wrap_sklearn(model, TableEncoder().fit(ds.X, ds.categorical),
                     class_names=ds.class_names)
    ds = from_frame(frame, "y", drop=["extra"])  # as told
    box = wrap_sklearn(model, TableEncoder().fit(ds.X, ds.categorical),
                       class_names=ds.class_names)
    assert (box.predict(ds.X) == (model.predict(frame[["age", "city"]]) == "yes")).all()


def test_callable_errors(mixed):
    ds, encoder, _ = mixed
    with pytest.raises(InputError, match="callable"):
        wrap_callable("not a function", encoder)
    with pytest.raises(InputError, match="at least 2"):
        wrap_callable(_rule, encoder, n_classes=1)


@pytest.mark.parametrize("output, match", [
    (lambda n: np.full((n, 3), 1 / 3), r"shape \(\d+, 3\).*expected"),
    (lambda n: np.full(n + 1, 0.5), "shape"),
    (lambda n: np.full((n + 1, 1), 0.5), "shape"),
    (lambda n: np.where(np.arange(n) == 0, np.nan, 0.5), "NaN or infinite.* for 1 of"),
    (lambda n: np.full((n, 2), np.inf), "NaN or infinite"),
    (lambda n: np.full(n, 1.5), "outside"),
    # the values returned, not 1 - p: it said [-1, 2] of labels 1 and 2
    (lambda n: np.arange(n) % 2 + 1, r"values in \[1, 2\], outside"),
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


def test_one_column_of_probabilities_is_that_of_class_1(mixed):
    # a Keras sigmoid gives shape (n, 1); it was refused, while 1-D was read so
    ds, encoder, _ = mixed
    column = wrap_callable(lambda X: _rule(X)[:, None], encoder)
    np.testing.assert_allclose(column.predict_proba(ds.X)[:, 1], _rule(ds.X))
    with pytest.raises(InputError, match=r"shape \(3, 1\) for 3 rows; expected \(3, 3\)"):
        check_probabilities([[0.5]] * 3, 3, 3)  # with three classes it says nothing


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


@pytest.mark.parametrize("codes, words", [
    ([1, 1], r"name each label 0 \.\. k-1 \(k at least 2\) at least once, got \[1, 1\]"),
    ([0, 2], r"name each label .* got \[0, 2\]"),
    ([1.5, 0], r"be whole numbers, .* got \[1.5, 0\]"),  # it was read as [1, 0]
    (["1", "0"], r"be whole numbers.*"),
])
def test_relabel_classes_refuses_codes_that_are_not_labels(mixed, codes, words):
    _, encoder, _ = mixed
    with pytest.raises(InputError, match=f"^codes must {words}$"):
        relabel_classes(wrap_callable(_rule, encoder), codes)


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


def _flag_pipeline(handle_unknown="ignore"):
    return make_pipeline(
        ColumnTransformer([("oh", OneHotEncoder(handle_unknown=handle_unknown), ["flag"])],
                          remainder="passthrough"),
        LogisticRegression())


@pytest.mark.parametrize("meta", ["search", "calibrated", "voting"])
def test_category_encoders_are_found_inside_meta_estimators(meta):
    """A grid search (or a calibrated or voting classifier) around a pipeline fitted on the
    raw bool column was accepted, and answered as another model (agreement 0.64)."""
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.ensemble import VotingClassifier
    from sklearn.model_selection import GridSearchCV

    df, ds = _flag_table()
    model = {"search": GridSearchCV(_flag_pipeline(), {"logisticregression__C": [0.1, 1]},
                                    cv=3),
             "calibrated": CalibratedClassifierCV(_flag_pipeline(), cv=3),
             "voting": VotingClassifier([("a", _flag_pipeline())], voting="soft")}[meta]
    model.fit(df[["flag", "x"]], df["t"])
    encoder = TableEncoder().fit(ds.X, ds.categorical)
    with pytest.raises(InputError, match="learned column 'flag' as bool values"):
        wrap_sklearn(model, encoder, class_names=ds.class_names)


def test_categories_the_table_reading_cleaned_are_refused():
    """A model fitted on the raw values " Private" (UCI adult's spelling) meets the
    dataset's "Private" as an unknown category: with handle_unknown="ignore" it answered
    as another model on 26% of the rows."""
    rng = np.random.default_rng(0)
    raw = pd.DataFrame({"work": rng.choice([" Private", " Self-emp", " Gov"], 300),
                        "x": rng.normal(size=300)})
    raw["t"] = np.where((raw["work"] == " Private") ^ (raw["x"] > 0), "yes", "no")
    ds = from_frame(raw, "t")
    assert "Private" in set(ds.X["work"])
    encoder = TableEncoder().fit(ds.X, ds.categorical)

    def fitted(frame):
        return make_pipeline(
            ColumnTransformer([("oh", OneHotEncoder(handle_unknown="ignore"), ["work"])],
                              remainder="passthrough"),
            LogisticRegression()).fit(frame[["work", "x"]], raw["t"])

    with pytest.raises(InputError, match=r"learned column 'work' as ' [A-Za-z-]+', which the "
                                         r"dataset reads as '[A-Za-z-]+' \(without the spaces"):
        wrap_sklearn(fitted(raw), encoder, class_names=ds.class_names)
    # a step before the encoder may recode the column: categories it never saw are said
    renamed = raw.assign(work=raw["work"].map({" Private": "P", " Self-emp": "S", " Gov": "G"}))
    with pytest.warns(UserWarning, match="never saw the categories 'Gov', 'Private', "
                                         "'Self-emp' of column 'work' \\(it knows 'G', 'P', "
                                         "'S'\\); unless a step before it recodes them"):
        wrap_sklearn(fitted(renamed), encoder, class_names=ds.class_names)
    fewer = ds.X.assign(work=ds.X["work"].replace("Gov", "Private"))
    with pytest.warns(UserWarning, match="never saw the categories 'Gov' of column 'work'"):
        box = wrap_sklearn(fitted(fewer), encoder, class_names=ds.class_names)
    assert box.predict(ds.X).shape == (300,)
    wrap_sklearn(fitted(ds.X), encoder, class_names=ds.class_names)  # no warning


def test_a_pipeline_that_recodes_a_category_before_encoding_it_is_accepted():
    """A first step that renames the categories (a -> alpha) leaves the encoder none of the
    dataset's: it was refused, though the pipeline reads Dataset.X."""
    from sklearn.preprocessing import FunctionTransformer

    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.normal(size=300), "c": rng.choice(["a", "b", "c"], 300)})
    df["y"] = np.where(df.x + (df.c == "a") > 0.5, "yes", "no")
    ds = from_frame(df, "y")
    words = FunctionTransformer(lambda X: X.assign(c=X["c"].map(
        {"a": "alpha", "b": "beta", "c": "gamma"})))
    model = make_pipeline(words, ColumnTransformer([("oh", OneHotEncoder(), ["c"])],
                                                   remainder="passthrough"),
                          LogisticRegression()).fit(ds.X, ds.y)
    with pytest.warns(UserWarning, match="unless a step before it recodes them"):
        box = wrap_sklearn(model, TableEncoder().fit(ds.X, ds.categorical))
    np.testing.assert_array_equal(box.predict(ds.X), model.predict(ds.X))


def test_the_search_for_encoders_survives_cycles_and_large_lists():
    from sklearn.base import BaseEstimator, ClassifierMixin

    df, ds = _flag_table()

    class Box(ClassifierMixin, BaseEstimator):
        def fit(self, X, y):
            self.inner_ = _flag_pipeline().fit(X, y)
            self.classes_ = self.inner_.classes_
            self.log_ = [list(range(200_000))]
            self.log_.append(self.log_)  # a list that holds itself
            self.book_ = {}
            self.book_["self"] = self.book_
            return self

        def predict_proba(self, X):
            return self.inner_.predict_proba(X)

    encoder = TableEncoder().fit(ds.X, ds.categorical)
    wrap_sklearn(Box().fit(ds.X, ds.y), encoder)  # fitted on Dataset.X: accepted
    with pytest.raises(InputError, match="learned column 'flag' as bool values"):
        wrap_sklearn(Box().fit(df[["flag", "x"]], ds.y), encoder)


def test_a_model_of_the_tables_labels_is_merged_one_vs_rest():
    """from_frame(positive=...) merges a target of three classes into one against the rest;
    a model fitted on the three labels is read through source_labels."""
    from sklearn.datasets import load_iris

    iris = load_iris(as_frame=True)
    df = iris.frame.drop(columns="target")
    df["species"] = np.asarray(iris.target_names)[iris.target]
    model = LogisticRegression(max_iter=1000).fit(df.drop(columns="species"), df["species"])
    ds = from_frame(df, "species", positive="virginica")
    encoder = TableEncoder().fit(ds.X, ds.categorical)
    with pytest.raises(InputError, match="pass source_labels=Dataset.source_labels"):
        wrap_sklearn(model, encoder, class_names=ds.class_names)
    box = wrap_sklearn(model, encoder, source_labels=ds.source_labels)
    own = model.predict(df.drop(columns="species"))
    np.testing.assert_array_equal(box.predict(ds.X), (own == "virginica").astype(int))
    P = model.predict_proba(df.drop(columns="species"))
    np.testing.assert_allclose(box.predict_proba(ds.X)[:, 1], P[:, 2])
    with pytest.raises(InputError, match="are not the table's labels"):
        wrap_sklearn(model, encoder, source_labels=[("a", 0), ("b", 1)])


def test_a_model_of_a_class_the_table_lacks_is_refused_in_one_line():
    from sklearn.datasets import load_iris

    iris = load_iris(as_frame=True)
    df = iris.frame.drop(columns="target")
    df["species"] = np.asarray(iris.target_names)[iris.target]
    model = LogisticRegression(max_iter=1000).fit(df.drop(columns="species"), df["species"])
    ds = from_frame(df[df.species != "virginica"], "species")
    encoder = TableEncoder().fit(ds.X, ds.categorical)
    said = ("^the estimator knows the class 'virginica', which no row of the table holds "
            "\\(its labels are 'setosa', 'versicolor'\\); explain it on a table holding "
            "every class it knows$")
    with pytest.raises(InputError, match=said):  # was: pass source_labels, which fails too
        wrap_sklearn(model, encoder, class_names=ds.class_names)
    with pytest.raises(InputError, match=said):
        wrap_sklearn(model, encoder, source_labels=ds.source_labels)


def test_a_model_of_labels_the_table_merged_is_refused_saying_so():
    # "no row of the table holds '0.0'" was said, though rows did: read as '0'
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"x": rng.normal(size=60)})
    t = np.array(["0", "0.0", "1"])[rng.integers(0, 3, 60)]
    ds = from_frame(X.assign(t=t), "t")
    model = LogisticRegression().fit(X, t)
    with pytest.raises(InputError, match=r"^the estimator knows '0.0' apart from the table's "
                                         r"label of the same number, which reading the "
                                         r"table made one class"):
        wrap_sklearn(model, TableEncoder().fit(ds.X, ds.categorical),
                     class_names=ds.class_names)


def test_an_unfitted_encoder_is_a_one_line_error():
    df, ds = _flag_table()
    with pytest.raises(InputError, match="this TableEncoder is not fitted"):
        wrap_sklearn(_flag_pipeline().fit(ds.X, ds.y), TableEncoder())


@pytest.mark.parametrize("wrap", [lambda ds, model: wrap_sklearn(model, ds),
                                  lambda ds, model: wrap_callable(_rule, ds.X),
                                  lambda ds, model: load_xgboost("m.json", ds)])
def test_something_other_than_an_encoder_is_a_one_line_error(wrap, tmp_path, monkeypatch):
    df, ds = _flag_table()
    xgb.XGBClassifier(n_estimators=2).fit(ds.X[["x"]], ds.y).save_model(tmp_path / "m.json")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match=r"^expected a TableEncoder fitted on the dataset's "
                                         r"features \(TableEncoder\(\).fit\(ds.X, "
                                         r"ds.categorical\)\), got (Dataset|DataFrame)$"):
        wrap(ds, _flag_pipeline().fit(ds.X, ds.y))


def test_an_estimator_that_cannot_read_the_columns_is_a_one_line_error():
    df, ds = _flag_table()
    model = RandomForestClassifier(n_estimators=5, random_state=0).fit(
        df[["flag", "x"]].astype(float), ds.y)   # numbers only; the dataset gives "True"
    box = wrap_sklearn(model, TableEncoder().fit(ds.X, ds.categorical))
    with pytest.raises(InputError, match="cannot read the dataset's columns") as err:
        box.predict_proba(ds.X)
    assert "\n" not in str(err.value)


def test_an_estimator_that_reads_no_missing_value_is_told_to_leave_out_those_rows():
    # it was told to fit the estimator on Dataset.X, which would not help
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"a": rng.normal(size=100), "b": rng.normal(size=100)})
    df["y"] = (df.a > 0).astype(int)
    model = LogisticRegression().fit(df[["a", "b"]], df.y)
    ds = from_frame(df.assign(b=df.b.mask(df.index % 9 == 0)), "y")
    box = wrap_sklearn(model, TableEncoder().fit(ds.X, ds.categorical))
    with pytest.raises(InputError, match=r"^the LogisticRegression cannot read the dataset's "
                                         r"columns .*NaN.*; it reads no missing value: leave "
                                         r"out the table's rows that hold one \(DataFrame"
                                         r"\.dropna before from_frame\)"):
        box.predict_proba(ds.X)
    np.testing.assert_array_equal(box.predict(ds.X.dropna()), model.predict(ds.X.dropna()))


def _other_encoders(ds):
    """Encoders of the same table that encode it differently, and how each differs."""
    reversed_columns = TableEncoder().fit(ds.X[list(reversed(ds.X.columns))], ds.categorical)
    extra = ds.X.copy()
    extra.loc[extra.index[0], "colour"] = "amber"  # codes of the other colours move by one
    return [(reversed_columns, "another order"),
            (TableEncoder().fit(extra, ds.categorical), "other categories of column 'colour'"),
            (TableEncoder().fit(ds.X, ["colour"]),
             "other categorical columns")]


@pytest.mark.parametrize("case", range(3))
def test_a_box_wrapped_with_another_encoder_is_refused(mixed, case):
    """LIME's rows are encoded by the table's encoder: a box that decodes them with another
    one (columns reordered, categories shifted) would be explained as another model."""
    from adapters.blackbox import check_encoded_reading

    ds, encoder, _ = mixed
    other, how = _other_encoders(ds)[case]
    assert encoder.difference(other) is not None and how in encoder.difference(other)
    assert encoder.difference(TableEncoder().fit(ds.X, ds.categorical)) is None
    model = _pipeline(ds, ds.y)
    for box in (wrap_sklearn(model, other), relabel_classes(wrap_sklearn(model, other), [1, 0])):
        with pytest.raises(InputError, match=f"wrapped with an encoder of .*{how}.*"
                                             r"TableEncoder\(\)\.fit\(dataset\.X"):
            check_encoded_reading(box, encoder, ds.X)
    check_encoded_reading(wrap_sklearn(model, encoder), encoder, ds.X)


def test_a_box_that_decodes_rows_otherwise_is_refused(mixed):
    """A black box of the user's own class, with no encoder to compare, is probed: its
    probabilities of the table's rows and of the same rows encoded must agree."""
    from adapters.blackbox import check_encoded_reading

    ds, encoder, trained = mixed

    class OwnBox:
        kind, classes_ = "own", np.arange(2)

        def predict_proba(self, X):
            return trained.predict_proba(X)

        def predict(self, X):
            return trained.predict(X)

        def predict_proba_encoded(self, Z):  # reads column x with the wrong sign
            return trained.predict_proba_encoded(np.asarray(Z) * [-1, 1, 1, 1])

        def save(self, directory):
            raise NotImplementedError

    with pytest.raises(InputError, match="other probabilities for the table's rows as "
                                         "encoded rows"):
        check_encoded_reading(OwnBox(), encoder, ds.X)


def test_a_box_with_noisy_answers_is_warned_of_not_refused(mixed):
    """A model whose probabilities vary from call to call (sampling at predict time) read
    as one decoding rows otherwise, and was refused with the wrong reason."""
    from adapters.blackbox import check_encoded_reading

    ds, encoder, _ = mixed
    rng = np.random.default_rng(0)
    noisy = wrap_callable(lambda X: np.clip(rng.uniform(0.4, 0.6, len(X)), 0, 1), encoder)
    with pytest.warns(UserWarning, match="answers the same rows with other probabilities"):
        check_encoded_reading(noisy, encoder, ds.X)


def test_a_category_the_table_reading_takes_for_missing_is_warned_of():
    """UCI adult writes an unknown job as "?": the reading makes it missing, so a model
    that learned "?" as a category answered otherwise than on its own rows, unsaid."""
    rng = np.random.default_rng(0)
    raw = pd.DataFrame({"work": rng.choice(["Private", "Gov", "?"], 300),
                        "x": rng.normal(size=300)})
    raw["t"] = np.where((raw["work"] == "?") ^ (raw["x"] > 0), "yes", "no")
    ds = from_frame(raw, "t")
    model = make_pipeline(
        ColumnTransformer([("oh", OneHotEncoder(handle_unknown="ignore"), ["work"])],
                          remainder="passthrough"),
        LogisticRegression()).fit(raw[["work", "x"]], raw["t"])
    with pytest.warns(UserWarning, match="column 'work': the model knows '\\?' as "
                                         "categories, which reading the table takes for "
                                         "missing values"):
        wrap_sklearn(model, TableEncoder().fit(ds.X, ds.categorical),
                     class_names=ds.class_names)


def _classes_table():
    rng = np.random.default_rng(2)
    df = pd.DataFrame({"age": rng.normal(size=300), "pclass": rng.integers(1, 4, size=300)})
    df["survived"] = (0.3 * df.age + 3 * (df.pclass == 1) > 0.8).astype(int)
    return df


@pytest.mark.parametrize("reads", ["one-hot", "ordinal text", "histogram boosting"])
def test_a_numeric_column_the_estimator_reads_as_categories_is_refused(reads):
    """LIME gives pclass 1.37, which a OneHotEncoder(handle_unknown="ignore") that learned
    1, 2, 3 reads as no class at all: pclass was the top LIME feature of 12 of 225 rows
    (225 of 225 with the values rounded), with no word."""
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.preprocessing import OrdinalEncoder

    from adapters.blackbox import check_encoded_reading

    df = _classes_table()
    ds = from_frame(df, "survived")
    assert ds.categorical == ()
    raw = df[["age", "pclass"]]
    if reads == "one-hot":
        step = OneHotEncoder(handle_unknown="ignore")
    elif reads == "ordinal text":
        raw = raw.astype({"pclass": str})
        step = OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1)
    if reads == "histogram boosting":
        model = HistGradientBoostingClassifier(categorical_features=["pclass"], max_iter=10)
    else:
        model = make_pipeline(ColumnTransformer([("c", step, ["pclass"])],
                                                remainder="passthrough"), LogisticRegression())
    encoder = TableEncoder().fit(ds.X, ds.categorical)
    box = wrap_sklearn(model.fit(raw, df.survived), encoder)
    with pytest.raises(InputError, match=r"^the estimator's \w+ reads column 'pclass' as .*, "
                                         r"but the dataset reads it as numbers, .* "
                                         r"\(df\['pclass'\]\.astype\('category'\)\) and fit "
                                         r"the estimator on Dataset\.X$"):
        check_encoded_reading(box, encoder, ds.X)
    # as the message says: then the column's categories are the dataset's and LIME's
    fixed = from_frame(df.astype({"pclass": "category"}), "survived")
    assert fixed.categorical == ("pclass",)
    encoder = TableEncoder().fit(fixed.X, fixed.categorical)
    if reads != "histogram boosting":
        box = wrap_sklearn(model.fit(fixed.X, fixed.y), encoder)
        check_encoded_reading(box, encoder, fixed.X)


def test_an_encoder_of_a_column_a_step_recodes_is_not_refused():
    from sklearn.preprocessing import FunctionTransformer

    from adapters.blackbox import check_encoded_reading

    df = _classes_table()
    ds = from_frame(df, "survived")
    floor = FunctionTransformer(np.floor, feature_names_out="one-to-one")
    recoded = make_pipeline(floor, OneHotEncoder(handle_unknown="ignore",
                                                 sparse_output=False))
    model = make_pipeline(ColumnTransformer([("c", recoded, ["age"])], remainder="passthrough"),
                          LogisticRegression()).set_output(transform="pandas").fit(ds.X, ds.y)
    # the encoder learned 'age' by name, but the floor of its values
    assert [names for _, names in _category_encoders(model)] == [["age"]]
    encoder = TableEncoder().fit(ds.X, ds.categorical)
    check_encoded_reading(wrap_sklearn(model, encoder), encoder, ds.X)


def test_sklearn_model_trained_on_a_csv_whose_header_has_spaces(tmp_path):
    # "age, job" in a CSV: pandas names the columns 'age', ' job', reading the table 'age',
    # 'job'; the model was refused as fitted on other columns, and its category encoder's
    # ' job' was not checked against the table's categories
    from adapters import load_dataset

    rng = np.random.default_rng(6)
    frame = pd.DataFrame({"age": rng.normal(40, 10, 150).round(1),
                          " job": rng.choice(["a", "b"], 150)})
    frame["label"] = np.where((frame["age"] > 40) | (frame[" job"] == "a"), "yes", "no")
    frame.to_csv(tmp_path / "t.csv", index=False)
    raw = pd.read_csv(tmp_path / "t.csv")
    model = make_pipeline(ColumnTransformer([("job", OneHotEncoder(), [" job"])],
                                            remainder="passthrough"),
                          LogisticRegression()).fit(raw[["age", " job"]], raw["label"])
    ds = load_dataset(tmp_path / "t.csv", target="label")
    assert list(ds.X.columns) == ["age", "job"]
    box = wrap_sklearn(model, TableEncoder().fit(ds.X, ds.categorical),
                       class_names=ds.class_names)
    np.testing.assert_array_equal(
        np.asarray(ds.class_names)[box.predict(ds.X)], model.predict(raw[["age", " job"]]))
    unseen = ds.X.assign(job=np.where(np.arange(150) < 3, "c", ds.X["job"]))
    with pytest.warns(UserWarning, match=r"never saw the categories 'c' of column 'job'"):
        wrap_sklearn(model, TableEncoder().fit(unseen, ds.categorical),
                     class_names=ds.class_names)


@pytest.mark.parametrize("trained, read", [("NFD", "NFC"), ("NFC", "NFD")])
def test_an_estimator_s_categories_match_the_data_s_in_another_unicode_form(trained, read):
    # fitted on 'cafe' + an accent, given the table's 'café': "never saw the categories
    # 'café'", and its handle_unknown answered for every such row
    import unicodedata
    import warnings

    rng = np.random.default_rng(0)
    theirs = unicodedata.normalize(trained, "café")
    drink = rng.choice([theirs, "tea", "milk"], 120)
    frame = pd.DataFrame({"drink": drink, "x": rng.normal(size=120)})
    y = (drink == theirs).astype(int)
    estimator = make_pipeline(
        ColumnTransformer([("cat", OneHotEncoder(handle_unknown="ignore"), ["drink"])],
                          remainder="passthrough"), LogisticRegression()).fit(frame, y)
    ours = frame.assign(drink=[unicodedata.normalize(read, v) for v in drink])
    ds = from_frame(ours.assign(t=y), "t")
    assert unicodedata.normalize(read, "café") in set(ds.X["drink"])
    given = ds.X.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning of categories it never saw
        box = wrap_sklearn(estimator, TableEncoder().fit(ds.X, ds.categorical))
        predicted = box.predict(ds.X)
    np.testing.assert_array_equal(predicted, estimator.predict(frame))
    np.testing.assert_allclose(box.predict_proba(ds.X), estimator.predict_proba(frame))
    pd.testing.assert_frame_equal(ds.X, given)  # the caller's rows are left as they are
