"""The tables benchmark runs end to end on small tables."""

import pytest

from benchmarks.bench_tables import LABELS, TABLES, main, table


def test_generated_tables_are_labelled_by_their_rule():
    dataset = table("xor", seed=0, rows=200)
    X = dataset.X.to_numpy()
    assert list(dataset.X.columns) == [f"f{i}" for i in range(6)]
    positive = dataset.class_names.index("yes")
    assert ((dataset.y == positive) == LABELS["xor"](X)).all()


@pytest.mark.parametrize("kind", TABLES)
def test_every_table_has_both_classes(kind):
    dataset = table(kind, seed=0, rows=200)
    assert 0.05 < dataset.y.mean() < 0.95


def test_prints_one_row_per_method(capsys):
    main(["--seeds", "1", "--rows", "300", "--num-samples", "200", "--tables", "and",
          "--top-k", "3"])
    out = capsys.readouterr().out
    assert "entropy bins, top 3 features, seeds 0-0" in out
    rows = [line for line in out.splitlines() if line.startswith("| and ")]
    assert [row.split(" | ")[1] for row in rows] == ["imli", "fold", "black box"]
    for row in rows:
        assert 0.5 <= float(row.split(" | ")[2]) <= 1.0
    assert rows[-1].split(" | ")[4] == "–" and int(rows[0].split(" | ")[4]) >= 1
