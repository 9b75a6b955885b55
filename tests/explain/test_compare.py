"""The sweep reuses one LIME run; the ablation reuses the black box; `compare` writes it all."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import explain.pipeline as pipeline
from adapters import InputError, from_frame
from explain.compare import SweepConfig, _point, pareto_front, refit, run_compare
from explain.lime_runner import LimeConfig
from explain.outputs import report_json_text
from explain.pipeline import RunConfig

ROOT = Path(__file__).resolve().parents[2]
#: XGBoost's OpenMP threads can stall for many seconds on a busy 2-core machine.
ONE_THREAD = {**os.environ, "OMP_NUM_THREADS": "1"}
SWEEP = SweepConfig(data_fidelity=(1.0, 10.0), n_clauses=(1, 2), mdl_weight=(0.2, 0.5, 2.0),
                    imli_time_limit=3.0)


def _frame(n=200, seed=0):
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({
        "score": rng.normal(0, 1, n),
        "colour": rng.choice(["red", "green", "blue"], n),
        "count": rng.integers(0, 10, n).astype(float),
    })
    frame["target"] = np.where((frame["score"] > 0.3) | (frame["colour"] == "red"), "hit", "miss")
    return frame


@pytest.fixture(scope="module")
def compared():
    calls = {"lime": 0, "xgboost": 0}
    explain_rows, train_xgboost = pipeline.explain_rows, pipeline.train_xgboost

    def counting_lime(*args, **kwargs):
        calls["lime"] += 1
        return explain_rows(*args, **kwargs)

    def counting_xgboost(*args, **kwargs):
        calls["xgboost"] += 1
        return train_xgboost(*args, n_jobs=1, **kwargs)  # see ONE_THREAD

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pipeline, "explain_rows", counting_lime)
        patch.setattr(pipeline, "train_xgboost", counting_xgboost)
        dataset = from_frame(_frame(), "target", positive="hit", name="hits")
        config = RunConfig(lime=LimeConfig(num_samples=300, n_jobs=1),
                           imli_params={"time_limit": 5.0})
        result = run_compare(dataset, config, SWEEP)
    return result, calls


def test_one_lime_run_and_one_black_box(compared):
    _, calls = compared
    assert calls == {"lime": 2, "xgboost": 1}  # train and test rows, once


def test_sweep_covers_the_grid(compared):
    result, _ = compared
    sweep = result.report["sweep"]
    imli, fold = sweep["learners"]["imli"], sweep["learners"]["fold"]
    assert [p["params"] for p in imli] == [
        {"data_fidelity": lam, "n_clauses": k} for k in (1, 2) for lam in (1.0, 10.0)
    ]
    assert [p["params"] for p in fold] == [{"mdl_weight": w} for w in (0.2, 0.5, 2.0)]
    for points in (imli, fold):
        assert [p["pareto"] for p in points] == pareto_front(points)
        assert any(p["pareto"] for p in points)
        for p in points:
            assert 0.0 <= p["fidelity_test"] <= 1.0 and "fidelity_test_lime" in p
            assert p["rule_size"] >= 0 and p["fit_seconds"] >= 0
    assert all(isinstance(p["optimal"], bool) for p in imli)
    assert sweep["config"]["imli_time_limit"] == 3.0


def test_every_training_view_is_compared(compared):
    result, _ = compared
    report = result.report
    filtering = report["filtering"]
    assert filtering["run_view"] == report["parameters"]["train_view"]
    assert filtering["views"] == ["lime+raw", "lime", "raw"]
    for name in ("imli", "fold"):
        views = filtering["learners"][name]
        own = views[filtering["run_view"]]
        assert own["fidelity_test"] == report["learners"][name]["fidelity_test"]
        assert own["rule_size"] == report["learners"][name]["rule_size"]
        for view in filtering["views"]:
            assert 0.0 <= views[view]["fidelity_test"] <= 1.0
    report_json_text(report)  # JSON-ready, no NaN


def test_refitting_on_the_run_view_gives_the_run_rules(compared):
    result, _ = compared
    view = result.report["parameters"]["train_view"]
    point = _point(result, "fold", dict(result.report["parameters"]["fold_params"]), view)
    entry = result.report["learners"]["fold"]
    assert (point["fidelity_test"], point["rule_size"]) == (entry["fidelity_test"],
                                                            entry["rule_size"])


def test_each_refit_is_tested_against_the_runs_own_fit_on_the_same_rows(compared):
    from explain.metrics import discordant_test
    from explain.report_md import vs_run_cell

    result, _ = compared
    report, bb_test = result.report, result.labels["bb_test"]
    view = report["parameters"]["train_view"]
    same = refit(result, "fold", view)  # the run's own setting: the same labels
    assert same["vs_run_test"] == {"only_refit_faithful": 0, "only_run_faithful": 0,
                                   "p_value": 1.0}
    assert vs_run_cell(same) == "same"
    points = [p for name in ("imli", "fold") for p in report["sweep"]["learners"][name]]
    points += [v for name in ("imli", "fold")
               for k, v in report["filtering"]["learners"][name].items() if k != view]
    assert all("vs_run_test" in p for p in points)
    for name in ("imli", "fold"):
        run = report["learners"][name]
        for p in report["sweep"]["learners"][name]:
            vs = p["vs_run_test"]
            more_wrong = vs["only_run_faithful"] - vs["only_refit_faithful"]
            assert more_wrong == round((run["fidelity_test"] - p["fidelity_test"]) * len(bb_test))
            assert vs["p_value"] == discordant_test(vs["only_refit_faithful"],
                                                    vs["only_run_faithful"])["p_value"]
    assert any(p["vs_run_test"]["only_refit_faithful"] + p["vs_run_test"]["only_run_faithful"]
               for p in points)  # some refit labels some row otherwise


def test_vs_run_cells():
    from explain.report_md import vs_run_cell

    assert vs_run_cell({}) == "–"
    assert vs_run_cell({"vs_run_test": {"only_refit_faithful": 1, "only_run_faithful": 4,
                                        "p_value": 0.375}}) == "+3 (p = 0.38)"
    assert vs_run_cell({"vs_run_test": {"only_refit_faithful": 9, "only_run_faithful": 0,
                                        "p_value": 0.0039}}) == "-9 (p = 0.0039)"


@pytest.mark.parametrize("view", ["raw", "lime"])
def test_a_refit_on_another_view_equals_a_run_on_it(compared, view):
    # the benchmarks' ablations are refits; they used to be whole runs (LIME twice)
    result, _ = compared
    params = result.report["parameters"]
    config = RunConfig(lime=LimeConfig(num_samples=300, n_jobs=1), train_view=view,
                       imli_params=params["imli_params"], fold_params=params["fold_params"],
                       test_size=params["test_size"], random_state=params["random_state"])
    dataset = from_frame(_frame(), "target", positive="hit", name="hits")
    run = pipeline.run_pipeline(dataset, config, black_box=result.black_box)
    for name in ("imli", "fold"):
        refitted = refit(result, name, view)
        own = run.report["learners"][name]
        assert refitted["rules"] == own["rules"]
        for key in set(own) - {"fit_seconds"}:  # a raw run has no LIME-protocol keys
            assert refitted[key] == own[key], (name, key)


def test_pareto_front_by_hand():
    points = [{"rule_size": s, "fidelity_test": f}
              for s, f in [(2, 0.7), (4, 0.9), (3, 0.7), (4, 0.9), (6, 0.85), (8, 0.95)]]
    assert pareto_front(points) == [True, True, False, True, False, True]


def test_compare_command_writes_the_full_report(tmp_path):
    csv = tmp_path / "hits.csv"
    _frame(160, seed=3).to_csv(csv, index=False)
    out = tmp_path / "cmp"
    done = subprocess.run(
        [sys.executable, "-m", "explain", "compare", "--data", str(csv), "--target", "target",
         "--out", str(out), "--num-samples", "200", "--n-jobs", "1", "--time-limit", "5",
         "--no-cache", "--sweep-data-fidelity", "1,10,1", "--sweep-clauses", "1",
         "--sweep-mdl-weight", "0.5,none,1,None", "--sweep-time-limit", "2"],
        capture_output=True, text=True, cwd=ROOT, timeout=300, env=ONE_THREAD,
    )
    assert done.returncode == 0, done.stderr
    for name in ("report.json", "report.md", "report.html", "imli.txt", "fold.pl"):
        assert (out / name).is_file(), name
    report = json.loads((out / "report.json").read_text())
    assert len(report["sweep"]["learners"]["imli"]) == 2
    fold = report["sweep"]["learners"]["fold"]
    assert [p["params"]["mdl_weight"] for p in fold] == [0.5, None, 1.0]  # none: plain FOLD
    assert report["sweep"]["config"]["mdl_weight"] == [0.5, None, 1.0]
    assert fold[1]["rule_size"] >= max(fold[0]["rule_size"], fold[2]["rule_size"])
    assert "filtering" in report and "Pareto" in done.stdout
    md = (out / "report.md").read_text()
    assert "## Fidelity vs rule size" in md and "| mdl\\_weight=none | " in md
    assert "mdl_weight=none" in (out / "report.html").read_text()


def test_compare_rejects_a_bad_grid(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "explain", "compare", "--data", "iris", "--out",
         str(tmp_path / "o"), "--sweep-clauses", "two"],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )
    assert done.returncode == 2 and "--sweep-clauses" in done.stderr


def test_run_can_compare_training_views(tmp_path, monkeypatch):
    from explain.cli import main

    train_xgboost = pipeline.train_xgboost
    monkeypatch.setattr(pipeline, "train_xgboost",
                        lambda *args, **kwargs: train_xgboost(*args, n_jobs=1, **kwargs))

    csv = tmp_path / "hits.csv"
    _frame(120, seed=4).to_csv(csv, index=False)
    out = tmp_path / "run"
    code = main(["run", "--data", str(csv), "--target", "target", "--out", str(out),
                 "--learners", "fold", "--num-samples", "200", "--n-jobs", "1", "--no-cache",
                 "--compare-views"])
    assert code == 0
    report = json.loads((out / "report.json").read_text())
    assert set(report["filtering"]["learners"]["fold"]) == {"lime+raw", "lime", "raw"}
    assert "sweep" not in report
    assert "The effect of LIME filtering" in (out / "report.md").read_text()


@pytest.mark.parametrize("top_k, same", [(3, True), (1, False)])
def test_compare_views_says_when_lime_kept_every_feature(tmp_path, monkeypatch, top_k, same):
    from explain.cli import main

    train_xgboost = pipeline.train_xgboost
    monkeypatch.setattr(pipeline, "train_xgboost",
                        lambda *args, **kwargs: train_xgboost(*args, n_jobs=1, **kwargs))
    frame = _frame(120, seed=5)
    frame["colour"] = (frame["colour"] == "red").astype(float)  # numbers only: no negation
    csv = tmp_path / "numbers.csv"
    frame.to_csv(csv, index=False)
    out = tmp_path / "run"
    assert main(["run", "--data", str(csv), "--target", "target", "--out", str(out),
                 "--learners", "fold", "--num-samples", "200", "--n-jobs", "1", "--no-cache",
                 "--top-k", str(top_k), "--compare-views"]) == 0
    report = json.loads((out / "report.json").read_text())
    assert report["filtering"]["same_rows"] is same
    note = "LIME kept every feature of every training row"
    assert (note in (out / "report.md").read_text()) is same
    assert (note in (out / "report.html").read_text()) is same


def test_pareto_table_settings_wrap_in_a_narrow_terminal():
    # cut to "data_fidelit…", four settings read alike in 80 columns
    from rich.console import Console

    from explain.cli import _pareto_table

    points = [{"params": {"data_fidelity": d, "n_clauses": k}, "fidelity_test": 0.9,
               "rule_size": d + k, "pareto": True, "optimal": False}
              for d in (1, 3) for k in (1, 2)]
    console = Console(width=80, record=True)
    console.print(_pareto_table({"sweep": {"learners": {"imli": points}}}))
    text = console.export_text()
    assert "…" not in text
    cells = re.findall(r"│ imli +│ ([^│]+?) *│.*\n│ +│ ([^│]+?) *│", text)
    assert ["".join(cell) for cell in cells] == [
        f"data_fidelity={d}, n_clauses={k}" for d in (1, 3) for k in (1, 2)]


@pytest.mark.parametrize("given, words", [
    ({"data_fidelity": 3.0}, r"^SweepConfig.data_fidelity must be a tuple of numbers"),
    ({"mdl_weight": 0.5}, r"^SweepConfig.mdl_weight must be a tuple of numbers"),
    ({"n_clauses": "12"}, r"^SweepConfig.n_clauses must be a tuple of ints"),
    ({"n_clauses": (1.5,)}, r"^SweepConfig.n_clauses must be a tuple of ints, got 1.5"),
    ({"n_clauses": (True,)}, r"^SweepConfig.n_clauses must be a tuple of ints, got True"),
    ({"data_fidelity": ("3",)}, r"^SweepConfig.data_fidelity must be a tuple of numbers, "
                                r"got '3'"),
    ({"data_fidelity": ()}, r"^SweepConfig.data_fidelity must hold at least one value"),
    ({"n_clauses": (0,)}, r"^SweepConfig.n_clauses: .*n_clauses.* must be an int in the range"),
    ({"data_fidelity": (float("nan"),)}, r"^SweepConfig.data_fidelity: "),
    ({"data_fidelity": (-1.0,)}, r"^SweepConfig.data_fidelity: "),
    ({"mdl_weight": (-1.0,)}, r"^SweepConfig.mdl_weight: "),
    ({"mdl_weight": (1e308,)}, r"^SweepConfig.mdl_weight: FOLD's mdl_weight must be at most"),
    ({"imli_time_limit": "15"}, r"^SweepConfig.imli_time_limit must be a number or None"),
    ({"imli_time_limit": -1}, r"^SweepConfig.imli_time_limit: "),
])
def test_a_bad_sweep_setting_is_refused_in_one_line_naming_it(given, words):
    # each was taken as given (1.5 clauses as 1, "12" as 1 and 2) or refused by the
    # estimator, deep in scikit-learn, only after the run's LIME stage
    with pytest.raises(InputError, match=words):
        SweepConfig(**given)


def test_sweep_settings_are_taken_as_plain_values():
    config = SweepConfig(data_fidelity=np.array([1, 10.0]), n_clauses=[np.int64(2)],
                         mdl_weight=[None, np.float32(0.5)], imli_time_limit=np.int64(3))
    assert config.to_dict() == {"data_fidelity": [1.0, 10.0], "n_clauses": [2],
                                "mdl_weight": [None, 0.5], "imli_time_limit": 3.0}
    assert json.dumps(config.to_dict())


def test_run_compare_refuses_a_sweep_config_of_another_type_before_the_run():
    stages = []
    with pytest.raises(InputError, match=r"^sweep_config must be a SweepConfig, got dict"):
        run_compare(from_frame(_frame(), "target"), RunConfig(lime=LimeConfig(num_samples=300)),
                    {"n_clauses": (1,)}, progress=lambda stage, done, total: stages.append(stage))
    assert stages == []  # nothing was trained or explained first


def test_compare_without_lime_does_not_say_the_views_hold_other_rows(tmp_path, monkeypatch):
    # same_rows was false: it tells whether the LIME-filtered rows are the full rows, and
    # a run of --train-view raw has no LIME-filtered rows
    from explain.cli import main

    train_xgboost = pipeline.train_xgboost
    monkeypatch.setattr(pipeline, "train_xgboost",
                        lambda *args, **kwargs: train_xgboost(*args, n_jobs=1, **kwargs))
    csv = tmp_path / "hits.csv"
    _frame(120, seed=5).to_csv(csv, index=False)
    out = tmp_path / "run"
    assert main(["compare", "--data", str(csv), "--target", "target", "--out", str(out),
                 "--learners", "fold", "--train-view", "raw", "--no-cache",
                 "--sweep-mdl-weight", "0.5"]) == 0
    filtering = json.loads((out / "report.json").read_text())["filtering"]
    assert filtering["views"] == ["raw"] and filtering["same_rows"] is None
    assert "LIME was not run" in (out / "report.md").read_text()
