"""The machine and software a benchmark run happened on, for the results' header."""
from __future__ import annotations

import multiprocessing
import os
import platform
import shutil
import subprocess
from contextlib import contextmanager
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path

__all__ = ["VERSIONED", "a_core_taken", "environment", "header"]

#: Distributions whose versions are recorded with every result.
VERSIONED = ("numpy", "pandas", "scikit-learn", "xgboost", "lime", "python-sat", "pyswip",
             "foldrpp", "wittgenstein")


def environment(command: str) -> dict:
    """Machine, versions, date and the command, for the results' header.

    Parameters
    ----------
    command : str
        The command line that produced the results, as a person would type it.

    Returns
    -------
    dict
        ``cpu`` (model name), ``cores``, ``cores_available`` (this process's affinity),
        ``platform``, ``python``, ``versions`` (:data:`VERSIONED`; ``None`` when not
        installed), ``swipl`` (``swipl --version`` or ``None``), ``date`` (UTC), ``command``,
        ``pythonhashseed`` (the environment's ``PYTHONHASHSEED``: FOLD-R++ iterates over
        sets of strings) and ``commit`` (this checkout's, ``+`` when files differ from it;
        ``None`` outside a git checkout).
    """
    return {
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "cores_available": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
        else os.cpu_count(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "versions": {name: _version(name) for name in VERSIONED},
        "swipl": _swipl_version(),
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "command": command,
        "pythonhashseed": os.environ.get("PYTHONHASHSEED"),
        "commit": _commit(),
    }


def header(command: str) -> str:
    """Three lines for a benchmark's printed results: the machine (with the load average at
    start and the date), the versions, then the command with the code's commit (as
    :func:`environment` records them)."""
    env = environment(command)
    return (f"Machine: {env['cpu']}, {env['cores_available']}/{env['cores']} cores, "
            f"{env['platform']}, Python {env['python']}, load average "
            f"{os.getloadavg()[0]:.2f} at start; {env['date']}\n"
            "Versions: " + ", ".join(f"{k} {v}" for k, v in env["versions"].items() if v)
            + (f", {env['swipl']}" if env["swipl"] else "")
            + f"\nCommand: {env['command']}"
            + (f" at commit {env['commit']}" if env["commit"] else ""))


def _cpu_model() -> str:
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        for line in cpuinfo.read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def _version(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def _swipl_version() -> str | None:
    swipl = shutil.which("swipl")
    if swipl is None:
        return None
    done = subprocess.run([swipl, "--version"], capture_output=True, text=True, timeout=30)
    return done.stdout.strip() or None


def _commit() -> str | None:
    """The code's git commit, with ``+`` when tracked files differ from it."""
    root = Path(__file__).resolve().parent.parent
    git = shutil.which("git")
    if git is None or not (root / ".git").exists():
        return None
    try:
        head = subprocess.run([git, "-C", str(root), "rev-parse", "--short=12", "HEAD"],
                              capture_output=True, text=True, timeout=30)
        dirty = subprocess.run([git, "-C", str(root), "status", "--porcelain",
                                "--untracked-files=no"], capture_output=True, text=True,
                               timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    if head.returncode != 0:
        return None
    return head.stdout.strip() + ("+" if dirty.stdout.strip() else "")


def _spin() -> None:
    while True:
        pass


@contextmanager
def a_core_taken(busy: bool = True):
    """While the block runs, another process spins on one core, as another job would
    (nothing when ``busy`` is false)."""
    if not busy:
        yield
        return
    spinner = multiprocessing.get_context("spawn").Process(target=_spin, daemon=True)
    spinner.start()
    try:
        yield
    finally:
        spinner.terminate()
        spinner.join()
