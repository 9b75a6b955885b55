"""The black box's threads benchmark: each setting trains in its own process as asked."""

from benchmarks.bench_xgboost_threads import SETTINGS, measure


def test_each_setting_trains_and_predicts_with_its_threads(capsys):
    runs = measure(["iris"], rounds=1, predict_rows=2_000, busy=False)["iris"]
    assert set(runs) == set(SETTINGS)
    assert runs["1 thread"][0]["threads"] == 1
    assert runs["all threads"][0]["threads"] is None
    assert runs["default"][0]["threads"] == 1  # 120 rows: one thread
    assert all(r[0]["train"] > 0 and r[0]["predict"] > 0 for r in runs.values())
    assert capsys.readouterr().out.count("| iris | idle |") == 2
