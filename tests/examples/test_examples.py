"""Each example script runs for real, with small settings, and writes a full report."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
FAST = {"EXAMPLE_NUM_SAMPLES": "300", "EXAMPLE_TIME_LIMIT": "3", "EXAMPLE_N_JOBS": "1",
        # XGBoost's OpenMP threads can stall for many seconds on a busy 2-core machine.
        "OMP_NUM_THREADS": "1"}


@pytest.mark.parametrize("script, args", [
    ("bundled_dataset.py", []),
    ("own_xgboost_model.py", ["--rows", "250"]),
    ("own_xgboost_model.py", ["--rows", "250", "--cli"]),
    ("sklearn_pipeline.py", ["--rows", "300"]),
])
def test_example_runs(script, args, tmp_path):
    out = tmp_path / "out"
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script), "--out", str(out), *args],
        capture_output=True, text=True, cwd=tmp_path, env={**os.environ, **FAST}, timeout=120,
    )
    seconds = time.perf_counter() - started
    assert done.returncode == 0, done.stderr[-3000:]
    for name in ("report.html", "report.md", "report.json", "imli.txt", "fold.pl"):
        assert (out / name).is_file(), name
    assert "report.html" in done.stdout
    if script == "bundled_dataset.py":
        why = done.stdout.split("Why IMLI labels it as it does:\n")
        assert len(why) == 2 and why[1].startswith(("benign: ", "malignant: ")), \
            done.stdout[-2000:]
    assert seconds < 45, f"{script} took {seconds:.0f} s"


def test_every_example_is_tested():
    tested = {"bundled_dataset.py", "own_xgboost_model.py", "sklearn_pipeline.py"}
    assert {p.name for p in EXAMPLES.glob("*.py")} == tested
