"""Benchmark of the pipeline on models whose features matter only together.

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_interactions [--seeds 12] [--discretizer entropy]

Generated tables (``--rows`` rows of six standard normal features ``f0``-``f5``) labelled
by a rule the black box (XGBoost, trained by the pipeline) learns: ``xor``,
``(f0 > 0) xor (f1 > 0)``, where neither feature says anything on its own; ``xor_shifted``,
``(f0 > 0.7) xor (f1 > -0.5)``, where each does a little; ``and``,
``f0 > 0.3 and f1 < 0.5``, a control. For each seed the table, the split, the black box
and LIME (``--num-samples`` per row) are seeded with it. Prints, per table, the raw-test
fidelity of IMLI and FOLD for every seed, their median and the black box's test accuracy.
"""

from __future__ import annotations

import argparse
import statistics

import numpy as np
import pandas as pd

from adapters import from_frame
from benchmarks.machine import header
from explain.lime_runner import DISCRETIZERS, LimeConfig
from explain.pipeline import RunConfig, run_pipeline

#: Label of each generated table, from its features.
LABELS = {
    "xor": lambda X: (X[:, 0] > 0) ^ (X[:, 1] > 0),
    "xor_shifted": lambda X: (X[:, 0] > 0.7) ^ (X[:, 1] > -0.5),
    "and": lambda X: (X[:, 0] > 0.3) & (X[:, 1] < 0.5),
}


def table(kind: str, seed: int, rows: int):
    """The generated dataset ``kind`` for ``seed``."""
    X = np.random.RandomState(seed).normal(size=(rows, 6))
    frame = pd.DataFrame(X, columns=[f"f{i}" for i in range(6)])
    frame["y"] = np.where(LABELS[kind](X), "yes", "no")
    return from_frame(frame, "y", positive="yes", name=kind)


def run(kind: str, seeds: int, rows: int, num_samples: int, discretizer: str) -> dict:
    """Fidelities of IMLI and FOLD (and the black box's accuracy) for each seed."""
    out = {"imli": [], "fold": [], "black box": []}
    for seed in range(seeds):
        lime = LimeConfig(num_samples=num_samples, discretizer=discretizer,
                          random_state=seed)
        report = run_pipeline(table(kind, seed, rows),
                              RunConfig(random_state=seed, lime=lime)).report
        for learner in ("imli", "fold"):
            out[learner].append(report["learners"][learner]["fidelity_test"])
        out["black box"].append(report["black_box"]["accuracy_test"])
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=12)
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--num-samples", type=int, default=1000)
    parser.add_argument("--discretizer", choices=DISCRETIZERS, default="entropy")
    parser.add_argument("--tables", nargs="+", choices=list(LABELS), default=list(LABELS))
    args = parser.parse_args(argv)
    print(header("python -m benchmarks.bench_interactions"))
    print(f"{args.rows} rows, {args.num_samples} LIME samples per row, {args.discretizer} "
          f"bins, seeds 0-{args.seeds - 1}; raw-test fidelity\n")
    print("| table | method | median | min | every seed |")
    print("|---|---|---:|---:|---|")
    for kind in args.tables:
        scores = run(kind, args.seeds, args.rows, args.num_samples, args.discretizer)
        for method, values in scores.items():
            print(f"| {kind} | {method} | {statistics.median(values):.3f} | "
                  f"{min(values):.3f} | {' '.join(f'{v:.2f}' for v in values)} |", flush=True)


if __name__ == "__main__":
    main()
