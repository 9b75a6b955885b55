"""The LIME benchmarks' options: --quick sizes only what is not given; bad values and an
unwritable --out are usage errors before any work."""

import pytest

from benchmarks import bench_lime, bench_lime_workers
from benchmarks.bench_lime import QUICK_ROWS, ROWS, _generated_mixed, parse_args


def test_quick_sizes_only_the_rows_not_given():
    args = parse_args(["--quick", "--rows-reference", "10"])
    assert args.rows_reference == 10
    assert (args.rows_batched, args.full_rows) == (QUICK_ROWS["rows_batched"],
                                                   QUICK_ROWS["full_rows"])
    args = parse_args([])
    assert [getattr(args, key) for key in ROWS] == list(ROWS.values())


def test_the_generated_table_is_labelled_with_its_size():
    label, X, y, _ = _generated_mixed(500)
    assert label == "generated 500x14" and X.shape == (500, 14) and len(y) == 500


@pytest.mark.parametrize("argv, message", [
    (["--pool-rows", "0"], "--pool-rows: expected a value >= 1"),
    (["--rows-reference", "2"], "--rows-reference: expected a value >= 5"),
    (["--rows-batched", "600"], "--rows-batched must be at most 569"),
    (["--rows-reference", "30", "--rows-batched", "25"], "must not exceed --rows-batched"),
    (["--num-samples", "2000000"], "--num-samples: expected a value >= 2 and < 1000001"),
])
def test_bad_sizes_are_usage_errors(argv, message, usage_error):
    assert message in usage_error(parse_args, argv)


@pytest.mark.parametrize("main", [bench_lime.main, bench_lime_workers.main])
def test_an_unwritable_out_is_refused_before_any_work(main, tmp_path, usage_error):
    afile = tmp_path / "afile"
    afile.write_text("")
    assert "cannot be written: its folder is a file" in usage_error(
        main, ["--out", str(afile / "results.json")])
    assert "is a folder, not a file" in usage_error(main, ["--out", str(tmp_path)])


def test_workers_rounds_must_be_positive(usage_error):
    assert "--rounds: expected a value >= 1" in usage_error(bench_lime_workers.main,
                                                             ["--rounds", "0"])
