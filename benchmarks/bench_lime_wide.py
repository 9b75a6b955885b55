"""LIME's cost per row as tables get wide: the batched engine on a generated table.

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_lime_wide [--repeats 3] [--columns 2000] [--explain 32]

The table has 300 standard normal rows of ``--columns`` columns, labelled
``f0 + f1 > 0`` by an XGBoost model (50 trees, depth 3). Its first ``--explain`` rows (by
default one pool of ``LimeConfig.pool_rows``) are explained ``--repeats`` times with the
default ``LimeConfig`` (5000 samples, 256 MB budget) in this process (``n_jobs=1``); the
median milliseconds per row and the process's peak resident memory are printed. To time another
version of ``explain`` with this script on the same machine::

    git archive <commit> explain | tar -x -C DIR
    cd DIR && PYTHONPATH=<this checkout> <this checkout>/.venv/bin/python -m benchmarks.bench_lime_wide
"""

from __future__ import annotations

import resource
import sys

import numpy as np
import xgboost as xgb

from benchmarks.cli import command_line, one_line_errors
from benchmarks.machine import header
from benchmarks.timing import median_and_runs, wall_times
from explain.cli import OneLineParser, number_arg
from explain.lime_runner import LimeConfig, explain_rows


@one_line_errors
def main(argv=None) -> int:
    parser = OneLineParser(prog="python -m benchmarks.bench_lime_wide",
                           description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=number_arg(int, 1), default=3)
    parser.add_argument("--columns", type=number_arg(int, 2), default=2000)
    parser.add_argument("--explain", type=number_arg(int, 1), default=32)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, args.columns))
    model = xgb.XGBClassifier(n_estimators=50, max_depth=3, n_jobs=1, random_state=0)
    model.fit(X, (X[:, 0] + X[:, 1] > 0).astype(int))
    config = LimeConfig(n_jobs=1)
    print(header(command_line("benchmarks.bench_lime_wide", argv)))
    seconds, _ = wall_times(
        lambda _: explain_rows(X, X[:args.explain], model.predict_proba, config), args.repeats)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    median, runs = median_and_runs(seconds, digits=1, scale=1000 / args.explain)
    print(f"300 x {args.columns}, {args.explain} rows: median {median} ms per row ({runs}); "
          f"peak memory {peak:.2f} GB", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
