"""MaxSAT engines behind one interface, each with a real time limit.

* ``"rc2"`` / ``"rc2-stratified"`` — python-sat's RC2 in-process. RC2 has no time limit of
  its own: with a limit it runs in a worker thread (the SAT oracle releases the GIL), which
  is interrupted when the limit strikes and every 50 ms after. RC2 then finishes the core
  it is processing and returns no model, which an interrupted SAT call (no core) tells
  apart from unsatisfiable hard clauses. Glucose 3 looks for the interruption only at its
  next restart, which can be seconds away on a large query: a worker still running half
  a second after the limit is left to stop by itself, and the caller has its time-out.
* ``"cpsat"`` — OR-Tools CP-SAT (the ``surrogate-rules[cpsat]`` extra), imported lazily;
  anytime: on a time-out it returns its best feasible model.
* an external command (``SolverConfig(command=(...))``) — the query is written as a DIMACS
  WCNF file and the command runs with a timeout, as a list of arguments (never a shell).
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np
from pysat.examples.rc2 import RC2, RC2Stratified
from pysat.formula import WCNF
from pysat.solvers import Solver

__all__ = ["ENGINES", "Solution", "SolverConfig", "SolverError", "solve"]

ENGINES = ("rc2", "rc2-stratified", "cpsat")
_GRACE_SECONDS = 2.0
#: RC2's SAT solver. Glucose 3 (RC2's default) looks for an interruption only between
#: restarts, which on large queries came 20-30 s after the limit; MiniSat 2.2 looks at
#: every decision but proves optima far more slowly (BENCHMARKS.md, IMLI section).
_SAT_SOLVER = "g3"
#: Seconds past the time limit after which an RC2 run that has not stopped is left behind
#: (``None``: wait for it).
_ABANDON_SECONDS: float | None = 0.5


class SolverError(RuntimeError):
    """A MaxSAT engine failed (crashed, printed no answer, or found no feasible rule)."""


@dataclass(frozen=True)
class Solution:
    """Outcome of one MaxSAT call.

    Parameters
    ----------
    model : tuple of int or None
        Signed literals of the best assignment found, ``None`` if none was found.
    cost : int or None
        Its cost (sum of weights of falsified soft clauses).
    optimal : bool
        Whether the engine proved the model optimal.
    status : {"optimal", "feasible", "timeout"}
        How the call ended.
    """

    model: tuple[int, ...] | None
    cost: int | None
    optimal: bool
    status: str


@dataclass(frozen=True)
class SolverConfig:
    """Which engine to run and how.

    Parameters
    ----------
    engine : {"rc2", "rc2-stratified", "cpsat"}, default="rc2"
    command : tuple of str, optional
        External MaxSAT solver command; overrides ``engine``. The argument ``"{wcnf}"`` is
        replaced by the query file's path (appended when absent). The solver must print
        MaxSAT Evaluation output (``s`` / ``o`` / ``v`` lines).
    seed : int, default=0
        Random seed (CP-SAT).
    workers : int, default=1
        CP-SAT search workers (1 keeps results reproducible).
    """

    engine: str = "rc2"
    command: tuple[str, ...] | None = None
    seed: int = 0
    workers: int = 1


def _solve_rc2(wcnf: WCNF, stratified: bool, time_limit: float | None) -> Solution:
    if time_limit is not None and time_limit <= 0:
        return Solution(None, None, False, "timeout")
    # core exhaustion / minimisation make SAT calls that cannot be interrupted, so they
    # stay off: the time limit must hold.
    if stratified:
        rc2 = RC2Stratified(wcnf, solver=_SAT_SOLVER, blo="full")
    else:
        rc2 = RC2(wcnf, solver=_SAT_SOLVER)
    return _run_rc2(rc2, time_limit)


def _run_rc2(rc2: RC2, time_limit: float | None) -> Solution:
    """Run ``rc2`` to optimality or until ``time_limit`` seconds have passed, then free it.

    With a limit, RC2 runs in a worker thread (the SAT solver releases the GIL). When the
    limit strikes, another thread interrupts it every 50 ms until it stops; Glucose
    notices only at its next restart, so if the worker has not stopped
    ``_ABANDON_SECONDS`` later it is left to stop (and free the solver) by itself, and the
    caller has its time-out now.

    Parameters
    ----------
    rc2 : RC2
        An RC2 or RC2Stratified object holding the query; deleted when done.
    time_limit : float or None

    Returns
    -------
    Solution
        ``status="timeout"`` without a model when the limit struck first.

    Raises
    ------
    SolverError
        If the hard clauses are unsatisfiable.
    """
    if time_limit is None:
        with rc2:
            try:
                return _outcome(rc2, rc2.compute(), limited=False)
            except Exception as exc:  # python-sat's own Ctrl-C: "Caught keyboard interrupt"
                if "keyboard interrupt" in str(exc).lower():
                    raise KeyboardInterrupt from exc
                raise
    done: dict[str, object] = {}
    freeing = threading.Lock()  # no interrupt reaches a solver being freed

    def work() -> None:
        with freeing:
            if "cancelled" in done:  # the caller stopped before this thread ran
                done["freed"] = True
                rc2.delete()
                return
            done["running"] = True
        try:
            done["solution"] = _outcome(rc2, rc2.compute(expect_interrupt=True),
                                        limited=True)
        except BaseException as exc:  # handed to the caller's thread
            done["error"] = exc
        finally:
            with freeing:
                done["freed"] = True
                rc2.delete()

    def interrupt() -> None:  # until the worker has freed the solver
        while True:
            with freeing:
                if "freed" in done:
                    return
                rc2.interrupt()
            time.sleep(0.05)

    def stop() -> None:
        threading.Thread(target=interrupt, name="imli-rc2-interrupt", daemon=True).start()

    worker = threading.Thread(target=work, name="imli-rc2", daemon=True)
    try:
        # started inside the try: Ctrl-C while start() waited for the thread left the
        # solver running to its end, minutes later, with no one to stop it
        worker.start()
        worker.join(max(time_limit, 0.0))
    except BaseException:  # Ctrl-C in the caller: stop the solver too, then pass it on
        with freeing:
            done["cancelled"] = True
            running = "running" in done
        if running:
            stop()
        raise
    if worker.is_alive():
        stop()
        worker.join(_ABANDON_SECONDS)
    if worker.is_alive():
        return Solution(None, None, False, "timeout")
    if "error" in done:
        raise done["error"]
    return done["solution"]


def _outcome(rc2: RC2, model: list[int] | None, limited: bool) -> Solution:
    if model is None:
        # An interrupted SAT call has no core, which RC2 reads as unsatisfiable hard
        # clauses; and each compute_ (one per level of RC2Stratified) clears
        # rc2.interrupted, so an interrupt that struck before it is only seen in the
        # oracle's status: None after an interrupted call, False after a refutation.
        if limited and (rc2.interrupted or rc2.oracle.get_status() is None):
            return Solution(None, None, False, "timeout")
        raise SolverError("The hard constraints are unsatisfiable: no rule meets them.")
    return Solution(tuple(model), int(rc2.cost), True, "optimal")


def _solve_cpsat(
    wcnf: WCNF, time_limit: float | None, hint: Sequence[int] | None, config: SolverConfig
) -> Solution:
    try:
        from ortools.sat.python import cp_model
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "solver='cpsat' needs OR-Tools; install it with: "
            "pip install 'surrogate-rules[cpsat]'"
        ) from exc
    if time_limit is not None and time_limit <= 0:
        return Solution(None, None, False, "timeout")
    model = cp_model.CpModel()
    x = [None] + [model.NewBoolVar(f"v{v}") for v in range(1, wcnf.nv + 1)]

    def lit(l: int):
        return x[l] if l > 0 else x[-l].Not()

    for clause in wcnf.hard:
        model.AddBoolOr([lit(l) for l in clause])
    terms, coefs, constant = [], [], 0
    for clause, w in zip(wcnf.soft, wcnf.wght):
        if len(clause) == 1:
            l = clause[0]
            if l > 0:  # cost w when x is false: w - w*x
                constant += w
                terms.append(x[l])
                coefs.append(-w)
            else:
                terms.append(x[-l])
                coefs.append(w)
        else:
            relax = model.NewBoolVar("")
            model.AddBoolOr([lit(l) for l in clause] + [relax])
            terms.append(relax)
            coefs.append(w)
    model.Minimize(cp_model.LinearExpr.WeightedSum(terms, coefs) + constant)
    if hint:
        for l in hint:
            if 0 < abs(l) <= wcnf.nv:
                model.AddHint(x[abs(l)], l > 0)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = int(config.workers)
    solver.parameters.random_seed = int(config.seed)
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = float(time_limit)
    status = solver.Solve(model)
    if status == cp_model.INFEASIBLE:
        raise SolverError("The hard constraints are unsatisfiable: no rule meets them.")
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Solution(None, None, False, "timeout")
    values = [solver.BooleanValue(x[v]) for v in range(1, wcnf.nv + 1)]
    assignment = tuple(v if val else -v for v, val in zip(range(1, wcnf.nv + 1), values))
    cost = int(round(solver.ObjectiveValue()))
    optimal = status == cp_model.OPTIMAL
    return Solution(assignment, cost, optimal, "optimal" if optimal else "feasible")


def _parse_output(text: str, nv: int) -> tuple[str | None, tuple[int, ...] | None, int | None]:
    """Status, model and last cost from MaxSAT Evaluation output (old or 2020+ format)."""
    status, model, cost = None, None, None
    values: list[str] = []
    for line in text.splitlines():
        if line.startswith("s "):
            status = line[2:].strip()
        elif line.startswith("o "):
            cost = _integers(line, line.split()[1:2])[0]
        elif line.startswith("v "):
            values.append(line[2:].strip())
    if values:
        body = " ".join(values).split()
        if len(body) == 1 and set(body[0]) <= {"0", "1"} and len(body[0]) > 1:
            if len(body[0]) < nv:
                raise SolverError(f"The MaxSAT solver gave {len(body[0])} values for a query "
                                  f"of {nv} variables.")
            model = tuple(v if body[0][v - 1] == "1" else -v for v in range(1, nv + 1))
        else:
            model = tuple(t for t in _integers("v " + " ".join(values), body) if t != 0)
    return status, model, cost


def _integers(line: str, tokens: list[str]) -> list[int]:
    """``tokens`` (at least one) as ints, or a :class:`SolverError` quoting ``line``."""
    try:
        numbers = [int(t) for t in tokens]
    except ValueError:
        numbers = []
    if not numbers:
        raise SolverError(f"The MaxSAT solver printed a line that is not MaxSAT Evaluation "
                          f"output: {line.strip()[:100]!r}")
    return numbers


def _solve_external(wcnf: WCNF, command: Sequence[str], time_limit: float | None) -> Solution:
    if time_limit is not None and time_limit <= 0:
        return Solution(None, None, False, "timeout")
    with tempfile.TemporaryDirectory(prefix="imli-") as tmp:
        path = Path(tmp) / "query.wcnf"
        wcnf.to_file(str(path))
        args = [str(a).replace("{wcnf}", str(path)) for a in command]
        if not any("{wcnf}" in str(a) for a in command):
            args.append(str(path))
        try:
            # its own process group: a solver started through a wrapper (``sh -c``) is
            # stopped with the wrapper, whose children would otherwise hold the pipes open
            proc = subprocess.Popen(
                args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                start_new_session=True,
            )
        except OSError as exc:
            raise SolverError(f"Could not start the MaxSAT solver {args[0]!r}: {exc}") from exc
        timed_out = False
        try:
            out, err = proc.communicate(timeout=time_limit)
        except subprocess.TimeoutExpired:
            timed_out = True
            _signal_group(proc, signal.SIGTERM)
            try:
                out, err = proc.communicate(timeout=_GRACE_SECONDS)
            except subprocess.TimeoutExpired:
                _signal_group(proc, signal.SIGKILL)
                out, err = proc.communicate()
    status, model, cost = _parse_output(out or "", wcnf.nv)
    if status == "UNSATISFIABLE":
        raise SolverError("The hard constraints are unsatisfiable: no rule meets them.")
    if model is None:
        if timed_out:
            return Solution(None, None, False, "timeout")
        raise SolverError(
            f"The MaxSAT solver {args[0]!r} printed no model (exit code "
            f"{proc.returncode}); its error output ends with: {(err or '')[-300:]!r}"
        )
    optimal = status == "OPTIMUM FOUND" and not timed_out
    if cost is None:
        cost = _model_cost(wcnf, model)
    return Solution(model, cost, optimal, "optimal" if optimal else "feasible")


def _signal_group(proc: subprocess.Popen, sig: int) -> None:
    """Send ``sig`` to the solver's process group (it may have ended already)."""
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        pass


def _model_cost(wcnf: WCNF, model: Sequence[int]) -> int:
    truth = np.zeros(wcnf.nv + 1, dtype=bool)
    lits = np.asarray([l for l in model if 0 < l <= wcnf.nv], dtype=np.int64)
    truth[lits] = True
    cost = 0
    for clause, w in zip(wcnf.soft, wcnf.wght):
        if not any(truth[l] if l > 0 else not truth[-l] for l in clause):
            cost += w
    return cost


def solve(
    wcnf: WCNF,
    config: SolverConfig | None = None,
    time_limit: float | None = None,
    hint: Sequence[int] | None = None,
) -> Solution:
    """Solve a weighted MaxSAT query.

    Parameters
    ----------
    wcnf : WCNF
        The query (hard and soft clauses, integer weights ≥ 1).
    config : SolverConfig, optional
        Engine choice (default: RC2).
    time_limit : float, optional
        Seconds; ``None`` runs to optimality.
    hint : sequence of int, optional
        A known assignment (signed literals) to start from (CP-SAT only).

    Returns
    -------
    Solution
        The best model found, its cost, and whether it is proven optimal.

    Raises
    ------
    SolverError
        If the hard clauses are unsatisfiable or the engine fails.
    """
    config = config or SolverConfig()
    if not wcnf.soft:  # nothing to optimise (e.g. every row cancelled out): plain SAT
        with Solver(name=_SAT_SOLVER, bootstrap_with=wcnf.hard) as sat:
            if not sat.solve():
                raise SolverError("The hard constraints are unsatisfiable: no rule meets them.")
            model = sat.get_model() or []
        known = {abs(l) for l in model}
        model = list(model) + [-v for v in range(1, wcnf.nv + 1) if v not in known]
        return Solution(tuple(sorted(model, key=abs)), 0, True, "optimal")
    if config.command:
        return _solve_external(wcnf, config.command, time_limit)
    if config.engine == "rc2":
        return _solve_rc2(wcnf, False, time_limit)
    if config.engine == "rc2-stratified":
        return _solve_rc2(wcnf, True, time_limit)
    if config.engine == "cpsat":
        return _solve_cpsat(wcnf, time_limit, hint, config)
    raise ValueError(f"Unknown MaxSAT engine {config.engine!r}; choose one of {ENGINES}.")
