"""Shared helpers of the fold tests: hostile text and tables, a plain-swipl runner."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
from hypothesis import strategies as st

from fold import FOLDClassifier, Negated, quote_atom

HOSTILE = (
    "a'b", "x), halt(", "Foo", "_x", "2nd", "naïve", "%", "\n", "\\", "'",
    "x" * 10_000, ":- halt.", "'), halt, ('", "a b", "is", ":-", ",", "label",
    "row", "neg_a", "ab0", "halt", "[]", "{}", "\t\r", "end_of_file", "\x00z", ".", "/",
    "//", "=>",
)


def run_swipl(clf: FOLDClassifier, X, directory: Path, facts: str | None = None) -> np.ndarray:
    """Run ``clf.program_`` on ``X`` in a plain ``swipl`` process (no project code), in
    the C locale: the files must say they are UTF-8 for their non-ASCII atoms to read
    as written. ``facts``: the facts file's text (default: ``clf.facts(X)``).

    Returns each row's index into the program's decision list.
    """
    swipl = shutil.which("swipl")
    assert swipl, "SWI-Prolog (swipl) must be installed for these tests"
    program = directory / "fold.pl"
    program.write_text(clf.program_, encoding="utf-8")
    facts_file = directory / "facts.pl"
    facts_file.write_text(clf.facts(X) if facts is None else facts, encoding="utf-8")
    labels = ", ".join(clf.prolog_.label_terms)
    row = quote_atom(clf.prolog_.row_predicate)
    label = quote_atom(clf.prolog_.label_predicate)
    # the goal names the labels, so it goes in a UTF-8 file too (a C-locale command line
    # cannot hold them)
    query = directory / "query.pl"
    query.write_text(
        ":- encoding(utf8).\n"
        f"main :- forall({row}(I), ({label}(I, L), nth0(K, [{labels}], L), "
        "format('~d ~d~n', [I, K]))).\n", encoding="utf-8")
    done = subprocess.run(
        [swipl, "-q", "-g", "main", "-t", "halt", str(program), str(facts_file), str(query)],
        capture_output=True, text=True, timeout=120, encoding="utf-8",
        env={"PATH": os.environ["PATH"], "LANG": "C", "LC_ALL": "C"},
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


names = st.one_of(st.sampled_from(HOSTILE), st.text(min_size=1, max_size=8))
# "z\x00" and "z": numpy string arrays would drop the NUL and take one for the other
values = st.one_of(st.sampled_from(HOSTILE[:12] + ("z\x00", "z")), st.text(max_size=5))


@st.composite
def tables(draw, names=names, values=values):
    """Random small tables: hostile names and values, NaN, Negated, -0.0, subnormals."""
    n_rows = draw(st.integers(4, 30))
    columns = draw(st.lists(names, min_size=1, max_size=4, unique=True))
    frame = {}
    for name in columns:
        if draw(st.booleans()):
            cells = draw(st.lists(
                st.one_of(st.floats(-1e6, 1e6, allow_nan=False), st.just(np.nan),
                          st.sampled_from([0.1, 1 / 3, -0.0, 5e-324])),
                min_size=n_rows, max_size=n_rows))
            frame[name] = pd.Series(cells, dtype=float)
        else:
            pool = draw(st.lists(values, min_size=1, max_size=4, unique=True))
            cell = st.one_of(st.sampled_from(pool), st.just(np.nan),
                             st.sampled_from(pool).map(Negated))
            frame[name] = pd.Series(draw(st.lists(cell, min_size=n_rows, max_size=n_rows)),
                                    dtype=object)
    labels = draw(st.lists(values, min_size=2, max_size=3, unique=True))
    y = draw(st.lists(st.sampled_from(labels), min_size=n_rows, max_size=n_rows))
    return pd.DataFrame(frame), np.array(y, dtype=object)
