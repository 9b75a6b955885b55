"""The one owner of SWI-Prolog (through pyswip).

:class:`PrologEngine` is a process-wide singleton: SWI-Prolog is embedded once
per process. Every call goes through it, under one lock, with a time limit
(``call_with_time_limit/2``). Data cross the boundary as Prolog *strings* put
into term references (``PL_put_chars``) — never parsed as query text — and
the helper predicates of ``runtime.pl`` (package data, found with
:mod:`importlib.resources`) load each program with its data (one ground fact
per row, :func:`fold.facts.write_rows`) into a fresh temporary module that is
destroyed when the call ends. The program runs on each row fact itself: its
feature predicates are views that read the row's cells with ``arg/3``.
Results come back as small dataclasses; the labels of all rows as one
string, one character per row, from one query.
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
import time
from ctypes import byref, c_char_p, c_int, c_void_p
from dataclasses import dataclass
from importlib import resources

import numpy as np

from .errors import PrologEngineError, PrologTimeoutError
from .facts import RowFacts
from .program import PrologProgram
from .quoting import quote_atom

__all__ = ["PrologEngine", "Evaluation", "get_engine"]

_RUNTIME = "fold_runtime"
#: Characters of a Prolog error term an error message shows at the most.
_SHOWN_CHARS = 500

if threading.current_thread() is threading.main_thread():
    # Loading pyswip starts SWI-Prolog on the loading thread, which stays Prolog's main
    # thread: started from a thread that ends before the process (a server's first
    # request), SWI-Prolog warned at exit that it could not stop its threads.
    # pyswip encodes sys.argv as UTF-8 when it loads: an argument of bytes that are not
    # UTF-8 (a Latin-1 file name, read as surrogate escapes) would stop the import.
    argv = sys.argv
    sys.argv = [os.fsencode(arg).decode("utf-8", "replace") for arg in argv]
    try:
        import pyswip.core  # noqa: F401
    except (ImportError, OSError):  # pragma: no cover - said when the engine is made
        pass
    finally:
        sys.argv = argv


@dataclass(frozen=True)
class Evaluation:
    """Result of evaluating a program on every row.

    Parameters
    ----------
    decisions : ndarray of int64
        Per row, the index of its label in the program's decision list.
    seconds : float
        Wall time of the whole call, as seen from Python.
    load_seconds : float
        Time SWI-Prolog spent reading and asserting the program and the row
        facts.
    query_seconds : float
        Time of the one query that labels every row: one pass over the row
        facts, in order.
    """

    decisions: np.ndarray
    seconds: float
    load_seconds: float
    query_seconds: float

    @property
    def rows_per_second(self) -> float:
        """Rows labelled per second by the query (loading excluded)."""
        return len(self.decisions) / max(self.query_seconds, 1e-9)


def _spec(program: PrologProgram, rows: RowFacts) -> str:
    """The term ``spec(Row, Label, Classes, Columns)`` as quoted text."""
    classes = ", ".join(quote_atom(p) for p in program.class_predicates)
    return (f"spec({quote_atom(program.row_predicate)}, "
            f"{quote_atom(program.label_predicate)}, [{classes}], {rows.columns})")


def _shortened(text: str) -> str:
    """``text`` cut to :data:`_SHOWN_CHARS` characters, saying how long it was."""
    if len(text) <= _SHOWN_CHARS:
        return text
    return f"{text[:_SHOWN_CHARS]}... ({len(text)} characters)"


class _EngineOwner:
    """Frees the Prolog engine of the thread that made it when that thread ends.

    Kept in a :class:`threading.local`, which is cleared on the ending thread itself;
    anywhere else (interpreter shutdown) it leaves the engine to SWI-Prolog.
    """

    def __init__(self, destroy) -> None:
        self._destroy = destroy
        self._thread = threading.get_ident()

    def __del__(self) -> None:
        if threading.get_ident() == self._thread:
            self._destroy()


_thread_engine = threading.local()


class PrologEngine:
    """Owner of the embedded SWI-Prolog: one instance per process.

    Use :func:`get_engine` rather than the constructor.

    Raises
    ------
    PrologEngineError
        If pyswip or SWI-Prolog cannot be loaded.
    """

    _instance: PrologEngine | None = None
    _lock = threading.RLock()

    def __init__(self) -> None:
        try:
            from pyswip import core
        except (ImportError, OSError) as exc:  # pragma: no cover - depends on the machine
            raise PrologEngineError(
                f"cannot load SWI-Prolog through pyswip ({exc}); install SWI-Prolog "
                "(Debian: apt-get install swi-prolog-nox) and pyswip"
            ) from exc
        self._core = core
        # A thread that calls Prolog gets an engine of its own; pyswip never frees it
        # (about 0.1 MB per thread, and a warning at exit), so _call frees it when the
        # thread ends.
        self._destroy_engine = core._lib.PL_thread_destroy_engine
        self._destroy_engine.restype = c_int
        self._destroy_engine.argtypes = []
        self._clear_exception = core._lib.PL_clear_exception
        self._clear_exception.restype = None
        self._clear_exception.argtypes = []
        self._current_query = core._lib.PL_current_query
        self._current_query.restype = c_void_p
        self._current_query.argtypes = []
        self._printer = None  # fold_error_text/2, once runtime.pl is loaded
        with resources.as_file(resources.files("fold") / "runtime.pl") as path:
            self._call("system", "use_module", [("atom", str(path))], 0)
        self._printer = core.PL_predicate(b"fold_error_text", 2, _RUNTIME.encode())
        # Read at start-up, so that what the process loads later cannot change it.
        (text,) = self._call(_RUNTIME, "fold_reserved", [], 1)
        self._reserved = frozenset((name, int(arity)) for arity, _, name in
                                   (line.partition("\t") for line in text.splitlines()))

    @classmethod
    def instance(cls) -> PrologEngine:
        """The process-wide engine, created on first use."""
        with cls._lock:
            if cls._instance is None:
                cls._instance = cls()
            return cls._instance

    # -- the single gateway to pyswip -------------------------------------
    def _call(self, module: str, name: str, inputs: list, n_outputs: int) -> list:
        """Call ``module:name(inputs..., outputs...)`` once; return outputs as str.

        ``inputs`` items are ``("string", str)``, ``("atom", str)`` or
        ``("int", int)``. Outputs must be bound to strings or atoms.
        """
        core = self._core
        with self._lock:
            if core.PL_thread_self() == -1:
                # The owner first: an exception raised in this thread from another one
                # (PyThreadState_SetAsyncExc, a timeout library's) just after the attach
                # left the engine without one, never freed.
                _thread_engine.owner = _EngineOwner(self._destroy_engine)
                if core.PL_thread_attach_engine(None) < 0:
                    raise PrologEngineError("SWI-Prolog could not start an engine for "
                                            "this thread")
            # Texts read out of Prolog (PL_get_chars) sit in the thread's string buffers,
            # which only a foreign predicate's return frees: an embedding must free them.
            with core.PL_STRINGS_MARK():
                return self._call_attached(module, name, inputs, n_outputs)

    def _call_attached(self, module: str, name: str, inputs: list, n_outputs: int) -> list:
        """:meth:`_call` on a thread with a Prolog engine, under the lock."""
        core = self._core
        # This thread's queries only: pyswip's flag says whether any thread has one open
        # (a query of the user's own in another thread made every call here fail).
        if self._current_query():
            raise PrologEngineError("a pyswip query is open on this thread; close it first")
        frame = core.PL_open_foreign_frame()
        try:
            args = core.PL_new_term_refs(len(inputs) + n_outputs)
            for i, (kind, value) in enumerate(inputs):
                ref = args + i
                if kind == "int":
                    core.PL_put_integer(ref, int(value))
                else:
                    flags = (core.PL_STRING if kind == "string" else core.PL_ATOM)
                    # ASCII text goes as Latin-1: SWI-Prolog copies it without decoding.
                    if value.isascii():
                        data = value.encode("ascii")
                        flags |= core.REP_ISO_LATIN_1
                    else:
                        data = value.encode("utf-8")
                        flags |= core.REP_UTF8
                    core.PL_put_chars(ref, flags, len(data), data)
            pred = core.PL_predicate(name.encode(), len(inputs) + n_outputs,
                                     module.encode())
            # One C call opens, runs and closes the query: a Ctrl-C (or any exception a
            # signal handler raises) between separate open, next-solution and cut calls
            # left a query open inside the frame discarded below, and SWI-Prolog aborted
            # the process at the next call ("No foreign environment").
            ok = core.PL_call_predicate(
                None, core.PL_Q_NODEBUG | core.PL_Q_PASS_EXCEPTION, pred, args)
            if not ok:
                exception = core.PL_exception(0)
                if exception:
                    raise PrologEngineError(f"{module}:{name} raised an exception: "
                                            f"{self._exception_text(exception)}")
                raise PrologEngineError(f"{module}:{name} failed")
            outputs = []
            for i in range(len(inputs), len(inputs) + n_outputs):
                text = c_char_p()
                flags = core.CVT_STRING | core.CVT_ATOM | core.REP_UTF8
                if not core.PL_get_chars(args + i, byref(text), flags):
                    raise PrologEngineError(f"{module}:{name} returned a non-text")
                outputs.append(text.value.decode("utf-8"))
            return outputs
        finally:
            self._clear_exception()
            core.PL_discard_foreign_frame(frame)

    def _exception_text(self, exception: int) -> str:
        """The pending exception ``exception`` (a term reference), printed by Prolog as
        one line, as an error status is (``fold_error_text/2`` of ``runtime.pl``; by
        ``writeq`` while runtime.pl is not loaded, as when its loading fails), and cut
        to :data:`_SHOWN_CHARS`; clears it."""
        core = self._core
        args = core.PL_new_term_refs(2)
        core.PL_put_term(args, exception)
        self._clear_exception()  # before Prolog runs again
        text = c_char_p()
        if self._printer is None:
            printed = core.PL_get_chars(args, byref(text), core.CVT_WRITEQ | core.REP_UTF8)
        else:
            printed = (core.PL_call_predicate(None,
                                              core.PL_Q_NODEBUG | core.PL_Q_CATCH_EXCEPTION,
                                              self._printer, args)
                       and core.PL_get_chars(args + 1, byref(text),
                                             core.CVT_STRING | core.REP_UTF8))
        if not printed:
            return "(a term that could not be printed)"
        return _shortened(text.value.decode("utf-8"))

    @staticmethod
    def _check(status: str, what: str) -> None:
        if status == "ok":
            return
        if status == "timeout":
            raise PrologTimeoutError(
                f"SWI-Prolog ran past its time limit while {what}; "
                "raise prolog_timeout or pass fewer rows")
        raise PrologEngineError(f"SWI-Prolog failed while {what}: {_shortened(status)}")

    # -- public operations ------------------------------------------------
    def evaluate(self, program: PrologProgram, rows: RowFacts,
                 timeout: float) -> Evaluation:
        """Label every row with one query.

        Parameters
        ----------
        program : PrologProgram
            The program to run, unchanged.
        rows : RowFacts
            The rows (see :func:`fold.facts.write_rows`); decisions come back
            in their order.
        timeout : float
            Seconds.

        Returns
        -------
        Evaluation
            Each row's decision and the time the call took.

        Raises
        ------
        PrologTimeoutError
            If the call runs past ``timeout``.
        PrologEngineError
            If SWI-Prolog cannot load the program or fails while running it.
        """
        start = time.perf_counter()
        status, codes, times = self._call(
            _RUNTIME, "fold_evaluate",
            [("string", program.text), ("string", rows.text), ("string", _spec(program, rows)),
             ("int", max(1, int(timeout * 1000)))], 3)
        self._check(status, "evaluating the program")
        load_seconds, query_seconds = (float(t) for t in times.split())
        decisions = np.frombuffer(codes.encode("utf-32-le"), dtype=np.uint32)
        if len(decisions) != rows.n_rows:
            raise PrologEngineError(
                f"SWI-Prolog returned {len(decisions)} decisions for {rows.n_rows} rows")
        return Evaluation(decisions.astype(np.int64) - 65, time.perf_counter() - start,
                          load_seconds, query_seconds)

    def justify(self, program: PrologProgram, rows: RowFacts, row_id: int,
                timeout: float) -> str:
        """The Prolog proof of ``label(row_id, Class)``, as indented text.

        Parameters
        ----------
        program : PrologProgram
            The program to run, unchanged.
        rows : RowFacts
            The rows (see :func:`fold.facts.write_rows`).
        row_id : int
            The row to justify, a row of ``rows`` (``rows.first_id + i``).
        timeout : float
            Seconds.

        Returns
        -------
        str
            The goals that hold and, for each negated or failed goal, where each of its
            clauses fails, as indented text.

        Raises
        ------
        PrologTimeoutError
            If the call runs past ``timeout``.
        PrologEngineError
            If ``row_id`` is not among ``rows``, or SWI-Prolog fails.
        """
        nth = row_id - rows.first_id
        if not 0 <= nth < rows.n_rows:
            raise PrologEngineError(
                f"row {row_id} is not among the rows given ({rows.first_id} .. "
                f"{rows.first_id + rows.n_rows - 1})")
        status, text = self._call(
            _RUNTIME, "fold_justify",
            [("string", program.text), ("string", rows.text), ("string", _spec(program, rows)),
             ("int", nth), ("int", row_id), ("int", max(1, int(timeout * 1000)))], 2)
        self._check(status, "justifying a prediction")
        return text

    def reserved_predicates(self) -> frozenset:
        """``(name, arity)`` of every predicate a program must not define.

        SWI-Prolog's built-ins (module ``system``) and the hooks of module
        ``user`` (``portray/1``, ``term_expansion/2``, ...; ``fold_reserved/1``
        in ``runtime.pl``), as the engine found them when it started: plain
        ``swipl`` loads the program into ``user``, where such a clause would
        change how Prolog prints, loads or reports.

        Returns
        -------
        frozenset of tuple of (str, int)
            The reserved ``(name, arity)`` pairs.
        """
        return self._reserved


# A process forked while another thread was inside a Prolog call inherited the lock held,
# by a thread it does not have, and pyswip's query half done: its first call waited for
# ever. The fork now waits for the call to end.
os.register_at_fork(before=PrologEngine._lock.acquire,
                    after_in_parent=PrologEngine._lock.release,
                    after_in_child=PrologEngine._lock.release)


def _leave_prolog_to_the_parent() -> None:
    """Drop pyswip's exit handler (``PL_cleanup``) in a forked child.

    The child's SWI-Prolog is a copy of the parent's: halting it there waited a second for
    the parent's Prolog threads, which the child does not have, then warned "Failed to stop
    Prolog threads", and deleted the parent's Prolog temporary files. A child of
    multiprocessing never runs it either (it leaves with ``os._exit``).
    """
    cleanup = getattr(sys.modules.get("pyswip.core"), "cleanupProlog", None)
    if cleanup is not None:
        atexit.unregister(cleanup)


os.register_at_fork(after_in_child=_leave_prolog_to_the_parent)


def get_engine() -> PrologEngine:
    """The process-wide :class:`PrologEngine`.

    Returns
    -------
    PrologEngine
        The one engine of this process, started on first use.
    """
    return PrologEngine.instance()
