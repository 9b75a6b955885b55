"""Decision lists and decision sets as immutable values: ``Rule`` → ``DecisionList`` /
``DecisionSet``. Like :mod:`imli.rules`, each object prints for people, has an exact
``repr``, and evaluates itself on a binary matrix (the columns used in ``fit``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from .predicates import readable
from .rules import Clause, Literal, _plain, as_binary_matrix

__all__ = ["DecisionList", "DecisionSet", "Rule"]


def _shown(label: object) -> str:
    """A class label as rule text shows it: text quoted when it could be misread (a line
    break, ``THEN``, ``ELSE``: see :func:`~imli.predicates.readable`)."""
    return readable(label) if isinstance(label, str) else str(label)


@dataclass(frozen=True)
class Rule:
    """One entry of a decision list or set: if ``term`` holds, predict ``label``.

    Parameters
    ----------
    term : Clause
        A conjunction (``connective="AND"``).
    label : object
        The class the rule predicts.

    Raises
    ------
    ValueError
        If ``term`` is not a conjunction.
    """

    term: Clause
    label: object

    def __post_init__(self) -> None:
        if self.term.connective != "AND":
            raise ValueError("A decision rule's term must be a conjunction ('AND').")
        object.__setattr__(self, "label", _plain(self.label))

    def describe(self, digits: int | None = None) -> str:
        """Text ``IF term THEN label``.

        Parameters
        ----------
        digits : int or None, default=None
            Significant digits to round numbers to; ``None`` prints them exactly.

        Returns
        -------
        str
            The rule's text.
        """
        return f"IF {self.term.describe(digits)} THEN {_shown(self.label)}"

    def __str__(self) -> str:
        return self.describe()


class _RuleCollection:
    """Shared behaviour of :class:`DecisionList` and :class:`DecisionSet`."""

    rules: tuple[Rule, ...]
    default: object

    def _check(self) -> None:
        object.__setattr__(self, "rules", tuple(self.rules))
        object.__setattr__(self, "default", _plain(self.default))

    @property
    def size(self) -> int:
        """Number of literals in all terms."""
        return sum(len(r.term) for r in self.rules)

    @property
    def literals(self) -> tuple[Literal, ...]:
        """All literals, rule by rule."""
        return tuple(lit for r in self.rules for lit in r.term.literals)

    def fired(self, X: object) -> np.ndarray:
        """Which rules' terms hold on each row.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_columns)
            A 0/1 matrix with the columns used in ``fit``, in the same order.

        Returns
        -------
        ndarray of bool of shape (n_samples, n_rules)
            Whether each rule's term holds on each row.
        """
        B = as_binary_matrix(X)
        if not self.rules:
            return np.zeros((B.shape[0], 0), dtype=bool)
        return np.column_stack([r.term.evaluate(B) for r in self.rules])

    def covers(self, X: object) -> np.ndarray:
        """Rows on which at least one (non-default) rule fires.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_columns)
            A 0/1 matrix with the columns used in ``fit``, in the same order.

        Returns
        -------
        ndarray of bool of shape (n_samples,)
            Whether some rule's term holds on each row.
        """
        return self.fired(X).any(axis=1)

    def _labels(self) -> np.ndarray:
        return np.array([r.label for r in self.rules] + [self.default], dtype=object)

    def relabel(self, names: Mapping | Sequence):
        """The same rules with each label (the default's too) as ``names[label]``.

        A list or set learned on codes such as 0 and 1, worded with the classes' names.

        Parameters
        ----------
        names : mapping or sequence
            The name of each label, indexed by the label.

        Returns
        -------
        DecisionList or DecisionSet
            Of the same kind, with the labels renamed.

        Examples
        --------
        >>> dl = DecisionList((Rule(Clause((Literal(0, "a"),), "AND"), 1),), 0)
        >>> print(dl.relabel(("no", "yes")))
        IF (a) THEN yes
        ELSE no
        """
        return type(self)(tuple(replace(r, label=names[r.label]) for r in self.rules),
                          names[self.default])

    def describe(self, digits: int | None = None) -> str:
        """One rule per line, the default last.

        Parameters
        ----------
        digits : int or None, default=None
            Significant digits to round numbers to; ``None`` prints them exactly.

        Returns
        -------
        str
            ``IF ... THEN ...`` lines (``ELSE`` before each but the first in a list), then
            ``ELSE`` / ``OTHERWISE`` and the default (``ALWAYS`` without rules).
        """
        lines = [self._prefix(i) + r.describe(digits) for i, r in enumerate(self.rules)]
        lines.append(f"{self._default_word if self.rules else 'ALWAYS'} "
                     f"{_shown(self.default)}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.describe()


@dataclass(frozen=True)
class DecisionList(_RuleCollection):
    """An ordered list of rules; the first rule whose term holds decides.

    Parameters
    ----------
    rules : tuple of Rule
        The rules, in order.
    default : object
        The label of rows no rule fires on.

    Examples
    --------
    >>> a = Literal(0, "a")
    >>> dl = DecisionList((Rule(Clause((a,), "AND"), "yes"),), default="no")
    >>> print(dl)
    IF (a) THEN yes
    ELSE no
    >>> dl.predict([[1], [0]]).tolist()
    ['yes', 'no']
    """

    rules: tuple[Rule, ...]
    default: object
    _default_word = "ELSE"

    def __post_init__(self) -> None:
        self._check()

    @staticmethod
    def _prefix(i: int) -> str:
        return "" if i == 0 else "ELSE "

    def decisive(self, X: object) -> np.ndarray:
        """Index of the rule that decides each row.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_columns)
            A 0/1 matrix with the columns used in ``fit``, in the same order.

        Returns
        -------
        ndarray of int of shape (n_samples,)
            The first rule that fires on each row; ``len(rules)`` for the default.
        """
        fired = self.fired(X)
        hit = np.column_stack([fired, np.ones(fired.shape[0], dtype=bool)])
        return hit.argmax(axis=1)

    def predict(self, X: object) -> np.ndarray:
        """Label of each row.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_columns)
            A 0/1 matrix with the columns used in ``fit``, in the same order.

        Returns
        -------
        ndarray of object of shape (n_samples,)
            The label of the rule that decides each row.
        """
        return self._labels()[self.decisive(X)]


@dataclass(frozen=True)
class DecisionSet(_RuleCollection):
    """An unordered set of rules; overlaps are settled by vote.

    A row takes the label fired by most rules; of labels fired by as many, the one whose
    first fired rule comes earliest in ``rules`` (:class:`~imli.IMLIClassifier` lists the
    most precise on its training rows first); rows no rule fires on take ``default``.

    Parameters
    ----------
    rules : tuple of Rule
        The rules; their order settles ties.
    default : object
        The label of rows no rule fires on.
    """

    rules: tuple[Rule, ...]
    default: object
    _default_word = "OTHERWISE"

    def __post_init__(self) -> None:
        self._check()

    @staticmethod
    def _prefix(i: int) -> str:
        return ""

    def overlap(self, X: object) -> int:
        """Count the rows on which two or more rules fire.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_columns)
            A 0/1 matrix with the columns used in ``fit``, in the same order.

        Returns
        -------
        int
            Number of such rows.
        """
        return int((self.fired(X).sum(axis=1) >= 2).sum())

    def predict(self, X: object) -> np.ndarray:
        """Label of each row, by vote of the rules that fire on it.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_columns)
            A 0/1 matrix with the columns used in ``fit``, in the same order.

        Returns
        -------
        ndarray of object of shape (n_samples,)
            The winning label of each row, ``default`` where no rule fires.
        """
        fired = self.fired(X)
        labels = self._labels()
        out = np.empty(fired.shape[0], dtype=object)
        out[:] = [self.default] * fired.shape[0]
        if not self.rules:
            return out
        # labels told apart as Python values: an object array's == is False between
        # equal datetime64[ns] values
        index: dict = {}
        codes = np.array([index.setdefault(lab, len(index)) for lab in labels[:-1].tolist()])
        distinct = list(index)
        n = len(self.rules)
        order = np.where(fired, np.arange(n), n)  # a fired rule's place, else n
        of = [codes == k for k in range(len(distinct))]
        votes = np.column_stack([fired[:, rules].sum(axis=1) for rules in of])
        earliest = np.column_stack([order[:, rules].min(axis=1) for rules in of])
        # most votes; of equal votes, the label whose first fired rule comes first
        winner = (votes * (n + 1) - earliest).argmax(axis=1)
        some = fired.any(axis=1)
        out[some] = np.array(distinct, dtype=object)[winner[some]]
        return out
