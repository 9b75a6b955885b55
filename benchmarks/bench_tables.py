"""Benchmark of the pipeline on tables the end-to-end suite does not hold.

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_tables [--seeds 12] [--top-k 5] [--tables xor and ...]
        [--train-view lime+raw]

Two kinds of table. Generated (``--rows`` rows of six standard normal features
``f0``-``f5``, ten for ``xor_gated``), labelled by a rule the black box (XGBoost, trained
by the pipeline) learns: ``xor``, ``(f0 > 0) xor (f1 > 0)``, where neither feature says
anything on its own; ``xor_shifted``, ``(f0 > 0.7) xor (f1 > -0.5)``, where each does a
little; ``xor_gated``, ``not ((f0 > 0) xor (f1 > 0)) and f2 > -0.5``, an xor inside a
subgroup that one feature alone tells apart; ``and``, ``f0 > 0.3 and f1 < 0.5``, a
control. And scikit-learn's bundled or generated tables that no benchmark dataset is:
``digits`` (the digit 3 against the rest, 64 pixel counts),
``diabetes`` (disease progression above its median, 10 features), ``classification``
(``make_classification``: 10 features, 4 informative, 2 redundant, 5 % flipped labels) and
``friedman1`` (``make_friedman1``'s target above its median: ``sin(pi x0 x1)`` and other
terms, 8 features). For each seed the generated table, the split, the black box and LIME
(``--num-samples`` per row) are seeded with it. Prints, per table and surrogate, the
raw-test fidelity (median, min and every seed) and the median number of literals, and the
black box's test accuracy.
"""

from __future__ import annotations

import statistics
import sys

import numpy as np
import pandas as pd
from sklearn.datasets import load_diabetes, load_digits, make_classification, make_friedman1

from adapters import from_frame
from benchmarks.cli import Unique, command_line, one_line_errors
from benchmarks.machine import header
from explain.cli import OneLineParser, number_arg
from explain.lime_runner import DISCRETIZERS, MAX_SAMPLES, LimeConfig
from explain.pipeline import TRAIN_VIEWS, RunConfig, run_pipeline

#: Label of each generated table, from its features.
LABELS = {
    "xor": lambda X: (X[:, 0] > 0) ^ (X[:, 1] > 0),
    "xor_shifted": lambda X: (X[:, 0] > 0.7) ^ (X[:, 1] > -0.5),
    "and": lambda X: (X[:, 0] > 0.3) & (X[:, 1] < 0.5),
    "xor_gated": lambda X: ((X[:, 0] > 0) == (X[:, 1] > 0)) & (X[:, 2] > -0.5),
}

#: Features of a generated table, when not six: ``xor_gated`` has seven noise features,
#: more than LIME's top 5 leave room for beside its three.
WIDTH = {"xor_gated": 10}


def _scikit_learn(kind: str, seed: int, rows: int):
    """Features and 0/1 label of one of scikit-learn's tables."""
    if kind == "digits":
        data = load_digits()
        return data.data, data.target == 3
    if kind == "diabetes":
        data = load_diabetes()
        return data.data, data.target > np.median(data.target)
    if kind == "classification":
        X, y = make_classification(rows, 10, n_informative=4, n_redundant=2, flip_y=0.05,
                                   random_state=seed)
        return X, y == 1
    X, target = make_friedman1(rows, 8, noise=1.0, random_state=seed)
    return X, target > np.median(target)


TABLES = (*LABELS, "digits", "diabetes", "classification", "friedman1")


def table(kind: str, seed: int, rows: int):
    """The dataset ``kind`` for ``seed`` (the bundled ``digits`` and ``diabetes`` are
    the same for every seed; only their split changes)."""
    if kind in LABELS:
        X = np.random.RandomState(seed).normal(size=(rows, WIDTH.get(kind, 6)))
        y = LABELS[kind](X)
    else:
        X, y = _scikit_learn(kind, seed, rows)
    frame = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
    frame["y"] = np.where(y, "yes", "no")
    return from_frame(frame, "y", positive="yes", name=kind)


def run(kind: str, seeds: int, rows: int, num_samples: int, discretizer: str,
        top_k: int = LimeConfig.top_k, train_view: str = RunConfig.train_view) -> dict:
    """Per seed: each surrogate's fidelity and literals, the black box's accuracy."""
    out = {"imli": [], "fold": [], "black box": []}
    for seed in range(seeds):
        lime = LimeConfig(num_samples=num_samples, discretizer=discretizer, top_k=top_k,
                          random_state=seed)
        config = RunConfig(random_state=seed, lime=lime, train_view=train_view)
        report = run_pipeline(table(kind, seed, rows), config).report
        for learner in ("imli", "fold"):
            entry = report["learners"][learner]
            out[learner].append((entry["fidelity_test"], entry["rule_size"]))
        out["black box"].append((report["black_box"]["accuracy_test"], None))
    return out


@one_line_errors
def main(argv=None) -> int:
    parser = OneLineParser(prog="python -m benchmarks.bench_tables",
                           description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=number_arg(int, 1), default=12)
    parser.add_argument("--rows", type=number_arg(int, 20), default=1000,
                        help="rows of a generated table, at least 20 (default 1000)")
    parser.add_argument("--num-samples", type=number_arg(int, 2, MAX_SAMPLES + 1),
                        default=1000)
    parser.add_argument("--discretizer", choices=DISCRETIZERS, default="entropy")
    parser.add_argument("--top-k", type=number_arg(int, 1), default=LimeConfig.top_k,
                        help="features LIME keeps per row")
    parser.add_argument("--tables", nargs="+", choices=TABLES, default=list(TABLES),
                        action=Unique)
    parser.add_argument("--train-view", choices=TRAIN_VIEWS, default=RunConfig.train_view,
                        help="what the surrogates learn from (the pipeline's --train-view)")
    args = parser.parse_args(argv)
    print(header(command_line("benchmarks.bench_tables", argv)))
    seeds = "seed 0" if args.seeds == 1 else f"seeds 0-{args.seeds - 1}"
    print(f"{args.rows} generated rows, {args.num_samples} LIME samples per row, "
          f"{args.discretizer} bins, top {args.top_k} features, {seeds}, "
          f"training view {args.train_view}; raw-test fidelity (the black box: test "
          "accuracy)\n")
    print("| table | method | median | min | literals (median) | every seed |")
    print("|---|---|---:|---:|---:|---|")
    for kind in args.tables:
        for method, runs in run(kind, args.seeds, args.rows, args.num_samples,
                                args.discretizer, args.top_k, args.train_view).items():
            scores = [score for score, _ in runs]
            literals = ("–" if runs[0][1] is None
                        else f"{statistics.median(size for _, size in runs):g}")
            print(f"| {kind} | {method} | {statistics.median(scores):.3f} | "
                  f"{min(scores):.3f} | {literals} | "
                  f"{' '.join(f'{s:.2f}' for s in scores)} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
