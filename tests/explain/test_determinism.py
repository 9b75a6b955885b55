"""Same inputs and seed → byte-identical report.json (timings aside) and rule files."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from adapters import load_dataset
from explain import lime_parallel
from explain.lime_runner import LimeConfig
from explain.outputs import prepare_out_dir, report_json_text, write_run
from explain.pipeline import RunConfig, run_pipeline


def _without_timings(value):
    if isinstance(value, dict):
        return {k: _without_timings(v) for k, v in value.items()
                if not (k.endswith("seconds") or k in ("timed_out", "environment"))}
    if isinstance(value, list):
        return [_without_timings(v) for v in value]
    return value


def _run(out, n_jobs):
    config = RunConfig(lime=LimeConfig(num_samples=300, n_jobs=n_jobs, random_state=3),
                       random_state=3, imli_params={"time_limit": 60.0})
    result = run_pipeline(load_dataset("wine", positive="0"), config)
    write_run(result, prepare_out_dir(out))
    return result


def test_two_runs_write_the_same_files(tmp_path, monkeypatch):
    monkeypatch.setattr(lime_parallel, "WORKER_START_SECONDS", 0.0)  # workers, however small
    first = _run(tmp_path / "a", n_jobs=1)
    _run(tmp_path / "b", n_jobs=2)  # parallelism must not change anything
    # a fit the time limit cut short could depend on timing; this one must have finished
    assert not first.report["learners"]["imli"]["timed_out"], "the test needs a finished fit"
    a = json.loads((tmp_path / "a" / "report.json").read_text())
    b = json.loads((tmp_path / "b" / "report.json").read_text())
    assert report_json_text(_without_timings(a)) == report_json_text(_without_timings(b))
    for name in ("imli.txt", "fold.pl"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def _files(out: Path) -> dict:
    """A run's files, less what timing changes (report.md's seconds: the LIME line's and
    the "fit s" columns)."""
    lines, column = [], None
    for line in (out / "report.md").read_text().splitlines():
        cells = line.split(" | ")
        if line.startswith("|") and "fit s" in cells:
            column = cells.index("fit s")
        elif line.startswith("|") and column is not None and not line.startswith("|---"):
            cells[column] = "-"
        elif not line.startswith("|"):
            column = None
        lines.append(re.sub(r"explained in [0-9.]+ s", "explained in - s", " | ".join(cells)))
    files = {name: (out / name).read_bytes()
             for name in ("imli.txt", "fold.pl", "fold_facts.pl", "predictions.csv")}
    report = _without_timings(json.loads((out / "report.json").read_text()))
    return {**files, "report.md": lines, "report.json": report_json_text(report)}


def test_the_command_line_writes_the_same_files_whatever_the_hash_seed(tmp_path):
    # text categories (sets of strings iterate in the hash seed's order) and missing cells,
    # each run a process of its own, the second with LIME on two processes
    rng = np.random.default_rng(1)
    n = 200
    table = pd.DataFrame({"score": rng.normal(0, 1, n).round(3),
                          "colour": rng.choice(["red", "green", "blue", "teal", "o'ch re"], n),
                          "size": rng.choice(["S", "M", "L"], n)})
    table["target"] = np.where((table["score"] > 0.3) | (table["colour"] == "red"), "hit", "miss")
    table.loc[table.sample(frac=0.1, random_state=0).index, "colour"] = np.nan
    table.to_csv(tmp_path / "table.csv", index=False)
    outs = []
    for seed, jobs in (("0", "1"), ("1", "2")):
        out = tmp_path / f"seed{seed}"
        done = subprocess.run(
            [sys.executable, "-m", "explain", "run", "--data", str(tmp_path / "table.csv"),
             "--target", "target", "--out", str(out), "--num-samples", "200", "--no-cache",
             "--time-limit", "60", "--n-jobs", jobs],
            capture_output=True, text=True, cwd=Path(__file__).resolve().parents[2],
            timeout=600, env={**os.environ, "PYTHONHASHSEED": seed})
        assert done.returncode == 0, done.stderr
        outs.append(_files(out))
    assert b"IF" in outs[0]["imli.txt"]  # something was learned
    for name in outs[0]:
        assert outs[0][name] == outs[1][name], name
