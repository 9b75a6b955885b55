"""The IMLI benchmark's options: only the datasets it has configurations for, each once."""

import pytest

from benchmarks.bench_imli import DATASETS, build_parser, main


def test_a_dataset_without_configurations_is_refused_naming_those_with(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--datasets", "iris"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "invalid choice: 'iris'" in err
    assert len(err.splitlines()) == 1, err
    assert all(repr(name) in err for name in DATASETS)


def test_repeats_must_be_positive(capsys):
    with pytest.raises(SystemExit):
        main(["--repeats", "0"])
    assert "--repeats: expected a value >= 1" in capsys.readouterr().err


def test_each_dataset_runs_once():
    args = build_parser().parse_args(["--datasets", "heart", "pima", "heart"])
    assert args.datasets == ["heart", "pima"]
    assert build_parser().parse_args([]).datasets == list(DATASETS)
