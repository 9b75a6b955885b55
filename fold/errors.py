"""Exceptions raised by the fold package."""

from __future__ import annotations

__all__ = [
    "FoldError",
    "FoldInputError",
    "PrologEngineError",
    "PrologTimeoutError",
]


class FoldError(Exception):
    """Base class of every error the fold package raises on purpose."""


class FoldInputError(FoldError, ValueError):
    """The table, labels or parameters given to the learner cannot be used."""


class PrologEngineError(FoldError, RuntimeError):
    """SWI-Prolog could not load a program or failed while running it."""


class PrologTimeoutError(PrologEngineError, TimeoutError):
    """A Prolog call ran past its time limit (``FOLDClassifier(prolog_timeout=...)``)."""
