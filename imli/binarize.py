"""Turn a raw table into boolean threshold columns and their :class:`Predicate` specs.

Numeric feature ``f`` → ``f <= t`` and ``f > t`` for each quantile threshold ``t`` (both
directions, as the IMLI papers binarize; a feature of one value ``v`` beside missing cells
→ ``f <= v``, whether it is known); categorical ``c`` → ``c == v`` per category
(equal numbers are one category: ``1``, ``1.0`` and ``"1"``, see
:func:`~imli.predicates.category_texts`); a column that already holds only 0/1 (or
booleans) is kept as one binary column. Missing values (NaN, None, ``pd.NA``) satisfy no
column: neither ``f <= t`` nor ``f > t``, no category, not the binary column.
"""

from __future__ import annotations

import math
import reprlib
import warnings
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils._param_validation import Interval, InvalidParameterError, StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data

from .forms import alike_names, check_names
from .predicates import (Predicate, category_codes, category_texts, readable, short_between,
                         to_numbers)

#: A categorical column with more categories than this gets a warning at fit.
MANY_CATEGORIES = 100

__all__ = ["Binarizer"]


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


def as_float64(frame: pd.DataFrame, categories=()) -> pd.DataFrame:
    """``frame`` with its numbers as numbers: extended-precision float columns
    (``np.longdouble``) as float64, and object columns whose known cells are all numbers
    (not text, not bools; ``Decimal`` too) as numeric columns, as an array's would be
    (scikit-learn's ``set_output(transform="pandas")`` gives imputed numbers so), unless
    named in ``categories`` (at predict: columns the model knows as categories).

    pandas' hashing and numpy's ``isin`` have no long-double kernels, and thresholds are
    float64 anyway.
    """
    changed = {}
    for name, column in frame.items():
        dtype = column.dtype
        if isinstance(dtype, np.dtype) and dtype.kind == "f" and dtype.itemsize > 8:
            changed[name] = column.astype(np.float64)
        # a column with no known cell says nothing of its kind (LIME kept none of it)
        elif dtype == object and str(name) not in categories and column.notna().any():
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
        if isinstance(value, bool | np.bool_) or not isinstance(value, Real | Decimal):
            return False
        exotic = exotic or isinstance(value, Decimal | Fraction)
    return exotic


def _warn_merged_integers(column: pd.Series, values: np.ndarray, name: str) -> None:
    """Warn when integers beyond 2**53 (ids, nanosecond times) become equal as float64,
    which the thresholds compare: rules can no longer tell those values apart."""
    if not pd.api.types.is_integer_dtype(column.dtype):
        return
    known = values[~np.isnan(values)]
    if not (np.abs(known) > 2.0**53).any():
        return
    exact, merged = column.dropna().nunique(), len(np.unique(known))
    if merged < exact:
        warnings.warn(f"column {name!r} holds integers beyond 2**53 that IMLI, comparing "
                      f"float64 numbers, cannot tell apart ({exact} distinct values become "
                      f"{merged}); subtract an offset or rescale it", UserWarning,
                      stacklevel=3)


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


def refuse_bools(est: BaseEstimator) -> None:
    """Refuse ``True`` and ``False`` for numeric parameters, which scikit-learn's
    ``Interval`` accepts as 1 and 0."""
    for name, constraints in est._parameter_constraints.items():
        value = getattr(est, name)
        if isinstance(value, bool | np.bool_) and any(isinstance(c, Interval)
                                                      for c in constraints):
            raise InvalidParameterError(f"The {name!r} parameter of {type(est).__name__} "
                                        f"must be a number, not a bool. Got {value!r} "
                                        "instead.")


#: What :func:`pandas.api.types.infer_dtype` calls an object column of dates, time spans,
#: periods, intervals or complex numbers, refused as their dtypes are.
_NOT_CATEGORIES = frozenset({"date", "datetime", "datetime64", "timedelta", "timedelta64",
                             "period", "interval", "complex"})


def check_column_types(frame: pd.DataFrame) -> None:
    """Refuse columns that are neither numbers nor categories (dates, complex numbers),
    and names that repeat (:func:`imli.forms.check_names`).

    Each date would become a category of its own and a complex number would lose its
    imaginary part: silently wrong rules. The caller converts such columns first.
    """
    check_names(frame.columns)
    for name, column in frame.items():
        dtype, held = column.dtype, ""
        if dtype == object:  # dates as objects (a column's .dt.date) are dates too
            held = pd.api.types.infer_dtype(column, skipna=True)
        if (pd.api.types.is_complex_dtype(dtype) or dtype.kind in "mM"
                or isinstance(dtype, pd.PeriodDtype | pd.IntervalDtype)
                or held in _NOT_CATEGORIES):
            raise ValueError(
                f"column {name!r} has dtype {dtype}{f' ({held} values)' if held else ''}, "
                "which IMLI cannot threshold; convert it to real numbers (e.g. days since a "
                "date) or to strings first.")


def check_columns(est: object, columns: object, reset: bool) -> None:
    """Remember the column names of a table given to ``fit``; refuse others at predict.

    scikit-learn checks names only when all are strings (``feature_names_in_``); other
    names, such as the integers of ``pd.DataFrame(array)``, would be read by position.

    Parameters
    ----------
    est : estimator
    columns : Index or None
        The table's column names; ``None`` for an array, which is read by position.
    reset : bool
        Whether this is ``fit``.
    """
    if reset:
        est._fit_columns = None if columns is None else list(columns)
        return
    fitted = getattr(est, "_fit_columns", None)
    if columns is not None and fitted is not None and list(columns) != fitted:
        raise ValueError(f"X has columns {_some(list(columns))}, but was fitted on "
                         f"{_some(fitted)}; pass the same columns in the same order.")


def named_as_fitted(est: object, X: pd.DataFrame) -> pd.DataFrame:
    """``X`` under the names of the table ``est`` was fitted on, when its names are those
    written in another Unicode form (:func:`imli.forms.alike_names`)."""
    fitted = getattr(est, "_fit_columns", None)
    if fitted is not None and alike_names(X.columns, fitted):
        return X.set_axis(fitted, axis=1)
    return X


def _some(names: list) -> str:
    return str(names) if len(names) <= 10 else f"{str(names[:10])[:-1]}, ...]"


def _check_finite(frame: pd.DataFrame) -> None:
    """Refuse infinite numbers, as scikit-learn does in arrays (missing ones are NaN)."""
    for name, col in frame.items():
        if (pd.api.types.is_numeric_dtype(col) and not pd.api.types.is_bool_dtype(col)
                and np.isinf(to_numbers(col)).any()):
            raise _infinity(name)


def _infinity(name: object) -> ValueError:
    return ValueError("Input X contains infinity or a value too large for "
                      f"dtype('float64') in column {name!r}.")


def _is_binary(values: pd.Series) -> bool:
    if values.dtype == bool:
        return True
    if not pd.api.types.is_numeric_dtype(values) or values.isna().any():
        return False
    return bool(values.isin([0, 1]).all())


def _thresholds(values: np.ndarray, n_thresholds: int) -> np.ndarray:
    """Distinct inner quantiles; a threshold at the maximum would split nothing.

    When one value is so frequent that quantiles collapse onto it (e.g. a capital gain
    that is 0 for most rows), the rest of the values get quantile thresholds of their own.
    """
    values = values[~np.isnan(values)]
    if values.size == 0:
        return np.empty(0)
    # every value is a cut from size - 1 quantiles on: more change nothing (and 2**70 fails)
    n_thresholds = min(n_thresholds, values.size)
    qs = np.linspace(0, 1, n_thresholds + 2)[1:-1]
    cuts = np.unique(np.quantile(values, qs, method="lower"))
    if cuts.size < n_thresholds:
        common, counts = np.unique(values, return_counts=True)
        mode = common[np.argmax(counts)]
        rest = values[values != mode]
        if rest.size:
            extra = np.quantile(rest, qs[: n_thresholds - cuts.size + 1], method="lower")
            cuts = np.unique(np.concatenate([cuts, [mode], extra]))
    cuts = cuts[cuts < values.max()]
    # Each cut is a value; move it into the gap to the next one, where it splits the same
    # rows and prints exactly in few digits (x <= 1000.015, not x <= 1000.01 shown as 1000.0).
    distinct = np.unique(values)
    above = distinct[np.searchsorted(distinct, cuts, side="right")]
    return np.array([short_between(float(c), float(b)) for c, b in zip(cuts, above)])


def _entropy_thresholds(values: np.ndarray, y: np.ndarray, n_thresholds: int) -> np.ndarray:
    """Up to ``n_thresholds`` cuts where the labels ``y`` change most (an entropy tree
    with ``n_thresholds + 1`` leaves on the feature's ranks, so any scale gives the same
    cuts), each placed in its gap as :func:`_thresholds` places them."""
    known = ~np.isnan(values)
    distinct, ranks = np.unique(values[known], return_inverse=True)
    if distinct.size < 2:
        return np.empty(0)
    # a tree on the ranks has at most one leaf per distinct value
    leaves = min(n_thresholds + 1, distinct.size)
    tree = DecisionTreeClassifier(criterion="entropy", max_leaf_nodes=leaves,
                                  random_state=0)
    tree.fit(ranks.reshape(-1, 1).astype(np.float64), np.asarray(y)[known])
    split = tree.tree_.children_left > -1
    # a cut between ranks k and k + 1 sits at k + 0.5
    below = np.unique(np.floor(tree.tree_.threshold[split]).astype(np.intp))
    return np.array([short_between(float(distinct[k]), float(distinct[k + 1]))
                     for k in below])


class Binarizer(TransformerMixin, BaseEstimator):
    """Binarize numeric and categorical columns for :class:`~imli.IMLIClassifier`.

    Parameters
    ----------
    n_thresholds : int, default=9
        Thresholds per numeric feature, at most (fewer when values repeat).
    categorical : list of str, optional
        Columns to treat as categorical. By default: object, string, category and
        boolean-like non-numeric columns.
    thresholds : {"quantile", "entropy"}, default="quantile"
        Where the thresholds go. ``"quantile"``: at quantiles of each
        feature, blind to the labels (when one value dominates, the other values get
        their own quantile thresholds). ``"entropy"``: where the labels change most
        (supervised; needs ``y`` in ``fit``), so an exact cut such as ``hours <= 30`` or
        one that isolates a few rare positives is found.

    Attributes
    ----------
    column_specs_ : list of (Predicate or None)
        What each output column means (``None`` for columns kept as they were).
    feature_names_in_ : ndarray of str
        Input column names (DataFrames with string column names only).
    n_features_in_ : int
        Number of input columns.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"age": [20, 30, 40, 50], "color": ["r", "g", "r", "b"]})
    >>> b = Binarizer(n_thresholds=1).fit(df)
    >>> [str(p) for p in b.column_specs_]
    ['age <= 35.0', 'age > 35.0', 'color == b', 'color == g', 'color == r']
    >>> b.transform(df).iloc[0].tolist()
    [True, False, False, False, True]
    """

    _parameter_constraints = {
        "n_thresholds": [Interval(Integral, 1, None, closed="left")],
        "categorical": [list, tuple, None],
        "thresholds": [StrOptions({"quantile", "entropy"})],
    }

    def __init__(self, n_thresholds: int = 9, categorical: list[str] | None = None,
                 thresholds: str = "quantile") -> None:
        self.n_thresholds = n_thresholds
        self.categorical = categorical
        self.thresholds = thresholds

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        tags.transformer_tags.preserves_dtype = []
        return tags

    def _frame(self, X: object, reset: bool) -> pd.DataFrame:
        """Check the table; DataFrames keep their column types, arrays must be numeric."""
        if isinstance(X, pd.DataFrame):
            if not reset:
                X = named_as_fitted(self, X)
            check_column_types(X)
            check_columns(self, X.columns, reset)  # before scikit-learn's, of many lines
            validate_data(self, X, skip_check_array=True, reset=reset)
            frame = as_float64(X, () if reset else self.categorical_columns())
            _check_finite(frame)
        else:
            values = validate_data(self, X, reset=reset, ensure_all_finite="allow-nan")
            check_columns(self, None, reset)
            frame = as_float64(
                pd.DataFrame(values, columns=[f"x{i}" for i in range(values.shape[1])]))
        if frame.shape[0] == 0 or frame.shape[1] == 0:
            raise ValueError(
                f"Found array with {frame.shape[0]} sample(s) and {frame.shape[1]} "
                "feature(s) while a minimum of 1 is required."
            )
        return frame

    def fit(self, X: object, y: object = None) -> Binarizer:
        """Choose the thresholds and categories.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            The table to binarize: numeric, categorical or 0/1 columns.
        y : array-like of shape (n_samples,), optional
            The labels; used (and needed) only with ``thresholds="entropy"``.

        Returns
        -------
        self : Binarizer
            The fitted binarizer.

        Raises
        ------
        ValueError
            If ``thresholds="entropy"`` without ``y``, ``categorical`` names unknown
            columns, or ``X`` is empty.
        """
        self._validate_params()
        refuse_bools(self)
        if self.thresholds == "entropy" and y is None:
            raise ValueError("thresholds='entropy' places the thresholds where the labels "
                             "change: give y to fit.")
        frame = self._frame(X, reset=True)
        names = [str(c) for c in frame.columns]
        wanted = set(self.categorical or ())
        unknown = wanted - set(names)
        if unknown:
            raise ValueError(f"categorical names unknown columns: {sorted(unknown)}.")
        specs: list[Predicate | None] = []
        sources: list[int] = []
        for i, name in enumerate(names):
            col = frame.iloc[:, i]
            numeric = pd.api.types.is_numeric_dtype(col) and not pd.api.types.is_bool_dtype(col)
            if name not in wanted and _is_binary(col):
                specs.append(None)
                sources.append(i)
            elif name in wanted or not numeric:
                cats = sorted(set(category_texts(col)) - {None})
                if len(cats) > MANY_CATEGORIES:
                    warnings.warn(
                        f"column {name!r} has {len(cats)} categories, one binary "
                        "column each: a rule can list values one by one and memorise the "
                        "training rows (and take long to polish); group rare values or drop "
                        "the column",
                        UserWarning, stacklevel=2)
                specs.extend(Predicate(name, "==", c) for c in cats)
                sources.extend([i] * len(cats))
            else:
                values = to_numbers(col)
                _warn_merged_integers(col, values, name)
                cuts = (_thresholds(values, self.n_thresholds) if self.thresholds == "quantile"
                        else _entropy_thresholds(values, y, self.n_thresholds))
                for t in cuts:
                    specs.append(Predicate(name, "<=", float(t)))
                    specs.append(Predicate(name, ">", float(t)))
                    sources.extend([i, i])
                known = ~np.isnan(values)
                if not len(cuts) and known.any() and not known.all():
                    # one value beside missing cells: whether it is there is all it tells
                    specs.append(Predicate(name, "<=", float(values[known].max())))
                    sources.append(i)
        order = sorted(range(len(specs)), key=lambda j: (sources[j], _sort_key(specs[j])))
        self.column_specs_ = [specs[j] for j in order]
        self._sources = [sources[j] for j in order]
        self._names = _column_names(self.column_specs_, names, self._sources)
        self._input_names = names
        return self

    def transform(self, X: object) -> pd.DataFrame:
        """Boolean columns, one per spec.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Same columns as in ``fit``.

        Returns
        -------
        DataFrame of bool
            One column per entry of ``column_specs_``, named as
            :meth:`get_feature_names_out` names them.
        """
        check_is_fitted(self, "column_specs_")
        frame = self._frame(X, reset=False)
        out = np.empty((len(frame), len(self.column_specs_)), dtype=bool, order="F")
        cells: dict[int, object] = {}  # each input column read once: numbers or codes
        for j, (spec, source) in enumerate(zip(self.column_specs_, self._sources)):
            if source not in cells:
                col = frame.iloc[:, source]
                if spec is None or spec.is_threshold:
                    cells[source] = _numbers(col, frame.columns[source], spec is None)
                else:
                    codes, texts = category_codes(col)
                    _warn_unseen(frame.columns[source], codes, texts,
                                 self._categories_of(source))
                    cells[source] = codes, {t: k for k, t in enumerate(texts)}
            values = cells[source]
            if spec is None:
                out[:, j] = _zero_one(values, frame.columns[source])
            elif spec.is_threshold:
                out[:, j] = spec.evaluate(values)
            else:
                codes, code_of = values
                out[:, j] = codes == code_of.get(spec.value, -2)
        binary = pd.DataFrame(out, index=frame.index, columns=self._names)
        binary.attrs[_SPECS] = _Meanings(tuple(self._names), tuple(self.column_specs_))
        return binary

    def _categories_of(self, source: int) -> set[str]:
        return {spec.value for spec, src in zip(self.column_specs_, self._sources)
                if src == source}

    def categorical_columns(self) -> set[str]:
        """The names of the columns read as categories at fit.

        Returns
        -------
        set of str
            The features of the category tests.
        """
        return {s.feature for s in self.column_specs_ if s is not None and not s.is_threshold}

    def literal_names(self) -> tuple[str, ...]:
        """Per output column, the name a :class:`~imli.rules.Literal` on it carries.

        Returns
        -------
        tuple of str
            The input column's own name for a kept 0/1 column (the literal quotes it when
            it prints), the test's text otherwise.
        """
        check_is_fitted(self, "column_specs_")
        return tuple(self._input_names[source] if spec is None else name
                     for spec, source, name in zip(self.column_specs_, self._sources,
                                                   self._names))

    def get_feature_names_out(self, input_features: object = None) -> np.ndarray:
        """Names of the output columns.

        Parameters
        ----------
        input_features : None
            Ignored; accepted for scikit-learn's API.

        Returns
        -------
        ndarray of object
            Each output column's name, as in :meth:`transform`: the test's text, or a kept
            0/1 column's own name (quoted when it reads as a test).
        """
        check_is_fitted(self, "column_specs_")
        return np.array(self._names, dtype=object)


def _warn_unseen(name: object, codes: np.ndarray, texts: tuple[str, ...],
                 seen: set[str]) -> None:
    """Warn when most known values of a categorical column were never seen in fit: the
    same column in another type (``1`` for ``True``) matches no category, silently."""
    new = np.array([t not in seen for t in texts] + [False])  # code -1 (missing) picks False
    unseen, known = int(new[codes].sum()), int((codes >= 0).sum())
    if 2 * unseen <= known:
        return
    shown = ", ".join([repr(t) for t, n in zip(texts, new) if n][:3])
    before = ", ".join(repr(t) for t in sorted(seen)[:3]) + (", ..." if len(seen) > 3 else "")
    warnings.warn(f"column {name!r}: {unseen} of {known} known values "
                  f"were never seen in fit (e.g. {shown}; fit saw {before}), so they pass "
                  "no '==' test and every '!=' test; is it the same column in another type "
                  "(1 for True)?", UserWarning, stacklevel=4)


def _numbers(column: pd.Series, name: object, flags: bool = False) -> np.ndarray:
    """A column that held numbers in ``fit`` (``flags``: only 0 and 1, or bools) as floats,
    or a one-line error naming it (text such as ``"inf"`` or ``"1e400"`` is an infinity,
    refused as a float one is)."""
    try:
        values = to_numbers(column)
    except OverflowError:  # 10**400
        raise ValueError(f"column {name!r} holds a number beyond the range of float64; "
                         "replace it by a finite number or NaN") from None
    except (TypeError, ValueError):
        cells = column.to_numpy(dtype=object)
        bad = next(v for v in cells if not _reads_as_number(v))
        held = "0 and 1 (or False and True)" if flags else "numbers"
        raise ValueError(f"column {name!r} holds {reprlib.repr(bad)}, not a number; it held "
                         f"{held} in fit (missing values may be NaN or None)") from None
    # numeric columns were checked with the table (_check_finite); text is read here
    if not pd.api.types.is_numeric_dtype(column) and np.isinf(values).any():
        raise _infinity(name)
    return values


def _zero_one(values: np.ndarray, name: object) -> np.ndarray:
    """A column kept as one binary column in ``fit`` as bools (missing: False), or a
    one-line error naming it when it holds another number."""
    known = ~np.isnan(values)
    bad = known & (values != 0) & (values != 1)
    if bad.any():
        raise ValueError(f"column {name!r} holds {float(values[bad][0])!r}, not 0 or 1; it "
                         "held only 0/1 values in fit (missing values may be NaN or None)")
    return known & (values == 1)


def _reads_as_number(value: object) -> bool:
    try:
        to_numbers(np.array([value], dtype=object))
    except (TypeError, ValueError):
        return False
    return True


def _sort_key(spec: Predicate | None) -> tuple:
    if spec is None:
        return (0, 0.0, "")
    if spec.is_threshold:
        return (1, float(spec.value), spec.relation)
    return (2, 0.0, str(spec.value))


def _column_names(specs, names, sources) -> list[str]:
    """Names as rules print them; distinct, as the thresholds print exactly and a column
    whose name reads as a test (``"c == x"``) is quoted."""
    return [readable(names[source], name=True) if spec is None else spec.describe()
            for spec, source in zip(specs, sources)]


#: Where :meth:`Binarizer.transform` leaves the meaning of its columns on its output.
_SPECS = "imli_column_specs"


@dataclass(frozen=True)
class _Meanings:
    """The output columns' names and specs. pandas deep-copies ``attrs`` on every
    operation on the frame; this value is immutable, so a copy is the value itself (a
    deep copy of hundreds of specs each time made a fit 30 times slower)."""

    names: tuple
    specs: tuple

    def __deepcopy__(self, memo) -> _Meanings:
        return self


def specs_of(frame: pd.DataFrame) -> list | None:
    """What each column of ``frame`` means, when it is a :class:`Binarizer`'s output with
    its columns as made (same names, same order); else ``None``."""
    meanings = frame.attrs.get(_SPECS)
    if not isinstance(meanings, _Meanings) or not meanings.names or \
            tuple(str(c) for c in frame.columns) != meanings.names:
        return None
    return list(meanings.specs)
