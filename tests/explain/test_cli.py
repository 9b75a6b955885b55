"""The command line, run as a user runs it: a subprocess, exit codes, files written."""

import io
import json
import os
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rich.console import Console

from adapters import InputError
from explain import cli
from explain.cli import _notes_after_the_run, _warnings_shown, execute, parse_args

ROOT = Path(__file__).resolve().parents[2]
FAST_LIME = ["--num-samples", "200", "--n-jobs", "1", "--no-cache"]
FAST = [*FAST_LIME, "--time-limit", "5"]


def run_cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "explain", *args], capture_output=True,
                          text=True, cwd=cwd or ROOT, timeout=600)


@pytest.fixture(scope="module")
def mixed_csv(tmp_path_factory):
    rng = np.random.default_rng(1)
    n = 200
    frame = pd.DataFrame({
        "score": rng.normal(0, 1, n),
        "colour": rng.choice(["red", "green", "blue"], n),
        "count": rng.integers(0, 10, n).astype(float),
    })
    frame["target"] = np.where((frame["score"] > 0.3) | (frame["colour"] == "red"), "hit", "miss")
    frame.loc[frame.sample(frac=0.1, random_state=0).index, "score"] = np.nan
    frame.loc[frame.sample(frac=0.1, random_state=1).index, "colour"] = np.nan
    path = tmp_path_factory.mktemp("csv") / "mixed.csv"
    frame.to_csv(path, index=False)
    return path


def test_run_writes_every_artefact(mixed_csv, tmp_path):
    out = tmp_path / "run"
    done = run_cli("run", "--data", str(mixed_csv), "--target", "target", "--out", str(out), *FAST)
    assert done.returncode == 0, done.stderr
    for name in ("report.json", "report.md", "imli.txt", "fold.pl", "black_box.ubj"):
        assert (out / name).is_file(), name
    report = json.loads((out / "report.json").read_text())
    assert report["dataset"]["rows"] == 200
    assert set(report["learners"]) == {"imli", "fold"}
    assert "report.json" in done.stdout
    # not a terminal: progress is a few lines on stderr, ending with every row explained
    steps = [line for line in done.stderr.splitlines() if line.startswith(("train", "fit"))]
    assert steps == ["training the black box: 0/1 fits", "training the black box: 1/1 fits",
                     "fitting IMLI: 0/1 fits", "fitting IMLI: 1/1 fits",
                     "fitting FOLD: 0/1 fits", "fitting FOLD: 1/1 fits"]
    progress = [line for line in done.stderr.splitlines() if line.startswith("LIME")]
    train, test = report["split"]["train_rows"], report["split"]["test_rows"]
    assert progress[0] == f"LIME, training rows: 0/{train} rows"
    assert progress[-1].startswith(f"LIME, test rows: {test}/{test} rows, ")
    assert len(progress) <= 10


def test_fold_pl_answers_in_plain_swipl_as_the_run_did(tmp_path):
    # categories that differ only beyond ASCII, and a C locale: plain swipl reads a file
    # in the locale's encoding unless the file says otherwise
    rng = np.random.default_rng(2)
    grade = rng.choice(["é", "è", "e"], 240)
    level = rng.random(240)
    frame = pd.DataFrame({"grade": grade, "level": level,
                          "y": np.where((grade == "è") | (level > 0.8), "bad", "good")})
    frame.to_csv(tmp_path / "acc.csv", index=False)
    out = tmp_path / "run"
    assert run_cli("run", "--data", str(tmp_path / "acc.csv"), "--target", "y", "--out",
                   str(out), "--learners", "fold", *FAST_LIME).returncode == 0
    assert "'è'" in (out / "fold.pl").read_text(encoding="utf-8")  # the rule tests it
    goal = "forall('row'(I), ('label'(I, C), format('~d ~w~n', [I, C])))"
    done = subprocess.run(["swipl", "-q", "-g", goal, "-t", "halt", str(out / "fold.pl"),
                           str(out / "fold_facts.pl")], capture_output=True, timeout=60,
                          env={"PATH": os.environ["PATH"], "LANG": "C", "LC_ALL": "C"})
    assert done.returncode == 0 and not done.stderr, done.stderr
    answers = dict(line.split(" ", 1) for line in done.stdout.decode("utf-8").splitlines())
    predictions = pd.read_csv(out / "predictions.csv")
    test = predictions[predictions["part"] == "test"]
    assert len(answers) == len(test) == 60
    assert {int(i): c for i, c in answers.items()} == dict(zip(test["row"], test["fold"]))


def test_drop_leaves_a_column_out(mixed_csv, tmp_path):
    out = tmp_path / "run"
    done = run_cli("run", "--data", str(mixed_csv), "--target", "target", "--out", str(out),
                   "--drop", "count", "--learners", "fold", "--train-view", "raw", *FAST_LIME)
    assert done.returncode == 0, done.stderr
    report = json.loads((out / "report.json").read_text())
    assert report["dataset"]["features"] == 2 and "count" not in report["dataset"]["numeric"]
    assert "dropped column 'count', as asked" in report["dataset"]["notes"]
    wrong = run_cli("run", "--data", str(mixed_csv), "--target", "target", "--out",
                    str(tmp_path / "other"), "--drop", "counts", *FAST_LIME)
    assert wrong.returncode == 2
    assert wrong.stderr.startswith("error: cannot drop column 'counts': the table has no such "
                                   "column") and wrong.stderr.count("\n") == 1


def test_refuses_to_overwrite_without_force(mixed_csv, tmp_path):
    out = tmp_path / "run"
    args = ("run", "--data", str(mixed_csv), "--target", "target", "--out", str(out),
            "--learners", "fold", *FAST_LIME)
    assert run_cli(*args).returncode == 0
    again = run_cli(*args)
    assert again.returncode == 2
    assert again.stderr.strip().startswith("error:") and "--force" in again.stderr
    other = [a if a != "fold" else "imli" for a in args]
    assert run_cli(*other, "--force", "--time-limit", "5").returncode == 0
    assert (out / "imli.txt").is_file() and not (out / "fold.pl").exists()  # not stale



@pytest.mark.parametrize("force", [[], ["--force"]])
@pytest.mark.parametrize("option, name, link", [
    ("--model", "black_box.ubj", False),    # the user's model kept where a run saves its own
    ("--model", "black_box.txt", True),     # a hard link: another name, the same file
    ("--data", "predictions.csv", False),   # a previous run's predictions read as a table
])
def test_an_input_that_is_a_file_the_run_writes_is_refused(own_models, tmp_path, force,
                                                           option, name, link):
    # the run used to overwrite the user's model with its own copy, and exit 0
    out = tmp_path / "run"
    out.mkdir()
    source = own_models / ("three.ubj" if option == "--model" else "three.csv")
    kept = out / name
    kept.write_bytes(source.read_bytes())
    given = kept
    if link:
        given = tmp_path / "model.ubj"
        os.link(kept, given)
    inputs = {"--data": str(own_models / "three.csv"), "--model": None, option: str(given)}
    args = ["--data", inputs["--data"]] + (["--model", inputs["--model"]]
                                           if inputs["--model"] else [])
    done = run_cli("run", *args, "--target", "label", "--out", str(out), "--learners",
                   "fold", *force, *FAST_LIME)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(f"error: {option} {given} is the file {name} that a run "
                                  f"writes in --out {out}")
    assert kept.read_bytes() == source.read_bytes() and sorted(os.listdir(out)) == [name]


@pytest.fixture(scope="module")
def own_models(tmp_path_factory):
    """A three-class table, and XGBoost models trained on it as scikit-learn numbers the
    labels (sorted): one on all three classes, one on 'lo' against the rest."""
    import xgboost as xgb

    rng = np.random.default_rng(3)
    frame = pd.DataFrame({"x": rng.normal(size=300), "z": rng.normal(size=300)})
    frame["label"] = np.where(frame.x > 0.6, "hi", np.where(frame.x < -0.6, "lo", "mid"))
    directory = tmp_path_factory.mktemp("models")
    frame.to_csv(directory / "three.csv", index=False)
    codes = frame["label"].map({"hi": 0, "lo": 1, "mid": 2})
    xgb.XGBClassifier(n_estimators=20).fit(frame[["x", "z"]], codes).save_model(
        directory / "three.ubj")
    frame.assign(label=np.where(frame.label == "lo", "lo", "other")).to_csv(
        directory / "two.csv", index=False)
    xgb.XGBClassifier(n_estimators=20).fit(frame[["x", "z"]], frame.label != "lo").save_model(
        directory / "two.ubj")
    xgb.XGBClassifier(n_estimators=20).fit(frame[["x"]], codes).save_model(
        directory / "three_x.ubj")
    return directory


def test_a_model_of_some_of_the_columns_is_explained_with_those(own_models, tmp_path):
    # it was refused ("the model has 1 columns, the data 2")
    out = tmp_path / "run"
    done = run_cli("run", "--data", str(own_models / "three.csv"), "--target", "label",
                   "--model", str(own_models / "three_x.ubj"), "--out", str(out),
                   "--learners", "fold", *FAST_LIME)
    assert done.returncode == 0, done.stderr
    report = json.loads((out / "report.json").read_text())
    assert report["dataset"]["numeric"] == ["x"] and report["dataset"]["features"] == 1
    assert ("the model reads 1 of the table's 2 columns: 'z' left out of the explanation"
            in report["dataset"]["notes"])
    assert report["black_box"]["accuracy_test"] >= 0.9


@pytest.mark.parametrize("data, model, positive", [
    ("two", "two", "other"),     # class 1 of the model ('other') is the majority
    ("two", "two", "lo"),
    ("three", "three", "mid"),   # the model's three classes, 'mid' against the rest
    ("three", "three", None),
])
def test_own_model_classes_are_read_as_the_targets_labels(own_models, tmp_path, data,
                                                          model, positive):
    out = tmp_path / "run"
    args = ["--positive", positive] if positive else []
    done = run_cli("run", "--data", str(own_models / f"{data}.csv"), "--target", "label",
                   "--model", str(own_models / f"{model}.ubj"), "--out", str(out),
                   "--learners", "fold", *args, *FAST_LIME)
    assert done.returncode == 0, done.stderr
    report = json.loads((out / "report.json").read_text())
    assert report["black_box"]["accuracy_test"] >= 0.9  # a swapped class would be near 0
    assert report["learners"]["fold"]["fidelity_test"] >= 0.9
    reading = {"two": "0 = 'lo', 1 = 'other'", "three": "0 = 'hi', 1 = 'lo', 2 = 'mid'"}[data]
    assert any(reading in note and "LabelEncoder numbers them (sorted, numbers in numeric "
               "order)" in note for note in report["dataset"]["notes"])
    head = report["dataset"]["positive_class"]
    assert f"'{head}'(X) :-" in (out / "fold.pl").read_text()


def test_a_model_saved_by_a_run_is_read_back_by_its_class_names(own_models, tmp_path):
    # 'lo' is the minority, so class 1 here, but it sorts first: LabelEncoder order would
    # read the saved model's classes the wrong way round
    data = ("--data", str(own_models / "two.csv"), "--target", "label", "--learners", "fold")
    assert run_cli("run", *data, "--out", str(tmp_path / "first"), *FAST_LIME).returncode == 0
    saved = str(tmp_path / "first" / "black_box.ubj")
    for positive in ([], ["--positive", "other"]):
        out = tmp_path / f"again{len(positive)}"
        done = run_cli("run", *data, "--model", saved, "--out", str(out), *positive, *FAST_LIME)
        assert done.returncode == 0, done.stderr
        report = json.loads((out / "report.json").read_text())
        assert report["black_box"]["accuracy_test"] >= 0.9
        assert any("as the model file names them: 0 = 'other', 1 = 'lo'" in note
                   for note in report["dataset"]["notes"])


def test_a_saved_one_vs_rest_model_explains_its_class_again(own_models, tmp_path):
    data = ("--data", str(own_models / "three.csv"), "--target", "label", "--learners", "fold")
    first = tmp_path / "first"
    assert run_cli("run", *data, "--out", str(first), *FAST_LIME).returncode == 0
    positive = json.loads((first / "report.json").read_text())["dataset"]["positive_class"]
    saved = str(first / "black_box.ubj")
    again = run_cli("run", *data, "--model", saved, "--out", str(tmp_path / "again"), *FAST_LIME)
    assert again.returncode == 0, again.stderr
    report = json.loads((tmp_path / "again" / "report.json").read_text())
    assert report["dataset"]["positive_class"] == positive
    assert report["black_box"]["accuracy_test"] >= 0.9
    other = next(c for c in ("hi", "lo", "mid") if c != positive)
    refused = run_cli("run", *data, "--model", saved, "--positive", other, "--out",
                      str(tmp_path / "other"), *FAST_LIME)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert f"run with --positive '{positive}'" in refused.stderr.strip().splitlines()[-1]


def test_model_class_gives_the_order_of_a_models_classes(own_models, tmp_path):
    """A model whose class 1 is the label that sorts first ('lo' against 'other', trained
    as 1 = 'lo') was read the wrong way round, and only Python users could say otherwise;
    the copy a run saved was read the wrong way round again."""
    import xgboost as xgb

    frame = pd.read_csv(own_models / "two.csv")
    model = tmp_path / "lo_is_1.ubj"
    xgb.XGBClassifier(n_estimators=20).fit(frame[["x", "z"]], frame.label == "lo").save_model(
        model)
    data = ("run", "--data", str(own_models / "two.csv"), "--target", "label", "--model",
            str(model), "--learners", "fold", *FAST_LIME)
    flipped = run_cli(*data, "--out", str(tmp_path / "flipped"))
    assert flipped.returncode == 0 and "--model-class" in flipped.stderr
    done = run_cli(*data, "--out", str(tmp_path / "right"), "--model-class", "OTHER",
                   "--model-class", "lo")
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "right" / "report.json").read_text())
    assert report["black_box"]["accuracy_test"] >= 0.9
    assert any("as --model-class gives them: 0 = 'other', 1 = 'lo'" in note
               for note in report["dataset"]["notes"])
    for classes, words in ((["lo"], "must name each of the target's labels 'lo', 'other' "
                                    "once"),
                           (["lo", "lo"], "once"), (["lo", "x"], "--model-class 'x' is not")):
        bad = run_cli(*data, "--out", str(tmp_path / "bad"),
                      *[a for c in classes for a in ("--model-class", c)])
        assert bad.returncode == 2 and words in bad.stderr.strip().splitlines()[-1], bad.stderr
    # the run's saved copy keeps the reading: read back without --model-class
    again = run_cli(*data[:5], "--model", str(tmp_path / "right" / "black_box.ubj"),
                    "--learners", "fold", *FAST_LIME, "--out", str(tmp_path / "again"))
    assert again.returncode == 0, again.stderr
    report = json.loads((tmp_path / "again" / "report.json").read_text())
    assert report["black_box"]["accuracy_test"] >= 0.9
    assert any("as the run that saved the model read them: 0 = 'other', 1 = 'lo'" in note
               for note in report["dataset"]["notes"])
    import xgboost as xgb

    booster = xgb.Booster(model_file=str(tmp_path / "right" / "black_box.ubj"))
    booster.set_attr(surrogate_rules_class_reading="{not json")
    booster.save_model(str(tmp_path / "garbled.ubj"))
    garbled = run_cli(*data[:5], "--model", str(tmp_path / "garbled.ubj"), "--learners",
                      "fold", *FAST_LIME, "--out", str(tmp_path / "garbled"))
    assert garbled.returncode == 2 and "Traceback" not in garbled.stderr
    assert "is not a list of labels" in garbled.stderr.strip().splitlines()[-1]
    trained = run_cli(*data[:5], "--learners", "fold", *FAST_LIME, "--out",
                      str(tmp_path / "trained"))
    assert trained.returncode == 0, trained.stderr
    ours = run_cli(*data[:5], "--model", str(tmp_path / "trained" / "black_box.ubj"),
                   "--learners", "fold", *FAST_LIME, "--out", str(tmp_path / "ours"),
                   "--model-class", "lo", "--model-class", "other")
    assert ours.returncode == 2 and "names its classes" in ours.stderr


def test_a_model_of_one_class_against_the_rest_is_read_on_the_whole_target(own_models,
                                                                            tmp_path):
    """A model of 'lo' against the rest could not be explained on the table's three labels:
    the rest has no label of the target for --model-class to name."""
    data = ("run", "--data", str(own_models / "three.csv"), "--target", "label", "--model",
            str(own_models / "two.ubj"), "--learners", "fold", *FAST_LIME)
    refused = run_cli(*data, "--out", str(tmp_path / "refused"))
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert "--model-class 'not LABEL' --model-class 'LABEL'" in refused.stderr
    done = run_cli(*data, "--out", str(tmp_path / "run"), "--positive", "lo",
                   "--model-class", "lo", "--model-class", "not lo")  # trained as 1 = not lo
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "run" / "report.json").read_text())
    assert report["black_box"]["accuracy_test"] >= 0.9  # a swapped class would be near 0
    assert any("as --model-class gives them: 0 = 'lo', 1 = 'not lo'" in note
               for note in report["dataset"]["notes"])
    three = run_cli(*data[:5], "--model", str(own_models / "three.ubj"), "--learners", "fold",
                    *FAST_LIME, "--out", str(tmp_path / "three"), "--positive", "lo",
                    *[a for c in ("hi", "lo", "mid") for a in ("--model-class", c)])
    assert three.returncode == 0, three.stderr


def test_the_saved_copy_of_a_users_one_vs_rest_model_explains_its_class_again(own_models,
                                                                             tmp_path):
    """The copy a run saved of a user's model of 'lo' against the rest keeps its reading
    ('lo', 'not lo'), but run again on the three-label table without --positive it was
    refused ("'not lo' is not a value of target 'label'"), and with another --positive the
    message did not say which class the model explains."""
    data = ("run", "--data", str(own_models / "three.csv"), "--target", "label",
            "--learners", "imli", "--train-view", "raw", "--time-limit", "5")
    first = run_cli(*data, "--model", str(own_models / "two.ubj"), "--out",
                    str(tmp_path / "first"), "--positive", "lo", "--model-class", "lo",
                    "--model-class", "not lo")  # trained as 1 = not lo
    assert first.returncode == 0, first.stderr
    saved = str(tmp_path / "first" / "black_box.ubj")
    again = run_cli(*data, "--model", saved, "--out", str(tmp_path / "again"))
    assert again.returncode == 0, again.stderr
    report = json.loads((tmp_path / "again" / "report.json").read_text())
    assert report["dataset"]["positive_class"] == "lo"
    assert report["black_box"]["accuracy_test"] >= 0.9  # a swapped class would be near 0
    assert any("as the run that saved the model read them: 0 = 'lo', 1 = 'not lo'" in note
               for note in report["dataset"]["notes"])
    refused = run_cli(*data, "--model", saved, "--positive", "mid", "--out",
                      str(tmp_path / "other"))
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert "run with --positive 'lo'" in refused.stderr.strip().splitlines()[-1]


def test_a_model_that_reads_a_constant_column_is_explained_with_it(tmp_path):
    # digits' blank pixels: "the model reads columns the table's reading dropped", with no
    # way out
    import xgboost as xgb

    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"x": rng.normal(size=200), "blank": 0.0, "z": rng.normal(size=200)})
    frame["label"] = np.where(frame.x + 0.3 * frame.z > 0, "yes", "no")
    frame.to_csv(tmp_path / "t.csv", index=False)
    model = xgb.XGBClassifier(n_estimators=10).fit(frame[["x", "blank", "z"]],
                                                    frame.label == "yes")
    model.save_model(tmp_path / "m.ubj")
    out = tmp_path / "run"
    done = run_cli("run", "--data", str(tmp_path / "t.csv"), "--target", "label", "--model",
                   str(tmp_path / "m.ubj"), "--out", str(out), "--learners", "fold",
                   *FAST_LIME)
    assert done.returncode == 0, done.stderr
    report = json.loads((out / "report.json").read_text())
    assert report["dataset"]["numeric"] == ["x", "blank", "z"]
    assert ("the model reads 'blank', which reading the table would drop as a feature: "
            "kept, as the model cannot be explained without it") in report["dataset"]["notes"]
    assert "kept column 'blank', which the model reads: a single value ('0')" in \
        report["dataset"]["notes"]  # not "as asked": the user asked nothing
    assert not any("as asked" in note for note in report["dataset"]["notes"])
    rows = pd.read_csv(out / "predictions.csv").sort_values("row")
    expected = np.where(model.predict(frame[["x", "blank", "z"]]) == 1, "yes", "no")
    assert (rows["black_box"].to_numpy() == expected[rows["row"]]).all()
    # from a pipe, which gives its rows once: the table is read twice here
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    proc = subprocess.Popen(
        [sys.executable, "-m", "explain", "run", "--data", str(pipe), "--target", "label",
         "--model", str(tmp_path / "m.ubj"), "--out", str(tmp_path / "piped"), "--learners",
         "fold", *FAST_LIME], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    text = (tmp_path / "t.csv").read_text()
    # a thread writes, so that a run that never opens the pipe cannot hang the test
    threading.Thread(target=lambda: Path(pipe).write_text(text), daemon=True).start()
    try:
        _, err = proc.communicate(timeout=240)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert (tmp_path / "piped" / "predictions.csv").read_text() == \
        (out / "predictions.csv").read_text()


def test_own_model_with_other_classes_is_one_line_exit_2(own_models, tmp_path):
    done = run_cli("run", "--data", str(own_models / "two.csv"), "--target", "label",
                   "--model", str(own_models / "three.ubj"), "--out", str(tmp_path / "o"),
                   *FAST)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert "gives 3 classes but target 'label' has 2" in last
    assert "give a table with rows of every class the model was trained on" in last


@pytest.mark.parametrize("args, words", [
    (["--target", "nope"], "nope"),
    ([], "--target"),
    (["--target", "target", "--learners", ""], "no learner given"),
    (["--target", "target", "--learners", " , "], "no learner given"),
    (["--target", "target", "--learners", "imli,ripper"], "unknown learner(s) ripper"),
])
def test_bad_input_is_one_line_exit_2(mixed_csv, tmp_path, args, words):
    done = run_cli("run", "--data", str(mixed_csv), "--out", str(tmp_path / "o"), *args, *FAST)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert words in last


@pytest.mark.parametrize("args, words", [
    (["--out", "/proc/surrogate-rules-nope"], "cannot write to --out /proc/surrogate-rules-nope"),
    (["--out", "/sys/kernel"], "cannot write to --out /sys/kernel"),   # exists, refuses files
    (["--out", "OUT", "--cache-dir", "/proc/version"],
     "cannot use '/proc/version' as the LIME cache directory"),
    (["--out", "LINK"], "LINK is a link to NOWHERE, which does not exist"),  # said "File exists"
    (["--out", "LINK/run"], "LINK is a link to NOWHERE, which does not exist"),
])
def test_unusable_directories_are_one_line_exit_2(mixed_csv, tmp_path, args, words):
    (tmp_path / "link").symlink_to(tmp_path / "nowhere")
    names = {"OUT": tmp_path / "o", "LINK": tmp_path / "link", "NOWHERE": tmp_path / "nowhere"}
    args = [a.replace("LINK", str(names["LINK"])) if "LINK" in a else str(names.get(a, a))
            for a in args]
    for key, value in names.items():
        words = words.replace(key, str(value))
    fast = [a for a in FAST if a != "--no-cache"]
    done = run_cli("run", "--data", str(mixed_csv), "--target", "target", *args, *fast)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert words in done.stderr.strip().splitlines()[-1]


def test_markup_in_names_is_printed_as_text_and_the_explained_class_is_said(tmp_path):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"[/dim]": rng.normal(size=90), "[bold]c": rng.choice(["x", "y"], 90)})
    frame["cls"] = np.where(frame["[/dim]"] > 0.5, "k1", np.where(frame["[/dim]"] < -0.5,
                                                                   "k2", "k3"))
    data = tmp_path / "[red]d.csv"
    frame.to_csv(data, index=False)
    done = run_cli("run", "--data", str(data), "--target", "cls", "--out",
                   str(tmp_path / "[x]"), "--learners", "fold", *FAST_LIME)
    assert done.returncode == 0, done.stderr
    assert "explaining 'k" in done.stdout and "against the rest" in done.stdout
    assert "[red]d" in done.stdout and "[x]/report.json" in done.stdout


def test_a_column_named_in_another_unicode_form_is_found_and_look_alikes_refused(tmp_path):
    # 'é' as one character (NFC, as most keyboards type it) or as 'e' and an accent (NFD,
    # as macOS writes file names and some tools their headers): the same name in print
    composed, decomposed = "\u00e9tat", "e\u0301tat"
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"x": rng.normal(size=120), "id": np.arange(120) % 7})
    frame[decomposed] = np.where(frame["x"] > 0, "up", "down")
    frame.to_csv(tmp_path / "nfd.csv", index=False)
    done = run_cli("run", "--data", str(tmp_path / "nfd.csv"), "--target", composed,
                   "--drop", "id", "--out", str(tmp_path / "o"), "--train-view", "raw",
                   "--learners", "fold")
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "o" / "report.json").read_text())
    assert report["dataset"]["target"] == decomposed
    assert report["dataset"]["numeric"] == ["x"]

    frame["\u00e9tat"] = frame["x"]  # a feature whose name prints as the target's
    frame.to_csv(tmp_path / "twins.csv", index=False)
    for command in ("run", "compare"):
        done = run_cli(command, "--data", str(tmp_path / "twins.csv"), "--target", decomposed,
                       "--out", str(tmp_path / command), *FAST)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert done.stderr.strip().splitlines()[-1] == (
            "error: column names 'e\\u0301tat', '\\xe9tat' (escaped, as they print alike) "
            "are the same text written with different Unicode characters (an accented letter "
            "as one character or as a letter and an accent); rename them")


def test_labels_and_categories_that_print_alike_in_two_unicode_forms_are_one(tmp_path):
    # were two classes, both shown as 'café': "explaining 'café' against the rest", then
    # "predicts 'not café' for every row"; and two categories, so 'milk != é' held for é
    composed, decomposed = "caf\u00e9", "cafe\u0301"
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"x": rng.normal(size=120),
                          "milk": rng.choice(["\u00e9", "e\u0301", "no"], 120)})
    frame["y"] = np.where(frame["x"] > 0, composed, "tea")
    frame.loc[::3, "y"] = np.where(frame["x"][::3] > 0, decomposed, "tea")
    frame.to_csv(tmp_path / "labels.csv", index=False)
    done = run_cli("run", "--data", str(tmp_path / "labels.csv"), "--target", "y",
                   "--positive", decomposed, "--out", str(tmp_path / "o"),
                   "--train-view", "raw", "--learners", "fold")
    assert done.returncode == 0, done.stderr
    dataset = json.loads((tmp_path / "o" / "report.json").read_text())["dataset"]
    assert dataset["class_names"] == ["tea", composed]
    assert dataset["positive_class"] == composed
    assert ("target 'y': labels that are the same text in different Unicode characters (an "
            "accented letter as one character or as a letter and an accent) are one class "
            "('cafe\\u0301' = 'caf\\xe9')") in dataset["notes"]
    assert ("column 'milk': values that are the same text in different Unicode characters "
            "(an accented letter as one character or as a letter and an accent) are one "
            "category ('\\xe9' = 'e\\u0301')") in dataset["notes"]
    predictions = pd.read_csv(tmp_path / "o" / "predictions.csv", dtype=str)
    assert set(predictions["truth"]) == {"tea", composed}


@pytest.mark.parametrize("command", ["run", "compare"])
@pytest.mark.parametrize("pack, words", [
    ("gzip", "(it is gzip-compressed: decompress it, e.g. --data <(zcat FILE))"),
    ("bz2", "(it is bzip2-compressed: decompress it, e.g. --data <(bzcat FILE))"),
    ("xz", "(it is xz-compressed: decompress it, e.g. --data <(xzcat FILE))"),
    ("zip", "(it is a ZIP archive, as an Excel workbook is: extract the CSV, or save the "
            "sheet as CSV)"),
])
def test_a_compressed_csv_is_one_line_saying_what_it_is(tmp_path, capsys, command, pack,
                                                        words):
    import bz2
    import gzip
    import lzma
    import zipfile

    text = "x,y\n" + "".join(f"{i},{'ab'[i % 2]}\n" for i in range(40))
    path = tmp_path / "table.csv"
    packers = {"gzip": gzip, "bz2": bz2, "xz": lzma}  # bz2 was only "holds binary data"
    if pack in packers:
        path.write_bytes(packers[pack].compress(text.encode()))
    else:
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("table.csv", text)
    code = cli.main([command, "--data", str(path), "--target", "y", "--out",
                     str(tmp_path / "o"), *FAST])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: '") and err.count("\n") == 1
    assert err.endswith(f"' is not a text CSV file {words}; give a comma-separated text "
                        f"file with a header row\n")


def test_a_huge_whole_number_label_is_shown_as_written_not_as_its_floats_digits(tmp_path):
    # '1e+308' was the class '100000000000000001097906362944...' (309 digits, most of them
    # the float's rounding), in the report, predictions.csv and fold.pl
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"x": rng.normal(size=120)})
    frame["y"] = np.where(frame["x"] > 0, 1e308, -1e308)
    frame.to_csv(tmp_path / "huge.csv", index=False)
    done = run_cli("run", "--data", str(tmp_path / "huge.csv"), "--target", "y",
                   "--positive", "1e308", "--out", str(tmp_path / "o"), "--train-view", "raw",
                   "--learners", "fold")
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "o" / "report.json").read_text())
    assert report["dataset"]["class_names"] == ["-1e+308", "1e+308"]
    truth = pd.read_csv(tmp_path / "o" / "predictions.csv", dtype=str)["truth"]
    assert set(truth) == {"-1e+308", "1e+308"}
    assert "Label = '1e+308'" in (tmp_path / "o" / "fold.pl").read_text()


def test_missing_file_is_one_line_exit_2(tmp_path):
    done = run_cli("run", "--data", str(tmp_path / "absent.csv"), "--target", "y",
                   "--out", str(tmp_path / "o"), *FAST)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_whole_run_time_limit_stops_cleanly(mixed_csv, tmp_path):
    done = run_cli("run", "--data", str(mixed_csv), "--target", "target", "--out",
                   str(tmp_path / "o"), "--num-samples", "100000", "--n-jobs", "1",
                   "--no-cache", "--max-seconds", "1")  # LIME alone needs well over 1 s
    assert done.returncode == 3, done.stderr
    assert "Traceback" not in done.stderr and "--max-seconds" in done.stderr
    assert "without a cache (--no-cache) nothing was kept" in done.stderr
    assert not (tmp_path / "o").exists()  # the empty directory it made is removed


def test_a_stop_that_surfaces_as_another_error_is_still_a_stop(capsys):
    # joblib, interrupted while starting a thread, raised its own RuntimeError on cleanup
    from explain.cli import RunTimeout, Terminated, _stopped, parse_args
    run = parse_args(["run", "--data", "x.csv", "--target", "t", "--max-seconds", "4",
                      "--out", "o"])

    def raised(first, then):
        try:
            try:
                raise first
            except BaseException:
                raise then
        except BaseException as err:
            return err

    assert _stopped(raised(RunTimeout(), RuntimeError("cannot join thread")), run) == 3
    assert "--max-seconds 4" in capsys.readouterr().err
    assert _stopped(raised(KeyboardInterrupt(), OSError("pipe")), run) == 130
    assert _stopped(raised(Terminated(), RuntimeError("cannot join thread")), run) == 143
    with pytest.raises(RuntimeError, match="a bug"):
        _stopped(raised(ValueError("x"), RuntimeError("a bug")), run)


@pytest.mark.parametrize("stop, code, word", [(KeyboardInterrupt, 130, "interrupted"),
                                              ("Terminated", 143, "terminated")])
def test_a_stop_after_the_files_are_written_says_the_run_is_complete(
        stop, code, word, tmp_path, monkeypatch, capsys):
    # Ctrl-C while the summary printed said "interrupted: nothing was kept"
    from explain import cli

    stop = getattr(cli, stop) if isinstance(stop, str) else stop

    def summary(report):
        raise stop()

    monkeypatch.setattr(cli, "_summary_table", summary)
    out = tmp_path / "o"
    assert cli.main(["run", "--data", "iris", "--out", str(out), *FAST]) == code
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == f"{word} after the run wrote its files: the results in {out} are complete"
    assert json.loads((out / "report.json").read_text())["learners"]


@pytest.fixture
def stoppable():
    """Ctrl-C as a terminal gives it, whatever the suite inherited (a script's
    `pytest &` starts with SIGINT ignored, which a run keeps)."""
    import signal

    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


@pytest.mark.parametrize("signame, stop", [("SIGINT", KeyboardInterrupt),
                                           ("SIGALRM", "RunTimeout"), ("SIGTERM", "Terminated")])
def test_a_stop_inside_xgboost_is_raised_once_it_returns(signame, stop, stoppable):
    """XGBoost's C++ training calls back into Python; a stop raised there unwound through
    it (XGBoost ignored it, failed a check or crashed)."""
    import signal
    import time

    import explain.cli as cli

    stop = getattr(cli, stop) if isinstance(stop, str) else stop
    space = {"__name__": "xgboost.training"}  # a function of XGBoost's, as the stack sees it
    exec("def train(signum, wait):\n"
         "    import os, time\n"
         "    os.kill(os.getpid(), signum)\n"
         "    end = time.monotonic() + wait\n"
         "    while time.monotonic() < end:\n"
         "        pass\n"
         "    return 'trained'\n", space)
    finished = []
    with pytest.raises(stop):
        with cli.run_stops(None):
            finished.append(space["train"](getattr(signal, signame), 4 * cli.RETRY_SECONDS))
            time.sleep(30)  # the stop comes here, once XGBoost has returned
    assert finished == ["trained"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back


def test_a_signal_the_parent_ignores_stays_ignored():
    # `explain ... &` in a script: Ctrl-C at the terminal stopped the background run
    import signal

    import explain.cli as cli

    before = {s: signal.signal(s, signal.SIG_IGN) for s in (signal.SIGINT, signal.SIGALRM)}
    try:
        with cli.run_stops(None):
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
            assert signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL  # still a stop
            # the run's own timer (--max-seconds) is not the parent's to silence
            assert signal.getsignal(signal.SIGALRM) is not signal.SIG_IGN
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


def test_a_stop_during_real_training_ends_it_after_the_current_round(stoppable):
    # the stop used to wait for the whole training (24 s on a wide table)
    import signal
    import threading

    import explain.cli as cli
    from adapters import TableEncoder
    from adapters.xgboost_box import STOP_TRAINING, train_xgboost

    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(20_000, 40)), columns=[f"x{i}" for i in range(40)])
    y = (X["x0"] + rng.normal(size=len(X)) > 0).to_numpy(dtype=int)
    encoder = TableEncoder().fit(X, ())
    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        with cli.run_stops(None):
            timer.start()
            # thousands of deep trees: minutes of training
            train_xgboost(X, y, encoder, (), n_estimators=5000, max_depth=8,
                          early_stopping_rounds=None)
    assert time.monotonic() - started < 10
    assert not STOP_TRAINING.is_set()  # a later training is not stopped


def test_a_run_into_out_that_another_run_filled_meanwhile_is_refused(tmp_path, monkeypatch):
    out = tmp_path / "run"
    run = parse_args(["run", "--data", "iris", "--out", str(out), "--no-cache"])

    def other_run_ends(*args, **kwargs):  # while this one runs
        (out / "report.json").write_text("{}")
        return object()

    monkeypatch.setattr(cli, "run_pipeline", other_run_ends)
    with pytest.raises(InputError, match="another run wrote its report to .* while this one"):
        execute(run, Console(file=io.StringIO()))
    assert (out / "report.json").read_text() == "{}"


def test_a_run_that_ended_between_the_check_and_the_lock_is_not_overwritten(tmp_path,
                                                                            monkeypatch):
    # the other run held the lock, wrote its report and let go, after this one had found
    # no report and before it took the lock
    out = tmp_path / "run"
    run = parse_args(["run", "--data", "iris", "--out", str(out), "--no-cache"])
    lock = cli.run_lock

    def other_run_ends_first(folder):
        with lock(folder):
            (out / "report.json").write_text("{}")
        return lock(folder)

    monkeypatch.setattr(cli, "run_lock", other_run_ends_first)
    with pytest.raises(InputError, match="already holds a run's report"):
        execute(run, Console(file=io.StringIO()))
    assert (out / "report.json").read_text() == "{}"


def test_running_out_of_memory_is_one_line(tmp_path, monkeypatch, capsys):
    def too_large(*args, **kwargs):
        return np.zeros((2**30, 2**20))  # numpy's own MemoryError

    monkeypatch.setattr(cli, "run_pipeline", too_large)
    code = cli.main(["run", "--data", "iris", "--out", str(tmp_path / "run"), "--no-cache"])
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1, err
    assert err.startswith("error: out of memory (Unable to allocate 8.00 PiB for an array ")
    assert err.endswith("; give fewer rows or LIME samples (--num-samples)\n")


def test_arguments_of_bytes_that_are_not_utf8_are_read(mixed_csv, tmp_path):
    """A Latin-1 file name in --data and --out: pyswip, loading, encodes every argument."""
    data = os.fsencode(tmp_path / "caf") + b"\xe9.csv"
    out = os.fsencode(tmp_path / "out") + b"\xe9"
    Path(os.fsdecode(data)).write_bytes(mixed_csv.read_bytes())
    done = subprocess.run([sys.executable, "-m", "explain", "run", "--data", data, "--target",
                           "target", "--out", out, *FAST], capture_output=True, cwd=ROOT,
                          timeout=600)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    report = json.loads(Path(os.fsdecode(out), "report.json").read_text(encoding="utf-8"))
    assert report["dataset"]["name"] == "caf\ufffd"


def test_an_output_that_cannot_encode_a_character_shows_it_as_a_question_mark(mixed_csv,
                                                                             tmp_path):
    done = subprocess.run([sys.executable, "-m", "explain", "run", "--data", str(mixed_csv),
                           "--target", "target", "--out", str(tmp_path / "run"), *FAST],
                          capture_output=True, text=True, cwd=ROOT, timeout=600,
                          env={**os.environ, "PYTHONIOENCODING": "ascii"})
    assert done.returncode == 0, done.stderr
    assert "Fidelity to the black box ? mixed" in done.stdout


def test_a_failed_run_removes_only_the_empty_directories_it_made(tmp_path):
    done = run_cli("run", "--data", str(tmp_path / "absent.csv"), "--target", "y",
                   "--out", str(tmp_path / "new" / "deeper"), *FAST)
    assert done.returncode == 2 and not (tmp_path / "new").exists()
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("kept")
    done = run_cli("run", "--data", str(tmp_path / "absent.csv"), "--target", "y",
                   "--out", str(tmp_path / "mine"), *FAST)
    assert done.returncode == 2 and (tmp_path / "mine" / "notes.txt").read_text() == "kept"


@pytest.mark.parametrize("signame, code, words", [
    ("SIGINT", 130, "run the same command again"),
    # `timeout` and job schedulers send SIGTERM: it left the empty --out behind
    ("SIGTERM", 143, "terminated (SIGTERM); finished LIME batches are kept in the cache"),
])
def test_a_stop_during_lime_keeps_finished_batches(tmp_path, signame, code, words):
    import signal
    import time

    cache, out = tmp_path / "cache", tmp_path / "new" / "out"
    proc = subprocess.Popen(
        [sys.executable, "-m", "explain", "run", "--data", "breast_cancer", "--out",
         str(out), "--cache-dir", str(cache), "--num-samples", "20000", "--n-jobs", "1",
         "--learners", "fold"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 240
    while not list(cache.rglob("*.npz")) and time.monotonic() < deadline:
        time.sleep(0.2)
    proc.send_signal(getattr(signal, signame))
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == code, err
    assert "Traceback" not in err and words in err.strip().splitlines()[-1]
    assert not (tmp_path / "new").exists()  # the empty --out it made is removed
    assert list(cache.rglob("*.npz")), "finished batches must stay in the cache"
    assert not list(cache.rglob("*.tmp"))


def test_compare_views_without_lime_is_a_usage_error(capsys):
    from explain.cli import parse_args

    with pytest.raises(SystemExit) as stop:
        parse_args(["demo", "--out", "unused", "--train-view", "raw", "--compare-views"])
    err = capsys.readouterr().err
    # in the command's words, as argparse's own errors are
    assert stop.value.code == 2 and err.startswith("python -m explain demo: error: "
                                                   "--compare-views compares")
    assert err.endswith("(see python -m explain demo --help)\n") and err.count("\n") == 1


@pytest.mark.parametrize("command", ["run", "compare"])
def test_a_value_that_reads_as_an_option_is_told_how_to_write(command, capsys):
    # a column named '-x': argparse takes '-x' for an option and says only that --target
    # expected one argument
    with pytest.raises(SystemExit) as stop:
        parse_args([command, "--data", "t.csv", "--out", "o", "--target", "-x"])
    assert stop.value.code == 2
    assert capsys.readouterr().err == (
        f"python -m explain {command}: error: argument --target: expected one argument; "
        f"write --target=VALUE for a value that starts with '-' (see python -m explain "
        f"{command} --help)\n")
    assert parse_args([command, "--data", "t.csv", "--out", "o", "--target=-x"]).target == "-x"
    with pytest.raises(SystemExit):  # an option given last, with no value, gets no such hint
        parse_args([command, "--data", "t.csv", "--out", "o", "--target"])
    assert capsys.readouterr().err == (
        f"python -m explain {command}: error: argument --target: expected one argument "
        f"(see python -m explain {command} --help)\n")


@pytest.mark.parametrize("option, value", [
    ("--test-size", "2"), ("--test-size", "nan"), ("--top-k", "0"), ("--num-samples", "1"),
    ("--lime-pool-rows", "0"), ("--n-jobs", "0"), ("--imli-clauses", "0"),
    ("--data-fidelity", "0"), ("--time-limit", "-1"), ("--max-seconds", "0"),
    ("--top-k", "five"), ("--seed", "4294967296"), ("--seed", "-1"), ("--out", ""),
    ("--cache-dir", " "), ("--model", ""), ("--data-fidelity", "inf"), ("--time-limit", "inf"),
    ("--max-seconds", "1e400"), ("--learners", "foo"), ("--fold-mdl-weight", "-1"),
    ("--max-seconds", "1e12"), ("--data-fidelity", "1e-7"), ("--data-fidelity", "1e19"),
    ("--time-limit", "1e10"),
    ("--fold-mdl-weight", "nothing"), ("--fold-mdl-weight", "1e308"),
    ("--fold-mdl-weight", "1.0000001e9"), ("--data-fidelity", "1.0000001e9"),
    ("--num-samples", "10000000000"), ("--lime-pool-rows", "9223372036854775808"),
])
def test_out_of_range_options_are_usage_errors(option, value, capsys):
    from explain.cli import parse_args

    with pytest.raises(SystemExit) as stop:
        parse_args(["demo", "--out", "unused", option, value])
    assert stop.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "usage:" not in lines[0], lines  # no usage block first
    assert option in lines[0] and value in lines[0] and "--help" in lines[0]
    if option == "--seed":  # an integer's bound in full, not < 4.29497e+09
        assert ">= 0 and < 4294967296, got" in lines[0]


@pytest.mark.parametrize("options, words", [
    (["--learners", "fold", "--imli-clauses", "3", "--time-limit", "5"],
     "--imli-clauses, --time-limit set IMLI, which --learners fold does not run: ignored"),
    (["--learners", "imli", "--fold-mdl-weight", "none"],
     "--fold-mdl-weight sets FOLD, which --learners imli does not run: ignored"),
    (["--lime-engine", "reference", "--lime-mode", "exact"],
     "--lime-mode sets the batched LIME engine, not --lime-engine reference: ignored"),
    (["--lime-engine", "reference", "--lime-pool-rows", "4"], None),  # it seeds the rows
    (["--learners", "imli,fold", "--time-limit", "5", "--lime-mode", "exact"], None),
    (["--train-view", "raw", "--top-k", "3", "--lime-mode", "exact", "--discretizer", "decile"],
     "--top-k, --lime-mode set LIME, which --train-view raw does not run: ignored"),
    (["--model", "box.ubj", "--class-weight", "balanced"],
     "--class-weight sets the black box trained here, and --model explains yours as it is: "
     "ignored"),
    (["--class-weight", "none"], None),
    (["--model", "box.ubj", "--class-weight", "none"], None),  # as without it
])
def test_options_that_will_not_apply_are_warned_of(options, words, capsys):
    # they used to pass silently and be recorded in report.json as if they had applied
    from explain.cli import parse_args

    parse_args(["demo", "--out", "unused", *options])
    err = capsys.readouterr().err
    assert err == (f"warning: {words}\n" if words else ""), err


def test_progress_off_a_terminal_is_a_line_per_quarter_with_true_rates(capsys):
    # a sweep's first report comes after its first fit: its rate was 150000 fits/s
    import io

    from rich.console import Console

    from explain.cli import _progress_reporter

    with _progress_reporter(Console(file=io.StringIO())) as progress:
        for done in range(1, 9):
            progress("sweep imli", done, 8)
            time.sleep(0.01)  # a fit: at most 100 fits/s
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "sweep imli: 1/8 fits"  # no rate yet
    assert [line.split(",")[0] for line in lines[1:]] == [
        "sweep imli: 2/8 fits", "sweep imli: 4/8 fits", "sweep imli: 6/8 fits",
        "sweep imli: 8/8 fits"]
    assert all(float(line.split(", ")[1].split()[0]) <= 100 for line in lines[1:])


def test_progress_off_a_terminal_also_prints_slow_steps_within_a_quarter(capsys, monkeypatch):
    # a quarter of a slow LIME stage can take minutes: a log showed nothing for 185 s
    import io

    from rich.console import Console

    from explain import cli

    steps = [(0.0, 0), (10.0, 1), (40.0, 2), (100.0, 2), (101.0, 3), (110.0, 4),
             (120.0, 100)]
    clock = iter(t for t, _ in steps)
    monkeypatch.setattr(cli.time, "monotonic", lambda: next(clock))
    with cli._progress_reporter(Console(file=io.StringIO())) as progress:
        for _, done in steps:
            progress("LIME, training rows", done, 100)
    lines = [line.split(",")[1] for line in capsys.readouterr().err.splitlines()]
    # 1 is 10 s after a line; 2 again is no work since its line; 4 is 9 s after 3's
    assert lines == [" training rows: 0/100 rows", " training rows: 2/100 rows",
                     " training rows: 3/100 rows", " training rows: 100/100 rows"]


def test_missing_markers_are_repeatable():
    from explain.cli import parse_args

    run = parse_args(["run", "--data", "x.csv", "--target", "t", "--out", "o",
                      "--missing", "-999", "--missing", "?"])
    assert run.missing == ("-999", "?")
    assert parse_args(["demo", "--out", "o"]).missing == ()


@pytest.mark.parametrize("options, words", [
    (["--learners", "fold", "--sweep-clauses", "1,2"],
     "--sweep-clauses sets IMLI, which --learners fold does not run: ignored"),
    (["--learners", "imli", "--sweep-mdl-weight", "1"],
     "--sweep-mdl-weight sets FOLD, which --learners imli does not run: ignored"),
])
def test_sweep_options_of_a_learner_not_run_are_warned_of(options, words, capsys):
    from explain.cli import parse_args

    parse_args(["compare", "--data", "x.csv", "--out", "o", *options])
    assert capsys.readouterr().err == f"warning: {words}\n"


def test_batched_engine_options_keep_their_defaults_unless_given():
    from explain.cli import parse_args

    lime = parse_args(["demo", "--out", "unused"]).config.lime
    assert (lime.mode, lime.pool_rows, lime.top_k, lime.num_samples, lime.engine) == (
        "fast", 32, 5, 5000, "batched")
    lime = parse_args(["demo", "--out", "unused", "--lime-mode", "exact",
                       "--lime-pool-rows", "1"]).config.lime
    assert (lime.mode, lime.pool_rows) == ("exact", 1)


@pytest.mark.parametrize("value, expected", [("2", {"mdl_weight": 2.0}),
                                             ("None", {"mdl_weight": None}), (None, {}),
                                             # what the estimator takes, at the ends
                                             ("0", {"mdl_weight": 0.0}),
                                             ("1e9", {"mdl_weight": 1e9})])
def test_fold_size_option(value, expected):
    from explain.cli import parse_args

    option = [] if value is None else ["--fold-mdl-weight", value]
    assert parse_args(["demo", "--out", "unused", *option]).config.fold_params == expected


def test_the_command_line_takes_the_estimators_own_limits():
    from explain.cli import parse_args

    config = parse_args(["demo", "--out", "unused", "--data-fidelity", "1e9"]).config
    assert config.imli_params["data_fidelity"] == 1e9
    sweep = parse_args(["compare", "--data", "x.csv", "--out", "unused",
                        "--sweep-data-fidelity", "1e-6,1e9", "--sweep-mdl-weight", "0,1e9"])
    assert sweep.sweep.data_fidelity == (1e-6, 1e9) and sweep.sweep.mdl_weight == (0.0, 1e9)


@pytest.mark.parametrize("option, value", [
    ("--sweep-data-fidelity", "1,1e-7"), ("--sweep-data-fidelity", "1e19"),
    ("--sweep-clauses", "0"), ("--sweep-mdl-weight", "-1"), ("--sweep-time-limit", "1e10"),
    ("--sweep-mdl-weight", "1,1e308"),
])
def test_out_of_range_sweep_options_are_usage_errors(option, value, capsys):
    from explain.cli import parse_args

    with pytest.raises(SystemExit) as stop:
        parse_args(["compare", "--data", "x.csv", "--out", "unused", option, value])
    assert stop.value.code == 2 and option in capsys.readouterr().err.splitlines()[-1]


def test_a_scheduler_with_no_address_is_one_line_and_quick(mixed_csv, tmp_path):
    # a Client built from it hung a minute on exit, then printed a traceback
    started = time.perf_counter()
    done = run_cli("run", "--data", str(mixed_csv), "--target", "target", "--out",
                   str(tmp_path / "o"), "--scheduler", "not-an-address", *FAST)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith(
        "error: could not connect to the Dask scheduler 'not-an-address' (missing port number")
    assert time.perf_counter() - started < 45


def test_notes_of_the_run_are_printed_after_its_table(mixed_csv, tmp_path):
    """A learner no better than one constant answer, and held-out copies of training rows,
    are said on the terminal, not only in the reports."""
    doubled = tmp_path / "doubled.csv"
    frame = pd.read_csv(mixed_csv)
    pd.concat([frame, frame]).to_csv(doubled, index=False)
    done = run_cli("run", "--data", str(doubled), "--target", "target", "--learners", "fold",
                   "--fold-mdl-weight", "1000", *FAST, "--out", str(tmp_path / "run"))
    assert done.returncode == 0, done.stderr
    out = " ".join(done.stdout.split())  # rich wraps long lines
    table_end = out.index("optimal")
    assert out.index("FOLD does no better: read its rules with care.") > table_end
    assert out.index("held-out rows") > table_end
    assert out.count("held-out rows") == 1


def test_a_note_already_said_is_not_repeated():
    report = {"dataset": {"notes": ["chosen class", "warned of", "copies"]},
              "black_box": {"majority_fidelity_test": 0.6, "majority_label": "no"},
              "learners": {"imli": {"fidelity_test": 0.9}, "fold": {"fidelity_test": 0.7}}}
    assert _notes_after_the_run(report, ("chosen class", "warned of")) == ["copies"]
    report["learners"]["fold"]["fidelity_test"] = 0.6
    notes = _notes_after_the_run(report, ())
    assert notes[:3] == ["chosen class", "warned of", "copies"]
    assert notes[3].endswith("FOLD does no better: read its rules with care.")


def test_warnings_shown_during_a_run_are_recorded_and_still_shown():
    printed = []
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = lambda message, *rest: printed.append(str(message))
        with _warnings_shown() as shown:
            warnings.warn("warned of", UserWarning)
        warnings.warn("after", UserWarning)
    assert shown == ["warned of"] and printed == ["warned of", "after"]


def test_lime_categories_one_hot(mixed_csv, tmp_path):
    """LIME's one-hot view of categories (classical negations), batched engine only."""
    out = tmp_path / "run"
    done = run_cli("run", "--data", str(mixed_csv), "--target", "target", "--out", str(out),
                   "--learners", "fold", "--lime-categories", "one-hot", *FAST_LIME)
    assert done.returncode == 0, done.stderr
    report = json.loads((out / "report.json").read_text())
    assert report["lime"]["categories"] == "one-hot"
    refused = run_cli("run", "--data", str(mixed_csv), "--target", "target", "--out",
                      str(tmp_path / "ref"), "--lime-categories", "one-hot", "--lime-engine",
                      "reference", *FAST_LIME)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert "needs the batched engine" in refused.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize("view, cache, said", [
    ("lime+raw", True, "finished LIME batches are kept in the cache (the fits are redone), "
                       "so running it again resumes LIME"),
    ("raw", True, "nothing was kept (a run without LIME caches nothing)"),
    ("raw", False, "without a cache (--no-cache) nothing was kept"),
])
def test_a_stop_says_what_a_rerun_resumes(view, cache, said, tmp_path, capsys):
    # it promised that a rerun resumes, though only LIME is cached (and a raw run has none)
    from explain.cli import RunTimeout, _stopped, parse_args

    run = parse_args(["run", "--data", "iris", "--out", str(tmp_path / "o"),
                      "--train-view", view, "--max-seconds", "5",
                      *([] if cache else ["--no-cache"])])
    assert _stopped(RunTimeout(), run) == 3
    assert capsys.readouterr().err.strip().endswith(said)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_stdout_that_cannot_be_written_leaves_the_run_its_files_and_one_warning(tmp_path):
    out = tmp_path / "run"
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "explain", "run", "--data", "iris",
                               "--out", str(out), *FAST], stdout=full, stderr=subprocess.PIPE,
                              text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
    [warning] = [line for line in done.stderr.splitlines() if "standard output" in line]
    assert warning == (f"warning: standard output could not be written (No space left on "
                       f"device); the results are in {out}")
    assert json.loads((out / "report.json").read_text())["learners"]["fold"]


def test_a_pipe_closed_early_is_the_same(tmp_path):
    out = tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-m", "explain", "run", "--data", "iris",
                             "--out", str(out), *FAST], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    proc.stdout.readline()  # as `| head -1` reads: one line, then the pipe is closed
    proc.stdout.close()
    stderr = proc.stderr.read()
    assert proc.wait(timeout=600) == 0, stderr
    assert "Traceback" not in stderr
    assert "warning: standard output could not be written (Broken pipe)" in stderr
    assert (out / "report.json").is_file()


def test_no_stdout_at_all_is_the_same_as_one_nobody_reads(tmp_path, monkeypatch):
    # Python sets sys.stdout to None when fd 1 is closed (``>&-``) or under pythonw
    monkeypatch.setattr(sys, "stdout", None)
    out = tmp_path / "run"
    assert cli.main(["run", "--data", "iris", "--out", str(out), *FAST]) == 0
    assert (out / "report.json").is_file()


def test_an_unusable_default_cache_is_a_warning_and_no_cache(tmp_path, monkeypatch, capsys):
    # a read-only home ended the run, though no cache was asked for
    from explain.cli import parse_args

    (tmp_path / "a_file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "a_file"))
    run = parse_args(["demo", "--out", "unused"])
    assert run.cache_dir is None
    err = capsys.readouterr().err
    assert err.startswith("warning: cannot use ") and err.endswith("running without a cache\n")
    # a run without LIME uses no cache: nothing to warn about
    parse_args(["demo", "--out", "unused", "--train-view", "raw"])
    assert capsys.readouterr().err == ""


def test_an_out_name_too_long_is_one_line(tmp_path):
    done = run_cli("run", "--data", "iris", "--out", str(tmp_path / ("é" * 130)), *FAST_LIME)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].endswith("(File name too long); choose "
                                                          "another --out")


def test_lime_options_said_to_be_ignored_are_ignored():
    # "... set LIME, which --train-view raw does not run: ignored", then the same options
    # refused together (one-hot needs the batched engine)
    from explain.cli import parse_args

    run = parse_args(["run", "--data", "x.csv", "--out", "unused", "--train-view", "raw",
                      "--lime-categories", "one-hot", "--lime-engine", "reference",
                      "--top-k", "2", "--discretizer", "decile"])
    lime = run.config.lime
    assert (lime.categories, lime.engine, lime.top_k) == ("value", "batched", 5)
    assert lime.discretizer == "decile"  # the bins still make IMLI's thresholds


def test_one_hot_lime_on_a_table_without_categories_to_negate_is_warned_of(tmp_path, capsys):
    # other options that cannot apply are warned of; this one passed silently, and the
    # report recorded it as if it had applied
    frame = pd.DataFrame({"x": np.linspace(-1, 1, 80), "flag": ["a", "b"] * 40})
    frame["t"] = np.where(frame.x > 0, "yes", "no")
    csv = tmp_path / "two.csv"
    frame.to_csv(csv, index=False)  # one categorical column, of two values: no negation
    out = tmp_path / "run"
    assert cli.main(["run", "--data", str(csv), "--target", "t", "--out", str(out),
                     "--learners", "fold", "--lime-categories", "one-hot", *FAST_LIME]) == 0
    err = capsys.readouterr().err
    warning = ("warning: LimeConfig.categories='one-hot' (--lime-categories one-hot) negates "
               "the categories of a categorical column of more than two, and the training rows "
               "have none: ignored\n")
    assert err.count(warning) == 1, err
    report = json.loads((out / "report.json").read_text())
    assert report["parameters"]["lime"]["categories"] == report["lime"]["categories"] == "value"


@pytest.mark.parametrize("option, value", [
    ("--sweep-data-fidelity", ",10"), ("--sweep-data-fidelity", "1,,10"),
    ("--sweep-clauses", "1,2,"), ("--sweep-mdl-weight", "none, ,1"), ("--learners", "imli,"),
])
def test_an_empty_item_of_a_comma_list_is_a_usage_error(option, value, capsys):
    # ',10' was read as '10' without a word: a value lost in editing went unseen
    with pytest.raises(SystemExit) as stop:
        parse_args(["compare", "--data", "t.csv", "--target", "t", "--out", "o", option, value])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"argument {option}: an empty item in {value!r}" in err


def test_a_repeated_item_of_a_comma_list_is_used_once_with_a_warning(capsys):
    run = parse_args(["compare", "--data", "t.csv", "--target", "t", "--out", "o",
                      "--sweep-data-fidelity", "1,10,1.0", "--sweep-clauses", "2,1,2",
                      "--sweep-mdl-weight", "0.5,none,None,1", "--learners", "fold,imli,fold"])
    assert run.sweep.data_fidelity == (1.0, 10.0) and run.sweep.n_clauses == (2, 1)
    assert run.sweep.mdl_weight == (0.5, None, 1.0) and run.config.learners == ("fold", "imli")
    err = capsys.readouterr().err.splitlines()
    assert err == ["warning: --learners gives fold more than once; each is used once",
                   "warning: --sweep-data-fidelity gives 1 more than once; each is used once",
                   "warning: --sweep-clauses gives 2 more than once; each is used once",
                   "warning: --sweep-mdl-weight gives none more than once; each is used once"]
    parse_args(["compare", "--data", "t.csv", "--target", "t", "--out", "o",
                "--sweep-clauses", "1,2"])
    assert capsys.readouterr().err == ""
    parse_args(["compare", "--data", "t.csv", "--target", "t", "--out", "o",
                "--sweep-clauses", "1000000,1000000"])  # an integer in full, not 1e+06
    assert "--sweep-clauses gives 1000000 more than once" in capsys.readouterr().err
    parse_args(["compare", "--data", "t.csv", "--target", "t", "--out", "o",
                "--sweep-data-fidelity", "1234567,1234568,1234567,1234568"])
    # as given, not '1.23457e+06,1.23457e+06' (two values printed alike)
    assert "--sweep-data-fidelity gives 1234567,1234568 more than once" in (
        capsys.readouterr().err)


def test_a_model_s_classes_match_a_later_table_s_labels_in_another_unicode_form(tmp_path):
    # trained on 'café' (one character 'é'), run on a table writing 'e' and an accent:
    # "the model's classes 'café', 'tea' are not the target's 'café', 'tea'"
    rng = np.random.default_rng(0)
    x = rng.normal(size=120)
    for form, label in (("nfc", "caf\u00e9"), ("nfd", "cafe\u0301")):
        pd.DataFrame({"x": x, "z": rng.normal(size=120),
                      "t": np.where(x > 0, label, "tea")}).to_csv(tmp_path / f"{form}.csv",
                                                                 index=False)
    fast = ("--target", "t", "--train-view", "raw", "--learners", "fold", *FAST)
    trained = run_cli("run", "--data", str(tmp_path / "nfc.csv"), "--out",
                      str(tmp_path / "trained"), *fast)
    assert trained.returncode == 0, trained.stderr
    later = run_cli("run", "--data", str(tmp_path / "nfd.csv"), "--model",
                    str(tmp_path / "trained" / "black_box.ubj"), "--out",
                    str(tmp_path / "later"), *fast)
    assert later.returncode == 0, later.stderr
    report = json.loads((tmp_path / "later" / "report.json").read_text())
    assert set(report["dataset"]["class_names"]) == {"cafe\u0301", "tea"}  # as it writes them
    assert report["black_box"]["accuracy_test"] > 0.9


def test_progress_rates_below_one_per_second_are_not_zero(capsys, monkeypatch):
    # a sweep over 100,000 rows fitted one model every few seconds: "0 fits/s"
    import io

    from rich.console import Console

    from explain import cli

    clock = iter([0.0, 5.0, 10.0, 15.0, 20.0])
    monkeypatch.setattr(cli.time, "monotonic", lambda: next(clock))
    with cli._progress_reporter(Console(file=io.StringIO())) as progress:
        for done in range(5):
            progress("sweep fold", done, 4)
    lines = capsys.readouterr().err.splitlines()
    assert lines[1:] == [f"sweep fold: {k}/4 fits, 0.2 fits/s" for k in range(1, 5)]
    assert [cli._per_second(n, 1.0) for n in (0.0314, 3.14, 9.96, 10.4, 1234.5)] == [
        "0.031", "3.1", "10", "10", "1234"]


def test_class_weight_balanced_explains_a_rare_class(tmp_path):
    # unweighted, the black box predicts the 9 'fraud' rows of 300 as 'ok', and the run stops
    rng = np.random.default_rng(1)
    frame = pd.DataFrame(rng.normal(size=(400, 4)), columns=list("abcd"))
    score = frame.a + 0.5 * rng.normal(size=400)
    frame["t"] = np.where(score > np.quantile(score, 0.97), "fraud", "ok")
    path = tmp_path / "rare.csv"
    frame.to_csv(path, index=False)
    args = ["run", "--data", str(path), "--target", "t", "--learners", "fold", *FAST_LIME]
    done = run_cli(*args, "--out", str(tmp_path / "plain"))
    assert done.returncode == 2 and "(--class-weight balanced)" in done.stderr, done.stderr
    done = run_cli(*args, "--out", str(tmp_path / "run"), "--class-weight", "balanced")
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "run" / "report.json").read_text())
    assert report["black_box"]["class_weights"] == {"ok": 1.0, "fraud": 291 / 9}
    assert report["parameters"]["class_weight"] == "balanced"
    assert report["black_box"]["positive_rate_test"] > 0
