"""Benchmark of the IMLI learner: fit time, test accuracy, rule size, optimality.

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_imli [--repeats 5] [--datasets breast_cancer adult]

Each dataset is split 80/20 (stratified, seed 0) and binarized once with
``imli.Binarizer`` fitted on the training rows (the same binarization for every
configuration of a dataset). Each configuration is fitted ``--repeats`` times with
``random_state`` 0, 1, ... (the mini-batch order changes; the one-query MLIC problem does
not depend on it) and the medians are printed as a markdown table, with the machine and
the versions. Wall time is measured around ``fit`` only.

"IMLI default" is ``IMLIClassifier()`` with no parameters (iterative clause-by-clause
learning in mini-batches of 25 rows, then the local-search polish on all training rows);
the issue's targets are stated for it on breast_cancer and Adult.
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings
from dataclasses import dataclass, field

from sklearn.model_selection import train_test_split

from benchmarks.cli import Unique, command_line, one_line_errors
from benchmarks.datasets import load
from benchmarks.machine import header
from explain.cli import OneLineParser, number_arg
from imli import Binarizer, IMLIClassifier, TimeLimitWarning

#: Quantile thresholds per numeric feature, per dataset.
THRESHOLDS = {"breast_cancer": 2, "adult": 9}


@dataclass(frozen=True)
class Config:
    """One benchmark line: a dataset, a label and the estimator's parameters."""

    dataset: str
    label: str
    params: dict = field(default_factory=dict)
    target: str = ""


CONFIGS = (
    Config("breast_cancer", "IMLI default: iterative CNF k=2, batch 25, polished",
           dict(), "≤ 0.2 s, ≥ 94 %"),
    Config("breast_cancer", "IMLI default, not polished", dict(polish=False)),
    Config("breast_cancer", "IMLI mini-batch (joint) CNF k=2, batch 25",
           dict(mode="joint")),
    Config("breast_cancer", "IMLI default DNF k=2", dict(rule_type="DNF")),
    Config("breast_cancer", "MLIC one query CNF k=2 (batch_size=None, limit 60 s)",
           dict(batch_size=None, time_limit=60.0), "proven optimal ≤ 60 s"),
    Config("heart", "IMLI default", dict()),
    Config("pima", "IMLI default", dict()),
    Config("credit-g", "IMLI default", dict()),
    Config("adult", "IMLI default: iterative CNF k=2, batch 25, polished",
           dict(), "≤ 10 s, ≥ 84 %, ≤ 30 literals"),
    Config("adult", "IMLI default, not polished", dict(polish=False)),
    Config("adult", "IMLI default DNF k=3, limit 8 s",
           dict(n_clauses=3, rule_type="DNF", time_limit=8.0)),
)

#: The datasets with configurations, in their order.
DATASETS = tuple(dict.fromkeys(c.dataset for c in CONFIGS))


@dataclass
class Run:
    seconds: float
    accuracy: float
    size: int
    optimal: bool
    timed_out: bool


def _split(name: str):
    data = load(name)
    X_train, X_test, y_train, y_test = train_test_split(
        data.X, data.y, test_size=0.2, stratify=data.y, random_state=0)
    binarizer = Binarizer(n_thresholds=THRESHOLDS.get(name, 9)).fit(X_train)
    return (binarizer.transform(X_train), binarizer.transform(X_test), y_train, y_test,
            binarizer.column_specs_)


def run(config: Config, split, seed: int) -> Run:
    """Fit once and measure."""
    X_train, X_test, y_train, y_test, specs = split
    clf = IMLIClassifier(random_state=seed, **config.params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TimeLimitWarning)
        start = time.perf_counter()
        clf.fit(X_train, y_train, column_specs=specs)
        seconds = time.perf_counter() - start
    accuracy = float((clf.predict(X_test) == y_test).mean())
    return Run(seconds, accuracy, clf.rule_size_, clf.optimal_, clf.timed_out_)


def _flag(values: list[bool]) -> str:
    if all(values):
        return "yes"
    return "no" if not any(values) else f"{sum(values)}/{len(values)}"


def build_parser() -> argparse.ArgumentParser:
    """The options."""
    parser = OneLineParser(prog="python -m benchmarks.bench_imli",
                           description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=number_arg(int, 1), default=5)
    parser.add_argument("--datasets", nargs="+", choices=DATASETS, action=Unique,
                        metavar="NAME", default=list(DATASETS),
                        help=f"datasets to run, of those with configurations: "
                             f"{' '.join(DATASETS)} (default: all)")
    return parser


@one_line_errors
def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    print(header(command_line("benchmarks.bench_imli", argv)))
    print()
    print("| dataset | configuration | fit s (median) | test accuracy (median) | rule size "
          "(median) | proven optimal | timed out | target |")
    print("|---|---|---|---|---|---|---|---|")
    for name in args.datasets:
        split = _split(name)
        for config in (c for c in CONFIGS if c.dataset == name):
            runs = [run(config, split, seed) for seed in range(args.repeats)]
            print(f"| {name} (bins {THRESHOLDS.get(name, 9)}) | {config.label} "
                  f"| {statistics.median(r.seconds for r in runs):.3f} "
                  f"| {100 * statistics.median(r.accuracy for r in runs):.2f} % "
                  f"| {statistics.median(r.size for r in runs):g} "
                  f"| {_flag([r.optimal for r in runs])} "
                  f"| {_flag([r.timed_out for r in runs])} | {config.target} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
