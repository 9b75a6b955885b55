"""The exhaustive search of small programs, against a search written out loop by loop."""

import itertools

import numpy as np
import pandas as pd
import pytest

from benchmarks.bench_small_programs import best_programs, literal_masks, main


def _frame(rng, rows, missing=False):
    frame = pd.DataFrame({"a": rng.integers(0, 5, rows).astype(float),
                          "b": rng.normal(size=rows),
                          "c": rng.choice(["x", "y", "z"], rows).astype(object)})
    if missing:
        frame.loc[rng.random(rows) < 0.2, "a"] = np.nan
        frame.loc[rng.random(rows) < 0.2, "c"] = np.nan
    return frame


def _looped(masks, labels, rows):
    """Fewest errors on ``rows`` of any program of at most one, and of at most two tests."""
    def errors(fires):
        return int(np.sum(fires[rows] != labels[rows].astype(bool)))
    constant = min(int(labels[rows].sum()), len(rows) - int(labels[rows].sum()))
    one = min([constant] + [errors(m) for m in masks])
    two = min([one] + [errors(op(a, b)) for a, b in itertools.product(masks, repeat=2)
                       for op in (np.logical_and, np.logical_or)])
    return one, two


@pytest.mark.parametrize("missing", [False, True])
def test_best_programs_match_a_loop_over_every_program(missing):
    rng = np.random.default_rng(3)
    frame = _frame(rng, 40, missing)
    labels = ((frame["a"] > 2) & (frame["c"] != "x")).to_numpy().astype(int)
    labels[rng.random(40) < 0.15] ^= 1
    train, test = np.arange(30), np.arange(30, 40)
    masks, names = literal_masks(frame, train)
    assert len(names) == len(masks)
    if missing:  # negations: an exception's test holds where the value is missing
        i = names.index("a <= 2.5")
        assert names.index("not (a <= 2.5)") == i + len(names) // 2
        assert (masks[i + len(names) // 2] == ~masks[i]).all()
    assert not masks[names.index("c != x")][frame["c"].isna().to_numpy()].any()
    best = best_programs(masks, names, labels, train, test)
    assert (best["one"][0], best["two"][0]) == _looped(masks, labels, train)


def test_a_two_literal_rule_is_found_with_its_held_out_errors():
    rng = np.random.default_rng(0)
    frame = _frame(rng, 200)
    labels = ((frame["b"] > 0.3) & (frame["c"] == "y")).to_numpy().astype(int)
    train, test = np.arange(150), np.arange(150, 200)
    best = best_programs(*literal_masks(frame, train), labels, train, test)
    assert best["two"][:2] == (0, 0)
    assert "c == y" in best["two"][2] and "b > 0." in best["two"][2]
    assert best["one"][0] > 0  # one literal cannot say it


def test_prints_each_fold_and_the_totals(capsys):
    main(["--datasets", "iris", "iris", "--folds", "2"])
    out = capsys.readouterr().out
    assert out.count("iris (setosa vs the rest)") == 1  # each dataset once
    assert out.count("  fold ") == 2 and "all folds: <= 1 literal 0 / " in out


def test_a_table_with_too_many_tests_prints_no_totals(capsys, monkeypatch):
    from benchmarks import bench_small_programs

    def run_pipeline(*args, **kwargs):
        raise AssertionError("the tests are counted before the black box is trained")
    monkeypatch.setattr("explain.pipeline.run_pipeline", run_pipeline)
    assert main(["--datasets", "breast_cancer", "--folds", "2"]) == 0
    out = capsys.readouterr().out
    assert "  skipped: " in out and f"more than the {bench_small_programs.MAX_TESTS}" in out
    assert "all folds:" not in out and "no totals: 0 of 2 folds searched" in out


@pytest.mark.parametrize("argv, message", [
    (["--seed", "-1"], "--seed: expected a value >= 0"),
    (["--folds", "1"], "--folds: expected a value >= 2"),
    (["--folds", "0"], "--folds: expected a value >= 2"),
])
def test_bad_seed_and_folds_are_usage_errors(argv, message, usage_error):
    err = usage_error(main, argv)
    assert message in err and "cannot split" not in err
