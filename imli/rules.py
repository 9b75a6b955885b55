"""Learned rules as small immutable values: ``Literal`` → ``Clause`` → ``CNF`` / ``DNF``.

(Decision lists and sets are in :mod:`imli.decisions`.) Every object is a frozen dataclass: hashable,
comparable, ``str`` for people and ``repr`` that rebuilds it exactly. Each evaluates itself
on a binary matrix (the columns used in ``fit``, in the same order) and says which of its
parts fired; no rule is ever evaluated by building strings.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .predicates import DEFAULT_DIGITS, Predicate, format_value, readable

__all__ = ["CNF", "DNF", "Clause", "Literal", "as_binary_matrix"]


def as_binary_matrix(X: object) -> np.ndarray:
    """Turn a 0/1 matrix or DataFrame into a 2-D bool ndarray.

    Raises
    ------
    ValueError
        If ``X`` is not 2-D or holds missing values.
    """
    values = X.to_numpy() if hasattr(X, "to_numpy") else np.asarray(X)
    if values.ndim != 2:
        raise ValueError(f"Expected a 2-D binary matrix, got an array of shape {values.shape}.")
    if values.dtype == bool:
        return values
    if pd.isna(values).any():
        raise ValueError("The binary matrix holds missing values; use 0 or 1 in every cell.")
    return values.astype(np.float64) != 0


def _plain(value: object) -> object:
    # a date or time span in nanoseconds would become an integer: kept as numpy's
    if isinstance(value, np.datetime64 | np.timedelta64):
        return value
    return value.item() if isinstance(value, np.generic) else value


@dataclass(frozen=True)
class Literal:
    """A binary column or its complement.

    Parameters
    ----------
    column : int
        Index of the column in the matrix the rule is evaluated on.
    name : str
        The column's name (used for printing when there is no predicate).
    negated : bool, default=False
        Whether the literal is the complement of the column.
    predicate : Predicate or None, default=None
        What the column means; printed instead of ``name`` when given.
    """

    column: int
    name: str
    negated: bool = False
    predicate: Predicate | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "column", int(self.column))
        object.__setattr__(self, "negated", bool(self.negated))

    def negate(self) -> Literal:
        """Return the complementary literal.

        Returns
        -------
        Literal
            The same column with ``negated`` flipped.
        """
        return Literal(self.column, self.name, not self.negated, self.predicate)

    def evaluate(self, X: object) -> np.ndarray:
        """Truth value on every row of the binary matrix ``X``.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_columns)
            A 0/1 matrix with the columns used in ``fit``, in the same order.

        Returns
        -------
        ndarray of bool of shape (n_samples,)
            Whether the literal holds on each row.
        """
        return as_binary_matrix(X)[:, self.column] != self.negated

    def describe(self, digits: int | None = DEFAULT_DIGITS) -> str:
        """Human-readable text; numbers exact (or rounded to ``digits`` significant digits).

        A complemented column prints as ``not (...)``: ``not (f <= t)``, ``not (c == v)``.
        A missing or unselected value satisfies no test (neither ``f > t`` nor ``c != v``,
        a known other category) but does satisfy the complement of every column, so the
        complement is not the opposite test.

        Parameters
        ----------
        digits : int or None, default=None
            Significant digits to round numbers to; ``None`` prints them exactly.

        Returns
        -------
        str
            The predicate's text (or the column's name), wrapped in ``not`` when negated.
        """
        if self.predicate is None:
            name = readable(self.name, name=True)
            return f"not {name}" if self.negated else name
        text = self.predicate.describe(digits)
        return f"not ({text})" if self.negated else text

    def __str__(self) -> str:
        return self.describe()


_CONNECTIVES = ("OR", "AND")
#: (connective, relation, negated) -> how such category tests of one feature print as a set
_SET_FORMS = {
    ("OR", "==", False): "{name} in {values}",
    ("AND", "==", True): "not ({name} in {values})",
    ("AND", "!=", False): "{name} not in {values}",
}


def _set_form(literal: Literal, connective: str) -> str | None:
    """The set form ``literal`` joins in a clause of ``connective``, or ``None``."""
    if literal.predicate is None:
        return None
    return _SET_FORMS.get((connective, literal.predicate.relation, literal.negated))


@dataclass(frozen=True)
class Clause:
    """A disjunction (``connective="OR"``) or conjunction (``"AND"``) of literals.

    The empty disjunction is false, the empty conjunction true.

    Parameters
    ----------
    literals : tuple of Literal
        The literals, in printing order.
    connective : {"OR", "AND"}, default="OR"
        How the literals combine.

    Raises
    ------
    ValueError
        If ``connective`` is neither ``"OR"`` nor ``"AND"``.
    """

    literals: tuple[Literal, ...]
    connective: str = "OR"

    def __post_init__(self) -> None:
        if self.connective not in _CONNECTIVES:
            raise ValueError(f"connective must be 'OR' or 'AND', got {self.connective!r}.")
        object.__setattr__(self, "literals", tuple(self.literals))

    def __len__(self) -> int:
        return len(self.literals)

    def negate(self) -> Clause:
        """Return the complement (De Morgan).

        Returns
        -------
        Clause
            The complemented literals joined by the other connective.
        """
        other = "AND" if self.connective == "OR" else "OR"
        return Clause(tuple(lit.negate() for lit in self.literals), other)

    def evaluate(self, X: object) -> np.ndarray:
        """Truth value on every row of the binary matrix ``X``.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_columns)
            A 0/1 matrix with the columns used in ``fit``, in the same order.

        Returns
        -------
        ndarray of bool of shape (n_samples,)
            Whether the clause holds on each row.
        """
        B = as_binary_matrix(X)
        if not self.literals:
            return np.full(B.shape[0], self.connective == "AND")
        cols = [lit.column for lit in self.literals]
        neg = np.array([lit.negated for lit in self.literals])
        values = B[:, cols] != neg
        return values.any(axis=1) if self.connective == "OR" else values.all(axis=1)

    def describe(self, digits: int | None = None) -> str:
        """Text such as ``(a <= 1.0 OR b == x)``; ``TRUE`` / ``FALSE`` when empty.

        Tests of one feature against several categories print as one set (where the first
        of them stands), when the set means the same: ``c == a OR c == b`` as
        ``c in {a, b}``; ``not (c == a) AND not (c == b)`` as ``not (c in {a, b})`` (true
        for a missing value); ``c != a AND c != b`` as ``c not in {a, b}`` (a known value
        outside the set). Each category still counts as one literal.

        Parameters
        ----------
        digits : int or None, default=None
            Significant digits to round numbers to; ``None`` prints them exactly.

        Returns
        -------
        str
            The clause's text.
        """
        if not self.literals:
            return "TRUE" if self.connective == "AND" else "FALSE"
        forms = [_set_form(lit, self.connective) for lit in self.literals]
        members: dict[tuple, list] = {}
        for lit, form in zip(self.literals, forms):
            if form is not None:
                members.setdefault((lit.predicate.feature, form), []).append(
                    lit.predicate.value)
        parts, done = [], set()
        for lit, form in zip(self.literals, forms):
            key = None if form is None else (lit.predicate.feature, form)
            if key is None or len(members[key]) < 2:
                parts.append(lit.describe(digits))
            elif key not in done:
                done.add(key)
                values = ", ".join(format_value(v, digits) for v in members[key])
                parts.append(form.format(name=readable(key[0], name=True),
                                         values="{" + values + "}"))
        return "(" + f" {self.connective} ".join(parts) + ")"

    def __str__(self) -> str:
        return self.describe()


class _Normal:
    """Shared behaviour of :class:`CNF` and :class:`DNF`."""

    clauses: tuple[Clause, ...]
    _outer = "AND"
    _inner = "OR"

    def _check(self) -> None:
        object.__setattr__(self, "clauses", tuple(self.clauses))
        for clause in self.clauses:
            if clause.connective != self._inner:
                raise ValueError(
                    f"{type(self).__name__} clauses must use {self._inner!r}, "
                    f"got {clause.connective!r}."
                )

    @property
    def size(self) -> int:
        """Number of literals (the rule size ``|R|``)."""
        return sum(len(c) for c in self.clauses)

    @property
    def literals(self) -> tuple[Literal, ...]:
        """All literals, clause by clause."""
        return tuple(lit for c in self.clauses for lit in c.literals)

    def fired(self, X: object) -> np.ndarray:
        """Which clauses hold on each row.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_columns)
            A 0/1 matrix with the columns used in ``fit``, in the same order.

        Returns
        -------
        ndarray of bool of shape (n_samples, n_clauses)
            Whether each clause (or term) holds on each row.
        """
        B = as_binary_matrix(X)
        if not self.clauses:
            return np.zeros((B.shape[0], 0), dtype=bool)
        return np.column_stack([c.evaluate(B) for c in self.clauses])

    def covers(self, X: object) -> np.ndarray:
        """Rows on which the rule is true.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_columns)
            A 0/1 matrix with the columns used in ``fit``, in the same order.

        Returns
        -------
        ndarray of bool of shape (n_samples,)
            Whether the rule holds on each row.
        """
        parts = self.fired(X)
        return parts.all(axis=1) if self._outer == "AND" else parts.any(axis=1)

    def describe(self, digits: int | None = None) -> str:
        """Text with the column names; numbers exact, or to ``digits`` significant digits.

        Parameters
        ----------
        digits : int or None, default=None
            Significant digits to round numbers to; ``None`` prints them exactly.

        Returns
        -------
        str
            The clauses joined by the outer connective; ``TRUE`` / ``FALSE`` when empty.
        """
        if not self.clauses:
            return "TRUE" if self._outer == "AND" else "FALSE"
        return f" {self._outer} ".join(c.describe(digits) for c in self.clauses)

    def __str__(self) -> str:
        return self.describe()


@dataclass(frozen=True)
class CNF(_Normal):
    """A conjunction of disjunctive clauses; the empty CNF is true.

    Parameters
    ----------
    clauses : tuple of Clause
        Clauses with ``connective="OR"``.

    Raises
    ------
    ValueError
        If a clause is not a disjunction.

    Examples
    --------
    >>> a = Literal(0, "a")
    >>> rule = CNF((Clause((a, Literal(1, "b"))), Clause((a.negate(),))))
    >>> str(rule)
    '(a OR b) AND (not a)'
    >>> rule.covers([[0, 1], [1, 1]]).tolist()
    [True, False]
    """

    clauses: tuple[Clause, ...]
    _outer = "AND"
    _inner = "OR"

    def __post_init__(self) -> None:
        self._check()

    def negate(self) -> DNF:
        """Return the complement as a DNF (De Morgan).

        Returns
        -------
        DNF
            The negated clauses, as terms.
        """
        return DNF(tuple(c.negate() for c in self.clauses))


@dataclass(frozen=True)
class DNF(_Normal):
    """A disjunction of conjunctive terms; the empty DNF is false.

    Parameters
    ----------
    clauses : tuple of Clause
        Terms with ``connective="AND"``.

    Raises
    ------
    ValueError
        If a term is not a conjunction.
    """

    clauses: tuple[Clause, ...]
    _outer = "OR"
    _inner = "AND"

    def __post_init__(self) -> None:
        self._check()

    def negate(self) -> CNF:
        """Return the complement as a CNF (De Morgan).

        Returns
        -------
        CNF
            The negated terms, as clauses.
        """
        return CNF(tuple(c.negate() for c in self.clauses))
