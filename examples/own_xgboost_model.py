"""Explain your own saved XGBoost model on a CSV file.

    python examples/own_xgboost_model.py [--workdir DIR] [--out DIR] [--cli] [--rows N]
                                         [--num-samples N] [--time-limit S] [--n-jobs J]

Stands in for a user who already has a model: it first writes a small loan table
(``loans.csv``, with numeric, categorical and missing values) and trains and saves an
XGBoost classifier (``model.ubj``) on *other* rows of the same kind, both in ``--workdir``
(a temporary directory by default). Then it explains the saved model on the CSV:

* by default through the Python API: ``load_dataset`` → ``TableEncoder`` →
  ``adapters.load_xgboost`` → ``run_pipeline`` → ``write_run``;
* with ``--cli``, through the command line, exactly as a user would type it::

      python -m explain run --data loans.csv --target default --positive yes \\
          --model model.ubj --out DIR

``--rows`` sets the rows of ``loans.csv`` (default 600). EXAMPLE_NUM_SAMPLES,
EXAMPLE_TIME_LIMIT and EXAMPLE_N_JOBS set the defaults of the matching options.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import xgboost as xgb

from adapters import TableEncoder, load_dataset, load_xgboost
from explain.cli import main as explain_cli
from explain.lime_runner import LimeConfig
from explain.outputs import prepare_out_dir, write_run
from explain.pipeline import RunConfig, run_pipeline

EMPLOYMENT = ["salaried", "self-employed", "unemployed", "retired"]


def loans(n: int, seed: int) -> pd.DataFrame:
    """A synthetic loan table: does the applicant default?"""
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({
        "age": rng.integers(19, 75, n).astype(float),
        "income": np.round(rng.lognormal(10.4, 0.45, n), -2),
        "debt_ratio": np.round(rng.beta(2, 5, n), 3),
        "employment": rng.choice(EMPLOYMENT, n, p=[0.55, 0.2, 0.1, 0.15]),
        "late_payments": rng.poisson(0.8, n).astype(float),
    })
    risk = (2.5 * frame["debt_ratio"] + 0.45 * frame["late_payments"]
            + 0.9 * (frame["employment"] == "unemployed") - frame["income"] / 60000
            + rng.normal(0, 0.35, n))
    frame["default"] = np.where(risk > 0.9, "yes", "no")
    frame.loc[rng.random(n) < 0.05, "income"] = np.nan
    frame.loc[rng.random(n) < 0.05, "employment"] = np.nan
    return frame


def train_user_model(frame: pd.DataFrame, path: Path) -> None:
    """What a user did elsewhere: fit an XGBClassifier on their data and save it."""
    X = frame.drop(columns="default")
    X["employment"] = pd.Categorical(X["employment"], categories=sorted(EMPLOYMENT))
    y = (frame["default"] == "yes").astype(int)
    # One thread: a small model, and OpenMP threads can stall for seconds on a busy machine.
    model = xgb.XGBClassifier(n_estimators=80, max_depth=3, learning_rate=0.2, n_jobs=1,
                              tree_method="hist", enable_categorical=True, random_state=0)
    model.fit(X, y)
    model.save_model(path)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", type=Path, default=None,
                        help="where loans.csv and model.ubj go (default: a temporary dir)")
    parser.add_argument("--out", type=Path, default=Path("runs/examples/own_xgboost_model"))
    parser.add_argument("--cli", action="store_true", help="explain through python -m explain")
    parser.add_argument("--rows", type=int, default=600, help="rows of loans.csv")
    parser.add_argument("--num-samples", type=int,
                        default=int(os.environ.get("EXAMPLE_NUM_SAMPLES", 2000)))
    parser.add_argument("--time-limit", type=float,
                        default=float(os.environ.get("EXAMPLE_TIME_LIMIT", 30)))
    parser.add_argument("--n-jobs", type=int, default=int(os.environ.get("EXAMPLE_N_JOBS", -1)))
    return parser.parse_args()


def explain_with_api(csv: Path, model: Path, args: argparse.Namespace) -> Path:
    dataset = load_dataset(csv, target="default", positive="yes")
    # The encoder must be fitted on the table the model will see (categories included).
    encoder = TableEncoder().fit(dataset.X, dataset.categorical)
    black_box = load_xgboost(model, encoder)
    config = RunConfig(lime=LimeConfig(num_samples=args.num_samples, n_jobs=args.n_jobs),
                       imli_params={"time_limit": args.time_limit})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # IMLI's time-limit warning: flagged in the report
        result = run_pipeline(dataset, config, black_box=black_box)
    written = write_run(result, prepare_out_dir(args.out, force=True))
    for name, entry in result.report["learners"].items():
        print(f"\n{name}: fidelity {entry['fidelity_test']:.3f} on raw test rows")
        print(entry["rules"])
    return written["report_html"]


def explain_with_cli(csv: Path, model: Path, args: argparse.Namespace) -> Path:
    argv = ["run", "--data", str(csv), "--target", "default", "--positive", "yes",
            "--model", str(model), "--out", str(args.out), "--force", "--no-cache",
            "--num-samples", str(args.num_samples), "--time-limit", str(args.time_limit),
            "--n-jobs", str(args.n_jobs)]
    print("python -m explain " + " ".join(argv))
    code = explain_cli(argv)
    if code != 0:
        raise SystemExit(code)
    return args.out / "report.html"


def main() -> None:
    args = parse_args()
    with tempfile.TemporaryDirectory(prefix="own-model-") as tmp:
        work = args.workdir or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        csv, model = work / "loans.csv", work / "model.ubj"
        loans(args.rows, seed=1).to_csv(csv, index=False)
        train_user_model(loans(2000, seed=2), model)
        print(f"wrote {csv} and {model}")
        explain = explain_with_cli if args.cli else explain_with_api
        report = explain(csv, model, args)
    print(f"\nreport: {report}")


if __name__ == "__main__":
    main()
