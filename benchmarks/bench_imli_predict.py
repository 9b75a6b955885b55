"""``IMLIClassifier.predict`` on a large raw table: binarizing the rows is most of it.

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_imli_predict [--repeats 3] [--rows 1000000]

A generated table of 12 standard normal columns and 8 text columns of 5 to 50 categories
(5 % missing in one of each), labelled ``x0 > 0``; ``IMLIClassifier(random_state=0,
time_limit=5)`` is fitted on 50,000 rows and predicts ``--rows`` others ``--repeats``
times. The median wall time of ``predict`` and of ``Binarizer.transform`` (the fitted
binarizer's 428 columns) are printed. To time another version of ``imli`` on the same
machine, as ``benchmarks.bench_imli_wide`` says.
"""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pandas as pd

from benchmarks.cli import command_line, one_line_errors
from benchmarks.machine import header
from benchmarks.timing import median_and_runs, wall_times
from explain.cli import OneLineParser, number_arg
from imli import IMLIClassifier


def generated(rows: int, seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    """The table and its labels."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({f"x{i}": rng.normal(size=rows) for i in range(12)})
    for i, k in enumerate([5, 8, 12, 20, 30, 40, 47, 50]):
        X[f"c{i}"] = rng.choice([f"v{j}" for j in range(k)], rows)
    X.loc[rng.random(rows) < 0.05, "c3"] = None
    X["x2"] = X["x2"].where(rng.random(rows) > 0.05)
    return X, (X.x0 > 0).astype(int).to_numpy()


@one_line_errors
def main(argv=None) -> int:
    parser = OneLineParser(prog="python -m benchmarks.bench_imli_predict",
                           description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=number_arg(int, 1), default=3)
    parser.add_argument("--rows", type=number_arg(int, 1), default=1_000_000)
    args = parser.parse_args(argv)
    print(header(command_line("benchmarks.bench_imli_predict", argv)))
    X, y = generated(50_000, 0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = IMLIClassifier(random_state=0, time_limit=5).fit(X, y)
    rows, _ = generated(args.rows, 4)
    for name, call in (("predict", model.predict), ("transform", model.binarizer_.transform)):
        median, runs = median_and_runs(wall_times(lambda _: call(rows), args.repeats)[0])
        print(f"{name} {args.rows} rows: median {median} s ({runs})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
