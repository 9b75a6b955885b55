"""Input checks of :class:`~imli.IMLIClassifier`: the binary matrix and its literal space."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.sparse import issparse
from sklearn.utils import assert_all_finite, check_consistent_length, column_or_1d
from sklearn.utils.validation import validate_data

from .binarize import (Binarizer, as_float64, check_column_types, check_columns,
                       frame_from_array, named_as_fitted)
from .forms import merged_labels
from .literals import LiteralSpace
from .predicates import Predicate

__all__ = ["binary_input", "literal_space"]


def _is_binary_frame(frame: pd.DataFrame) -> bool:
    for _, col in frame.items():
        if col.dtype == bool:
            continue
        if not pd.api.types.is_numeric_dtype(col) or not col.isin([0, 1]).all():
            return False
    return True


def _not_a_table(X, array: np.ndarray) -> str:
    """Why ``X`` is not a table of rows and columns (scikit-learn's message prints it)."""
    if isinstance(X, pd.Series):
        got = ("a pandas Series; pass a DataFrame (X.iloc[[i]] for row i, s.to_frame() "
               "for one column)")
    elif isinstance(X, dict):
        got = "a dict; pass a DataFrame (pd.DataFrame(X))"
    elif isinstance(X, list | tuple) and X and all(isinstance(row, dict) for row in X):
        got = "a list of dicts (one per row); pass a DataFrame (pd.DataFrame(X))"
    else:
        got = (f"a {array.ndim}-D array of shape {array.shape}. Reshape your data "
               "(a.reshape(1, -1) for one row, a.reshape(-1, 1) for one column)")
    return f"Expected a 2-D table of rows and columns as X, got {got}"


def _cells(X) -> np.ndarray:
    """``X`` (a list, an array) as an array whose missing cells are NaN or None.

    numpy writes a NaN among words as the word ``"nan"`` (``np.asarray([["a",
    np.nan]])``): such a list is read cell by cell (``dtype=object``) and, in an array
    of text, ``"nan"`` is a missing cell, as in a CSV. Sparse matrices and arrays of
    dates, time spans or complex numbers are refused (as such columns of a DataFrame
    are)."""
    if issparse(X):
        raise TypeError("Sparse data was passed for X, but dense data is required; use "
                        "X.toarray() to convert it to a dense numpy array")
    array = np.asarray(X)
    if array.ndim != 2:
        raise ValueError(_not_a_table(X, array))
    if array.dtype.kind == "c":  # scikit-learn's words, which its checks look for
        raise ValueError(f"Complex data not supported: X has dtype {array.dtype}; give "
                         "real numbers (the parts as two columns, say)")
    if array.dtype.kind in "mM":
        raise ValueError(
            f"X has dtype {array.dtype}, which IMLI cannot threshold; convert it to real "
            "numbers (e.g. days since a date) or to strings first.")
    if array.dtype.kind != "U":
        return array
    if not isinstance(X, np.ndarray):
        return np.asarray(X, dtype=object)
    return np.where(array == "nan", None, array.astype(object))


def _check_label_types(y: np.ndarray) -> None:
    """Refuse bytes labels, and text beside other labels, in one line (scikit-learn reads
    an object array's kind from its first label: ``[0, 'x']`` was an "unknown label
    type")."""
    held = pd.api.types.infer_dtype(y) if y.dtype == object else ""
    if y.dtype.kind == "S" or held == "bytes":
        raise ValueError("y holds bytes labels; decode them to str first.")
    if y.dtype.kind == "c":  # scikit-learn's words, without the whole array
        raise ValueError(f"Complex data not supported: y has dtype {y.dtype}.")
    if held in ("mixed", "mixed-integer"):
        labels = np.ravel(y).tolist()
        text = [isinstance(label, str | bytes) for label in labels]
        types = sorted({type(label).__name__ for label in labels})
        kinds = ", ".join(types)
        if any(text) and not all(text):
            raise ValueError(f"y mixes labels of types {kinds}, which do not compare; give "
                             "every label one type (str, say)")
        if not any(text) and len(types) > 1:  # truth values beside numbers (True and 1)
            raise ValueError(f"y mixes labels of types {kinds}; give every label one type")


def _plain_labels(y: np.ndarray) -> np.ndarray:
    """An object array of numbers only, or of bools only (a pandas Series of dtype object),
    as numpy's array of them, which scikit-learn reads as classes (an object array without
    text is an "unknown" label type to it). Integers beside floats are floats: ``1`` and
    ``1.0`` are one class, as in a DataFrame's column."""
    if y.dtype == object and pd.api.types.infer_dtype(y) in (
            "integer", "floating", "mixed-integer-float", "boolean"):
        read = pd.Series(np.ravel(y)).infer_objects()
        if read.dtype != object:  # integers beyond int64 stay objects
            return read.to_numpy().reshape(y.shape)
    return y


def binary_input(est, X, y=None, column_specs=None, reset=True):
    """Validate ``X`` (and ``y``) for ``est`` and return the binary matrix (and labels).

    A 0/1 matrix or DataFrame of booleans is used as is; any other table is binarized by a
    :class:`Binarizer` fitted here (``est.binarizer_``; ``reset=True`` in ``fit``).
    """
    if reset and y is not None:
        # before scikit-learn's checks, which fail on pandas' NA in text labels
        labels = np.asarray(y)
        if labels.dtype.kind == "U" and not isinstance(y, np.ndarray):
            # a numpy text array drops trailing NULs: "a\x00" and "a" would be one class
            labels = np.asarray(y, dtype=object)
        if labels.dtype == object and pd.isna(labels).any():
            raise ValueError("Input y contains missing labels (None or NaN); drop those "
                             "rows or give them a class.")
        _check_label_types(labels)
        labels = _plain_labels(labels)
        # scikit-learn reads pandas' nullable labels (boolean, Int64) as float64: predict
        # would answer 0.0/1.0 instead of labels of y's own kind
        y = labels
    if isinstance(X, pd.DataFrame):
        if not reset:
            X = named_as_fitted(est, X)
        check_column_types(X)
        target = y if reset else "no_validation"
        check_columns(est, X.columns, reset)  # before scikit-learn's, of many lines
        validate_data(est, X, target, skip_check_array=True, reset=reset)
        if X.shape[0] == 0 or X.shape[1] == 0:
            raise ValueError(
                f"Found a table of shape {X.shape}; at least 1 row and 1 column are "
                "required."
            )
        frame = as_float64(X, est.binarizer_.categorical_columns()
                           if not reset and est.binarizer_ is not None else ())
    else:
        X = _cells(X)
        # text in an array: a table of mixed columns, read as a DataFrame would be
        text = X.dtype.kind in "OUS"
        checks = {"dtype": None} if text else {}
        check_columns(est, None, reset)
        if reset:
            X, y = validate_data(est, X, y, ensure_all_finite="allow-nan", **checks)
        else:
            X = validate_data(est, X, reset=False, ensure_all_finite="allow-nan", **checks)
        frame = None
        if text:
            # at predict an array stands for the fitted columns, in order (scikit-learn
            # has warned that it has no names, as for any estimator)
            names = (list(est.feature_names_in_) if not reset and hasattr(est, "feature_names_in_")
                     else [f"x{i}" for i in range(X.shape[1])])
            specs = est.binarizer_.column_specs_ if not reset and est.binarizer_ else ()
            categories = {s.feature for s in specs if s is not None and not s.is_threshold}
            frame = frame_from_array(X, names, categories)
            check_column_types(frame)  # dates or complex numbers as objects
    if reset:
        y = merged_labels(column_or_1d(y, warn=True))
        if y.dtype.kind in "fc":
            assert_all_finite(y, input_name="y")
        check_consistent_length(X, y)
    if reset:
        binary = _is_binary_frame(frame) if frame is not None else np.isin(X, (0, 1)).all()
        if binary:
            est.binarizer_ = None
        else:
            if column_specs is not None:
                raise ValueError(
                    "column_specs describe binary columns, but X is not binary (0/1). "
                    "Binarize X first (imli.Binarizer) or leave column_specs out."
                )
            est.binarizer_ = Binarizer(n_thresholds=est.n_thresholds,
                                       thresholds=est.thresholds).fit(
                frame if frame is not None else X, y
            )
    if est.binarizer_ is not None:
        table = frame if frame is not None else X
        if not reset:
            # the binarizer gets the columns as it was fitted on them, named or not (their
            # names are checked above): scikit-learn has warned once, for this estimator,
            # that an array or a frame stands for the other
            fitted = est.binarizer_._fit_columns  # None: fitted on an array
            if fitted is None and isinstance(table, pd.DataFrame):
                table = table.to_numpy()
            elif fitted is not None and isinstance(table, pd.DataFrame):
                table = table.set_axis(fitted, axis=1)
            elif fitted is not None:
                table = pd.DataFrame(table, columns=fitted)
        Xb = est.binarizer_.transform(table).to_numpy()
    else:
        values = frame.to_numpy() if frame is not None else np.asarray(X)
        if pd.isna(values).any():
            raise ValueError(
                "X holds missing values; as in fit, a binary matrix needs 0 or 1 in every "
                "cell."
            )
        if not np.isin(values, (0, 1)).all():
            raise ValueError(
                "X must hold only 0/1 values, as the training data did."
            )
        Xb = values.astype(bool)
    return Xb, y

def literal_space(est, m: int, column_specs) -> LiteralSpace:
    if est.binarizer_ is not None:
        return LiteralSpace(est.binarizer_.literal_names(), tuple(est.binarizer_.column_specs_))
    if hasattr(est, "feature_names_in_"):
        names = tuple(str(n) for n in est.feature_names_in_)
    else:
        names = tuple(f"x{i}" for i in range(m))
    if column_specs is None:
        return LiteralSpace(names, (None,) * m)
    specs = tuple(column_specs)
    if len(specs) != m:
        raise ValueError(f"Got {len(specs)} column_specs for {m} columns of X.")
    for spec in specs:
        if spec is not None and not isinstance(spec, Predicate):
            raise TypeError(
                f"column_specs must hold imli.Predicate objects (or None), got {spec!r}."
            )
    return LiteralSpace(names, specs)
