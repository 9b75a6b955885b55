"""The learner's literals: every binary column and its complement.

With ``m`` binary columns the literals are numbered ``0 .. 2m-1``: literal ``j < m`` is
column ``j``, literal ``j + m`` its complement. A :class:`LiteralSpace` knows each literal's
column name, its :class:`~imli.predicates.Predicate` (if the column has one) and the feature
it belongs to, and turns learned literal sets into :mod:`imli.rules` objects.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from .predicates import Predicate
from .rules import CNF, DNF, Clause, Literal

__all__ = ["LiteralSpace", "literal_matrix"]


def literal_matrix(X: np.ndarray) -> np.ndarray:
    """Columns and their complements side by side: bool array (n, 2m)."""
    return np.hstack([X, ~X])


@dataclass(frozen=True)
class LiteralSpace:
    """Names, meanings and features of the ``2m`` literals over ``m`` binary columns.

    Parameters
    ----------
    names : tuple of str
        Column names.
    specs : tuple of (Predicate or None)
        What each column means; ``None`` prints the column by name.
    """

    names: tuple[str, ...]
    specs: tuple[Predicate | None, ...]
    features: tuple[str, ...] = field(init=False)
    feature_of: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.names) != len(self.specs):
            raise ValueError(
                f"Got {len(self.specs)} column specs for {len(self.names)} columns; "
                "give one Predicate (or None) per column."
            )
        keys = [s.feature if s is not None else n for n, s in zip(self.names, self.specs)]
        features = tuple(dict.fromkeys(keys))
        index = {f: i for i, f in enumerate(features)}
        per_column = np.array([index[k] for k in keys], dtype=np.int64)
        object.__setattr__(self, "features", features)
        object.__setattr__(self, "feature_of", np.concatenate([per_column, per_column]))

    @property
    def n_columns(self) -> int:
        """Number of binary columns ``m``."""
        return len(self.names)

    @property
    def n_literals(self) -> int:
        """Number of literals ``2m``."""
        return 2 * len(self.names)

    def negate(self, j: int) -> int:
        """Index of the complement of literal ``j``."""
        m = self.n_columns
        return j + m if j < m else j - m

    def literals_of(self, features: Sequence[str]) -> np.ndarray:
        """Indices of all literals (both polarities) of the named features or columns.

        Raises
        ------
        ValueError
            If a name is neither a feature nor a column.
        """
        chosen = np.zeros(self.n_literals, dtype=bool)
        for name in features:
            if name in self.features:
                chosen |= self.feature_of == self.features.index(name)
            elif name in self.names:
                j = self.names.index(name)
                chosen[[j, j + self.n_columns]] = True
            else:
                raise ValueError(
                    f"Unknown feature {name!r}: name a feature of the column specs or a "
                    f"column (known features: {list(self.features)[:10]}"
                    f"{'...' if len(self.features) > 10 else ''})."
                )
        return np.flatnonzero(chosen)

    def canonical(self, L: np.ndarray, allowed: np.ndarray | None = None) -> np.ndarray:
        """Map each complemented literal to an identical plain column of its feature.

        ``not (f <= t)`` becomes ``f > t`` when the column ``f > t`` exists, is
        ``allowed`` (a mask over the literals; default all) and the two agree on every
        row of ``L`` (the literal matrix of the training rows the objective counts,
        :func:`imli.rows.merge_rows`). Other literals map to themselves.

        Returns
        -------
        ndarray of int, shape (2m,)
        """
        m = self.n_columns
        canon = np.arange(2 * m)
        if L.shape[0] == 0:
            return canon
        packed = np.packbits(L, axis=0).T  # one byte string per literal
        keys = {}
        for j in range(m):
            if allowed is not None and not allowed[j]:
                continue  # an excluded column is never written in another's place
            keys.setdefault((int(self.feature_of[j]), packed[j].tobytes()), j)
        for j in range(m, 2 * m):
            canon[j] = keys.get((int(self.feature_of[j]), packed[j].tobytes()), j)
        return canon

    def literal(self, j: int) -> Literal:
        """The :class:`~imli.rules.Literal` object of literal index ``j``."""
        m = self.n_columns
        column = j if j < m else j - m
        return Literal(column, self.names[column], j >= m, self.specs[column])

    def clause(self, literals: frozenset[int], connective: str) -> Clause:
        """A :class:`~imli.rules.Clause` over sorted literal indices."""
        ordered = sorted(literals, key=lambda j: (j % self.n_columns, j))
        return Clause(tuple(self.literal(j) for j in ordered), connective)

    def cnf(self, clauses: Sequence[frozenset[int]]) -> CNF:
        """A :class:`~imli.rules.CNF` from literal-index clauses."""
        return CNF(tuple(self.clause(c, "OR") for c in clauses))

    def dnf(self, terms: Sequence[frozenset[int]]) -> DNF:
        """A :class:`~imli.rules.DNF` from literal-index terms."""
        return DNF(tuple(self.clause(t, "AND") for t in terms))
