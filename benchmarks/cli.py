"""What the benchmark command lines share: list options, folder and file checks, the
command as typed, and one-line errors for a missing dataset or package or a failed child
process."""
from __future__ import annotations

import argparse
import functools
import os
import shlex
import subprocess
import sys
from pathlib import Path

from adapters import InputError
from benchmarks.fetch import DatasetError

__all__ = ["CACHE_DIR_HELP", "DATA_DIR_HELP", "ChildFailed", "Unique", "check_child",
           "command_line", "missing_extra", "one_line_errors", "unusable_file",
           "unusable_folder"]


class Unique(argparse.Action):
    """Keep a list option's values once each, in the order first given (``iris iris`` runs
    iris once)."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, list(dict.fromkeys(values)))


def command_line(module: str, argv: list[str] | None) -> str:
    """The command as a person would type it: ``python -m MODULE ARGS``."""
    return f"python -m {module} " + shlex.join(sys.argv[1:] if argv is None else argv)


class ChildFailed(Exception):
    """A process a benchmark runs (:func:`check_child`) failed."""


def check_child(done: subprocess.CompletedProcess, what: str) -> None:
    """Raise :class:`ChildFailed` if the finished process ``done`` failed, naming ``what``
    it ran and the last line it wrote on stderr (its error, below any traceback)."""
    if done.returncode == 0:
        return
    lines = (done.stderr or "").strip().splitlines()
    raise ChildFailed(f"{what} failed (exit code {done.returncode}): "
                      f"{lines[-1] if lines else 'nothing on stderr'}")


def one_line_errors(main):
    """Wrap a benchmark's ``main(argv)``: a missing or damaged dataset (``DatasetError``,
    ``FetchError``), a missing optional package (:func:`missing_extra`), data the pipeline
    refuses (``adapters.InputError``) or a failed child process (:class:`ChildFailed`)
    prints ``error: <message>`` on stderr and returns 2. Any other ``ImportError`` (a name
    a module lacks: a bug) is raised with its traceback."""
    @functools.wraps(main)
    def wrapped(argv: list[str] | None = None):
        try:
            return main(argv)
        except (ChildFailed, DatasetError, ImportError, InputError) as exc:
            if isinstance(exc, ImportError) and not missing_extra(exc):
                raise
            print(f"error: {exc}", file=sys.stderr)
            return 2
    return wrapped


def missing_extra(error: ImportError) -> bool:
    """Whether ``error`` is the project's word for an optional package that is not
    installed: an ``ImportError`` naming the extra to install, raised from the
    ``ModuleNotFoundError`` of the package (as ``benchmarks.peers``, ``benchmarks.datasets``,
    ``explain.lime_parallel`` and ``imli``'s CP-SAT solver raise it)."""
    return isinstance(error.__cause__, ModuleNotFoundError)


#: The help of the benchmarks' ``--data-dir`` and ``--cache-dir`` (LIME's cache).
DATA_DIR_HELP = "dataset cache folder (default: benchmarks/.data)"
CACHE_DIR_HELP = "LIME cache folder (default: benchmarks/.data/lime-cache)"


def unusable_folder(folder: Path | None, write: bool = True) -> str | None:
    """Why ``folder`` cannot hold the files of a run (created when missing), or None;
    with ``write`` False, only that it is not a file."""
    if folder is None:
        return None
    if folder.exists() and not folder.is_dir():
        return "is a file, not a folder"
    if not write:
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        return f"cannot be created ({err.strerror or err})"
    if not os.access(folder, os.W_OK):
        return "is not writable"
    return None


def unusable_file(path: Path | None) -> str | None:
    """Why a result file cannot be written at ``path`` (its folder created when missing),
    or None."""
    if path is None:
        return None
    if path.is_dir():
        return "is a folder, not a file"
    if path.exists() and not os.access(path, os.W_OK):
        return "is not writable"
    problem = unusable_folder(path.resolve().parent)
    return f"cannot be written: its folder {problem}" if problem else None
