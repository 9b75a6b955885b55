"""Benchmark: FOLD's training rows augmented with synthetic rows the black box labels.

Run from the repository root::

    PYTHONHASHSEED=0 .venv/bin/python -m benchmarks.bench_fold_augment --seed 0 --out DIR

A global surrogate may ask the black box about any row, not only the training rows
(TREPAN, Craven & Shavlik 1996, draws such rows to learn its tree's deeper splits). On the
end-to-end suite's folds (``python -m benchmarks run --no-ablation``, the same splits,
black box, LIME cache and peers), FOLD is fitted again on its default view (the
LIME-filtered training rows stacked on the full ones) plus synthetic full rows labelled
by the black box; the held-out rows never take part. Synthetic rows, ``B`` per training
row, drawn from the training rows (:func:`synthetic_rows`):

- ``swap``: a training row with a random subset of its features (of a size drawn
  uniformly from 1 to all) replaced, each by the value of another training row drawn at
  random: near the data, some of its features' dependence kept;
- ``marginal``: every feature from its own random training row, as LIME perturbs (LIME
  draws a bin, then a value in it; here the rows' own values), the features independent;
- ``swap_one``: a training row with exactly one feature replaced by another random
  training row's value: one step off the data;
- ``interpolate``: a point on the segment between a training row and one of its
  ``NEIGHBOURS`` nearest training rows (SMOTE, Chawla et al. 2002, without the classes):
  on the data's manifold where its rows are dense (:func:`nearest_rows`).

FOLD's ``min_support`` and ``mdl_weight`` count rows explained
(``explain.learners.fit_learner``'s ``distinct_rows``). With ``--count all`` a synthetic
row is one more of them, so that the program's bits weigh less against each error the
more rows are drawn; with ``--count training`` only the training rows are, and the
synthetic rows weigh the bits up as the stacked view's copies do (a program's bits per
row, and so its size, stay those of the default view).

Prints, per dataset, the held-out rows disagreeing with the black box (pooled over the
folds) and the median literals of FOLD-R++, the default FOLD and each variant, whether
FOLD vs FOLD-R++ is met (the issue's rule, :func:`benchmarks.tables.verdicts`), the totals
over the datasets, and the targets each variant meets and loses against the default. One
JSON per dataset goes to ``--out``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

from benchmarks.cli import CACHE_DIR_HELP, DATA_DIR_HELP, Unique, command_line, one_line_errors
from benchmarks.datasets import NAMES, load
from benchmarks.machine import header
from benchmarks.runner import (LIME_CACHE_DIR, RESULTS_DIR, BenchConfig, check_peers,
                               disagreeing, run_dataset, save)
from benchmarks.tables import verdicts
from explain.cli import OneLineParser, number_arg
from explain.learners import fit_learner
from explain.pipeline import learner_report, training_labels, view_predictions
from fold.table import column_kind

#: Issue 4's ten small datasets.
DEFAULT = ("breast_cancer", "heart", "ionosphere", "sonar", "pima", "breast-w", "credit-g",
           "wine", "iris", "ecoli")
SAMPLERS = ("swap", "marginal", "swap_one", "interpolate")
#: The training rows among which ``interpolate`` draws a row's partner.
NEIGHBOURS = 5
COUNTS = ("all", "training")


def synthetic_rows(X: pd.DataFrame, n_rows: int, rng: np.random.Generator,
                   sampler: str = "swap") -> pd.DataFrame:
    """``n_rows`` rows made of ``X``'s cells, or, interpolated, between two rows of ``X``.

    Parameters
    ----------
    X : DataFrame
        The training rows (numeric and categorical columns; NaN cells are drawn as any).
    n_rows : int
    rng : numpy.random.Generator
    sampler : {"swap", "marginal", "swap_one", "interpolate"}
        ``swap``: a random row of ``X`` with a random subset of its columns (of a size drawn
        uniformly from 1 to all) taken from other random rows, one per cell; ``marginal``:
        every cell from its own random row; ``swap_one``: a random row with one random
        column taken from another random row; ``interpolate``: a random row ``x`` and
        one ``z`` of its :data:`NEIGHBOURS` nearest rows (:func:`nearest_rows`), each
        numeric cell ``x + u (z - x)`` with one ``u`` uniform in [0, 1) per row (rounded
        in an integer column), each categorical cell, and each numeric one that ``x`` or
        ``z`` lacks, that of ``x`` or ``z`` at random.

    Returns
    -------
    DataFrame
        ``X``'s columns and dtypes, index ``0 .. n_rows - 1``.

    Examples
    --------
    >>> X = pd.DataFrame({"a": [0.0, 1.0, 2.0], "b": ["x", "y", "z"]})
    >>> rows = synthetic_rows(X, 4, np.random.default_rng(0))
    >>> rows.shape, set(rows["a"]) <= {0.0, 1.0, 2.0}, set(rows["b"]) <= {"x", "y", "z"}
    ((4, 2), True, True)
    """
    if sampler not in SAMPLERS:
        raise ValueError(f"unknown sampler {sampler!r}; choose from {SAMPLERS}")
    n, d = X.shape
    if sampler == "interpolate":
        return _interpolated(X, n_rows, rng)
    donors = rng.integers(n, size=(n_rows, d))
    if sampler in ("swap", "swap_one"):
        base = rng.integers(n, size=n_rows)
        if sampler == "swap":
            sizes = rng.integers(1, d + 1, size=n_rows)
            # a random subset of each size: the columns whose random key ranks below it
            ranks = rng.random((n_rows, d)).argsort(axis=1).argsort(axis=1)
            replaced = ranks < sizes[:, None]
        else:
            replaced = np.arange(d) == rng.integers(d, size=n_rows)[:, None]
        donors = np.where(replaced, donors, base[:, None])
    return _cells(X, donors)


def _cells(X: pd.DataFrame, rows: np.ndarray) -> pd.DataFrame:
    """The table whose cell (i, j) is ``X``'s cell (``rows[i, j]``, j)."""
    return pd.DataFrame({c: X[c].iloc[rows[:, j]].to_numpy() for j, c in enumerate(X.columns)}
                        ).astype(X.dtypes.to_dict())


def _interpolated(X: pd.DataFrame, n_rows: int, rng: np.random.Generator) -> pd.DataFrame:
    n, d = X.shape
    base = rng.integers(n, size=n_rows)
    nearest = nearest_rows(X, NEIGHBOURS)
    partner = nearest[base, rng.integers(nearest.shape[1], size=n_rows)]
    # cells from the row or its partner, then the numeric ones both hold moved between them
    rows = np.where(rng.random((n_rows, d)) < 0.5, partner[:, None], base[:, None])
    out = _cells(X, rows)
    u = rng.random(n_rows)
    for column in X.columns:
        if column_kind(X[column]) == "numeric":
            values = X[column].to_numpy(np.float64, na_value=np.nan)
            x, z = values[base], values[partner]
            between = x + u * (z - x)
            if pd.api.types.is_integer_dtype(X[column].dtype):
                between = np.rint(between)
            both = ~(np.isnan(x) | np.isnan(z))
            # pd.array: numpy's astype knows no nullable dtype (Int64, Float64)
            out.loc[both, column] = pd.array(between[both]).astype(X[column].dtype)
    return out


def nearest_rows(X: pd.DataFrame, k: int) -> np.ndarray:
    """Each row's ``k`` nearest other rows of ``X``, nearest first.

    The distance is Euclidean over the numeric columns scaled to unit standard deviation
    (a NaN cell counts as its column's mean), each categorical column adding 1 to the
    squared distance where two rows' values differ; ties go to the lower row number.

    Parameters
    ----------
    X : DataFrame
    k : int
        At most ``len(X) - 1`` are returned; a table of one row is its own neighbour.

    Returns
    -------
    ndarray of int, shape (len(X), min(k, len(X) - 1)) or (1, 1)

    Examples
    --------
    >>> X = pd.DataFrame({"a": [0.0, 1.0, 5.0, 6.0], "b": ["x", "x", "x", "y"]})
    >>> nearest_rows(X, 2).tolist()
    [[1, 2], [0, 2], [3, 1], [2, 1]]
    """
    n = len(X)
    if n < 2:
        return np.zeros((n, 1), dtype=np.int64)
    numeric = [c for c in X.columns if column_kind(X[c]) == "numeric"]
    values = X[numeric].to_numpy(np.float64, na_value=np.nan)  # Int64's <NA> too
    known = ~np.isnan(values)
    counts = np.maximum(known.sum(axis=0), 1)
    centred = np.where(known, values - np.where(known, values, 0.0).sum(axis=0) / counts, 0.0)
    scale = np.sqrt((centred ** 2).sum(axis=0) / counts)
    scaled = centred / np.where(scale > 0, scale, 1.0)
    codes = np.stack([pd.factorize(X[c])[0] for c in X.columns if c not in numeric] or
                     [np.zeros(n, dtype=np.int64)], axis=1)
    # the differences are taken cell by cell (not as |a|^2 + |b|^2 - 2ab), so that equal
    # distances are equal and the ties break by row number; a chunk holds ~4M of them
    step = max(1, 2 ** 22 // (n * max(scaled.shape[1], codes.shape[1])))
    nearest = []
    for start in range(0, n, step):
        rows = np.arange(start, min(start + step, n))
        distance = ((scaled[rows, None, :] - scaled[None, :, :]) ** 2).sum(axis=2)
        distance += (codes[rows, None, :] != codes[None, :, :]).sum(axis=2)
        distance[np.arange(len(rows)), rows] = np.inf
        nearest.append(np.argsort(distance, axis=1, kind="stable")[:, :min(k, n - 1)])
    return np.concatenate(nearest)


def variant_name(sampler: str, budget: int) -> str:
    """The method name of a variant in the results: ``fold_swap1``."""
    return f"fold_{sampler}{budget}"


def augmented(result, split, fold: int, variants, seed: int, count: str = "all") -> dict:
    """Each variant's FOLD fitted on the run's default view plus its synthetic rows,
    scored on the fold's held-out rows as the pipeline scores its learners.

    Parameters
    ----------
    result : explain.pipeline.PipelineResult
        The fold's run (its training rows, black box, views and labels).
    split : (train_idx, test_idx)
        The fold's rows in the dataset.
    fold : int
        The fold's number, which seeds its synthetic rows with ``seed``.
    variants : sequence of (sampler, budget)
    seed : int
    count : {"all", "training"}
        Which rows FOLD counts as the rows explained: the training and synthetic rows, or
        the training rows only.

    Returns
    -------
    dict
        :func:`variant_name` -> the learner report, with ``disagree_rows`` and
        ``synthetic_positive_rate`` (the black box's share of positive synthetic rows).
    """
    views, labels = result.views["fold"], result.labels
    X_train = views["train_raw"]
    bb_train, bb_test = labels["bb_train"], labels["bb_test"]
    params = result.report["parameters"]
    learn = training_labels(bb_train, params["train_view"])
    class_names = tuple(result.report["dataset"]["class_names"])
    out = {}
    for number, (sampler, budget) in enumerate(variants):
        rng = np.random.default_rng([seed, fold, number])
        synthetic = synthetic_rows(X_train, budget * len(X_train), rng, sampler)
        synthetic_labels = np.asarray(result.black_box.predict(synthetic), dtype=np.int64)
        explained = len(bb_train) + (len(synthetic) if count == "all" else 0)
        learner = fit_learner(
            "fold", pd.concat([views["train"], synthetic], ignore_index=True),
            np.concatenate([learn, synthetic_labels]), params["fold_params"], seed,
            result.columns, class_names, distinct_rows=explained)
        predicted = view_predictions(learner, views)
        entry = learner_report(learner, predicted, bb_train, bb_test, labels["y_test"])
        entry["disagree_rows"] = disagreeing(predicted["test"], bb_test, split[1])
        entry["synthetic_positive_rate"] = float(synthetic_labels.mean())
        out[variant_name(sampler, budget)] = entry
    return out


def report(results: list[dict], variants) -> str:
    """The results as markdown: one table of rows and literals, then the targets met."""
    names = ["fold"] + [variant_name(*v) for v in variants]
    columns = ["dataset", "FOLD-R++", "FOLD (default)"] + [f"{s} ×{b}" for s, b in variants]
    lines = ["Held-out rows disagreeing with the black box (pooled over the folds), median "
             "literals; * marks FOLD vs FOLD-R++ met.", "",
             "| " + " | ".join(columns) + " |", "|---" * len(columns) + "|"]
    totals = {n: 0 for n in ["foldrpp"] + names}
    met = {n: [] for n in names}
    for result in results:
        methods = result["summary"]["methods"]
        cells = [result["dataset"]["name"], _cell(methods["foldrpp"], False)]
        totals["foldrpp"] += len(methods["foldrpp"]["disagree_rows"])
        for name in names:
            checks = verdicts({**methods, "fold": methods[name]})
            fold_vs_peer = next(v for v in checks if v.target == "FOLD vs FOLD-R++")
            cells.append(_cell(methods[name], fold_vs_peer.met))
            totals[name] += len(methods[name]["disagree_rows"])
            met[name] += [(result["dataset"]["name"], v.target) for v in checks if v.met]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("| total | " + " | ".join(str(totals[n]) for n in ["foldrpp"] + names) + " |")
    lines += ["", "Targets met (of 3 per dataset) and, against the default FOLD, lost / "
              "gained:", ""]
    for name in names:
        lost = sorted(set(met["fold"]) - set(met[name]))
        gained = sorted(set(met[name]) - set(met["fold"]))
        lines.append(f"- {name}: {len(met[name])} met; lost {_targets(lost)}; "
                     f"gained {_targets(gained)}")
    return "\n".join(lines)


def _cell(summary: dict, met: bool) -> str:
    rows = len(summary["disagree_rows"])
    return f"{rows} / {summary['rule_size']:g}" + (" *" if met else "")


def _targets(pairs) -> str:
    return ", ".join(f"{d} {t}" for d, t in pairs) or "none"


def build_parser() -> OneLineParser:
    parser = OneLineParser(prog="python -m benchmarks.bench_fold_augment",
                           description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=list(DEFAULT), choices=NAMES,
                        action=Unique, metavar="NAME")
    parser.add_argument("--seed", type=number_arg(int, 0, 2**32), default=0)
    parser.add_argument("--budgets", nargs="+", type=number_arg(int, 1, 100), default=[1, 3],
                        help="synthetic rows per training row, one variant each (default 1 3)")
    parser.add_argument("--samplers", nargs="+", choices=SAMPLERS, default=list(SAMPLERS),
                        action=Unique)
    parser.add_argument("--count", choices=COUNTS, default="all",
                        help="rows FOLD's support and description length count: training "
                             "and synthetic (all, the default) or training only")
    parser.add_argument("--lime-jobs", type=number_arg(int, nonzero=True), default=-1,
                        help="LIME worker processes (default -1: all cores; 1: in process)")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR / "fold-augment",
                        help="results folder (default: benchmarks/results/fold-augment)")
    parser.add_argument("--data-dir", type=Path, default=None, help=DATA_DIR_HELP)
    parser.add_argument("--cache-dir", type=Path, default=LIME_CACHE_DIR, help=CACHE_DIR_HELP)
    return parser


@one_line_errors
def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    variants = [(s, b) for s in args.samplers for b in dict.fromkeys(args.budgets)]
    config = BenchConfig(datasets=tuple(args.datasets), random_state=args.seed,
                         lime_jobs=args.lime_jobs, ablation=False, out_dir=args.out,
                         cache_dir=args.cache_dir, data_dir=args.data_dir)
    check_peers(config.peers)
    print(header(command_line("benchmarks.bench_fold_augment", argv)), flush=True)

    def extend(result, split, fold):
        return augmented(result, split, fold, variants, args.seed, args.count)

    results = []
    for name in args.datasets:
        result = run_dataset(name, config, bench=load(name, args.data_dir), extend=extend)
        result["config"] = {**config.to_dict(), "variants": variants, "count": args.count}
        save(result, args.out)
        results.append(result)
    print("\n" + report(results, variants))
    return 0


if __name__ == "__main__":
    sys.exit(main())
