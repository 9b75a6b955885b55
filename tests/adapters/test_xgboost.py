"""The XGBoost adapter: training, in-place prediction on codes, saving and loading."""
import json
import os
import pickle
import sys
import unicodedata
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import xgboost as xgb

from adapters import (InputError, TableEncoder, dropped_columns_read, from_frame,
                      load_dataset, load_xgboost, restrict_to_model, train_xgboost)
from adapters.columns import written_alike
from adapters.model_file import _stored_categories
from adapters.xgboost_box import MODEL_FILE, XGBoostBlackBox, xgboost_names

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


@pytest.mark.filterwarnings("ignore:.*Saving model in the UBJSON format as default")
def test_a_model_saved_under_any_name_loads_by_its_content(mixed, tmp_path):
    """XGBoost >= 2.1 writes UBJSON for a name other than .json (model.bin, model.model),
    which was refused for its suffix alone; a JSON file an editor saved with a byte-order
    mark was refused as "not JSON"."""
    ds, encoder, box = mixed
    Z = encoder.transform(ds.X)
    for name in ("model.bin", "model.model", "model"):
        box.booster.save_model(tmp_path / name)
        np.testing.assert_array_equal(load_xgboost(tmp_path / name, encoder)
                                      .predict_proba_encoded(Z), box.predict_proba_encoded(Z))
    box.booster.save_model(tmp_path / "model.json")
    (tmp_path / "bom.json").write_bytes(b"\xef\xbb\xbf" + (tmp_path / "model.json").read_bytes())
    np.testing.assert_array_equal(load_xgboost(tmp_path / "bom.json", encoder)
                                  .predict_proba_encoded(Z), box.predict_proba_encoded(Z))
    (tmp_path / "table.csv").write_text("x,colour\n1,red\n")
    with pytest.raises(InputError, match=r"^could not load XGBoost model '.*': not JSON or "
                                         r"UBJSON"):
        load_xgboost(tmp_path / "table.csv", encoder)


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS refuses file names that are "
                                                    "not UTF-8")
def test_a_model_path_of_bytes_that_are_not_utf8_loads(mixed, tmp_path):
    ds, encoder, box = mixed
    Z = encoder.transform(ds.X)
    for suffix in (".ubj", ".json"):
        box.booster.save_model(tmp_path / f"plain{suffix}")
        name = os.fsencode(tmp_path) + b"/mod\xe8le" + suffix.encode()  # Latin-1 bytes
        os.rename(tmp_path / f"plain{suffix}", name)
        loaded = load_xgboost(Path(os.fsdecode(name)), encoder)
        np.testing.assert_array_equal(loaded.predict_proba_encoded(Z),
                                      box.predict_proba_encoded(Z))


def test_a_model_file_that_cannot_be_read_is_refused_in_one_line(mixed, tmp_path, monkeypatch):
    ds, encoder, box = mixed
    path = tmp_path / "locked.ubj"
    box.booster.save_model(path)

    def refuse(self):  # as for a file the user may not read (root reads every file)
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_bytes", refuse)
    with pytest.raises(InputError, match=r"^could not read model file '.*': Permission "
                                         r"denied$"):
        load_xgboost(path, encoder)


def test_user_model_with_other_category_order_and_column_order(tmp_path):
    df = mixed_frame(n=400, seed=3)
    y = (df["label"] == "yes").astype(int).to_numpy()
    X = df[["x", "colour", "size"]].replace({"colour": {"grün": None}})
    theirs = X[["size", "colour", "x"]].astype({
        "colour": pd.CategoricalDtype(["red", "green", "blue"]),       # their own order
        "size": pd.CategoricalDtype(["S", "M", "L"]),
    })
    clf = xgb.XGBClassifier(n_estimators=20, enable_categorical=True).fit(theirs, y)
    clf.save_model(tmp_path / "theirs.json")
    ours = X.astype({"colour": object, "size": object})
    encoder = TableEncoder().fit(ours, ["colour", "size"])
    box = load_xgboost(tmp_path / "theirs.json", encoder)
    assert box.recode and box.column_order.tolist() == [2, 1, 0]
    np.testing.assert_allclose(box.predict_proba(ours), clf.predict_proba(theirs), atol=1e-6)
    assert "notes" not in box.info   # every category known, columns named
    ours.loc[ours.index[:3], "colour"] = "purple"
    unseen = load_xgboost(tmp_path / "theirs.json", TableEncoder().fit(ours, ["colour", "size"]))
    assert unseen.info["notes"] == [
        "column 'colour': the model never saw 'purple'; they are read as missing values "
        "(the branch each split learned for them), where XGBoost's own predict refuses them "
        "or takes them for other categories"]
    missing = ours.assign(colour=ours["colour"].replace({"purple": None}))
    np.testing.assert_allclose(unseen.predict_proba(ours), box.predict_proba(missing))
    # a column none of whose categories the model knows is the wrong data, not unseen values
    renamed = ours.assign(colour=ours["colour"].str.upper())
    with pytest.raises(InputError, match=r"^column 'colour': the model knows none of the "
                                         r"data's categories 'BLUE', 'GREEN', "):
        load_xgboost(tmp_path / "theirs.json", TableEncoder().fit(renamed, ["colour", "size"]))


def test_model_naming_no_columns_is_read_by_position_with_a_note(tmp_path):
    df = mixed_frame(n=200, seed=4)
    X = df[["x"]].assign(z=np.arange(200.0))
    booster = xgb.train({"objective": "binary:logistic"},
                        xgb.DMatrix(X.to_numpy(), label=(df["label"] == "yes").astype(int)), 5)
    booster.save_model(tmp_path / "plain.json")
    box = load_xgboost(tmp_path / "plain.json", TableEncoder().fit(X, []))
    assert box.info["notes"][0] == ("the model names no columns: its columns are read as "
                                    "the data's 'x', 'z', in this order")


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

def test_load_errors(mixed, cancer, tmp_path):
    ds, encoder, box = mixed
    with pytest.raises(InputError, match="^no such model file: .*; give the path of a file "
                       "written by save_model$"):
        load_xgboost(tmp_path / "none.ubj", encoder)
    (tmp_path / "empty.json").write_bytes(b"")  # XGBoost would abort the process
    with pytest.raises(InputError, match=r"^model file .* is empty; give a file written by "):
        load_xgboost(tmp_path / "empty.json", encoder)
    (tmp_path / "old.ubj").write_bytes(b"binf" + bytes(200))  # the old binary format
    with pytest.raises(InputError, match=r"not JSON or UBJSON .* old binary format must be "
                                         r"saved again as \.json or \.ubj$"):
        load_xgboost(tmp_path / "old.ubj", encoder)
    (tmp_path / "pickled.json").write_bytes(pickle.dumps({"a": 1}))  # never unpickled
    with pytest.raises(InputError, match=r"^model file .* is a Python pickle, which is never "
                                         r"loaded \(unpickling runs code\); save the model "):
        load_xgboost(tmp_path / "pickled.json", encoder)
    (tmp_path / "list.json").write_text("[1, 2]")
    with pytest.raises(InputError, match=r"^model file .* holds a JSON array, not a model"):
        load_xgboost(tmp_path / "list.json", encoder)
    (tmp_path / "folder.ubj").mkdir()
    with pytest.raises(InputError, match="is a directory"):
        load_xgboost(tmp_path / "folder.ubj", encoder)
    for model in (box.booster, xgb.XGBClassifier()):  # a TypeError from Path
        with pytest.raises(InputError, match=r"^expected the path of a model file, not a "
                                             r"(Booster|XGBClassifier): save the model with "):
            load_xgboost(model, encoder)
    # seed 1's bytes make XGBoost's own message undecodable (a UnicodeDecodeError)
    for name, content in (("bad.ubj", b"\x00garbage"), ("bad.json", b"{not json"),
                          ("noise.ubj", np.random.default_rng(1).bytes(300))):
        (tmp_path / name).write_bytes(content)
        with pytest.raises(InputError, match="could not load XGBoost model") as info:
            load_xgboost(tmp_path / name, encoder)
        assert "\n" not in str(info.value) and "Stack trace" not in str(info.value)
        assert ".cc:" not in str(info.value)   # XGBoost's time stamp and source line
    with pytest.raises(InputError, match="the model's columns 'mean radius', .* are not in "
                                         "the data"):
        load_xgboost(cancer[2].save(tmp_path / "cancer"), encoder)


def test_model_names_are_matched_one_by_one(tmp_path):
    """A model that escapes only the '[' and ']' XGBoost refuses, and keeps '50%' as
    written, was refused ("'dose%5Bmg%5D' are not in the data"); one that reads fewer
    columns under other names got "the model has 1 columns, the data 2"."""
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"dose[mg]": rng.uniform(0, 10, 200), "50%": rng.uniform(size=200)})
    y = (frame["dose[mg]"] > 5).astype(int)
    model = xgb.XGBClassifier(n_estimators=5).fit(
        frame.set_axis(["dose%5Bmg%5D", "50%"], axis=1), y)
    model.save_model(tmp_path / "m.json")
    encoder = TableEncoder().fit(frame)
    box = load_xgboost(tmp_path / "m.json", encoder)
    np.testing.assert_array_equal(box.predict(frame), model.predict(
        frame.set_axis(["dose%5Bmg%5D", "50%"], axis=1)))
    xgb.XGBClassifier(n_estimators=5).fit(frame[["50%"]], y).save_model(tmp_path / "one.json")
    with pytest.raises(InputError, match=r"the model reads 1 of the data's 2 columns, not "
                                         r"'dose\[mg\]'; give the data the model was "
                                         r"trained on \(restrict_to_model\(dataset, path\)"):
        load_xgboost(tmp_path / "one.json", encoder)
    clash = pd.DataFrame({"a[1]": frame["50%"], "a%5B1%5D": frame["50%"]})
    xgb.XGBClassifier(n_estimators=5).fit(clash.set_axis(["a%5B1%5D", "b"], axis=1), y
                                         ).save_model(tmp_path / "clash.json")
    with pytest.raises(InputError, match="is both the table's column of that name and "
                                         "'a\\[1\\]' as written for XGBoost"):
        load_xgboost(tmp_path / "clash.json", TableEncoder().fit(clash))


def test_early_stopping_in_the_file_is_said(tmp_path):
    """A model file that records early stopping is explained with its best trees, as
    XGBClassifier reads it; Booster.predict would use all of them, so a note says which."""
    ds = load_dataset("breast_cancer")
    encoder = TableEncoder().fit(ds.X, ds.categorical)
    train = xgb.DMatrix(ds.X, label=ds.y)
    booster = xgb.train({"objective": "binary:logistic", "max_depth": 2}, train, 30,
                        evals=[(xgb.DMatrix(ds.X, label=1 - ds.y), "flipped")],
                        early_stopping_rounds=2, verbose_eval=False)
    booster.save_model(tmp_path / "es.json")
    best = int(booster.attributes()["best_iteration"])
    assert best + 1 < booster.num_boosted_rounds()
    box = load_xgboost(tmp_path / "es.json", encoder)
    assert box.info["n_trees"] == best + 1
    assert any(f"its first {best + 1} of {booster.num_boosted_rounds()} trees are explained"
               in note for note in box.info["notes"])


def test_a_multi_softmax_model_gives_its_softprob_twin_s_probabilities(iris, tmp_path):
    """multi:softmax was refused ("does not give class probabilities"): the softmax of its
    margins is what the same trees give under multi:softprob, and its labels its predict."""
    ds, encoder, _ = iris
    boxes = []
    for objective in ("multi:softmax", "multi:softprob"):
        model = xgb.XGBClassifier(n_estimators=10, max_depth=2, objective=objective)
        model.fit(ds.X, ds.y).save_model(tmp_path / "m.ubj")
        boxes.append(load_xgboost(tmp_path / "m.ubj", encoder))
        np.testing.assert_array_equal(boxes[-1].predict(ds.X), model.predict(ds.X))
    np.testing.assert_allclose(boxes[0].predict_proba(ds.X), boxes[1].predict_proba(ds.X),
                               rtol=0, atol=1e-6)
    saved = load_xgboost(boxes[0].save(tmp_path / "run"), encoder)
    np.testing.assert_array_equal(saved.predict_proba(ds.X), boxes[0].predict_proba(ds.X))


def test_a_reg_logistic_model_gives_the_probability_of_class_1(mixed, tmp_path):
    """reg:logistic on 0/1 labels (xgb.train's, or XGBRegressor's) was refused as giving no
    class probabilities: it gives binary:logistic's."""
    ds, _, _ = mixed
    numeric = ds.X[["x"]].assign(w=ds.X["w"])
    model = xgb.XGBRegressor(n_estimators=10, max_depth=2, objective="reg:logistic")
    model.fit(numeric, ds.y).save_model(tmp_path / "reg.ubj")
    box = load_xgboost(tmp_path / "reg.ubj", TableEncoder().fit(numeric))
    p = model.predict(numeric)
    np.testing.assert_allclose(box.predict_proba(numeric), np.column_stack([1 - p, p]),
                               rtol=0, atol=1e-6)
    np.testing.assert_array_equal(box.predict(numeric), (p > 0.5).astype(int))
    assert 0 < box.predict(numeric).mean() < 1


def test_a_binary_hinge_model_is_explained_through_the_scores_of_its_labels(mixed, tmp_path):
    """binary:hinge gives labels (0, 1): its scores, through the logistic function, give
    them again; binary:logitraw's scores have no threshold all readers share: refused."""
    ds, _, _ = mixed
    numeric = ds.X[["x"]].assign(w=ds.X["w"])
    encoder = TableEncoder().fit(numeric)
    model = xgb.XGBClassifier(n_estimators=10, max_depth=2, objective="binary:hinge")
    model.fit(numeric, ds.y).save_model(tmp_path / "hinge.ubj")
    box = load_xgboost(tmp_path / "hinge.ubj", encoder)
    np.testing.assert_array_equal(box.predict(numeric), model.predict(numeric))
    score = model.get_booster().inplace_predict(numeric, predict_type="margin")
    np.testing.assert_allclose(box.predict_proba(numeric)[:, 1], 1 / (1 + np.exp(-score)),
                               rtol=0, atol=1e-6)
    assert any("binary:hinge gives labels, not probabilities" in n for n in box.info["notes"])
    model.set_params(objective="binary:logitraw").fit(numeric, ds.y)
    model.save_model(tmp_path / "raw.ubj")
    with pytest.raises(InputError, match=r"objective 'binary:logitraw' does not give class "
                                         r"probabilities \(nor scores with one threshold: "):
        load_xgboost(tmp_path / "raw.ubj", encoder)


def test_a_gblinear_model_is_explained_with_its_whole_linear_model(tmp_path):
    """A gblinear model has no in-place prediction (XGBoostError, a traceback); early
    stopping's best round does not cut a linear model, which predicts with every round."""
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.normal(size=300), "b": rng.normal(size=300)})
    y = (frame.a - frame.b > 0).astype(int)
    model = xgb.XGBClassifier(n_estimators=30, booster="gblinear", early_stopping_rounds=2)
    model.fit(frame[:200], y[:200], eval_set=[(frame[200:], 1 - y[200:])], verbose=False)
    assert int(model.get_booster().attr("best_iteration")) + 1 < 30
    model.save_model(tmp_path / "linear.json")
    encoder = TableEncoder().fit(frame)
    box = load_xgboost(tmp_path / "linear.json", encoder)
    np.testing.assert_allclose(box.predict_proba(frame), model.predict_proba(frame),
                               rtol=0, atol=1e-6)
    np.testing.assert_array_equal(box.predict(frame), model.predict(frame))
    assert box.iteration_range == (0, 0) and "notes" not in box.info
    saved = load_xgboost(box.save(tmp_path / "run"), encoder)
    np.testing.assert_array_equal(saved.predict_proba_encoded(encoder.transform(frame)),
                                  box.predict_proba(frame))


def test_load_refuses_non_probabilistic_and_mismatched_models(mixed, tmp_path):
    ds, encoder, box = mixed
    numeric = ds.X[["x"]].assign(w=ds.X["w"])
    reg = xgb.XGBRegressor(n_estimators=3).fit(numeric, ds.y)
    reg.save_model(tmp_path / "reg.json")
    with pytest.raises(InputError, match="objective 'reg:squarederror'"):
        load_xgboost(tmp_path / "reg.json", TableEncoder().fit(numeric))
    path = box.save(tmp_path)
    renamed = ds.X.rename(columns={"w": "weight"})
    with pytest.raises(InputError, match="'w' are not in the data; give the data"):
        load_xgboost(path, TableEncoder().fit(renamed, ds.categorical))
    cased = ds.X.rename(columns={"w": "W", "x": "X"})   # an export that changed their case
    with pytest.raises(InputError, match=r"^the model's columns 'x', 'w' are not in the data "
                                         r"\(the data names 'X' for 'x', 'W' for 'w': rename "
                                         r"its columns as the model names them\); give the "):
        load_xgboost(path, TableEncoder().fit(cased, ds.categorical))
    with pytest.raises(InputError, match=r"read columns 'size' \(categories in the model, "
                                         r"numbers in the data\) differently"):
        load_xgboost(path, TableEncoder().fit(ds.X, ["colour"]))


def test_a_model_trained_on_a_bool_column_reads_the_datasets_false_true(tmp_path):
    # pandas reads True/False as bool, XGBoost keeps it as a 0/1 number, the dataset as
    # the categories 'False' < 'True' (codes 0, 1): the same values
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.normal(size=400), "flag": rng.random(400) < 0.4})
    df["y"] = ((df.x + df.flag) > 0.8).astype(int)
    model = xgb.XGBClassifier(n_estimators=20).fit(df[["x", "flag"]], df.y)
    model.save_model(tmp_path / "bool.ubj")
    path = tmp_path / "flags.csv"
    df.to_csv(path, index=False)
    ds = load_dataset(path, target="y")
    assert ds.categorical == ("flag",)
    box = load_xgboost(tmp_path / "bool.ubj", TableEncoder().fit(ds.X, ds.categorical))
    assert (box.predict(ds.X) == model.predict(df[["x", "flag"]])).all()


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


def _without_stored_categories(path):
    """The model at ``path`` saved again as XGBoost < 3.1 saved it (no category strings),
    as ``old.json`` beside it."""
    saved = json.loads(bytes(xgb.Booster(model_file=path).save_raw(raw_format="json")))
    del saved["learner"]["gradient_booster"]["model"]["cats"]
    (path.parent / "old.json").write_text(json.dumps(saved))
    return path.parent / "old.json"


def test_a_model_without_stored_categories_says_what_it_assumes(tmp_path):
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.normal(size=300),
                       "job": pd.Categorical(rng.choice(["b", "a", "c"], 300))})
    df["y"] = ((df.x > 0) | (df.job == "a")).astype(int)
    model = xgb.XGBClassifier(n_estimators=5, enable_categorical=True)
    model.fit(df[["x", "job"]], df.y).save_model(tmp_path / "new.json")
    ds = from_frame(df.assign(job=df.job.astype(str)), "y")
    box = load_xgboost(_without_stored_categories(tmp_path / "new.json"),
                       TableEncoder().fit(ds.X, ds.categorical))
    assert box.info["notes"] == [
        "column 'job': the model stores no categories (saved by XGBoost before 3.1); its "
        "codes are taken as the data's sorted categories 'a', 'b', 'c'"]


def test_a_user_s_model_without_stored_categories_codes_numbers_in_numeric_order(tmp_path):
    """pandas codes a category of the numbers 2, 10, 33 in that order; the data's sorted
    text ('10', '2', '33') was assumed, and the model explained as another one (242 of 400
    labels differed). A model trained here coded the encoder's text order, and keeps it."""
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"zone": rng.choice([2, 10, 33], 400), "x": rng.normal(size=400)})
    frame["y"] = ((frame.zone == 10) ^ (frame.x > 0.5)).astype(int)
    frame.to_csv(tmp_path / "zone.csv", index=False)
    theirs = frame[["zone", "x"]].astype({"zone": "category"})
    model = xgb.XGBClassifier(n_estimators=10, enable_categorical=True).fit(theirs, frame.y)
    model.save_model(tmp_path / "new.json")
    old = _without_stored_categories(tmp_path / "new.json")
    ds = restrict_to_model(load_dataset(tmp_path / "zone.csv", target="y"), old)
    box = load_xgboost(old, TableEncoder().fit(ds.X, ds.categorical))
    np.testing.assert_array_equal(box.predict(ds.X), model.predict(theirs))
    assert ("column 'zone': the model stores no categories (saved by XGBoost before 3.1); its "
            "codes are taken as the data's categories in numeric order '2', '10', '33'"
            in box.info["notes"])
    here = from_frame(frame.astype({"zone": "category"}), "y")
    encoder = TableEncoder().fit(here.X, here.categorical)
    trained = train_xgboost(here.X, here.y, encoder, here.categorical, n_estimators=10,
                            class_names=here.class_names)
    again = load_xgboost(_without_stored_categories(trained.save(tmp_path / "run")), encoder)
    assert again.recode == {}
    np.testing.assert_array_equal(again.predict_proba(here.X), trained.predict_proba(here.X))


def test_a_model_of_some_columns_keeps_the_table_to_them(tmp_path):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"id": np.arange(200.0), "a[1]": rng.normal(size=200),
                          "c": rng.choice(["u", "v"], 200), "y": rng.integers(0, 2, 200)})
    ds = from_frame(frame, "y")
    # XGBoost refuses brackets: the column is named as train_xgboost names it
    model = xgb.XGBClassifier(n_estimators=3, enable_categorical=True).fit(
        pd.DataFrame({"a%5B1%5D": frame["a[1]"], "c": frame["c"].astype("category")}), ds.y)
    model.save_model(tmp_path / "m.ubj")
    kept = restrict_to_model(ds, tmp_path / "m.ubj")
    assert list(kept.X.columns) == ["a[1]", "c"] and kept.categorical == ("c",)
    assert kept.notes[-1] == ("the model reads 2 of the table's 3 columns: 'id' left out "
                              "of the explanation")
    # reading the table called it a possible row ID "used as a feature": no longer said
    assert any(n.startswith("column 'id' holds a different whole number") for n in ds.notes)
    assert not any(n.startswith("column 'id'") for n in kept.notes)
    box = load_xgboost(tmp_path / "m.ubj", TableEncoder().fit(kept.X, kept.categorical))
    assert np.array_equal(box.predict(kept.X), model.predict(
        pd.DataFrame({"a%5B1%5D": frame["a[1]"], "c": frame["c"].astype("category")})))
    # a column literally named as another is written for XGBoost: which one is meant?
    clash = from_frame(frame.assign(**{"a%5B1%5D": 1.0 + frame["a[1]"]}), "y")
    with pytest.raises(InputError, match=r"column 'a%5B1%5D' is both the table's column of "
                                         r"that name and 'a\[1\]'"):
        restrict_to_model(clash, tmp_path / "m.ubj")
    # a run's own model (it names its classes) writes every column for XGBoost: no clash
    enc = TableEncoder().fit(clash.X, clash.categorical)
    box = train_xgboost(clash.X, clash.y, enc, clash.categorical, n_estimators=3,
                        class_names=clash.class_names)
    path = box.save(tmp_path)
    assert restrict_to_model(clash, path) is clash  # every column read, none ambiguous
    assert np.array_equal(load_xgboost(path, enc).predict(clash.X), box.predict(clash.X))
    # a model of other columns, or of all of them: unchanged, load_xgboost says what is wrong
    other = xgb.XGBClassifier(n_estimators=3).fit(pd.DataFrame({"w": frame["id"]}), ds.y)
    other.save_model(tmp_path / "w.ubj")
    assert restrict_to_model(ds, tmp_path / "w.ubj") is ds
    with pytest.raises(InputError, match="no such model file"):
        restrict_to_model(ds, tmp_path / "none.ubj")


def test_a_model_trained_with_a_missing_sentinel_reads_it_as_missing(tmp_path):
    # XGBoost does not save `missing`: -999 in the table is a value to the loaded model
    # unless the table marks it missing (load_dataset(missing=...), --missing)
    rng = np.random.default_rng(1)
    x = rng.normal(size=400)
    x[rng.random(400) < 0.3] = -999.0
    frame = pd.DataFrame({"x": x, "z": rng.normal(size=400)})
    frame["y"] = np.where(x == -999.0, 1, (x > 0.5).astype(int))
    model = xgb.XGBClassifier(n_estimators=20, missing=-999.0).fit(frame[["x", "z"]], frame.y)
    model.save_model(tmp_path / "m.ubj")
    frame.to_csv(tmp_path / "t.csv", index=False)
    expected = model.predict(frame[["x", "z"]])
    for missing, same in (((), False), (("-999",), True)):
        ds = load_dataset(tmp_path / "t.csv", target="y", missing=missing)
        box = load_xgboost(tmp_path / "m.ubj", TableEncoder().fit(ds.X, ds.categorical))
        assert np.array_equal(box.predict(ds.X), expected) == same
    n = int((x == -999.0).sum())
    assert f"column 'x': {n} values '-999' read as missing, as asked" in ds.notes


def test_a_model_column_dropped_while_reading_the_table_is_named(tmp_path):
    # it said "the model has 2 columns, the data 3"
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.normal(size=100), "k": 7.0, "z": rng.normal(size=100),
                          "y": rng.integers(0, 2, 100)})
    model = xgb.XGBClassifier(n_estimators=2).fit(frame[["a", "k"]], frame.y)
    model.save_model(tmp_path / "m.ubj")
    for table in (frame, frame[["a", "k", "y"]]):
        with pytest.raises(InputError, match=r"the model reads columns the table's reading "
                                             r"dropped \(dropped column 'k': a single value"):
            restrict_to_model(from_frame(table, "y"), tmp_path / "m.ubj")
    # dropped as asked: said so, not "not in the data"
    with pytest.raises(InputError, match=r"^the model reads 'a', which you asked to drop "
                                         r"\(--drop on the command line, drop= in Python\)"):
        restrict_to_model(from_frame(frame, "y", drop=["a"], keep=["k"]), tmp_path / "m.ubj")
    # named, to keep: then the model is explained on them
    assert dropped_columns_read(from_frame(frame, "y"), tmp_path / "m.ubj") == ["k"]
    kept = restrict_to_model(from_frame(frame, "y", keep=["k"]), tmp_path / "m.ubj")
    assert list(kept.X.columns) == ["a", "k"]
    box = load_xgboost(tmp_path / "m.ubj", TableEncoder().fit(kept.X, kept.categorical))
    np.testing.assert_array_equal(box.predict(kept.X), model.predict(frame[["a", "k"]]))


def test_dropped_columns_read_match_names_written_for_xgboost(tmp_path):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.normal(size=60), "dose[mg]": 5.0, "y": [0, 1] * 30})
    X = frame[["a", "dose[mg]"]].set_axis(xgboost_names(["a", "dose[mg]"]), axis=1)
    xgb.XGBClassifier(n_estimators=2).fit(X, frame.y).save_model(tmp_path / "m.ubj")
    assert dropped_columns_read(from_frame(frame, "y"), tmp_path / "m.ubj") == ["dose[mg]"]
    assert dropped_columns_read(from_frame(frame, "y", keep="dose[mg]"),
                                tmp_path / "m.ubj") == []
    with pytest.raises(InputError, match=r"the model reads columns the table's reading "
                                         r"dropped \(dropped column 'dose\[mg\]': a single"):
        restrict_to_model(from_frame(frame, "y"), tmp_path / "m.ubj")


def _user_model(tmp_path, categories, name="m.ubj"):
    """A model of column ``c`` trained on pandas categories in the order ``categories``,
    its predictions on its own rows, and those rows as the table's reading gives them."""
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.normal(size=300), "c": rng.choice(categories, 300)})
    y = ((df.x + 2 * (df.c == categories[0])) > 1).astype(int)
    theirs = df.astype({"c": pd.CategoricalDtype(categories)})
    model = xgb.XGBClassifier(n_estimators=10, enable_categorical=True).fit(theirs, y)
    model.save_model(tmp_path / name)
    ds = from_frame(df.assign(y=y), "y")
    return model.predict(theirs), ds, tmp_path / name


def test_categories_stored_with_spaces_are_the_stripped_ones(tmp_path):
    expected, ds, path = _user_model(tmp_path, [" Self", " Private", " Gov"])
    assert ds.X["c"].iloc[0] == ds.X["c"].iloc[0].strip()  # the reading strips them
    box = load_xgboost(path, TableEncoder().fit(ds.X, ds.categorical))
    np.testing.assert_array_equal(box.predict(ds.X), expected)
    assert box.info["notes"] == ["column 'c': the model stores ' Gov', ' Private', ' Self' "
                                 "with spaces around them, which reading the table removed; "
                                 "read as the same categories"]


def test_non_ascii_categories_in_the_model_s_own_order_are_matched(tmp_path):
    expected, ds, path = _user_model(tmp_path, ["zürich", "bern", "genève"])
    box = load_xgboost(path, TableEncoder().fit(ds.X, ds.categorical))
    np.testing.assert_array_equal(box.predict(ds.X), expected)
    # too little is stored to pair them, and not in sorted order: refused
    _, ds, path = _user_model(tmp_path, ["ö", "ä", "ü"], "short.ubj")
    with pytest.raises(InputError, match="stored cut short .* not the data's 'ä', 'ö', 'ü' "
                                         "in sorted order"):
        load_xgboost(path, TableEncoder().fit(ds.X, ds.categorical))


def test_categories_the_model_stores_in_a_mixed_unicode_form_are_matched(tmp_path):
    # trained on 'ê' and a dot below: the data's composed 'ệ' (one character) and its
    # decomposed form are both another length than the model's, and fitted neither
    mixed = ["vi\u00ea\u0323t", "bern", "gen\u00e8ve", "h\u00e0 n\u00f4i"]
    expected, ds, path = _user_model(tmp_path, mixed)
    for form in ("NFC", "NFD"):
        X = ds.X.assign(c=ds.X["c"].map(lambda v: unicodedata.normalize(form, v)))
        assert "vi\u00ea\u0323t" not in set(X["c"])
        box = load_xgboost(path, TableEncoder().fit(X, ds.categorical))
        np.testing.assert_array_equal(box.predict(X), expected)


def test_written_alike_finds_a_text_cut_short_in_each_of_its_unicode_forms():
    texts = ["vi\u1ec7t", "\u1ec7", "gen\u00e8ve", "\ud55c\uad6d\uc5b4", "bern", "\u00f6"]
    for text in texts:
        nfc = unicodedata.normalize("NFC", text)
        stored_forms = {nfc, unicodedata.normalize("NFD", text),
                        nfc.replace("\u1ec7", "\u00ea\u0323")}
        for stored in stored_forms:  # as XGBoost keeps it: len(stored) bytes of its UTF-8
            start = stored.encode()[:len(stored)].decode("utf-8", errors="ignore")
            for other in texts:
                forms = {unicodedata.normalize(f, other) for f in ("NFC", "NFD")}
                fits = {written_alike(form, start, len(stored)) for form in forms}
                if unicodedata.normalize("NFC", other) == nfc:
                    assert fits == {True}
                elif len(start) > 1:  # a stored start of a letter or none tells little
                    assert fits == {False}


def test_non_ascii_categories_the_data_lacks_some_of_are_matched(tmp_path):
    # a sample without the model's rare category: "column 'c' has 2 categories in the
    # data but 3 in the model", although the stored parts pair the two it has; one with a
    # category the model never saw: "has 4 categories in the data but 3 in the model"
    expected, ds, path = _user_model(tmp_path, ["zürich", "bern", "genève"])
    rows = (ds.X["c"] != "bern").to_numpy()
    sample = from_frame(ds.X[rows].assign(y=ds.y[rows]), "y")
    box = load_xgboost(path, TableEncoder().fit(sample.X, sample.categorical))
    np.testing.assert_array_equal(box.predict(sample.X), expected[rows])
    assert any("matched to the data's by their length" in n for n in box.info["notes"])
    # a category it never saw fits none of the model's: read as missing, as an ASCII one is
    X = ds.X.assign(c=ds.X["c"].where(np.arange(len(ds.X)) >= 10, "basel"))
    box = load_xgboost(path, TableEncoder().fit(X, ds.categorical))
    unknown = box.predict(X.assign(c=np.where(X["c"] == "basel", np.nan, X["c"])))
    np.testing.assert_array_equal(box.predict(X), unknown)
    np.testing.assert_array_equal(box.predict(X)[10:], expected[10:])
    assert any("the model never saw 'basel'; they are read as missing" in n
               for n in box.info["notes"])
    # too little is stored to tell which of the model's the one left is: refused
    _, ds, path = _user_model(tmp_path, ["ö", "ä", "ü"], "short.ubj")
    rows = (ds.X["c"] == "ö").to_numpy()
    with pytest.raises(InputError, match="has 1 categories in the data but 3 in the model"):
        load_xgboost(path, TableEncoder().fit(ds.X[rows], ds.categorical))


def test_a_category_the_table_reads_as_missing_is_noted(tmp_path):
    _, ds, path = _user_model(tmp_path, ["?", "a", "b"])
    box = load_xgboost(path, TableEncoder().fit(ds.X, ds.categorical))
    assert any("the model knows '?' as categories" in n for n in box.info["notes"])


def test_a_model_without_names_and_another_count_of_columns_is_refused_with_the_fix(tmp_path):
    # a model fitted on an array: its columns are matched by position, so a count that
    # differs is refused; with more columns in the data, the way out is named
    rng = np.random.default_rng(0)
    x = rng.normal(size=(60, 2))
    y = (x[:, 0] > 0).astype(int)
    xgb.XGBClassifier(n_estimators=2).fit(x[:, :1], y).save_model(tmp_path / "one.ubj")
    wide = pd.DataFrame({"a": x[:, 0], "b": x[:, 1]})
    with pytest.raises(InputError, match=r"the model has 1 column, the data 2; .*--drop"):
        load_xgboost(tmp_path / "one.ubj", TableEncoder().fit(wide, []))
    xgb.XGBClassifier(n_estimators=2).fit(x, y).save_model(tmp_path / "two.ubj")
    with pytest.raises(InputError, match=r"the model has 2 columns, the data 1; give the "
                                         r"data the model was trained on, its columns in "
                                         r"order$"):
        load_xgboost(tmp_path / "two.ubj", TableEncoder().fit(wide[["a"]], []))


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


def test_numbers_the_model_reads_as_categories_are_read_as_its_categories(tmp_path):
    # a zip code trained as a pandas category of integers; the CSV holds numbers
    rng = np.random.default_rng(5)
    frame = pd.DataFrame({"zip": rng.choice([75001, 69002, 6000], 300),
                          "age": rng.integers(18, 80, 300).astype(float)})
    frame["y"] = ((frame.zip == 75001) ^ (frame.age > 50)).astype(int)
    theirs = frame[["zip", "age"]].astype({"zip": "category"})
    clf = xgb.XGBClassifier(n_estimators=10, enable_categorical=True).fit(theirs, frame.y)
    clf.save_model(tmp_path / "zip.json")
    ds = restrict_to_model(from_frame(frame, "y"), tmp_path / "zip.json")
    assert ds.categorical == ("zip",) and set(ds.X["zip"]) == {"75001", "69002", "6000"}
    assert ("columns 'zip' hold numbers in the table and categories in the model: read as "
            "categories, as the model reads them") in ds.notes
    box = load_xgboost(tmp_path / "zip.json", TableEncoder().fit(ds.X, ds.categorical))
    np.testing.assert_allclose(box.predict_proba(ds.X), clf.predict_proba(theirs), atol=1e-6)
    # numbers none of which is one of its categories stay numbers, and are refused
    other = frame.assign(zip=frame.zip + 1)
    ds = restrict_to_model(from_frame(other, "y"), tmp_path / "zip.json")
    assert ds.categorical == ()
    with pytest.raises(InputError, match="categories in the model, numbers in the data"):
        load_xgboost(tmp_path / "zip.json", TableEncoder().fit(ds.X, ds.categorical))


def test_codes_whose_zeros_reading_the_csv_dropped_are_the_model_s_categories(tmp_path):
    """Zip codes trained as the categories '02139', '07030'; the CSV's reading takes them
    for the numbers 2139, 7030. The model was refused (no number is one of its categories)
    or, beside a category of no zero ('10001'), read the others as unseen: missing."""
    rng = np.random.default_rng(2)
    zips = ["02139", "07030", "10001"]
    frame = pd.DataFrame({"zip": rng.choice(zips, 300), "age": rng.integers(18, 80, 300)})
    frame["y"] = ((frame.zip == "02139") ^ (frame.age > 50)).astype(int)
    for known in (zips, zips[:2]):
        rows = frame[frame.zip.isin(known)].reset_index(drop=True)
        rows.to_csv(tmp_path / "zip.csv", index=False)
        theirs = rows[["zip", "age"]].astype({"zip": "category"})
        clf = xgb.XGBClassifier(n_estimators=10, enable_categorical=True).fit(theirs, rows.y)
        clf.save_model(tmp_path / "zip.json")
        read = load_dataset(tmp_path / "zip.csv", target="y")
        assert read.categorical == () and any("leading zeros" in n for n in read.notes)
        ds = restrict_to_model(read, tmp_path / "zip.json")
        assert ds.categorical == ("zip",) and set(ds.X["zip"]) == set(known)
        assert (f"column 'zip': the numbers '2139', '7030' read as the model's categories "
                f"'02139', '07030', the same numbers written otherwise") in ds.notes
        assert not any("leading zeros" in n for n in ds.notes)  # its advice is moot
        box = load_xgboost(tmp_path / "zip.json", TableEncoder().fit(ds.X, ds.categorical))
        np.testing.assert_array_equal(box.predict(ds.X), clf.predict(theirs))


def test_integer_categories_with_a_missing_value_match_the_model(tmp_path):
    # the reading once wrote them '10.0': the model, knowing 10, was refused
    rng = np.random.default_rng(0)
    c = pd.Series(rng.choice([10, 20, 30], 300), dtype=object)
    c[::7] = None
    theirs = pd.DataFrame({"x": rng.normal(size=300), "c": c.astype("category")})
    y = ((theirs.x + 2 * (theirs.c == 10)) > 1).astype(int)
    model = xgb.XGBClassifier(n_estimators=10, enable_categorical=True).fit(theirs, y)
    model.save_model(tmp_path / "m.ubj")
    ds = from_frame(theirs.assign(y=y), "y")
    box = load_xgboost(tmp_path / "m.ubj", TableEncoder().fit(ds.X, ds.categorical))
    np.testing.assert_array_equal(box.predict(ds.X), model.predict(theirs))


def test_model_trained_on_a_csv_whose_header_has_spaces_reads_its_columns(tmp_path):
    # reading the CSV removes the spaces around ' age' (with a note), while a model trained
    # on pd.read_csv's frame names the column ' age': it was refused as reading a column
    # "not in the data", with no way out on the command line
    rng = np.random.default_rng(5)
    frame = pd.DataFrame({" age": rng.integers(18, 80, 200).astype(float),
                          "income ": rng.normal(50, 15, 200), "id": np.arange(200.0)})
    frame["label"] = np.where(frame[" age"] + frame["income "] > 95, "yes", "no")
    frame.to_csv(tmp_path / "t.csv", index=False)
    raw = pd.read_csv(tmp_path / "t.csv")
    assert list(raw.columns[:2]) == [" age", "income "]
    clf = xgb.XGBClassifier(n_estimators=10).fit(raw[[" age", "income "]], raw.label == "yes")
    clf.save_model(tmp_path / "m.json")
    ds = restrict_to_model(load_dataset(tmp_path / "t.csv", target="label"), tmp_path / "m.json")
    assert list(ds.X.columns) == ["age", "income"]  # 'id' left out: the model does not read it
    box = load_xgboost(tmp_path / "m.json", TableEncoder().fit(ds.X, ds.categorical))
    np.testing.assert_allclose(box.predict_proba(ds.X),
                               clf.predict_proba(raw[[" age", "income "]]), atol=1e-6)
    assert ("the model names columns ' age', 'income ' with the spaces around them that "
            "reading the table removed: read as the same columns") in box.info["notes"]


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


@pytest.mark.parametrize("trained, read", [("NFD", "NFC"), ("NFC", "NFD")])
def test_a_model_s_non_ascii_categories_match_the_data_s_in_another_unicode_form(
        tmp_path, trained, read):
    # a model trained elsewhere on 'zu' + an umlaut mark, the data writing 'ü': refused as
    # "not the data's ... in sorted order"
    import unicodedata
    expected, ds, path = _user_model(
        tmp_path, [unicodedata.normalize(trained, c) for c in ["zürich", "bern", "genève"]])
    X = ds.X.assign(c=[unicodedata.normalize(read, v) for v in ds.X["c"]])
    box = load_xgboost(path, TableEncoder().fit(X, ds.categorical))
    np.testing.assert_array_equal(box.predict(X), expected)


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
