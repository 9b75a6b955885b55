"""Whether fitting and predicting many FOLD programs in one process grows its memory.

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_fold_engine_memory [--fits 2000] [--same-names]

Each fit is a FOLD program learned on 20 rows of a numeric and a categorical column, then
run by SWI-Prolog on them (``predict``). By default every fit has names of its own: the
numeric column's name (with a quote, ``:-`` and an accented letter), the category
values and the class labels all hold the fit's number; with ``--same-names`` only the
category values do. After the first fit and at five evenly spaced points, the last at the
end, it prints the process's resident memory (VmRSS), SWI-Prolog's atoms (SWI-Prolog
collects them by itself every 10,000 new atoms, its ``agc_margin``), its atoms after
``garbage_collect_atoms/0`` (an atom no clause, term or functor refers to any more is
freed), its functors and the temporary modules left behind (the engine loads each call
into one).
SWI-Prolog never frees a functor, nor the atom that names it: each distinct predicate
name stays for the life of the process.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchmarks.cli import command_line, one_line_errors
from benchmarks.machine import header
from explain.cli import OneLineParser, number_arg
from fold import FOLDClassifier, get_engine

__all__ = ["fit_and_predict", "prolog_counts", "main"]

_X = np.tile([0.0, 1.0, 2.0, 3.0], 5)


def fit_and_predict(i: int, same_names: bool) -> None:
    """Fit and run fit number ``i`` (its names as the module docstring says)."""
    n = 0 if same_names else i
    X = pd.DataFrame({f"c{n} ') :- halt. \u00e9": _X,
                      f"k{n}": np.where(_X > 1.5, f"v{i}'x\n", f"w{i}")})
    y = np.where(X[f"k{n}"] == f"w{i}", f"no{n}", f"yes{n}")
    clf = FOLDClassifier(random_state=0, min_support=1).fit(X, y)
    if not (clf.predict(X) == y).all():
        raise RuntimeError(f"fit {i} does not predict its own labels")


def prolog_counts() -> dict:
    """Atoms (before and after an atom garbage collection), functors and temporary
    modules of the process's SWI-Prolog."""
    from pyswip import Prolog

    get_engine()
    (found,) = Prolog.query(
        "statistics(atoms, A), garbage_collect_atoms, statistics(atoms, G), "
        "statistics(functors, F), aggregate_all(count, (current_module(M), "
        "sub_atom(M, 0, _, _, 'tmp-')), T)")
    return {"atoms": found["A"], "collected": found["G"], "functors": found["F"],
            "modules": found["T"]}


def _rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        kb = next(line for line in status if line.startswith("VmRSS:")).split()[1]
    return int(kb) / 1024


@one_line_errors
def main(argv=None) -> int:
    parser = OneLineParser(prog="python -m benchmarks.bench_fold_engine_memory",
                           description=__doc__.splitlines()[0])
    parser.add_argument("--fits", type=number_arg(int, 5), default=2000)
    parser.add_argument("--same-names", action="store_true",
                        help="the same column names and labels in every fit")
    args = parser.parse_args(argv)
    print(header(command_line("benchmarks.bench_fold_engine_memory", argv)))
    print()
    print("| fits | RSS MB | atoms | after GC | functors | temporary modules |\n"
          "|---:|---:|---:|---:|---:|---:|")
    checkpoints = set(np.linspace(0, args.fits, 6).astype(int)[1:])
    fit_and_predict(0, args.same_names)  # the libraries' first-use memory out of the way
    for i in range(1, args.fits + 1):
        fit_and_predict(i, args.same_names)
        if i in checkpoints or i == 1:
            counts = prolog_counts()
            print(f"| {i} | {_rss_mb():.1f} | {counts['atoms']} | {counts['collected']} | "
                  f"{counts['functors']} | {counts['modules']} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
