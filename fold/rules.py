"""Learned rules as small immutable values that evaluate themselves.

``Literal`` (feature, relation, value) → ``Rule`` (a conjunction of literals
with exceptions, each exception itself a ``Rule``: the body of an ``ab``
predicate) → ``ClassRules`` (the rules of one class) → ``Theory`` (classes
tried in order, then a default class).

The Python evaluation here is the reference semantics; the Prolog program
written by :mod:`fold.program` must agree with it on every row.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .errors import FoldInputError
from .quoting import number_text, readable
from .table import CATEGORICAL, NUMERIC, ColumnView, as_view

__all__ = ["Literal", "Rule", "ClassRules", "Theory", "RELATIONS"]

NUMERIC_RELATIONS = ("<=", ">")
CATEGORICAL_RELATIONS = ("==", "!=")
RELATIONS = NUMERIC_RELATIONS + CATEGORICAL_RELATIONS


@dataclass(frozen=True)
class Literal:
    """One test on one feature: ``feature relation value``.

    Numeric relations ``<=`` and ``>`` take a finite float threshold;
    categorical relations ``==`` and ``!=`` take a ``str`` category. A row
    whose cell is unknown satisfies neither a literal nor its complement;
    ``!=`` also holds for a :class:`~fold.Negated` cell that negates ``value``.

    Parameters
    ----------
    feature : str
        The column tested.
    relation : {"<=", ">", "==", "!="}
        The test.
    value : float or str
        A finite threshold (numeric relations) or a category (categorical ones).

    Raises
    ------
    FoldInputError
        If feature is not a str, relation is none of the four, or value is
        not a finite number for a numeric relation, or not a str for a categorical one.

    Examples
    --------
    >>> import pandas as pd
    >>> lit = Literal("age", "<=", 30.0)
    >>> str(lit)
    'age <= 30'
    >>> lit.covers(pd.DataFrame({"age": [20.0, 40.0, float("nan")]})).tolist()
    [True, False, False]
    """

    feature: str
    relation: str
    value: float | str

    def __post_init__(self) -> None:
        if not isinstance(self.feature, str):
            raise FoldInputError(f"feature must be a str, got {self.feature!r}")
        if self.relation in NUMERIC_RELATIONS:
            if isinstance(self.value, bool) or not isinstance(self.value, numbers.Real):
                raise FoldInputError(f"{self.relation} needs a number, got {self.value!r}")
            if not math.isfinite(float(self.value)):
                raise FoldInputError(f"threshold must be finite, got {self.value!r}")
            object.__setattr__(self, "value", float(self.value))
        elif self.relation in CATEGORICAL_RELATIONS:
            if not isinstance(self.value, str):
                raise FoldInputError(f"{self.relation} needs a str value, got {self.value!r}")
        else:
            raise FoldInputError(f"relation must be one of {RELATIONS}, got {self.relation!r}")

    @property
    def kind(self) -> str:
        """``"numeric"`` or ``"categorical"``."""
        return NUMERIC if self.relation in NUMERIC_RELATIONS else CATEGORICAL

    def covers(self, X: pd.DataFrame | ColumnView) -> np.ndarray:
        """Boolean mask of the rows of ``X`` that satisfy this literal.

        Parameters
        ----------
        X : DataFrame or ColumnView
            The rows, with (at least) the columns the rules test.

        Returns
        -------
        ndarray of bool of shape (n_samples,)
            Whether each row satisfies the literal (``False`` for an unknown cell).

        Raises
        ------
        FoldInputError
            If a numeric literal's column holds text.
        """
        view = as_view(X)
        if self.kind == NUMERIC:
            if view.kind(self.feature) != NUMERIC:
                raise FoldInputError(
                    f"literal {self} needs a numeric column {self.feature!r}, "
                    "but the table holds text there"
                )
            values = view.numeric(self.feature)
            with np.errstate(invalid="ignore"):
                return values <= self.value if self.relation == "<=" else values > self.value
        cells = view.categorical(self.feature)
        # a 0-d object array: compared as Python strings (a str scalar would become a
        # numpy '<U' string and lose its trailing NULs)
        equal = cells.known == np.array(self.value, dtype=object)
        if self.relation == "==":
            return equal
        known = cells.known != None  # noqa: E711 - elementwise test on an object array
        return (known & ~equal) | cells.negated_mask(self.value)

    def __str__(self) -> str:
        # exact: a learned threshold is a short decimal (fold.search.short_between), so
        # the rule a person reads decides every row as the program does
        value = number_text(self.value) if self.kind == NUMERIC else readable(self.value)
        return f"{readable(self.feature, name=True)} {self.relation} {value}"


@dataclass(frozen=True)
class Rule:
    """A default rule: all ``literals`` hold and no ``exceptions`` rule holds.

    Each exception is a ``Rule`` (with its own exceptions: exceptions to
    exceptions); together they are the clauses of one ``ab`` predicate.

    Parameters
    ----------
    literals : tuple of Literal, default=()
        The body; empty means "every row".
    exceptions : tuple of Rule, default=()
        The exception rules (the clauses of the rule's ``ab`` predicate).
    """

    literals: tuple = ()
    exceptions: tuple = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "literals", tuple(self.literals))
        object.__setattr__(self, "exceptions", tuple(self.exceptions))

    def body_covers(self, X: pd.DataFrame | ColumnView) -> np.ndarray:
        """Rows satisfying every literal (exceptions ignored).

        Parameters
        ----------
        X : DataFrame or ColumnView
            The rows, with (at least) the columns the rules test.

        Returns
        -------
        ndarray of bool of shape (n_samples,)
            Whether the body holds on each row.
        """
        view = as_view(X)
        mask = np.ones(view.n_rows, dtype=bool)
        for literal in self.literals:
            mask &= literal.covers(view)
        return mask

    def exception_covers(self, X: pd.DataFrame | ColumnView) -> np.ndarray:
        """Rows for which some exception holds (the ``ab`` predicate).

        Parameters
        ----------
        X : DataFrame or ColumnView
            The rows, with (at least) the columns the rules test.

        Returns
        -------
        ndarray of bool of shape (n_samples,)
            Whether some exception rule fires on each row.
        """
        view = as_view(X)
        mask = np.zeros(view.n_rows, dtype=bool)
        for exception in self.exceptions:
            mask |= exception.covers(view)
        return mask

    def covers(self, X: pd.DataFrame | ColumnView) -> np.ndarray:
        """Rows for which the rule fires: body holds and no exception does.

        Parameters
        ----------
        X : DataFrame or ColumnView
            The rows, with (at least) the columns the rules test.

        Returns
        -------
        ndarray of bool of shape (n_samples,)
            Whether the rule fires on each row.
        """
        view = as_view(X)
        mask = self.body_covers(view)
        if self.exceptions and mask.any():
            mask &= ~self.exception_covers(view)
        return mask

    @property
    def n_literals(self) -> int:
        """Literals in this rule and, recursively, in its exceptions."""
        return len(self.literals) + sum(e.n_literals for e in self.exceptions)

    @property
    def n_rules(self) -> int:
        """This rule plus, recursively, every exception rule."""
        return 1 + sum(e.n_rules for e in self.exceptions)

    @property
    def printed_exceptions(self) -> tuple:
        """The exceptions in the order :meth:`__str__` prints them.

        The single category tests of a feature that has several (printed as one set) are
        moved up to the first of them.
        """
        keys = [_category_key(e) for e in self.exceptions]
        grouped = {k for k in keys if k is not None and keys.count(k) > 1}
        order, done = [], set()
        for i, key in enumerate(keys):
            if key not in grouped:
                order.append(i)
            elif key not in done:
                done.add(key)
                order += [j for j, other in enumerate(keys) if other == key]
        return tuple(self.exceptions[i] for i in order)

    def __str__(self) -> str:
        """The rule as a person reads it: ``body unless (exception or ...)``.

        Several tests of one feature against categories print as one set: body literals
        ``c != a and c != b`` as ``c not in {a, b}``, exceptions ``c == a or c == b`` (each
        a single test) as ``c in {a, b}``, where the first of them stands. Each category
        still counts as one literal.
        """
        body = _joined([(str(lit), _category_test(lit, "!=")) for lit in self.literals],
                       " and ", "not in") or "true"
        if not self.exceptions:
            return body
        # "(B unless (C))" among several: "A or B unless (C)" could read as (A or B) unless C
        parts = [(f"({e})" if e.exceptions and len(self.exceptions) > 1 else str(e),
                  None if _category_key(e) is None else e.literals[0])
                 for e in self.exceptions]
        return f"{body} unless ({_joined(parts, ' or ', 'in')})"


def _category_test(literal: Literal, relation: str) -> Literal | None:
    """``literal`` when it tests a category with ``relation``, else ``None``."""
    return literal if literal.relation == relation else None


def _category_key(exception: Rule) -> str | None:
    """The feature an exception tests when it is one category test (``c == a``) with no
    exceptions of its own, the kind that prints in a set; else ``None``."""
    if exception.exceptions or len(exception.literals) != 1:
        return None
    literal = _category_test(exception.literals[0], "==")
    return None if literal is None else literal.feature


def _joined(parts: list, joiner: str, word: str) -> str:
    """Texts joined by ``joiner``; the category tests of a feature that has several
    (``(text, literal)`` pairs whose literal is not ``None``) as one set at the first."""
    values: dict[str, list] = {}
    for _, literal in parts:
        if literal is not None:
            values.setdefault(literal.feature, []).append(literal.value)
    out, done = [], set()
    for text, literal in parts:
        if literal is None or len(values[literal.feature]) < 2:
            out.append(text)
        elif literal.feature not in done:
            done.add(literal.feature)
            members = ", ".join(readable(v) for v in values[literal.feature])
            out.append(f"{readable(literal.feature, name=True)} {word} {{{members}}}")
    return joiner.join(out)


@dataclass(frozen=True)
class ClassRules:
    """The rules learned for one class; the class holds if any rule fires.

    Parameters
    ----------
    label : object
        The class label (as in ``y``).
    rules : tuple of Rule, default=()
        The class's rules; no rule: the class never holds.
    """

    label: object
    rules: tuple = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", tuple(self.rules))

    def covers(self, X: pd.DataFrame | ColumnView) -> np.ndarray:
        """Rows for which some rule of this class fires.

        Parameters
        ----------
        X : DataFrame or ColumnView
            The rows, with (at least) the columns the rules test.

        Returns
        -------
        ndarray of bool of shape (n_samples,)
            Whether the class holds on each row.
        """
        view = as_view(X)
        mask = np.zeros(view.n_rows, dtype=bool)
        for rule in self.rules:
            mask |= rule.covers(view)
        return mask

    def __str__(self) -> str:
        lines = [f"{readable(self.label)} if {rule}" for rule in self.rules]
        return "\n".join(lines) if lines else f"{readable(self.label)}: no rule"


@dataclass(frozen=True)
class Theory:
    """A decision list over classes: the first class with a firing rule wins.

    Parameters
    ----------
    classes : tuple of ClassRules, default=()
        Tried in order.
    default : object, default=None
        The label of rows no class rule covers.
    """

    classes: tuple = ()
    default: object = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "classes", tuple(self.classes))

    @property
    def labels(self) -> tuple:
        """Class labels in decision order, the default last."""
        return tuple(c.label for c in self.classes) + (self.default,)

    def decide(self, X: pd.DataFrame | ColumnView) -> np.ndarray:
        """Index into :attr:`labels` of each row's class.

        Parameters
        ----------
        X : DataFrame or ColumnView
            The rows, with (at least) the columns the rules test.

        Returns
        -------
        ndarray of int64 of shape (n_samples,)
            The first class whose rules fire on each row; ``len(classes)`` for the
            default.
        """
        view = as_view(X)
        decision = np.full(view.n_rows, len(self.classes), dtype=np.int64)
        for k in range(len(self.classes) - 1, -1, -1):
            decision[self.classes[k].covers(view)] = k
        return decision

    def predict(self, X: pd.DataFrame | ColumnView) -> np.ndarray:
        """Each row's label, evaluated in Python.

        Parameters
        ----------
        X : DataFrame or ColumnView
            The rows, with (at least) the columns the rules test.

        Returns
        -------
        ndarray of object of shape (n_samples,)
            The label of each row's class, from :attr:`labels`.
        """
        labels = np.empty(len(self.labels), dtype=object)
        labels[:] = list(self.labels)
        return labels[self.decide(X)]

    @property
    def rules(self) -> tuple:
        """Every top-level rule of every class, in order."""
        return tuple(rule for c in self.classes for rule in c.rules)

    @property
    def n_rules(self) -> int:
        """Number of clauses: default rules and exception rules."""
        return sum(rule.n_rules for rule in self.rules)

    @property
    def n_literals(self) -> int:
        """Number of literals over every rule and exception."""
        return sum(rule.n_literals for rule in self.rules)

    def __str__(self) -> str:
        parts = [str(c) for c in self.classes] + [f"{readable(self.default)} otherwise"]
        return "\n".join(parts)
