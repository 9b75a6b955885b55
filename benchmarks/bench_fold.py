"""Benchmark of the FOLD learner: fit time, accuracy, size, Prolog evaluation speed.

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_fold [--repeats 3] [--datasets breast_cancer adult]
    .venv/bin/python -m benchmarks.bench_fold --noisy-rows 3000 5000 20000
    .venv/bin/python -m benchmarks.bench_fold --lookahead-cost [--datasets ...]
    .venv/bin/python -m benchmarks.bench_fold --blas-threads [--busy] [--datasets ...]
    .venv/bin/python -m benchmarks.bench_fold --large-rows 50000 200000

Each dataset is split 80/20 (stratified, seed 0); the learner is fitted
``--repeats`` times and the medians are printed as markdown tables, with the
machine, its load average and the versions. Evaluation speed is measured on
the test rows replicated to about each of ``--eval-rows`` rows
(``evaluate_prolog``): "python" is the input checks and writing one fact per
row, "load" SWI-Prolog reading and asserting the program and the facts,
"query" the single query that labels every row; "end to end" is the whole
call, in wall time and in process CPU time (the CPU figure is steadier on a
shared machine). ``--lookahead-cost`` instead fits the defaults with and without the
two-literal lookahead (``lookahead=True`` / ``False``), alternating, on the same splits,
and prints the median fit times, their ratio, the test accuracies and whether the
programs are the same. ``--blas-threads`` fits the defaults the same way with learning
on one BLAS thread (:data:`fold.learner.BLAS_THREADS`, the default) and on the BLAS
library's own number of threads, alternating; with ``--busy`` a process spins on one
core meanwhile, as another job would. ``--large-rows`` fits the defaults, with and
without the lookahead, once each on generated tables of those sizes (:func:`large_table`).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

import fold.learner
from benchmarks.cli import Unique, command_line, one_line_errors
from benchmarks.datasets import NAMES, load
from benchmarks.machine import a_core_taken, header
from explain.cli import OneLineParser, number_arg
from fold import FOLDClassifier


def _load_average() -> str:
    return " / ".join(f"{x:.2f}" for x in os.getloadavg())


def bench(name: str, repeats: int, eval_rows: list) -> dict:
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
    evaluations = [_bench_evaluation(clf, X_test, rows, repeats) for rows in eval_rows]
    return {
        "dataset": name, "train": len(X_train), "test": len(X_test),
        "fit_s": statistics.median(fits), "fit_min_s": min(fits),
        "accuracy": float((predicted == y_test).mean()),
        "train_accuracy": float((clf.predict_python(X_train) == y_train).mean()),
        "rules": clf.rules_.n_rules, "literals": clf.rules_.n_literals,
        "predict_s": statistics.median(predicts), "evaluations": evaluations,
        "deterministic": len(programs) == 1, "program": clf.rules_,
    }


def _bench_evaluation(clf: FOLDClassifier, X_test: pd.DataFrame, rows: int,
                      repeats: int) -> dict:
    big = pd.concat([X_test] * max(1, rows // len(X_test)), ignore_index=True)
    runs = []
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        result = clf.evaluate_prolog(big)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        runs.append({"encode_s": wall - result.seconds, "load_s": result.load_seconds,
                     "query_s": result.query_seconds, "total_s": wall, "cpu_s": cpu})
    assert (result.decisions == clf.rules_.decide(clf._view(big))).all(), "disagreement"
    median = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
    return {"rows": len(big), **median}


def _evaluation_table(rows: list) -> None:
    print("\n| dataset | eval rows | python s | load s | query s | end to end s "
          "| query rows/s | end to end rows/s (wall) | end to end rows/s (CPU) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        for e in r["evaluations"]:
            n = e["rows"]
            print(f"| {r['dataset']} | {n:,} | {e['encode_s']:.2f} | {e['load_s']:.2f} | "
                  f"{e['query_s']:.3f} | {e['total_s']:.2f} | {n / e['query_s']:,.0f} | "
                  f"{n / e['total_s']:,.0f} | {n / e['cpu_s']:,.0f} |")


def noisy_table(n_rows: int, seed: int = 0) -> tuple:
    """Six normal features; the class is ``a > 0`` with 20 % of the labels flipped."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n_rows, 6)), columns=list("abcdef"))
    y = ((X["a"] > 0).to_numpy() ^ (rng.random(n_rows) < 0.2)).astype(int)
    return X, y


def noisy_scaling(sizes: list) -> None:
    """Fit time of plain FOLD (``mdl_weight=None, min_support=1``) and of the defaults on
    generated noisy tables: plain FOLD learns a rule or exception per flipped label."""
    print("| rows | plain FOLD s | plain FOLD clauses | defaults s | defaults clauses |")
    print("|---|---|---|---|---|")
    for n in sizes:
        X, y = noisy_table(n)
        cells = []
        for params in ({"mdl_weight": None, "min_support": 1}, {}):
            started = time.perf_counter()
            model = FOLDClassifier(**params).fit(X, y)
            cells += [f"{time.perf_counter() - started:.2f}", str(model.rules_.n_rules)]
        print(f"| {n:,} | " + " | ".join(cells) + " |")


def large_table(n_rows: int, seed: int = 0) -> tuple:
    """Ten normal features and three categorical ones (six values each); the class is
    ``(f0 > 0) xor (f1 > 0)`` with 10 % of the labels flipped. Every numeric value is
    distinct, so each column has as many thresholds as rows."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n_rows, 10)), columns=[f"f{i}" for i in range(10)])
    for j in range(3):
        X[f"c{j}"] = rng.choice(np.array([f"v{k}" for k in range(6)], dtype=object), n_rows)
    y = (((X["f0"] > 0) ^ (X["f1"] > 0)).to_numpy() ^ (rng.random(n_rows) < 0.1)).astype(int)
    return X, y


def large_scaling(sizes: list) -> None:
    """Fit time, size and test accuracy (on as many fresh rows, noisy labels: 0.9 is the
    best possible) of the defaults, with and without the lookahead, on :func:`large_table`."""
    print("| rows | fit s | literals | test acc | fit s, no lookahead | literals | test acc |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for n in sizes:
        X, y = large_table(2 * n)
        cells = []
        for lookahead in (True, False):
            started = time.perf_counter()
            model = FOLDClassifier(lookahead=lookahead).fit(X[:n], y[:n])
            seconds = time.perf_counter() - started
            accuracy = float((model.predict_python(X[n:]) == y[n:]).mean())
            cells += [f"{seconds:.2f}", str(model.rule_size_), f"{accuracy:.3f}"]
        print(f"| {n:,} | " + " | ".join(cells) + " |", flush=True)


def lookahead_cost(names: list, repeats: int) -> None:
    """Fit time and program of the defaults with and without the lookahead, per dataset."""
    print("| dataset | fit s, lookahead | fit s, without | ratio | test acc, lookahead "
          "| test acc, without | literals | same program |")
    print("|---|---:|---:|---:|---:|---:|---|---|")
    for name in names:
        data = load(name)
        X_train, X_test, y_train, y_test = train_test_split(
            data.X, data.y, test_size=0.2, random_state=0, stratify=data.y)
        seconds = {True: [], False: []}
        models = {k: FOLDClassifier(lookahead=k).fit(X_train, y_train)  # warm-up
                  for k in (True, False)}
        for _ in range(repeats):
            for lookahead in (True, False):
                started = time.perf_counter()
                models[lookahead] = FOLDClassifier(lookahead=lookahead).fit(X_train, y_train)
                seconds[lookahead].append(time.perf_counter() - started)
        on, off = (statistics.median(seconds[k]) for k in (True, False))
        accuracy = {k: float((m.predict_python(X_test) == y_test).mean())
                    for k, m in models.items()}
        print(f"| {name} | {on:.3f} | {off:.3f} | {on / off:.2f} | {accuracy[True]:.3f} | "
              f"{accuracy[False]:.3f} | {models[True].rule_size_} / "
              f"{models[False].rule_size_} | "
              f"{'yes' if models[True].program_ == models[False].program_ else 'no'} |",
              flush=True)


def blas_threads_cost(names: list, repeats: int, busy: bool) -> None:
    """Fit time of the defaults learning on one BLAS thread and on BLAS's own, per
    dataset, alternating; with ``busy``, while another process holds a core."""
    print("| dataset | fit s, one BLAS thread | fit s, BLAS's own | ratio | same program |")
    print("|---|---:|---:|---:|---|")
    given = fold.learner.BLAS_THREADS
    try:
        with a_core_taken(busy):
            for name in names:
                data = load(name)
                X_train, _, y_train, _ = train_test_split(
                    data.X, data.y, test_size=0.2, random_state=0, stratify=data.y)
                seconds, programs = {1: [], None: []}, {1: set(), None: set()}
                FOLDClassifier().fit(X_train, y_train)  # warm-up
                for round_ in range(repeats):
                    for threads in ((1, None) if round_ % 2 == 0 else (None, 1)):
                        fold.learner.BLAS_THREADS = threads
                        started = time.perf_counter()
                        model = FOLDClassifier().fit(X_train, y_train)
                        seconds[threads].append(time.perf_counter() - started)
                        programs[threads].add(model.program_)
                one, own = (statistics.median(seconds[k]) for k in (1, None))
                same = len(programs[1] | programs[None]) == 1
                print(f"| {name} | {one:.4f} | {own:.4f} | {one / own:.2f} | "
                      f"{'yes' if same else 'no'} |", flush=True)
    finally:
        fold.learner.BLAS_THREADS = given

def build_parser() -> argparse.ArgumentParser:
    """The options; the modes other than the default exclude one another."""
    parser = OneLineParser(prog="python -m benchmarks.bench_fold",
                           description=__doc__.splitlines()[0])
    count = number_arg(int, 1)
    parser.add_argument("--repeats", type=count, default=3)
    parser.add_argument("--datasets", nargs="+", choices=NAMES, action=Unique, metavar="NAME",
                        default=["breast_cancer", "adult"])
    parser.add_argument("--eval-rows", type=count, nargs="+", default=[1_000_000])
    parser.add_argument("--show-rules", action="store_true")
    parser.add_argument("--busy", action="store_true",
                        help="with --blas-threads: a process spins on one core meanwhile")
    modes = parser.add_mutually_exclusive_group()
    modes.add_argument("--noisy-rows", type=count, nargs="+", metavar="N",
                       help="instead: plain FOLD vs the defaults on generated noisy tables "
                            "of these sizes (one fit each)")
    modes.add_argument("--lookahead-cost", action="store_true",
                       help="instead: the defaults with and without the lookahead")
    modes.add_argument("--blas-threads", action="store_true",
                       help="instead: the defaults learning on one BLAS thread and on "
                            "BLAS's own number of threads")
    modes.add_argument("--large-rows", type=count, nargs="+", metavar="N",
                       help="instead: the defaults with and without the lookahead on "
                            "generated tables of N training rows (one fit each)")
    return parser


@one_line_errors
def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.busy and not args.blas_threads:
        parser.error("--busy goes with --blas-threads")
    print(header(command_line("benchmarks.bench_fold", argv)))
    if args.large_rows:
        large_scaling(args.large_rows)
        return 0
    if args.lookahead_cost:
        print(f"Medians of {args.repeats} runs each, alternating; default parameters; "
              "80/20 stratified split, seed 0; Python evaluation.\n")
        lookahead_cost(args.datasets, args.repeats)
        return 0
    if args.blas_threads:
        print(f"Medians of {args.repeats} runs each, alternating; default parameters; "
              "80/20 stratified split, seed 0"
              + ("; one core held by a spinning process" if args.busy else "") + ".\n")
        blas_threads_cost(args.datasets, args.repeats, args.busy)
        return 0
    if args.noisy_rows:
        noisy_scaling(args.noisy_rows)
        return 0
    load_before = _load_average()
    rows = [bench(name, args.repeats, args.eval_rows) for name in args.datasets]
    print(f"Load average (1 / 5 / 15 min): {load_before} before, {_load_average()} after  \n"
          f"Medians of {args.repeats} runs; default parameters; 80/20 stratified split, seed 0.\n")
    print("| dataset | train/test rows | fit s (median / min) | test acc | train acc | rules "
          "| literals | predict s | same program every run |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['dataset']} | {r['train']}/{r['test']} | {r['fit_s']:.2f} / "
              f"{r['fit_min_s']:.2f} | {r['accuracy']:.4f} | {r['train_accuracy']:.4f} | "
              f"{r['rules']} | {r['literals']} | {r['predict_s']:.3f} | "
              f"{'yes' if r['deterministic'] else 'NO'} |")
    _evaluation_table(rows)
    if args.show_rules:
        for r in rows:
            print(f"\n{r['dataset']}:\n```\n{r['program']}\n```")
    return 0


if __name__ == "__main__":
    sys.exit(main())
