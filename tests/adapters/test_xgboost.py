"""The XGBoost black box: training, in-place prediction on codes, saving its model file."""
import json

import numpy as np
import pandas as pd
import pytest
import xgboost as xgb

from adapters import (InputError, TableEncoder, from_frame, load_dataset, load_xgboost,
                      train_xgboost)
from adapters.model_file import _stored_categories
from adapters.xgboost_box import MODEL_FILE, XGBoostBlackBox

from .conftest import mixed_frame


def _category_frame(X, encoder):
    """X with categorical columns as pandas categories in the encoder's order."""
    dtypes = {c: pd.CategoricalDtype(list(encoder.categories_[c]))
              for c in encoder.categorical_}
    return X.astype(dtypes)


def test_training_info_and_quality(mixed, cancer):
    for ds, encoder, box in (mixed, cancer):
        assert isinstance(box, XGBoostBlackBox) and box.kind == "xgboost"
        assert box.info["early_stopping"] and box.info["validation_rows"] > 0
        assert 1 <= box.info["n_trees"] <= 300
        assert box.iteration_range == (0, box.info["n_trees"])
        assert (box.predict(ds.X) == ds.y).mean() > 0.95


def test_categorical_columns_are_native(mixed):
    ds, encoder, box = mixed
    types = dict(zip(box.booster.feature_names, box.booster.feature_types))
    assert types == {"x": "float", "colour": "c", "size": "c", "w": "float"}


def test_inplace_codes_equal_dataframe_prediction(mixed, tmp_path):
    ds, encoder, box = mixed
    clf = xgb.XGBClassifier()
    clf.load_model(box.save(tmp_path))
    expected = clf.predict_proba(_category_frame(ds.X, encoder))
    np.testing.assert_allclose(box.predict_proba_encoded(encoder.transform(ds.X)), expected,
                               atol=1e-6)
    np.testing.assert_allclose(box.predict_proba(ds.X), expected, atol=1e-6)
    np.testing.assert_array_equal(box.predict(ds.X), clf.predict(_category_frame(ds.X, encoder)))


def test_category_decides_the_label(mixed):
    """The label flips with the colour: right answers mean the codes are read as
    categories (including the non-ASCII one)."""
    ds, encoder, box = mixed
    row = pd.DataFrame({"x": [1.0, 1.0], "colour": ["red", "grün"], "size": ["S", "S"],
                        "w": [5.0, 5.0]})
    assert box.predict(row).tolist() == [1, 0]


def test_unseen_and_missing_category_behave_as_missing(mixed):
    ds, encoder, box = mixed
    rows = ds.X.iloc[:5].copy()
    unseen, missing = rows.copy(), rows.copy()
    unseen["colour"] = "purple"
    missing["colour"] = np.nan
    np.testing.assert_array_equal(box.predict_proba(unseen), box.predict_proba(missing))


def test_multiclass(iris, tmp_path):
    ds, encoder, box = iris
    P = box.predict_proba(ds.X)
    assert P.shape == (150, 3) and box.classes_.tolist() == [0, 1, 2]
    clf = xgb.XGBClassifier()
    clf.load_model(box.save(tmp_path))
    np.testing.assert_allclose(P, clf.predict_proba(ds.X), atol=1e-6)
    assert (box.predict(ds.X) == ds.y).mean() > 0.95


def test_deterministic(mixed, tmp_path):
    ds, encoder, box = mixed
    again = train_xgboost(ds.X, ds.y, encoder, ds.categorical, random_state=0)
    first = box.save(tmp_path / "a").read_bytes()
    assert again.save(tmp_path / "b").read_bytes() == first
    other = train_xgboost(ds.X, ds.y, encoder, ds.categorical, random_state=1)
    assert other.save(tmp_path / "c").read_bytes() != first


def test_save_load_round_trip(mixed, tmp_path):
    ds, encoder, box = mixed
    path = box.save(tmp_path / "run")
    assert path == tmp_path / "run" / MODEL_FILE and path.is_file()
    assert not [p for p in path.parent.iterdir() if p.name != MODEL_FILE]
    loaded = load_xgboost(path, encoder)
    assert loaded.iteration_range == box.iteration_range and loaded.recode == {}
    Z = encoder.transform(ds.X)
    np.testing.assert_array_equal(loaded.predict_proba_encoded(Z), box.predict_proba_encoded(Z))
    json_path = tmp_path / "model.json"
    box.booster.save_model(json_path)
    np.testing.assert_array_equal(load_xgboost(json_path, encoder).predict_proba_encoded(Z),
                                  box.predict_proba_encoded(Z))


def test_small_data_trains_without_early_stopping():
    X = pd.DataFrame({"a": [0.0, 1.0, 2.0, 3.0, 4.0]})
    encoder = TableEncoder().fit(X)
    box = train_xgboost(X, np.array([0, 0, 0, 1, 1]), encoder, (), n_estimators=5)
    assert box.info["early_stopping"] is False and "note" in box.info
    assert box.info["n_trees"] == 5


def test_unfitted_encoder_is_fitted_and_params_override(mixed):
    ds, _, _ = mixed
    encoder = TableEncoder()
    box = train_xgboost(ds.X, ds.y, encoder, ds.categorical, n_estimators=7,
                        early_stopping_rounds=None, max_depth=2)
    assert encoder.categorical_ == ds.categorical
    assert box.info["n_trees"] == 7 and box.booster.num_boosted_rounds() == 7


def test_training_input_errors(mixed):
    ds, encoder, _ = mixed
    with pytest.raises(InputError, match="0 .. k-1"):
        train_xgboost(ds.X, ds.y + 1, encoder, ds.categorical)
    with pytest.raises(InputError, match="integer labels"):
        train_xgboost(ds.X, ds.y.astype(float), encoder, ds.categorical)
    with pytest.raises(InputError, match="one label per row"):
        train_xgboost(ds.X, ds.y[:-1], encoder, ds.categorical)
    with pytest.raises(InputError, match="differ from the encoder"):
        train_xgboost(ds.X, ds.y, encoder, ["size"])


def test_a_nul_in_a_category_is_a_clear_error():
    # XGBoost asserts (a traceback) on a category name holding NUL; we refuse it by name
    frame = pd.DataFrame({"c": pd.Series(["a\x00", "a", "b"] * 10, dtype=object),
                          "x": np.arange(30.0), "t": ["yes", "no"] * 15})
    ds = from_frame(frame, "t")
    with pytest.raises(InputError, match=r"column 'c' has the value 'a\\x00', with a NUL"):
        train_xgboost(ds.X, ds.y, TableEncoder(), ds.categorical)


def test_non_ascii_names_survive_saving(tmp_path):
    # the saved model must name its columns as the data does, not "\u00e2ge"
    frame = mixed_frame().rename(columns={"x": "âge", "colour": "名前"})
    ds = from_frame(frame, "label", positive="yes")
    encoder = TableEncoder().fit(ds.X, ds.categorical)
    box = train_xgboost(ds.X, ds.y, encoder, ds.categorical)
    assert box.iteration_range != (0, 0)   # early stopping: the trees are cut on saving
    loaded = load_xgboost(box.save(tmp_path), encoder)
    assert loaded.booster.feature_names == ["âge", "名前", "size", "w"]
    np.testing.assert_array_equal(loaded.predict(ds.X), box.predict(ds.X))


def test_saved_file_is_plain_xgboost(mixed, tmp_path):
    ds, encoder, box = mixed
    booster = xgb.Booster()
    booster.load_model(box.save(tmp_path))
    config = json.loads(booster.save_config())
    assert config["learner"]["objective"]["name"] == "binary:logistic"
    assert int(booster.attributes()["best_iteration"]) + 1 == box.info["n_trees"]
    assert box.booster.num_boosted_rounds() > box.info["n_trees"]  # early stopping cut it
    assert booster.num_boosted_rounds() == box.info["n_trees"]
    assert booster.feature_names == box.booster.feature_names
    assert booster.feature_types == box.booster.feature_types
    assert _stored_categories(booster) == _stored_categories(box.booster) != {}
    assert booster.attributes().items() >= box.booster.attributes().items()
    again = load_xgboost(box.save(tmp_path / "again"), encoder)
    assert not any("stores no categories" in note for note in again.info.get("notes", []))
    # the file's categories decide the codes: rows of the table lacking one category
    # (so that a fresh encoder numbers the others differently) still predict the same
    (name,) = [booster.feature_names[j] for j, (_, texts) in
               _stored_categories(booster).items() if texts is not None]
    some = ds.X[ds.X[name] != encoder.categories_[name][0]]
    other = load_xgboost(tmp_path / "again" / MODEL_FILE,
                         TableEncoder().fit(some, ds.categorical))
    np.testing.assert_array_equal(other.predict_proba(some), box.predict_proba(some))
    Z = encoder.transform(ds.X)
    frame = xgb.DMatrix(_category_frame(ds.X, encoder), enable_categorical=True)
    # what plain XGBoost predicts from the file, with no iteration range, is the run's model
    np.testing.assert_allclose(booster.predict(frame), box.predict_proba_encoded(Z)[:, 1],
                               rtol=1e-6)


def test_column_names_xgboost_refuses_are_handled(tmp_path):
    """XGBoost rejects '[', ']' and '<' in feature names; training and reloading still work."""
    import numpy as np
    import pandas as pd

    from adapters import TableEncoder, from_frame, load_xgboost, train_xgboost

    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a[1]": rng.normal(size=120), "a(1)": rng.normal(size=120),
                          "x<y": rng.choice(["p", "q"], 120)})
    frame["t"] = np.where(frame["a[1]"] + (frame["x<y"] == "p") > 0.5, "y", "n")
    ds = from_frame(frame, "t")
    enc = TableEncoder().fit(ds.X, ds.categorical)
    box = train_xgboost(ds.X, ds.y, enc, ds.categorical, n_estimators=10)
    path = box.save(tmp_path)
    again = load_xgboost(path, enc)
    assert np.allclose(box.predict_proba(ds.X), again.predict_proba(ds.X))
    # the same table with its columns in another order: each name is still its own column
    swapped = from_frame(frame[["x<y", "a(1)", "a[1]", "t"]], "t")
    other = load_xgboost(path, TableEncoder().fit(swapped.X, swapped.categorical))
    assert np.array_equal(box.predict_proba(ds.X), other.predict_proba(swapped.X))
    assert (box.predict(ds.X) == ds.y).mean() > 0.9


def test_class_names_are_kept_in_the_saved_model(tmp_path):
    ds = load_dataset("breast_cancer")
    enc = TableEncoder().fit(ds.X, ds.categorical)
    named = train_xgboost(ds.X, ds.y, enc, ds.categorical, n_estimators=5,
                          class_names=ds.class_names)
    assert named.class_names == ("benign", "malignant")
    assert load_xgboost(named.save(tmp_path / "named"), enc).class_names == ds.class_names
    plain = train_xgboost(ds.X, ds.y, enc, ds.categorical, n_estimators=5)
    assert plain.class_names is None
    assert load_xgboost(plain.save(tmp_path / "plain"), enc).class_names is None
    for foreign in ("not json", '["one name"]', '{"a": 1}'):  # another tool's attribute
        plain.booster.set_attr(class_names=foreign)
        assert plain.class_names is None
    with pytest.raises(InputError, match="class_names names 3 classes"):
        train_xgboost(ds.X, ds.y, enc, ds.categorical, n_estimators=5,
                      class_names=("a", "b", "c"))


def _nthread(booster) -> str:
    return json.loads(booster.save_config())["learner"]["generic_param"]["nthread"]


def test_small_tables_train_on_one_thread_and_predict_on_every_core(cancer):
    """Threads waiting for each other make a small table's training far slower when
    another job holds a core; the model does not depend on the threads."""
    ds, encoder, box = cancer
    assert box.info["training_threads"] == 1
    assert _nthread(box.booster) == "0"  # XGBoost's "every core"
    everywhere = train_xgboost(ds.X, ds.y, encoder, ds.categorical, n_jobs=None)
    assert everywhere.info["training_threads"] is None
    assert everywhere.booster.save_raw("json") == box.booster.save_raw("json")
    given = train_xgboost(ds.X, ds.y, encoder, ds.categorical, n_jobs=2)
    assert given.info["training_threads"] == 2 and _nthread(given.booster) == "2"


def test_a_model_predicts_a_category_given_in_another_unicode_form_as_its_own():
    # trained on 'café' (one character 'é'); a table writing 'e' and an accent got the
    # prediction of a category the model never saw
    rng = np.random.default_rng(0)
    nfc, nfd = "caf\u00e9", "cafe\u0301"
    drink = rng.choice([nfc, "tea"], 200)
    frame = pd.DataFrame({"drink": drink, "x": rng.normal(size=200)})
    ds = from_frame(frame.assign(t=np.where(drink == nfc, "yes", "no")), "t")
    encoder = TableEncoder().fit(ds.X, ds.categorical)
    box = train_xgboost(ds.X, ds.y, encoder, ds.categorical, n_estimators=10)
    later = ds.X.head(20).assign(drink=ds.X["drink"].head(20).replace(nfc, nfd))
    assert (later["drink"] == nfd).any()
    np.testing.assert_array_equal(box.predict_proba(later), box.predict_proba(ds.X.head(20)))


def _rare_class_table(n=300, rate=0.03, seed=0):
    """A table whose positive class is ``rate`` of the rows, told by one noisy feature."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n, 4)), columns=list("abcd"))
    score = X.a + 0.5 * rng.normal(size=n)
    y = (score > np.quantile(score, 1 - rate)).astype(np.int64).to_numpy()
    return X, y


def test_balanced_class_weight_lets_a_rare_class_be_predicted():
    X, y = _rare_class_table()
    plain = train_xgboost(X, y, TableEncoder(), [], random_state=0)
    assert plain.predict(X).sum() == 0  # outvoted: no row of the 9 positives
    assert "class_weights" not in plain.info
    box = train_xgboost(X, y, TableEncoder(), [], random_state=0, class_weight="balanced")
    predicted = box.predict(X)
    assert predicted[y == 1].mean() > 0.5  # most positives found
    assert box.info["class_weights"] == [1.0, (y == 0).sum() / (y == 1).sum()]
    assert box.info["early_stopping"]


def test_balanced_class_weight_without_early_stopping_and_with_more_classes():
    X, y = _rare_class_table()
    y = np.where(y == 1, 1, 2 * (X.b.to_numpy() > 1.0))  # 249, 9 and 42 rows
    counts = np.bincount(y)
    settings = {"random_state": 0, "early_stopping_rounds": None, "n_estimators": 5}
    plain = train_xgboost(X, y, TableEncoder(), [], **settings)
    assert set(plain.predict(X)) == {0}
    box = train_xgboost(X, y, TableEncoder(), [], class_weight="balanced", **settings)
    assert not box.info["early_stopping"]
    assert box.info["class_weights"] == pytest.approx(list(counts.max() / counts))
    assert set(box.predict(X)) == {0, 1, 2}


@pytest.mark.parametrize("value", ["Balanced", "auto", 1.0, {"a": 1}, np.array(["balanced"])])
def test_an_unknown_class_weight_is_refused_in_one_line(value):
    X, y = _rare_class_table()
    with pytest.raises(InputError, match=r"^class_weight must be None or 'balanced', got "):
        train_xgboost(X, y, TableEncoder(), [], class_weight=value)


def test_class_weight_and_scale_pos_weight_together_are_refused():
    X, y = _rare_class_table()
    with pytest.raises(InputError, match=r"^give class_weight or scale_pos_weight, not both"):
        train_xgboost(X, y, TableEncoder(), [], class_weight="balanced", scale_pos_weight=3.0)
