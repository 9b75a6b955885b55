"""The FOLD engine memory benchmark runs, and its table says what it measured."""

from benchmarks.bench_fold_engine_memory import main


def test_a_short_run_prints_one_row_per_checkpoint_and_no_module_left(capsys):
    assert main(["--fits", "5"]) == 0
    rows = [line.split("|")[1:-1] for line in capsys.readouterr().out.splitlines()
            if line.startswith("| ") and line[2].isdigit()]
    assert [int(row[0]) for row in rows] == [1, 2, 3, 4, 5]
    functors = [int(row[4]) for row in rows]
    assert functors == sorted(functors) and functors[-1] > functors[0]  # new names each fit
    assert all(int(row[5]) == 0 for row in rows)


def test_too_few_fits_is_a_usage_error(usage_error):
    assert "--fits" in usage_error(main, ["--fits", "2"])
