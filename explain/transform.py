"""The filtered transformed dataset: each row keeps only the features LIME selected for it.

Two views of the same selection (DESIGN.md, "Semantics that must hold"):

* the **binary view** for IMLI: threshold columns ``f <= t`` and ``f > t`` at the LIME
  discretizer's bin edges for a numeric feature (each edge moved within the gap between
  the training values around it, so that the rule prints it exactly: every training row
  keeps LIME's bin, while a held-out value inside such a gap is compared with the moved
  threshold, the one the rule states), ``c == v`` per category for a categorical
  one. A row sets only the columns of its selected features; every other column is 0.
* the **table view** for FOLD: the raw value of each selected feature, NaN elsewhere.

With LIME's one-hot view of categories (``LimeConfig(categories="one-hot")``) a row may
also keep what its category is *not* (LIME's ``c_v = 0``): a classical negation, the
binary view's column ``c != v`` and a :class:`fold.Negated` cell of the table view. A row
that keeps its category itself keeps it whole (its value says it is not ``v``).

Both views are built from LIME's feature *indices* and the row's raw values, never from
LIME's rounded label strings (two edges that round alike would collide).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from imli.predicates import format_value, readable, short_between

__all__ = [
    "BinaryColumn",
    "Negations",
    "binary_columns",
    "binary_view",
    "column_name",
    "negation_mask",
    "selection_mask",
    "table_view",
]


@dataclass(frozen=True)
class BinaryColumn:
    """One boolean column of the binary view: ``feature relation value``.

    Parameters
    ----------
    feature : str
        The original column name.
    relation : {"<=", ">", "==", "!="}
        How the row's value is compared (``!=``: a known value other than ``value``).
    value : float or str
        The threshold (exact, never rounded) or the category.
    name : str
        The column's printed name (thresholds shortened, but unique within the feature).
    """

    feature: str
    relation: str
    value: float | str
    name: str

    def holds(self, values: np.ndarray) -> np.ndarray:
        """Whether each of ``values`` satisfies the column; missing values satisfy nothing.

        Parameters
        ----------
        values : ndarray
            Raw values of :attr:`feature`.

        Returns
        -------
        ndarray of bool
            Whether each value passes the test.
        """
        if self.relation in ("==", "!="):
            values = np.asarray(values, dtype=object)
            equal = np.asarray(values == self.value, dtype=bool)
            return equal if self.relation == "==" else ~equal & ~pd.isna(values)
        x = np.asarray(values, dtype=np.float64)
        known = ~np.isnan(x)
        with np.errstate(invalid="ignore"):
            test = x <= self.value if self.relation == "<=" else x > self.value
        return known & test


def binary_columns(
    feature_names: list[str],
    categorical: dict[str, list[str]],
    edges: dict[str, np.ndarray],
    values: dict[str, np.ndarray] | None = None,
    negated: dict[str, list[str]] | None = None,
) -> list[BinaryColumn]:
    """List the binary view's columns, feature by feature in table order.

    Parameters
    ----------
    feature_names : list of str
        All features, in table order.
    categorical : dict
        Categorical feature name -> its categories (sorted).
    edges : dict
        Numeric feature name -> the discretizer's sorted bin edges.
    values : dict, optional
        Numeric feature name -> its training values. Each edge then moves into the gap
        between the training values around it, to the number with the fewest digits there
        (:func:`imli.predicates.short_between`): it splits the training rows as the edge
        does, and the rule text states it exactly.
    negated : dict, optional
        Categorical feature name -> the categories some row's explanation negates: a
        column ``c != v`` each (after the ``c == v`` columns).

    Returns
    -------
    list of BinaryColumn
        Per categorical feature its ``==`` then ``!=`` columns; per numeric feature its
        ``<=`` then ``>`` columns, one per distinct (moved) edge.
    """
    columns: list[BinaryColumn] = []
    for name in feature_names:
        if name in categorical:
            for relation, values_ in (("==", categorical[name]),
                                      ("!=", (negated or {}).get(name, ()))):
                columns.extend(BinaryColumn(name, relation, v, column_name(name, relation, v))
                               for v in values_)
            continue
        cuts = np.unique(np.asarray(edges[name], dtype=np.float64))
        if values is not None:
            cuts = _in_gaps(cuts, values[name])
        for relation in ("<=", ">"):
            columns.extend(
                BinaryColumn(name, relation, float(t), column_name(name, relation, t))
                for t in cuts
            )
    return columns


def column_name(feature: str, relation: str, value) -> str:
    """The printed name of the binary view's column ``feature relation value``."""
    return f"{readable(feature, name=True)} {relation} {format_value(value)}"


def _in_gaps(cuts: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Each cut moved to the shortest number in the gap of ``values`` it lies in."""
    distinct = np.unique(np.asarray(values, dtype=np.float64))
    distinct = distinct[~np.isnan(distinct)]
    moved = []
    for cut in cuts:
        i = np.searchsorted(distinct, cut, side="right")
        inside = 0 < i < len(distinct)
        moved.append(short_between(float(distinct[i - 1]), float(distinct[i])) if inside
                     else float(cut))
    return np.unique(np.asarray(moved, dtype=np.float64))


def selection_mask(features: np.ndarray, n_features: int) -> np.ndarray:
    """Mask of the features LIME selected for each row.

    Only their values: the one-hot view's negations, indices from ``n_features`` on, are
    :func:`negation_mask`'s.

    Parameters
    ----------
    features : ndarray of int, shape (n_rows, top_k)
        Selected feature indices per row; ``-1`` pads rows with fewer features.
    n_features : int
        Width of the table.

    Returns
    -------
    ndarray of bool of shape (n_rows, n_features)
        Whether each row selected each feature.
    """
    return _selected(features, 0, n_features)


def negation_mask(features: np.ndarray, n_features: int, n_negations: int) -> np.ndarray:
    """Which of the one-hot view's negations LIME selected for each row.

    Parameters
    ----------
    features : ndarray of int, shape (n_rows, top_k)
        Selected feature indices per row; ``-1`` pads rows with fewer features.
    n_features : int
        Width of the table (negation ``e`` is feature ``n_features + e``).
    n_negations : int
        Number of negations (:attr:`explain.lime_runner.Explanations.negations`).

    Returns
    -------
    ndarray of bool of shape (n_rows, n_negations)
        Whether each row selected each negation.
    """
    return _selected(features, n_features, n_negations)


def _selected(features: np.ndarray, start: int, width: int) -> np.ndarray:
    """Which of the features ``start .. start + width - 1`` each row selected."""
    features = np.asarray(features, dtype=np.int64) - start
    mask = np.zeros((features.shape[0], width), dtype=bool)
    rows, slots = np.nonzero((features >= 0) & (features < width))
    mask[rows, features[rows, slots]] = True
    return mask


@dataclass(frozen=True)
class Negations:
    """The one-hot view's negations of a set of rows, by category.

    Parameters
    ----------
    feature : tuple of str
        Per negation, its column.
    value : tuple of str
        Per negation, the category it says the row does not have.
    selected : ndarray of bool, shape (n_rows, n_negations)
        Which each row's explanation selected.
    """

    feature: tuple
    value: tuple
    selected: np.ndarray

    def rows(self, feature: str, value: str) -> np.ndarray:
        """Rows whose explanation says their ``feature`` is not ``value``.

        Parameters
        ----------
        feature : str
            A categorical column.
        value : str
            One of its categories.

        Returns
        -------
        ndarray of bool of shape (n_rows,)
            Whether each row's explanation selected that negation.
        """
        hit = np.zeros(self.selected.shape[0], dtype=bool)
        for e, (f, v) in enumerate(zip(self.feature, self.value)):
            if f == feature and v == value:
                hit |= self.selected[:, e]
        return hit

    def by_feature(self) -> dict[str, list[str]]:
        """Map each feature to the categories some row negates.

        Returns
        -------
        dict of str to list of str
            The negated categories of each feature, sorted.
        """
        used = self.selected.any(axis=0)
        out: dict[str, list[str]] = {}
        for e in np.flatnonzero(used):
            out.setdefault(self.feature[e], []).append(self.value[e])
        return {f: sorted(set(v)) for f, v in out.items()}


def binary_view(
    X: pd.DataFrame, columns: list[BinaryColumn], selected: np.ndarray | None = None,
    negations: Negations | None = None,
) -> pd.DataFrame:
    """The boolean matrix IMLI learns from.

    Parameters
    ----------
    X : DataFrame
        Raw rows (numeric float columns, categorical string columns, NaN = missing).
    columns : list of BinaryColumn
        From :func:`binary_columns`.
    selected : ndarray of bool, shape (n_rows, n_features), optional
        Which features each row keeps; ``None`` keeps all (a raw row used as is).
    negations : Negations, optional
        The categories each row's explanation negates: a ``c != v`` column holds there too.

    Returns
    -------
    DataFrame of bool
        One column per entry of ``columns``, named by its ``name``; a column holds where
        the row keeps its feature and its value passes the test.
    """
    position = {name: j for j, name in enumerate(X.columns)}
    data = {}
    for col in columns:
        values = X[col.feature].to_numpy()
        holds = col.holds(values)
        if selected is not None:
            kept = selected[:, position[col.feature]]
            if col.relation == "!=" and negations is not None:
                kept = kept | negations.rows(col.feature, col.value)
            holds &= kept
        data[col.name] = holds
    return pd.DataFrame(data, index=X.index, columns=[c.name for c in columns])


def table_view(X: pd.DataFrame, selected: np.ndarray,
               negations: Negations | None = None) -> pd.DataFrame:
    """The table FOLD learns from.

    Parameters
    ----------
    X : DataFrame
        Raw rows (numeric float columns, categorical string columns, NaN = missing).
    selected : ndarray of bool, shape (n_rows, n_features)
        Which features each row keeps.
    negations : Negations, optional
        The categories each row's explanation negates.

    Returns
    -------
    DataFrame
        ``X``'s selected values, NaN for every other cell; a category a row's explanation
        negates (and the row does not keep its own) is a :class:`fold.Negated` cell.
    """
    out = X.copy()
    for j, name in enumerate(X.columns):
        keep = selected[:, j]
        if not pd.api.types.is_numeric_dtype(X[name]):
            raw = X[name].to_numpy(dtype=object)
            column = raw.copy()
            column[~keep] = np.nan
            if negations is not None:
                _negated_cells(column, raw, keep, name, negations)
            out[name] = pd.Series(column, index=X.index, dtype=object)
        else:
            out[name] = np.where(keep, X[name].to_numpy(dtype=np.float64), np.nan)
    return out


def _negated_cells(column, raw, keep, name, negations: Negations) -> None:
    """Put a :class:`fold.Negated` cell where a row negates categories of ``name`` and keeps
    no value of it (a missing value stays unknown)."""
    from fold import Negated

    said: dict[int, list[str]] = {}
    for value in negations.by_feature().get(name, ()):
        rows = np.flatnonzero(negations.rows(name, value) & ~keep & ~pd.isna(raw))
        for r in rows:
            if raw[r] != value:
                said.setdefault(int(r), []).append(value)
    for r, values in said.items():
        column[r] = Negated(*values)
