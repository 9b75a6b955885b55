"""Shared helpers of the fold tests: hostile text and a plain-swipl runner."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np

from fold import FOLDClassifier, quote_atom

HOSTILE = (
    "a'b", "x), halt(", "Foo", "_x", "2nd", "naïve", "%", "\n", "\\", "'",
    "x" * 10_000, ":- halt.", "'), halt, ('", "a b", "is", ":-", ",", "label",
    "row", "neg_a", "ab0", "halt", "[]", "{}", "\t\r", "end_of_file", "\x00z",
)


def run_swipl(clf: FOLDClassifier, X, directory: Path) -> np.ndarray:
    """Run ``clf.program_`` on ``X`` in a plain ``swipl`` process (no project code).

    Returns each row's index into the program's decision list.
    """
    swipl = shutil.which("swipl")
    assert swipl, "SWI-Prolog (swipl) must be installed for these tests"
    program = directory / "fold.pl"
    facts = directory / "facts.pl"
    program.write_text(clf.program_, encoding="utf-8")
    facts.write_text(clf.facts(X), encoding="utf-8")
    labels = ", ".join(clf.prolog_.label_terms)
    row = quote_atom(clf.prolog_.row_predicate)
    label = quote_atom(clf.prolog_.label_predicate)
    goal = (f"forall({row}(I), ({label}(I, L), nth0(K, [{labels}], L), "
            "format('~d ~d~n', [I, K])))")
    done = subprocess.run(
        [swipl, "-q", "-g", goal, "-t", "halt", str(program), str(facts)],
        capture_output=True, text=True, timeout=120, encoding="utf-8",
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == "", done.stderr
    pairs = [tuple(map(int, line.split())) for line in done.stdout.splitlines()]
    decisions = np.full(len(X), -1)
    for row_id, k in pairs:
        decisions[row_id] = k
    assert len(pairs) == len(X)
    return decisions


def python_decisions(clf: FOLDClassifier, X) -> np.ndarray:
    """Decision-list index of each row, from the rule objects."""
    return clf.rules_.decide(clf._view(X))
