"""The wide-table IMLI benchmark needs sonar: without it, one line and exit 2."""

from benchmarks import bench_imli_wide
from benchmarks.datasets import FetchError


def test_a_dataset_that_cannot_be_fetched_is_one_line(monkeypatch, capsys):
    def load(name):
        raise FetchError(f"fetching {name}: offline")
    monkeypatch.setattr(bench_imli_wide, "load", load)
    assert bench_imli_wide.main(["--repeats", "1"]) == 2
    assert capsys.readouterr().err == "error: fetching sonar: offline\n"
