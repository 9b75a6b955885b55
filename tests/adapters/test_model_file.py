"""Reading a saved XGBoost model file: its format, objective, columns and categories."""
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
from adapters.xgboost_box import xgboost_names

from .conftest import mixed_frame


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
