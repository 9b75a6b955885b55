"""The LIME benchmarks' options: --quick sizes only what is not given; bad values and an
unwritable --out are usage errors before any work."""

import subprocess

import pytest

from benchmarks import bench_lime, bench_lime_workers, datasets
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


def test_workers_runs_are_commands_the_explain_cli_takes(tmp_path, monkeypatch):
    from explain.cli import parse_args as explain_args
    ran = []

    def run(command, **kwargs):
        ran.append(command)
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(bench_lime_workers.subprocess, "run", run)
    for data in ("iris", str(tmp_path / "adult_2000.csv")):
        for mode in bench_lime_workers.MODES:
            assert bench_lime_workers._run_once(data, mode, tmp_path / "out") >= 0
    for command, (jobs, _) in zip(ran, [*bench_lime_workers.MODES.values()] * 2):
        assert command[2] == bench_lime_workers._RUN and command[4] == "run"
        parsed = explain_args(command[4:])
        assert parsed.out == tmp_path / "out" and parsed.config.learners == ("fold",)
        assert parsed.cache_dir is None and str(parsed.config.lime.n_jobs) == jobs


def test_workers_time_the_bundled_tables_without_adult(tmp_path, monkeypatch):
    monkeypatch.setattr(datasets, "is_available", lambda name, cache_dir=None: False)
    assert [data for _, data in bench_lime_workers._datasets(tmp_path)] == ["iris",
                                                                             "breast_cancer"]


def test_a_failed_workers_run_is_one_line_with_its_error(tmp_path, monkeypatch, capsys):
    # a RuntimeError with a traceback, and the child's whole stderr tail in it
    missing = tmp_path / "missing.csv"
    monkeypatch.setattr(bench_lime_workers, "_datasets", lambda folder: [("m", str(missing))])
    assert bench_lime_workers.main(["--rounds", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"error: explain run --data {missing} (one process) failed (exit "
                          f"code 2): error: ")
