"""How long IMLI's ``time_limit`` really takes, with each SAT solver under RC2.

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_time_limit [--repeats 3] [--sat g3 m22]
        [--leave-after 0.5 inf]

RC2 runs in a worker thread; when the limit strikes it is interrupted, and a run that has
not stopped ``leave_after`` seconds later is left behind (``imli.solver._ABANDON_SECONDS``,
0.5 in the project; ``inf`` waits for the solver, as before it had that thread). Each pair
of a SAT solver (python-sat names; ``imli.solver._SAT_SOLVER``, ``g3`` in the project) and
a ``leave_after`` is measured twice:

* a single query: 100 rows of 200 standard normal features, binarized (about 500,000
  hard clauses), ``solve(..., time_limit=1.0)``, ``--repeats`` times, each in a fresh
  process that builds the query first (repeated in one process, the overruns were rarer);
* a whole fit: ``IMLIClassifier(batch_size=None, time_limit=10)`` on 200 rows of 500
  noise features (normal and 0/1, seeds 0-2, random labels), each once.

The wall seconds are printed as the median, the largest and every run. How far they
pass the limit depends on when the interruption strikes, so runs vary.
"""

from __future__ import annotations

import argparse
import math
import statistics
import subprocess
import sys
import time
import warnings

import numpy as np

import imli.solver
from benchmarks.cli import command_line, one_line_errors
from benchmarks.machine import header
from explain.cli import OneLineParser, number_arg
from imli import Binarizer, IMLIClassifier
from imli.encoding import Weights, encode
from imli.rows import merge_rows


def sat_solver(text: str) -> str:
    """An argparse type: one of python-sat's solver names (``g3``, ``glucose3``, ...)."""
    from pysat.solvers import SolverNames

    names = {k: v for k, v in vars(SolverNames).items() if isinstance(v, tuple)}
    if not any(text in aliases for aliases in names.values()):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a python-sat solver; choose from {', '.join(names)} "
            "or one of their short names (g3, m22, ...)")
    return text


def one_query() -> object:
    """The single query (seed 0)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(100, 200))
    Xb = Binarizer().fit(X).transform(X).to_numpy()
    return encode(merge_rows(Xb, rng.random(100) < 0.5), 2, Weights(1, 10)).wcnf


def one_query_seconds(sat: str, leave_after: float) -> float:
    """Build the single query, then time solving it with RC2 over ``sat``, 1 s limit."""
    wcnf = one_query()
    _configure(sat, leave_after)
    return _timed(lambda: imli.solver.solve(wcnf, time_limit=1.0))


def _configure(sat: str, leave_after: float) -> None:
    imli.solver._SAT_SOLVER = sat
    imli.solver._ABANDON_SECONDS = None if math.isinf(leave_after) else leave_after


def _in_fresh_process(sat: str, leave_after: float) -> float:
    code = ("from benchmarks.bench_time_limit import one_query_seconds; "
            f"print(one_query_seconds({sat!r}, float({str(leave_after)!r})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    return float(out.stdout.split()[-1])


def noise_tables():
    """The whole-fit tables: (name, X, y)."""
    for seed in range(3):
        for kind in ("normal", "0/1"):
            rng = np.random.default_rng(seed)
            X = (rng.normal(size=(200, 500)) if kind == "normal"
                 else rng.integers(0, 2, size=(200, 500)))
            yield f"{kind} seed {seed}", X, rng.integers(0, 2, size=200)


def _timed(call) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def _row(what: str, sat: str, leave_after: float, seconds: list[float]) -> str:
    runs = ", ".join(f"{s:.1f}" for s in seconds)
    return (f"| {what} | {sat} | {leave_after:g} | {statistics.median(seconds):.1f} | "
            f"{max(seconds):.1f} | {runs} |")


@one_line_errors
def main(argv=None) -> int:
    parser = OneLineParser(prog="python -m benchmarks.bench_time_limit",
                           description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=number_arg(int, 1), default=3)
    parser.add_argument("--sat", nargs="+", type=sat_solver, default=["g3", "m22"],
                        help="SAT solvers under RC2 (python-sat names)")
    parser.add_argument("--leave-after", nargs="+", type=float, default=[0.5, float("inf")],
                        help="seconds after the limit to leave a run behind (inf: never)")
    parser.add_argument("--no-fits", action="store_true", help="only the single query")
    args = parser.parse_args(argv)
    if any(not s >= 0 for s in args.leave_after):
        parser.error("need --leave-after >= 0")
    pairs = [(sat, leave) for sat in args.sat for leave in args.leave_after]
    print(header(command_line("benchmarks.bench_time_limit", argv)))
    print()
    print("| measurement | SAT solver | left after s | median s | largest s | runs |\n"
          "|---|---|---:|---:|---:|---|")
    for sat, leave in pairs:
        seconds = [_in_fresh_process(sat, leave) for _ in range(args.repeats)]
        print(_row("one query, limit 1 s", sat, leave, seconds), flush=True)
    tables = list(noise_tables())
    saved = imli.solver._SAT_SOLVER, imli.solver._ABANDON_SECONDS
    try:
        for sat, leave in [] if args.no_fits else pairs:
            _configure(sat, leave)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                seconds = [_timed(lambda: IMLIClassifier(batch_size=None, time_limit=10)
                                  .fit(X, y)) for _, X, y in tables]
            print(_row("fit, limit 10 s", sat, leave, seconds), flush=True)
    finally:
        imli.solver._SAT_SOLVER, imli.solver._ABANDON_SECONDS = saved
    return 0


if __name__ == "__main__":
    sys.exit(main())
