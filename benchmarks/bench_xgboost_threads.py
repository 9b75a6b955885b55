"""The black box's training and prediction on one or all threads, idle and with a core taken.

``python -m benchmarks.bench_xgboost_threads [--rounds 5] [--datasets breast_cancer adult]``

For each dataset (80 % of its rows, stratified, seed 0; a multi-class target made
one-vs-rest as the pipeline makes it, :func:`explain.pipeline.binarize_target`) the black
box is trained as the pipeline trains it (:func:`adapters.train_xgboost`, early stopping
on a validation split),
and then predicts the probabilities of a LIME-sized block of perturbed rows (the training
rows repeated to ``--predict-rows`` rows), with XGBoost on:

- ``1 thread``: ``n_jobs=1`` (``nthread`` for the booster's predictions);
- ``all threads``: XGBoost's own default, every core;
- ``default``: what :func:`adapters.train_xgboost` chooses when not told
  (:func:`adapters.xgboost_box.training_threads`).

Each setting runs in a fresh process (OpenMP reads its settings when it starts), the
settings alternating within each round, once on an idle machine and once while another
process spins on one core, as another job would (``--no-busy``: idle only). Wall seconds,
median of the rounds, with every round beside it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

from benchmarks.cli import Unique, check_child, command_line, one_line_errors
from benchmarks.datasets import NAMES, load
from benchmarks.machine import a_core_taken, header
from explain.cli import OneLineParser, number_arg

ROOT = Path(__file__).resolve().parents[1]

SETTINGS = {"1 thread": "1", "all threads": "all", "default": "default"}

_CHILD = r"""
import json, sys, time
import numpy as np
from sklearn.model_selection import train_test_split
from adapters import TableEncoder
from adapters.xgboost_box import train_xgboost
from benchmarks.datasets import load
from benchmarks.runner import to_project_dataset
from explain.pipeline import binarize_target

name, setting, predict_rows = sys.argv[1], sys.argv[2], int(sys.argv[3])
data = binarize_target(to_project_dataset(load(name)))
X, _, y, _ = train_test_split(data.X, data.y, test_size=0.2, random_state=0, stratify=data.y)
params = {} if setting == "default" else {"n_jobs": None if setting == "all" else 1}
encoder = TableEncoder().fit(X, data.categorical)
started = time.perf_counter()
box = train_xgboost(X, y, encoder, data.categorical, **params)
train = time.perf_counter() - started
Z = encoder.transform(X)
Z = np.tile(Z, (-(-predict_rows // len(Z)), 1))[:predict_rows]
started = time.perf_counter()
box.predict_proba_encoded(Z)
predict = time.perf_counter() - started
print(json.dumps({"train": train, "predict": predict,
                  "threads": box.info["training_threads"]}))
"""


def _once(name: str, setting: str, predict_rows: int) -> dict:
    done = subprocess.run([sys.executable, "-c", _CHILD, name, SETTINGS[setting],
                           str(predict_rows)], capture_output=True, text=True, cwd=ROOT)
    check_child(done, f"{name} {setting}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure(names: list, rounds: int, predict_rows: int, busy: bool) -> dict:
    """Seconds of each setting on each dataset, ``rounds`` alternating rounds."""
    results = {}
    with a_core_taken(busy):
        for name in names:
            runs = {setting: [] for setting in SETTINGS}
            for r in range(rounds):
                order = list(SETTINGS) if r % 2 == 0 else list(SETTINGS)[::-1]
                for setting in order:
                    runs[setting].append(_once(name, setting, predict_rows))
            results[name] = runs
            _print(name, runs, busy)
    return results


def _print(name: str, runs: dict, busy: bool) -> None:
    for what in ("train", "predict"):
        cells = []
        for setting, rounds in runs.items():
            values = [r[what] for r in rounds]
            cells.append(f"{statistics.median(values):.3f} "
                         f"({', '.join(f'{v:.2f}' for v in values)})")
        threads = runs["default"][0]["threads"]
        print(f"| {name} | {'a core taken' if busy else 'idle'} | {what} | "
              + " | ".join(cells) + f" | {threads} |", flush=True)


def build_parser() -> argparse.ArgumentParser:
    """The options."""
    parser = OneLineParser(prog="python -m benchmarks.bench_xgboost_threads",
                           description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=number_arg(int, 1), default=5)
    parser.add_argument("--datasets", nargs="+", choices=NAMES, action=Unique, metavar="NAME",
                        default=["iris", "breast_cancer", "credit-g", "adult"])
    parser.add_argument("--predict-rows", type=number_arg(int, 1), default=250_000,
                        help="rows predicted at once (LIME: 5000 samples x 50 rows)")
    parser.add_argument("--no-busy", action="store_true", help="idle machine only")
    return parser


@one_line_errors
def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    for name in args.datasets:  # fetched here, so that a missing one is one line
        load(name)
    print(header(command_line("benchmarks.bench_xgboost_threads", argv)))
    print("\nWall seconds, median of the rounds (every round in brackets).\n")
    print("| dataset | machine | step | 1 thread | all threads | default | default's "
          "training threads |")
    print("|---|---|---|---:|---:|---:|---:|")
    for busy in (False,) if args.no_busy else (False, True):
        measure(args.datasets, args.rounds, args.predict_rows, busy)
    return 0


if __name__ == "__main__":
    sys.exit(main())
