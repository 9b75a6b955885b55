"""The black box's threads benchmark: each setting trains in its own process as asked."""

import pytest

from benchmarks.bench_xgboost_threads import SETTINGS, build_parser, main, measure


def test_each_setting_trains_and_predicts_with_its_threads(capsys):
    runs = measure(["iris"], rounds=1, predict_rows=2_000, busy=False)["iris"]
    assert set(runs) == set(SETTINGS)
    assert runs["1 thread"][0]["threads"] == 1
    assert runs["all threads"][0]["threads"] is None
    assert runs["default"][0]["threads"] == 1  # 120 rows: one thread
    assert all(r[0]["train"] > 0 and r[0]["predict"] > 0 for r in runs.values())
    assert capsys.readouterr().out.count("| iris | idle |") == 2


@pytest.mark.parametrize("argv, message", [
    (["--rounds", "0"], "--rounds: expected a value >= 1"),
    (["--predict-rows", "0"], "--predict-rows: expected a value >= 1"),
    (["--datasets", "nosuch"], "invalid choice: 'nosuch'"),
])
def test_bad_options_are_usage_errors(argv, message, usage_error):
    assert message in usage_error(main, argv)


def test_each_dataset_once_and_a_missing_one_is_one_line(monkeypatch, capsys):
    from benchmarks import bench_xgboost_threads
    from benchmarks.datasets import FetchError

    assert build_parser().parse_args(["--datasets", "iris", "iris"]).datasets == ["iris"]

    def load(name):
        raise FetchError(f"fetching {name}: offline")
    monkeypatch.setattr(bench_xgboost_threads, "load", load)
    assert main(["--datasets", "adult"]) == 2
    assert capsys.readouterr().err == "error: fetching adult: offline\n"
