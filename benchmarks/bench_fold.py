"""Benchmark of the FOLD learner: fit time, accuracy, size, Prolog evaluation speed.

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_fold [--repeats 5] [--datasets breast_cancer adult]

Each dataset is split 80/20 (stratified, seed 0); the learner is fitted
``--repeats`` times and the medians are printed as a markdown table, with the
machine and the versions. Evaluation speed is measured on the test rows
replicated to about ``--eval-rows`` rows: "load" is SWI-Prolog reading the
program and the facts, "query" the single query that labels every row.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import time

import numpy as np
import pandas as pd
import sklearn
from sklearn.model_selection import train_test_split

from benchmarks.datasets import load
from fold import FOLDClassifier


def _versions() -> str:
    swipl = subprocess.run(["swipl", "--version"], capture_output=True, text=True).stdout
    import pyswip  # noqa: F401 - version via metadata
    from importlib.metadata import version
    return (f"Python {platform.python_version()}, numpy {np.__version__}, pandas "
            f"{pd.__version__}, scikit-learn {sklearn.__version__}, pyswip "
            f"{version('pyswip')}, {swipl.strip()}")


def _machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            names = [line.split(":", 1)[1].strip() for line in info if line.startswith("model name")]
        cpu = names[0] if names else cpu
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}"


def bench(name: str, repeats: int, eval_rows: int) -> dict:
    """Fit and evaluate on one dataset; medians over ``repeats`` runs."""
    data = load(name)
    X_train, X_test, y_train, y_test = train_test_split(
        data.X, data.y, test_size=0.2, random_state=0, stratify=data.y)
    fits, predicts, programs = [], [], set()
    for _ in range(repeats):
        clf = FOLDClassifier(random_state=0, prolog_timeout=600.0)
        start = time.perf_counter()
        clf.fit(X_train, y_train)
        fits.append(time.perf_counter() - start)
        programs.add(clf.program_)
        start = time.perf_counter()
        predicted = clf.predict(X_test)
        predicts.append(time.perf_counter() - start)
    assert (predicted == clf.predict_python(X_test)).all(), "Prolog and Python disagree"
    copies = max(1, eval_rows // len(X_test))
    big = pd.concat([X_test] * copies, ignore_index=True)
    loads, queries = [], []
    for _ in range(repeats):
        result = clf.evaluate_prolog(big)
        loads.append(result.load_seconds)
        queries.append(result.query_seconds)
    return {
        "dataset": name, "train": len(X_train), "test": len(X_test),
        "fit_s": statistics.median(fits), "fit_min_s": min(fits),
        "accuracy": float((predicted == y_test).mean()),
        "train_accuracy": float((clf.predict_python(X_train) == y_train).mean()),
        "rules": clf.rules_.n_rules, "literals": clf.rules_.n_literals,
        "predict_s": statistics.median(predicts),
        "eval_rows": len(big), "load_s": statistics.median(loads),
        "query_s": statistics.median(queries),
        "rows_per_s": len(big) / statistics.median(queries),
        "deterministic": len(programs) == 1, "program": clf.rules_,
    }


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--datasets", nargs="+", default=["breast_cancer", "adult"])
    parser.add_argument("--eval-rows", type=int, default=200_000)
    parser.add_argument("--show-rules", action="store_true")
    args = parser.parse_args(argv)
    rows = [bench(name, args.repeats, args.eval_rows) for name in args.datasets]
    print(f"Machine: {_machine()}  \nVersions: {_versions()}  \n"
          f"Medians of {args.repeats} runs; default parameters; 80/20 stratified split, seed 0.\n")
    print("| dataset | train/test rows | fit s (median / min) | test acc | train acc | rules "
          "| literals | predict s | eval rows | load s | query s | query rows/s "
          "| same program every run |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['dataset']} | {r['train']}/{r['test']} | {r['fit_s']:.2f} / "
              f"{r['fit_min_s']:.2f} | {r['accuracy']:.4f} | {r['train_accuracy']:.4f} | "
              f"{r['rules']} | {r['literals']} | {r['predict_s']:.3f} | {r['eval_rows']:,} | "
              f"{r['load_s']:.2f} | {r['query_s']:.3f} | {r['rows_per_s']:,.0f} | "
              f"{'yes' if r['deterministic'] else 'NO'} |")
    if args.show_rules:
        for r in rows:
            print(f"\n{r['dataset']}:\n```\n{r['program']}\n```")


if __name__ == "__main__":
    main()
