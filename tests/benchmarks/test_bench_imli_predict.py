"""The IMLI prediction benchmark: sizes are checked, and a small run times both calls."""

import pytest

from benchmarks import bench_imli_predict
from benchmarks.bench_imli_predict import generated, main


def test_the_table_has_numbers_texts_and_missing_values():
    X, y = generated(200, 0)
    assert X.shape == (200, 20) and set(y) == {0, 1}
    assert X["c3"].isna().any() and X["x2"].isna().any()


def test_a_small_run_times_predict_and_transform(monkeypatch, capsys):
    real = bench_imli_predict.generated
    monkeypatch.setattr(bench_imli_predict, "generated",
                        lambda rows, seed: real(min(rows, 300), seed))
    main(["--repeats", "1", "--rows", "100"])
    out = capsys.readouterr().out
    assert "predict 100 rows: median" in out and "transform 100 rows: median" in out


@pytest.mark.parametrize("option", ["--repeats", "--rows"])
@pytest.mark.parametrize("value, said", [("0", "a value >= 1"), ("x", "an integer")])
def test_sizes_below_one_are_usage_errors(option, value, said, usage_error):
    assert f"{option}: expected {said}, got '{value}'" in usage_error(main, [option, value])
