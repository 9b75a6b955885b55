"""Explain an XGBoost model of a bundled dataset with global rules, through the Python API.

    python examples/bundled_dataset.py [--dataset breast_cancer] [--out DIR]
                                       [--num-samples N] [--time-limit S] [--n-jobs J]

Steps: load the bundled table, let the pipeline train an XGBoost black box, explain every
row with LIME, learn IMLI and FOLD surrogates from the LIME-filtered rows stacked with the
same rows in full (the default training view), then write the report (report.html,
report.md, report.json, imli.txt, fold.pl) and print the rules, their fidelity, and why
FOLD and IMLI label one test row as they do.

The environment variables EXAMPLE_NUM_SAMPLES, EXAMPLE_TIME_LIMIT and EXAMPLE_N_JOBS set
the defaults of the matching options (the tests use them to run the example quickly).
"""

from __future__ import annotations

import argparse
import os
import warnings
from pathlib import Path

from adapters import load_dataset
from explain.lime_runner import LimeConfig
from explain.outputs import prepare_out_dir, write_run
from explain.pipeline import RunConfig, run_pipeline


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="breast_cancer",
                        help="a bundled dataset: breast_cancer, wine or iris")
    parser.add_argument("--out", type=Path, default=Path("runs/examples/bundled_dataset"))
    parser.add_argument("--num-samples", type=int,
                        default=int(os.environ.get("EXAMPLE_NUM_SAMPLES", 2000)),
                        help="LIME samples per row")
    parser.add_argument("--time-limit", type=float,
                        default=float(os.environ.get("EXAMPLE_TIME_LIMIT", 30)),
                        help="seconds for the IMLI fit")
    parser.add_argument("--n-jobs", type=int, default=int(os.environ.get("EXAMPLE_N_JOBS", -1)),
                        help="LIME worker processes (-1: all cores)")
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    dataset = load_dataset(args.dataset)
    config = RunConfig(
        lime=LimeConfig(num_samples=args.num_samples, top_k=5, n_jobs=args.n_jobs),
        imli_params={"time_limit": args.time_limit},
    )
    with warnings.catch_warnings():
        # IMLI warns when its time limit strikes; the report flags that rule as not optimal.
        warnings.simplefilter("ignore")
        result = run_pipeline(dataset, config)

    out = prepare_out_dir(args.out, force=True)
    written = write_run(result, out)

    report = result.report
    print(f"{dataset.name}: black box accuracy {report['black_box']['accuracy_test']:.3f}")
    for name, entry in report["learners"].items():
        print(f"\n{name}: fidelity {entry['fidelity_test']:.3f} (raw test rows), "
              f"{entry['n_rules']} rules, {entry['rule_size']} literals")
        print(entry["rules"])

    fold = result.learners["fold"].estimator
    row = result.views["fold"]["test"].iloc[[0]]
    print("\nWhy FOLD labels the first test row as it does:")
    print(fold.explain(row).text)
    # IMLI reads the row's 0/1 columns and labels it 0 or 1: show the row's own values,
    # and the classes by name
    imli = result.learners["imli"]
    print("\nWhy IMLI labels it as it does:")
    print(imli.estimator.explain(result.views["imli"]["test"].iloc[[0]], values=row,
                                 class_names=imli.class_names).text)
    print(f"\nreport: {written['report_html']}")


if __name__ == "__main__":
    main()
