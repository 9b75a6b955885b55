"""The settings-selection benchmark: its grid, its choices and its measurements."""

import doctest

import pytest

import benchmarks.bench_selection
from adapters import load_dataset
from benchmarks.bench_selection import CHOICES, build_parser, grid, main, run_dataset
from benchmarks.runner import BenchConfig, _run_config, fold_splits
from explain.compare import SweepConfig
from explain.pipeline import binarize_target, run_pipeline


def test_grid_is_the_sweep_over_the_run_settings():
    sweep = SweepConfig(data_fidelity=(1.0, 10.0), n_clauses=(1, 3), mdl_weight=(0.5,))
    imli = grid("imli", {"time_limit": 5.0}, sweep)
    assert len(imli) == 4 and all(s["time_limit"] == 5.0 for s in imli)
    assert {(s["data_fidelity"], s["n_clauses"]) for s in imli} == {
        (1.0, 1), (10.0, 1), (1.0, 3), (10.0, 3)}
    assert grid("fold", {}, sweep) == [{"mdl_weight": 0.5}]


def test_choices_pick_as_documented():
    # the module's examples (benchmarks/ is outside pytest's doctest paths)
    result = doctest.testmod(benchmarks.bench_selection)
    assert result.attempted >= 3 and result.failed == 0


def test_the_default_choice_reproduces_the_pipeline(tmp_path):
    dataset = binarize_target(load_dataset("wine"))
    config = BenchConfig(lime_samples=300, lime_jobs=1, cache_dir=tmp_path, peers=())
    split = fold_splits(dataset.y, 3, 0)[0]
    sweep = SweepConfig(data_fidelity=(1.0, 10.0), n_clauses=(3,), mdl_weight=(0.5, 2.0))
    chosen = run_dataset(dataset, [split], config, sweep, inner_folds=2)
    report = run_pipeline(dataset, _run_config(config), split=split,
                          cache_dir=tmp_path).report
    test_rows = len(split[1])
    for name in ("imli", "fold"):
        assert set(chosen[name]) == set(CHOICES)
        entry = report["learners"][name]
        # the default setting, refitted on the same view, is the pipeline's own surrogate
        assert chosen[name]["default"] == [
            (round((1 - entry["fidelity_test"]) * test_rows), entry["rule_size"])]
        oracle = chosen[name]["oracle"][0][0]
        assert all(oracle <= counts[0][0] for counts in chosen[name].values())


def test_options_keep_names_once_and_refuse_bad_values(usage_error):
    args = build_parser().parse_args(["--datasets", "iris", "iris"])
    assert args.datasets == ["iris"]  # the totals count each dataset once
    for argv, message in ((["--inner-folds", "1"], "--inner-folds: expected a value >= 2"),
                          (["--datasets", "nosuch"], "invalid choice: 'nosuch'"),
                          (["--seed", "-1"], "--seed: expected a value >= 0")):
        assert message in usage_error(main, argv)
