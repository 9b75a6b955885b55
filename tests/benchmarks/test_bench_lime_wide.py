"""The wide-table LIME benchmark: sizes are checked, and a tiny run prints its line."""

import pytest

from benchmarks.bench_lime_wide import main


def test_a_tiny_run_prints_time_per_row_and_memory(capsys):
    main(["--repeats", "1", "--columns", "3", "--explain", "1"])
    out = capsys.readouterr().out
    assert "300 x 3, 1 rows: median" in out and "ms per row" in out and "peak memory" in out


@pytest.mark.parametrize("argv, said", [
    (["--columns", "1"], "--columns: expected a value >= 2, got '1'"),
    (["--explain", "0"], "--explain: expected a value >= 1, got '0'"),
    (["--repeats", "0"], "--repeats: expected a value >= 1, got '0'"),
    (["--repeats", "two"], "--repeats: expected an integer, got 'two'"),
])
def test_bad_sizes_are_usage_errors(argv, said, usage_error):
    assert said in usage_error(main, argv)
