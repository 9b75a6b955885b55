"""Every benchmark command quoted in BENCHMARKS.md and README.md still parses: its module
and options exist and take the values written (nothing is run)."""

import argparse
import importlib
import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COMMAND = re.compile(r"`(?:PYTHONHASHSEED=0 )?python -m (benchmarks[^`]*)`")
#: What the text writes in place of a value, and a value for it.
PLACEHOLDERS = {"S": "1", "K": "3", "R": "5000", "C": "1000", "V": "raw",
                "{quartile,decile,entropy}": "decile"}


def documented_commands() -> list[str]:
    """``MODULE ARGS`` of each quoted command with at least one argument, once each."""
    found = []
    for name in ("BENCHMARKS.md", "README.md"):
        found += [" ".join(span.split()) for span in COMMAND.findall((ROOT / name).read_text(encoding="utf-8"))]
    return [c for c in dict.fromkeys(found) if " " in c]


class Parsed(Exception):
    """Raised in place of running the command, once its arguments parsed."""


def test_the_documents_quote_the_benchmarks():
    modules = {c.split()[0] for c in documented_commands()}
    assert {"benchmarks", "benchmarks.bench_fold", "benchmarks.bench_lime"} <= modules


@pytest.mark.parametrize("command", documented_commands())
def test_a_documented_command_parses(command, monkeypatch, capsys):
    module, *argv = shlex.split(command)
    argv = [PLACEHOLDERS.get(arg, arg) for arg in argv]
    parse = argparse.ArgumentParser.parse_args

    def parse_then_stop(self, args=None, namespace=None):
        raise Parsed(parse(self, args, namespace))

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_then_stop)
    main = importlib.import_module("benchmarks.__main__" if module == "benchmarks"
                                   else module).main
    try:
        main(argv)
    except SystemExit:
        pytest.fail(f"python -m {command}: {capsys.readouterr().err.strip()}")
    except Parsed:
        return
    pytest.fail(f"python -m {command} did not parse its arguments")
