"""The project's table type: features, integer labels and what was done to the data."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd


@dataclass(frozen=True, eq=False)
class Dataset:
    """A cleaned classification table.

    Built by :func:`adapters.load_dataset` or :func:`adapters.from_frame`, which do the
    cleaning; the constructor checks that the parts fit together and have the types below
    (column names as text, an index of distinct integers, non-categorical columns of
    numbers, distinct class names; it stores ``y`` as an array, class names as text and a
    categorical column's ``None``/``pd.NA`` as NaN). Equality and hashing are by identity
    (a DataFrame has no usable ``==``).

    Parameters
    ----------
    name : str
        Short name for reports (a bundled name or the CSV file's stem).
    X : pandas.DataFrame
        Features. Numeric columns are ``float64`` with NaN for missing; categorical columns
        are ``object`` dtype holding ``str`` values, NaN for missing. From a table, the
        index is each row's number in it (0 ..; rows without a label are not in ``X``).
    y : numpy.ndarray of int
        Labels ``0 .. k-1``; for a binary target 1 is the positive class.
    target : str
        Name of the target column.
    class_names : tuple of str
        ``class_names[label]`` is the name of that label.
    categorical : tuple of str
        The categorical columns of ``X``, in column order.
    notes : tuple of str, default=()
        What was done to the data: rows and columns dropped, values treated as missing,
        which class is positive.
    source_labels : tuple of (str, int), default=()
        The target's labels in the order a model trained on the raw target numbers its
        classes (sorted, numbers in numeric order, as scikit-learn's ``LabelEncoder``; a
        bundled dataset's own order), each with its label in ``y``. Empty: the model's
        classes are the labels of ``y``.

    Attributes
    ----------
    numeric : tuple of str
        The other columns of ``X``, in column order.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> X = pd.DataFrame({"a": [1.0, 2.0], "c": pd.Series(["x", "y"], dtype=object)})
    >>> ds = Dataset("toy", X, np.array([0, 1]), "t", ("no", "yes"), ("c",))
    >>> ds.numeric
    ('a',)
    """

    name: str
    X: pd.DataFrame
    y: np.ndarray
    target: str
    class_names: tuple
    categorical: tuple
    notes: tuple = ()
    source_labels: tuple = ()

    def __post_init__(self):
        if not isinstance(self.X, pd.DataFrame):
            raise TypeError("Dataset.X must be a pandas DataFrame")
        y = np.asarray(self.y)
        if y.ndim != 1 or len(y) != len(self.X):
            raise ValueError(f"Dataset.y must be 1-D with one label per row of X "
                             f"({len(self.X)}), got shape {y.shape}")
        if not np.issubdtype(y.dtype, np.integer):
            raise ValueError(f"Dataset.y must hold integer labels, got dtype {y.dtype}")
        if len(y) and (y.min() < 0 or y.max() >= len(self.class_names)):
            raise ValueError("Dataset.y must hold labels 0 .. len(class_names) - 1")
        unknown = [c for c in self.categorical if c not in self.X.columns]
        if unknown:
            raise ValueError(f"Dataset.categorical names columns not in X: {unknown}")
        named = next((c for c in self.X.columns if not isinstance(c, str)), None)
        if named is not None or self.X.columns.has_duplicates:
            raise ValueError(f"Dataset.X's columns must have distinct str names "
                             f"(from_frame gives them so), got {list(self.X.columns)[:5]!r}")
        index = self.X.index
        if not (pd.api.types.is_integer_dtype(index.dtype) and index.is_unique):
            raise ValueError("Dataset.X's index must be distinct integers, the rows' numbers "
                             "(X.reset_index(drop=True) numbers them 0, 1, ...)")
        text = [c for c in self.X.columns if c not in set(self.categorical)
                and (not pd.api.types.is_numeric_dtype(self.X[c].dtype)
                     or pd.api.types.is_bool_dtype(self.X[c].dtype))]
        if text:
            raise ValueError(f"Dataset.X's columns {text[:5]} are not in Dataset.categorical "
                             f"but do not hold numbers: list them as categorical, or give "
                             f"them as float64")
        object.__setattr__(self, "y", y)
        object.__setattr__(self, "X", _missing_as_nan(self.X, self.categorical))
        names = tuple(str(c) for c in self.class_names)
        if len(set(names)) < len(names):
            raise ValueError(f"Dataset.class_names must be distinct, got {names!r}")
        object.__setattr__(self, "class_names", names)
        object.__setattr__(self, "categorical", tuple(self.categorical))
        object.__setattr__(self, "notes", tuple(self.notes))
        object.__setattr__(self, "source_labels",
                           tuple((str(name), int(code)) for name, code in self.source_labels))

    @property
    def numeric(self):
        """The columns of ``X`` that are not categorical, in column order."""
        categorical = set(self.categorical)
        return tuple(c for c in self.X.columns if c not in categorical)

    @property
    def n_classes(self):
        """Number of classes (``len(class_names)``)."""
        return len(self.class_names)


def _missing_as_nan(X, categorical):
    """``X`` with the missing values of its categorical columns (``None``, ``pd.NA``) as
    NaN, as the learners read them; ``X`` itself when they all are."""
    fixed = {}
    for c in categorical:
        values = X[c].astype(object).to_numpy()
        missing = pd.isna(values)
        if any(not isinstance(v, float) for v in values[missing]):
            values = values.copy()
            values[missing] = np.nan
            fixed[c] = pd.Series(values, index=X.index, dtype=object)
    return X.assign(**fixed) if fixed else X
