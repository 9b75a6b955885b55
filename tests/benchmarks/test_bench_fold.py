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
