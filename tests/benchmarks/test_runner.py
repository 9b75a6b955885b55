"""Benchmark runner pieces that need no pipeline run: folds, summaries, tables, the CLI."""
import json
import math
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

from benchmarks import tables
from benchmarks.__main__ import build_parser, main
from benchmarks.machine import environment
from benchmarks.runner import BenchConfig, fold_splits, save, summarize

ROOT = Path(__file__).resolve().parents[2]


def _entry(fid, lit, rules, seconds, fid_lime=None, optimal=None):
    entry = {"fidelity_test": fid, "fidelity_train": 1.0, "accuracy_test": fid - 0.05,
             "precision_test": 0.9, "recall_test": 0.9, "f1_test": fid - 0.1,
             "rule_size": lit, "n_rules": rules, "fit_seconds": seconds, "rules": "r"}
    if fid_lime is not None:
        entry["fidelity_test_lime"] = fid_lime
    if optimal is not None:
        entry["optimal"] = optimal
    return entry


def _fold(k, imli_fid, fold_fid, imli_optimal=True):
    return {
        "fold": k, "train_rows": 80, "test_rows": 40,
        "black_box": {"accuracy_test": 0.9 + 0.02 * k},
        "lime": {"seconds": 2.0},
        "methods": {
            "imli": _entry(imli_fid, 4, 2, 0.5 + k, fid_lime=0.8, optimal=imli_optimal),
            "fold": _entry(fold_fid, 6, 3, 0.1, fid_lime=0.85),
            "imli_nolime": _entry(0.9, 5, 2, 1.0, optimal=True),
            "foldrpp": _entry(0.88, 9, 4, 0.2, fid_lime=0.7),
            "ripper": _entry(0.91, 12, 5, 0.8, fid_lime=0.6),
            "tree3": _entry(0.9, 10, 4, 0.01),
        },
    }


@pytest.fixture
def result():
    folds = [_fold(0, 0.92, 0.90), _fold(1, 0.94, 0.86, imli_optimal=False),
             {"fold": 2, "error": "the black box predicts class 'a' for every training row"}]
    return {
        "dataset": {"name": "toy", "rows": 120, "features": 5, "categorical": 1,
                    "positive_class": "yes", "positive_rate": 0.25,
                    "notes": ["3 classes: explaining 'yes' (the minority) against the rest"]},
        "seconds": 12.0,
        "folds": folds,
        "summary": summarize(folds),
        "config": BenchConfig(datasets=("toy",), folds=3, lime_samples=500,
                              imli_params={"time_limit": 10.0}).to_dict(),
        "environment": {"cpu": "Test CPU", "cores": 4, "cores_available": 2,
                        "platform": "Linux", "python": "3.11.7",
                        "versions": {"numpy": "2.0", "foldrpp": None},
                        "swipl": "SWI-Prolog version 9", "date": "2025-01-01 00:00 UTC",
                        "command": "python -m benchmarks run --quick"},
    }


def test_summarize_means_std_and_medians(result):
    summary = result["summary"]
    imli = summary["methods"]["imli"]
    assert imli["fidelity_test"]["mean"] == pytest.approx(0.93)
    assert imli["fidelity_test"]["std"] == pytest.approx(0.01)
    assert imli["fit_seconds"] == pytest.approx(1.0)  # median of 0.5 and 1.5
    assert imli["optimal"] == {"optimal": 1, "of": 2}
    assert "fidelity_test_lime" not in summary["methods"]["imli_nolime"]
    assert "optimal" not in summary["methods"]["fold"]
    assert summary["folds_ok"] == 2 and len(summary["errors"]) == 1
    assert summary["black_box_accuracy"]["mean"] == pytest.approx(0.91)
    assert summary["lime_seconds"] == pytest.approx(4.0)


def test_dataset_table_rows_and_cells(result):
    text = tables.render_dataset(result)
    lines = text.splitlines()
    assert lines[0] == "### toy"
    assert "2/3 folds" in text and "Failed folds (1): the black box predicts" in text
    assert "Note: 3 classes: explaining 'yes' (the minority) against the rest." in text
    header = next(line for line in lines if line.startswith("| method"))
    assert header.count("|") == len(tables.COLUMNS) + 1
    rows = {line.split(" | ")[0][2:]: line for line in lines if line.startswith("| ")}
    assert list(rows)[1:] == ["IMLI (ours)", "FOLD (ours)", "IMLI, no LIME (ablation)",
                              "FOLD-R++", "RIPPER", "tree, depth 3"]
    assert rows["IMLI (ours)"] == ("| IMLI (ours) | 0.930 ± 0.010 | 0.800 ± 0.000 | "
                                   "0.880 ± 0.010 | 0.830 ± 0.010 | 2 | 4 | 1.00 | 1/2 |")
    assert rows["tree, depth 3"].endswith("| 4 | 10 | 0.01 | – |")
    assert "| 0.900 ± 0.000 | – |" in rows["IMLI, no LIME (ablation)"]


def test_dataset_with_no_successful_fold_has_no_table(result):
    error = "the black box predicts class 'rest' for every training row"
    folds = [{"fold": k, "error": error} for k in range(3)]
    failed = {**result, "folds": folds, "summary": summarize(folds)}
    text = tables.render_dataset(failed)
    assert f"Failed folds (3): {error}" in text
    assert "| method" not in text and "0/3 folds" in text


def test_targets_line(result):
    line = tables.targets(result["summary"]["methods"])
    assert line == (
        "Targets (raw-test fidelity ≥, literals ≤ / <): best of ours (IMLI 0.930, 4 literals) "
        "vs best peer (RIPPER 0.910, 12 literals): met; FOLD vs FOLD-R++: met; "
        "IMLI vs RIPPER: met.")
    worse = json.loads(json.dumps(result["summary"]["methods"]))
    peer = worse["foldrpp"]
    worse["fold"]["rule_size"] = peer["rule_size"] + 1
    assert (f"FOLD vs FOLD-R++: not met ({peer['rule_size'] + 1:g} vs {peer['rule_size']:g} "
            "literals)") in tables.targets(worse)
    worse["fold"]["fidelity_test"]["mean"] = peer["fidelity_test"]["mean"] - 0.25
    assert "FOLD vs FOLD-R++: not met (fidelity -0.250, fold std" in tables.targets(worse)
    worse["fold"]["fidelity_test"]["mean"] = peer["fidelity_test"]["mean"] - 0.0002
    assert "FOLD vs FOLD-R++: not met (fidelity -0.0002, fold std" in tables.targets(worse)
    worse["fold"] = json.loads(json.dumps(peer))
    assert "FOLD vs FOLD-R++: not met (tie: equal fidelity and literals)" in tables.targets(worse)


def test_summary_lists_every_target(result):
    text = tables.render_summary([result])
    assert text.startswith("### Targets at a glance (3 of 3 met)")
    # results saved before the held-out rows were kept: no empty column, no note of it
    assert "held-out rows" not in text and text.splitlines()[2].count("|") == 6
    assert "| toy | FOLD vs FOLD-R++ | FOLD " in text
    worse = json.loads(json.dumps(result))
    worse["summary"]["methods"]["imli"]["rule_size"] = 99.0
    text = tables.render_summary([worse])
    assert "(1 of 3 met)" in text and text.count("**not met**: 99 vs") == 2
    assert tables.render_summary([]) == ""


def test_render_header_and_document(result):
    text = tables.render([result])
    assert text.startswith("## Results\n")
    assert "- Machine: Test CPU, 2 cores available (4 total), Linux" in text
    assert "- Python 3.11.7; numpy 2.0; SWI-Prolog version 9" in text
    assert "- Command: `python -m benchmarks run --quick`" in text
    assert "stratified 3-fold (seed 0)" in text
    assert ("LIME (500 samples per row, top 5 features, entropy bins, categories as value)"
            in text)  # saved
    environment = {**result["environment"], "pythonhashseed": "0", "commit": "abc123+"}
    assert ("- Command: `PYTHONHASHSEED=0 python -m benchmarks run --quick` at commit abc123+"
            in tables.render([{**result, "environment": environment}]))
    for random_hashes in ("", "random"):  # what Python reads as no fixed seed
        environment["pythonhashseed"] = random_hashes
        assert ("- Command: `python -m benchmarks run --quick` at commit abc123+"
                in tables.render([{**result, "environment": environment}]))
    del result["config"]["discretizer"]  # saved before the setting existed: quartile
    del result["config"]["top_k"]  # saved before the setting existed: 5
    del result["config"]["lime_categories"], result["config"]["lime_samples"]
    assert ("LIME (number of samples not recorded, top 5 features, quartile bins, categories "
            "not recorded)" in tables.render([result]))
    assert "; IMLI time limit 10 s per fit." in text
    assert "### Targets at a glance" in text
    assert tables.render([]) == "No results.\n"


def test_saved_result_renders_from_the_table_command(result, tmp_path, capsys):
    path = save(result, tmp_path)
    assert path.name == "toy.json"
    assert tables.load_results(tmp_path)[0]["summary"] == result["summary"]
    # the table sub-command only accepts benchmark dataset names; render all results
    assert main(["table", "--results", str(tmp_path)]) == 0
    assert "### toy" in capsys.readouterr().out
    assert main(["table", "--results", str(tmp_path / "absent")]) == 2
    assert "no benchmark results in" in capsys.readouterr().err


def test_fold_splits_are_stratified_seeded_and_cover_every_row():
    y = np.array([0] * 30 + [1] * 12)
    splits = fold_splits(y, 3, random_state=0)
    assert len(splits) == 3
    tests = np.concatenate([test for _, test in splits])
    assert sorted(tests.tolist()) == list(range(len(y)))
    for train, test in splits:
        assert not set(train) & set(test)
        assert np.sum(y[test] == 1) == 4
    again = fold_splits(y, 3, random_state=0)
    assert all((a[1] == b[1]).all() for a, b in zip(splits, again))


def test_run_command_line_options():
    args = build_parser().parse_args(["run", "--quick", "--datasets", "iris", "--peers",
                                      "tree3", "--no-ablation"])
    assert args.quick and args.datasets == ["iris"] and args.peers == ["tree3"]
    assert args.no_ablation and args.folds is None and args.discretizer is None
    args = build_parser().parse_args(["run", "--discretizer", "entropy"])
    assert args.discretizer == "entropy"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["run", "--discretizer", "mdl"])


@pytest.mark.parametrize("option, value", [
    ("--folds", "1"), ("--lime-samples", "-5"), ("--lime-samples", "0"),
    ("--imli-time-limit", "0"), ("--imli-time-limit", "inf"), ("--seed", "-1"),
    ("--seed", "4294967296"), ("--top-k", "0"), ("--lime-samples", "2000000"),
    ("--imli-time-limit", "1e300"),
])
def test_out_of_range_run_options_are_usage_errors(option, value, capsys):
    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args(["run", option, value])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and option in err and len(err.splitlines()) == 1, err


def test_too_many_folds_and_foreign_result_files_are_one_line_errors(tmp_path, capsys):
    from benchmarks.datasets import DatasetError

    with pytest.raises(DatasetError, match="cannot split 42 rows into 50 folds"):
        fold_splits(np.array([0] * 30 + [1] * 12), 50, random_state=0)
    (tmp_path / "x.json").write_text('{"a": 1}')
    assert main(["table", "--results", str(tmp_path)]) == 2
    assert "is not a benchmark result" in capsys.readouterr().err
    (tmp_path / "x.json").write_text('{"dataset": {}, "summary": {}, "environment": {}}')
    assert main(["table", "--results", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.endswith("is not a benchmark result (its dataset has no name)\n")
    assert err.count("\n") == 1


def test_discretizer_reaches_lime_and_the_header(result):
    from benchmarks.runner import _run_config

    assert _run_config(BenchConfig()).lime.discretizer == "entropy"
    assert _run_config(BenchConfig(discretizer="decile")).lime.discretizer == "decile"
    result["config"]["discretizer"] = "decile"
    assert "LIME (500 samples per row, top 5 features, decile bins," in tables.render([result])


def test_top_k_reaches_lime_and_the_header(result):
    from benchmarks.runner import _run_config

    assert _run_config(BenchConfig()).lime.top_k == 5
    assert _run_config(BenchConfig(top_k=8)).lime.top_k == 8
    assert build_parser().parse_args(["run", "--top-k", "8"]).top_k == 8
    result["config"]["top_k"] = 8
    assert "LIME (500 samples per row, top 8 features, entropy bins," in tables.render([result])


def test_positive_option_is_checked_before_any_work(capsys):
    assert main(["run", "--datasets", "ecoli", "--positive", "ecoli=xx"]) == 2
    assert "ecoli has no class 'xx'; choose from cp, im" in capsys.readouterr().err
    assert main(["run", "--positive", "ecoli"]) == 2
    capsys.readouterr()
    assert main(["run", "--datasets", "ecoli", "--positive", "ecoli=pp", "ecoli=im"]) == 2
    assert capsys.readouterr().err == "error: --positive gives ecoli twice (ecoli=pp, ecoli=im)\n"
    assert main(["run", "--datasets", "iris", "--positive", "ecoli=pp"]) == 2
    assert capsys.readouterr().err == ("error: --positive ecoli=pp: ecoli is not among the "
                                       "datasets run (iris)\n")


def test_list_options_keep_each_name_once():
    args = build_parser().parse_args(["run", "--datasets", "iris", "wine", "iris", "--peers",
                                      "tree3", "tree5", "tree3"])
    assert args.datasets == ["iris", "wine"] and args.peers == ["tree3", "tree5"]
    args = build_parser().parse_args(["table", "--datasets", "wine", "wine"])
    assert args.datasets == ["wine"]


def test_a_bad_setting_fails_when_the_config_is_made():
    with pytest.raises(ValueError, match="n_jobs"):
        BenchConfig(lime_jobs=0)


def test_saved_config_records_the_defaults_that_change_results():
    from explain.learners import IMLI_DEFAULTS
    from explain.lime_runner import LimeConfig

    saved = BenchConfig().to_dict()
    assert saved["lime_samples"] == LimeConfig.num_samples
    assert saved["imli_params"] == {"time_limit": IMLI_DEFAULTS["time_limit"]}
    assert saved["lime_categories"] == LimeConfig.categories
    given = BenchConfig(lime_samples=300, imli_params={"time_limit": 5.0}).to_dict()
    assert given["lime_samples"] == 300 and given["imli_params"] == {"time_limit": 5.0}


def test_every_dataset_is_loaded_before_the_first_fold(tmp_path, monkeypatch):
    from benchmarks import runner
    from benchmarks.datasets import FetchError

    def load(name, data_dir=None):
        if name == "ecoli":
            raise FetchError("fetching ecoli: offline")
        return None

    def run_dataset(*args):
        raise AssertionError("no fold runs before every dataset is loaded")
    monkeypatch.setattr(runner, "load", load)
    monkeypatch.setattr(runner, "run_dataset", run_dataset)
    config = BenchConfig(datasets=("iris", "ecoli"), peers=(), out_dir=tmp_path)
    with pytest.raises(FetchError, match="offline"):
        runner.run(config, "python -m benchmarks run")


def test_choose_positive_relabels_one_class_against_the_rest():
    from benchmarks.datasets import load
    from benchmarks.runner import choose_positive, to_project_dataset

    original = to_project_dataset(load("wine"))
    wine = choose_positive(original, "class_1")
    assert wine.class_names == ("not class_1", "class_1")
    assert int(wine.y.sum()) == 71 and "chosen with --positive" in wine.notes[-1]
    with pytest.raises(ValueError, match="choose from class_0, class_1, class_2"):
        choose_positive(original, "class_9")


def test_environment_names_machine_and_command():
    env = environment("python -m benchmarks run")
    assert env["cores"] >= 1 and env["cpu"]
    assert env["versions"]["numpy"] == np.__version__
    assert env["command"] == "python -m benchmarks run"
    assert env["pythonhashseed"] == os.environ.get("PYTHONHASHSEED")
    # this checkout's commit, "+" when tracked files differ from it (a clean clone: none)
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short=12", "HEAD"],
                          capture_output=True, text=True)
    if head.returncode == 0:
        assert env["commit"].rstrip("+") == head.stdout.strip()


def test_header_names_the_command_and_the_commit():
    from benchmarks.machine import header

    lines = header("python -m benchmarks.bench_fold --repeats 1").splitlines()
    assert [line.split(":")[0] for line in lines] == ["Machine", "Versions", "Command"]
    commit = environment("")["commit"]
    assert lines[2] == ("Command: python -m benchmarks.bench_fold --repeats 1"
                        + (f" at commit {commit}" if commit else ""))


def test_run_dataset_end_to_end_on_iris(tmp_path):
    """The real pipeline, ablation and a peer on iris (setosa vs rest is not the minority:
    all classes tie, so the first, setosa, is explained), two folds, few LIME samples."""
    from benchmarks.runner import run_dataset

    config = BenchConfig(datasets=("iris",), folds=2, lime_samples=200, lime_jobs=1,
                         peers=("tree3",),
                         imli_params={"time_limit": 5.0}, out_dir=tmp_path, cache_dir=None)
    lines = []
    result = run_dataset("iris", config, log=lines.append)
    assert result["dataset"]["positive_class"] == "setosa"
    assert result["summary"]["folds_ok"] == 2
    methods = result["summary"]["methods"]
    assert set(methods) == {"imli", "fold", "imli_nolime", "fold_nolime", "imli_limeonly",
                            "fold_limeonly", "tree3"}
    for name in ("imli", "fold"):
        # every variant is measured in both protocols: the ablations are refitted on the
        # same fold's views, LIME-filtered test rows included
        for variant in ("", "_nolime", "_limeonly"):
            assert "fidelity_test_lime" in methods[name + variant]
            # the ablations, tested against the default view on the same rows
            assert ("vs_run_test" in methods[name + variant]) == bool(variant)
    assert methods["tree3"]["fidelity_test"]["mean"] == 1.0  # setosa is separable
    fold = result["folds"][0]
    assert fold["train_rows"] + fold["test_rows"] == 150
    for name in ("imli", "fold", "tree3"):  # the targets' paired test needs their rows
        pooled = []
        for one in result["folds"]:
            entry = one["methods"][name]
            assert len(entry["disagree_rows"]) == round((1 - entry["fidelity_test"])
                                                        * one["test_rows"])
            pooled += entry["disagree_rows"]
        assert methods[name]["disagree_rows"] == sorted(set(pooled))  # each row tested once
        assert set(pooled) <= set(range(150))
    assert any(line.startswith("[iris fold 2/2] tree3") for line in lines)
    assert "### iris" in tables.render_dataset(result)


@pytest.mark.parametrize("option", ["--out", "--cache-dir", "--data-dir"])
def test_a_folder_option_naming_a_file_is_refused_before_any_work(option, tmp_path, capsys):
    afile = tmp_path / "afile"
    afile.write_text("x")
    others = {"--out": tmp_path / "o", "--cache-dir": tmp_path / "c",
              "--data-dir": tmp_path / "d"}
    others[option] = afile
    argv = ["run", "--datasets", "iris"]
    for name, folder in others.items():
        argv += [name, str(folder)]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"error: {option} {str(afile)!r} is a file, not a folder"


def test_equal_fidelities_summed_in_another_order_are_a_tie():
    # the same fold scores in another order: means differ by ~1e-16
    ours, theirs = [73, 88, 71, 82, 81], [81, 82, 73, 88, 71]
    a = {"fidelity_test": {"mean": np.mean(np.array(ours) / 90), "std": 0.0}, "rule_size": 5}
    b = {"fidelity_test": {"mean": np.mean(np.array(theirs) / 90), "std": 0.0},
         "rule_size": 9}
    assert tables._compare(a, b) == (True, "")
    b["rule_size"] = 5
    assert tables._compare(a, b) == (False, "tie: equal fidelity and literals")


def test_results_of_several_runs_say_so_and_keep_run_order(result, tmp_path):
    first = json.loads(json.dumps(result))
    second = json.loads(json.dumps(result))
    second["dataset"]["name"] = "aaa"
    second["environment"]["command"] = "python -m benchmarks run --datasets aaa"
    save(first, tmp_path)
    save(second, tmp_path)
    loaded = tables.load_results(tmp_path)
    text = tables.render(loaded)
    assert ("These results come from more than one run (the header is the first's): "
            "`python -m benchmarks run --quick` (toy); "
            "`python -m benchmarks run --datasets aaa` (aaa).") in text


def test_a_run_where_no_fold_finished_exits_1(result, tmp_path, monkeypatch, capsys):
    from benchmarks import runner

    failed = {**result, "folds": [{"fold": 0, "error": "e"}],
              "summary": summarize([{"fold": 0, "error": "e"}])}
    monkeypatch.setattr(runner, "run", lambda config, command: [failed])
    assert main(["run", "--datasets", "iris", "--out", str(tmp_path / "o"), "--no-cache",
                 "--data-dir", str(tmp_path / "d")]) == 1
    assert "no fold of any dataset ran to the end" in capsys.readouterr().err


def test_a_read_only_dataset_folder_holding_the_datasets_is_accepted(result, tmp_path,
                                                                     monkeypatch, capsys):
    from benchmarks import __main__ as cli, runner

    data = tmp_path / "d"
    data.mkdir()
    monkeypatch.setattr(cli.os, "access", lambda path, mode: Path(path) != data)
    monkeypatch.setattr(runner, "run", lambda config, command: [result])
    argv = ["run", "--out", str(tmp_path / "o"), "--no-cache", "--data-dir", str(data)]
    # iris is bundled with scikit-learn: nothing to write into the dataset folder
    assert main(argv + ["--datasets", "iris"]) == 0
    # heart is fetched into it
    assert main(argv + ["--datasets", "heart"]) == 2
    assert capsys.readouterr().err.strip().endswith(f"--data-dir {str(data)!r} is not writable")


def test_refits_are_tested_against_the_default_view_pooled_over_the_folds(result):
    folds = json.loads(json.dumps(result["folds"]))
    for k, (refit, run) in enumerate([(2, 7), (1, 3)]):
        folds[k]["methods"]["imli_nolime"]["vs_run_test"] = {
            "only_refit_faithful": refit, "only_run_faithful": run, "p_value": 1.0}
    summary = summarize(folds)
    pooled = summary["methods"]["imli_nolime"]["vs_run_test"]
    p = 2 * sum(math.comb(13, k) for k in range(4)) / 2 ** 13  # 3 of 13 discordant rows
    assert pooled == {"only_refit_faithful": 3, "only_run_faithful": 10,
                      "p_value": pytest.approx(p)}
    text = tables.render_dataset({**result, "folds": folds, "summary": summary})
    rows = {line.split(" | ")[0][2:]: line for line in text.splitlines()
            if line.startswith("| ")}
    assert rows["method"].endswith(f"| {tables.VS_DEFAULT} |")
    assert rows["IMLI, no LIME (ablation)"].endswith(f"| +7 (p = {p:.3f}) |")
    assert rows["IMLI (ours)"].endswith("| – |") and tables.VS_DEFAULT_NOTE in text
    # results saved before: no such column
    assert tables.VS_DEFAULT not in tables.render_dataset(result)


def test_targets_pool_each_methods_held_out_rows_and_test_them_paired(result):
    folds = json.loads(json.dumps(result["folds"]))
    # fold 0 tests rows 0-39, fold 1 rows 40-79: FOLD is wrong on 3 + 2, FOLD-R++ on 4 + 10,
    # two of FOLD-R++'s wrong rows are FOLD's too
    wrong = {("fold", 0): [1, 2, 3], ("fold", 1): [41, 42],
             ("foldrpp", 0): [1, 2, 5, 6], ("foldrpp", 1): list(range(50, 60))}
    for (name, k), rows in wrong.items():
        folds[k]["methods"][name]["disagree_rows"] = rows
    summary = summarize(folds)
    assert summary["methods"]["fold"]["disagree_rows"] == [1, 2, 3, 41, 42]
    assert "disagree_rows" not in summary["methods"]["imli"]  # no fold gave its rows
    fold, foldrpp = summary["methods"]["fold"], summary["methods"]["foldrpp"]
    # only FOLD right on 12 rows, only FOLD-R++ on 3: two-sided exact binomial
    p = 2 * sum(math.comb(15, k) for k in range(4)) / 2 ** 15
    assert 0.001 < p < 0.05  # shown to two significant digits
    assert tables.paired_rows(fold, foldrpp) == f"5 vs 14 rows, p = {p:.2g}"
    assert tables.paired_rows(foldrpp, fold) == f"14 vs 5 rows, p = {p:.2g}"
    assert tables.paired_rows(fold, fold) == "5 vs 5 rows, p = 1.00"
    assert tables.paired_rows(fold, summary["methods"]["imli"]) == ""
    line = tables.targets(summary["methods"])
    assert f"FOLD vs FOLD-R++: met [held-out rows disagreeing: 5 vs 14 rows, p = {p:.2g}]" in line
    assert "IMLI vs RIPPER: met;" not in line and line.endswith("IMLI vs RIPPER: met.")
    text = tables.render_summary([{**result, "folds": folds, "summary": summary}])
    assert f"| met | 5 vs 14 rows, p = {p:.2g} |" in text
    assert "| met | – |" in text  # IMLI vs RIPPER: no rows to pool
    assert tables.PAIRED_NOTE in text
