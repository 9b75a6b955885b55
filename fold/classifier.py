"""FOLDClassifier: the scikit-learn face of the FOLD learner."""

from __future__ import annotations

import functools
import math
import warnings
from numbers import Integral, Real

import numpy as np
import pandas as pd
from scipy.sparse import issparse
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import Interval, validate_parameter_constraints
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import (
    check_array,
    check_consistent_length,
    check_is_fitted,
    column_or_1d,
    validate_data,
)

from .engine import Evaluation, get_engine
from .errors import FoldInputError
from .explanation import Explanation, explain_row
from .facts import write_facts, write_rows
from .forms import alike_names, composed, merged_labels
from .learner import FoldLearner, LearnerSettings
from .program import check_classes, write_program
from .rules import Rule
from .search import EncodedTable
from .table import (NUMERIC, ColumnView, Schema, check_column_types, column_kind,
                    frame_from_array, numbers_as_numbers)

__all__ = ["FOLDClassifier"]


def _row_id(X) -> int:
    """The integer index label of a one-row table, else 0 (also for labels outside
    64-bit integers, which the engine's row ids cannot hold)."""
    index = X.index if isinstance(X, (pd.DataFrame, pd.Series)) else None
    if index is not None and len(index) == 1:
        label = index[0]
        if (isinstance(label, Integral) and not isinstance(label, bool)
                and -2**63 <= int(label) < 2**63):
            return int(label)
    return 0


def _refuse_columns(columns, fitted) -> None:
    raise FoldInputError(f"X has columns {_some(columns)}, the model was fitted on "
                         f"{_some(fitted)}; pass the same columns in the same order")


def _labels(y) -> np.ndarray:
    """``y`` as an array; a list of text as objects, since a numpy text array drops
    trailing NULs and would take the labels ``"a\\x00"`` and ``"a"`` for one class."""
    labels = np.asarray(y)
    if labels.dtype.kind == "U" and not isinstance(y, np.ndarray):
        labels = np.asarray(y, dtype=object)
    return labels


def _form(label):
    """A label as ``class_order`` may name it: text in either Unicode form."""
    return composed(label) if isinstance(label, str) else label


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
        raise FoldInputError(_not_a_table(X, array))
    if array.dtype.kind == "c":  # scikit-learn's words, which its checks look for
        raise FoldInputError(f"Complex data not supported: X has dtype {array.dtype}; "
                             "give real numbers (the parts as two columns, say)")
    if array.dtype.kind in "mM":
        raise FoldInputError(
            f"X has dtype {array.dtype}, which FOLD cannot compare; convert it to real "
            "numbers (e.g. days since a date) or to strings first")
    if array.dtype.kind != "U":
        return array
    if not isinstance(X, np.ndarray):
        return np.asarray(X, dtype=object)
    return np.where(array == "nan", None, array.astype(object))


def _array_names(n: int) -> tuple:
    """The names of an array's columns: ``x0, x1, ...``."""
    return tuple(f"x{i}" for i in range(n))


def _some(names) -> str:
    """The first five of ``names``, and ``...`` when there are more."""
    names = list(names)
    return f"{names[:5]}{'...' if len(names) > 5 else ''}"


def _features_of(rules) -> set:
    found = set()
    for rule in rules:
        found.update(lit.feature for lit in rule.literals)
        found |= _features_of(rule.exceptions)
    return found


def _known_values(view: ColumnView, name: str) -> np.ndarray:
    known = view.categorical(name).known
    return known[pd.notna(known)]


def _check_targets(y: np.ndarray) -> None:
    """scikit-learn's check of classification targets, skipped where it could only pass in
    silence (it costs about a millisecond on object labels): text, integer or bool labels
    with no more classes than half the rows. Before it, bytes labels and text beside other
    labels are refused in one line (scikit-learn reads an object array's kind from its
    first label: ``[0, 'x']`` was an "unknown label type")."""
    held = pd.api.types.infer_dtype(y) if y.dtype == object else ""
    if y.dtype.kind == "S" or held == "bytes":
        raise FoldInputError("y holds bytes labels; decode them to str first")
    if held in ("mixed", "mixed-integer"):
        text = [isinstance(label, str | bytes) for label in y.tolist()]
        if any(text) and not all(text):
            raise FoldInputError(f"y mixes labels of types {_type_names(y)}, which do not "
                                 "compare; give every label one type (str, say)")
        if not any(text) and len({type(label) for label in y.tolist()}) > 1:
            # truth values beside numbers (True and 1), say
            raise FoldInputError(f"y mixes labels of types {_type_names(y)}; give every "
                                 "label one type")
    plain = y.dtype.kind in "biuU" or held == "string"
    if not plain or (len(y) > 20 and len(pd.unique(y)) > round(0.5 * len(y))):
        check_classification_targets(y)


def _plain_labels(y: np.ndarray) -> np.ndarray:
    """An object array of numbers only, or of bools only (a pandas Series of dtype object),
    as numpy's array of them, which scikit-learn reads as classes (an object array without
    text is an "unknown" label type to it). Integers beside floats are floats: ``1`` and
    ``1.0`` are one class, as in a DataFrame's column."""
    if y.dtype == object and pd.api.types.infer_dtype(y) in (
            "integer", "floating", "mixed-integer-float", "boolean"):
        read = pd.Series(y).infer_objects()
        if read.dtype != object:  # integers beyond int64 stay objects
            return read.to_numpy()
    return y


def _type_names(y: np.ndarray) -> str:
    return ", ".join(sorted({type(label).__name__ for label in y.tolist()}))


def _known_categories(view: ColumnView, name: str) -> frozenset:
    """The categories fit saw in column ``name``: as values, or as classical negations."""
    negated = view.categorical(name).negated
    return frozenset(pd.unique(_known_values(view, name)).tolist()).union(
        value for value, rows in negated.items() if rows.any())


def _warn_unseen(name: str, values: np.ndarray, seen: frozenset) -> None:
    """Warn when most known values of a column the rules test were never seen in fit: the
    same column in another type (``1`` for ``True``) matches no category, silently."""
    if not len(values):
        return
    distinct = pd.unique(values)
    new = [v for v in distinct.tolist() if v not in seen]
    if not new:
        return
    unseen = int(pd.Series(values).isin(new).sum())
    if 2 * unseen <= len(values):
        return
    shown = ", ".join(repr(v) for v in new[:3])
    before = ", ".join(repr(v) for v in sorted(seen)[:3]) + (", ..." if len(seen) > 3 else "")
    warnings.warn(f"column {name!r}: {unseen} of {len(values)} values were never seen in "
                  f"fit (e.g. {shown}; fit saw {before}), so they pass no '==' test of the "
                  f"rules; is it the same column in another type (1 for True)?",
                  UserWarning, stacklevel=5)


class FOLDClassifier(ClassifierMixin, BaseEstimator):
    """Default rules with exceptions (FOLD), run exactly by SWI-Prolog.

    Learns, one class at a time, rules of the form "class if these literals
    hold, unless an exception holds", exceptions being learned recursively
    with positives and negatives swapped (``ab`` predicates, exceptions to
    exceptions). Literals are ``feature <= t`` / ``feature > t`` on numeric
    columns (``t`` the shortest number near the middle of the gap between two
    neighbouring training values, so the rule prints exactly) and
    ``feature == v`` / ``feature != v`` on categorical ones. Unknown cells
    (NaN) satisfy no literal; :class:`~fold.Negated` cells state classical
    negations. With ``mdl_weight`` set, rule learning stops, and each class's
    rules are pruned, by description length, which keeps the program small
    on noisy data. Categories are read as text in Unicode's composed form (NFC)
    at fit and at predict and explain, so ``"café"`` with ``"é"`` precomposed or
    as ``"e"`` and a combining accent is one category (also when the training
    data holds both), shown in its NFC form in the rules and the program. So are class
    labels (two forms of one text are one class, in NFC, with a warning); column names
    alike so are refused, and at predict a column may be named in either form.

    Parameters
    ----------
    exception_ratio : float, default=0.5
        A rule stops adding literals once it covers at most
        ``exception_ratio`` negatives per covered positive; the negatives left
        are learned as exceptions (FOLD-R++'s ratio). Smaller: longer rules.
    min_gain : float, default=0.0
        A literal must gain more than this many bits of information per row (a pair the
        lookahead starts a rule with, as one test).
    max_rule_length : int or None, default=None
        Most literals in one rule (exceptions not counted); None: no limit.
    max_exception_depth : int, default=4
        Deepest nesting of exceptions (0: no exceptions), at most 100. A rule of no
        literal (rows alike but for their labels) gets no first exception of no literal:
        that exception, its own exception and so on down to this depth would only say
        what the rule says alone.
    min_support : int or float, default=0.005
        Fewest positives a rule (or exception) must cover when the search adds it: a count
        if int, a fraction of the training rows if float in (0, 1). Rules below it are
        treated as noise; so is the rule ``true`` a class gets when only its own rows are
        left (those rows then get the default). (Exceptions and the refined thresholds
        learned afterwards can leave a rule a few rows short of it.) With
        ``min_support=1`` and ``mdl_weight=None`` (plain FOLD) every mislabelled row gets a
        rule or an exception of its own, each costing a literal search: on 20,000 rows
        with 20 % label noise, 3,364 clauses in about 3 minutes (the defaults: one rule,
        0.2 s; ``python -m benchmarks.bench_fold --noisy-rows 20000``).
    mdl_weight : float or None, default=0.5
        Weight of the program's bits against the bits of its training errors
        in the description length that stops rule learning, prunes each
        class's rules and refines their thresholds (:mod:`fold.pruning`).
        Larger: smaller programs, as a rule. It is not guaranteed: the stopping
        rule weighs each rule with the exceptions it was learned with, most of which
        pruning then drops, so a larger weight can cut a useful rule and give a literal
        or two more (6 of 400 noisy generated tables, weights 0.25 to 16; BENCHMARKS.md,
        "Polishing every cut of the rule list"). The default is RIPPER's. 0: the
        training errors alone decide, and a class often becomes a default with many
        exceptions, larger than plain FOLD's program. None: plain FOLD, no
        description-length stopping, pruning or refinement.
    try_complement : bool, default=True
        With ``mdl_weight`` set, also describe each class as a default with
        exceptions, ``class if true unless (rules for the other rows)``, and
        keep that form when its description length is smaller. In that form
        a row whose tested cells are unknown gets the class, not the default.
    lookahead : bool, default=True
        When the best literal to start a rule with could be chance (its information
        gain is not significant), also score every conjunction of two literals on a grid
        of thresholds, and start the rule with the best pair when that pair is
        significant and gains more than the one-literal search's first two literals
        (:mod:`fold.lookahead`). This finds concepts where two features matter only
        together, such as ``(a > 0) xor (b > 0)``, on which the one-literal search
        starts from a chance literal and often finds nothing. It costs time: 1.1-1.7x
        the fit time on the benchmark tables, 2.5-2.8x on sonar's 60 columns. False:
        FOLD-R++'s one-literal search only.
    class_order : array-like or None, default=None
        Classes in the order their rules are learned and tried; the last one
        is the default. None: decreasing frequency (ties in ``classes_``
        order), as FOLD-RM: the most frequent class gets rules first and the
        least frequent one is the default.
    prolog_timeout : float, default=60.0
        Seconds allowed for one SWI-Prolog call, up to 1e9 (the limit goes to SWI-Prolog
        in milliseconds, as a C long).
    random_state : int, RandomState or None, default=None
        Accepted for the common estimator contract. The search itself is
        deterministic: same data and parameters, same program, byte for byte.

    Attributes
    ----------
    classes_ : ndarray
        The class labels, sorted.
    rules_ : Theory
        The learned rules (immutable; ``str`` for people, ``repr`` rebuilds).
    program_ : str
        The learned program, SWI-Prolog source (query ``label(Id, Class)``).
    prolog_ : PrologProgram
        The program with the predicate names it uses.
    schema_ : Schema
        Column names and kinds seen in ``fit``.
    class_order_ : ndarray of int
        Indices into ``classes_`` in decision order (default last).
    categories_ : dict of str to frozenset of str
        The categories seen in ``fit`` (as values or in :class:`Negated` cells) in each
        categorical column the rules test; at
        predict, a warning when most of such a column's values are new (the same column
        in another type: ``1`` for ``True``).
    n_rules_ : int
        Clauses in the theory (default rules and exception rules).
    rule_size_ : int
        Literals in the theory.
    n_features_in_ : int
        Number of columns seen in ``fit``.
    feature_names_in_ : ndarray of str
        Defined only when ``X`` has string column names.

    Notes
    -----
    A logic program decides; it gives no probabilities, so there is no
    ``predict_proba`` (scores that need one, such as ROC AUC, and soft voting do not
    apply). Numbers are compared as float64: integers beyond 2**53 that become equal
    are warned of.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> X = pd.DataFrame({"bird": ["yes", "yes", np.nan, "yes"],
    ...                   "penguin": [np.nan, np.nan, np.nan, "yes"]})
    >>> clf = FOLDClassifier(random_state=0).fit(X, ["fly", "fly", "no", "no"])
    >>> clf.predict(X).tolist()
    ['fly', 'fly', 'no', 'no']
    >>> print(clf.rules_)
    fly if bird == yes unless (penguin == yes)
    no otherwise
    """

    _parameter_constraints: dict = {
        "exception_ratio": [Interval(Real, 0, None, closed="left")],
        "min_gain": [Interval(Real, 0, None, closed="left")],
        "max_rule_length": [Interval(Integral, 1, None, closed="left"), None],
        "max_exception_depth": [Interval(Integral, 0, 100, closed="both")],
        "min_support": [Interval(Integral, 1, None, closed="left"),
                        Interval(Real, 0, 1, closed="neither")],
        "mdl_weight": [Interval(Real, 0, None, closed="left"), None],
        "try_complement": ["boolean"],
        "lookahead": ["boolean"],
        "class_order": ["array-like", None],
        "prolog_timeout": [Interval(Real, 0, 1e9, closed="right")],
        "random_state": ["random_state"],
    }

    def __init__(self, exception_ratio=0.5, min_gain=0.0, max_rule_length=None,
                 max_exception_depth=4, min_support=0.005, mdl_weight=0.5,
                 try_complement=True, lookahead=True, class_order=None, prolog_timeout=60.0,
                 random_state=None):
        self.exception_ratio = exception_ratio
        self.min_gain = min_gain
        self.max_rule_length = max_rule_length
        self.max_exception_depth = max_exception_depth
        self.min_support = min_support
        self.mdl_weight = mdl_weight
        self.try_complement = try_complement
        self.lookahead = lookahead
        self.class_order = class_order
        self.prolog_timeout = prolog_timeout
        self.random_state = random_state

    @classmethod
    @functools.cache
    def _get_param_names(cls):
        # scikit-learn reads __init__'s signature on every get_params, set_params and
        # parameter check (five per pipeline fit: 4% of a small table's whole fit)
        return tuple(super()._get_param_names())

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        return tags

    # -- input -------------------------------------------------------------
    def _other_columns(self, X: pd.DataFrame, fitted_on_array: bool) -> bool:
        """Whether a frame given after fitting has other columns than the fitted ones."""
        if hasattr(self, "feature_names_in_"):
            return list(X.columns) != list(self.feature_names_in_)
        if fitted_on_array:  # any names stand for the array's columns, in order
            return X.shape[1] != len(self.schema_.names)
        return [str(c) for c in X.columns] != list(self.schema_.names)

    def _frame(self, X, reset: bool) -> pd.DataFrame:
        # A DataFrame is 2-D and dense: its dtypes are checked on one row, as converting a
        # mixed frame to one object array costs ~0.3 s per million rows.
        if isinstance(X, pd.DataFrame):
            fitted = () if reset else getattr(self, "feature_names_in_", self.schema_.names)
            if alike_names(X.columns, fitted):  # the fitted names in another Unicode form
                X = X.set_axis(list(fitted), axis=1)
            check_column_types(X)
            # scikit-learn's own messages for an empty table (one with a cell passes); its
            # check of a mixed frame casts categories to float (a category and an Int64
            # column fail there)
            if not X.size:
                check_array(np.zeros(X.shape), ensure_min_samples=1)
        else:
            array = _cells(X)
            check_array(array, dtype=None, ensure_all_finite="allow-nan",
                        ensure_min_samples=1)
        fitted_on_array = (not reset and not hasattr(self, "feature_names_in_")
                           and self.schema_.names == _array_names(len(self.schema_.names)))
        if not reset and isinstance(X, pd.DataFrame) and self._other_columns(
                X, fitted_on_array):
            # scikit-learn's is many lines, or (names that are not all text, as a
            # MultiIndex's) only counts the columns
            _refuse_columns(X.columns, self.schema_.names)
        validate_data(self, X, reset=reset, skip_check_array=True)
        if isinstance(X, pd.DataFrame) and fitted_on_array:
            # the frame's columns stand for the array's, in order (scikit-learn has warned
            # that the model was fitted without names)
            frame = X.set_axis(list(self.schema_.names), axis=1)
        elif isinstance(X, pd.DataFrame):
            frame = X
        else:
            # An array at predict stands for the fitted columns, in order (scikit-learn
            # has warned that it has no names, as for any estimator).
            names = (list(self.schema_.names) if not reset and hasattr(self, "schema_")
                     else _array_names(array.shape[1]))
            categories = (set() if reset else
                          {n for n, k in zip(self.schema_.names, self.schema_.kinds)
                           if k != NUMERIC})
            frame = frame_from_array(array, names, categories)
            check_column_types(frame)  # dates or complex numbers as objects
        if not all(isinstance(c, str) for c in frame.columns):
            frame = frame.set_axis([str(c) for c in frame.columns], axis=1)
        frame = numbers_as_numbers(frame, set() if reset else {
            n for n, k in zip(self.schema_.names, self.schema_.kinds) if k != NUMERIC})
        return frame.reset_index(drop=True)

    def _view(self, X) -> ColumnView:
        check_is_fitted(self)
        frame = self._frame(X, reset=False)
        if tuple(frame.columns) != self.schema_.names:
            _refuse_columns(frame.columns, self.schema_.names)
        view = ColumnView(frame, self.schema_)
        for name, kind in zip(self.schema_.names, self.schema_.kinds):
            if kind == NUMERIC and column_kind(frame[name]) != NUMERIC:
                view.numeric(name)  # converts, or says which column is not numeric
        for name, seen in self.categories_.items():
            _warn_unseen(name, _known_values(view, name), seen)
        return view

    def _class_order(self, counts: np.ndarray) -> list:
        if self.class_order is None:
            return sorted(range(len(self.classes_)), key=lambda k: (-counts[k], k))
        wanted = list(self.class_order)
        index = {_form(label): k for k, label in enumerate(self.classes_.tolist())}
        try:
            order = [index.get(_form(label)) for label in wanted]
        except TypeError:  # a list given as a label, which no class is
            order = [None]
        if None in order or sorted(order) != list(range(len(self.classes_))):
            raise FoldInputError(
                f"class_order={wanted!r} must list each class of y exactly once "
                f"(classes: {self.classes_.tolist()!r})")
        return order

    # -- fitting -----------------------------------------------------------
    def fit(self, X, y):
        """Learn the rules and write the Prolog program.

        Parameters
        ----------
        X : DataFrame of shape (n_samples, n_features)
            Numeric and categorical (str/object) columns (an object column holding
            only numbers is numeric, as in an array); NaN = unknown;
            categories compare by text, numbers by value (``1`` and ``1.0`` are
            one category; :func:`fold.table.category`);
            :class:`~fold.Negated` cells for classical negations. A pandas ``category``
            column, ordered or not, is categorical: its values are tested with ``==``
            and ``!=``, never by their order, and categories no row holds are ignored
            (for tests on the order, give its codes: ``X[c].cat.codes``). Date, time-span,
            period, interval and complex columns are refused: convert them first.
            An array or a list stands for columns ``x0, x1, ...``; in an array of
            text, ``"nan"`` (numpy's word for a NaN among words) is unknown.
        y : array-like of shape (n_samples,)
            Labels of any kind (str, int, bool), two classes or more (one class gives a
            program that is only its default, as scikit-learn's trees do).

        Returns
        -------
        self : FOLDClassifier
            The fitted estimator.

        Raises
        ------
        ValueError
            If a parameter is out of its range, or ``X`` or ``y`` cannot be read (missing
            labels, labels that do not compare, a ``class_order`` that does not list each
            class once, unsupported column types): :class:`~fold.FoldInputError`, a
            ``ValueError``, for most of them.

        Notes
        -----
        A fit that fails (bad input, say) leaves the estimator as it was before it.
        """
        before = dict(vars(self))
        try:
            return self._fit(X, y)
        except BaseException:
            vars(self).clear()  # not a mix of the earlier fit and this one
            vars(self).update(before)
            raise

    def _check_params(self) -> None:
        """Refuse parameters ``fit`` cannot run with."""
        self._validate_params()
        for name in self._parameter_constraints:
            self._refuse_bool(name)

    def _refuse_bool(self, name: str) -> None:
        """Refuse a bool for a number parameter (scikit-learn's Interval takes it as 0 or 1)."""
        value = getattr(self, name)
        if isinstance(value, bool | np.bool_) and any(
                isinstance(c, Interval) for c in self._parameter_constraints[name]):
            raise ValueError(f"The {name!r} parameter of FOLDClassifier must be a number, "
                             f"got {value!r}.")

    def _prolog_seconds(self) -> float:
        """``prolog_timeout``, checked where it is used: it can be set after ``fit``
        (``set_params``, as a timeout's message suggests)."""
        name = "prolog_timeout"
        self._refuse_bool(name)
        validate_parameter_constraints({name: self._parameter_constraints[name]},
                                       {name: self.prolog_timeout},
                                       caller_name=type(self).__name__)
        return float(self.prolog_timeout)

    def _fit(self, X, y):
        self._check_params()
        frame = self._frame(X, reset=True)
        y = _labels(y)
        if y.dtype.kind == "c":  # scikit-learn's words, without the whole array
            raise FoldInputError(f"Complex data not supported: y has dtype {y.dtype}")
        y = merged_labels(column_or_1d(y, warn=True))
        check_consistent_length(frame, y)
        if y.dtype == object and pd.isna(y).any():
            raise ValueError("Input y contains missing labels (None or NaN); drop those "
                             "rows or give them a class.")
        y = _plain_labels(y)
        try:
            _check_targets(y)
            self.classes_, y_index = np.unique(y, return_inverse=True)
        except TypeError:  # labels that do not order (objects of a class without <)
            raise FoldInputError(f"y holds labels of types {_type_names(y)}, which do not "
                                 "compare; give every label one type (str, say)") from None
        check_classes(len(self.classes_))
        order = self._class_order(np.bincount(y_index, minlength=len(self.classes_)))
        self.schema_ = Schema.from_frame(frame)
        view = ColumnView(frame, self.schema_)
        if isinstance(self.min_support, Integral):
            min_support = int(self.min_support)
        else:
            min_support = max(1, math.ceil(self.min_support * len(frame)))
        settings = LearnerSettings(
            exception_ratio=float(self.exception_ratio), min_gain=float(self.min_gain),
            max_rule_length=self.max_rule_length,
            max_exception_depth=int(self.max_exception_depth), min_support=min_support,
            mdl_weight=None if self.mdl_weight is None else float(self.mdl_weight),
            try_complement=bool(self.try_complement), lookahead=bool(self.lookahead))
        learner = FoldLearner(EncodedTable(view, self.schema_), settings)
        # dates and time spans in nanoseconds would list as integers
        labels = ([str(label) for label in self.classes_] if self.classes_.dtype.kind in "mM"
                  else self.classes_.tolist())
        self.rules_ = learner.learn_theory(y_index, labels, order)
        self.class_order_ = np.asarray(order, dtype=np.int64)
        self.categories_ = {name: _known_categories(view, name)
                            for name in sorted(_features_of(self.rules_.rules))
                            if self.schema_.kind(name) != NUMERIC}
        self.prolog_ = write_program(self.rules_, self.schema_,
                                     get_engine().reserved_predicates())
        self.program_ = self.prolog_.text
        return self

    # -- prediction ----------------------------------------------------------
    def facts(self, X, ids=None) -> str:
        """The Prolog facts of ``X``, every column.

        Load them after :attr:`program_` in any SWI-Prolog and query
        ``label(Id, Class)``.

        Parameters
        ----------
        X : DataFrame or array-like
            Rows with the columns seen in ``fit``.
        ids : sequence of int, optional
            Each row's Id (default: 0, 1, ... in row order).

        Returns
        -------
        str
            SWI-Prolog source: an ``encoding(utf8)`` directive, a ``row(Id)`` fact per row,
            and one fact per known cell and per classical negation.

        Raises
        ------
        ValueError
            If ``ids`` are not distinct integers, one per row, or ``X`` does not have the
            columns seen in ``fit``.
        """
        view = self._view(X)
        return write_facts(self.prolog_, view, self.schema_, ids=ids)

    def evaluate_prolog(self, X) -> Evaluation:
        """Run the program on ``X`` in SWI-Prolog; decisions and timing.

        The rows of ``X`` go to SWI-Prolog as one fact per row (only the
        columns the rules test); the program runs on them unchanged.

        Parameters
        ----------
        X : DataFrame or array-like
            Rows with the columns seen in ``fit``.

        Returns
        -------
        Evaluation
            The decision of each row (an index into :attr:`class_order_`) and the time
            SWI-Prolog took.

        Raises
        ------
        PrologTimeoutError
            If SWI-Prolog takes longer than ``prolog_timeout``.
        """
        view = self._view(X)
        rows = write_rows(self.prolog_, view, self.schema_,
                          features=_features_of(self.rules_.rules))
        return get_engine().evaluate(self.prolog_, rows, self._prolog_seconds())

    def predict(self, X) -> np.ndarray:
        """Labels of ``X``, computed by SWI-Prolog running :attr:`program_`.

        Parameters
        ----------
        X : DataFrame of shape (n_samples, n_features)
            A column fitted as numbers may hold text: it is read as ``fit`` reads text
            (Python's ``float``; ``"nan"``, None and NaN are unknown). Text that is no
            number, ``""`` included, is refused.

        Returns
        -------
        ndarray of shape (n_samples,)
            Labels from ``classes_``.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the estimator is not fitted.
        FoldInputError
            If ``X`` does not have the columns seen in ``fit``, or holds text where a
            number was fitted.
        PrologTimeoutError
            If SWI-Prolog takes longer than ``prolog_timeout``.
        """
        decisions = self.evaluate_prolog(X).decisions
        return self.classes_[self.class_order_[decisions]]

    def predict_python(self, X) -> np.ndarray:
        """Labels of ``X`` from the rule objects, without Prolog (same answers).

        Parameters
        ----------
        X : DataFrame or array-like
            As in :meth:`predict`.

        Returns
        -------
        ndarray of shape (n_samples,)
            Labels from ``classes_``, equal to :meth:`predict`'s.
        """
        view = self._view(X)  # checks the fit first
        decisions = self.rules_.decide(view)
        return self.classes_[self.class_order_[decisions]]

    def explain(self, X) -> Explanation:
        """Why the single row of ``X`` gets its label.

        Parameters
        ----------
        X : DataFrame with one row
            For example ``X.iloc[[i]]``.

        Returns
        -------
        Explanation
            The rule that fired and the exceptions that did not, in words and
            as SWI-Prolog's justification. The justification names the row by
            its index label in ``X`` when that label is an integer (``7`` for
            ``X.iloc[[7]]`` of a frame with the default index), else by 0;
            :attr:`Explanation.row_id` says which.

        Raises
        ------
        FoldInputError
            If ``X`` has not exactly one row, or not the columns seen in ``fit``.
        PrologTimeoutError
            If SWI-Prolog takes longer than ``prolog_timeout``.
        """
        view = self._view(X)
        if view.n_rows != 1:
            raise FoldInputError(f"explain needs exactly one row, got {view.n_rows}; "
                                 "pass X.iloc[[i]]")
        row_id = _row_id(X)
        _, rule, text, summary = explain_row(self.rules_, view, 0)
        # the label as predict gives it (the rules hold a date class as its text)
        label = self.classes_[self.class_order_[self.rules_.decide(view)[0]]]
        rows = write_rows(self.prolog_, view, self.schema_,
                          features=_features_of(self.rules_.rules), first_id=row_id)
        proof = get_engine().justify(self.prolog_, rows, row_id, self._prolog_seconds())
        exceptions = rule.exceptions if isinstance(rule, Rule) else ()
        return Explanation(label=label, rule=rule, exceptions=exceptions, text=text,
                           prolog=proof, row_id=row_id, summary=summary)

    @property
    def n_rules_(self) -> int:
        """Clauses in the theory (default rules and exception rules)."""
        check_is_fitted(self)
        return self.rules_.n_rules

    @property
    def rule_size_(self) -> int:
        """Literals in the theory."""
        check_is_fitted(self)
        return self.rules_.n_literals

