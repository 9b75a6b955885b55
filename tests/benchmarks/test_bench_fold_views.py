"""FOLD's fit time on the benchmark's views: the views are the run's, and a checkout
compared with itself learns the same programs."""

from pathlib import Path

import pytest

from benchmarks.bench_fold_views import _load_package, _views, bench, main
from benchmarks.runner import BenchConfig

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def config(tmp_path_factory):
    return BenchConfig(datasets=("iris",), folds=2, lime_samples=200, lime_jobs=1, top_k=2,
                       cache_dir=tmp_path_factory.mktemp("lime"))


def test_the_views_are_the_pipelines_stacked_rows(config):
    folds = _views("iris", config)
    assert len(folds) == 2
    for fold in folds:
        # the LIME-filtered rows on the full rows: twice the training rows, labels twice
        assert len(fold["view"]) == len(fold["labels"]) == 2 * fold["distinct"] == 150
        assert (fold["labels"][:75] == fold["labels"][75:]).all()
        assert fold["view"].iloc[:75].notna().sum(axis=1).max() == 2  # LIME kept two features
        assert not fold["view"].iloc[75:].isna().any(axis=None)


def test_a_checkout_compared_with_itself(config):
    pytest.importorskip("foldrpp", reason="FOLD-R++ is in the bench extra")
    result = bench("iris", config, rounds=2, base=_load_package(ROOT, "_fold_again"))
    assert result["same_programs"] and result["folds"] == 2
    assert 0 < result["ours"] and 0 < result["foldrpp"] and 0 < result["base"]


def test_a_folder_without_the_package_is_refused(tmp_path, capsys, monkeypatch):
    from benchmarks import bench_fold_views

    monkeypatch.setattr(bench_fold_views, "check_peers", lambda peers: None)
    with pytest.raises(SystemExit, match="holds no fold/__init__.py"):
        main(["--base", str(tmp_path), "--datasets", "iris"])
    with pytest.raises(SystemExit):
        main(["--rounds", "0"])
    assert "--rounds: expected a value >= 1, got '0'" in capsys.readouterr().err


def test_a_missing_peer_is_one_line_before_any_fold(monkeypatch, capsys):
    from benchmarks import bench_fold_views

    from benchmarks.peers import _bench_import

    def missing(peers):  # as check_peers says it when foldrpp is not installed
        _bench_import("surrogate_rules_absent_module", "foldrpp")

    def views(*args):
        raise AssertionError("no LIME run before the peer is found")
    monkeypatch.setattr(bench_fold_views, "check_peers", missing)
    monkeypatch.setattr(bench_fold_views, "_views", views)
    assert main(["--datasets", "iris", "iris", "--rounds", "1"]) == 2
    assert capsys.readouterr().err == ("error: the foldrpp peer is not installed: pip install "
                                       "'surrogate-rules[bench]'\n")
