"""DataFrame ⇄ float matrix, the layout LIME and the XGBoost adapter work in."""
from __future__ import annotations

import numpy as np
import pandas as pd

from .columns import codes_by_form, composed, objects
from .errors import InputError, listing, quoted


class TableEncoder:
    """Turn a mixed table into a float matrix and back.

    Numeric columns pass through as ``float64`` (±inf becomes NaN). A categorical column
    becomes the integer code of its value in ``categories_[column]`` (the sorted distinct
    strings seen by :meth:`fit`), a value matching the same text in another Unicode form
    (``é`` as one character or as ``e`` and an accent); missing values and values not seen
    by ``fit`` become NaN.
    Column order is the order seen by :meth:`fit`.

    Attributes
    ----------
    feature_names_ : tuple of str
        The columns, in matrix order.
    categorical_indices_ : tuple of int
        Matrix positions of the categorical columns.
    categories_ : dict of str to tuple of str
        For each categorical column, its categories; code ``i`` means ``categories_[c][i]``.
    n_features_in_ : int

    Examples
    --------
    >>> X = pd.DataFrame({"x": [1.5, None], "c": pd.Series(["b", "a"], dtype=object)})
    >>> enc = TableEncoder().fit(X, categorical=["c"])
    >>> enc.transform(X).tolist()
    [[1.5, 1.0], [nan, 0.0]]
    >>> enc.inverse_transform([[2.0, 0.0]])["c"].tolist()
    ['a']
    """

    def fit(self, X, categorical=None):
        """Learn the columns and the categories of ``X``.

        Parameters
        ----------
        X : pandas.DataFrame
            The table, with distinct column names.
        categorical : iterable of str, optional
            The categorical columns. ``None``: every column whose dtype is not numeric
            (bool counts as categorical).

        Returns
        -------
        self : TableEncoder
            The fitted encoder.

        Raises
        ------
        InputError
            If ``X`` is not a DataFrame, has duplicate column names, or ``categorical``
            names a column it does not have.
        """
        _require_frame(X)
        names = tuple(str(c) for c in X.columns)
        if len(set(names)) != len(names):
            duplicated = sorted({n for n in names if names.count(n) > 1})
            raise InputError(f"duplicate column names: {listing(duplicated)}; rename them")
        if categorical is None:
            categorical = [n for n, (_, col) in zip(names, X.items()) if _is_categorical(col)]
        categorical = {str(c) for c in categorical}
        unknown = sorted(categorical - set(names))
        if unknown:
            raise InputError(f"categorical columns not in the table: {listing(unknown)}")
        self.feature_names_ = names
        self.n_features_in_ = len(names)
        self.categorical_indices_ = tuple(i for i, n in enumerate(names) if n in categorical)
        self.categories_ = {}
        for i in self.categorical_indices_:
            values = _strings(X.iloc[:, i])
            self.categories_[names[i]] = tuple(sorted(set(values[~pd.isna(values)])))
        return self

    @property
    def categorical_(self):
        """Names of the categorical columns, in matrix order."""
        return tuple(self.feature_names_[i] for i in self.categorical_indices_)

    def transform(self, X):
        """Encode ``X`` as a float matrix.

        Parameters
        ----------
        X : pandas.DataFrame
            Exactly the columns seen by :meth:`fit`, in any order.

        Returns
        -------
        numpy.ndarray of float64, shape (n_rows, n_features)
            The columns in fitted order: a numeric column's values, a categorical
            column's category codes (NaN for a missing value or a category not seen in
            :meth:`fit` in any Unicode form).

        Raises
        ------
        InputError
            Missing or extra columns (named), or text in a numeric column.
        """
        self._check_fitted()
        X = self.select(X)
        Z = np.empty((len(X), self.n_features_in_), dtype=np.float64)
        categorical = set(self.categorical_indices_)
        for i, name in enumerate(self.feature_names_):
            column = X.iloc[:, i]
            if i in categorical:
                categories = pd.Index(self.categories_[name], dtype=object)
                values = _strings(column)
                codes = categories.get_indexer(values)
                unmatched = (codes < 0) & ~pd.isna(values)
                if unmatched.any():  # 'café' written with 'é' or with 'e' and an accent
                    codes[unmatched] = codes_by_form(values[unmatched], categories)
                Z[:, i] = np.where(codes < 0, np.nan, codes)
            else:
                Z[:, i] = _numbers(name, column)
        return Z

    def inverse_transform(self, Z):
        """Decode a matrix back into a DataFrame.

        Parameters
        ----------
        Z : array-like, shape (n_rows, n_features)
            Rows in the :meth:`transform` layout; categorical entries must be NaN or whole
            numbers in ``0 .. len(categories) - 1``.

        Returns
        -------
        pandas.DataFrame
            Numeric columns ``float64``; categorical columns ``object`` dtype of ``str``,
            NaN for missing.
        """
        self._check_fitted()
        Z = self.check_matrix(Z)
        columns = {}
        categorical = set(self.categorical_indices_)
        for i, name in enumerate(self.feature_names_):
            if i not in categorical:
                columns[name] = pd.Series(Z[:, i], dtype="float64")
                continue
            categories = self.categories_[name]
            codes = Z[:, i]
            present = ~np.isnan(codes)
            valid = (codes == np.round(codes)) & (codes >= 0) & (codes < len(categories))
            if not np.all(valid | ~present):
                bad = pd.unique(codes[present & ~valid])[:3]
                raise InputError(f"column {quoted(name)}: codes {bad.tolist()} are not "
                                 f"category indices 0..{len(categories) - 1}")
            lookup = np.array(list(categories) + [np.nan], dtype=object)
            index = np.where(present, np.nan_to_num(codes), len(categories)).astype(np.intp)
            columns[name] = pd.Series(lookup[index], dtype=object)
        return pd.DataFrame(columns, index=pd.RangeIndex(len(Z)))

    def select(self, X):
        """``X`` with exactly the fitted columns, in fitted order.

        Parameters
        ----------
        X : pandas.DataFrame
            A table with the fitted columns, in any order.

        Returns
        -------
        pandas.DataFrame
            ``X``'s columns in fitted order.

        Raises
        ------
        InputError
            Missing or extra columns, named.
        """
        self._check_fitted()
        _require_frame(X)
        given = [str(c) for c in X.columns]
        missing = [n for n in self.feature_names_ if n not in given]
        extra = [c for c in given if c not in self.feature_names_]
        problems = []
        if missing:
            problems.append(f"missing columns {listing(missing)}")
        if extra:
            problems.append(f"unexpected columns {listing(extra)}")
        if len(set(given)) != len(given):
            problems.append("duplicate column names")
        if problems:
            raise InputError(f"the table does not match the model's columns: "
                             f"{'; '.join(problems)}; give exactly the columns "
                             f"{listing(self.feature_names_, 10)}")
        if list(X.columns) == list(self.feature_names_):
            return X
        return X.set_axis(given, axis=1)[list(self.feature_names_)]

    def check_matrix(self, Z):
        """``Z`` as a 2-D float64 array with one column per feature.

        Parameters
        ----------
        Z : array-like
            Rows in this encoder's layout.

        Returns
        -------
        numpy.ndarray of float64 of shape (n_rows, n_features)
            ``Z`` as such an array.

        Raises
        ------
        InputError
            Not 2-D, or the wrong number of columns.
        """
        self._check_fitted()
        try:
            Z = np.asarray(Z, dtype=np.float64)
        except (TypeError, ValueError):
            raise InputError("encoded rows must be a numeric matrix") from None
        if Z.ndim != 2 or Z.shape[1] != self.n_features_in_:
            raise InputError(f"encoded rows must have shape (n, {self.n_features_in_}), "
                             f"got {Z.shape}")
        return Z

    def difference(self, other) -> str | None:
        """How ``other`` encodes tables differently from this encoder, or None.

        Two encoders give the same matrix for the same table only with the same columns in
        the same order, the same categorical columns and the same categories of each.

        Parameters
        ----------
        other : TableEncoder
            A fitted encoder.

        Returns
        -------
        str or None
            The first difference, in words.
        """
        self._check_fitted()
        other._check_fitted()
        if self.feature_names_ != other.feature_names_:
            moved = sorted(self.feature_names_) == sorted(other.feature_names_)
            return (f"{'the columns in another order' if moved else 'other columns'} "
                    f"({_how_listed(other.feature_names_, self.feature_names_)})")
        if self.categorical_ != other.categorical_:
            return (f"other categorical columns "
                    f"({_how_listed(other.categorical_, self.categorical_)})")
        for name in self.categorical_:
            if self.categories_[name] != other.categories_[name]:
                how = _how_listed(other.categories_[name], self.categories_[name], "category")
                return f"other categories of column {quoted(name)} ({how})"
        return None

    def _check_fitted(self):
        if not hasattr(self, "feature_names_"):
            raise InputError("this TableEncoder is not fitted; call fit(X, categorical) "
                             "first")

    def __repr__(self):
        if not hasattr(self, "feature_names_"):
            return "TableEncoder()"
        return (f"<TableEncoder {self.n_features_in_} columns, "
                f"{len(self.categorical_indices_)} categorical>")


def _how_listed(theirs, ours, item="column") -> str:
    """How the list ``theirs`` differs from ``ours``: the names it has and lacks or, with
    the same names, the first place where it orders them otherwise (a cut-off listing of
    both could read the same)."""
    extra = [v for v in theirs if v not in ours]
    lacking = [v for v in ours if v not in theirs]
    if extra or lacking:
        how = ", ".join(f"{word} {listing(values, 10)}" for word, values
                        in (("with", extra), ("without", lacking)) if values)
        forms = {composed(str(v)): v for v in lacking}
        alike = [(v, forms[composed(str(v))]) for v in extra if composed(str(v)) in forms]
        if alike:  # they print alike: show the code points
            how += (f"; {ascii(alike[0][0])} and {ascii(alike[0][1])} are the same text in "
                    f"two Unicode forms")
        return how
    moved = [i for i, (a, b) in enumerate(zip(theirs, ours)) if a != b]
    first = moved[0]
    return (f"its {item} {first + 1} is {quoted(theirs[first])}, not {quoted(ours[first])}; "
            f"{len(moved)} of {len(ours)} in other places")


def check_encoder(encoder):
    """Refuse what is not a fitted :class:`TableEncoder`, in one line."""
    if not isinstance(encoder, TableEncoder):
        raise InputError(f"expected a TableEncoder fitted on the dataset's features "
                         f"(TableEncoder().fit(ds.X, ds.categorical)), got "
                         f"{type(encoder).__name__}")
    encoder._check_fitted()


def _require_frame(X):
    if not isinstance(X, pd.DataFrame):
        raise InputError(f"expected a pandas DataFrame, got {type(X).__name__}")


def _is_categorical(column):
    dtype = column.dtype
    return pd.api.types.is_bool_dtype(dtype) or not pd.api.types.is_numeric_dtype(dtype)


def _strings(column):
    """Values as Python ``str`` (NaN where missing), without other cleaning."""
    values = objects(column)
    present = ~pd.isna(values)
    if not all(isinstance(v, str) for v in values[present]):
        values[present] = [str(v) for v in values[present]]
    return values


def _numbers(name, column):
    """A numeric column as float64, ±inf as NaN; text that is not a number is an error."""
    if pd.api.types.is_numeric_dtype(column.dtype) or pd.api.types.is_bool_dtype(column.dtype):
        values = column.to_numpy(dtype=np.float64, na_value=np.nan)
    else:
        raw = objects(column)
        values = pd.to_numeric(pd.Series(raw, dtype=object), errors="coerce").to_numpy(
            dtype=np.float64, na_value=np.nan)
        bad = np.isnan(values) & ~pd.isna(raw)
        if bad.any():
            raise InputError(f"column {quoted(name)} must be numeric; found "
                             f"{listing(pd.unique(raw[bad]), 3)}")
    return np.where(np.isinf(values), np.nan, values)
