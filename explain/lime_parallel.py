"""Running LIME batches in parallel: joblib locally, dask.distributed on a cluster.

The same task function runs everywhere. With a Dask ``Client`` (or a scheduler address) the
engine and the black box are scattered to the workers once, under keys unique to this run,
instead of being sent with every batch. Content-hashed keys (what joblib's ``dask`` backend
scatters under) are shared by every run that scatters an equal object, and one run
releasing them could drop them under another: "lost dependencies". Dask is optional: it is
imported only when asked for, and its absence raises an ImportError naming the ``dask``
extra.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
import time
from typing import Callable, Iterator

import joblib
import numpy as np
from joblib.externals.loky import get_reusable_executor

from explain.lime_fit import LocalFits
from adapters import InputError

__all__ = ["run_batches", "dask_client", "n_workers", "stop_idle_workers", "DASK_EXTRA_HINT"]

#: What starting local worker processes costs, in seconds (measured on 2 cores: loky
#: starts them, each imports numpy, lime and the black box's library and unpickles the
#: black box; BENCHMARKS.md, "LIME in one process or in workers"). Workers are started
#: only when the batches left would take longer than that to run in this process, less
#: what the workers would take.
WORKER_START_SECONDS = 3.0

DASK_EXTRA_HINT = ("running LIME on a Dask cluster needs dask.distributed: "
                   "pip install 'surrogate-rules[dask]'")


def _task(engine, predict_fn, index, rows, seeds, labels):
    return index, engine.explain(rows, seeds, labels, predict_fn)


def _import_distributed():
    try:
        import distributed
    except ImportError as error:
        raise ImportError(DASK_EXTRA_HINT) from error
    return distributed


@contextlib.contextmanager
def dask_client(client=None, scheduler: str | None = None):
    """Open the Dask client to run on (a context manager).

    Parameters
    ----------
    client : dask.distributed.Client, optional
        A client of the caller's, used as it is.
    scheduler : str, optional
        The address of a scheduler to open a client on, when no ``client`` is given.

    Yields
    ------
    dask.distributed.Client or None
        ``client`` itself, a client opened on ``scheduler`` (and closed on exit), or
        ``None`` for a local run.

    Raises
    ------
    ImportError
        If ``scheduler`` is given and the ``dask`` extra is not installed.
    adapters.InputError
        If no Dask scheduler answers at ``scheduler``.
    """
    if client is not None or scheduler is None:
        yield client
        return
    distributed = _import_distributed()
    try:
        _check_reachable(distributed, scheduler)
        owned = distributed.Client(scheduler, set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as err:
        reason = " ".join(str(err).split()) or type(err).__name__
        raise InputError(f"could not connect to the Dask scheduler {scheduler!r} ({reason}); "
                         f"check the address (e.g. tcp://host:8786) and that it is "
                         f"running") from None
    try:
        yield owned
    finally:
        owned.close()


#: Seconds a TCP scheduler address has to send its first bytes (a Dask scheduler greets a
#: new connection at once).
HANDSHAKE_WAIT = 10.0


def _check_reachable(distributed, scheduler: str) -> None:
    """Raise OSError when nothing listens at a TCP ``scheduler`` address, or something
    that is not a Dask scheduler does.

    A ``Client`` that fails to connect keeps trying to close itself when collected (a
    minute, then a printed traceback), and one connected to another service (a web
    server) waits for its handshake for ever, so such addresses are refused first.
    """
    scheme, location = distributed.comm.parse_address(scheduler)
    if scheme == "inproc":
        _check_in_process(location)
        return
    try:
        host, port = distributed.comm.get_address_host_port(scheduler)
    except ValueError as err:
        if "missing port" in str(err):
            raise  # no address at all: a Client made of it would hang a minute on exit
        return  # another scheme: the Client says what is wrong with it
    except NotImplementedError:
        return
    with socket.create_connection((host, port), timeout=10) as probe:
        if distributed.comm.parse_address(scheduler)[0] != "tcp":
            return  # TLS: the client speaks first
        probe.settimeout(HANDSHAKE_WAIT)
        greeting = b""
        try:
            while len(greeting) < 16 and (part := probe.recv(16 - len(greeting))):
                greeting += part
        except TimeoutError:
            raise OSError(f"something listens there but sent no Dask handshake within "
                          f"{HANDSHAKE_WAIT:g} s: not a Dask scheduler") from None
        if not greeting:
            raise OSError("something listens there but closed the connection at once: "
                          "not a Dask scheduler")
        # a Dask message starts with its size and its number of frames (uint64 each)
        size, frames = struct.unpack("<QQ", greeting.ljust(16, b"\xff"))
        if not (size < 2**24 and 0 < frames < 2**10):
            raise OSError(f"something listens there but speaks another protocol (it sent "
                          f"{greeting[:16]!r}): not a Dask scheduler")


def _check_in_process(location: str) -> None:
    """Raise OSError unless a scheduler of this process listens at ``inproc://location``
    (a Client given another would hang a minute on exit, then print a traceback)."""
    from distributed.comm.inproc import global_manager

    try:
        listening = global_manager.get_listener_for(location) is not None
    except ValueError:
        listening = False
    if not listening:
        raise OSError("no scheduler of this process listens there; an inproc:// address "
                      "works only inside the Python process that started its cluster")


def n_workers(n_jobs: int, client=None) -> int:
    """How many batches can run at once (for sizing batches).

    Parameters
    ----------
    n_jobs : int
        Joblib's ``n_jobs`` for a local run.
    client : dask.distributed.Client, optional
        The cluster to run on; its worker threads count instead.

    Returns
    -------
    int
        At least 1.
    """
    if client is not None:
        return max(1, sum(client.nthreads().values()))
    return max(1, joblib.effective_n_jobs(n_jobs))


def run_batches(engine, predict_fn: Callable, batches: list, n_jobs: int = -1,
                client=None) -> Iterator[tuple[int, LocalFits]]:
    """Explain batches, yielding ``(batch_index, LocalFits)`` as each one finishes.

    Parameters
    ----------
    engine : BatchedLime or ReferenceLime
        What explains each batch.
    predict_fn : callable
        The black box's probabilities, as :meth:`BatchedLime.explain` takes it.
    batches : list of (rows, seeds, labels)
        The arguments of each batch's ``engine.explain``.
    n_jobs : int, default=-1
        Joblib's ``n_jobs`` for a local run; 1 runs in this process, in order. Otherwise
        the first batch runs in this process, and the others in worker processes only
        when, by its time, they would take longer here than starting the workers costs
        (:data:`WORKER_START_SECONDS`) plus their time there.
    client : dask.distributed.Client, optional
        Run on this cluster, on all its worker threads.

    Yields
    ------
    (int, LocalFits)
        In completion order (any order when parallel).
    """
    if client is not None:
        yield from _run_on_cluster(engine, predict_fn, batches, client)
        return
    if n_jobs == 1 or len(batches) <= 1:
        for i, (rows, seeds, labels) in enumerate(batches):
            yield _task(engine, predict_fn, i, rows, seeds, labels)
        return
    # the first batch here: its time says whether the rest is worth starting workers for
    started = time.perf_counter()
    first = _task(engine, predict_fn, 0, *batches[0])
    per_row = (time.perf_counter() - started) / max(1, len(batches[0][0]))
    yield first
    rest = list(enumerate(batches))[1:]
    workers = min(n_workers(n_jobs), len(rest))
    left = per_row * sum(len(rows) for _, (rows, _, _) in rest)
    if workers < 2 or left * (1 - 1 / workers) <= WORKER_START_SECONDS:
        for i, (rows, seeds, labels) in rest:
            yield _task(engine, predict_fn, i, rows, seeds, labels)
        return
    tasks = (joblib.delayed(_task)(engine, predict_fn, i, np.asarray(rows), seeds, labels)
             for i, (rows, seeds, labels) in rest)
    with _using_workers():
        yield from joblib.Parallel(n_jobs=n_jobs, return_as="generator_unordered")(tasks)


#: Calls of :func:`run_batches` using local workers now, in all threads, and its lock.
_USERS = [0]
_USERS_LOCK = threading.Lock()


@contextlib.contextmanager
def _using_workers():
    """Count a call using joblib's workers; the last to end stops them
    (:func:`stop_idle_workers`). The workers are shared by the whole process: stopping them
    under another thread's call hung it; a call that starts while they stop waits."""
    with _USERS_LOCK:
        _USERS[0] += 1
    try:
        yield
    finally:
        with _USERS_LOCK:
            _USERS[0] -= 1
            if _USERS[0] == 0:
                stop_idle_workers()


def stop_idle_workers() -> None:
    """Stop the worker processes joblib keeps for its next call.

    They are loky's reusable executor, idle for up to 300 s. Each holds its imports, the
    black box and its last batch (250-300 MB on a table of 200,000 rows), which would
    otherwise stay through the learners' fits; their start is counted again by the next
    call that wants them (:data:`WORKER_START_SECONDS`).
    """
    get_reusable_executor().shutdown(wait=True)


def _run_on_cluster(engine, predict_fn, batches, client):
    distributed = _import_distributed()
    if not batches:
        return
    shared = client.scatter([engine, predict_fn], broadcast=True, hash=False)
    futures = [client.submit(_task, *shared, i, np.asarray(rows), seeds, labels, pure=False)
               for i, (rows, seeds, labels) in enumerate(batches)]
    try:
        # the loop of this client: it need not be the default one (the CLI opens its own)
        for future in distributed.as_completed(futures, loop=client.loop):
            yield future.result()
    finally:
        client.cancel(futures + shared)
