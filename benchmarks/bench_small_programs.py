"""How faithful the smallest programs can be: an exhaustive search of one- and two-literal
programs on the benchmark's folds.

Run from the repository root (the datasets fetched by ``python -m benchmarks fetch``)::

    .venv/bin/python -m benchmarks.bench_small_programs [--datasets wine iris] [--seed 0]

A target such as "FOLD as faithful as FOLD-R++ with fewer literals" asks, where FOLD-R++
writes a program of two or three literals, whether one of fewer exists that is as faithful
on held-out rows. For each fold of ``python -m benchmarks run`` (the same stratified split
and the same XGBoost black box, trained with the same seed; no LIME) every program of at
most two literals is scored on the fold's training rows against the black box's labels:
one literal ``A``, ``A and B``, ``A or B``, with ``A`` and ``B`` any test FOLD can write
(``<=`` / ``>`` at each midpoint between two training values of a numeric column, ``==`` /
``!=`` on each category; a missing value satisfies none) and, when the training rows have
missing values, its negation (an exception: ``not A`` holds on a missing value). The
program with the fewest training errors (fewer literals on a tie) is then counted on the
held-out rows: the errors a learner that prefers it would make. Prints, per fold and in
total, its training and held-out errors for at most one and at most two literals, and the
program.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from benchmarks.cli import DATA_DIR_HELP, Unique, command_line, one_line_errors
from benchmarks.datasets import NAMES, load
from benchmarks.machine import header
from benchmarks.runner import fold_splits, to_project_dataset
from explain.cli import OneLineParser, number_arg

__all__ = ["literal_masks", "best_programs", "MAX_TESTS"]

#: Tests whose pairs are scored at the most (three matrices of MAX_TESTS² float64 each).
MAX_TESTS = 4000


def literal_masks(frame, train_rows: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """Every test FOLD can write on ``frame``'s columns, as a boolean matrix (test × row)
    over all rows, with the tests' texts; thresholds and categories come from
    ``train_rows``. With missing values among the training rows, each test's negation is
    added (it holds on a missing value)."""
    masks, names = [], []
    for column in frame.columns:
        values = frame[column].to_numpy()
        seen = values[train_rows]
        if values.dtype.kind == "f":
            known = np.unique(seen[~np.isnan(seen)])
            for t in (known[:-1] + known[1:]) / 2:
                masks += [values <= t, values > t]
                names += [f"{column} <= {t:g}", f"{column} > {t:g}"]
        else:
            present = frame[column].notna().to_numpy()
            for category in sorted({v for v in seen if isinstance(v, str)}):
                masks += [values == category, present & (values != category)]
                names += [f"{column} == {category}", f"{column} != {category}"]
    masks = np.array(masks, dtype=bool).reshape(len(names), len(frame))
    if frame.iloc[train_rows].isna().to_numpy().any():
        masks = np.concatenate([masks, ~masks])
        names = names + [f"not ({n})" for n in names]
    return masks, names


def best_programs(masks: np.ndarray, names: list[str], labels: np.ndarray,
                  train_rows: np.ndarray, test_rows: np.ndarray) -> dict:
    """The programs of at most one and at most two literals with the fewest errors on
    ``train_rows`` (fewer literals first on a tie, then the first found), each as
    ``(training errors, held-out errors, text)``."""
    y = labels.astype(np.int64)
    errors = {}
    for part, rows in (("train", train_rows), ("test", test_rows)):
        A, t = masks[:, rows].astype(np.float64), y[rows].astype(np.float64)
        pos, neg = A @ t, A @ (1 - t)
        both_pos, both_neg = (A * t) @ A.T, (A * (1 - t)) @ A.T
        P, N = t.sum(), len(t) - t.sum()
        errors[part] = {
            "constant": np.array([min(P, N)]),
            "one": (P - pos) + neg,
            "and": (P - both_pos) + both_neg,
            "or": ((P - pos[:, None] - pos[None, :] + both_pos)
                   + (neg[:, None] + neg[None, :] - both_neg)),
        }
    train, test = errors["train"], errors["test"]

    def pick(kinds):
        best = None
        for kind in kinds:
            flat = int(np.argmin(train[kind]))
            found = (int(round(train[kind].ravel()[flat])), kind, flat)
            if best is None or found[0] < best[0]:
                best = found
        count, kind, flat = best
        held_out = int(round(test[kind].ravel()[flat]))
        if kind == "constant":
            text = "a constant"
        elif kind == "one":
            text = names[flat]
        else:
            i, j = divmod(flat, len(names))
            text = f"{names[i]} {kind} {names[j]}"
        return count, held_out, text

    return {"one": pick(("constant", "one")), "two": pick(("constant", "one", "and", "or"))}


@one_line_errors
def main(argv=None) -> int:
    parser = OneLineParser(prog="python -m benchmarks.bench_small_programs",
                           description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", nargs="+", choices=NAMES, action=Unique, metavar="NAME",
                        default=["wine", "iris"])
    parser.add_argument("--seed", type=number_arg(int, 0, 2**32), default=0)
    parser.add_argument("--folds", type=number_arg(int, 2), default=5)
    parser.add_argument("--data-dir", type=Path, default=None, help=DATA_DIR_HELP)
    args = parser.parse_args(argv)

    from explain.pipeline import RunConfig, binarize_target, run_pipeline

    print(header(command_line("benchmarks.bench_small_programs", argv)))
    for name in args.datasets:
        dataset = binarize_target(to_project_dataset(load(name, args.data_dir)))
        totals, counted = np.zeros(4, dtype=int), 0
        print(f"\n{name} ({dataset.class_names[1]} vs the rest): training / held-out errors "
              "of the best program on the training rows")
        for k, (train, test) in enumerate(fold_splits(dataset.y, args.folds, args.seed)):
            masks, names = literal_masks(dataset.X, train)
            if len(names) > MAX_TESTS:
                print(f"  skipped: {len(names)} tests, more than the {MAX_TESTS} whose pairs "
                      "this search scores")
                break
            run = run_pipeline(dataset, RunConfig(random_state=args.seed, train_view="raw",
                                                  learners=("fold",)), split=(train, test))
            labels = np.empty(len(dataset.y), dtype=int)
            labels[train], labels[test] = run.labels["bb_train"], run.labels["bb_test"]
            best = best_programs(masks, names, labels, train, test)
            totals += [*best["one"][:2], *best["two"][:2]]
            counted += 1
            print(f"  fold {k + 1}: <= 1 literal {best['one'][0]} / {best['one'][1]} "
                  f"({best['one'][2]}); <= 2 literals {best['two'][0]} / {best['two'][1]} "
                  f"({best['two'][2]})")
        if counted == args.folds:
            print(f"  all folds: <= 1 literal {totals[0]} / {totals[1]}; "
                  f"<= 2 literals {totals[2]} / {totals[3]}")
        else:
            print(f"  no totals: {counted} of {args.folds} folds searched")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
