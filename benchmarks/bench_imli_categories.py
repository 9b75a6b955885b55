"""``IMLIClassifier.fit`` on a column of many categories: the polish is most of it.

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_imli_categories [--repeats 3] [--rows 5000]
        [--categories 1000]

A generated table of one text column of ``--categories`` values (half of them "good")
and one standard normal column ``x``, labelled ``good(cat) AND x > -0.5`` with 5 % of the
labels flipped; ``IMLIClassifier()`` (CNF, 2 clauses, polished, no time limit) is fitted
``--repeats`` times. The median wall time of ``fit`` is printed with the rule's size and
a hash of its text. To time another version of ``imli`` on the same machine, as
``benchmarks.bench_imli_wide`` says.
"""

from __future__ import annotations

import hashlib
import sys
import warnings

import numpy as np
import pandas as pd

from benchmarks.cli import command_line, one_line_errors
from benchmarks.machine import header
from benchmarks.timing import median_and_runs, wall_times
from explain.cli import OneLineParser, number_arg
from imli import IMLIClassifier


def generated(rows: int, categories: int, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    """The table and its labels."""
    rng = np.random.default_rng(seed)
    cat = rng.integers(0, categories, rows)
    x = rng.normal(size=rows)
    good = rng.random(categories) < 0.5
    y = (good[cat] & (x > -0.5)) ^ (rng.random(rows) < 0.05)
    return pd.DataFrame({"cat": pd.Categorical([f"v{i}" for i in cat]), "x": x}), y


@one_line_errors
def main(argv=None) -> int:
    parser = OneLineParser(prog="python -m benchmarks.bench_imli_categories",
                           description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=number_arg(int, 1), default=3)
    parser.add_argument("--rows", type=number_arg(int, 1), default=5000)
    parser.add_argument("--categories", type=number_arg(int, 1), default=1000)
    args = parser.parse_args(argv)
    print(header(command_line("benchmarks.bench_imli_categories", argv)))
    X, y = generated(args.rows, args.categories)

    def fit(_):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the many-categories warning
            return IMLIClassifier().fit(X, y)

    seconds, model = wall_times(fit, args.repeats)
    median, runs = median_and_runs(seconds)
    digest = hashlib.md5(str(model.rules_).encode()).hexdigest()[:8]
    print(f"fit {args.rows} rows x {args.categories} categories: median {median} s ({runs}); "
          f"{model.rule_size_} literals, rule hash {digest}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
