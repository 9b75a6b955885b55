"""What a boolean column means: ``Predicate(feature, relation, value)``.

A predicate describes one binary column of the learner's input, e.g. ``petal length <= 5.0``
or ``color == red``. It is used for printing rules and for redundancy removal (AIES 2019,
Alg. 1). Values are kept exact; they are rounded only when printed.
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np

__all__ = ["RELATIONS", "Predicate", "format_value"]

RELATIONS = ("<=", ">", "==", "!=")
_NEGATED = {"<=": ">", ">": "<=", "==": "!=", "!=": "=="}
#: Significant digits used when a number is printed (the object keeps the exact value).
DEFAULT_DIGITS = 4


def format_value(value: object, digits: int = DEFAULT_DIGITS) -> str:
    """Render a predicate value for people: numbers with ``digits`` significant digits.

    Parameters
    ----------
    value : object
        A number (rounded for display only) or any other value (shown with ``str``).
    digits : int, default=4
        Significant digits of a number.

    Returns
    -------
    str
    """
    if isinstance(value, (bool, Integral)) or not isinstance(value, Real):
        return str(value)
    number = float(value)
    if not np.isfinite(number):
        return str(number)
    if number == int(number) and abs(number) < 1e15:
        return f"{int(number)}.0"
    return np.format_float_positional(
        number, precision=digits, unique=True, fractional=False, trim="0"
    )


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
        Comparison of the feature's value with ``value``.
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
        """The complementary test (``<=`` and ``>``, ``==`` and ``!=`` swap)."""
        return Predicate(self.feature, _NEGATED[self.relation], self.value)

    def evaluate(self, values: object) -> np.ndarray:
        """Evaluate on raw feature values; missing numbers satisfy no threshold.

        Parameters
        ----------
        values : array-like of shape (n_samples,)
            Raw values of :attr:`feature`.

        Returns
        -------
        ndarray of bool
        """
        if self.is_threshold:
            x = np.asarray(values, dtype=np.float64)
            with np.errstate(invalid="ignore"):
                result = x <= self.value if self.relation == "<=" else x > self.value
            return np.asarray(result, dtype=bool)
        equal = np.asarray(np.asarray(values, dtype=object) == self.value, dtype=bool)
        return equal if self.relation == "==" else ~equal

    def describe(self, digits: int = DEFAULT_DIGITS) -> str:
        """Text with numbers rounded to ``digits`` significant digits."""
        return f"{self.feature} {self.relation} {format_value(self.value, digits)}"

    def __str__(self) -> str:
        return self.describe()
