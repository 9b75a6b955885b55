"""Fuzz target: small random CSV tables through the whole CLI path to the report.

Whatever the table — hostile names, missing values, inf, one class, text in numbers —
the run either writes a complete report (exit 0) or stops with a one-line error (exit 2);
any other exception fails the test.
"""

import json

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explain.cli import main

HOSTILE = st.text(alphabet=st.sampled_from(list("ab'\"x), halt(%_\\\n[]<é ,;Z0")),
                  min_size=1, max_size=8)


@st.composite
def tables(draw):
    n = draw(st.integers(min_value=4, max_value=80))
    n_features = draw(st.integers(min_value=1, max_value=3))
    names = draw(st.lists(HOSTILE, min_size=n_features + 1, max_size=n_features + 1,
                          unique_by=lambda s: s.strip().lower()))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    columns = {}
    for name in names[:-1]:
        kind = draw(st.sampled_from(["float", "text", "mixed"]))
        if kind == "float":
            values = rng.normal(size=n).astype(object)
        elif kind == "text":
            values = rng.choice(draw(st.lists(HOSTILE, min_size=1, max_size=4)), n).astype(object)
        else:
            values = rng.normal(size=n).astype(object)
            values[rng.random(n) < 0.3] = draw(HOSTILE)
        holes = rng.random(n) < draw(st.sampled_from([0.0, 0.2, 0.6]))
        values[holes] = draw(st.sampled_from([np.nan, np.inf, ""]))
        columns[name] = values
    labels = draw(st.lists(HOSTILE, min_size=1, max_size=3, unique_by=lambda s: s.strip()))
    # Mostly a target the features decide (so a run can get to the learners), sometimes noise.
    first = pd.to_numeric(pd.Series(columns[names[0]]), errors="coerce").to_numpy(dtype=float)
    if draw(st.booleans()) and len(labels) >= 2 and np.isfinite(first).sum() >= 4:
        cut = np.nanmedian(np.where(np.isfinite(first), first, np.nan))
        target = np.where(first > cut, labels[0], labels[1]).astype(object)
    else:
        target = rng.choice(labels, n).astype(object)
    target[rng.random(n) < 0.1] = np.nan
    columns[names[-1]] = target
    return pd.DataFrame(columns), names[-1]


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(table=tables())
def test_any_small_csv_gives_a_report_or_a_clear_error(table, tmp_path_factory, capsys):
    frame, target = table
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / "table.csv"
    frame.to_csv(path, index=False)
    out = folder / "out"
    code = main(["run", "--data", str(path), "--target", target, "--out", str(out),
                 "--num-samples", "50", "--n-jobs", "1", "--time-limit", "2", "--no-cache"])
    err = capsys.readouterr().err
    assert code in (0, 2), err
    if code == 0:
        report = json.loads((out / "report.json").read_text())
        assert set(report["learners"]) == {"imli", "fold"}
        assert (out / "fold.pl").is_file() and (out / "report.html").is_file()
    else:
        errors = [line for line in err.splitlines() if line.startswith("error:")]
        assert len(errors) == 1, err
