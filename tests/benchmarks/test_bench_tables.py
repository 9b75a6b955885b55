"""The tables benchmark runs end to end on small tables."""

import numpy as np
import pytest

from benchmarks.bench_tables import LABELS, TABLES, WIDTH, main, table


@pytest.mark.parametrize("kind", ["xor", "xor_gated"])
def test_generated_tables_are_labelled_by_their_rule(kind):
    dataset = table(kind, seed=0, rows=200)
    X = dataset.X.to_numpy()
    assert list(dataset.X.columns) == [f"f{i}" for i in range(WIDTH.get(kind, 6))]
    positive = dataset.class_names.index("yes")
    assert ((dataset.y == positive) == LABELS[kind](X)).all()
    if kind == "xor_gated":  # the quadrants where f0 and f1 agree, above the gate
        assert LABELS[kind](np.array([[1.0, 2.0, 0.0], [-1.0, -2.0, 0.0], [-1.0, 2.0, 0.0],
                                      [1.0, 2.0, -1.0]])).tolist() == [True, True, False,
                                                                        False]


@pytest.mark.parametrize("kind", TABLES)
def test_every_table_has_both_classes(kind):
    dataset = table(kind, seed=0, rows=200)
    assert 0.05 < dataset.y.mean() < 0.95


def test_prints_one_row_per_method(capsys):
    main(["--seeds", "1", "--rows", "300", "--num-samples", "200", "--tables", "and",
          "--top-k", "3", "--train-view", "lime"])
    out = capsys.readouterr().out
    assert "entropy bins, top 3 features, seed 0, training view lime" in out  # not "seeds 0-0"
    rows = [line for line in out.splitlines() if line.startswith("| and ")]
    assert [row.split(" | ")[1] for row in rows] == ["imli", "fold", "black box"]
    for row in rows:
        assert 0.5 <= float(row.split(" | ")[2]) <= 1.0
    assert rows[-1].split(" | ")[4] == "–" and int(rows[0].split(" | ")[4]) >= 1


@pytest.mark.parametrize("argv, message", [
    (["--seeds", "0"], "--seeds: expected a value >= 1"),
    (["--rows", "5"], "--rows: expected a value >= 20"),
    (["--num-samples", "1"], "--num-samples: expected a value >= 2"),
    (["--top-k", "0"], "--top-k: expected a value >= 1"),
])
def test_bad_sizes_are_usage_errors(argv, message, usage_error):
    assert message in usage_error(main, argv)


def test_a_table_the_pipeline_refuses_is_one_line(capsys):
    # 20 rows of xor_gated: the black box predicts one class for every training row
    assert main(["--seeds", "1", "--rows", "20", "--num-samples", "50",
                 "--tables", "xor_gated"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: the black box predicts class 'no'") and err.count("\n") == 1
