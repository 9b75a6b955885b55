"""The interactions benchmark runs end to end on a small table."""

from benchmarks.bench_interactions import LABELS, main, table


def test_tables_are_labelled_by_their_rule():
    dataset = table("xor", seed=0, rows=200)
    X = dataset.X.to_numpy()
    assert list(dataset.X.columns) == [f"f{i}" for i in range(6)]
    positive = dataset.class_names.index("yes")
    assert ((dataset.y == positive) == LABELS["xor"](X)).all()


def test_prints_one_row_per_method(capsys):
    main(["--seeds", "1", "--rows", "300", "--num-samples", "200", "--tables", "and"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| and ")]
    assert [row.split(" | ")[1] for row in rows] == ["imli", "fold", "black box"]
    for row in rows:
        assert 0.5 <= float(row.split(" | ")[2]) <= 1.0
