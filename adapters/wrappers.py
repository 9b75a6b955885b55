"""Black boxes the user already has: a fitted scikit-learn model, or any function."""
from __future__ import annotations

import pickle
import warnings

import joblib
import numpy as np
import pandas as pd

from .blackbox import (EncodedBlackBox, missing_words_note, output_path, relabel_classes,
                       scores_as_probabilities, spaced_names, write_atomically)
from .columns import codes_by_form, exact_number
from .encoding import check_encoder
from .errors import InputError, listing
from .target import label_strings

PICKLE_FILE = "black_box.joblib"
#: How deep, and through how long lists, the search for category encoders goes.
_MAX_DEPTH, _MAX_ITEMS = 50, 100_000
CALLABLE_FILE = "black_box.txt"


class SklearnBlackBox(EncodedBlackBox):
    """A fitted scikit-learn classifier or pipeline behind :class:`adapters.BlackBox`.

    The estimator receives DataFrames with the dataset's column names (in the order it
    was fitted on, when it records ``feature_names_in_``) and string categories.

    Parameters
    ----------
    estimator : object
        Fitted, with ``predict_proba`` or ``decision_function``.
    encoder : TableEncoder
    n_classes : int
    order : numpy.ndarray of int or None
        Label ``j`` is column ``order[j]`` of the estimator's output (None: column ``j``).
    column_names : list of str, () or None
        The column order the estimator was fitted on when it differs from the encoder's;
        ``()`` when it was fitted on an array (it then gets ``X.to_numpy()``).
    fitted_names : list of str, optional
        The names the estimator was fitted on for ``column_names``, when some differ (the
        spaces around a CSV header's names, which reading the table removes).
    spellings : dict of str to dict of str to str, optional
        Per categorical column, the dataset's categories the estimator knows written in
        another Unicode form, and that form (see :func:`_check_category_types`).
    scores : bool, default=False
        Whether the probabilities are the estimator's ``decision_function`` scores made
        probabilities (:func:`adapters.blackbox.scores_as_probabilities`).

    Use :func:`wrap_sklearn` rather than this constructor.

    Attributes
    ----------
    kind : str
        ``"sklearn"``.
    estimator : object
    """

    kind = "sklearn"

    def __init__(self, estimator, encoder, n_classes, order, column_names, fitted_names=None,
                 spellings=None, scores=False):
        super().__init__(encoder, n_classes)
        self.estimator = estimator
        self._order = order
        self._column_names = column_names
        self._fitted_names = fitted_names
        self._spellings = spellings or {}
        self._scores = scores

    def predict(self, X):
        """Labels for the rows of ``X``: the estimator's own ``predict``.

        Its decision need not be the class with the highest probability (a tuned
        threshold, ``FixedThresholdClassifier``); the labels are what it decides.

        Parameters
        ----------
        X : pandas.DataFrame

        Returns
        -------
        numpy.ndarray of int
        """
        X = self.encoder.select(X)
        if len(X) == 0:
            return np.empty(0, dtype=np.int64)
        # a copy: a step that writes to its input must not change the caller's rows
        predicted = np.asarray(self._run("predict", X.copy())).ravel().tolist()
        position = {c: i for i, c in enumerate(np.asarray(self.estimator.classes_).tolist())}
        unknown = sorted({str(v) for v in predicted if v not in position})
        if unknown or len(predicted) != len(X):
            raise InputError(f"the {type(self.estimator).__name__} predicted "
                             f"{listing(unknown, 5) or f'{len(predicted)} labels'} for "
                             f"{len(X)} rows; predict must return one of its classes_ per row")
        label_of = (np.arange(len(position)) if self._order is None
                    else np.argsort(self._order))
        return self.classes_[label_of[[position[v] for v in predicted]]]

    def check_columns(self, X):
        """Refuse to explain the estimator on the table ``X`` when it reads one of its
        numeric columns as categories (:func:`_numbers_read_as_categories`).

        Raises
        ------
        InputError
        """
        reason = _numbers_read_as_categories(self.estimator, self.encoder, X)
        if reason is not None:
            raise InputError(reason)

    def _proba_frame(self, X):
        P = (scores_as_probabilities(self._run("decision_function", X)) if self._scores
             else self._run("predict_proba", X))
        if self._order is None:
            return P
        # checked first: a 1-D P(class 1) becomes two columns before they are reordered
        return self._checked(P, len(X))[:, self._order]

    def _run(self, method, X):
        if self._spellings:  # a copy: the caller's rows stay as they are
            X = X.assign(**{name: X[name].replace(spelled)
                            for name, spelled in self._spellings.items()})
        frame = X
        if self._column_names == ():
            X = X.to_numpy(dtype=object if self.encoder.categorical_indices_ else np.float64)
        elif self._column_names is not None:
            X = X[self._column_names]
            if self._fitted_names is not None:
                X = X.set_axis(self._fitted_names, axis=1)
        try:
            return getattr(self.estimator, method)(X)
        except (ValueError, TypeError) as err:
            first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            fix = ("fit it on Dataset.X, the columns from_frame gives, or give wrap_callable a "
                   "function that converts them (an XGBoost model: save it and use "
                   "load_xgboost)")
            if "nan" in first.lower() and frame.isna().to_numpy().any():  # reads none
                fix = ("it reads no missing value: leave out the table's rows that hold one "
                       "(DataFrame.dropna before from_frame), or give wrap_callable a "
                       "function that fills them in")
            raise InputError(
                f"the {type(self.estimator).__name__} cannot read the dataset's columns "
                f"(numbers as float64, categories as str, NaN for missing): {first}; "
                f"{fix}") from None

    def save(self, directory):
        """Pickle the estimator with joblib as ``directory/black_box.joblib``.

        A pickle is code: loading it runs whatever it names. Load only files you wrote
        yourself (``joblib.load``, then :func:`wrap_sklearn`); to share a model, prefer
        XGBoost's ``.ubj`` format. An estimator that cannot be pickled (a lambda in a
        ``FunctionTransformer``) is not saved: ``directory/black_box.txt`` says why.

        Parameters
        ----------
        directory : path-like

        Returns
        -------
        pathlib.Path
        """
        path = output_path(directory, PICKLE_FILE)
        temporary = path.with_name(f".{path.name}.tmp")
        try:
            joblib.dump(self.estimator, temporary)
            temporary.replace(path)
        except (pickle.PicklingError, TypeError, AttributeError) as err:
            text = (f"black box: the scikit-learn {type(self.estimator).__name__}, not saved: "
                    f"joblib could not pickle it ({' '.join(str(err).split())}); keep the "
                    f"code that builds it.\n")
            return write_atomically(output_path(directory, CALLABLE_FILE),
                                    text.encode("utf-8"))
        finally:
            temporary.unlink(missing_ok=True)
        return path


class CallableBlackBox(EncodedBlackBox):
    """Any function ``fn(DataFrame) -> probabilities`` behind :class:`adapters.BlackBox`.

    Attributes
    ----------
    kind : str
        As given to :func:`wrap_callable` (``"callable"`` by default).
    fn : callable
    """

    def __init__(self, fn, encoder, n_classes, kind="callable"):
        super().__init__(encoder, n_classes)
        self.fn = fn
        self.kind = str(kind)

    def _proba_frame(self, X):
        return self.fn(X)

    def save(self, directory):
        """Write ``directory/black_box.txt`` saying the model is the user's own code.

        A function is not saved: pickling it would store a reference to code (or code
        itself) that loading would run; keep the code that defines it instead.

        Parameters
        ----------
        directory : path-like

        Returns
        -------
        pathlib.Path
        """
        name = getattr(self.fn, "__qualname__", type(self.fn).__name__)
        module = getattr(self.fn, "__module__", None) or "?"
        text = (f"black box: {self.kind}, the Python callable {module}.{name} with "
                f"{len(self.classes_)} classes and columns "
                f"{', '.join(self.encoder.feature_names_)}.\n"
                f"It is not saved: a callable is code; keep the code that defines it.\n")
        return write_atomically(output_path(directory, CALLABLE_FILE), text.encode("utf-8"))


def wrap_sklearn(estimator, encoder, *, class_names=None, source_labels=None):
    """Use a fitted scikit-learn estimator (or Pipeline) as the black box.

    Parameters
    ----------
    estimator : object
        Fitted, with ``predict_proba`` (or ``decision_function``, below) and ``classes_``.
        It is given DataFrames holding the dataset's columns (numeric as float64,
        categorical as ``str``, NaN for missing), e.g. a Pipeline with a ColumnTransformer;
        in the order it was fitted on when it records ``feature_names_in_``. An estimator
        fitted on an array (it has ``n_features_in_`` but no ``feature_names_in_``) gets the
        same values as an array, columns in the encoder's order, with a warning saying so.
    encoder : TableEncoder
        Fitted on the dataset's features.
    class_names : sequence of str, optional
        ``Dataset.class_names``. Needed when the estimator was fitted on the original
        labels (its ``classes_`` are strings) rather than on ``Dataset.y``: its columns are
        then put in this order. Labels match as the dataset writes them (``1.0`` is
        ``"1"``). Leave it out for an estimator fitted on ``Dataset.y``: given, its
        classes ``0``, ``1`` are read as the labels ``"0"``, ``"1"``, which
        ``Dataset.class_names`` may list the other way round.
    source_labels : sequence of (str, int), optional
        ``Dataset.source_labels``, for an estimator fitted on the table's original labels
        when the dataset merged some of them (``from_frame(..., positive=...)`` on a
        target of more than two classes: one class against the rest): each of its
        classes is read as the dataset's class its label became, and the probabilities
        of merged classes add up.

    Returns
    -------
    SklearnBlackBox or RelabeledBlackBox
        (the latter with ``source_labels``). Its labels (``predict``) are the estimator's
        own ``predict``, whatever threshold decides it; its probabilities (what LIME
        explains) are ``predict_proba``. An estimator without it (``RidgeClassifier``,
        ``LinearSVC``, ``SVC(probability=False)``) is explained through the scores of
        its ``decision_function``, made probabilities by the logistic function (two
        classes) or the softmax (more), with a warning: the largest stays the largest,
        so they rank and decide the classes as the scores do, but they are not calibrated.

    Raises
    ------
    InputError
        Not fitted, neither ``predict_proba`` nor ``decision_function`` (or a
        ``decision_function`` of pairs of classes), classes that cannot be matched to
        ``0 .. k-1``, fitted on other columns, or holding a ``OneHotEncoder`` /
        ``OrdinalEncoder`` that learned a categorical column's values as other than text
        (fitted on the raw ``bool`` or ``int`` column instead of ``Dataset.X``). Later, an
        estimator that cannot read the columns it is given raises ``InputError`` from
        ``predict_proba``.

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from adapters import load_dataset, TableEncoder
    >>> ds = load_dataset("iris")
    >>> box = wrap_sklearn(LogisticRegression(max_iter=500).fit(ds.X, ds.y),
    ...                    TableEncoder().fit(ds.X, ds.categorical))
    >>> box.predict(ds.X[:2]).tolist()
    [0, 0]
    """
    from sklearn.exceptions import NotFittedError
    from sklearn.utils.validation import check_is_fitted

    scores = not hasattr(estimator, "predict_proba")
    if scores and not hasattr(estimator, "decision_function"):
        raise InputError(f"{type(estimator).__name__} has neither predict_proba nor "
                         f"decision_function; wrap a classifier that gives class "
                         f"probabilities or scores")
    try:
        check_is_fitted(estimator)
    except NotFittedError:
        raise InputError(f"the {type(estimator).__name__} is not fitted; fit it before "
                         f"wrapping it") from None
    except TypeError:
        pass  # not a scikit-learn estimator; its outputs are still checked
    classes = getattr(estimator, "classes_", None)
    if classes is None:
        raise InputError(f"{type(estimator).__name__} has no classes_; wrap a fitted "
                         f"classifier")
    check_encoder(encoder)
    if source_labels is not None:
        merged = dict((str(label), int(code)) for label, code in source_labels)
        labels = _label_texts(np.asarray(classes))
        _refuse_classes_the_table_lacks(labels, merged)
        if sorted(labels) != sorted(merged):
            raise InputError(f"the estimator's classes {listing(labels, 10)} are not the "
                             f"table's labels {listing(sorted(merged), 10)} (source_labels)")
        codes = [merged[label] for label in labels]
        box = wrap_sklearn(estimator, encoder, class_names=labels)
        return relabel_classes(box, codes, "source_labels")
    n_classes, order = _class_order(np.asarray(classes), class_names)
    column_names, fitted_names = _fitted_columns(estimator, encoder)
    if column_names == ():  # nothing to match by name: said, as load_xgboost says it
        warnings.warn(f"the {type(estimator).__name__} was fitted on an array, which names "
                      f"no columns: its columns are read as the data's "
                      f"{listing(encoder.feature_names_, 10)}, in this order", UserWarning,
                      stacklevel=2)
    if scores and n_classes > 2 and getattr(_final_step(estimator), "decision_function_shape",
                                            None) == "ovo":
        raise InputError(f"the {type(estimator).__name__}'s decision_function gives a score "
                         f"per pair of classes (decision_function_shape='ovo'), not per "
                         f"class; set it to 'ovr' with set_params (no refit needed)")
    if scores:
        warnings.warn(f"the {type(estimator).__name__} has no predict_proba: LIME explains "
                      f"the scores of its decision_function, made probabilities by the "
                      f"{'logistic function' if n_classes == 2 else 'softmax'} (not "
                      f"calibrated; its labels are its predict)", UserWarning, stacklevel=2)
    spellings = _check_category_types(estimator, encoder)
    return SklearnBlackBox(estimator, encoder, n_classes, order, column_names, fitted_names,
                           spellings, scores)


def _final_step(estimator):
    """The estimator at the end of ``estimator``'s Pipelines, which decides its outputs."""
    while hasattr(estimator, "steps"):
        estimator = estimator.steps[-1][1]
    return estimator


def _category_encoders(estimator):
    """``(encoder, its input column names)`` for every fitted OneHotEncoder or
    OrdinalEncoder inside ``estimator`` that records its input columns' names."""
    from sklearn.preprocessing import OneHotEncoder, OrdinalEncoder

    for fitted in _fitted_parts(estimator, (OneHotEncoder, OrdinalEncoder)):
        names = getattr(fitted, "feature_names_in_", None)
        if names is not None and hasattr(fitted, "categories_"):
            yield fitted, [str(n) for n in names]


def _fitted_parts(estimator, kinds):
    """Every part of ``estimator`` of one of the classes ``kinds``: in Pipelines and
    ColumnTransformers, and in the fitted estimators a meta-estimator holds
    (``best_estimator_`` of a search, the calibrated or voting classifiers'
    ``estimators_``), nested."""
    from sklearn.base import BaseEstimator

    seen = set()

    def parts(value, depth):
        # containers too are visited once (a list may hold itself), and not too deep
        if id(value) in seen or depth > _MAX_DEPTH:
            return
        if isinstance(value, (list, tuple, dict)):
            items = list(value.values()) if isinstance(value, dict) else value
            if len(items) > _MAX_ITEMS:  # data (millions of numbers), not estimators
                return
            seen.add(id(value))
            for item in items:
                yield from parts(item, depth + 1)
        elif isinstance(value, BaseEstimator) or type(value).__module__.startswith("sklearn."):
            if not hasattr(value, "__dict__"):
                return
            seen.add(id(value))
            if isinstance(value, kinds):
                yield value
                return
            for item in vars(value).values():
                yield from parts(item, depth + 1)

    yield from parts(estimator, 0)


def _check_category_types(estimator, encoder) -> dict[str, dict[str, str]]:
    """Refuse an estimator whose category encoder learned a categorical column's values
    otherwise than the dataset gives them, and warn of categories it never saw; return,
    per column, the dataset's categories it knows only in another Unicode form (``é``
    as one character or as ``e`` and an accent), each with that form.

    Given the dataset's ``"True"``/``"1"``, an encoder that learned bool ``True`` or int
    ``1`` sees unknown categories; so does one fitted on values that reading the table
    cleaned (``" Private"``, read as ``"Private"``). With ``handle_unknown="ignore"`` the
    estimator would then answer silently as another model.
    """
    categorical = {encoder.feature_names_[i] for i in encoder.categorical_indices_}
    fix = ("fit the estimator on Dataset.X, the columns from_frame gives, or give "
           "wrap_callable a function that converts them")
    spellings: dict[str, dict[str, str]] = {}
    for fitted, names in _category_encoders(estimator):
        names = _as_table_names(names, encoder)
        for name, known in zip(names, fitted.categories_):
            if name not in categorical:
                continue
            known = [v for v in np.asarray(known, dtype=object).tolist()
                     if isinstance(v, str) or not pd.isna(v)]
            other = [v for v in known if not isinstance(v, str)]
            if other:
                example = other[0]
                raise InputError(
                    f"the estimator's {type(fitted).__name__} learned column {name!r} as "
                    f"{type(example).__name__} values (e.g. {example!r}), but the dataset "
                    f"gives its categories as text ({str(example)!r}); {fix}")
            given = encoder.categories_[name]
            for note in missing_words_note(name, known, given):
                warnings.warn(note, UserWarning, stacklevel=3)
            unseen = [v for v in given if v not in set(known)]
            codes = codes_by_form(unseen, known) if unseen else []
            spellings.setdefault(name, {}).update(
                (v, known[k]) for v, k in zip(unseen, codes) if k >= 0)
            unseen = [v for v, k in zip(unseen, codes) if k < 0]
            if not unseen:
                continue
            spaced = [v for v in known if v.strip() != v and v.strip() in set(given)]
            if spaced:
                raise InputError(f"the estimator's {type(fitted).__name__} learned column "
                                 f"{name!r} as {spaced[0]!r}, which the dataset reads as "
                                 f"{spaced[0].strip()!r} (without the spaces around it); "
                                 f"{fix}")
            # (a step before the encoder may recode the column: unseen is not refused)
            warnings.warn(f"the estimator's {type(fitted).__name__} never saw the categories "
                          f"{listing(unseen, 5)} of column {name!r} (it knows "
                          f"{listing(known, 5)}); unless a step before it recodes them, it "
                          f"reads them as its handle_unknown says", UserWarning, stacklevel=3)
    return {name: spelled for name, spelled in spellings.items() if spelled}


def _numbers_read_as_categories(estimator, encoder, X) -> str | None:
    """Why ``estimator`` cannot be explained on the numeric columns of ``X`` it reads as
    categories, if it reads one so, else None.

    LIME varies a numeric column continuously: a OneHotEncoder or OrdinalEncoder that
    learned its values (``1``, ``2``, ``3``, as numbers or as text) as categories, or a
    HistGradientBoosting model told it is categorical, meets ``1.37`` as an unknown
    category, and LIME would explain a model that ignores the column there.
    """
    from sklearn.ensemble import HistGradientBoostingClassifier

    columns = {str(c): c for c in X.columns}
    numeric = [n for i, n in enumerate(encoder.feature_names_)
               if i not in encoder.categorical_indices_ and n in columns]

    def reason(fitted, name, how):
        return (f"the estimator's {type(fitted).__name__} reads column {name!r} as {how}, but "
                f"the dataset reads it as numbers, which LIME varies continuously (values "
                f"between them are categories it never saw); give from_frame the column as "
                f"a pandas category (df[{name!r}].astype('category')) and fit the estimator "
                f"on Dataset.X")

    for fitted, names in _category_encoders(estimator):
        names = _as_table_names(names, encoder)
        for name, known in zip(names, fitted.categories_):
            if name not in numeric:
                continue
            values = set(X[columns[name]].dropna().tolist())
            numbers = set(pd.to_numeric(pd.Series(np.asarray(known, dtype=object)),
                                        errors="coerce").dropna().tolist())
            if values and values <= numbers:  # its categories, not a step's recoding
                return reason(fitted, name, f"the categories {listing(known, 5)}")
    for fitted in _fitted_parts(estimator, HistGradientBoostingClassifier):
        names = getattr(fitted, "feature_names_in_", None)
        flags = getattr(fitted, "is_categorical_", None)
        if names is None or flags is None:
            continue
        for name, flag in zip(_as_table_names([str(n) for n in names], encoder), flags):
            if flag and str(name) in numeric:
                return reason(fitted, str(name), "categories (categorical_features)")
    return None


def wrap_callable(fn, encoder, kind="callable", *, n_classes=2):
    """Use any function that returns class probabilities as the black box.

    Parameters
    ----------
    fn : callable
        ``fn(X)`` with ``X`` a DataFrame of the dataset's columns (numeric as float64,
        categorical as ``str``, NaN for missing) returns an ``(n, n_classes)`` array of
        probabilities, column ``j`` for label ``j``; for two classes P(class 1) alone, as
        a 1-D array or one column (a Keras sigmoid output), is accepted too.
    encoder : TableEncoder
        Fitted on the dataset's features.
    kind : str, default="callable"
        Name of the model in reports.
    n_classes : int, default=2
        Number of classes ``fn`` gives probabilities for.

    Returns
    -------
    CallableBlackBox
        The wrapped function; its ``save`` writes no code.

    Examples
    --------
    >>> import pandas as pd
    >>> from adapters import TableEncoder
    >>> X = pd.DataFrame({"x": [0.2, 0.9]})
    >>> box = wrap_callable(lambda df: df["x"].to_numpy(), TableEncoder().fit(X))
    >>> box.predict_proba(X).tolist()
    [[0.8, 0.2], [0.09999999999999998, 0.9]]
    """
    if not callable(fn):
        raise InputError(f"expected a callable returning class probabilities, got "
                         f"{type(fn).__name__}")
    if int(n_classes) < 2:
        raise InputError(f"n_classes must be at least 2, got {n_classes}")
    return CallableBlackBox(fn, encoder, int(n_classes), kind)


def _class_order(classes, class_names):
    """``(n_classes, order)``: output column ``order[j]`` holds label ``j`` (None: as is)."""
    if classes.ndim != 1 or len(classes) < 2:
        raise InputError(f"the estimator knows {len(classes)} class(es); a black box "
                         f"needs at least two")
    labels = _label_texts(classes)
    if class_names is not None:
        names = [str(c) for c in class_names]
        _refuse_classes_the_table_lacks(labels, names)
        if sorted(labels) == sorted(names) and labels != names:
            return len(names), np.array([labels.index(n) for n in names])
        if labels == names:
            return len(names), None
    if np.issubdtype(classes.dtype, np.number) and np.array_equal(
            classes, np.arange(len(classes))):
        return len(classes), None
    hint = "" if class_names is None else f" or the class names {listing(class_names, 10)}"
    more = (f" (fitted on the table's {len(labels)} labels: pass "
            f"source_labels=Dataset.source_labels)"
            if class_names is not None and len(labels) > len(class_names) else "")
    raise InputError(f"the estimator's classes {listing(labels, 10)} are not the labels "
                     f"0..k-1{hint}; fit it on Dataset.y or pass class_names{more}")


def _refuse_classes_the_table_lacks(labels, names):
    """Refuse an estimator that knows every one of the table's labels ``names`` and more:
    the rows of a table that lacks a class it predicts cannot say when it predicts it."""
    extra = [c for c in labels if c not in set(names)]
    if extra and set(names) <= set(labels):
        numbers = {exact_number(n) for n in names} - {None}
        same = [c for c in extra if exact_number(c) in numbers]
        if same:
            raise InputError(f"the estimator knows {listing(same, 10)} apart from the "
                             f"table's label{'s' if len(same) > 1 else ''} of the same "
                             f"number, which reading the table made one class; fit it on "
                             f"Dataset.y, or on labels written alike")
        raise InputError(f"the estimator knows the class{'es' if len(extra) > 1 else ''} "
                         f"{listing(extra, 10)}, which no row of the table holds (its "
                         f"labels are {listing(names, 10)}); explain it on a table holding "
                         f"every class it knows")


def _label_texts(classes):
    """The estimator's classes as the dataset writes labels (``1.0`` is ``"1"``)."""
    return [str(c) for c in label_strings(pd.Series(classes))]


#: How a table is given the columns a model was fitted on, for messages.
_FIT_COLUMNS = ("drop= in load_dataset or from_frame leaves a column out, keep= keeps one "
                "reading the table would drop; then wrap the model with "
                "TableEncoder().fit(dataset.X, dataset.categorical)")


def _as_table_names(names, encoder) -> list[str]:
    """A model's column ``names`` as the table names them (:func:`spaced_names`)."""
    read = spaced_names(names, set(encoder.feature_names_), taken=set(names))
    return [read.get(name, name) for name in names]


def _fitted_columns(estimator, encoder):
    """The column order the estimator was fitted on (None: the encoder's; a list of the
    encoder's names; ``()`` for an estimator fitted on an array), and the names it was
    fitted on when some are written otherwise (:func:`_as_table_names`), else None."""
    fitted = getattr(estimator, "feature_names_in_", None)
    if fitted is None:
        n_fitted = getattr(estimator, "n_features_in_", None)
        if n_fitted is None:
            return None, None
        if n_fitted != encoder.n_features_in_:
            raise InputError(f"the estimator was fitted on {n_fitted} columns, the data has "
                             f"{encoder.n_features_in_}; explain it on a table of the "
                             f"columns it was fitted on, in their order ({_FIT_COLUMNS})")
        return (), None
    given = [str(c) for c in fitted]
    fitted = _as_table_names(given, encoder)
    if sorted(fitted) != sorted(encoder.feature_names_):
        missing = sorted(set(fitted) - set(encoder.feature_names_))
        extra = sorted(set(encoder.feature_names_) - set(fitted))
        parts = ([f"it reads {listing(missing, 10)}, which the data does not have (a column "
                  f"that reading the table dropped, such as an identifier, is named in "
                  f"Dataset.notes)"] if missing else [])
        parts += [f"it does not know {listing(extra, 10)}"] if extra else []
        raise InputError(f"the estimator was fitted on other columns: {'; '.join(parts)}; "
                         f"explain it on a table of the columns it was fitted on "
                         f"({_FIT_COLUMNS})")
    if given != fitted:
        return fitted, given
    return (None if fitted == list(encoder.feature_names_) else fitted), None
