"""The versions a run used, recorded in report.json so any run can be reproduced."""

from __future__ import annotations

import platform
import shutil
import subprocess
from functools import lru_cache
from importlib import metadata

PACKAGES = ("surrogate-rules", "numpy", "pandas", "scikit-learn", "xgboost", "lime",
            "python-sat", "pyswip", "scipy", "joblib")


@lru_cache(maxsize=1)
def swipl_version() -> str | None:
    """SWI-Prolog's version string, or None when ``swipl`` is not on PATH."""
    swipl = shutil.which("swipl")
    if swipl is None:
        return None
    try:
        done = subprocess.run([swipl, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() or None


def environment() -> dict:
    """Python's and every dependency's version.

    Returns
    -------
    dict
        ``python``, ``packages`` (name -> version, None for a package that is absent) and
        ``swi_prolog`` (:func:`swipl_version`).
    """
    packages = {}
    for name in PACKAGES:
        try:
            packages[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            packages[name] = None
    return {"python": platform.python_version(), "packages": packages,
            "swi_prolog": swipl_version()}
