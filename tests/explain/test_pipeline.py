"""The whole pipeline on real components: XGBoost, lime, RC2 and SWI-Prolog."""

import math
import warnings
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from adapters import InputError, from_frame, load_dataset
from explain.learners import FOLD_DEFAULTS, fit_learner
from explain.lime_runner import LimeConfig
from explain.pipeline import (RunConfig, _copies_note, _unseen_categories_note,
                              run_pipeline)
from fold import FOLDClassifier

FAST_LIME = LimeConfig(num_samples=300, top_k=5, n_jobs=1)
FAST_IMLI = {"time_limit": 5.0}


@pytest.fixture(scope="module")
def breast_cancer_run(tmp_path_factory):
    config = RunConfig(lime=FAST_LIME, imli_params=FAST_IMLI)
    return run_pipeline(load_dataset("breast_cancer"), config,
                        cache_dir=tmp_path_factory.mktemp("cache"))


def test_report_has_the_design_fields(breast_cancer_run):
    report = breast_cancer_run.report
    assert report["dataset"]["name"] == "breast_cancer"
    assert report["dataset"]["rows"] == 569 and report["dataset"]["features"] == 30
    assert report["black_box"]["kind"] == "xgboost"
    assert report["lime"]["rows_explained"] == 569 and report["lime"]["top_k"] == 5
    assert report["lime"]["rows_from_cache"] == 0  # a fresh cache directory
    for name in ("imli", "fold"):
        entry = report["learners"][name]
        for key in ("fidelity_test", "fidelity_train", "accuracy_test", "rule_size",
                    "n_rules", "fit_seconds", "rules", "fidelity_test_lime"):
            assert key in entry, (name, key)
        assert 0.0 <= entry["fidelity_test"] <= 1.0
        assert entry["rule_size"] >= 1 and entry["rules"]
    assert isinstance(report["learners"]["imli"]["optimal"], bool)


def test_surrogates_are_faithful_on_breast_cancer(breast_cancer_run):
    report = breast_cancer_run.report
    assert report["black_box"]["accuracy_test"] >= 0.9
    assert report["learners"]["fold"]["fidelity_test"] >= 0.85
    assert report["learners"]["imli"]["fidelity_test"] >= 0.85


def test_views_follow_the_lime_selection(breast_cancer_run):
    result = breast_cancer_run
    table = result.views["fold"]["train_lime"]
    # each training row keeps at most top_k known features
    assert (table.notna().sum(axis=1) <= 5).all()
    binary = result.views["imli"]["train_lime"]
    assert binary.shape[0] == table.shape[0]
    # the raw test view knows every feature
    assert result.views["fold"]["test"].notna().all().all()


def test_fold_program_in_prolog_equals_python(breast_cancer_run):
    learner = breast_cancer_run.learners["fold"].estimator
    X = breast_cancer_run.views["fold"]["test"]
    assert np.array_equal(learner.predict(X), learner.predict_python(X))


def test_how_lime_ran_is_recorded_apart_from_the_parameters(breast_cancer_run):
    # workers, batches and memory decide how the rows are explained, not the result: two runs
    # that differ only in them have the same parameters (report.json is the same but for
    # timings and the environment)
    one = RunConfig(lime=LimeConfig(n_jobs=1))
    other = RunConfig(lime=LimeConfig(n_jobs=2, batch_size=7, memory_budget_mb=64.0))
    assert one.to_dict() == other.to_dict()
    assert not {"n_jobs", "batch_size", "memory_budget_mb", "scheduler"} & set(
        one.to_dict()["lime"])
    report = breast_cancer_run.report
    assert report["environment"]["lime_execution"] == {
        "n_jobs": 1, "batch_size": None, "memory_budget_mb": 256.0}


def test_without_lime_filtering_no_row_is_explained():
    config = RunConfig(lime=FAST_LIME, imli_params=FAST_IMLI, train_view="raw",
                       learners=("fold",))
    report = run_pipeline(load_dataset("breast_cancer"), config).report
    assert report["lime"]["rows_explained"] == 0
    assert "fidelity_test_lime" not in report["learners"]["fold"]
    assert report["parameters"]["imli_params"] == {}  # IMLI did not run
    # no LIME setting applied but the bins (IMLI's thresholds)
    assert report["parameters"]["lime"] == {"discretizer": "entropy"}
    assert (report["lime"]["top_k"], report["lime"]["engine"]) == (None, None)
    assert report["learners"]["fold"]["fidelity_test"] >= 0.85


def test_mixed_table_with_missing_values():
    rng = np.random.default_rng(0)
    n = 240
    age = rng.integers(18, 80, n).astype(float)
    city = rng.choice(["paris", "lyon", "nice"], n).astype(object)
    income = rng.normal(50, 15, n)
    label = np.where((age > 45) & (city != "nice") | (income > 70), "yes", "no")
    age[rng.random(n) < 0.1] = np.nan
    city[rng.random(n) < 0.1] = np.nan
    frame = pd.DataFrame({"age": age, "city": city, "income": income, "label": label})
    dataset = from_frame(frame, "label", positive="yes", name="mixed")
    report = run_pipeline(dataset, RunConfig(lime=FAST_LIME, imli_params=FAST_IMLI)).report
    assert report["dataset"]["categorical"] == ["city"]
    assert set(report["learners"]) == {"imli", "fold"}
    assert report["learners"]["fold"]["fidelity_test"] > 0.6


def test_multiclass_is_explained_one_vs_rest():
    report = run_pipeline(load_dataset("iris"), RunConfig(lime=FAST_LIME, learners=("fold",))).report
    assert report["dataset"]["class_names"][1] in ("setosa", "versicolor", "virginica")
    assert any("against the rest" in note for note in report["dataset"]["notes"])


def test_a_given_multiclass_black_box_is_merged_one_vs_rest():
    from sklearn.linear_model import LogisticRegression

    from adapters import TableEncoder, wrap_sklearn

    ds = load_dataset("wine")
    model = LogisticRegression(max_iter=5000).fit(ds.X, ds.y)
    box = wrap_sklearn(model, TableEncoder().fit(ds.X, ds.categorical))
    config = RunConfig(lime=FAST_LIME, learners=("fold",))
    result = run_pipeline(ds, config, black_box=box)
    positive = ds.class_names.index(result.report["dataset"]["positive_class"])
    expected = (model.predict(ds.X) == positive).astype(int)
    np.testing.assert_array_equal(result.black_box.predict(ds.X), expected)
    assert result.report["black_box"]["accuracy_test"] >= 0.9
    two = wrap_sklearn(LogisticRegression(max_iter=5000).fit(ds.X, (ds.y == 0).astype(int)),
                       TableEncoder().fit(ds.X, ds.categorical))
    with pytest.raises(InputError, match="gives 2 classes but dataset 'wine' has 3"):
        run_pipeline(ds, config, black_box=two)


def test_a_model_of_the_tables_labels_on_a_merged_target_says_how_to_read_it():
    """A model of the three labels 0, 1, 2 (so, classes_ 0 .. k-1) on a target merged to
    one against the rest was refused as "not trained on this target"."""
    from sklearn.linear_model import LogisticRegression

    from adapters import TableEncoder, relabel_classes, wrap_sklearn

    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.normal(size=300), "z": rng.normal(size=300)})
    df["t"] = np.digitize(df.x, [-0.5, 0.5])
    ds = from_frame(df, "t", positive=2)
    box = wrap_sklearn(LogisticRegression().fit(df[["x", "z"]], df.t),
                       TableEncoder().fit(ds.X, ds.categorical), class_names=ds.class_names)
    config = RunConfig(lime=FAST_LIME, learners=("fold",))
    with pytest.raises(InputError, match=r"3 classes, as many as the table's labels, which "
                                         r"dataset 'frame' merges into 2: .*source_labels"):
        run_pipeline(ds, config, black_box=box)
    fixed = relabel_classes(box, [code for _, code in ds.source_labels])
    assert run_pipeline(ds, config, black_box=fixed).report["black_box"]["accuracy_test"] > 0.9


def test_a_black_box_reading_the_classes_the_other_way_is_flagged():
    from sklearn.linear_model import LogisticRegression

    from adapters import TableEncoder, wrap_sklearn

    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.normal(size=300), "z": rng.normal(size=300)})
    df["default"] = (df.x > -0.6).astype(int)
    ds = from_frame(df, "default", positive=0)   # the dataset's class 1 is the label "0"
    model = LogisticRegression().fit(df[["x", "z"]], df["default"])   # the raw labels
    encoder = TableEncoder().fit(ds.X, ds.categorical)
    config = RunConfig(lime=FAST_LIME, learners=("fold",))
    with pytest.warns(UserWarning, match="less than swapping its two classes would"):
        swapped = run_pipeline(ds, config, black_box=wrap_sklearn(model, encoder))
    assert any("class_names=Dataset.class_names" in n
               for n in swapped.report["dataset"]["notes"])
    right = run_pipeline(ds, config, black_box=wrap_sklearn(model, encoder,
                                                            class_names=ds.class_names))
    assert right.report["black_box"]["accuracy_test"] >= 0.9
    assert not any("swapping" in n for n in right.report["dataset"]["notes"])
    # fitted on Dataset.y, given class_names: read the other way round; the note says so
    coded = LogisticRegression().fit(ds.X, ds.y)
    with pytest.warns(UserWarning, match="fitted on Dataset.y needs neither class_names"):
        run_pipeline(ds, config, black_box=wrap_sklearn(coded, encoder,
                                                         class_names=ds.class_names))
    plain = run_pipeline(ds, config, black_box=wrap_sklearn(coded, encoder))
    assert plain.report["black_box"]["accuracy_test"] >= 0.9


def test_a_model_file_that_names_its_classes_is_read_by_those_names(tmp_path):
    # a run's saved 'a'-vs-rest model was taken in Python for any dataset's 0, 1: as the
    # black box of 'b' against the rest it labelled 39 rows of 'a' as 'b', without a word
    from adapters import TableEncoder, load_xgboost

    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.normal(size=300), "z": rng.normal(size=300)})
    df["t"] = np.select([df.x < -1.0, df.x > 1.0], ["a", "b"], "c")
    config = RunConfig(lime=FAST_LIME, learners=("fold",))
    ds = from_frame(df, "t", positive="a")
    path = run_pipeline(ds, config).black_box.save(tmp_path)
    box = load_xgboost(path, TableEncoder().fit(ds.X, ds.categorical))
    assert box.class_names == ("not a", "a")
    with pytest.raises(InputError, match=r"^the xgboost model's classes 'not a', 'a' are "
                                         r"not those of dataset 'frame', 'not b', 'b'; read "
                                         r"the table with positive='a'$"):
        run_pipeline(from_frame(df, "t", positive="b"), config, black_box=box)
    again = run_pipeline(ds, config, black_box=box)
    np.testing.assert_array_equal(again.black_box.predict(ds.X), box.predict(ds.X))
    # the same names in the other order: read by name
    df["u"] = np.where(df.t == "a", "yes", "no")
    yes = from_frame(df.drop(columns="t"), "u", positive="yes")
    path = run_pipeline(yes, config).black_box.save(tmp_path / "u")
    box = load_xgboost(path, TableEncoder().fit(yes.X, yes.categorical))
    no = from_frame(df.drop(columns="t"), "u", positive="no")
    assert box.class_names == yes.class_names == no.class_names[::-1]
    flipped = run_pipeline(no, config, black_box=box)
    np.testing.assert_array_equal(flipped.black_box.predict(no.X), 1 - box.predict(no.X))
    assert flipped.report["black_box"]["accuracy_test"] >= 0.9


def test_how_a_model_file_was_read_is_in_the_notes(tmp_path):
    # the command line listed them; in Python they were only in box.info
    import xgboost as xgb

    from adapters import TableEncoder, load_xgboost, relabel_classes

    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.normal(size=200), "z": rng.normal(size=200)})
    df["t"] = (df.x > 0).astype(int)
    ds = from_frame(df, "t")
    model = xgb.XGBClassifier(n_estimators=5).fit(df[["x", "z"]].to_numpy(), df.t)
    model.save_model(tmp_path / "m.ubj")
    box = load_xgboost(tmp_path / "m.ubj", TableEncoder().fit(ds.X, ds.categorical))
    (read,) = box.info["notes"]
    assert read.startswith("the model names no columns")
    config = RunConfig(lime=FAST_LIME, learners=("fold",))
    for given in (box, relabel_classes(box, [1, 0])):
        notes = run_pipeline(ds, config, black_box=given).report["dataset"]["notes"]
        assert notes.count(read) == 1


def test_a_black_box_failing_on_lime_samples_says_the_rows_are_lime_s():
    # "NaN ... for 256 of 576 rows" on a table of 200 rows, without saying whose rows
    from adapters import TableEncoder, wrap_callable

    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.normal(size=200)})
    df["t"] = np.where(df.x > 0, "hi", "lo")
    ds = from_frame(df, "t")
    seen = set(df.x)  # the table's rows are answered; rows LIME makes are not
    box = wrap_callable(lambda X: np.where(X["x"].isin(seen), 0.5 + 0.1 * (X["x"] > 0), np.nan),
                        TableEncoder().fit(ds.X, ()))
    with pytest.raises(InputError, match=r"returned NaN or infinite probabilities for \d+ of "
                                         r"\d+ rows; .* \(the rows LIME asked about: training "
                                         r"rows or samples it drew around them\)$"):
        run_pipeline(ds, RunConfig(lime=FAST_LIME, learners=("fold",)), black_box=box)


def test_a_black_box_with_one_answer_says_how_large_the_other_class_is():
    from adapters import TableEncoder, wrap_callable

    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.normal(size=200)})
    df["t"] = np.where(df.x > 1.5, "rare", "common")
    ds = from_frame(df, "t")
    box = wrap_callable(lambda X: np.full(len(X), 0.1), TableEncoder().fit(ds.X, ()))
    with pytest.raises(InputError, match=r"predicts class 'common' for every training row: "
                                         r"there is no decision to explain \('rare' has \d+ "
                                         r"of 150 training rows; more rows of it may "
                                         r"give one\)"):
        run_pipeline(ds, RunConfig(lime=FAST_LIME, learners=("fold",)), black_box=box)
    # with more classes, another may be explained against the rest
    df["t"] = np.where(df.x > 1.5, "rare", np.where(df.x > 0, "high", "low"))
    ds = from_frame(df, "t", positive="rare")
    with pytest.raises(InputError, match="a larger class with --positive, or more rows"):
        run_pipeline(ds, RunConfig(lime=FAST_LIME, learners=("fold",)), black_box=box)


def test_a_black_box_with_one_answer_on_a_class_that_is_not_rare_blames_the_features():
    from adapters import TableEncoder, wrap_callable

    # pure noise: XGBoost predicts '0' for every row, and more rows of '1' (70 of 150)
    # were no cure
    rng = np.random.default_rng(3)
    df = pd.DataFrame(rng.normal(size=(200, 3)), columns=["a", "b", "c"])
    df["t"] = rng.integers(2, size=200)
    ds = from_frame(df, "t")
    with pytest.raises(InputError, match=r"\('1' has 70 of 150 training rows; the features "
                                         r"may not predict the target: check the target "
                                         r"column, or give a model with --model\)$"):
        run_pipeline(ds, RunConfig(lime=FAST_LIME, learners=("fold",)))
    box = wrap_callable(lambda X: np.full(len(X), 0.1), TableEncoder().fit(ds.X, ()))
    with pytest.raises(InputError, match=r"check the target column and the model\)$"):
        run_pipeline(ds, RunConfig(lime=FAST_LIME, learners=("fold",)), black_box=box)


def test_both_learners_write_a_category_given_in_one_unicode_form_alike():
    # 'café' written only as 'e' and a combining accent stays so in the table: FOLD's
    # rules wrote it composed (NFC), IMLI's as given, so one report held two 'café's
    rng = np.random.default_rng(1)
    city = rng.choice(["cafe\u0301", "rome", "oslo", "bern", "nice"], 200)
    df = pd.DataFrame({"city": city, "x": rng.normal(size=200),
                       "t": (city != "cafe\u0301").astype(int)})
    result = run_pipeline(from_frame(df, "t"), RunConfig(lime=FAST_LIME, imli_params=FAST_IMLI))
    rules = [result.report["learners"][name]["rules"] for name in ("imli", "fold")]
    assert all("caf\u00e9" in r and "cafe\u0301" not in r for r in rules), rules


def test_a_black_box_that_sees_a_column_merged_in_32_bit_floats_says_so():
    # the decision is on values 1e-3 apart around 1e6, one value in float32: XGBoost
    # predicts one class, and the error used to blame the smaller class's size
    rng = np.random.default_rng(0)
    u = rng.uniform(size=200)
    df = pd.DataFrame({"x": 1e6 + u * 1e-3, "z": rng.normal(size=200)})
    df["t"] = np.where(u > 0.5, "a", "b")
    ds = from_frame(df, "t")
    with pytest.raises(InputError, match=r"training rows; the black box reads column 'x' in "
                                         r"32-bit floats, where its values merge: rescale "
                                         r"or shift it\)$"):
        run_pipeline(ds, RunConfig(lime=FAST_LIME, learners=("fold",)))


def test_a_small_test_set_is_noted():
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.normal(size=80)})
    df["t"] = np.where(df.x > 0, "a", "b")
    config = RunConfig(lime=FAST_LIME, learners=("fold",), test_size=0.25)
    notes = run_pipeline(from_frame(df, "t"), config).report["dataset"]["notes"]
    assert "only 20 held-out rows: each is 5% of the test fidelity, so read it as rough" in notes


def test_a_black_box_no_better_than_a_constant_answer_is_noted(breast_cancer_run):
    # a target with nothing to learn: the model fits noise
    rng = np.random.default_rng(0)
    df = pd.DataFrame({f"x{i}": rng.normal(size=300) for i in range(5)})
    df["t"] = np.where(rng.random(300) < 0.4, "yes", "no")
    config = RunConfig(lime=FAST_LIME, learners=("fold",), train_view="raw")
    result = run_pipeline(from_frame(df, "t"), config)
    accuracy = result.report["black_box"]["accuracy_test"]
    constant = np.mean(result.labels["y_test"] == 0)  # 'no', the larger class
    assert accuracy <= constant
    notes = [n for n in result.report["dataset"]["notes"] if "no better than answering" in n]
    assert notes == [f"the black box's test accuracy ({accuracy:.3f}) is no better than "
                     f"answering 'no', the most frequent class of the training rows, for "
                     f"every row ({constant:.3f}): its rules, however faithful, explain a "
                     f"model that has learned little of the target"]
    assert not any("no better than answering" in n
                   for n in breast_cancer_run.report["dataset"]["notes"])


def test_held_out_copies_of_training_rows_are_noted(breast_cancer_run):
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.normal(size=60).round(3), "c": rng.choice(["u", "v"], 60)})
    df["t"] = np.where(df.x > 0, "a", "b")
    config = RunConfig(lime=FAST_LIME, learners=("fold",), test_size=0.25)
    notes = run_pipeline(from_frame(pd.concat([df] * 3), "t"), config).report["dataset"]["notes"]
    copies = [n for n in notes if "have the feature values of a training row" in n]
    # 45 held-out rows, each of the 60 rows three times: a copy stays out of training
    # only if all three fall in the test part
    assert len(copies) == 1 and "of the 45 held-out rows" in copies[0]
    assert not any("feature values of a training row" in n
                   for n in breast_cancer_run.report["dataset"]["notes"])


def test_copies_are_counted_on_all_features_missing_values_alike():
    train = pd.DataFrame({"x": [1.0, 2, 3, 4], "c": ["u", "v", "u", np.nan]})
    test = pd.DataFrame({"x": [1.0, 4, 5], "c": ["u", np.nan, "u"]})
    assert _copies_note(train, test)[0].startswith("2 of the 3 held-out rows (67%)")
    assert _copies_note(train, test.assign(c=["v", "u", "u"])) == []
    many = pd.DataFrame({"x": np.arange(40.0), "c": "u"})
    one, two = (pd.DataFrame({"x": [0.0] * k + list(range(100, 140 - k)), "c": "u"})
                for k in (1, 2))
    assert _copies_note(many, one) == []  # 1 of 40: below 5%
    assert _copies_note(many, two)[0].startswith("2 of the 40 held-out rows (5%)")


def test_held_out_categories_no_training_row_has_are_a_note_not_foldss_type_warning():
    # FOLD warned "is it the same column in another type (1 for True)?" on the run's own
    # test rows (shown, not saved); the run's note says what happened, and is saved
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.normal(size=200),
                       "c": np.where(np.arange(200) < 150, rng.choice(["a", "b"], 200),
                                     rng.choice(["y", "z"], 200))})
    df["t"] = np.where(df.x + df.c.isin(["a", "y"]) > 0.5, "p", "n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = run_pipeline(from_frame(df, "t"), RunConfig(lime=FAST_LIME,
                                                             learners=("fold",)),
                              split=(np.arange(150), np.arange(150, 200)))
    note = [n for n in result.report["dataset"]["notes"] if "no training row has" in n]
    assert len(note) == 1 and note[0].startswith(
        "50 of the 50 held-out rows (100%) hold categories that no training row has, in "
        "column 'c' (")
    assert "'y'" in note[0] and "'z'" in note[0] and "'a'" not in note[0]
    # a rare category's one held-out row (1 of 40, below 5%) is no news; missing is not new
    train = pd.DataFrame({"c": ["u", "v"] * 20})
    test = pd.DataFrame({"c": ["u"] * 37 + ["w", np.nan, np.nan]})
    assert _unseen_categories_note(train, test, ["c"]) == []
    two = test.assign(c=["u"] * 36 + ["w", "w2", np.nan, "v"])
    assert _unseen_categories_note(two, two.iloc[:0], ["c"]) == []
    assert _unseen_categories_note(train, two, ["c"])[0].startswith(
        "2 of the 40 held-out rows (5%) hold categories that no training row has, in column "
        "'c' ('w', 'w2'):")


@pytest.mark.parametrize("test_size, words", [(0.97, "leaves 9 training rows"),
                                               (0.999, "cannot split 300 rows")])
def test_a_test_set_leaving_too_few_training_rows_is_refused(test_size, words):
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.normal(size=300)})
    df["t"] = np.where(df.x > 0, "a", "b")
    with pytest.raises(InputError, match=f"test_size {test_size:g} {words}.*--test-size"):
        run_pipeline(from_frame(df, "t"), RunConfig(lime=FAST_LIME, test_size=test_size))


def test_a_class_rounded_down_to_no_test_row_gets_one():
    from explain.pipeline import _split

    # 80 held out of 2,000 rows gives 0.4 of a row of the 10 'yes' ones: it ran with
    # fidelity 1.000 on test rows of one class, then was refused ("raise test_size")
    rng = np.random.default_rng(1)
    df = pd.DataFrame({"x": rng.normal(size=2000)})
    df["t"] = np.where(df.index < 10, "yes", "no")
    dataset = from_frame(df, "t")
    train, test = _split(dataset, 0.04, 0)
    assert (len(train), len(test)) == (1920, 80)
    assert np.bincount(dataset.y[test]).tolist() == [79, 1]
    assert sorted(np.r_[train, test].tolist()) == list(range(2000))
    # 3 of 12 rows, 2 held out: refused for holding out no row of the 3 ("raise test_size")
    # at 0.1, and for leaving 9 training rows ("lower test_size") at 0.17
    df = pd.DataFrame({"x": np.arange(12.0), "t": ["a"] * 3 + ["b"] * 9})
    dataset = from_frame(df, "t")
    train, test = _split(dataset, 0.1, 0)
    assert np.bincount(dataset.y[test]).tolist() == [1, 1]
    assert np.bincount(dataset.y[train]).tolist() == [8, 2]  # b, a (the positive class)


def test_a_table_too_small_to_split_is_refused():
    rng = np.random.default_rng(1)
    df = pd.DataFrame({"x": rng.normal(size=2000)})
    df["t"] = np.where(df.index < 10, "yes", "no")
    # with two rows, no test_size holds one out and leaves two to learn from
    with pytest.raises(InputError, match=r"smallest class 'yes' with 2\): need at least 12 "
                                         r"rows \(10 to learn from, 1 of each class to test "
                                         r"on; 14 at test_size 0.25\) and 3 "):
        run_pipeline(from_frame(df.iloc[8:], "t"), RunConfig(lime=FAST_LIME))


def test_the_rows_a_tiny_test_size_needs_are_said_at_once():
    from explain.pipeline import _rows_needed

    # the count was searched one row at a time: minutes at 1e-9
    assert _rows_needed(1e-12, 2) == 10**12 + 1 and _rows_needed(0.25, 2) == 14
    assert _rows_needed(0.9, 3) == 100  # 10 of 100 rows to learn from


@pytest.mark.parametrize("n, refused", [(11, True), (12, False)])
def test_the_fewest_rows_said_to_be_needed_can_run(n, refused):
    # 10 and 11 rows passed the first check, then no test_size could split them
    df = pd.DataFrame({"x": np.arange(n, dtype=float)})
    df["t"] = np.where(df.x < n // 2, "a", "b")
    config = RunConfig(lime=FAST_LIME, test_size=0.16, learners=("imli",))  # 2 held out
    if refused:
        with pytest.raises(InputError, match=r"^too few rows to hold out a test set \(11 "
                                             r"rows.*need at least 12 rows .*; 12 at "
                                             r"test_size 0.16\)"):
            run_pipeline(from_frame(df, "t"), config)
    else:
        run_pipeline(from_frame(df, "t"), config)
        # the number said for the default test_size runs there too, and one fewer does not
        df = pd.DataFrame({"x": np.arange(14, dtype=float), "t": ["a", "b"] * 7})
        run_pipeline(from_frame(df, "t"), RunConfig(lime=FAST_LIME, learners=("imli",)))
        with pytest.raises(InputError, match="leaves 9 training rows"):
            run_pipeline(from_frame(df.iloc[:13], "t"),
                         RunConfig(lime=FAST_LIME, learners=("imli",)))


@pytest.mark.parametrize("split, words", [
    ((np.arange(20), np.arange(15, 30)), r"share 5 row\(s\) \(e.g. 15\)"),
    ((np.arange(20), np.arange(290, 301)), r"test indices must be row positions 0 .. 299"),
    ((np.arange(20), np.array([], dtype=int)), "test indices must be a non-empty"),
    ((np.arange(20), np.arange(20, 30) * 1.0), "integer row positions"),
    ((np.arange(300) < 200, np.arange(300) >= 200), "not a boolean mask"),
    ((np.array([1, 1, 2]), np.arange(20, 30)), "train indices name a row more than once"),
    ((np.arange(20),), r"a pair \(train_indices, test_indices\)"),
])
def test_a_bad_split_is_refused_in_one_line(split, words):
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.normal(size=300)})
    df["t"] = np.where(df.x > 0, "a", "b")
    with pytest.raises(InputError, match=words):
        run_pipeline(from_frame(df, "t"), RunConfig(lime=FAST_LIME), split=split)


def test_a_model_not_wrapped_or_learners_as_text_are_refused():
    dataset = load_dataset("iris")
    with pytest.raises(InputError, match=r"not a function: wrap a fitted scikit-learn"):
        run_pipeline(dataset, RunConfig(lime=FAST_LIME), black_box=lambda X: X)
    with pytest.raises(InputError, match=r"a tuple of names .*not 'imli'"):
        run_pipeline(dataset, RunConfig(lime=FAST_LIME, learners="imli"))


@pytest.mark.parametrize("params, words", [
    ({"imli_params": {"n_clauses": -1}}, "'n_clauses' parameter of IMLIClassifier"),
    ({"imli_params": {"data_fidelity": True}}, "'data_fidelity' .* not a bool"),
    ({"fold_params": {"nope": 1}}, r"^FOLDClassifier has no parameter\(s\) \['nope'\]; "
                                   r"it takes \['class_order', "),
    ({"fold_params": {"mdl_weight": -1.0}}, "'mdl_weight' parameter of FOLDClassifier"),
])
def test_a_bad_learner_parameter_is_refused_before_the_black_box_and_lime(params, words):
    stages = []
    with pytest.raises(ValueError, match=words):
        run_pipeline(load_dataset("iris"), RunConfig(lime=FAST_LIME, **params),
                     progress=lambda stage, done, total: stages.append(stage))
    assert stages == []


def test_parameters_of_a_learner_that_does_not_run_are_not_checked():
    stages = []
    config = RunConfig(lime=FAST_LIME, learners=("fold",), imli_params={"n_clauses": -1})
    result = run_pipeline(load_dataset("iris"), config,
                          progress=lambda stage, done, total: stages.append(stage))
    assert list(result.learners) == ["fold"] and "LIME, training rows" in stages


@pytest.mark.parametrize("engine, mode", [("batched", "fast"), ("batched", "exact"),
                                          ("reference", "fast")])
def test_table_without_numeric_features(engine, mode):
    """Regression (found by the CLI fuzz test): LIME with categorical features only."""
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.choice(["x", "y", "z"], 60), "b": rng.choice(["p", "q"], 60)})
    frame["t"] = np.where((frame.a == "x") | (frame.b == "p"), "yes", "no")
    lime = LimeConfig(num_samples=100, n_jobs=1, mode=mode, engine=engine)
    report = run_pipeline(from_frame(frame, "t"), RunConfig(lime=lime, imli_params=FAST_IMLI)).report
    assert report["lime"]["rows_explained"] == 60
    # the report states what applied: top-5 of two features is two, no mode for reference
    assert report["lime"]["top_k"] == 2
    assert "LIME's top_k 5 is more than the table's 2 features: LIME keeps all 2 of every " \
           "row" in report["dataset"]["notes"]  # it was clamped without a word
    assert report["lime"]["mode"] == (mode if engine == "batched" else None)
    assert report["parameters"]["lime"]["mode"] == report["lime"]["mode"]
    assert report["learners"]["fold"]["fidelity_test"] >= 0.9


def test_a_table_of_one_feature_is_noted_in_the_singular():
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.choice(["x", "y", "z"], 60)})
    frame["t"] = np.where(frame.a == "x", "yes", "no")
    config = RunConfig(lime=LimeConfig(num_samples=100, n_jobs=1), learners=("fold",))
    report = run_pipeline(from_frame(frame, "t"), config).report
    assert ("LIME's top_k 5 is more than the table's 1 feature: LIME keeps the only one of "
            "every row") in report["dataset"]["notes"]


def test_default_positive_skips_classes_too_small_to_learn():
    from explain.pipeline import binarize_target

    y = np.repeat([0, 1, 2, 3], [60, 30, 12, 2])  # class 3: 2 rows, too few to learn
    base = from_frame(pd.DataFrame({"x": np.arange(len(y), dtype=float), "t": y}), "t")
    ds = binarize_target(base)
    assert ds.class_names[1] == "2" and ds.y.sum() == 12
    assert "smallest class with 10+ rows" in ds.notes[-1]
    tiny = binarize_target(from_frame(pd.DataFrame(
        {"x": np.arange(9, dtype=float), "t": [0, 0, 0, 0, 1, 1, 1, 2, 2]}), "t"))
    assert tiny.class_names[1] == "0" and "(the largest class)" in tiny.notes[-1]
    tied_small = binarize_target(from_frame(pd.DataFrame(
        {"x": np.arange(9, dtype=float), "t": [0, 0, 0, 1, 1, 1, 2, 2, 2]}), "t"))
    assert "(the largest class, first of the classes tied at 3 rows)" in tied_small.notes[-1]
    even = binarize_target(from_frame(pd.DataFrame(
        {"x": np.arange(60, dtype=float), "t": np.repeat([0, 1, 2], [25, 15, 20])}), "t"))
    assert even.class_names[1] == "1" and "(the minority)" in even.notes[-1]
    tied = binarize_target(from_frame(pd.DataFrame(
        {"x": np.arange(60, dtype=float), "t": np.repeat(["a", "b", "c"], 20)}), "t"))
    assert tied.class_names[1] == "a"
    assert "(the minority, first of the classes tied at 20 rows)" in tied.notes[-1]
    named = binarize_target(from_frame(pd.DataFrame(
        {"x": np.arange(60, dtype=float), "t": np.repeat(["a", "b", "not b"], [25, 15, 20])}),
        "t"))
    assert named.class_names == ("not b (rest)", "b")  # the class 'not b' is another one


def test_stacked_view_counts_fold_support_on_the_rows_explained(breast_cancer_run):
    # the lime+raw view holds each training row twice; a fractional min_support is a share
    # of the rows, not of their copies
    report = breast_cancer_run.report
    train_rows = report["split"]["train_rows"]
    assert len(breast_cancer_run.views["fold"]["train"]) == 2 * train_rows
    default = FOLD_DEFAULTS["min_support"]
    params = report["learners"]["fold"]["params"]
    assert params["min_support"] == math.ceil(default * train_rows)
    # errors are made once per copy: the program's bits weigh twice RIPPER's 0.5
    assert params["mdl_weight"] == 2 * FOLDClassifier().mdl_weight
    # and the values given, for one copy, beside them
    assert report["learners"]["fold"]["params_given"] == {
        "min_support": default, "mdl_weight": FOLDClassifier().mdl_weight}


@pytest.mark.parametrize("given, expected", [
    ({"min_support": 0.01}, (5, 1.0)), ({"min_support": 0.5, "mdl_weight": 0.2}, (250, 0.4)),
    ({"min_support": 7, "mdl_weight": None}, (7, None)),
])
def test_fit_learner_counts_fold_rows_not_their_copies(given, expected):
    data = load_dataset("breast_cancer")
    X = data.X.iloc[:500]
    y = np.asarray(data.y[:500])
    stacked = pd.concat([X, X], ignore_index=True)
    learner = fit_learner("fold", stacked, np.concatenate([y, y]), given, 0, [],
                          data.class_names, distinct_rows=500)
    assert (learner.estimator.min_support, learner.estimator.mdl_weight) == expected
    # without copies nothing changes
    once = fit_learner("fold", X, y, given, 0, [], data.class_names, distinct_rows=500)
    default = FOLDClassifier().mdl_weight
    assert (once.estimator.min_support, once.estimator.mdl_weight) == (
        given["min_support"], given.get("mdl_weight", default))


@pytest.mark.parametrize("bad", [{"min_support": -0.3}, {"min_support": 2.5},
                                 {"min_support": "many"}, {"mdl_weight": -1.0}])
def test_fit_learner_refuses_bad_fold_parameters_before_rescaling(bad):
    data = load_dataset("breast_cancer")
    X, y = data.X.iloc[:50], np.asarray(data.y[:50])
    stacked = pd.concat([X, X], ignore_index=True)
    with pytest.raises(ValueError, match=next(iter(bad))):
        fit_learner("fold", stacked, np.concatenate([y, y]), bad, 0, [], data.class_names,
                    distinct_rows=50)


def test_the_lime_cache_tells_apart_models_that_agree_on_the_training_rows(tmp_path):
    # two grown trees give the same hard 0/1 probabilities on every training row: the
    # second reused the first one's explanations
    from sklearn.tree import DecisionTreeClassifier

    from adapters import TableEncoder, wrap_sklearn

    ds = load_dataset("breast_cancer")
    encoder = TableEncoder().fit(ds.X, ds.categorical)
    config = RunConfig(lime=FAST_LIME, learners=("fold",))
    trees = [DecisionTreeClassifier(max_features="sqrt", random_state=seed).fit(ds.X, ds.y)
             for seed in (0, 1)]
    first = run_pipeline(ds, config, black_box=wrap_sklearn(trees[0], encoder),
                         cache_dir=tmp_path)
    second = run_pipeline(ds, config, black_box=wrap_sklearn(trees[1], encoder),
                          cache_dir=tmp_path)
    again = run_pipeline(ds, config, black_box=wrap_sklearn(trees[1], encoder),
                         cache_dir=tmp_path)
    assert first.explanations_train.rows_from_cache == 0
    assert second.explanations_train.rows_from_cache == 0
    assert again.explanations_train.rows_from_cache == len(again.labels["bb_train"])


def test_the_lime_cache_tells_apart_models_that_agree_on_every_value_of_the_data(tmp_path):
    # an integer column split at 40 and at 40.9: the same answer on every value in the
    # table, not on LIME's samples between them; the second reused the first's
    from adapters import TableEncoder, wrap_callable

    rng = np.random.default_rng(0)
    df = pd.DataFrame({"age": rng.integers(20, 70, 300).astype(float),
                       "z": rng.normal(size=300)})
    df["t"] = np.where(df.age > 40, "old", "young")
    ds = from_frame(df, "t")
    encoder = TableEncoder().fit(ds.X, ds.categorical)
    config = RunConfig(lime=FAST_LIME, learners=("fold",))
    runs = [run_pipeline(ds, config, cache_dir=tmp_path, black_box=wrap_callable(
        lambda X, cut=cut: (X["age"] > cut).to_numpy(float), encoder)) for cut in (40, 40.9)]
    assert [r.explanations_train.rows_from_cache for r in runs] == [0, 0]


def test_the_advice_for_a_model_fitted_on_label_codes_works():
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import LabelEncoder

    from adapters import TableEncoder, relabel_classes, wrap_sklearn

    rng = np.random.default_rng(0)
    df = pd.DataFrame({"a": rng.normal(size=400), "b": rng.normal(size=400)})
    df["churn"] = np.where(df.a > 0.8, "leaves", "stays")   # 'leaves' = 0 in sorted order
    ds = from_frame(df, "churn")                               # positive: 'leaves', y = 1
    model = LogisticRegression().fit(df[["a", "b"]], LabelEncoder().fit_transform(df.churn))
    box = wrap_sklearn(model, TableEncoder().fit(ds.X, ds.categorical))
    config = RunConfig(lime=FAST_LIME, learners=("fold",))
    with pytest.warns(UserWarning, match=r"relabel_classes\(box, \[code for _, code in "
                                         r"Dataset.source_labels\]\)"):
        run_pipeline(ds, config, black_box=box)
    fixed = relabel_classes(box, [code for _, code in ds.source_labels])
    assert run_pipeline(ds, config, black_box=fixed).report["black_box"]["accuracy_test"] > 0.9


def test_too_few_lime_samples_is_said_once_per_run():
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run_pipeline(load_dataset("iris"), RunConfig(
            lime=LimeConfig(num_samples=4, n_jobs=1), learners=("fold",)))
    said = [str(w.message) for w in caught if "samples per row" in str(w.message)]
    assert len(said) == 1 and said[0].startswith("LIME draws 4 samples per row to weigh 4 "
                                                 "features: the local fits have no more")


def test_imli_learns_a_model_whose_features_matter_only_together():
    """An xor model: each feature alone says nothing, so no one-feature entropy cut is
    real; IMLI needs the quartile (median) cuts the MDL test falls back to."""
    rng = np.random.RandomState(0)
    X = rng.normal(size=(600, 4))
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    frame["y"] = np.where((X[:, 0] > 0) ^ (X[:, 1] > 0), "yes", "no")
    config = RunConfig(lime=LimeConfig(num_samples=300, n_jobs=1), learners=("imli",))
    report = run_pipeline(from_frame(frame, "y", positive="yes"), config).report
    assert report["learners"]["imli"]["fidelity_test"] >= 0.9


def test_a_black_box_wrapped_with_another_encoder_is_refused_before_lime():
    """Wrapped with an encoder of the columns in another order, a model read LIME's rows
    with its columns swapped, and the run reported the fidelity of another model."""
    from sklearn.ensemble import RandomForestClassifier

    from adapters import TableEncoder, wrap_sklearn

    ds = load_dataset("breast_cancer")
    model = RandomForestClassifier(n_estimators=10, random_state=0).fit(ds.X, ds.y)
    swapped = TableEncoder().fit(ds.X[list(reversed(ds.X.columns))], ds.categorical)
    with pytest.raises(InputError, match="wrapped with an encoder of the columns in another "
                                         "order"):
        run_pipeline(ds, RunConfig(lime=FAST_LIME, learners=("fold",)),
                     black_box=wrap_sklearn(model, swapped))


def test_the_lime_explainer_is_made_once_per_run(monkeypatch):
    """It was made three times (bins, training rows, test rows), each fitting an entropy
    tree per feature: 12 s of a run on a 2,000-column table."""
    import explain.lime_input
    import explain.lime_runner

    calls = []
    make = explain.lime_runner.make_explainer

    def counted(*args, **kwargs):
        calls.append(1)
        return make(*args, **kwargs)

    monkeypatch.setattr(explain.lime_input, "make_explainer", counted)
    monkeypatch.setattr(explain.lime_runner, "make_explainer", counted)
    result = run_pipeline(load_dataset("iris"), RunConfig(lime=FAST_LIME, learners=("fold",)))
    assert result.explanations_test is not None and len(calls) == 1


@pytest.mark.parametrize("mode", ["decision_list", "decision_set"])
def test_decision_rules_name_the_classes(mode):
    from explain.transform import BinaryColumn

    data = load_dataset("breast_cancer")
    median = data.X.iloc[:120].median()
    X = (data.X.iloc[:120] > median).astype(int)
    columns = [BinaryColumn(c, ">", float(median[c]), f"{c} > {median[c]}") for c in X]
    learner = fit_learner("imli", X, np.asarray(data.y[:120]), {"mode": mode}, 0, columns,
                          data.class_names)
    lines = learner.rules_text.splitlines()
    assert all(line.endswith((" malignant", " benign")) for line in lines), lines


def test_fidelity_intervals_and_the_paired_test_follow_the_predictions(breast_cancer_run):
    from explain.metrics import agreement_interval, paired_comparison

    result = breast_cancer_run
    report, bb_test = result.report, result.labels["bb_test"]
    for name in ("imli", "fold"):
        entry, predicted = report["learners"][name], result.predictions[name]
        for part, key in (("test", "fidelity_test_ci"), ("test_lime", "fidelity_test_lime_ci")):
            agreeing = int(np.sum(predicted[part] == bb_test))
            assert entry[key] == agreement_interval(agreeing, len(bb_test))
        low, high = entry["fidelity_test_ci"]
        assert low < entry["fidelity_test"] < high or entry["fidelity_test"] == high == 1.0
    ag = report["agreement"]
    paired = paired_comparison(result.predictions["imli"]["test"],
                               result.predictions["fold"]["test"], bb_test)
    assert (ag["only_imli_faithful_test"], ag["only_fold_faithful_test"],
            ag["fidelity_difference_p"]) == (paired["a_only"], paired["b_only"],
                                             paired["p_value"])
    # two binary surrogates that disagree on a row: exactly one of them is the black box's
    assert ag["only_imli_faithful_test"] + ag["only_fold_faithful_test"] == ag["disagreements_test"]


def test_numpy_numbers_are_taken_as_python_ones_and_written(tmp_path):
    # a run given np.int64 / np.float32 settings finished, then could not write its report
    from adapters import Dataset
    from explain.outputs import prepare_out_dir, write_run

    iris = load_dataset("iris")
    dataset = Dataset("iris", iris.X, iris.y, "target", tuple(np.arange(3)), ())
    config = RunConfig(test_size=np.float32(0.25), random_state=np.int64(1),
                       lime=LimeConfig(num_samples=np.int64(300), top_k=np.int32(3),
                                       random_state=np.uint8(0), n_jobs=np.int64(1),
                                       memory_budget_mb=np.float32(64)),
                       imli_params={"n_clauses": np.int64(2)},
                       fold_params={"min_support": np.float64(0.01)})
    plain = RunConfig(test_size=0.25, random_state=1,
                      lime=LimeConfig(num_samples=300, top_k=3, n_jobs=1,
                                      memory_budget_mb=64.0),
                      imli_params={"n_clauses": 2}, fold_params={"min_support": 0.01})
    assert config.to_dict() == plain.to_dict()
    result = run_pipeline(dataset, config)
    write_run(result, prepare_out_dir(tmp_path / "run"))
    assert result.report["dataset"]["class_names"] == ["not 0", "0"]  # one against the rest


@pytest.mark.parametrize("make, words", [
    (lambda: RunConfig(test_size="0.25"), r"^test_size must be a number between 0 and 1"),
    (lambda: RunConfig(test_size=1.0), r"^test_size must be a number between 0 and 1"),
    (lambda: RunConfig(random_state=-1), r"^random_state must be an int from 0 to 2\*\*32"),
    (lambda: RunConfig(random_state=2**40), r"^random_state must be an int from 0 to 2"),
    (lambda: RunConfig(learners=(n for n in ("imli",))), r"^learners must be a tuple"),
    (lambda: RunConfig(learners=None), r"^learners must be a tuple"),
    (lambda: RunConfig(imli_params=[1]), r"^imli_params must be a dict"),
    (lambda: RunConfig(imli_params={1: 2, "x": 3}),
     r"^imli_params' keys must be parameter names \(str\), got 1"),
    (lambda: RunConfig(fold_params={None: 2}), r"^fold_params' keys must be parameter names"),
    (lambda: RunConfig(learners=(1, "x")), r"^learners must be a tuple of names such as"),
    (lambda: RunConfig(explain_test="no"), r"^explain_test must be True or False, got 'no'"),
    (lambda: RunConfig(explain_test=None), r"^explain_test must be True or False"),
    (lambda: LimeConfig(top_k=5.0), r"^LimeConfig.top_k must be an int, got 5.0"),
    (lambda: LimeConfig(num_samples=200.5), r"^LimeConfig.num_samples must be an int"),
    (lambda: LimeConfig(num_samples="300"), r"^LimeConfig.num_samples must be an int"),
    (lambda: LimeConfig(batch_size=float("inf")), r"^LimeConfig.batch_size must be an int"),
    (lambda: LimeConfig(label=True), r"^LimeConfig.label must be an int"),
    (lambda: LimeConfig(random_state=2**40), r"^LimeConfig.random_state must be an int from"),
    (lambda: LimeConfig(memory_budget_mb=float("inf")), r"^LimeConfig.memory_budget_mb must"),
    (lambda: LimeConfig(kernel_width=1e-300), r"^LimeConfig.kernel_width must be a number "
                                              r"above 1e-150 and at most 1e\+150"),
    (lambda: LimeConfig(kernel_width=float("inf")), r"^LimeConfig.kernel_width must be"),
    (lambda: LimeConfig(fix_zero_width_bins="no"), r"^LimeConfig.fix_zero_width_bins must"),
])
def test_settings_are_refused_in_one_line_naming_them(make, words):
    # each gave a traceback from deep inside, after LIME, or a run on a value cut short
    with pytest.raises(InputError, match=words):
        make()


def test_learner_parameters_of_none_are_none_given():
    assert RunConfig(imli_params=None, fold_params=None).imli_params == {}


def test_a_fold_weight_a_stacked_view_would_make_infinite_is_refused_before_lime():
    with pytest.raises(InputError, match=r"^FOLD's mdl_weight must be at most 1e\+09, got "
                                         r"1e\+308"):
        run_pipeline(load_dataset("iris"),
                     RunConfig(lime=FAST_LIME, fold_params={"mdl_weight": 1e308}))


def test_a_cache_directory_that_is_a_file_is_refused_before_the_black_box(tmp_path):
    (tmp_path / "a_file").write_text("")
    stages = []
    with pytest.raises(InputError, match="as the LIME cache directory"):
        run_pipeline(load_dataset("iris"), RunConfig(lime=FAST_LIME),
                     cache_dir=tmp_path / "a_file",
                     progress=lambda stage, done, total: stages.append(stage))
    assert stages == []  # nothing was trained or explained first


def test_a_run_holds_its_out_directory_while_it_runs(tmp_path):
    from explain.outputs import LOCK_FILE, run_lock

    (tmp_path / LOCK_FILE).write_text("")  # left by a run that was killed: taken over
    (tmp_path / ".black_box.x1y2").mkdir()  # and so are its temporary files
    (tmp_path / ".black_box.x1y2" / "black_box.ubj").write_text("")
    (tmp_path / ".report.json.abc.tmp").write_text("{")
    (tmp_path / ".mine.tmp").write_text("")  # not a run's: kept
    with run_lock(tmp_path):
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted([LOCK_FILE, ".mine.tmp"])
        with pytest.raises(InputError, match=f"^another run is writing to {tmp_path}; wait "):
            with run_lock(tmp_path):
                pass
        assert (tmp_path / LOCK_FILE).exists()
    assert not (tmp_path / LOCK_FILE).exists()  # removed at the end
    with run_lock(tmp_path):  # and free again
        pass


def test_two_runs_into_one_out_directory_do_not_both_write(tmp_path):
    # both found no report when they began, and both wrote: the folder mixed their files
    import subprocess
    import sys

    command = [sys.executable, "-m", "explain", "run", "--data", "iris", "--num-samples",
               "100", "--n-jobs", "1", "--no-cache", "--learners", "fold", "--out",
               str(tmp_path / "o")]
    runs = [subprocess.Popen([*command, "--seed", str(seed)], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True) for seed in (1, 2)]
    errors = [run.communicate(timeout=600)[1] for run in runs]
    results = [(run.returncode, err) for run, err in zip(runs, errors)]
    assert sorted(code for code, _ in results) == [0, 2], results
    refused = next(err for code, err in results if code == 2).strip().splitlines()[-1]
    # refused by the lock, or (when the other had ended) by its report
    assert "another run" in refused or "already holds a run's report" in refused, refused


def test_a_folder_of_a_run_stopped_while_writing_is_named_as_such(tmp_path):
    from explain.outputs import prepare_out_dir

    (tmp_path / "fold.pl").write_text("")
    (tmp_path / "imli.txt").write_text("")
    with pytest.raises(InputError, match=r"already holds a run's files \(imli.txt, fold.pl; "
                                         r"a run stopped as it wrote them\?\); choose another "
                                         r"--out or pass --force"):
        prepare_out_dir(tmp_path)
    (tmp_path / "report.json").write_text("{}")
    with pytest.raises(InputError, match="already holds a run's report; choose"):
        prepare_out_dir(tmp_path)


def test_an_out_that_is_a_file_says_to_give_a_directory(tmp_path):
    from explain.outputs import prepare_out_dir

    (tmp_path / "table.csv").write_text("a,b\n")
    with pytest.raises(InputError, match=r"table.csv exists and is not a directory; give a "
                                         r"directory's path \(a new one is created\)$"):
        prepare_out_dir(tmp_path / "table.csv")


def test_writing_the_held_out_facts_does_not_ask_whether_a_column_changed_type(tmp_path):
    # a one-hot LIME view keeps few of a column's categories: writing fold_facts.pl warned
    # "91 of 125 values were never seen in fit ... the same column in another type?"
    from explain.outputs import prepare_out_dir, write_run

    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"A": rng.choice(list("abcdefg"), 400), "B": rng.choice(list("wxyz"), 400),
                          "C": rng.choice(["t", "f"], 400)})
    frame["t"] = np.where(frame.A.isin(["a", "b"]) | (frame.C == "t") & (frame.B == "x"), 1, 0)
    lime = LimeConfig(num_samples=200, top_k=2, n_jobs=1, categories="one-hot")
    config = RunConfig(lime=lime, learners=("fold",), train_view="lime")
    result = run_pipeline(from_frame(frame, "t"), config)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        write_run(result, prepare_out_dir(tmp_path / "run"))
    assert not [w for w in seen if "never seen in fit" in str(w.message)]


def test_a_lime_label_the_binary_black_box_has_not_is_refused_before_the_black_box():
    # it failed after the black box's training with "labels must be classes in [0, 2)",
    # which named no setting
    stages = []
    with pytest.raises(InputError, match=r"^LimeConfig.label 5 is not a class of the run's "
                                         r"black box"):
        run_pipeline(load_dataset("iris"), RunConfig(lime=replace(FAST_LIME, label=5)),
                     progress=lambda stage, done, total: stages.append(stage))
    assert stages == []


@pytest.mark.parametrize("given, words", [
    (pd.DataFrame({"a": [1.0], "target": [0]}),
     r"^dataset must be an adapters.Dataset, got a DataFrame: read it with "
     r"adapters.from_frame\(df, target\)"),
    (None, r"^dataset must be an adapters.Dataset, got None"),
])
def test_a_dataset_that_is_not_a_dataset_is_refused_in_one_line(given, words):
    # each gave "AttributeError: 'DataFrame' object has no attribute 'y'"
    from explain.compare import run_compare

    for run in (run_pipeline, run_compare):
        with pytest.raises(InputError, match=words):
            run(given, RunConfig(lime=FAST_LIME))


def test_a_given_split_is_reported_as_it_was_not_as_the_configured_test_size():
    # a 60/60 split was reported with "test_size": 0.25, the RunConfig's unused default
    dataset = load_dataset("breast_cancer", keep=())
    dataset = from_frame(pd.concat([dataset.X.iloc[:120, :4],
                                    pd.Series(dataset.y[:120], name="y",
                                              index=dataset.X.index[:120])], axis=1),
                         "y", positive=1)
    rng = np.random.default_rng(0)
    order = rng.permutation(120)
    result = run_pipeline(dataset, RunConfig(lime=FAST_LIME, learners=("fold",)),
                          split=(order[:60], order[60:]))
    assert result.report["split"] == {"train_rows": 60, "test_rows": 60, "test_size": 0.5,
                                      "random_state": 0, "given": True}
    assert run_pipeline(dataset, RunConfig(lime=FAST_LIME, learners=("fold",))
                        ).report["split"]["given"] is False


@pytest.mark.parametrize("param", ["include_features", "exclude_features"])
def test_an_unknown_imli_feature_is_refused_before_lime(param):
    # IMLI's fit refused it, after the LIME stage
    stages = []
    config = RunConfig(lime=FAST_LIME, learners=("imli",),
                       imli_params={param: ["petal length (cm)", "nope"]})
    with pytest.raises(InputError, match=r"^Unknown feature 'nope': name a feature of the "
                                         r"column specs or a column \(known features: "
                                         r"\['sepal length \(cm\)', "):
        run_pipeline(load_dataset("iris"), config,
                     progress=lambda stage, done, total: stages.append(stage))
    assert stages and not [stage for stage in stages if "LIME" in stage]


def test_the_imli_feature_check_takes_every_name_imli_does():
    from explain.learners import check_feature_names
    from explain.transform import binary_columns

    # with one-hot LIME, the columns of negated categories exist once LIME negated them
    negatable = {"c": ["a", "b", "d"]}
    columns = binary_columns(["x", "c"], negatable, {"x": np.array([0.5, 1.5])},
                             negated=negatable)
    names = [c.name for c in columns]
    check_feature_names({"include_features": ["x"], "exclude_features": ["c", *names]},
                        columns)
    with pytest.raises(InputError, match=r"^Unknown feature 'y': .*\['x', 'c'\]"):
        check_feature_names({"exclude_features": ["y"]}, columns)


@pytest.mark.parametrize("top_k, noted", [(6, True), (5, False)])
def test_a_one_hot_top_k_above_the_features_lime_weighs_is_noted(top_k, noted):
    # one-hot LIME weighs the 2 columns and the 3 negations of a's categories: 5 features;
    # a top_k above them was clamped without a word
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.choice(["x", "y", "z"], 60), "b": rng.normal(size=60)})
    frame["t"] = np.where((frame.a == "x") | (frame.b > 0.5), "yes", "no")
    lime = LimeConfig(num_samples=100, n_jobs=1, top_k=top_k, categories="one-hot")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        report = run_pipeline(from_frame(frame, "t"),
                              RunConfig(lime=lime, learners=("fold",))).report
    # a's three categories can be negated: one-hot applies
    assert not [w for w in seen if "LimeConfig.categories" in str(w.message)]
    note = ("LIME's top_k 6 is more than the 5 features LIME weighs (the table's 2 and 3 "
            "negated categories, --lime-categories one-hot): LIME keeps all 5 of every row")
    assert (note in report["dataset"]["notes"]) is noted
    assert report["lime"]["top_k"] == 5 and report["lime"]["categories"] == "one-hot"


def _rare_class_frame(n=400, rate=0.03, seed=1):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame(rng.normal(size=(n, 4)), columns=list("abcd"))
    score = df.a + 0.5 * rng.normal(size=n)
    df["t"] = np.where(score > np.quantile(score, 1 - rate), "fraud", "ok")
    return df


def test_a_rare_class_the_black_box_never_predicts_is_explained_with_balanced_weights():
    ds = from_frame(_rare_class_frame(), "t")
    config = RunConfig(lime=FAST_LIME, learners=("fold",))
    with pytest.raises(InputError, match=r"predicts class 'ok' for every training row: there "
                                         r"is no decision to explain \('fraud' has 9 of 300 "
                                         r"training rows; weighing the classes "
                                         r"\(--class-weight balanced\), or more rows of it "
                                         r"may give one\)$"):
        run_pipeline(ds, config)
    result = run_pipeline(ds, replace(config, class_weight="balanced"))
    bb = result.report["black_box"]
    assert bb["class_weight"] == "balanced"
    assert bb["class_weights"] == {"ok": 1.0, "fraud": 291 / 9}
    assert result.report["parameters"]["class_weight"] == "balanced"
    assert result.labels["bb_train"].sum() > 0
    from explain.report_html import render_html
    from explain.report_md import render_markdown

    assert ("- Black box trained with class weights (balanced): 'ok' ×1, 'fraud' ×32.3"
            in render_markdown(result.report))
    assert ("<th>class weights (balanced)</th><td>&#x27;ok&#x27; ×1, &#x27;fraud&#x27; ×32.3"
            in render_html(result.report))


def test_class_weight_is_refused_for_a_given_model_and_checked():
    from adapters import TableEncoder, wrap_callable

    ds = from_frame(_rare_class_frame(), "t")
    box = wrap_callable(lambda X: 1 / (1 + np.exp(-X["a"].to_numpy())),
                        TableEncoder().fit(ds.X, ()))
    with pytest.raises(InputError, match=r"^class_weight='balanced' weighs the classes of the "
                                         r"black box trained here; a given model is "
                                         r"explained as it is: leave class_weight None$"):
        run_pipeline(ds, RunConfig(lime=FAST_LIME, learners=("fold",),
                                   class_weight="balanced"), black_box=box)
    with pytest.raises(InputError, match=r"^class_weight must be None or 'balanced', got 'yes'$"):
        RunConfig(class_weight="yes")
    assert RunConfig().to_dict()["class_weight"] is None


def test_a_weighted_black_box_is_judged_by_its_balanced_accuracy():
    # weighted, the black box gives up accuracy to find the rare class: answering the
    # common class everywhere is more accurate (0.968), yet it finds 5 of 13 positives
    from explain.pipeline import _weak_box_note

    ds = from_frame(_rare_class_frame(), "t")  # class 1 'fraud', class 0 'ok'
    y_train = np.r_[np.zeros(387, int), np.ones(13, int)]
    y_test = y_train.copy()
    bb_test = np.r_[np.zeros(344, int), np.ones(43, int), np.ones(5, int), np.zeros(8, int)]
    assert _weak_box_note(ds, bb_test, y_train, y_test, weighted=True) is None
    assert _weak_box_note(ds, bb_test, y_train, y_test).startswith(
        "the black box's test accuracy (0.873) is no better than answering 'ok'")
    # finding 1 of 13 while flagging 140 of the others is no better than one answer
    bb_test = np.r_[np.zeros(247, int), np.ones(140, int), np.ones(1, int), np.zeros(12, int)]
    assert _weak_box_note(ds, bb_test, y_train, y_test, weighted=True) == (
        "the black box's balanced accuracy on the test rows (the mean of each class's "
        "recall, 0.358) is no better than answering one class for every row (0.5): its "
        "rules, however faithful, explain a model that has learned little of the target")


def test_a_weighted_black_box_on_test_rows_of_one_class_is_held_to_answering_it():
    # a given split may hold out rows of one class: answering it gets every one right, so
    # a weighted black box that gets 60% of them is no better (it was measured against 0.5)
    from explain.pipeline import _weak_box_note

    ds = from_frame(_rare_class_frame(), "t")
    y_train = np.r_[np.zeros(387, int), np.ones(13, int)]
    y_test = np.zeros(10, int)
    bb_test = np.r_[np.zeros(6, int), np.ones(4, int)]
    assert _weak_box_note(ds, bb_test, y_train, y_test, weighted=True) == (
        "the black box's balanced accuracy on the test rows (the mean of each class's "
        "recall, 0.600) is no better than answering one class for every row (1; the test "
        "rows hold one class): its rules, however faithful, explain a model that has "
        "learned little of the target")
    assert _weak_box_note(ds, bb_test, y_train, y_test) is not None  # as unweighted
