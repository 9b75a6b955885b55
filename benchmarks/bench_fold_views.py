"""FOLD's fit time on the end-to-end benchmark's own training views, against FOLD-R++.

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_fold_views [--datasets heart ecoli] [--rounds 20]
    .venv/bin/python -m benchmarks.bench_fold_views --base /tmp/base   # a checkout to compare

For each dataset and fold of ``python -m benchmarks run`` (the same splits, black box and
LIME, from ``--cache-dir`` when it holds them), FOLD is fitted on the view the pipeline
fits (by default the LIME-filtered rows stacked on the full rows) exactly as the pipeline
fits it (:func:`explain.learners.fit_learner`), and FOLD-R++ on the full rows with the
black box's labels, as the end-to-end benchmark fits it. The two alternate, ``--rounds``
times, in one process, so that a machine whose speed drifts slows both alike; a fold's
time is its fastest round (the least disturbed), and a dataset's the median over its
folds. ``--base DIR`` adds the ``fold`` package of another checkout (say ``git worktree
add DIR COMMIT``), fitted the same way in the same rounds, and says whether its programs
are the same. Needs the ``bench`` extra (FOLD-R++).
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from benchmarks.cli import CACHE_DIR_HELP, DATA_DIR_HELP, Unique, command_line, one_line_errors
from benchmarks.datasets import NAMES
from benchmarks.machine import header
from benchmarks.peers import make_peer
from benchmarks.runner import (LIME_CACHE_DIR, BenchConfig, _run_config, check_peers,
                               choose_positive, fold_splits, to_project_dataset)
from explain.cli import OneLineParser, number_arg

#: The datasets of issue 4's comparison with FOLD-R++, small ones first.
DEFAULT = ("iris", "wine", "ecoli", "breast-w", "heart", "pima", "ionosphere", "sonar",
           "breast_cancer", "credit-g")


def _load_package(directory: Path, name: str):
    """The ``fold`` package of another checkout, imported as ``name``."""
    init = directory / "fold" / "__init__.py"
    if not init.is_file():
        raise SystemExit(f"error: {directory} holds no fold/__init__.py; give a checkout "
                         "of this repository")
    spec = importlib.util.spec_from_file_location(name, init,
                                                  submodule_search_locations=[str(init.parent)])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _views(name: str, config: BenchConfig) -> list[dict]:
    """Each fold's FOLD training view and labels, and the full rows, as the run makes
    them."""
    from benchmarks.datasets import load
    from explain.pipeline import binarize_target, run_pipeline, training_labels

    dataset = to_project_dataset(load(name, config.data_dir))
    if name in config.positive:
        dataset = choose_positive(dataset, config.positive[name])
    dataset = binarize_target(dataset)
    run_config = replace(_run_config(config), learners=("fold",))
    folds = []
    for split in fold_splits(np.asarray(dataset.y), config.folds, config.random_state):
        result = run_pipeline(dataset, run_config, split=split, cache_dir=config.cache_dir)
        bb_train = np.asarray(result.labels["bb_train"])
        folds.append({"view": result.views["fold"]["train"],
                      "labels": training_labels(bb_train, run_config.train_view),
                      "distinct": len(bb_train), "raw": dataset.X.iloc[split[0]],
                      "bb_train": bb_train, "categorical": list(dataset.categorical),
                      "class_names": dataset.class_names})
    return folds


def _fit_ours(fold: dict, package=None) -> tuple[float, str]:
    """Seconds of one fit as the pipeline fits FOLD (with ``package``'s classifier when
    given), and the program."""
    from explain import learners

    real = learners.FOLDClassifier
    if package is not None:
        learners.FOLDClassifier = package.FOLDClassifier
    try:
        started = time.perf_counter()
        fitted = learners.fit_learner("fold", fold["view"], fold["labels"], {}, 0, None,
                                      fold["class_names"], distinct_rows=fold["distinct"])
        return time.perf_counter() - started, fitted.estimator.program_
    finally:
        learners.FOLDClassifier = real


def _fit_peer(fold: dict) -> float:
    peer = make_peer("foldrpp", 0)
    started = time.perf_counter()
    peer.fit(fold["raw"], fold["bb_train"], fold["categorical"])
    return time.perf_counter() - started


def bench(name: str, config: BenchConfig, rounds: int, base=None) -> dict:
    """Fastest-round fit seconds per fold, alternating; medians over the folds."""
    times = {"ours": [], "foldrpp": [], "base": []}
    same = True
    for fold in _views(name, config):
        runs = {"ours": [], "foldrpp": [], "base": []}
        for r in range(rounds):
            order = ["ours", "foldrpp"] + (["base"] if base is not None else [])
            for method in order if r % 2 == 0 else order[::-1]:
                if method == "foldrpp":
                    runs[method].append(_fit_peer(fold))
                    continue
                seconds, program = _fit_ours(fold, base if method == "base" else None)
                runs[method].append(seconds)
                if method == "ours":
                    ours_program = program
                else:
                    base_program = program
        if base is not None:
            same &= ours_program == base_program
        for method, seconds in runs.items():
            if seconds:
                times[method].append(min(seconds))
    out = {"dataset": name, "ours": statistics.median(times["ours"]),
           "foldrpp": statistics.median(times["foldrpp"]),
           "folds_faster": sum(a < b for a, b in zip(times["ours"], times["foldrpp"])),
           "folds": len(times["ours"])}
    if base is not None:
        out.update(base=statistics.median(times["base"]), same_programs=same)
    return out


@one_line_errors
def main(argv=None) -> int:
    parser = OneLineParser(prog="python -m benchmarks.bench_fold_views",
                           description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=list(DEFAULT), choices=NAMES,
                        action=Unique, metavar="NAME")
    parser.add_argument("--rounds", type=number_arg(int, 1), default=20)
    parser.add_argument("--seed", type=number_arg(int, 0, 2**32), default=0)
    parser.add_argument("--base", type=Path, help="a checkout whose fold package to compare")
    parser.add_argument("--data-dir", type=Path, default=None, help=DATA_DIR_HELP)
    parser.add_argument("--cache-dir", type=Path, default=LIME_CACHE_DIR, help=CACHE_DIR_HELP)
    args = parser.parse_args(argv)
    check_peers(("foldrpp",))  # before the LIME runs of every fold
    base = _load_package(args.base.resolve(), "_base_fold") if args.base else None
    config = BenchConfig(datasets=tuple(args.datasets), random_state=args.seed,
                         data_dir=args.data_dir, cache_dir=args.cache_dir)
    print(header(command_line("benchmarks.bench_fold_views", argv)))
    print(f"\nFit seconds: fastest of {args.rounds} alternating rounds per fold, median over "
          "the folds.\n")
    columns = ["dataset", "FOLD (ours) s", "FOLD-R++ s", "ours / FOLD-R++",
               "folds ours faster"]
    if base is not None:
        columns += ["base s", "ours / base", "same programs"]
    print("| " + " | ".join(columns) + " |")
    print("|---" * len(columns) + "|")
    for name in args.datasets:
        r = bench(name, config, args.rounds, base)
        cells = [name, f"{r['ours']:.4f}", f"{r['foldrpp']:.4f}",
                 f"{r['ours'] / r['foldrpp']:.2f}", f"{r['folds_faster']}/{r['folds']}"]
        if base is not None:
            cells += [f"{r['base']:.4f}", f"{r['ours'] / r['base']:.2f}",
                      "yes" if r["same_programs"] else "no"]
        print("| " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
