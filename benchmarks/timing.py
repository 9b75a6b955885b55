"""Timing a call a few times, and the median with every run beside it."""
from __future__ import annotations

import statistics
import time
from typing import Callable

__all__ = ["wall_times", "median_and_runs"]


def wall_times(call: Callable[[int], object], repeats: int) -> tuple[list[float], object]:
    """Wall seconds of ``call(i)`` for ``i`` in ``range(repeats)``, and the last result."""
    seconds, result = [], None
    for i in range(repeats):
        started = time.perf_counter()
        result = call(i)
        seconds.append(time.perf_counter() - started)
    return seconds, result


def median_and_runs(values: list[float], digits: int = 2, scale: float = 1.0) -> tuple[str, str]:
    """The median and every run of ``values`` (times ``scale``), as text.

    >>> median_and_runs([0.5, 0.25, 2.0])
    ('0.50', '0.50, 0.25, 2.00')
    """
    runs = ", ".join(f"{scale * v:.{digits}f}" for v in values)
    return f"{scale * statistics.median(values):.{digits}f}", runs
