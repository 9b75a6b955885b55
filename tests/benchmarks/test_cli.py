"""What the benchmark command lines share: one-line errors, precisely, in every script."""

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

from adapters import InputError
from benchmarks.cli import CACHE_DIR_HELP, DATA_DIR_HELP, check_child, one_line_errors
from benchmarks.datasets import DatasetError
from benchmarks.peers import _bench_import

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted(["benchmarks.__main__"] + [f"benchmarks.{p.stem}" for p in
                                            (ROOT / "benchmarks").glob("bench_*.py")])


def _raising(error):
    @one_line_errors
    def main(argv=None):
        raise error
    return main


@pytest.mark.parametrize("error", [DatasetError("iris: damaged (delete x)"),
                                   InputError("the table has one class")])
def test_a_dataset_or_input_error_is_one_line(error, capsys):
    assert _raising(error)([]) == 2
    assert capsys.readouterr().err == f"error: {error}\n"


@pytest.mark.parametrize("code, said", [
    ("print('working'); 1 / 0", "ZeroDivisionError: division by zero"),
    ("import sys; sys.exit(3)", "nothing on stderr"),
])
def test_a_failed_child_process_is_one_line_with_its_last_stderr_line(code, said, capsys):
    @one_line_errors
    def main(argv=None):
        check_child(subprocess.run([sys.executable, "-c", code], capture_output=True,
                                   text=True), "the child")

    assert main([]) == 2
    code = 1 if "/" in code else 3
    assert capsys.readouterr().err == f"error: the child failed (exit code {code}): {said}\n"


def test_a_missing_optional_package_is_one_line_naming_its_extra(capsys):
    @one_line_errors
    def main(argv=None):
        _bench_import("surrogate_rules_absent_module", "wittgenstein")

    assert main([]) == 2
    assert capsys.readouterr().err == ("error: the wittgenstein peer is not installed: pip "
                                       "install 'surrogate-rules[bench]'\n")


@pytest.mark.parametrize("statement", ["from benchmarks.cli import no_such_name",
                                       "import surrogate_rules_absent_module"])
def test_any_other_import_error_keeps_its_traceback(statement, capsys):
    # a name a module lacks is a bug, and a bare missing module names no extra: both were
    # printed as "error: cannot import name ..." and exit code 2
    @one_line_errors
    def main(argv=None):
        exec(statement)

    with pytest.raises(ImportError):
        main([])
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("module", SCRIPTS)
def test_every_benchmark_script_gives_one_line_errors(module):
    main = importlib.import_module(module).main
    assert getattr(main, "__wrapped__", None) is not None, f"{module}.main is not wrapped"


def test_the_selection_benchmarks_folders_are_explained(monkeypatch):
    from benchmarks.bench_selection import build_parser

    monkeypatch.setenv("COLUMNS", "200")  # a help line on one line
    text = build_parser().format_help()
    for option, words in (("--data-dir DATA_DIR", DATA_DIR_HELP),
                          ("--cache-dir CACHE_DIR", CACHE_DIR_HELP)):
        assert re.search(rf"{option}\s+{re.escape(words)}\n", text), (option, text)
