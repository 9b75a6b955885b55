"""The many-categories IMLI benchmark: sizes are checked, and a tiny run prints its line."""

import pytest

from benchmarks.bench_imli_categories import generated, main


def test_the_table_has_one_text_and_one_number_column():
    X, y = generated(50, 4)
    assert list(X.columns) == ["cat", "x"] and len(y) == 50
    assert set(X["cat"]) <= {"v0", "v1", "v2", "v3"}


def test_a_tiny_run_prints_the_fit_and_the_rule(capsys):
    main(["--repeats", "1", "--rows", "60", "--categories", "4"])
    out = capsys.readouterr().out
    assert "Command: python -m benchmarks.bench_imli_categories --repeats 1" in out
    assert "fit 60 rows x 4 categories: median" in out and "rule hash" in out


@pytest.mark.parametrize("option", ["--repeats", "--rows", "--categories"])
@pytest.mark.parametrize("value, said", [("0", "a value >= 1"), ("1.5", "an integer")])
def test_sizes_below_one_are_usage_errors(option, value, said, usage_error):
    assert f"{option}: expected {said}, got '{value}'" in usage_error(main, [option, value])
