"""Checkpoints of LIME explanations on disk: one ``.npz`` file per finished batch.

``cache_dir/<key>/`` holds the batches of one run, where the key is a SHA-256 digest of
everything that decides the explanations: the training data, the rows and their ids, the
labels explained, the categorical columns, the discretizer's bin edges, every
result-deciding LIME parameter (engine and mode included), the lime version, a
caller-given model fingerprint, and a digest of the black box's probabilities on a few
probe rows (a safety net when no fingerprint is given or the model changed behind the same
name). Execution settings (``n_jobs``, ``batch_size``, memory budget, scheduler) are not
part of it: results do not depend on them, so a run may resume with other settings.

Every batch is written to a temporary file in the same directory, flushed, fsynced and
renamed over its final name (``os.replace`` is atomic), so an interrupted run leaves only
whole batch files behind; the next run loads them and explains only the missing rows.
"""

from __future__ import annotations

import hashlib
import json
import warnings
import zipfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import numpy as np

from adapters import InputError
from explain.atomic import atomic_write
from explain.lime_fit import LocalFits

__all__ = ["CACHE_VERSION", "cache_key", "check_cache_dir", "BatchStore", "CachedRows"]

CACHE_VERSION = 2  # 2: the key holds the discretizer's edges
_FIELDS = ("positions", "features", "weights", "intercepts", "scores", "labels")


def _update(digest, name: str, array) -> None:
    array = np.ascontiguousarray(array)
    if array.dtype.hasobject:  # their bytes are addresses: hash the values' text
        array = array.astype(str)
    digest.update(f"{name}:{array.dtype.str}:{array.shape};".encode())
    digest.update(array.tobytes())


def _plain(value):
    """numpy scalars (a config's ``np.int64(7)``) as the Python numbers they hold."""
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def cache_key(*, training_data, rows, row_ids, labels, categorical_features, training_labels,
              config_items: dict, model_fingerprint, probe_probabilities,
              edges: dict | None = None) -> str:
    """The cache directory name of one run (hex SHA-256).

    Parameters
    ----------
    training_data, rows : ndarray
        Float matrices as explained.
    row_ids, labels : ndarray of int
        Row ids (they seed each row) and the class explained per row.
    categorical_features : sequence of int
        Categorical column indices.
    training_labels : ndarray or None
        Used by the entropy discretizer.
    config_items : dict
        The result-deciding LIME parameters (JSON-serializable).
    model_fingerprint : str or None
        The caller's name for the black box.
    probe_probabilities : ndarray
        The black box's output on the probe rows.
    edges : dict, optional
        The discretizer's bin edges per feature index: they decide the explanations, so a
        change in how bins are computed never reuses explanations made with other bins.

    Returns
    -------
    str
        64 hex digits.
    """
    digest = hashlib.sha256()
    header = {
        "cache_version": CACHE_VERSION,
        "lime_version": metadata.version("lime"),
        "config": config_items,
        "model_fingerprint": model_fingerprint or "",
        "categorical_features": [int(c) for c in categorical_features],
    }
    digest.update(json.dumps(header, sort_keys=True, default=_plain).encode())
    _update(digest, "training_data", np.asarray(training_data, dtype=np.float64))
    _update(digest, "rows", np.asarray(rows, dtype=np.float64))
    _update(digest, "row_ids", np.asarray(row_ids, dtype=np.int64))
    _update(digest, "labels", np.asarray(labels, dtype=np.int64))
    if training_labels is not None:
        _update(digest, "training_labels", np.asarray(training_labels))
    _update(digest, "probe", np.round(np.asarray(probe_probabilities, dtype=np.float64), 10))
    for feature, cuts in sorted((edges or {}).items()):
        _update(digest, f"edges{int(feature)}", np.asarray(cuts, dtype=np.float64))
    return digest.hexdigest()


@dataclass(frozen=True)
class CachedRows:
    """Explanations found on disk.

    Parameters
    ----------
    done : ndarray of bool of shape (n_rows,)
        Whether row position ``i`` was loaded.
    fits : LocalFits
        The loaded rows' local models (padding elsewhere).
    labels : ndarray of int64 of shape (n_rows,)
        The class each loaded row was explained toward (0 elsewhere).
    """

    done: np.ndarray
    fits: LocalFits
    labels: np.ndarray


def _root(root) -> Path:
    if not str(root).strip():  # Path("") is the working directory
        raise InputError("the LIME cache directory is empty text; give a directory, "
                         "or None for no cache")
    return Path(root).expanduser()


def check_cache_dir(root) -> None:
    """Refuse a LIME cache directory that is not one (a file) or cannot be created.

    The directory is created when missing. One that refuses new files (read-only) is
    taken: the explanations it holds are read, and a run warns and goes on without writing.

    Parameters
    ----------
    root : path-like
        The cache directory.

    Raises
    ------
    adapters.InputError
        Naming the directory and why, with the options to choose another or none.
    """
    try:
        _root(root).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(f"cannot use {str(root)!r} as the LIME cache directory "
                         f"({error.strerror or error}); choose another cache directory "
                         f"(--cache-dir) or run without one (--no-cache)") from None


class BatchStore:
    """The batch files of one cache key.

    Parameters
    ----------
    root : path
        The cache directory (created if missing).
    key : str
        From :func:`cache_key`.
    meta : dict, optional
        Written once to ``meta.json`` for people browsing the cache.

    Raises
    ------
    OSError
        When the key's directory cannot be made (a full disk, a read-only cache):
        :func:`check_cache_dir` finds an unusable ``root`` before a run. (``meta.json``
        that cannot be written is left out: the batches there are still read.)
    """

    def __init__(self, root, key: str, meta: dict | None = None):
        self.directory = _root(root) / key
        meta_path = self.directory / "meta.json"
        self.directory.mkdir(parents=True, exist_ok=True)
        if meta is not None and not meta_path.exists():
            text = json.dumps(meta, indent=2, sort_keys=True, default=str).encode()
            try:
                atomic_write(meta_path, lambda handle: handle.write(text))
            except OSError:
                pass  # for people browsing the cache; the checkpoints say when writes fail

    def batch_files(self) -> list[Path]:
        """The finished batch files, sorted by name.

        Returns
        -------
        list of pathlib.Path
            The ``batch-*.npz`` files of this key.
        """
        return sorted(self.directory.glob("batch-*.npz"))

    def save(self, positions: np.ndarray, fits: LocalFits, labels: np.ndarray) -> Path:
        """Persist one finished batch atomically.

        Parameters
        ----------
        positions : ndarray of int
            The batch's row positions.
        fits : LocalFits
            Their local models, in the same order.
        labels : ndarray of int
            The class each row was explained toward.

        Returns
        -------
        pathlib.Path
            The file written.
        """
        positions = np.asarray(positions, dtype=np.int64)
        path = self.directory / f"batch-{positions[0]:09d}-{len(positions):06d}.npz"
        arrays = dict(positions=positions, features=fits.features, weights=fits.weights,
                      intercepts=fits.intercepts, scores=fits.scores,
                      labels=np.asarray(labels, dtype=np.int64))
        atomic_write(path, lambda handle: np.savez(handle, **arrays))
        return path

    def load(self, n_rows: int, top_k: int, n_features: int) -> CachedRows:
        """Read every batch file.

        Unreadable or inconsistent files are skipped with a warning and removed (their
        rows are explained again, and saved anew): files are written by a rename, so a
        damaged one was damaged after it was written.

        Parameters
        ----------
        n_rows : int
            Rows of the run.
        top_k : int
            Features per explanation.
        n_features : int
            Features an explanation may name.

        Returns
        -------
        CachedRows
            What the files held.
        """
        done = np.zeros(n_rows, dtype=bool)
        fits = LocalFits(np.full((n_rows, top_k), -1, dtype=np.intp), np.zeros((n_rows, top_k)),
                         np.zeros(n_rows), np.zeros(n_rows))
        labels = np.zeros(n_rows, dtype=np.int64)
        for path in self.batch_files():
            try:
                with np.load(path) as data:
                    parts = {name: data[name] for name in _FIELDS}
            except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:
                _discard(path, f"unreadable ({error})")
                continue
            if not _consistent(parts, n_rows, top_k, n_features):
                _discard(path, "inconsistent")
                continue
            pos = parts["positions"]
            fits.features[pos], fits.weights[pos] = parts["features"], parts["weights"]
            fits.intercepts[pos], fits.scores[pos] = parts["intercepts"], parts["scores"]
            labels[pos] = parts["labels"]
            done[pos] = True
        return CachedRows(done, fits, labels)


def _discard(path: Path, why: str) -> None:
    """Warn of a damaged batch file and remove it, so later runs neither warn again nor
    skip its rows' fresh results."""
    try:
        path.unlink(missing_ok=True)
        done = "removed it"
    except OSError as error:
        done = f"could not remove it: {error.strerror or error}"
    warnings.warn(f"ignoring {why} LIME cache file {path} ({done}; its rows are explained "
                  "again)", RuntimeWarning, stacklevel=3)


def _consistent(parts: dict, n_rows: int, top_k: int, n_features: int) -> bool:
    """Whether a batch file's arrays are what :meth:`BatchStore.save` writes for a run of
    ``n_rows`` rows, ``top_k`` features per row and ``n_features`` columns."""
    pos, features = parts["positions"], parts["features"]
    if pos.ndim != 1 or pos.dtype.kind not in "iu" or features.dtype.kind not in "iu":
        return False
    m = len(pos)
    if (m == 0 or features.shape != (m, top_k) or parts["weights"].shape != (m, top_k)
            or any(parts[f].shape != (m,) for f in ("intercepts", "scores", "labels"))
            or any(parts[f].dtype.kind != "f" for f in ("weights", "intercepts", "scores"))):
        return False
    return bool(pos.min() >= 0 and pos.max() < n_rows and features.min() >= -1
                and features.max() < n_features
                and all(np.isfinite(parts[f]).all() for f in ("weights", "intercepts",
                                                               "scores")))
