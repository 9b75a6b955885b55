"""The black-box protocol the pipeline uses, and the checks every adapter applies."""
from __future__ import annotations

import operator
import os
import warnings
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np
import pandas as pd

from .columns import as_strings
from .encoding import TableEncoder, check_encoder
from .errors import InputError, listing, quoted

SUM_TOLERANCE = 1e-3
"""How far a row of probabilities may sum from 1."""


@runtime_checkable
class BlackBox(Protocol):
    """What the pipeline needs from a model it explains.

    Attributes
    ----------
    kind : str
        ``"xgboost"``, ``"sklearn"``, ``"callable"`` or a name the user gave.
    classes_ : numpy.ndarray of int
        The labels ``0 .. k-1``; column ``j`` of the probabilities is ``classes_[j]``.
    """

    kind: str
    classes_: np.ndarray

    def predict_proba(self, X: pd.DataFrame) -> np.ndarray:
        """Class probabilities of the rows of ``X``.

        Parameters
        ----------
        X : pandas.DataFrame
            Rows with the dataset's columns.

        Returns
        -------
        numpy.ndarray of float64 of shape (n_samples, len(classes_))
            Checked by :func:`check_probabilities`.
        """

    def predict(self, X: pd.DataFrame) -> np.ndarray:
        """Labels of the rows of ``X``.

        Parameters
        ----------
        X : pandas.DataFrame
            Rows with the dataset's columns.

        Returns
        -------
        numpy.ndarray of int of shape (n_samples,)
            Labels from ``classes_``.
        """

    def predict_proba_encoded(self, Z: np.ndarray) -> np.ndarray:
        """Class probabilities of rows in the :class:`adapters.TableEncoder` layout.

        This is the LIME hot path: no DataFrame is built.

        Parameters
        ----------
        Z : numpy.ndarray of shape (n_samples, n_encoded)
            Encoded rows.

        Returns
        -------
        numpy.ndarray of float64 of shape (n_samples, len(classes_))
            Checked by :func:`check_probabilities`.
        """

    def save(self, directory: str | os.PathLike) -> Path:
        """Write the model into ``directory``.

        Parameters
        ----------
        directory : path-like
            An existing directory.

        Returns
        -------
        pathlib.Path
            The file written.
        """


def check_probabilities(P, n_rows, n_classes, source="the black box"):
    """Check a model's class probabilities; return them as float64 ``(n_rows, n_classes)``.

    A 1-D output of length ``n_rows`` (or one column, as a Keras sigmoid output) is
    accepted when ``n_classes == 2`` and read as the probability of class 1
    (``[1 - p, p]``), as XGBoost's binary objective and many hand-written models return it.

    Parameters
    ----------
    P : array-like
        The model's output.
    n_rows, n_classes : int
        The expected shape.
    source : str
        Who produced ``P``, for the message.

    Returns
    -------
    numpy.ndarray of float64

    Raises
    ------
    InputError
        Not numeric, the wrong shape, NaN or inf, values outside [0, 1], or rows that do
        not sum to 1 (within :data:`SUM_TOLERANCE`).

    Examples
    --------
    >>> check_probabilities([0.25, 1.0], 2, 2).tolist()
    [[0.75, 0.25], [0.0, 1.0]]
    >>> check_probabilities([[0.25], [1.0]], 2, 2).tolist()
    [[0.75, 0.25], [0.0, 1.0]]
    """
    try:
        P = np.asarray(P, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError(f"{source} returned non-numeric output; it must return class "
                         f"probabilities") from None
    if P.shape in ((n_rows,), (n_rows, 1)) and n_classes == 2:
        _check_range(P, source)  # as returned, before 1 - p
        P = np.column_stack([1.0 - P.ravel(), P.ravel()])
    if P.shape != (n_rows, n_classes):
        raise InputError(f"{source} returned an array of shape {P.shape} for {n_rows} rows; "
                         f"expected ({n_rows}, {n_classes}), one probability per class")
    if not np.isfinite(P).all():
        rows = int((~np.isfinite(P)).any(axis=1).sum())
        raise InputError(f"{source} returned NaN or infinite probabilities for {rows} of "
                         f"{n_rows} rows; it must return finite class probabilities")
    _check_range(P, source)
    sums = P.sum(axis=1)
    if P.size and np.abs(sums - 1).max() > SUM_TOLERANCE:
        raise InputError(f"{source} returned rows summing to {sums.min():.4g} .. "
                         f"{sums.max():.4g}; each row must sum to 1 (class probabilities)")
    return np.clip(P, 0.0, 1.0)


def _check_range(P, source):
    known = P[np.isfinite(P)]  # NaN and inf have their own message
    if known.size and (known.min() < -1e-9 or known.max() > 1 + 1e-9):
        raise InputError(f"{source} returned values in [{known.min():.4g}, "
                         f"{known.max():.4g}], outside [0, 1]; return probabilities, not "
                         f"scores or logits")


def scores_as_probabilities(scores):
    """A model's scores of its classes as probabilities, the largest still the largest: the
    logistic function of one score per row (that of class 1), the softmax of several.

    Examples
    --------
    >>> scores_as_probabilities(np.array([0.0, 800.0])).tolist()
    [0.5, 1.0]
    >>> scores_as_probabilities(np.array([[0.0, 0.0], [1.0, 1.0]])).tolist()
    [[0.5, 0.5], [0.5, 0.5]]
    """
    scores = np.asarray(scores, dtype=np.float64)
    if scores.ndim == 1:
        return np.exp(-np.logaddexp(0.0, -scores))  # 1 / (1 + e^-s), without overflow
    exp = np.exp(scores - scores.max(axis=1, keepdims=True))
    return exp / exp.sum(axis=1, keepdims=True)


class EncodedBlackBox:
    """Shared behaviour of the adapters: checks, labels from probabilities, decoding.

    Subclasses set ``kind`` and implement ``_proba_frame(X)`` (a DataFrame in the
    encoder's column order) and ``_proba_matrix(Z)`` (rows in the encoder layout), and
    ``save``.

    Parameters
    ----------
    encoder : TableEncoder
        Fitted on the dataset's features.
    n_classes : int
    """

    kind = "black box"

    def __init__(self, encoder, n_classes):
        check_encoder(encoder)
        self.encoder = encoder
        self.classes_ = np.arange(int(n_classes))

    def predict_proba(self, X):
        """Class probabilities for the rows of ``X``.

        Parameters
        ----------
        X : pandas.DataFrame
            The encoder's columns (any order).

        Returns
        -------
        numpy.ndarray of float64, shape (n_rows, n_classes)
        """
        X = self.encoder.select(X)
        if len(X) == 0:
            return np.empty((0, len(self.classes_)))
        # a copy: the caller's frame (the dataset's rows) must not change when a user's
        # function writes to the frame it is given
        return self._checked(self._proba_frame(X.copy()), len(X))

    def predict(self, X):
        """Labels for the rows of ``X``: the class with the highest probability.

        Parameters
        ----------
        X : pandas.DataFrame

        Returns
        -------
        numpy.ndarray of int
        """
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]

    def predict_proba_encoded(self, Z):
        """Class probabilities for rows in the :class:`TableEncoder` layout.

        Parameters
        ----------
        Z : array-like, shape (n_rows, n_features)

        Returns
        -------
        numpy.ndarray of float64, shape (n_rows, n_classes)
        """
        Z = self.encoder.check_matrix(Z)
        if len(Z) == 0:
            return np.empty((0, len(self.classes_)))
        return self._checked(self._proba_matrix(Z), len(Z))

    def _proba_frame(self, X):
        raise NotImplementedError

    def _proba_matrix(self, Z):
        return self._proba_frame(self.encoder.inverse_transform(Z))

    def _checked(self, P, n_rows):
        return check_probabilities(P, n_rows, len(self.classes_), f"the {self.kind} model")

    def __repr__(self):
        return (f"<{type(self).__name__} kind={self.kind!r} classes={len(self.classes_)} "
                f"features={self.encoder.n_features_in_}>")


class RelabeledBlackBox:
    """A black box whose classes are renumbered or merged: the model's class ``i`` is
    label ``codes[i]``, and the probabilities of classes given the same label add up.

    Use :func:`relabel_classes` rather than this constructor.

    Parameters
    ----------
    black_box : BlackBox
    codes : sequence of int
        One label per class of ``black_box``; together they are ``0 .. k-1``.

    Attributes
    ----------
    kind : str
        The wrapped black box's.
    classes_ : numpy.ndarray of int
    codes : tuple of int
    """

    def __init__(self, black_box, codes):
        self.black_box = black_box
        self.kind = black_box.kind
        self.codes = tuple(int(c) for c in codes)
        self.classes_ = np.arange(max(self.codes) + 1)
        self._merge = np.zeros((len(self.codes), len(self.classes_)))
        self._merge[np.arange(len(self.codes)), self.codes] = 1.0

    def predict_proba(self, X):
        """Probabilities of the labels for the rows of ``X`` (a DataFrame)."""
        return self.black_box.predict_proba(X) @ self._merge

    def predict(self, X):
        """The label of the class the wrapped model predicts for each row of ``X``."""
        return np.asarray(self.codes)[self.black_box.predict(X)]

    def predict_proba_encoded(self, Z):
        """Probabilities of the labels for rows in the :class:`TableEncoder` layout."""
        return self.black_box.predict_proba_encoded(Z) @ self._merge

    def save(self, directory):
        """Save the wrapped model, with its own classes (a run's notes say how they were
        read)."""
        return self.black_box.save(directory)

    def __repr__(self):
        return f"<RelabeledBlackBox codes={self.codes} of {self.black_box!r}>"


def unwrapped(black_box):
    """The model inside ``black_box``, through any :class:`RelabeledBlackBox`."""
    while isinstance(black_box, RelabeledBlackBox):
        black_box = black_box.black_box
    return black_box


def relabel_classes(black_box, codes, what="the target"):
    """``black_box`` with its class ``i`` read as label ``codes[i]``.

    Parameters
    ----------
    black_box : BlackBox
        The model to relabel.
    codes : sequence of int
        The label of each of the model's classes, covering ``0 .. k-1``.
    what : str, default="the target"
        What the labels belong to, for the error message.

    Returns
    -------
    BlackBox
        ``black_box`` itself when ``codes`` is ``0 .. k-1`` in order, else a
        :class:`RelabeledBlackBox`.

    Raises
    ------
    InputError
        If ``codes`` are not whole numbers, or the model has another number of classes
        than ``codes`` gives labels for.
    """
    given = list(codes)
    try:
        codes = [operator.index(c) for c in given]
    except TypeError:
        raise InputError(f"codes must be whole numbers, one label 0 .. k-1 per class of the "
                         f"model, got {given}") from None
    n_classes = len(black_box.classes_)
    if n_classes != len(codes):
        fix = ("; a class no row of the table holds cannot be named: give a table with "
               "rows of every class the model was trained on, or the model trained on "
               "this target" if n_classes > len(codes)
               else "; give the model trained on this target")
        raise InputError(f"the {black_box.kind} model gives {n_classes} classes but "
                         f"{what} has {len(codes)}{fix}")
    if len(set(codes)) < 2 or sorted(set(codes)) != list(range(max(codes) + 1)):
        raise InputError(f"codes must name each label 0 .. k-1 (k at least 2) at least "
                         f"once, got {codes}")
    if codes == list(range(n_classes)):
        return black_box
    return RelabeledBlackBox(black_box, codes)


def spaced_names(names, columns, taken=()) -> dict[str, str]:
    """The model's column ``names`` that name one of ``columns`` only without the spaces
    around them (``" job"``: pandas keeps them in a CSV's header, reading the table removes
    them), each mapped to that column: when no other of ``names`` is read so, and the
    column is not in ``taken`` (read by a name of its own).

    Examples
    --------
    >>> spaced_names([" job", "age", " x", "x "], {"job", "age", "x"})
    {' job': 'job'}
    """
    alike: dict[str, list[str]] = {}
    for name in names:
        bare = name.strip()
        if name not in columns and bare != name and bare in columns:
            alike.setdefault(bare, []).append(name)
    return {spaced[0]: column for column, spaced in alike.items()
            if len(spaced) == 1 and column not in taken}


def missing_words_note(name, known, given):
    """A note when a model knows categories of column ``name`` (``known``) that reading the
    table takes for missing values (``"?"``, ``"NA"``, ...), so are not among ``given``:
    cells holding them reach the model as missing values, not as those categories.

    Returns
    -------
    list of str
        The note, or nothing.
    """
    given = set(given)
    words = [c for c in known if c not in given and pd.isna(as_strings(pd.Series([c]))[0])]
    if not words:
        return []
    return [f"column {quoted(name)}: the model knows {listing(words, 5)} as categories, "
            f"which reading the table takes for missing values: cells holding them reach "
            f"the model as missing, so it may label those rows otherwise than on the "
            f"original table"]


def output_path(directory, filename):
    """``directory / filename``, creating ``directory`` when needed."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    return directory / filename


def write_atomically(path, data):
    """Write ``data`` (bytes) to ``path`` through a temporary file and a rename."""
    path = Path(path)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    return path


#: Most rows :func:`check_encoded_reading` compares the black box's two readings on.
PROBE_ROWS = 1000


def check_encoded_reading(black_box, encoder, X):
    """Refuse a black box that reads :class:`TableEncoder` rows as another table.

    LIME sends the black box rows encoded by ``encoder`` (``predict_proba_encoded``). A box
    wrapped with an encoder of other columns, another column order or other categories
    decodes them as other rows, and would be explained as another model, silently.

    Parameters
    ----------
    black_box : BlackBox
        A user's model.
    encoder : TableEncoder
        The encoder the pipeline encodes the table with.
    X : pandas.DataFrame
        Rows of the table; the box's probabilities of (at most :data:`PROBE_ROWS` of) them
        read as a table and as encoded rows must agree.

    Raises
    ------
    InputError
        The box's own encoder differs from ``encoder`` (saying how), or its two readings
        of the rows differ (a box that answers the same rows differently from one call to
        the next is warned of instead: that is noise, not another decoding), or it reads a
        numeric column as categories (a scikit-learn model's ``check_columns``).
    """
    inner = unwrapped(black_box)
    own = getattr(inner, "encoder", None)
    fix = ("wrap it with TableEncoder().fit(dataset.X, dataset.categorical), the encoder of "
           "the table it explains")
    if isinstance(own, TableEncoder) and own is not encoder:
        difference = encoder.difference(own)
        if difference is not None:
            raise InputError(f"the black box was wrapped with an encoder of {difference}; "
                             f"{fix}")
    if hasattr(inner, "check_columns"):  # a scikit-learn model: how it reads the columns
        inner.check_columns(X)
    rows = X.iloc[np.unique(np.linspace(0, len(X) - 1, min(len(X), PROBE_ROWS)).astype(int))]
    as_table = black_box.predict_proba(rows)
    as_encoded = black_box.predict_proba_encoded(encoder.transform(rows))
    if np.allclose(as_table, as_encoded, rtol=0.0, atol=1e-6):
        return
    if not np.allclose(as_table, black_box.predict_proba(rows), rtol=0.0, atol=1e-6):
        warnings.warn("the black box answers the same rows with other probabilities from "
                      "one call to the next: LIME's explanations and the fidelities will "
                      "carry that noise (fix its random seed)", UserWarning, stacklevel=3)
        return
    worst = float(np.max(np.abs(as_table - as_encoded)))
    raise InputError(f"the black box gives other probabilities for the table's rows as "
                     f"encoded rows (by up to {worst:.3g}): it decodes them with other "
                     f"columns or categories; {fix}")
