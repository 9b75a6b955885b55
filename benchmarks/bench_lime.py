"""Benchmark of the LIME stage (issue 5): the batched engine against stock lime.

``python -m benchmarks.bench_lime [--quick] [--skip-full] [--out results.json]``

Measured in one run, on one machine, with an XGBoost black box (100 trees, depth 4)
predicting through ``booster.inplace_predict`` on float matrices:

1. the black box's prediction rate (rows per second, best of 3 on a large matrix), by
   wall time (all cores) and per CPU second;
2. per-row time of stock lime (``explain_instance``, the ``reference`` engine) and of the
   batched engine in ``exact`` and ``fast`` mode, on breast_cancer (569 x 30, numeric) and
   a 30,000-row mixed table (``--full-rows``; adult's first rows when the benchmark data
   is available, else a generated table of 14 columns), for top-5 and top-10 features, all
   in this process (``n_jobs=1``) with the same explainer, rows and seeds, timed in
   alternating rounds so a shared machine's load hits every engine alike; the ratios are
   stock time / batched time, by wall and by CPU time;
   Both batched modes are timed with the default pooled neighbourhoods (rows ``i`` with
   the same ``i // pool_rows`` share one seed, hence one set of samples, as
   ``explain_rows`` does) and with one neighbourhood per row (``pool1``); stock lime
   predicts 5000 samples per row either way;
3. top-K agreement: ``fast`` vs lime, and lime vs lime under another seed;
4. all 30,000 rows of the mixed table in ``fast`` mode over ``--n-jobs`` processes:
   wall time, the black-box bound (rows x samples / prediction rate) and the bound of
   what pooling leaves to predict (rows + pools x (samples - 1)), the CPU seconds of
   this process and its workers (their half is the time on two dedicated cores), and
   their peak resident memory.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import xgboost as xgb
from sklearn.datasets import load_breast_cancer

from benchmarks.cli import command_line, one_line_errors, unusable_file
from benchmarks.machine import environment, header
from explain.cli import OneLineParser, number_arg
from explain.lime_batch import BatchedLime, ReferenceLime
from explain.lime_runner import (DISCRETIZERS, MAX_SAMPLES, LimeConfig, explain_rows,
                                 make_explainer, seed_for)

#: Rows of each kind, by default and with --quick: stock lime's, the batched engines' (of
#: each table), and the mixed table's (all explained by the full run).
ROWS = {"rows_reference": 20, "rows_batched": 320, "full_rows": 30_000}
QUICK_ROWS = {"rows_reference": 5, "rows_batched": 25, "full_rows": 500}
#: Alternating rounds of :func:`compare_engines`: each explains a fifth of the rows.
ROUNDS = 5


class BoosterProba:
    """``predict_fn`` of an XGBoost binary booster: in-place prediction on a float matrix."""

    def __init__(self, booster):
        self.booster = booster

    def __call__(self, Z):
        p = self.booster.inplace_predict(np.asarray(Z, dtype=np.float64))
        return np.column_stack([1.0 - p, p])


def _generated_mixed(n=30_000, seed=0):
    rng = np.random.default_rng(seed)
    numeric = np.column_stack([
        rng.integers(17, 91, n), rng.lognormal(12, 0.5, n), rng.integers(1, 17, n),
        np.where(rng.random(n) < 0.9, 0.0, rng.lognormal(8, 1, n)),
        np.where(rng.random(n) < 0.95, 0.0, rng.lognormal(7, 0.5, n)),
        np.where(rng.random(n) < 0.5, 40.0, rng.integers(1, 100, n))]).astype(float)
    sizes = (9, 16, 7, 15, 6, 5, 2, 42)
    cats = np.column_stack([rng.integers(0, s, n) for s in sizes]).astype(float)
    logit = (numeric[:, 0] - 40) / 10 + (numeric[:, 2] - 10) / 3 + (cats[:, 2] == 1) - 1.5
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    X = np.column_stack([numeric[:, :1], cats[:, :1], numeric[:, 1:3], cats[:, 1:7],
                         numeric[:, 3:], cats[:, 7:]])
    return f"generated {n}x{X.shape[1]}", X, y, [1, 4, 5, 6, 7, 8, 9, 13]


def mixed_table(n=30_000):
    """Adult's first ``n`` rows (codes for categories, missing = an extra code), or a
    generated table of the same shape when the benchmark data is not available."""
    try:
        from benchmarks.datasets import is_available, load
        if not is_available("adult"):
            return _generated_mixed(n)
        ds = load("adult")
    except (ImportError, OSError, ValueError):
        return _generated_mixed(n)
    frame = ds.X.iloc[:n]
    columns, categorical = [], []
    for j, name in enumerate(frame.columns):
        col = frame[name]
        if name in ds.categorical:
            values = sorted(col.dropna().unique())
            codes = pd.Categorical(col, categories=values).codes.astype(float)
            codes[codes < 0] = len(values)
            columns.append(codes)
            categorical.append(j)
        else:
            col = col.astype(float)
            columns.append(col.fillna(col.median()).to_numpy())
    return f"adult first {n} rows", np.column_stack(columns), ds.y[:n], categorical


def black_box(X, y):
    """The benchmark's black box: XGBoost, 100 trees of depth 4, predicting in place."""
    model = xgb.XGBClassifier(n_estimators=100, max_depth=4, tree_method="hist",
                              random_state=0).fit(X, y)
    return BoosterProba(model.get_booster())


def prediction_rate(predict, X, n=250_000):
    """Rows per second of ``predict`` on an ``n``-row matrix after a warm-up: best of 3 by
    wall time (all cores, as XGBoost threads them) and by this process's CPU time (the
    rate of one dedicated core)."""
    Z = np.ascontiguousarray(np.resize(X, (n, X.shape[1])))
    predict(Z[:5000])
    wall, cpu = zip(*(_timed(predict, Z) for _ in range(3)))
    return n / min(wall), n / min(cpu)


def _timed(f, *args):
    wall, cpu = time.perf_counter(), time.process_time()
    f(*args)
    return time.perf_counter() - wall, time.process_time() - cpu


def agreement(a, b):
    """Mean share of row ``i``'s top-K features in ``a`` also in ``b``."""
    return float(np.mean([len(set(x[x >= 0]) & set(z[z >= 0])) / max(1, (x >= 0).sum())
                          for x, z in zip(a, b)]))


def _interleaved(engines, rows, predict, rounds):
    """Time engines in alternating rounds (a shared machine's load then hits all of them
    alike). ``engines``: name -> (engine, rows per round, rows per batch, seeds). Returns
    name -> (wall s/row, cpu s/row, features of the rows explained, in order)."""
    totals = {name: [0.0, 0.0, []] for name in engines}
    labels = np.ones(len(rows), dtype=int)
    for k in range(rounds):
        for name, (engine, per_round, batch, seeds) in engines.items():
            start = k * per_round
            for i in range(start, start + per_round, batch):
                j = slice(i, min(i + batch, start + per_round))
                wall, cpu = time.perf_counter(), time.process_time()
                fits = engine.explain(rows[j], seeds[j], labels[j], predict)
                totals[name][0] += time.perf_counter() - wall
                totals[name][1] += time.process_time() - cpu
                totals[name][2].append(fits.features)
    return {name: (wall / (rounds * engines[name][1]), cpu / (rounds * engines[name][1]),
                   np.concatenate(parts)) for name, (wall, cpu, parts) in totals.items()}


def pooled_seeds(random_state, n_rows, pool_rows):
    """The seeds ``explain_rows`` gives rows ``0..n_rows-1`` with ``pool_rows``."""
    return np.array([seed_for(random_state, i // pool_rows) for i in range(n_rows)])


def compare_engines(name, X, categorical, predict, args, rounds=ROUNDS):
    """Stock lime vs the batched engine, exact and fast, with the default pooled
    neighbourhoods (``--pool-rows``) and with one neighbourhood per row (pool 1)."""
    results = []
    rows = X[: args.rows_batched]
    pool = args.pool_rows
    seeds, single = pooled_seeds(0, len(rows), pool), pooled_seeds(0, len(rows), 1)
    other = pooled_seeds(1, len(rows), pool)
    n_ref, n_batched = args.rows_reference // rounds, args.rows_batched // rounds
    for top_k in (5, 10):
        config = LimeConfig(num_samples=args.num_samples, top_k=top_k,
                            discretizer=args.discretizer)
        labels = np.argmax(predict(X), axis=1) if args.discretizer == "entropy" else None
        start = time.perf_counter()
        explainer = make_explainer(X, config, categorical, training_labels=labels)
        build = time.perf_counter() - start
        batch = n_batched  # a round is one batch: whole pools when n_batched % pool == 0
        engines = {"reference": (ReferenceLime(explainer, args.num_samples, top_k), n_ref,
                                 n_ref, seeds)}
        for mode in ("exact", "fast"):
            engine = BatchedLime(explainer, args.num_samples, top_k, "auto", mode,
                                 fix_zero_width_bins=(mode == "fast"))
            engine.explain(rows[:2], seeds[:2], [1, 1], predict)  # warm-up
            engines[mode] = (engine, n_batched, batch, seeds)
            engines[f"{mode}_pool1"] = (engine, n_batched, batch, single)
        timing = _interleaved(engines, rows, predict, rounds)
        lime_other = _interleaved({"exact": (engines["exact"][0], len(rows), batch, other)},
                                  rows, predict, 1)["exact"][2]
        ref_wall, ref_cpu, ref_features = timing["reference"]
        ref_rows = np.arange(rounds * n_ref)  # the reference explained the first rows
        out = {"table": name, "top_k": top_k, "pool_rows": pool, "explainer_build_s": build,
               "reference_rows": rounds * n_ref, "batched_rows": rounds * n_batched,
               "batch_size": batch, "reference_s_per_row": ref_wall,
               "reference_cpu_s_per_row": ref_cpu}
        for mode in ("exact", "fast", "exact_pool1", "fast_pool1"):
            wall, cpu, _ = timing[mode]
            out.update({f"{mode}_s_per_row": wall, f"{mode}_cpu_s_per_row": cpu,
                        f"{mode}_speedup": ref_wall / wall,
                        f"{mode}_cpu_speedup": ref_cpu / cpu})
        exact_features, fast_features = timing["exact"][2], timing["fast"][2]
        out["exact_equals_lime_features"] = bool(
            np.array_equal(exact_features[ref_rows], ref_features))
        out["agreement_fast_vs_lime"] = agreement(fast_features, exact_features)
        out["agreement_lime_vs_lime_other_seed"] = agreement(lime_other, exact_features)
        print(json.dumps(out), flush=True)
        results.append(out)
    return results


class ProcessMonitor:
    """Peak summed RSS and CPU seconds of this process and its children (sampled every
    0.2 s; CPU time of children alive at the end, e.g. joblib's reusable workers)."""

    def __init__(self):
        try:
            import psutil
        except ImportError as error:
            raise ImportError("the full run's memory and CPU accounting needs psutil "
                              "(installed with the dask extra)") from error
        self._psutil = psutil
        self.process, self.peak, self._stop = psutil.Process(), 0, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _family(self):
        return [self.process, *self.process.children(recursive=True)]

    def _cpu(self):
        total = 0.0
        for p in self._family():
            try:
                t = p.cpu_times()
            except self._psutil.Error:
                continue
            total += t.user + t.system
        return total

    def _run(self):
        while not self._stop.is_set():
            total = 0
            for p in self._family():
                try:
                    total += p.memory_info().rss
                except self._psutil.Error:
                    continue
            self.peak = max(self.peak, total)
            self._stop.wait(0.2)

    def __enter__(self):
        self._cpu_start = self._cpu()
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self.cpu_seconds = self._cpu() - self._cpu_start
        self._stop.set()
        self._thread.join()


def full_run(name, X, categorical, predict, rates, args):
    config = LimeConfig(num_samples=args.num_samples, top_k=5, mode="fast",
                        n_jobs=args.n_jobs, pool_rows=args.pool_rows,
                        discretizer=args.discretizer)
    rows = X[: args.full_rows]
    last = [0.0]

    def progress(done, total):
        now = time.perf_counter()
        if now - last[0] > 30 or done == total:
            last[0] = now
            print(f"  {done}/{total} rows, load {os.getloadavg()[0]:.1f}", flush=True)

    load_before = os.getloadavg()[0]
    with ProcessMonitor() as monitor:
        start = time.perf_counter()
        exp = explain_rows(X, rows, predict, config, categorical_features=categorical,
                           progress=progress)
        seconds = time.perf_counter() - start
    rate_after = prediction_rate(predict, X)
    samples = len(rows) * args.num_samples
    n_pools = -(-len(rows) // args.pool_rows)
    predicted = len(rows) + n_pools * (args.num_samples - 1)  # what pooling leaves to predict
    out = {"table": name, "rows": len(rows), "n_jobs": args.n_jobs, "seconds": seconds,
           "s_per_row": seconds / len(rows),
           # the brief's bound: rows x samples / the black box's measured rate (wall, all
           # cores), with the rate measured before and after the run
           "black_box_bound_s": samples / rates[0], "black_box_bound_after_s":
           samples / rate_after[0], "bound_share": samples / rates[0] / seconds,
           "pool_rows": args.pool_rows, "black_box_rows": predicted,
           "pooled_black_box_bound_s": predicted / rates[0],
           "cpu_seconds": monitor.cpu_seconds,
           "black_box_cpu_s": samples / rates[1],
           "seconds_on_dedicated_cores": monitor.cpu_seconds / args.n_jobs,
           "peak_rss_mb": monitor.peak / 2**20, "load_before": load_before,
           "load_after": os.getloadavg()[0],
           "features_selected": int((exp.features >= 0).sum())}
    print(json.dumps(out), flush=True)
    return out


def parse_args(argv=None) -> argparse.Namespace:
    """The options, with --quick's sizes for the row counts not given, checked."""
    parser = OneLineParser(prog="python -m benchmarks.bench_lime",
                           description=__doc__.splitlines()[0])
    rows = number_arg(int, ROUNDS)  # each of the alternating rounds explains a row or more
    parser.add_argument("--num-samples", type=number_arg(int, 2, MAX_SAMPLES + 1), default=5000)
    parser.add_argument("--rows-reference", type=rows, default=None,
                        help=f"rows stock lime explains (default {ROWS['rows_reference']}; "
                             f"{QUICK_ROWS['rows_reference']} with --quick)")
    parser.add_argument("--rows-batched", type=rows, default=None,
                        help=f"rows the batched engine explains (default {ROWS['rows_batched']}"
                             f"; {QUICK_ROWS['rows_batched']} with --quick)")
    parser.add_argument("--pool-rows", type=number_arg(int, 1), default=LimeConfig().pool_rows,
                        help="rows sharing one neighbourhood (explain_rows' pool_rows)")
    parser.add_argument("--discretizer", choices=DISCRETIZERS, default="quartile",
                        help="lime's bins (default quartile, stock lime's own default; the "
                             "pipeline's is entropy)")
    parser.add_argument("--full-rows", type=rows, default=None,
                        help=f"rows of the mixed table (default {ROWS['full_rows']}; "
                             f"{QUICK_ROWS['full_rows']} with --quick)")
    parser.add_argument("--n-jobs", type=number_arg(int, 1), default=2,
                        help="worker processes of the full run (default 2)")
    parser.add_argument("--skip-full", action="store_true")
    parser.add_argument("--quick", action="store_true",
                        help="tiny sizes, for a smoke test (the row counts not given)")
    parser.add_argument("--out", type=Path, help="write the results as JSON here")
    args = parser.parse_args(argv)
    for key, default in (QUICK_ROWS if args.quick else ROWS).items():
        if getattr(args, key) is None:
            setattr(args, key, default)
    if args.rows_reference > args.rows_batched:
        parser.error("--rows-reference must not exceed --rows-batched (stock lime explains "
                     "the first of the batched engine's rows)")
    most = min(len(load_breast_cancer().target), args.full_rows)
    if args.rows_batched > most:
        parser.error(f"--rows-batched must be at most {most}: breast_cancer's rows and "
                     "--full-rows")
    problem = unusable_file(args.out)
    if problem:
        parser.error(f"--out {str(args.out)!r} {problem}")
    return args


@one_line_errors
def main(argv=None) -> int:
    args = parse_args(argv)
    command = command_line("benchmarks.bench_lime", argv)
    print(header(command), flush=True)
    results = {"environment": environment(command), "engines": [], "prediction_rate": {}}
    bc = load_breast_cancer()
    tables = [("breast_cancer", bc.data, bc.target, []), mixed_table(args.full_rows)]
    for name, X, y, categorical in tables:
        predict = black_box(X, y)
        rates = prediction_rate(predict, X)
        results["prediction_rate"][name] = {"wall_rows_per_s": rates[0],
                                            "cpu_rows_per_s": rates[1]}
        print(f"{name}: {X.shape}, black box {rates[0]:,.0f} rows/s (wall), "
              f"{rates[1]:,.0f} rows/s per CPU second, load {os.getloadavg()[0]:.1f}",
              flush=True)
        results["engines"] += compare_engines(name, X, categorical, predict, args)
        if name != "breast_cancer" and not args.skip_full:
            results["full_run"] = full_run(name, X, categorical, predict, rates, args)
    if args.out:
        args.out.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
