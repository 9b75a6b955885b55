"""XGBoost black boxes (:class:`XGBoostBlackBox`) and training them (:func:`train_xgboost`).

Training chooses the threads, weighs rare classes, stops early on a validation split and
names columns as XGBoost accepts them (:func:`xgboost_names`); the box predicts on the
encoder's codes and saves itself as a model file. Reading a user's model file is
:mod:`adapters.model_file`.
"""
from __future__ import annotations

import json
import re
import threading

import numpy as np
import pandas as pd
import xgboost as xgb

from .blackbox import (EncodedBlackBox, output_path, scores_as_probabilities,
                       write_atomically)
from .errors import InputError, listing, quoted

DEFAULT_PARAMS = {"n_estimators": 300, "max_depth": 4, "learning_rate": 0.1}
"""Defaults of :func:`train_xgboost` (any XGBClassifier parameter may override them)."""

MODEL_FILE = "black_box.ubj"

#: Tables of fewer cells (rows x columns) than this train the black box on one thread.
#: XGBoost's threads wait for each other many times per tree: with every core its own,
#: two threads train adult's 26,048 rows 0.2 s faster than one, but when another job
#: holds a core they are 3-5x slower (3.1 s against 0.66 s; 100 rows once took 13 s with
#: both cores busy), and the model is the same either way (BENCHMARKS.md, "The black
#: box's threads"). Predictions use every core.
ONE_THREAD_CELLS = 1_000_000

#: Set to end a :func:`train_xgboost` in progress after its current round, which then
#: raises :class:`TrainingStopped`: a run that must stop (Ctrl-C, SIGTERM, a time limit)
#: cannot raise inside XGBoost's training, which calls back into Python from C++.
STOP_TRAINING = threading.Event()


class TrainingStopped(Exception):
    """:func:`train_xgboost` ended early because :data:`STOP_TRAINING` was set."""


class _StopWhenAsked(xgb.callback.TrainingCallback):
    """Ends training after the round in which :data:`STOP_TRAINING` is set."""

    def after_iteration(self, model, epoch, evals_log) -> bool:
        return STOP_TRAINING.is_set()

#: The objectives of classifiers that give class probabilities (reg:logistic's are
#: binary:logistic's, P(class 1)), and of those that give labels, read through the scores
#: (margins) that decide them (multi:softmax's softmax is multi:softprob's probabilities;
#: binary:hinge's logistic function is not calibrated).
_OBJECTIVES = ("binary:logistic", "reg:logistic", "multi:softprob")
_BY_MARGIN = ("multi:softmax", "binary:hinge")


class XGBoostBlackBox(EncodedBlackBox):
    """An XGBoost booster behind the :class:`adapters.BlackBox` protocol.

    Predictions always go through ``booster.inplace_predict`` on the encoder's float
    matrix (a DMatrix of it for a ``gblinear`` model, which has no in-place prediction):
    categorical columns hold category codes, which XGBoost reads as categories for
    features it trained as categorical. ``predict_proba`` encodes its DataFrame first, so
    both paths give the same numbers. A ``multi:softmax`` model's probabilities are the
    softmax of its margins, a ``binary:hinge`` model's their logistic function (its labels,
    their largest).

    Parameters
    ----------
    booster : xgboost.Booster
    encoder : TableEncoder
    n_classes : int
    iteration_range : tuple of int, default=(0, 0)
        Trees used (``(0, 0)``: all); ``(0, best_iteration + 1)`` after early stopping.
    column_order : numpy.ndarray of int, optional
        Model column ``j`` is encoder column ``column_order[j]``.
    recode : dict of int to numpy.ndarray, optional
        For model column ``j``, ``recode[j][code]`` is the model's code for the encoder's
        category ``code`` (NaN: unknown to the model).
    info : dict, optional
        How the model was made (trees, early stopping, ...), for reports.

    Attributes
    ----------
    kind : str
        ``"xgboost"``.
    classes_ : numpy.ndarray of int
    booster : xgboost.Booster
    encoder : TableEncoder
    info : dict
    """

    kind = "xgboost"

    def __init__(self, booster, encoder, n_classes, iteration_range=(0, 0),
                 column_order=None, recode=None, info=None):
        super().__init__(encoder, n_classes)
        self.booster = booster
        self.iteration_range = tuple(int(i) for i in iteration_range)
        self.column_order = None if column_order is None else np.asarray(column_order)
        self.recode = dict(recode or {})
        self.info = dict(info or {})
        learner = json.loads(booster.save_config())["learner"]
        self._linear = learner["gradient_booster"]["name"] == "gblinear"
        self._margin = learner["objective"]["name"] in _BY_MARGIN

    def _proba_frame(self, X):
        return self._proba_matrix(self.encoder.transform(X))

    def _proba_matrix(self, Z):
        if self.column_order is not None:
            Z = Z[:, self.column_order]
        if self.recode:
            Z = Z.copy() if self.column_order is None else Z
            for j, table in self.recode.items():
                codes = Z[:, j]
                present = ~np.isnan(codes)
                codes[present] = table[codes[present].astype(np.intp)]
        if self._linear:  # one linear model, updated every round: no iteration range
            out = self.booster.predict(xgb.DMatrix(Z), output_margin=self._margin,
                                       validate_features=False)
        else:
            out = self.booster.inplace_predict(
                Z, iteration_range=self.iteration_range,
                predict_type="margin" if self._margin else "value")
        return scores_as_probabilities(out) if self._margin else out

    @property
    def class_names(self):
        """The names of classes ``0 .. k-1`` when the model records them (trained here with
        ``class_names``, or loaded from such a file), else ``None``."""
        try:
            names = json.loads(self.booster.attributes().get("class_names") or "null")
        except ValueError:
            return None  # another tool's attribute of the same name: not ours to read
        if (not isinstance(names, list) or len(names) != len(self.classes_)
                or not all(isinstance(n, str) for n in names)):
            return None
        return tuple(names)

    def save(self, directory):
        """Write the model as ``directory/black_box.ubj`` (XGBoost's binary JSON).

        The file holds the trees used (up to the early-stopping iteration), the column
        names and types, the categories and the class names when known, so that any
        XGBoost reader predicts as this black box does; :func:`load_xgboost` reads it back
        with the same encoder.

        Parameters
        ----------
        directory : path-like
            Created when missing.

        Returns
        -------
        pathlib.Path
        """
        booster = self.booster
        if self.iteration_range != (0, 0):
            # only the trees used: a plain Booster.predict on the file ignores best_iteration
            booster = _trees_used(booster, self.iteration_range)
        data = bytes(booster.save_raw(raw_format="ubj"))
        return write_atomically(output_path(directory, MODEL_FILE), data)


def _trees_used(booster: xgb.Booster, iteration_range) -> xgb.Booster:
    """``booster`` cut to the trees of ``iteration_range``, with everything else it holds.

    XGBoost's slicing keeps the trees, column names and types but drops the attributes
    (class names, best iteration) and the categories the model stores (XGBoost >= 3.1):
    those are copied over, through the model's JSON form.
    """
    attributes = booster.attributes()
    part = booster[slice(*iteration_range)]
    full = json.loads(bytes(booster.save_raw(raw_format="json")))
    cats = full["learner"]["gradient_booster"].get("model", {}).get("cats")
    if cats:
        model = json.loads(bytes(part.save_raw(raw_format="json")))
        model["learner"]["gradient_booster"]["model"]["cats"] = cats
        part = xgb.Booster()
        # ensure_ascii=False: XGBoost's JSON reader keeps a "\u00e2" escape as six
        # characters, so the names of columns and categories must be written as UTF-8
        part.load_model(bytearray(json.dumps(model, ensure_ascii=False).encode("utf-8")))
    part.set_attr(**{**attributes, "best_iteration": str(iteration_range[1] - 1)})
    return part


def train_xgboost(X, y, encoder, categorical, random_state=0, class_names=None,
                  class_weight=None, **params):
    """Train an XGBoost classifier as the black box.

    Uses ``tree_method="hist"``; categorical columns are given to XGBoost natively (pandas
    ``category`` dtype holding the encoder's categories, ``enable_categorical=True``), so
    the encoder's codes are the model's codes. A stratified validation split is carved
    from the rows for early stopping; the model uses the trees up to the best iteration (and
    :meth:`XGBoostBlackBox.save` writes only those).

    Parameters
    ----------
    X : pandas.DataFrame
        Training features (``Dataset.X`` or a part of it).
    y : array-like of int
        Labels ``0 .. k-1``, every label present; ``k > 2`` trains a multi-class model.
    encoder : TableEncoder
        Fitted on the dataset's features; fitted on ``X`` here when not yet fitted.
    categorical : iterable of str
        The categorical columns; must agree with a fitted encoder.
    random_state : int, default=0
        Seeds the validation split and XGBoost.
    class_names : sequence of str, optional
        The names of labels ``0 .. k-1`` (``Dataset.class_names``), kept in the model and
        in its saved file (:attr:`XGBoostBlackBox.class_names`).
    class_weight : {None, "balanced"}, default=None
        ``"balanced"`` weighs each row by how many times rarer its class is than the most
        frequent one (``sample_weight``, the most frequent class's 1: with two classes,
        the ratio XGBoost's ``scale_pos_weight = negatives / positives`` sets when the
        positive class is the rarer; any number of classes), in training and in early
        stopping's validation loss alike, so that a rare class is not outvoted:
        unweighted, a class of a few percent of the rows is often predicted for none of
        them. The model then answers as if the classes were equally frequent.
    **params
        XGBClassifier parameters overriding :data:`DEFAULT_PARAMS`, and
        ``validation_fraction`` (default 0.2) and ``early_stopping_rounds`` (default 20;
        ``None`` trains all ``n_estimators`` trees on every row). Without ``n_jobs`` (or
        ``nthread``) the model trains on :func:`training_threads` threads and predicts on
        every core; with it, both use that many.

    Returns
    -------
    XGBoostBlackBox
        ``info`` records the trees used, the best iteration, validation rows, the
        training threads (None: every core) and, with ``class_weight``, each class's
        weight (``class_weights``).

    Raises
    ------
    InputError
        Labels that are not ``0 .. k-1``, columns that do not match the encoder, or an
        unknown ``class_weight``.

    Examples
    --------
    >>> from adapters import TableEncoder, load_dataset
    >>> ds = load_dataset("breast_cancer")
    >>> enc = TableEncoder().fit(ds.X, ds.categorical)
    >>> box = train_xgboost(ds.X, ds.y, enc, ds.categorical, n_estimators=20)
    >>> box.predict(ds.X[:3]).tolist()
    [1, 1, 1]
    """
    from sklearn.model_selection import train_test_split

    check_class_weight(class_weight)
    if class_weight is not None and "scale_pos_weight" in params:
        raise InputError("give class_weight or scale_pos_weight, not both: each weighs the "
                         "classes, and together they would weigh the rare one twice")
    categorical = tuple(str(c) for c in categorical)
    if not hasattr(encoder, "feature_names_"):
        encoder.fit(X, categorical)
    elif set(encoder.categorical_) != set(categorical):
        raise InputError(f"categorical columns {listing(categorical)} differ from the "
                         f"encoder's {listing(encoder.categorical_)}; fit the encoder on "
                         f"the same columns")
    Z = encoder.transform(X)
    y = _labels(y, len(Z))
    n_classes = int(y.max()) + 1
    params = {**DEFAULT_PARAMS, **params}
    threads_chosen = "n_jobs" not in params and "nthread" not in params
    if threads_chosen:
        params["n_jobs"] = training_threads(*Z.shape)
    fraction = float(params.pop("validation_fraction", 0.2))
    rounds = params.pop("early_stopping_rounds", 20)
    model = xgb.XGBClassifier(tree_method="hist", enable_categorical=True,
                              random_state=random_state, callbacks=[_StopWhenAsked()],
                              **params)
    counts = np.bincount(y)
    n_validation = int(np.ceil(fraction * len(y)))

    info = {"n_estimators": int(model.n_estimators), "rows": len(y),
            "training_threads": params.get("n_jobs", params.get("nthread"))}
    weights = None
    if class_weight == "balanced":
        per_class = counts.max() / counts
        weights = per_class[y]
        info["class_weights"] = [float(w) for w in per_class]
    frame = category_frame(Z, encoder)
    if rounds and counts.min() >= 2 and n_classes <= n_validation <= len(y) - n_classes:
        train, valid = train_test_split(np.arange(len(y)), test_size=n_validation,
                                        stratify=y, random_state=random_state)
        model.set_params(early_stopping_rounds=int(rounds))
        _fit(model, frame.iloc[train], y[train], eval_set=[(frame.iloc[valid], y[valid])],
             verbose=False, **_weighted(weights, train, valid))
        best = int(model.best_iteration)
        info.update(early_stopping=True, validation_rows=len(valid), best_iteration=best,
                    n_trees=best + 1, validation_score=float(model.best_score))
        iteration_range = (0, best + 1)
    else:
        _fit(model, frame, y, verbose=False, sample_weight=weights)
        iteration_range = (0, 0)
        info.update(early_stopping=False, n_trees=model.get_booster().num_boosted_rounds())
        if rounds:
            info["note"] = ("too few rows per class for a validation split; trained "
                            "without early stopping")
    booster = model.get_booster()
    if threads_chosen:
        booster.set_param({"nthread": 0})  # predictions (LIME's batches) on every core
    if class_names is not None:
        if len(class_names) != n_classes:
            raise InputError(f"class_names names {len(class_names)} classes, y has "
                             f"{n_classes}")
        booster.set_attr(class_names=json.dumps([str(c) for c in class_names]))
    return XGBoostBlackBox(booster, encoder, n_classes, iteration_range, info=info)


def training_threads(n_rows: int, n_columns: int) -> int | None:
    """XGBoost's ``n_jobs`` for training on a table of this size when not told: 1 below
    :data:`ONE_THREAD_CELLS` cells, else None (XGBoost's own: every core).

    >>> training_threads(569, 30), training_threads(200_000, 20)
    (1, None)
    """
    return 1 if n_rows * n_columns < ONE_THREAD_CELLS else None


def check_class_weight(class_weight):
    """``class_weight`` if :func:`train_xgboost` takes it (None or ``"balanced"``).

    Raises
    ------
    InputError
        For any other value.
    """
    if class_weight is None or isinstance(class_weight, str) and class_weight == "balanced":
        return class_weight
    raise InputError(f"class_weight must be None or 'balanced', got {class_weight!r}")


def _weighted(weights, train, valid) -> dict:
    """``fit``'s row weights of the training and validation parts; none without weights."""
    if weights is None:
        return {}
    return {"sample_weight": weights[train], "sample_weight_eval_set": [weights[valid]]}


def _fit(model, *args, **kwargs) -> None:
    """``model.fit``, then :class:`TrainingStopped` if :data:`STOP_TRAINING` ended it."""
    model.fit(*args, **kwargs)
    if STOP_TRAINING.is_set():
        raise TrainingStopped("XGBoost's training was stopped on request")


def xgboost_names(names) -> list[str]:
    """Column names XGBoost accepts: ``[``, ``]``, ``<`` (and ``%``) percent-encoded.

    XGBoost refuses feature names holding the first three. Each name is encoded on its own
    (``dose[mg]`` is ``dose%5Bmg%5D`` whatever the other columns are), and the encoding is
    one-to-one, so a model trained here and loaded later is matched to the data's columns
    by name in any order, and names that differ stay distinct.

    Examples
    --------
    >>> xgboost_names(["dose[mg]", "dose(mg)", "a<b", "50%"])
    ['dose%5Bmg%5D', 'dose(mg)', 'a%3Cb', '50%25']
    """
    return [str(name).translate(_XGBOOST_ESCAPES) for name in names]


_XGBOOST_ESCAPES = str.maketrans({c: f"%{ord(c):02X}" for c in "%[]<"})
_XGBOOST_UNESCAPE = re.compile("%(" + "|".join(f"{ord(c):02X}" for c in "%[]<") + ")")


def category_frame(Z, encoder):
    """The encoded rows as a DataFrame XGBoost trains on natively.

    Numeric columns are float64; categorical columns are pandas ``category`` dtype with the
    encoder's categories, so that the category codes equal the encoder's codes.

    Parameters
    ----------
    Z : numpy.ndarray
        Rows in the encoder layout.
    encoder : TableEncoder

    Returns
    -------
    pandas.DataFrame

    Raises
    ------
    InputError
        A category holds a NUL character, which XGBoost cannot store.
    """
    for name, values in encoder.categories_.items():
        bad = next((v for v in values if "\x00" in v), None)
        if bad is not None:
            raise InputError(f"column {quoted(name)} has the value {quoted(bad)}, with a NUL "
                             "character XGBoost cannot store as a category; remove it")
    columns = {}
    categorical = set(encoder.categorical_indices_)
    safe = xgboost_names(encoder.feature_names_)
    for i, name in enumerate(encoder.feature_names_):
        if i in categorical:
            codes = np.where(np.isnan(Z[:, i]), -1, np.nan_to_num(Z[:, i])).astype(np.int64)
            columns[safe[i]] = pd.Categorical.from_codes(
                codes, categories=pd.Index(list(encoder.categories_[name]), dtype=object))
        else:
            columns[safe[i]] = Z[:, i]
    return pd.DataFrame(columns)


def _labels(y, n_rows):
    """``y`` as int64 labels ``0 .. k-1`` with every label present."""
    y = np.asarray(y)
    if y.ndim != 1 or len(y) != n_rows:
        raise InputError(f"y must be 1-D with one label per row ({n_rows}), got shape "
                         f"{y.shape}")
    if not np.issubdtype(y.dtype, np.integer):
        raise InputError("y must hold integer labels 0 .. k-1 (use Dataset.y)")
    present = np.unique(y)
    if len(present) < 2 or not np.array_equal(present, np.arange(len(present))):
        raise InputError(f"y must hold the labels 0 .. k-1 (k >= 2), each at least once; "
                         f"got {present.tolist()[:10]}")
    return y.astype(np.int64)
