"""How a table's cells are read: numbers, categories, unknowns and negations.

Cell semantics (the same for learning, for Python evaluation and for the
Prolog facts):

* numeric column (any numeric dtype except bool): a finite number, or NaN
  for *unknown*;
* categorical column (every other dtype): a category, compared as its text
  (:func:`category`: ``str(value)`` in Unicode's composed form NFC, but a number
  by value, so ``1``, ``1.0`` and ``np.int64(1)`` are all the category ``"1"``,
  and ``"café"`` with ``"é"`` precomposed or as ``"e"`` and a combining accent
  is one category); NaN/None for *unknown*;
  or a :class:`Negated` marker for a value known *not* to be some categories
  (LIME's negative one-hot weights, written ``-thal(A,3)`` in the LIME-FOLD
  paper).

An unknown cell satisfies no literal, neither a test nor its negation.
"""

from __future__ import annotations

import math
import numbers
import reprlib
import warnings
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pandas as pd

from .errors import FoldInputError
from .forms import check_names, composed

__all__ = ["Negated", "Schema", "ColumnView", "category", "NUMERIC", "CATEGORICAL"]

NUMERIC = "numeric"
CATEGORICAL = "categorical"


def category(value: object) -> str:
    """The category a cell stands for: its text, a whole number as an integer.

    Numbers equal in value are one category: ``1``, ``1.0`` and
    ``np.int64(1)`` are all ``"1"`` (pandas turns a column of integers with a
    NaN into floats). Booleans stay ``"True"`` / ``"False"``; other values,
    ``1.5`` and strings included, are ``str(value)`` in Unicode's composed form
    (NFC), so a text written with ``"é"`` or with ``"e"`` and a combining accent
    is one category. A string is never read as a number: ``"1.0"`` is not the
    category ``"1"``.

    Parameters
    ----------
    value : object
        A known cell.

    Returns
    -------
    str

    Examples
    --------
    >>> category(1.0), category(2.5), category(True), category("01")
    ('1', '2.5', 'True', '01')
    >>> category("cafe\u0301") == "caf\u00e9"
    True
    """
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        return composed(str(value))
    if isinstance(value, numbers.Integral) or float(value).is_integer():
        return str(int(value))
    return str(value)


@dataclass(frozen=True, init=False)
class Negated:
    """Cell marker: the value is known *not* to be any of ``values``.

    Classical negation, not negation as failure: ``Negated("3")`` in column
    ``thal`` states ``-thal(row, '3')``. Such a cell satisfies the literal
    ``thal != '3'``; it satisfies neither ``thal == '3'`` nor ``thal == v``
    nor ``thal != v`` for any other ``v`` (those stay unknown). In the Prolog
    program it becomes a fact of a separate predicate, ``neg_thal(row, '3')``.

    Parameters
    ----------
    *values : object
        One or more categories (compared as :func:`category` text).

    Examples
    --------
    >>> Negated("3")
    Negated('3')
    >>> "3" in Negated("3", "6").values
    True
    """

    values: frozenset = field()

    def __init__(self, *values: object) -> None:
        if not values:
            raise FoldInputError("Negated needs at least one value")
        object.__setattr__(self, "values", frozenset(category(v) for v in values))

    def __repr__(self) -> str:
        return "Negated(" + ", ".join(repr(v) for v in sorted(self.values)) + ")"


def frame_from_array(array: np.ndarray, names: list, categories=()) -> pd.DataFrame:
    """An array as a table, each column with its own type.

    numpy makes every cell of an array text when a row mixes numbers and words
    (``np.asarray([[1.5, "red"]])``); a column whose known cells all read as numbers is
    numeric again, as it would be in a DataFrame (booleans stay categories), unless it is
    named in ``categories`` (at predict: a column the model knows as categories, ``"01"``).
    """
    frame = pd.DataFrame(array, columns=names).infer_objects()
    for name in frame.columns:
        if name in categories:
            continue
        if frame[name].dtype == object or pd.api.types.is_string_dtype(frame[name].dtype):
            numbers = _numbers_from_text(frame[name])
            if numbers is not None:
                frame[name] = numbers
    return frame


def numbers_as_numbers(frame: pd.DataFrame, categories=()) -> pd.DataFrame:
    """``frame`` with each object column whose known cells are all numbers (not text, not
    bools; ``Decimal`` too) as a numeric column, as an array's would be
    (:func:`frame_from_array`; scikit-learn's ``set_output(transform="pandas")`` gives
    imputed numbers so), unless named in ``categories`` (at predict: columns the model
    knows as categories)."""
    changed = {}
    for name, column in frame.items():
        # a column with no known cell says nothing of its kind (LIME kept none of it);
        # text alone is never numbers (the common case, told apart in one pass)
        if (column.dtype == object and str(name) not in categories
                and pd.api.types.infer_dtype(column, skipna=True) not in ("string", "empty")):
            inferred = column.where(column.notna(), np.nan).infer_objects()  # pd.NA too
            if inferred.dtype == object and _decimal_numbers(inferred):
                inferred = inferred.astype(np.float64)  # Decimal, Fraction
            if (pd.api.types.is_numeric_dtype(inferred.dtype)
                    and not pd.api.types.is_bool_dtype(inferred.dtype)):
                changed[name] = inferred
    if not changed:
        return frame
    frame = frame.copy()
    for name, column in changed.items():
        frame[name] = column
    return frame


def _decimal_numbers(column: pd.Series) -> bool:
    """Whether the known cells of an object column are numbers pandas does not infer:
    ``Decimal`` (database drivers give ``NUMERIC`` columns so) or ``Fraction``, maybe beside
    ints and floats; not bools (an int beyond floats alone stays a category)."""
    exotic = False
    for value in column.dropna():
        if (isinstance(value, bool | np.bool_)
                or not isinstance(value, numbers.Real | Decimal)):
            return False
        exotic = exotic or isinstance(value, Decimal | Fraction)
    return exotic


def _numbers_from_text(column: pd.Series) -> pd.Series | None:
    """``column`` as float64 when it holds text and every known cell reads as a number."""
    distinct = pd.unique(column.to_numpy())
    if not any(isinstance(v, str) for v in distinct):
        return None
    numbers = {}
    for value in distinct:
        if isinstance(value, bool | np.bool_):
            return None
        if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
            continue
        try:
            numbers[value] = float(value)
        except (TypeError, ValueError):
            return None
    return column.map(numbers).astype(np.float64)


#: What :func:`pandas.api.types.infer_dtype` calls an object column of dates, time spans,
#: periods, intervals or complex numbers, refused as their dtypes are.
_NOT_CATEGORIES = frozenset({"date", "datetime", "datetime64", "timedelta", "timedelta64",
                             "period", "interval", "complex"})


def check_column_types(frame: pd.DataFrame) -> None:
    """Refuse columns that are neither numbers nor categories (dates, complex numbers),
    and names that repeat (:func:`fold.forms.check_names`).

    Their values would become one category each (dates) or lose a part (complex), so
    the rules would be silently wrong; the caller converts them first.
    """
    check_names(frame.columns)
    for name, column in frame.items():
        dtype, held = column.dtype, ""
        if dtype == object:  # dates as objects (a column's .dt.date) are dates too
            held = pd.api.types.infer_dtype(column, skipna=True)
        if (pd.api.types.is_complex_dtype(dtype) or dtype.kind in "mM"
                or isinstance(dtype, pd.PeriodDtype | pd.IntervalDtype)
                or held in _NOT_CATEGORIES):
            raise FoldInputError(
                f"column {name!r} has dtype {dtype}{f' ({held} values)' if held else ''}, "
                "which FOLD cannot compare; convert it to real numbers (e.g. days since a "
                "date) or to strings first")


def column_kind(series: pd.Series) -> str:
    """Return ``"numeric"`` or ``"categorical"`` for a column (bool is categorical)."""
    return _dtype_kind(series.dtype)


def _dtype_kind(dtype) -> str:
    if pd.api.types.is_bool_dtype(dtype):
        return CATEGORICAL
    if pd.api.types.is_numeric_dtype(dtype):
        return NUMERIC
    return CATEGORICAL


@dataclass(frozen=True)
class CategoricalCells:
    """A categorical column read cell by cell.

    Attributes
    ----------
    known : ndarray of object
        ``str`` category for known cells, ``None`` otherwise.
    negated : dict of str to ndarray of bool
        For each category some cell negates, the rows that negate it.
    """

    known: np.ndarray
    negated: dict
    _factorized: tuple | None = field(default=None, repr=False, compare=False)

    def factorized(self) -> tuple:
        """``pandas.factorize`` of :attr:`known`: each row's index into the distinct
        categories (an object array, in order of first appearance), -1 where not known."""
        if self._factorized is None:
            codes, uniques = pd.factorize(self.known, use_na_sentinel=True)
            object.__setattr__(self, "_factorized",
                               (np.asarray(codes, dtype=np.int64), np.asarray(uniques, object)))
        return self._factorized

    def negated_mask(self, value: str) -> np.ndarray:
        """Rows whose cell states ``-feature(row, value)``."""
        mask = self.negated.get(value)
        return np.zeros(len(self.known), dtype=bool) if mask is None else mask


def read_categorical(series: pd.Series) -> CategoricalCells:
    """Read a categorical column into known values and negations."""
    cells = series.to_numpy(dtype=object)
    unknown = np.asarray(pd.isna(cells), dtype=bool)
    fast = _read_distinct(cells, unknown)
    return fast if fast is not None else _read_cells(series, cells, unknown)


def _read_distinct(cells: np.ndarray, unknown: np.ndarray) -> CategoricalCells | None:
    """The fast reading: look at each distinct cell once, not at every cell.

    Only when every known cell is a ``str`` or a :class:`Negated`: those hash apart exactly
    (objects like ``1`` and ``True`` would be taken for one value). ``None`` otherwise.
    """
    try:
        codes, uniques = pd.factorize(cells)
    except TypeError:  # a cell that does not hash (a list): read cell by cell
        return None
    kinds = [type(u) for u in uniques]
    if not all(k is str or k is Negated for k in kinds) or not np.array_equal(codes < 0,
                                                                               unknown):
        return None
    texts = [composed(u) if kind is str else u for u, kind in zip(uniques, kinds)]
    if any(t != u for t, u in zip(texts, uniques)):  # another form: read as NFC
        cells = np.append(np.asarray(texts, dtype=object), None)[codes]
        return _read_distinct(cells, unknown)
    n = len(cells)
    is_negated = np.zeros(n, dtype=bool)
    negated: dict[str, np.ndarray] = {}
    for k in (k for k, kind in enumerate(kinds) if kind is Negated):
        rows = codes == k
        is_negated |= rows
        for value in uniques[k].values:
            negated[value] = negated[value] | rows if value in negated else rows.copy()
    known = np.full(n, None, dtype=object)
    known_rows = ~unknown & ~is_negated
    known[known_rows] = cells[known_rows]
    # the factorization of ``known``: the distinct texts renumbered without the negations
    is_text = np.array([kind is str for kind in kinds], dtype=bool)
    renumber = np.append(np.where(is_text, np.cumsum(is_text) - 1, -1), -1)
    text_codes = renumber[codes].astype(np.int64)  # code -1 (unknown) takes the last
    texts = np.asarray(uniques, dtype=object)[is_text]
    return CategoricalCells(known=known, negated=negated, _factorized=(text_codes, texts))


def _read_cells(series: pd.Series, cells: np.ndarray, unknown: np.ndarray) -> CategoricalCells:
    """The general reading, cell by cell (any cell type, read by :func:`category`)."""
    n = len(cells)
    negated: dict[str, np.ndarray] = {}
    is_negated = np.zeros(n, dtype=bool)
    if series.dtype == object:
        is_negated = np.fromiter((type(c) is Negated for c in cells), dtype=bool, count=n)
        for i in np.flatnonzero(is_negated):
            for value in cells[i].values:
                mask = negated.get(value)
                if mask is None:
                    mask = negated[value] = np.zeros(n, dtype=bool)
                mask[i] = True
    known_rows = ~unknown & ~is_negated
    known = np.full(n, None, dtype=object)
    values = cells[known_rows]
    if not all(type(v) is str and v.isascii() for v in values):
        values = np.array([category(v) for v in values], dtype=object)
    known[known_rows] = values
    return CategoricalCells(known=known, negated=negated)


def read_numeric(series: pd.Series, name: str) -> np.ndarray:
    """Read a numeric column as float64 (NaN = unknown); refuse infinities."""
    if pd.api.types.is_bool_dtype(series.dtype) or not pd.api.types.is_numeric_dtype(
        series.dtype
    ):
        values = _cells_as_numbers(series, name)
    else:
        values = series.to_numpy(dtype=np.float64, na_value=np.nan)
    if np.isinf(values).any():
        raise FoldInputError(
            f"column {name!r} contains infinity; replace it by a finite number or NaN"
        )
    if pd.api.types.is_integer_dtype(series.dtype):
        _warn_merged_integers(series, values, name)
    return values


def _cells_as_numbers(series: pd.Series, name: str) -> np.ndarray:
    """The cells of a column fitted as numbers, given in another dtype, as float64.

    Text is read as :func:`frame_from_array` reads it in ``fit`` (Python's ``float``):
    ``"nan"`` is unknown, as are None, NaN and ``pd.NA``; any other cell that is not a
    number (``""`` included, which in ``fit`` makes a column categorical) is refused.
    """
    cells = series.to_numpy(dtype=object)
    values = np.full(len(cells), np.nan)
    for i, value in enumerate(cells):
        if _is_unknown(value):
            continue
        try:
            values[i] = float(value)
        except OverflowError:  # 10**400
            raise FoldInputError(f"column {name!r} holds {reprlib.repr(value)}, beyond the "
                                 "range of float64; replace it by a finite number or NaN"
                                 ) from None
        except (TypeError, ValueError):
            raise FoldInputError(
                f"column {name!r} was numeric when the model was fitted but now "
                f"holds {reprlib.repr(value)}, not a number; pass numbers or NaN") from None
    return values


def _is_unknown(value: object) -> bool:
    missing = pd.isna(value)  # an array held in a cell gives an array: a value
    return isinstance(missing, bool | np.bool_) and bool(missing)


def _warn_merged_integers(series: pd.Series, values: np.ndarray, name: str) -> None:
    """Warn when integers beyond 2**53 (ids, nanosecond times) become equal as float64,
    which the rules compare: rules can no longer tell those values apart."""
    if not (np.abs(values[~np.isnan(values)]) > 2.0**53).any():
        return
    exact = series.dropna().nunique()
    merged = len(np.unique(values[~np.isnan(values)]))
    if merged < exact:
        warnings.warn(
            f"column {name!r} holds integers beyond 2**53 that FOLD, comparing float64 "
            f"numbers, cannot tell apart ({exact} distinct values become {merged}); "
            "subtract an offset or rescale it",
            UserWarning, stacklevel=3)


@dataclass(frozen=True)
class Schema:
    """The columns a model was fitted on: names and kinds, in order.

    Attributes
    ----------
    names : tuple of str
    kinds : tuple of str
        ``"numeric"`` or ``"categorical"`` for each name.
    """

    names: tuple
    kinds: tuple

    @classmethod
    def from_frame(cls, X: pd.DataFrame) -> Schema:
        """Infer the schema of a DataFrame (string column names, all distinct)."""
        names = tuple(X.columns)
        for name in names:
            if not isinstance(name, str):
                raise FoldInputError(
                    f"column name {name!r} is not a string; name every column with a str"
                )
        if len(set(names)) != len(names):
            dupes = sorted({n for n in names if names.count(n) > 1})
            raise FoldInputError(f"duplicate column names {dupes}; make them unique")
        kinds = tuple(_dtype_kind(dtype) for dtype in X.dtypes)
        return cls(names=names, kinds=kinds)

    def kind(self, name: str) -> str:
        """The kind of column ``name``."""
        return self.kinds[self.names.index(name)]


class ColumnView:
    """A DataFrame read once per column, the way literals need it.

    Rule objects evaluate themselves on a ``ColumnView`` (or on a DataFrame,
    which they wrap in one); each column is converted at most once.

    Parameters
    ----------
    X : pandas.DataFrame
    schema : Schema, optional
        Column kinds to read with; inferred from ``X`` when omitted.
    """

    def __init__(self, X: pd.DataFrame, schema: Schema | None = None) -> None:
        if not isinstance(X, pd.DataFrame):
            raise FoldInputError(f"expected a pandas DataFrame, got {type(X).__name__}")
        self.frame = X
        self.schema = schema
        self.n_rows = len(X)
        self._numeric: dict[str, np.ndarray] = {}
        self._categorical: dict[str, CategoricalCells] = {}

    def _column(self, name: str) -> pd.Series:
        if name not in self.frame.columns:
            raise FoldInputError(f"column {name!r} is missing from the table")
        return self.frame[name]

    def numeric(self, name: str) -> np.ndarray:
        """Column ``name`` as float64 with NaN for unknown."""
        if name not in self._numeric:
            self._numeric[name] = read_numeric(self._column(name), name)
        return self._numeric[name]

    def categorical(self, name: str) -> CategoricalCells:
        """Column ``name`` as categories, unknowns and negations."""
        if name not in self._categorical:
            self._categorical[name] = read_categorical(self._column(name))
        return self._categorical[name]

    def kind(self, name: str) -> str:
        """Kind of column ``name`` (from the schema when given)."""
        if self.schema is not None and name in self.schema.names:
            return self.schema.kind(name)
        return column_kind(self._column(name))


def as_view(X: pd.DataFrame | ColumnView) -> ColumnView:
    """Wrap a DataFrame in a :class:`ColumnView` (views pass through)."""
    return X if isinstance(X, ColumnView) else ColumnView(X)
