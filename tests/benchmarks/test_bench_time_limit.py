"""The time-limit benchmark's options are checked before any solver runs."""

import pytest

from benchmarks.bench_time_limit import main, sat_solver


def test_python_sat_names_and_aliases_are_accepted():
    assert sat_solver("g3") == "g3" and sat_solver("minisat22") == "minisat22"


@pytest.mark.parametrize("argv, message", [
    (["--sat", "nosuch"], "'nosuch' is not a python-sat solver; choose from"),
    (["--repeats", "0"], "--repeats: expected a value >= 1"),
    (["--leave-after", "-1"], "need --leave-after >= 0"),
])
def test_bad_options_are_usage_errors(argv, message, usage_error):
    err = usage_error(main, argv)
    assert message in err and "CalledProcessError" not in err
