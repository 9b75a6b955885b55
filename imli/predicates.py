"""What a boolean column means: ``Predicate(feature, relation, value)``.

A predicate describes one binary column of the learner's input, e.g. ``petal length <= 5.0``
or ``color == red``. It is used for printing rules and for redundancy removal (AIES 2019,
Alg. 1). Values are kept exact; they are rounded only when printed.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np
import pandas as pd

__all__ = ["RELATIONS", "Predicate", "category_codes", "category_texts", "format_value",
           "readable",
           "short_between", "to_numbers"]

RELATIONS = ("<=", ">", "==", "!=")
_NEGATED = {"<=": ">", ">": "<=", "==": "!=", "!=": "=="}
#: Significant digits a number is rounded to when printed; ``None``: printed exactly.
DEFAULT_DIGITS: int | None = None


_AMBIGUOUS = re.compile(r"(?i)(?:^|\s)(?:and|or|not|is|unless|if|then|else|otherwise)(?:\s|$)"
                        r"|[<>=!,{}]|^\s|\s$|^$|^['\"]|['\"]$")


#: The zero-width joiners inside Persian words and emoji sequences, which print as part
#: of their neighbours.
_JOINERS = re.compile("[\u200c\u200d]")
#: Text Python reads as a number (what a reader of a rule would take for one).
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[+-]?(inf|nan)", re.IGNORECASE)


def readable(text: object, name: bool = False) -> str:
    r"""A name or value from the data as rule text shows it: as is, or quoted.

    Text that could be misread as part of a rule (an operator, a word such as ``and`` /
    ``or`` / ``not`` / ``unless`` or the ``is`` that joins a feature to its value in an
    explanation, a bracket without its pair, which would close or open a
    clause or term early (``w)`` ends ``(a == w) or`` early; ``width (cm)`` is as is), the
    ``,``, ``{`` or ``}`` of a set of categories, spaces
    or quote marks at its ends, nothing at all) or
    that holds characters that do not print (line breaks, control characters, invisible
    format characters such as the right-to-left override U+202E, which reorders what
    follows it on screen; not the joiners of Persian words and emoji, U+200C and U+200D)
    is shown as a Python string literal, quoted and escaped. So is a column ``name`` that
    reads as a number (``'1' <= 0.5``, not ``1 <= 0.5``).

    Examples
    --------
    >>> readable("no checking"), readable("b AND x > 5"), readable("x\u202eb")
    ('no checking', "'b AND x > 5'", "'x\\u202eb'")
    >>> readable("width (cm)"), readable("w)")
    ('width (cm)', "'w)'")
    >>> readable("1"), readable("1", name=True), readable("1e5", name=True)
    ('1', "'1'", "'1e5'")
    """
    text = str(text)
    if (_JOINERS.sub("", text).isprintable() and not _AMBIGUOUS.search(text)
            and _paired(text) and not (name and _NUMBER.fullmatch(text))):
        return text
    return repr(text)


def _paired(text: str) -> bool:
    """Whether each ``)`` of ``text`` closes a ``(`` before it and each ``(`` is closed."""
    depth = 0
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            return False
    return depth == 0


def short_between(low: float, high: float) -> float:
    """The number with the fewest significant digits in the middle half of ``[low, high]``
    (the midpoint when it prints about as short).

    A threshold placed there splits the values up to ``low`` from those from ``high`` on, as
    the midpoint would, and prints exactly in few digits.

    Examples
    --------
    >>> short_between(7073.0, 7074.0), short_between(3.0, 10.0), short_between(1000.01, 1000.02)
    (7073.5, 6.5, 1000.015)
    >>> short_between(0.1234, 0.4321)
    0.3
    """
    middle = low / 2 + high / 2
    if not low <= middle < high:
        return low
    quarter = high / 4 - low / 4
    for digits in range(1, 18):
        candidate = float(f"{middle:.{digits}g}")
        if low + quarter <= candidate <= high - quarter and low <= candidate < high:
            # the midpoint itself when it prints about as short (6.5 rather than 6)
            return middle if len(repr(middle)) <= len(repr(candidate)) + 1 else candidate
    return middle


def format_value(value: object, digits: int | None = DEFAULT_DIGITS) -> str:
    """Render a predicate value for people.

    A number is printed exactly, in the fewest digits that read back as it (``0.78``,
    ``39.5``, ``1000.015``, ``30.0``); as in Python's ``repr``, numbers below 1e-4 or from
    1e16 on (in absolute value) in scientific notation (``1.175e-308``). Thresholds the
    project learns are short decimals (:func:`short_between`), so their rules read exactly
    as they decide.

    Parameters
    ----------
    value : object
        A number or any other value (shown by :func:`readable`).
    digits : int, optional
        Round numbers to this many significant digits instead (never into the integer
        part: ``7073.5`` stays ``7073.5``); the text may then not be exact.

    Returns
    -------
    str
    """
    if isinstance(value, (bool, Integral)) or not isinstance(value, Real):
        return readable(value)
    number = float(value)
    if not np.isfinite(number):
        return str(number)
    if number != 0 and not 1e-4 <= abs(number) < 1e16:
        precision = None if digits is None else digits - 1
        return np.format_float_scientific(number, precision=precision, unique=True, trim="-")
    if number == int(number) and abs(number) < 1e15:
        return f"{int(number)}.0"
    if digits is None:
        return np.format_float_positional(number, unique=True, trim="0")
    # Never round into the integer part: "x > 7074.0" would exclude the 7074 that the
    # threshold 7073.5, a midpoint between integers, lets through.
    whole = len(str(int(abs(number))).lstrip("0"))
    return np.format_float_positional(
        number, precision=max(digits, whole + 1), unique=True, fractional=False, trim="0"
    )


def to_numbers(values: object) -> np.ndarray:
    """Raw values as floats, NaN wherever one is missing (None, NaN, ``pd.NA``, NaT).

    Parameters
    ----------
    values : array-like of shape (n_samples,)
        Numbers, booleans or missing values, in any (also nullable pandas) dtype.

    Returns
    -------
    ndarray of float64
    """
    cells = np.asarray(values)
    if cells.dtype.kind in "biuf":
        return cells.astype(np.float64)
    cells = cells.astype(object)
    return np.where(pd.isna(cells), np.nan, cells).astype(np.float64)


def _is_missing(value: object) -> bool:
    # pd.isna of a list or an array held in a cell is an array: such a cell is a value
    missing = pd.isna(value)
    return isinstance(missing, bool | np.bool_) and bool(missing)


def composed(text: str) -> str:
    """``text`` in Unicode's composed form (NFC); ASCII text as it is, at no cost."""
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def _category_text(value: object) -> str:
    if isinstance(value, bool) or not isinstance(value, Real):
        return composed(str(value))
    if isinstance(value, Integral):
        return str(int(value))  # exactly: float(10**400) overflows
    return str(int(value)) if float(value).is_integer() else str(value)


def category_texts(values: object) -> np.ndarray:
    """The text each raw value is known by as a category; ``None`` where one is missing.

    Equal numbers get the same text (``1``, ``1.0`` and ``np.int64(1)`` are all ``"1"``),
    so integer categories match the same numbers given as floats, and the text ``"1"``.
    Other values are their ``str`` (booleans stay ``"True"`` and ``"False"``) in Unicode's
    composed form (NFC): ``"café"`` with ``"é"`` precomposed or as ``"e"`` and a combining
    accent is one category.

    Parameters
    ----------
    values : array-like of shape (n_samples,)

    Returns
    -------
    ndarray of object (str or None)
    """
    codes, texts = category_codes(values)
    table = np.array(list(texts) + [None], dtype=object)
    return table[codes]  # code -1 (missing) picks the last entry, None


#: Kinds of column (``pandas.api.types.infer_dtype``) whose equal values have one text.
_SAME_TEXT_WHEN_EQUAL = frozenset({"string", "empty", "boolean", "integer", "floating",
                                   "mixed-integer-float", "categorical"})


def category_codes(values: object) -> tuple[np.ndarray, tuple[str, ...]]:
    """Each value's category as a code into the distinct texts of :func:`category_texts`.

    Each distinct value is turned into text once, so a million rows of a few categories
    cost a few ``str`` calls, not a million.

    Parameters
    ----------
    values : array-like of shape (n_samples,)

    Returns
    -------
    codes : ndarray of int, shape (n_samples,)
        Index into ``texts``; -1 where the value is missing.
    texts : tuple of str
        The distinct texts, in order of first appearance.
    """
    cells = values if isinstance(values, pd.Series) else pd.Series(
        np.asarray(values, dtype=object), dtype=object)
    if pd.api.types.infer_dtype(cells, skipna=True) not in _SAME_TEXT_WHEN_EQUAL:
        # factorize merges equal values, which may print differently (True == 1,
        # Decimal("1") == Decimal("1.0"), a timedelta and a pd.Timedelta): text first
        cells = pd.Series([v if _is_missing(v) else _category_text(v) for v in cells],
                          dtype=object)
    codes, uniques = pd.factorize(cells, use_na_sentinel=True)
    uniques = np.asarray(uniques, dtype=object)
    missing = pd.isna(uniques)
    texts = np.array([None if m else _category_text(v) for v, m in zip(uniques, missing)],
                     dtype=object)
    # distinct values may share a text (1 and 1.0): one code per text
    merged, distinct = pd.factorize(texts, use_na_sentinel=True)
    # the appended -1 is what code -1 (missing) picks, also when no value is present
    codes = np.append(merged, -1)[codes]
    return codes, tuple(str(t) for t in distinct)


def _plain(value: object) -> object:
    """Turn numpy scalars into Python scalars so that ``repr`` rebuilds the value."""
    if isinstance(value, np.generic):
        return value.item()
    return value


@dataclass(frozen=True)
class Predicate:
    """A test on one feature: ``feature relation value``.

    Parameters
    ----------
    feature : str
        Name of the original (non-binarized) feature.
    relation : {"<=", ">", "==", "!="}
        Comparison of the feature's value with ``value``. A missing value satisfies none
        of them: ``!=`` is a known value other than ``value``, as ``>`` is a known value
        above it.
    value : float, int or str
        The threshold or category, kept exactly.

    Examples
    --------
    >>> p = Predicate("petal length", "<=", 4.95)
    >>> str(p)
    'petal length <= 4.95'
    >>> p.negate()
    Predicate(feature='petal length', relation='>', value=4.95)
    """

    feature: str
    relation: str
    value: object

    def __post_init__(self) -> None:
        if self.relation not in RELATIONS:
            raise ValueError(
                f"Predicate relation must be one of {RELATIONS}, got {self.relation!r}."
            )
        if not isinstance(self.feature, str):
            object.__setattr__(self, "feature", str(self.feature))
        object.__setattr__(self, "value", _plain(self.value))
        if self.relation in ("<=", ">") and not isinstance(self.value, Real):
            raise ValueError(
                f"Predicate {self.feature!r} {self.relation} needs a numeric value, "
                f"got {self.value!r}."
            )

    @property
    def is_threshold(self) -> bool:
        """Whether this is a numeric threshold test (``<=`` or ``>``)."""
        return self.relation in ("<=", ">")

    def negate(self) -> Predicate:
        """Return the opposite test (``<=`` and ``>``, ``==`` and ``!=`` swap).

        Returns
        -------
        Predicate
            The complement on known values; a missing value satisfies neither.
        """
        return Predicate(self.feature, _NEGATED[self.relation], self.value)

    def evaluate(self, values: object) -> np.ndarray:
        """Evaluate on raw feature values.

        A missing value satisfies no test: neither ``<=`` nor ``>``, neither ``==`` nor
        ``!=`` (a known value other than the category). Categories are compared by
        :func:`category_texts`, so ``1``, ``1.0`` and ``"1"`` are the same category.

        Parameters
        ----------
        values : array-like of shape (n_samples,)
            Raw values of :attr:`feature`.

        Returns
        -------
        ndarray of bool of shape (n_samples,)
            Whether each value passes the test (``False`` for a missing one).
        """
        if self.is_threshold:
            x = to_numbers(values)
            with np.errstate(invalid="ignore"):
                result = x <= self.value if self.relation == "<=" else x > self.value
            return np.asarray(result, dtype=bool)
        codes, texts = category_codes(values)
        wanted = _category_text(self.value)
        equal = codes == (texts.index(wanted) if wanted in texts else -2)
        return equal if self.relation == "==" else ~equal & (codes >= 0)

    def describe(self, digits: int | None = DEFAULT_DIGITS) -> str:
        """Text such as ``age > 39.5`` (numbers exact, or rounded to ``digits``).

        Parameters
        ----------
        digits : int or None, default=None
            Significant digits to round the value to; ``None`` prints it exactly.

        Returns
        -------
        str
            The feature (quoted when needed), the relation and the value.
        """
        value = format_value(self.value, digits)
        return f"{readable(self.feature, name=True)} {self.relation} {value}"

    def __str__(self) -> str:
        return self.describe()
