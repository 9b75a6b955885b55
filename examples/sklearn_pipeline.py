"""Explain a scikit-learn Pipeline (ColumnTransformer + gradient boosting) with global rules.

    python examples/sklearn_pipeline.py [--model gb|logreg] [--out DIR] [--rows N]
                                        [--num-samples N] [--time-limit S] [--n-jobs J]

The black box is any fitted scikit-learn classifier with ``predict_proba``; here a Pipeline
that imputes and scales the numeric columns, one-hot encodes the categorical ones and
feeds a GradientBoostingClassifier (or a LogisticRegression). It is trained on one sample
of a synthetic churn table, with the original string labels, then wrapped with
``adapters.wrap_sklearn`` (``class_names`` puts its ``classes_`` in the dataset's order) and
explained on another sample. The pipeline receives DataFrames with the dataset's column
names and string categories, exactly as it was fitted.

``--rows`` sets the rows explained (default 600). EXAMPLE_NUM_SAMPLES,
EXAMPLE_TIME_LIMIT and EXAMPLE_N_JOBS set the defaults of the matching options.
"""

from __future__ import annotations

import argparse
import os
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

from adapters import TableEncoder, from_frame, wrap_sklearn
from explain.lime_runner import LimeConfig
from explain.outputs import prepare_out_dir, write_run
from explain.pipeline import RunConfig, run_pipeline

NUMERIC = ["tenure_months", "monthly_charges", "support_calls"]
CATEGORICAL = ["contract", "payment"]


def churn(n: int, seed: int) -> pd.DataFrame:
    """A synthetic telecom table: does the customer leave?"""
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({
        "tenure_months": rng.integers(1, 72, n).astype(float),
        "monthly_charges": np.round(rng.uniform(15, 120, n), 2),
        "support_calls": rng.poisson(1.5, n).astype(float),
        "contract": rng.choice(["month-to-month", "one year", "two year"], n, p=[0.5, 0.3, 0.2]),
        "payment": rng.choice(["card", "transfer", "check"], n),
    })
    score = (1.4 * (frame["contract"] == "month-to-month") - frame["tenure_months"] / 30
             + frame["monthly_charges"] / 70 + 0.35 * frame["support_calls"]
             + rng.normal(0, 0.4, n))
    frame["churn"] = np.where(score > 1.3, "leaves", "stays")
    frame.loc[rng.random(n) < 0.04, "monthly_charges"] = np.nan
    return frame


def black_box_pipeline(kind: str) -> Pipeline:
    numeric = make_pipeline(SimpleImputer(strategy="median"), StandardScaler())
    categorical = make_pipeline(SimpleImputer(strategy="most_frequent"),
                                OneHotEncoder(handle_unknown="ignore"))
    columns = ColumnTransformer([("num", numeric, NUMERIC), ("cat", categorical, CATEGORICAL)])
    if kind == "logreg":
        model = LogisticRegression(max_iter=1000)
    else:
        model = GradientBoostingClassifier(n_estimators=80, max_depth=3, random_state=0)
    return Pipeline([("columns", columns), ("model", model)])


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=("gb", "logreg"), default="gb")
    parser.add_argument("--out", type=Path, default=Path("runs/examples/sklearn_pipeline"))
    parser.add_argument("--rows", type=int, default=600, help="rows to explain")
    parser.add_argument("--num-samples", type=int,
                        default=int(os.environ.get("EXAMPLE_NUM_SAMPLES", 2000)))
    parser.add_argument("--time-limit", type=float,
                        default=float(os.environ.get("EXAMPLE_TIME_LIMIT", 30)))
    parser.add_argument("--n-jobs", type=int, default=int(os.environ.get("EXAMPLE_N_JOBS", -1)))
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    # The user's model, trained on their own sample (string labels, as users have them).
    history = churn(1500, seed=3)
    pipeline = black_box_pipeline(args.model)
    pipeline.fit(history.drop(columns="churn"), history["churn"])

    # The table to explain the model on.
    dataset = from_frame(churn(args.rows, seed=4), "churn", positive="leaves", name="churn")
    encoder = TableEncoder().fit(dataset.X, dataset.categorical)
    black_box = wrap_sklearn(pipeline, encoder, class_names=dataset.class_names)

    config = RunConfig(lime=LimeConfig(num_samples=args.num_samples, n_jobs=args.n_jobs),
                       imli_params={"time_limit": args.time_limit})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # IMLI's time-limit warning: flagged in the report
        result = run_pipeline(dataset, config, black_box=black_box)
    written = write_run(result, prepare_out_dir(args.out, force=True))

    report = result.report
    print(f"black box: {type(pipeline[-1]).__name__} in a Pipeline, "
          f"accuracy {report['black_box']['accuracy_test']:.3f} on the test rows")
    for name, entry in report["learners"].items():
        print(f"\n{name}: fidelity {entry['fidelity_test']:.3f}, F1 vs black box "
              f"{entry['f1_test']:.3f}")
        print(entry["rules"])
    print(f"\nreport: {written['report_html']}")


if __name__ == "__main__":
    main()
