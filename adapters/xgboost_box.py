"""XGBoost black boxes: trained here, or loaded from a saved model file."""
from __future__ import annotations

import json
import os
import re
import threading
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import xgboost as xgb

from .blackbox import (EncodedBlackBox, missing_words_note, output_path,
                       scores_as_probabilities, spaced_names, write_atomically)
from .columns import exact_number, number_label, written_alike
from .encoding import check_encoder
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


def load_xgboost(path, encoder):
    """Load a saved XGBoost classifier (UBJSON or JSON, under any file name).

    The model's columns are matched to the encoder's by name (any order); categorical
    columns must agree, and the categories stored in the model (XGBoost ≥ 3.1) are mapped
    onto the encoder's codes. A model without stored categories is assumed to use the
    encoder's codes (sorted categories), as models trained by :func:`train_xgboost` with
    older XGBoost do; a user's model, for a column whose categories are all numbers, their
    numeric order, as pandas codes a category of numbers (a CSV's column of codes).

    Parameters
    ----------
    path : path-like
        A file written by ``Booster.save_model`` / ``XGBClassifier.save_model`` or by
        :meth:`XGBoostBlackBox.save`: ``.json``, ``.ubj``, or another name, which XGBoost
        >= 2.1 writes as UBJSON (``model.bin``).
    encoder : TableEncoder
        Fitted on the data the model will see.

    Returns
    -------
    XGBoostBlackBox
        The model, reading rows in ``encoder``'s layout.

    Raises
    ------
    InputError
        A missing file, a file XGBoost cannot read (a pickle, the old binary format), a
        model that is not a probabilistic classifier, or columns that do not match the
        encoder.
    """
    booster = _read_booster(path)
    check_encoder(encoder)
    config = json.loads(booster.save_config())["learner"]
    objective = config["objective"]["name"]
    if objective not in _OBJECTIVES + _BY_MARGIN:
        why = (" (nor scores with one threshold: XGBClassifier.predict compares them with "
               "0.5, the logistic function with 0)" if objective == "binary:logitraw" else "")
        raise InputError(f"model objective {quoted(objective)} does not give class "
                         f"probabilities{why}; use a model trained with binary:logistic, "
                         f"reg:logistic, binary:hinge, multi:softprob or multi:softmax")
    n_classes = max(2, int(config["learner_model_param"]["num_class"]))
    order = _column_order(booster, encoder)
    recode, notes = _recode(booster, encoder, order)
    if objective == "binary:hinge":
        notes.append("the model's objective binary:hinge gives labels, not probabilities: "
                     "LIME explains the scores that decide them, through the logistic "
                     "function (not calibrated)")
    known = set(encoder.feature_names_) | set(xgboost_names(encoder.feature_names_))
    spaced = [n for n in booster.feature_names or () if n not in known]
    if spaced:  # read by their names without the spaces around them (_name_index)
        notes = list(notes) + [
            f"the model names columns {listing(spaced, 10)} with the spaces around them "
            f"that reading the table removed: read as the same columns"]
    if booster.feature_names is None:
        notes = [f"the model names no columns: its columns are read as the data's "
                 f"{listing(encoder.feature_names_, 10)}, in this order"] + list(notes)
    # a gblinear model's rounds update one linear model, which predicts with all of them
    linear = config["gradient_booster"]["name"] == "gblinear"
    best = None if linear else booster.attributes().get("best_iteration")
    iteration_range = (0, int(best) + 1) if best is not None else (0, 0)
    if best is not None and int(best) + 1 < booster.num_boosted_rounds():
        notes = list(notes) + [
            f"the model file records early stopping at round {int(best)}: its first "
            f"{int(best) + 1} of {booster.num_boosted_rounds()} trees are explained, as "
            f"XGBClassifier.predict reads the file (Booster.predict uses all of them)"]
    identity = np.array_equal(order, np.arange(len(order)))
    info = {"file": str(path), "objective": objective,
            "n_trees": iteration_range[1] or booster.num_boosted_rounds()}
    if notes:
        info["notes"] = notes
    return XGBoostBlackBox(booster, encoder, n_classes, iteration_range,
                           column_order=None if identity else order, recode=recode,
                           info=info)


def _read_booster(path) -> xgb.Booster:
    """The model saved at ``path``, or an :class:`InputError` saying why not."""
    if not isinstance(path, (str, os.PathLike)):
        raise InputError(f"expected the path of a model file, not a {type(path).__name__}: "
                         f"save the model with save_model('model.ubj') and give that path")
    # any name: XGBoost >= 2.1 writes UBJSON whatever the suffix (model.bin, model.model),
    # and the content says what the file is
    path = Path(path)
    if path.is_dir():
        raise InputError(f"model file {quoted(str(path))} is a directory; give the file "
                         f"written by save_model")
    if not path.is_file():
        raise InputError(f"no such model file: {quoted(str(path))}; give the path of a file "
                         f"written by save_model")
    try:
        # from the file's bytes: XGBoost takes a path as UTF-8 text, which a path of other
        # bytes is not
        content = bytearray(path.read_bytes())
    except OSError as err:
        raise InputError(f"could not read model file {quoted(str(path))}: "
                         f"{err.strerror or err}") from None
    if content.startswith(b"\xef\xbb\xbf"):  # a JSON file an editor saved with a BOM
        del content[:3]
    if not content:  # XGBoost aborts the process on an empty buffer
        raise InputError(f"model file {quoted(str(path))} is empty; give a file written by "
                         f"XGBoost's save_model")
    if content.startswith(b"\x80"):  # pickle's protocols 2 and later
        raise InputError(f"model file {quoted(str(path))} is a Python pickle, which is "
                         f"never loaded (unpickling runs code); save the model with "
                         f"save_model as .json or .ubj")
    if content.lstrip().startswith(b"["):
        raise InputError(f"model file {quoted(str(path))} holds a JSON array, not a model "
                         f"(save_model writes an object); give a file written by XGBoost's "
                         f"save_model")
    if not content.lstrip().startswith(b"{"):
        # JSON and UBJSON models are objects; anything else (the old binary format)
        # gets XGBoost's least helpful message
        raise InputError(f"could not load XGBoost model {quoted(str(path))}: not JSON or "
                         f"UBJSON (save_model's formats); a model in XGBoost's old binary "
                         f"format must be saved again as .json or .ubj")
    booster = xgb.Booster()
    try:
        booster.load_model(content)
    except UnicodeDecodeError:
        # a garbled file can make XGBoost's own message undecodable
        raise InputError(f"could not load XGBoost model {quoted(str(path))}: not a model "
                         f"file XGBoost can read; give a file written by XGBoost's "
                         f"save_model") from None
    except xgb.core.XGBoostError as err:
        # "[10:42:00] /path/to/src/file.cc:123: what went wrong Stack trace: [bt] ..."
        reason = " ".join(str(err).split("Stack trace:")[0].split())
        reason = re.sub(r"^\[[\d:]+\] \S+:\d+: ", "", reason)[:200]
        raise InputError(f"could not load XGBoost model {quoted(str(path))}: {reason}; "
                         f"give a file written by XGBoost's save_model") from None
    return booster


def restrict_to_model(dataset, path):
    """``dataset`` with only the columns the saved model at ``path`` was trained on.

    When the model names only a part of the table's columns, the others are left out;
    else ``dataset`` comes back unchanged (:func:`load_xgboost` then says what does not
    match).

    A table often holds more than a model reads (an id, the columns of another model);
    explaining the model in terms of columns it never sees would be misleading.

    Parameters
    ----------
    dataset : Dataset
        The table as read.
    path : path-like
        A model file, as for :func:`load_xgboost`.

    Returns
    -------
    Dataset
        With a note naming the columns left out; a numeric column the model reads as
        categories (integers trained as a pandas category) is read as its categories.

    Raises
    ------
    InputError
        The model reads a column that reading the table dropped (a single value, an
        identifier), naming it and why; :func:`dropped_columns_read` names them, to keep
        (``keep=`` of :func:`adapters.load_dataset`).
    """
    booster = _read_booster(path)
    names = booster.feature_names
    columns = [str(c) for c in dataset.X.columns]
    if names is None:
        return dataset
    by_name = {n: columns[i] for n, i in _name_index(
        names, columns, ours=booster.attr("class_names") is not None).items()}
    dataset = _numbers_as_the_models_categories(dataset, booster, by_name)
    absent = [n for n in names if n not in by_name]
    asked = [c for n in absent for c in _as_written(n)
             if f"dropped column {quoted(c)}, as asked" in dataset.notes]
    if asked:
        raise InputError(f"the model reads {listing(asked, 10)}, which you asked to drop "
                         f"(--drop on the command line, drop= in Python); a model cannot be "
                         f"explained without the columns it reads")
    dropped = [note for n in absent for c in _as_written(n) for note in dataset.notes
               if note.startswith(f"dropped column {quoted(c)}:")]
    if dropped:
        raise InputError(f"the model reads columns the table's reading dropped "
                         f"({'; '.join(dropped)}); a model cannot be explained without "
                         f"them: keep them (keep= in load_dataset or from_frame)")
    if absent or len(names) >= len(columns):
        return dataset
    keep = {by_name[n] for n in names}
    kept = [c for c in dataset.X.columns if str(c) in keep]
    left = [c for c in dataset.X.columns if str(c) not in keep]
    note = (f"the model reads {len(kept)} of the table's {len(columns)} columns: "
            f"{listing(left, 10)} left out of the explanation")
    # what reading the table said of a column left out ("used as a feature") is moot
    about = tuple(f"column {quoted(c)}{end}" for c in left for end in (" ", ":"))
    notes = tuple(n for n in dataset.notes if not n.startswith(about))
    return replace(dataset, X=dataset.X[kept],
                   categorical=tuple(c for c in dataset.categorical if c in kept),
                   notes=notes + (note,))


def dropped_columns_read(dataset, path) -> list[str]:
    """The columns the saved model at ``path`` reads that reading the table dropped.

    Reading drops useless features (a single value, no value, an identifier...): a model
    cannot be explained without the ones it reads, so they are to be kept (``keep=`` of
    :func:`adapters.load_dataset`).

    Parameters
    ----------
    dataset : Dataset
        The table as read.
    path : path-like
        A model file, as for :func:`load_xgboost`.

    Returns
    -------
    list of str
        Column names, in the model's order.
    """
    names = _read_booster(path).feature_names or []
    found = []
    for name in names:
        for column in _as_written(name):
            if any(note.startswith(f"dropped column {quoted(column)}: ")
                   for note in dataset.notes):
                found.append(column)
                break
    return found


def _as_written(name) -> list[str]:
    """A model's column ``name`` as the table may write it: as it is, or as
    :func:`xgboost_names` escaped it, each also without the spaces around it (reading a
    CSV's header removes them)."""
    unescaped = _XGBOOST_UNESCAPE.sub(lambda m: chr(int(m.group(1), 16)), name)
    return list(dict.fromkeys([name, unescaped, name.strip(), unescaped.strip()]))


def _name_index(names, columns, ours=False) -> dict:
    """Each of a model's column ``names`` that names one of ``columns``, with its index.

    A model names a column as the data writes it, or as :func:`xgboost_names` wrote it
    for XGBoost, each name on its own; every name is read as so written for a model
    trained here (``ours``) or one that names every column so. A name with spaces around
    it that names no column otherwise reads the column named without them (a CSV's reading
    removes them; pandas keeps them), when no other name of the model does.

    Raises
    ------
    InputError
        A name that is one column as written and another as written for XGBoost.
    """
    safe = xgboost_names(columns)
    index = {n: i for i, n in enumerate(safe)}
    if ours or set(names) == set(safe):
        return {n: index[n] for n in names if n in index}
    for i, column in enumerate(columns):
        if index.get(column, i) != i and column in names:
            raise InputError(f"the model's column {quoted(column)} is both the table's "
                             f"column of that name and {quoted(columns[index[column]])} as "
                             f"written for XGBoost (which refuses '[', ']' and '<'); rename "
                             f"one of them")
        index[column] = i
    found = {n: index[n] for n in names if n in index}
    # a CSV's reading removes the spaces around its header's names, which a model trained
    # on the file as pandas reads it keeps (' age')
    used = set(found.values())
    taken = {column for column, i in index.items() if i in used}
    for name, column in spaced_names([n for n in names if n not in found], index,
                                     taken).items():
        found[name] = index[column]
    return found


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


def _numbers_as_the_models_categories(dataset, booster, by_name):
    """``dataset`` with each numeric column that the model reads as categories (a zip code
    trained as a pandas category of integers) read as categories too, written as XGBoost
    stores numeric categories (``501``, ``2.5``), or as the model writes the same number
    (``'02139'``, a zip code whose zeros reading the CSV dropped), with a note."""
    stored = _stored_categories(booster)
    turned, respelled = {}, {}
    for j, (name, kind) in enumerate(zip(booster.feature_names,
                                         booster.feature_types or ())):
        column = by_name.get(name)
        if (kind != "c" or column is None or column in dataset.categorical
                or not pd.api.types.is_numeric_dtype(dataset.X[column])
                or pd.api.types.is_bool_dtype(dataset.X[column])):
            continue
        known = (stored.get(j) or (0, None))[1]
        values = dataset.X[column].to_numpy(dtype=np.float64)
        text = pd.Series([None if np.isnan(v) else number_label(v) for v in values],
                         index=dataset.X.index, dtype=object)
        if known is not None:
            spelled = _same_numbers(sorted(set(text.dropna()) - set(known)), known)
            text = text.map(lambda t: spelled.get(t, t))
            if spelled:
                respelled[column] = spelled
        if known is not None and not set(text.dropna()) & set(known):
            continue  # no number is one of its categories: load_xgboost refuses the types
        turned[column] = text
    if not turned:
        return dataset
    X = dataset.X.assign(**turned)
    categorical = tuple(c for c in X.columns if c in dataset.categorical or c in turned)
    notes = [f"columns {listing(list(turned), 10)} hold numbers in the table and categories "
             f"in the model: read as categories, as the model reads them"]
    notes += [f"column {quoted(column)}: the numbers {listing(list(spelled), 5)} read as the "
              f"model's categories {listing(list(spelled.values()), 5)}, the same numbers "
              f"written otherwise" for column, spelled in respelled.items() if column in turned]
    # the reading's advice on the zeros it dropped is moot: the model's categories keep them
    zeros = tuple(f"column {quoted(c)} has numbers written with leading zeros" for c in turned)
    return replace(dataset, X=X, categorical=categorical,
                   notes=tuple(n for n in dataset.notes if not n.startswith(zeros))
                   + tuple(notes))


def _same_numbers(labels, known) -> dict[str, str]:
    """Each of ``labels`` (numbers, as :func:`number_label` writes them) that is the number
    of exactly one of the model's categories ``known`` written otherwise, with that one
    (``'2139'``: ``'02139'``)."""
    by_number: dict = {}
    for category in known:
        number = exact_number(category)
        if number is not None:
            by_number.setdefault(number, []).append(category)
    found = {}
    for label in labels:
        same = by_number.get(exact_number(label), [])
        if len(same) == 1:
            found[label] = same[0]
    return found


def _column_order(booster, encoder):
    """Model column ``j`` → encoder column index, checking names and types."""
    names = booster.feature_names
    if names is None:
        n_model, n_data = booster.num_features(), encoder.n_features_in_
        if n_model != n_data:
            extra = (" (the command line's --drop COLUMN leaves out one it was not)"
                     if n_data > n_model else "")
            raise InputError(f"the model has {n_model} column{'s' * (n_model != 1)}, the "
                             f"data {n_data}; give the data the model was trained on, its "
                             f"columns in order{extra}")
        return np.arange(encoder.n_features_in_)
    index = _name_index(names, encoder.feature_names_)
    missing = [n for n in names if n not in index]
    if missing:
        by_case = {c.casefold(): c for c in encoder.feature_names_}
        alike = [f"{quoted(by_case[n.casefold()])} for {quoted(n)}" for n in missing
                 if n.casefold() in by_case]
        hint = (f" (the data names {', '.join(alike[:5])}: rename its columns as the model "
                f"names them)" if alike else "")
        raise InputError(f"the model's columns {listing(missing, 10)} are not in the "
                         f"data{hint}; give the data the model was trained on")
    order = np.array([index[n] for n in names])
    if len(names) != encoder.n_features_in_:
        unread = [c for i, c in enumerate(encoder.feature_names_) if i not in set(order)]
        raise InputError(f"the model reads {len(names)} of the data's "
                         f"{encoder.n_features_in_} columns, not {listing(unread, 10)}; give "
                         f"the data the model was trained on (restrict_to_model(dataset, "
                         f"path) keeps a table to the model's columns)")
    types = booster.feature_types
    if types is not None:
        categorical = set(encoder.categorical_indices_)
        wrong = []
        for j, t in enumerate(types):
            in_data = order[j] in categorical
            if (t == "c") == in_data or (in_data and _is_bool(encoder, order[j])):
                continue  # a bool column's codes (False 0, True 1) are the model's numbers
            wrong.append(f"{quoted(names[j])} ("
                         + ("categories in the model, numbers in the data" if t == "c"
                            else "numbers in the model, categories in the data") + ")")
        if wrong:
            raise InputError(f"the model and the data read columns {', '.join(wrong[:10])} "
                             f"differently; train the model on the data's types (numbers "
                             f"as numbers, text as pandas categories)")
    return order


def _is_bool(encoder, i):
    """Whether encoder column ``i`` holds the categories ``False``/``True`` only."""
    return list(encoder.categories_[encoder.feature_names_[i]]) in (["False", "True"],
                                                                    ["False"], ["True"])


def _recode(booster, encoder, order):
    """Per model column, the map from encoder codes to the model's stored codes.

    Returns ``(recode, notes)``. A data category the model does not store as written is
    matched to the one it stores with spaces around it (``" Private"``: the table's reading
    strips them). Non-ASCII category strings are not stored faithfully by XGBoost 3.1-3.2
    (the byte array is cut at the character count): such a column's categories are
    matched by their length and the start that is stored, in either Unicode form (``é`` as
    one character or as ``e`` and an accent); when that does not pair them,
    the data's sorted order is assumed if the stored starts agree with it, else refused.
    Data lacking some of the model's categories is read only when each of its own pairs
    with one of the model's.
    """
    recode, notes = {}, []
    stored = _stored_categories(booster)
    ours_trained_here = booster.attr("class_names") is not None
    for j, kind in enumerate(booster.feature_types or ()):
        if kind == "c" and j not in stored:
            name = encoder.feature_names_[order[j]]
            ours = list(encoder.categories_[name])
            numbers = [exact_number(c) for c in ours]
            how = "data's sorted categories"
            if not ours_trained_here and ours and None not in numbers:
                # a user's category of numbers (pandas codes them in numeric order, 2
                # before 10); train_xgboost coded the encoder's text order
                ranked = sorted(range(len(ours)), key=numbers.__getitem__)
                ours, how = [ours[k] for k in ranked], "data's categories in numeric order"
                if ranked != list(range(len(ranked))):
                    recode[j] = np.argsort(ranked).astype(np.float64)
            notes.append(f"column {quoted(name)}: the model stores no categories (saved by "
                         f"XGBoost before 3.1); its codes are taken as the {how} "
                         f"{listing(ours, 5)}")
    for j, (count, categories) in stored.items():
        name = encoder.feature_names_[order[j]]
        ours = list(encoder.categories_.get(name, ()))
        if categories is None:
            cut = _cut_categories(booster, j)
            codes = _match_cut_categories(cut, ours)
            # the data may lack some of the model's categories (a rare one, in a sample),
            # or hold some it never saw, when the stored parts pair each of its own with
            # one of the model's or with none
            if len(ours) != count and codes is None:
                raise InputError(f"column {quoted(name)} has {len(ours)} categories in the "
                                 f"data but {count} in the model; give the data the model "
                                 f"was trained on")
            unseen = [c for c, code in zip(ours, codes or ()) if np.isnan(code)]
            if unseen:
                notes += _unseen_notes(name, unseen, ours, "non-ASCII ones")
            if codes is not None and codes != list(range(len(ours))):
                recode[j] = np.array(codes, dtype=np.float64)
            elif codes is None and not all(written_alike(c, start, length)
                                           for c, (start, length) in zip(ours, cut)):
                raise InputError(f"column {quoted(name)}: the model's non-ASCII categories "
                                 f"are stored cut short (XGBoost 3.1-3.2) and are not the "
                                 f"data's {listing(ours, 5)} in sorted order; train the "
                                 f"model with its categories in sorted order")
            how = ("matched to the data's by their length and the part that is stored"
                   if codes is not None else "assuming the data's sorted order")
            notes.append(f"column {name!r}: non-ASCII categories stored in the model "
                         f"cannot be read back; {how}")
        elif categories != ours:
            position = {c: k for k, c in enumerate(categories)}
            spaced = {}
            for k, c in enumerate(categories):
                spaced.setdefault(c.strip(), []).append(k)
            codes = [position.get(c, spaced[c][0] if len(spaced.get(c, ())) == 1 else np.nan)
                     for c in ours]
            recode[j] = np.array(codes, dtype=np.float64)
            stripped = [c for c in ours if c not in position and len(spaced.get(c, ())) == 1]
            if stripped:
                notes.append(f"column {quoted(name)}: the model stores "
                             f"{listing([categories[spaced[c][0]] for c in stripped], 5)} "
                             f"with spaces around them, which reading the table removed; "
                             f"read as the same categories")
            unseen = [c for c, code in zip(ours, codes) if np.isnan(code)]
            notes += _unseen_notes(name, unseen, ours, listing(categories, 5))
            notes += missing_words_note(name, categories, ours)
    return recode, notes


def _unseen_notes(name, unseen, ours, trained_on) -> list[str]:
    """The note on the data's categories of column ``name`` that the model never saw
    (read as missing); refused when it saw none of them."""
    if unseen and len(unseen) == len(ours):
        raise InputError(f"column {quoted(name)}: the model knows none of the data's "
                         f"categories {listing(ours, 5)} (it was trained on {trained_on}); "
                         f"give the data the model was trained on")
    if not unseen:
        return []
    # XGBoost 3.2's own predict on a DataFrame refuses such a category ("not in the
    # training set") or, for some frames, reads it as another category: neither says
    # what the model means by it
    return [f"column {quoted(name)}: the model never saw {listing(unseen, 5)}; they are "
            f"read as missing values (the branch each split learned for them), where "
            f"XGBoost's own predict refuses them or takes them for other categories"]


def _cut_categories(booster, j):
    """``(start, length)`` of each category of model column ``j`` whose strings XGBoost
    stored cut short: the start that is stored, and the length in characters."""
    model = json.loads(bytes(booster.save_raw(raw_format="json")))
    entry = model["learner"]["gradient_booster"]["model"]["cats"]["enc"][j]
    offsets = entry["offsets"]
    # the bytes are the first (number of characters) bytes of the strings' UTF-8
    text = bytes(v & 0xFF for v in entry["values"]).decode("utf-8", errors="ignore")
    return [(text[a:b], b - a) for a, b in zip(offsets, offsets[1:])]


def _match_cut_categories(cut, ours):
    """The model's code of each of ``ours`` given the model's ``cut`` categories (see
    :func:`_cut_categories`), or None when their starts and lengths do not pair them one
    to one. With another count of ``ours`` than the model has, each must fit exactly one
    of the model's (an absent category of the same start and length could be the one
    written), or none (NaN: a category the model never saw)."""
    candidates = [{i for i, c in enumerate(ours) if written_alike(c, start, length)}
                  for start, length in cut]
    if len(ours) != len(cut):
        fits = [[k for k, found in enumerate(candidates) if i in found]
                for i in range(len(ours))]
        if any(len(k) > 1 for k in fits):
            return None
        codes = [k[0] if k else np.nan for k in fits]  # NaN: fits none, never seen
        matched = [c for c in codes if not np.isnan(c)]
        return None if len(set(matched)) < len(matched) else codes
    codes = [None] * len(ours)
    progress = True
    while progress:
        progress = False
        for k, found in enumerate(candidates):
            found -= {i for i, code in enumerate(codes) if code is not None}
            if len(found) == 1 and k not in codes:
                codes[found.pop()] = k
                progress = True
    return None if None in codes else codes


def _stored_categories(booster):
    """``{model column: (count, category strings in code order or None)}`` from the model.

    ``None`` when the strings are not ASCII (see :func:`_recode`).
    """
    model = json.loads(bytes(booster.save_raw(raw_format="json")))
    cats = model["learner"]["gradient_booster"].get("model", {}).get("cats", {})
    stored = {}
    for j, entry in enumerate(cats.get("enc") or []):
        values = entry.get("values") or []
        if not values:
            continue
        if "offsets" not in entry:
            stored[j] = (len(values), [number_label(v) for v in values])
            continue
        offsets = entry["offsets"]
        raw = bytes(v & 0xFF for v in values)
        if not raw.isascii():
            stored[j] = (len(offsets) - 1, None)
            continue
        stored[j] = (len(offsets) - 1,
                     [raw[a:b].decode("ascii") for a, b in zip(offsets, offsets[1:])])
    return stored
