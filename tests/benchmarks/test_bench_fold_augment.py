"""The oracle-augmentation benchmark: its synthetic rows and its FOLD variants."""

import doctest
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

import benchmarks.bench_fold_augment
from adapters import load_dataset
from benchmarks.bench_fold_augment import (NEIGHBOURS, augmented, build_parser, main,
                                           nearest_rows, report, synthetic_rows)
from benchmarks.runner import BenchConfig, _run_config, fold_splits, run_dataset
from explain.pipeline import binarize_target, run_pipeline


def _table(rows: int = 40) -> pd.DataFrame:
    """Every cell names its row and column, so a synthetic cell tells where it came from."""
    return pd.DataFrame({
        "a": np.arange(rows, dtype=np.float64),
        "b": np.arange(rows, dtype=np.float64) + 1000.0,
        "c": pd.Categorical([f"c{i}" for i in range(rows)]),
    })


def test_the_module_examples_run():
    result = doctest.testmod(benchmarks.bench_fold_augment)
    assert result.attempted >= 1 and result.failed == 0


@pytest.mark.parametrize("sampler", ["swap", "marginal", "swap_one"])
def test_every_cell_comes_from_its_own_column_and_keeps_its_type(sampler):
    X = _table()
    rows = synthetic_rows(X, 100, np.random.default_rng(1), sampler)
    assert list(rows.columns) == list(X.columns) and len(rows) == 100
    assert (rows.dtypes == X.dtypes).all()
    for column in X.columns:
        assert set(rows[column]) <= set(X[column])
    # the same generator state gives the same rows
    again = synthetic_rows(X, 100, np.random.default_rng(1), sampler)
    pd.testing.assert_frame_equal(rows, again)


def test_swap_keeps_part_of_a_row_and_marginal_mixes_every_column():
    X = _table(200)
    kept = {}
    for sampler in ("swap", "marginal", "swap_one"):
        rows = synthetic_rows(X, 600, np.random.default_rng(2), sampler)
        a, b = rows["a"].to_numpy(), rows["b"].to_numpy() - 1000.0
        c = rows["c"].astype(str).str[1:].astype(float).to_numpy()
        # rows with two cells, or all three, from one training row
        kept[sampler] = np.mean((a == b) | (b == c) | (a == c))
    # swap replaces 1, 2 or 3 columns: a third of its rows keep two cells of their row;
    # independent columns share a row by chance (3 pairs, 1 in 200 each)
    assert 0.25 < kept["swap"] < 0.45 and kept["marginal"] < 0.05
    # swap_one replaces one column: two cells, or all three, stay those of the row
    assert kept["swap_one"] == 1.0


def test_interpolate_draws_between_a_row_and_one_of_its_nearest_rows():
    X = _table(200)
    rows = synthetic_rows(X, 600, np.random.default_rng(3), "interpolate")
    assert list(rows.columns) == list(X.columns) and (rows.dtypes == X.dtypes).all()
    pd.testing.assert_frame_equal(
        rows, synthetic_rows(X, 600, np.random.default_rng(3), "interpolate"))
    a, b = rows["a"].to_numpy(), rows["b"].to_numpy() - 1000.0
    c = rows["c"].astype(str).str[1:].astype(float).to_numpy()
    # one u per row moves a and b alike; c is the row's or its partner's, and row i's
    # five nearest rows are i - 5 .. i + 5 at most (a and b set them; c differs for all)
    np.testing.assert_allclose(a, b, atol=1e-9)
    assert np.abs(a - c).max() < NEIGHBOURS
    assert np.mean(a != np.round(a)) > 0.9 and a.min() >= 0 and a.max() <= 199


def test_interpolate_rounds_integer_columns_and_keeps_unknown_cells_of_the_pair():
    X = pd.DataFrame({"n": np.array([0, 10, 20, 30], dtype=np.int64),
                      "m": [np.nan, 1.0, 2.0, 3.0]})
    rows = synthetic_rows(X, 200, np.random.default_rng(4), "interpolate")
    assert rows["n"].dtype == np.int64 and set(rows["n"]) - {0, 10, 20, 30}
    # only row 0 lacks m: a row paired with it takes m from one of the two, unknown or
    # known as is; every other m lies between two known ones
    assert rows["m"].isna().any() and rows["m"].dropna().between(1.0, 3.0).all()


def test_interpolate_takes_nullable_number_columns_and_keeps_their_dtypes():
    X = pd.DataFrame({"n": pd.array([0, 10, None, 30, 40], dtype="Int64"),
                      "m": pd.array([0.5, None, 2.0, 3.0, 4.0], dtype="Float64")})
    plain = X.astype(np.float64)  # <NA> as NaN
    assert plain["n"].isna().sum() == 1
    np.testing.assert_array_equal(nearest_rows(X, 2), nearest_rows(plain, 2))
    rows = synthetic_rows(X, 200, np.random.default_rng(4), "interpolate")
    assert rows.dtypes.tolist() == X.dtypes.tolist()
    n = rows["n"].dropna()
    assert n.between(0, 40).all() and set(n) - {0, 10, 30, 40}
    assert rows["m"].dropna().between(0.5, 4.0).all() and rows["m"].isna().any()


def test_nearest_rows_weigh_scaled_numbers_and_category_mismatches():
    # a in units of its spread: rows 0 and 1 are close, 2 and 3 too; the category splits 2, 3
    X = pd.DataFrame({"a": [0.0, 0.1, 10.0, 10.1], "b": ["x", "x", "y", "z"]})
    assert nearest_rows(X, 1).ravel().tolist() == [1, 0, 3, 2]
    assert nearest_rows(X, 10).shape == (4, 3)
    assert nearest_rows(X.iloc[:1], 5).tolist() == [[0]]


def test_an_unknown_sampler_is_refused():
    with pytest.raises(ValueError, match="unknown sampler 'bins'"):
        synthetic_rows(_table(), 3, np.random.default_rng(0), "bins")


def _wine_result(tmp_path, peers=()):
    """The real pipeline and two variants on wine, two folds, few LIME samples."""
    config = BenchConfig(datasets=("wine",), folds=2, lime_samples=200, lime_jobs=1,
                         peers=peers, ablation=False, out_dir=tmp_path, cache_dir=None)
    return run_dataset("wine", config, log=lambda line: None, extend=lambda r, s, fold:
                       augmented(r, s, fold, VARIANTS, 0))


VARIANTS = [("swap", 1), ("marginal", 2), ("interpolate", 1)]


def test_variants_are_scored_on_the_folds_held_out_rows(tmp_path):
    result = _wine_result(tmp_path)
    for record in result["folds"]:
        test_rows = record["test_rows"]
        for name in ("fold_swap1", "fold_marginal2", "fold_interpolate1"):
            entry = record["methods"][name]
            assert len(entry["disagree_rows"]) == round(
                (1 - entry["fidelity_test"]) * test_rows)
            assert 0.0 < entry["synthetic_positive_rate"] < 1.0
    held_out = [r for record in result["folds"] for r in record["methods"]["fold_marginal2"]
                ["disagree_rows"]]
    assert len(held_out) == len(set(held_out)) and set(held_out) <= set(range(178))


def test_the_report_sets_the_variants_beside_foldrpp(tmp_path):
    pytest.importorskip("foldrpp", reason="FOLD-R++ is in the bench extra")
    text = report([_wine_result(tmp_path, peers=("foldrpp",))], VARIANTS)
    assert "| wine | " in text and "fold_marginal2:" in text


def test_the_synthetic_rows_count_as_rows_explained_or_as_copies(tmp_path):
    """FOLD's effective mdl_weight is its weight times the view's rows per row explained."""
    dataset = binarize_target(load_dataset("wine"))
    config = BenchConfig(folds=2, lime_samples=200, lime_jobs=1, cache_dir=tmp_path)
    split = fold_splits(dataset.y, 2, 0)[0]
    result = run_pipeline(dataset, replace(_run_config(config), learners=("fold",)),
                          split=split, cache_dir=tmp_path)
    given = result.learners["fold"].extra["params_given"]["mdl_weight"]
    weight = {count: augmented(result, split, 0, [("swap", 2)], 0, count)["fold_swap2"]
              ["params"]["mdl_weight"] for count in ("all", "training")}
    # the view holds 2 + 2 rows per training row: 3 rows explained each, or 1
    assert weight["all"] == pytest.approx(given * 4 / 3)
    assert weight["training"] == pytest.approx(given * 4)


def test_options_refuse_bad_values(usage_error):
    args = build_parser().parse_args(["--budgets", "1", "1", "--samplers", "swap", "swap"])
    assert args.samplers == ["swap"]
    for argv, message in ((["--budgets", "0"], "--budgets: expected a value >= 1"),
                          (["--samplers", "bins"], "invalid choice: 'bins'"),
                          (["--count", "some"], "invalid choice: 'some'"),
                          (["--seed", "-1"], "--seed: expected a value >= 0"),
                          (["--lime-jobs", "0"], "--lime-jobs: expected a value not 0")):
        assert message in usage_error(main, argv)


def test_the_report_counts_each_methods_rows_and_literals(tmp_path):
    # the report ran only where foldrpp is installed; FOLD's own summary stands in for the
    # peer's here, so its column and the default's are the same
    result = _wine_result(tmp_path)
    methods = result["summary"]["methods"]
    methods["foldrpp"] = dict(methods["fold"])
    names = ["foldrpp", "fold", "fold_swap1", "fold_marginal2", "fold_interpolate1"]
    rows = [len(methods[n]["disagree_rows"]) for n in names]
    text = report([result], VARIANTS).splitlines()
    assert text[2] == ("| dataset | FOLD-R++ | FOLD (default) | swap ×1 | marginal ×2 "
                       "| interpolate ×1 |")
    cells = text[4].split(" | ")
    assert cells[0] == "| wine" and [int(c.split(" / ")[0]) for c in cells[1:]] == rows
    assert [float(c.split(" / ")[1].rstrip(" *|")) for c in cells[1:]] == [
        methods[n]["rule_size"] for n in names]
    assert text[5] == "| total | " + " | ".join(map(str, rows)) + " |"
    assert [line.split(":")[0] for line in text[-4:]] == ["- " + n for n in names[1:]]
