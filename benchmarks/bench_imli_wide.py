"""Fit time of ``IMLIClassifier()`` as tables get wide: a generated table and sonar.

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_imli_wide [--repeats 3] [--rows 2000] [--columns 300]

The generated table has standard normal columns ``f0 ...`` and the label
``(f0 > 0 AND f1 < 0.5) OR f2 > 1``; sonar (208 rows, 60 numeric columns) comes from the
benchmark cache (``python -m benchmarks fetch``). Each table is fitted ``--repeats`` times
with ``random_state`` 0, 1, ... and the median wall time of ``fit`` is printed with the
rule learned. To time another version of ``imli`` with this script on the same machine::

    git archive <commit> imli | tar -x -C DIR
    cd DIR && PYTHONPATH=<this checkout> <this checkout>/.venv/bin/python -m benchmarks.bench_imli_wide
"""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pandas as pd

from benchmarks.cli import command_line, one_line_errors
from benchmarks.datasets import load
from benchmarks.machine import header
from benchmarks.timing import median_and_runs, wall_times
from explain.cli import OneLineParser
from imli import IMLIClassifier


def generated(rows: int, columns: int) -> tuple[pd.DataFrame, np.ndarray]:
    """The generated table and its labels (seed 0)."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(rows, columns)), columns=[f"f{i}" for i in range(columns)])
    y = ((X.f0 > 0) & (X.f1 < 0.5) | (X.f2 > 1)).to_numpy().astype(int)
    return X, y


@one_line_errors
def main(argv=None) -> int:
    parser = OneLineParser(prog="python -m benchmarks.bench_imli_wide",
                           description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--columns", type=int, default=300)
    args = parser.parse_args(argv)
    if args.columns < 3 or args.rows < 2 or args.repeats < 1:
        parser.error("need --columns >= 3, --rows >= 2 and --repeats >= 1")
    sonar = load("sonar")
    tables = [(f"generated {args.rows} x {args.columns}", *generated(args.rows, args.columns)),
              ("sonar 208 x 60", sonar.X, np.asarray(sonar.y))]
    print(header(command_line("benchmarks.bench_imli_wide", argv)))
    print()
    print("| table | median fit s | runs | rule |\n|---|---:|---|---|")
    for name, X, y in tables:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            seconds, model = wall_times(
                lambda seed: IMLIClassifier(random_state=seed).fit(X, y), args.repeats)
        median, runs = median_and_runs(seconds)
        print(f"| {name} | {median} | {runs} | `{model.rules_}` |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
