"""The FOLD benchmark's lookahead comparison runs end to end on a bundled dataset."""

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
