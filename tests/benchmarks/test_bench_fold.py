"""The FOLD benchmark's lookahead comparison and large tables run end to end."""

import pytest

from benchmarks.bench_fold import main


def test_lookahead_cost_prints_one_row_per_dataset(capsys):
    main(["--lookahead-cost", "--datasets", "iris", "wine", "--repeats", "1"])
    out = capsys.readouterr().out
    rows = [line.split(" | ") for line in out.splitlines() if line.startswith("| iris ")
            or line.startswith("| wine ")]
    assert [row[0] for row in rows] == ["| iris", "| wine"]
    for row in rows:
        on, off, ratio = float(row[1]), float(row[2]), float(row[3])
        assert on > 0 and off > 0 and ratio > 0
        assert 0.5 <= float(row[4]) <= 1 and 0.5 <= float(row[5]) <= 1
        assert row[7].rstrip(" |") in ("yes", "no")


def test_large_rows_learns_the_noisy_xor_with_the_lookahead(capsys):
    main(["--large-rows", "3000"])
    out = capsys.readouterr().out
    [row] = [line.split(" | ") for line in out.splitlines() if line.startswith("| 3,000 ")]
    seconds, literals, accuracy = float(row[1]), int(row[2]), float(row[3])
    assert seconds > 0 and literals >= 2
    assert 0.85 <= accuracy <= 0.95  # 10 % of the labels are flipped: 0.9 is the best
    assert 0.4 <= float(row[6].rstrip(" |")) <= 0.95


def test_blas_threads_compares_the_same_programs_and_restores_the_setting(capsys):
    import fold.learner

    main(["--blas-threads", "--busy", "--datasets", "iris", "--repeats", "2"])
    out = capsys.readouterr().out
    [row] = [line.split(" | ") for line in out.splitlines() if line.startswith("| iris ")]
    assert float(row[1]) > 0 and float(row[2]) > 0 and float(row[3]) > 0
    assert row[4].rstrip(" |") == "yes"  # the threads change the time, never the program
    assert fold.learner.BLAS_THREADS == 1


def test_busy_alone_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--busy"])
    assert stop.value.code == 2 and "--busy goes with --blas-threads" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["--repeats", "0"], "--repeats: expected a value >= 1"),
    (["--repeats", "-1", "--lookahead-cost"], "--repeats: expected a value >= 1"),
    (["--noisy-rows", "-5"], "--noisy-rows: expected a value >= 1"),
    (["--noisy-rows", "0"], "--noisy-rows: expected a value >= 1"),
    (["--large-rows", "0"], "--large-rows: expected a value >= 1"),
    (["--eval-rows", "-5"], "--eval-rows: expected a value >= 1"),
    (["--datasets", "nosuch"], "invalid choice: 'nosuch'"),
    (["--noisy-rows", "100", "--lookahead-cost"], "not allowed with argument"),
    (["--large-rows", "100", "--blas-threads"], "not allowed with argument"),
])
def test_bad_counts_names_and_mixed_modes_are_usage_errors(argv, message, usage_error):
    assert message in usage_error(main, argv)


def test_each_dataset_is_benchmarked_once():
    from benchmarks.bench_fold import build_parser

    assert build_parser().parse_args(["--datasets", "iris", "iris"]).datasets == ["iris"]


def test_noisy_rows_prints_the_header_with_the_command(capsys):
    assert main(["--noisy-rows", "50"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Machine: ")
    assert "Command: python -m benchmarks.bench_fold --noisy-rows 50" in out
    assert "| 50 | " in out


def test_a_dataset_that_cannot_be_fetched_is_one_line(monkeypatch, capsys):
    from benchmarks import bench_fold
    from benchmarks.datasets import FetchError

    def load(name):
        raise FetchError(f"fetching {name}: offline")
    monkeypatch.setattr(bench_fold, "load", load)
    assert main(["--datasets", "heart", "--repeats", "1"]) == 2
    assert capsys.readouterr().err == "error: fetching heart: offline\n"
