"""Same inputs and seed → byte-identical report.json (timings aside) and rule files."""

import json

from adapters import load_dataset
from explain import lime_parallel
from explain.lime_runner import LimeConfig
from explain.outputs import prepare_out_dir, report_json_text, write_run
from explain.pipeline import RunConfig, run_pipeline


def _without_timings(value):
    if isinstance(value, dict):
        return {k: _without_timings(v) for k, v in value.items()
                if not (k.endswith("seconds") or k in ("timed_out", "n_jobs"))}
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
