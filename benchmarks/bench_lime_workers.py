"""LIME in one process or in worker processes: whole command-line runs, as a user waits.

``python -m benchmarks.bench_lime_workers [--rounds 3] [--out results.json]``

Each run is ``python -m explain run --data D --learners fold --no-cache`` in a fresh
process (a fresh process starts its workers afresh, as every command-line run does), in
three ways, alternating within each round so a shared machine's load hits all alike:

- ``one process``: ``--n-jobs 1``;
- ``workers``: ``--n-jobs -1`` with workers always started (``WORKER_START_SECONDS = 0``,
  the behaviour before the first batch's time decided it);
- ``default``: ``--n-jobs -1`` as shipped (workers only when the batches left would take
  longer here than starting them costs plus their time there).

Datasets: the bundled iris and breast_cancer, and adult's first 2,000 and 8,000 rows
(written to a CSV) when the benchmark data is fetched. Wall seconds of the whole run,
median of the rounds.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.cli import check_child, command_line, one_line_errors, unusable_file
from benchmarks.machine import environment, header
from explain.cli import OneLineParser, number_arg

MODES = {"one process": ("1", None), "workers": ("-1", 0.0), "default": ("-1", None)}

_RUN = ("import sys, explain.lime_parallel as p; "
        "p.WORKER_START_SECONDS = float(sys.argv[1]) if sys.argv[1] else "
        "p.WORKER_START_SECONDS; from explain.cli import main; sys.exit(main(sys.argv[2:]))")


def _datasets(folder: Path) -> list[tuple[str, str]]:
    """(label, --data) pairs: the bundled tables, and adult's first rows when fetched."""
    data = [("iris (150 rows)", "iris"), ("breast_cancer (569 rows)", "breast_cancer")]
    try:
        from benchmarks.datasets import is_available, load
        if is_available("adult"):
            adult = load("adult")
            for n in (2000, 8000):
                frame = adult.X.iloc[:n].copy()
                frame["income"] = [adult.class_names[k] for k in adult.y[:n]]
                path = folder / f"adult_{n}.csv"
                frame.to_csv(path, index=False)
                data.append((f"adult, first {n} rows", str(path)))
    except (ImportError, OSError, ValueError):
        pass
    return data


def _run_once(data: str, mode: str, out: Path) -> float:
    jobs, start = MODES[mode]
    target = ["--target", "income"] if data.endswith(".csv") else []
    command = [sys.executable, "-c", _RUN, "" if start is None else str(start), "run",
               "--data", data, *target, "--learners", "fold", "--no-cache", "--n-jobs", jobs,
               "--out", str(out), "--force"]
    began = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - began
    check_child(done, f"explain run --data {data} ({mode})")
    return seconds


@one_line_errors
def main(argv=None) -> int:
    parser = OneLineParser(prog="python -m benchmarks.bench_lime_workers",
                           description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=number_arg(int, 1), default=3)
    parser.add_argument("--out", type=Path, help="write the results as JSON here")
    args = parser.parse_args(argv)
    problem = unusable_file(args.out)
    if problem:
        parser.error(f"--out {str(args.out)!r} {problem}")
    command = command_line("benchmarks.bench_lime_workers", argv)
    print(header(command))
    results = {"environment": environment(command), "rounds": args.rounds, "datasets": {}}
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        for label, data in _datasets(folder):
            times = {mode: [] for mode in MODES}
            for _ in range(args.rounds):
                for mode in MODES:
                    times[mode].append(_run_once(data, mode, folder / "out"))
            results["datasets"][label] = times
            medians = {mode: statistics.median(t) for mode, t in times.items()}
            print(f"{label}: " + ", ".join(f"{mode} {s:.2f} s" for mode, s in medians.items())
                  + f"; default / one process {medians['default'] / medians['one process']:.2f}"
                  f", default / workers {medians['default'] / medians['workers']:.2f}",
                  flush=True)
    if args.out:
        args.out.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
