"""The pipeline: black box → LIME on every row → transformed dataset → IMLI and FOLD → fidelity.

``run_pipeline`` is the one entry point the command line, the examples and the benchmarks
share. It returns a :class:`PipelineResult` holding the report (a JSON-ready dict) and the
fitted objects; :mod:`explain.outputs` writes it to a directory.
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Callable

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from adapters import (BlackBox, Dataset, InputError, TableEncoder, relabel_classes,
                      rest_name, train_xgboost)
from adapters.blackbox import check_encoded_reading, unwrapped
from adapters.xgboost_box import check_class_weight
from adapters.errors import counted, listing, quoted
from adapters.target import labels_as_written
from explain.figures import decimals
from explain.learners import (LEARNERS, FittedLearner, check_feature_names, check_params,
                              fit_learner, plain_value)
from explain.lime_input import LimeInput
from explain.lime_cache import check_cache_dir
from explain.lime_runner import (EXECUTION_ONLY, Explanations, LimeConfig, explain_rows,
                                 seed_value, weighed_features)
from explain.metrics import agreement_interval, agreement_scores, paired_comparison
from explain.transform import (Negations, binary_columns, binary_view, negation_mask,
                               selection_mask, table_view)
from explain.versions import environment

TRAIN_VIEWS = ("lime+raw", "lime", "raw")

__all__ = ["TRAIN_VIEWS", "training_view", "training_labels", "learner_report",
           "prediction_scores", "view_predictions", "RunConfig", "PipelineResult",
           "run_pipeline", "binarize_target"]


@dataclass(frozen=True)
class RunConfig:
    """Everything that decides a run's result (recorded in report.json).

    Parameters
    ----------
    test_size : float, default=0.25
        Fraction of rows held out for fidelity, stratified on the target as the run
        learns it (for a multi-class target: the positive class vs the rest), by
        ``train_test_split(..., stratify=y, random_state=random_state)``; a class that
        stratifying rounds down to no test row gets one, for a test row of the other class.
        predictions.csv names each row's part.
    random_state : int, default=0
        From 0 to 2**32 - 1: seeds the split, the black box and both learners (LIME has
        its own, ``lime.random_state``; the command line's ``--seed`` sets both).
    lime : LimeConfig, default=LimeConfig()
        The LIME stage's settings.
    learners : tuple of str, default=("imli", "fold")
        Which surrogates to learn.
    imli_params, fold_params : dict, default={}
        Extra keyword parameters for ``IMLIClassifier`` / ``FOLDClassifier``.
    explain_test : bool, default=True
        Also explain the test rows, for the LIME-transformed fidelity protocol.
    train_view : {"lime+raw", "lime", "raw"}, default="lime+raw"
        What the learners learn from. ``"lime"``: the LIME-filtered rows only (the LIME-FOLD
        paper's transformed dataset). ``"lime+raw"``: those rows together with the same
        rows unfiltered — rules that hold where only the LIME-selected features are known
        *and* on full rows, so they stay faithful both as a global model and in the LIME
        protocol (BENCHMARKS.md measures the three). ``"raw"``: every feature of every row,
        no LIME at all (the ablation).
    class_weight : {None, "balanced"}, default=None
        How the black box trained here weighs its two classes (a given model is explained
        as it is). ``"balanced"`` weighs each row of the rarer class, whichever it is, by
        how many times rarer it is (row weights; :func:`adapters.train_xgboost`): on a
        table where the positive class is a few percent of the rows, the unweighted black
        box often predicts it for no row, and there is no decision to explain.

    Raises
    ------
    adapters.InputError
        If a setting is not of its type or out of its range.
    """

    test_size: float = 0.25
    random_state: int = 0
    lime: LimeConfig = field(default_factory=LimeConfig)
    learners: tuple[str, ...] = ("imli", "fold")
    imli_params: dict = field(default_factory=dict)
    fold_params: dict = field(default_factory=dict)
    explain_test: bool = True
    train_view: str = "lime+raw"
    class_weight: str | None = None

    def __post_init__(self):
        set_ = object.__setattr__  # frozen: the checked values replace the given ones
        if (isinstance(self.test_size, (bool, np.bool_))
                or not isinstance(self.test_size, (int, float, np.integer, np.floating))
                or not 0 < self.test_size < 1):
            raise InputError(f"test_size must be a number between 0 and 1 (a share of the "
                             f"rows), got {self.test_size!r}")
        set_(self, "test_size", float(self.test_size))
        set_(self, "random_state", seed_value("random_state", self.random_state))
        if not isinstance(self.lime, LimeConfig):
            raise InputError(f"lime must be a LimeConfig, got {type(self.lime).__name__}")
        if (isinstance(self.learners, str) or not isinstance(self.learners, (tuple, list))
                or not all(isinstance(name, str) for name in self.learners)):
            raise InputError(f"learners must be a tuple of names such as ('imli', 'fold'), "
                             f"not {self.learners!r}")
        set_(self, "learners", tuple(self.learners))
        for name in ("imli_params", "fold_params"):
            params = {} if getattr(self, name) is None else getattr(self, name)
            if not isinstance(params, Mapping):
                raise InputError(f"{name} must be a dict of the estimator's parameters, "
                                 f"got {type(params).__name__}")
            for key in params:
                if not isinstance(key, str):  # a mix of keys failed to sort in a message
                    raise InputError(f"{name}' keys must be parameter names (str), got "
                                     f"{key!r}")
            set_(self, name, dict(params))
        if not isinstance(self.explain_test, (bool, np.bool_)):
            # "no" or None read as a truth value explained the test rows, or not, silently
            raise InputError(f"explain_test must be True or False, got {self.explain_test!r}")
        set_(self, "explain_test", bool(self.explain_test))
        if self.train_view not in TRAIN_VIEWS:
            raise InputError(f"unknown train_view {self.train_view!r}; choose from "
                             f"{TRAIN_VIEWS}")
        check_class_weight(self.class_weight)

    @property
    def uses_lime(self) -> bool:
        """Whether the run explains rows with LIME (every view but ``"raw"`` does)."""
        return self.train_view != "raw"

    def execution(self) -> dict:
        """How LIME ran, not what it gave.

        Returns
        -------
        dict
            Its workers, batch size and memory budget (report.json's
            ``environment.lime_execution``; the scheduler's address is left out); empty
            when the run uses no LIME.
        """
        if not self.uses_lime:
            return {}
        return {k: getattr(self.lime, k) for k in EXECUTION_ONLY if k != "scheduler"}

    def to_dict(self) -> dict:
        """The configuration as plain JSON-ready values.

        Returns
        -------
        dict
            What decides the result, so two runs that differ only in how LIME ran
            (:meth:`execution`) have the same.
        """
        # how the rows were explained (workers, batches) is not a parameter of the result:
        # report.json's environment records it (see execution())
        lime = {k: getattr(self.lime, k) for k in self.lime.__dataclass_fields__
                if k not in EXECUTION_ONLY}
        if self.lime.engine != "batched":
            lime["mode"] = None  # only the batched engine has modes
        if not self.uses_lime:  # only the bins (IMLI's thresholds) apply
            lime = {"discretizer": self.lime.discretizer}
        return {
            "test_size": self.test_size,
            "random_state": self.random_state,
            "lime": lime,
            "learners": list(self.learners),
            # a learner that does not run has no settings to record
            "imli_params": _plain_params(self.imli_params) if "imli" in self.learners else {},
            "fold_params": _plain_params(self.fold_params) if "fold" in self.learners else {},
            "explain_test": self.explain_test,
            "train_view": self.train_view,
            "class_weight": self.class_weight,
        }


def _plain_params(params: dict) -> dict:
    """A learner's parameters as given, in values JSON holds (``np.int64(3)`` as ``3``)."""
    return {str(k): plain_value(v) for k, v in params.items()}


@dataclass
class PipelineResult:
    """What a run produced: the report and the fitted objects behind it.

    ``views[learner][part]`` holds each learner's view of the rows: ``train`` (what it
    learned from, see ``RunConfig.train_view``), ``train_raw`` and ``test`` (full rows),
    ``train_lime`` and ``test_lime`` (LIME-filtered rows, ``None`` without LIME).
    ``labels`` holds the black box's and the ground truth's labels of the train and test
    rows; ``predictions[learner][part]`` each learner's 0/1 labels of ``train_raw``,
    ``test``, and with LIME ``train_lime`` and ``test_lime`` (:func:`view_predictions`).

    Parameters
    ----------
    report : dict
        The report (report.json's content).
    black_box : BlackBox
        The model explained.
    learners : dict of str to FittedLearner
        The fitted surrogates, by name.
    explanations_train, explanations_test : Explanations or None
        LIME's explanations of the training and test rows (``None`` when not explained).
    views : dict
        Each learner's views of the rows, as above.
    labels : dict
        The black box's and the ground truth's labels, as above.
    columns : list of BinaryColumn
        IMLI's binary view's columns.
    predictions : dict, default={}
        Each learner's labels of each view, as above.
    """

    report: dict
    black_box: BlackBox
    learners: dict[str, FittedLearner]
    explanations_train: Explanations | None
    explanations_test: Explanations | None
    views: dict
    labels: dict
    columns: list
    predictions: dict = field(default_factory=dict)


#: A multi-class target's default positive class needs at least this many rows and this
#: share of all rows: a class of a handful of rows cannot be learned, split and measured.
MIN_POSITIVE_ROWS, MIN_POSITIVE_SHARE = 10, 0.05


def binarize_target(dataset: Dataset) -> Dataset:
    """Turn a multi-class dataset into positive-vs-rest.

    The positive class is the minority among the classes with at least
    ``MIN_POSITIVE_ROWS`` rows and ``MIN_POSITIVE_SHARE`` of all rows (the largest class if
    none has). Binary datasets come back unchanged.

    Parameters
    ----------
    dataset : Dataset
        The dataset.

    Returns
    -------
    Dataset
        With labels 1 for the positive class and 0 for the rest (named by
        :func:`adapters.rest_name`); the choice is stated in its notes, and
        ``source_labels`` follow it.
    """
    classes, counts = np.unique(dataset.y, return_counts=True)
    if len(classes) <= 2:
        return dataset
    floor = max(MIN_POSITIVE_ROWS, int(np.ceil(MIN_POSITIVE_SHARE * counts.sum())))
    eligible = counts >= floor
    if eligible.any():
        pick = np.flatnonzero(eligible)[np.argmin(counts[eligible])]  # ties: the first
        why = "the minority" if eligible.all() else f"the smallest class with {floor}+ rows"
        tied = (counts[eligible] == counts[pick]).sum()
    else:
        pick, why = int(np.argmax(counts)), "the largest class"
        tied = (counts == counts[pick]).sum()
    if tied > 1:
        why += f", first of the classes tied at {counts[pick]} rows"
    positive = int(classes[pick])
    name = dataset.class_names[positive]
    y = (dataset.y == positive).astype(np.int64)
    rest = rest_name(name, dataset.class_names)
    note = (
        f"{len(classes)} classes: explaining '{name}' ({why}) against the rest; "
        f"choose another with --positive"
    )
    source = tuple((label, int(code == positive)) for label, code in dataset.source_labels)
    return replace(dataset, y=y, class_names=(rest, name), notes=dataset.notes + (note,),
                   source_labels=source)


#: Share of held-out rows from which a run says that they are copies of training rows, or
#: that they hold categories no training row has.
HELD_OUT_NOTE_SHARE = 0.05
#: Share of training rows from which the class a black box never predicts is not rare:
#: more rows of it are then no likely cure.
RARE_CLASS_SHARE = 0.2


def _merged_in_float32(X: pd.DataFrame, numeric) -> list[str]:
    """The numeric columns whose distinct values are at most half as many in 32-bit
    floats (which XGBoost reads): a black box may see them as constant."""
    merged = []
    for name in numeric:
        values = X[name].to_numpy(dtype=float)
        values = values[~np.isnan(values)]
        if 2 * len(np.unique(values.astype(np.float32))) <= len(np.unique(values)):
            merged.append(name)
    return merged


def _class_weights(black_box, dataset: Dataset) -> dict | None:
    """Each class's weight in training the black box, by class name; None unweighted."""
    weights = black_box.info.get("class_weights")
    return None if weights is None else dict(zip(dataset.class_names, weights))


def _copies_note(X_train: pd.DataFrame, X_test: pd.DataFrame) -> list[str]:
    """A note when at least :data:`HELD_OUT_NOTE_SHARE` of the held-out rows have exactly the
    feature values of a training row (duplicated rows in the table): on those rows the test
    figures measure rows the black box and the surrogates were fitted on."""
    if not len(X_test):
        return []
    seen = set(pd.util.hash_pandas_object(X_train, index=False))
    copies = int(pd.util.hash_pandas_object(X_test, index=False).isin(seen).sum())
    if copies < HELD_OUT_NOTE_SHARE * len(X_test):
        return []
    return [f"{copies} of the {len(X_test)} held-out rows ({copies / len(X_test):.0%}) have "
            f"the feature values of a training row (the table repeats rows), so the test "
            f"figures partly measure rows the models were fitted on; remove repeated rows "
            f"to measure them on unseen ones"]


def _unseen_categories_note(X_train: pd.DataFrame, X_test: pd.DataFrame,
                            categorical) -> list[str]:
    """A note when at least :data:`HELD_OUT_NOTE_SHARE` of the held-out rows hold a
    category that no training row has (a rare category that the split put in the test rows
    only): what the black box and the rules answer there was learned from no such row."""
    columns, rows = [], np.zeros(len(X_test), dtype=bool)
    for name in categorical:
        train, test = X_train[name], X_test[name]
        new = test.notna() & ~test.isin(train.dropna().unique())
        if new.any():
            rows |= new.to_numpy()
            columns.append(f"{quoted(name)} ({listing(pd.unique(test[new]), 3)})")
    if not len(X_test) or rows.sum() < HELD_OUT_NOTE_SHARE * len(X_test):
        return []
    return [f"{int(rows.sum())} of the {len(X_test)} held-out rows ({rows.mean():.0%}) hold "
            f"categories that no training row has, in column{'s' * (len(columns) > 1)} "
            f"{', '.join(columns)}: the black box and the rules learned nothing of them, "
            f"so the test figures there measure their default answers"]


def _rows_needed(test_size: float, n_classes: int) -> int:
    """The fewest rows that ``test_size`` splits into 10 training rows and a test row of
    each class (scikit-learn holds out ``ceil(test_size * n)``)."""
    # both counts grow with n: start near the answer, then step over float rounding
    n = max(10 + n_classes, math.floor((n_classes - 1) / test_size),
            math.floor(10 / (1 - test_size)) - 1)
    while n - math.ceil(test_size * n) < 10 or math.ceil(test_size * n) < n_classes:
        n += 1
    return n


def _split(dataset: Dataset, test_size: float, random_state: int):
    n = len(dataset.y)
    labels, counts = np.unique(dataset.y, return_counts=True)
    least = 10 + len(labels)  # 10 to learn from, and one of each class to test on
    if n < least or counts.min() < 3:
        smallest = int(np.argmin(counts))
        raise InputError(
            f"too few rows to hold out a test set ({n} rows, smallest class "
            f"{dataset.class_names[labels[smallest]]!r} with {counts[smallest]}): need at "
            f"least {least} rows (10 to learn from, 1 of each class to test on; "
            f"{_rows_needed(test_size, len(labels))} at test_size {test_size:.10g}) and 3 "
            f"of each class (2 to learn from, 1 to test on)"
        )
    idx = np.arange(n)
    fix = "need at least 10 training rows and 2 of each class: lower test_size (--test-size)"
    try:
        train, test = train_test_split(
            idx, test_size=test_size, stratify=dataset.y, random_state=random_state
        )
    except ValueError as err:
        raise InputError(f"test_size {test_size:.10g} cannot split {n} rows "
                         f"({' '.join(str(err).split())}); the test rows need one of each "
                         f"class and the training rows 10, with 2 of each class: choose "
                         f"another test_size (--test-size)") from None
    smallest = np.bincount(dataset.y[train], minlength=dataset.n_classes).min()
    if len(train) < 10 or smallest < 2:
        raise InputError(f"test_size {test_size:.10g} leaves {len(train)} training rows "
                         f"(smallest class {smallest}); {fix}")
    return _hold_out_both_classes(dataset.y, train, test)


def _hold_out_both_classes(y: np.ndarray, train: np.ndarray, test: np.ndarray):
    """Stratifying rounds a class of a few rows down to no test row (3 of 12 rows with 2
    held out: half a row each way, and the tie fell to the other class); swap one of its
    training rows for a test row of the other class, so that the test figures measure both
    classes and the sizes stay those asked for.

    ``y`` has two classes; the caller has checked that each has 2 training rows, so the
    absent class (every row of it in training, at least 3) keeps 2, and the test rows (at
    least 2, one per class, for ``train_test_split`` to stratify) keep one of the other.
    """
    held = np.bincount(y[test], minlength=2)
    if held.min():
        return train, test
    absent = int(np.argmin(held))
    train, test = train.copy(), test.copy()
    i, j = np.flatnonzero(y[train] == absent)[0], np.flatnonzero(y[test] != absent)[0]
    train[i], test[j] = test[j], train[i]
    return train, test


def _selections(explanations, n_features, encoder):
    """The features each row keeps (mask) and, with LIME's one-hot view of categories, the
    categories each row's explanation negates (None without any)."""
    if explanations is None:
        return None, None
    mask = selection_mask(explanations.features, n_features)
    negations = explanations.negations
    if not len(negations):
        return mask, None
    names = encoder.feature_names_
    features, values = [], []
    for column, code in negations:
        categories = encoder.categories_[names[column]]
        features.append(names[column])
        # the code of LIME's "(missing)" category is past the categories: never negated
        values.append(categories[code] if code < len(categories) else None)
    selected = negation_mask(explanations.features, n_features, len(negations))
    selected[:, [v is None for v in values]] = False
    return mask, Negations(tuple(features), tuple(values), selected)


def _explain(lime_input: LimeInput, X: pd.DataFrame, row_ids, config, cache_dir, progress):
    return explain_rows(
        lime_input.training_data,
        lime_input.rows(X),
        lime_input.predict_fn,
        config.lime,
        categorical_features=lime_input.categorical_indices,
        categorical_names=lime_input.categorical_names,
        feature_names=lime_input.feature_names,
        training_labels=lime_input.training_labels,
        cache_dir=cache_dir,
        row_ids=row_ids,
        model_fingerprint=lime_input.fingerprint,
        progress=progress,
        explainer=lime_input.explainer(config.lime),
    )


def run_pipeline(
    dataset: Dataset,
    config: RunConfig | None = None,
    black_box: BlackBox | None = None,
    split: tuple[np.ndarray, np.ndarray] | None = None,
    cache_dir=None,
    progress: Callable[[str, int, int], None] | None = None,
) -> PipelineResult:
    """Run the whole pipeline on one dataset.

    Parameters
    ----------
    dataset : Dataset
        From :mod:`adapters`; a multi-class target is explained one class vs the rest.
    config : RunConfig, optional
        Defaults to ``RunConfig()``.
    black_box : BlackBox, optional
        A user's model (from :func:`adapters.load_xgboost`, :func:`adapters.wrap_sklearn`,
        :func:`adapters.wrap_callable`); by default an XGBoost model is trained on the
        training rows. Its classes are the labels of ``dataset.y``; when a multi-class
        target is explained positive-vs-rest, its other classes' probabilities add up.
    split : (train_indices, test_indices), optional
        Row positions of a given split (the benchmarks' folds); by default a stratified,
        seeded split of ``config.test_size``.
    cache_dir : path, optional
        Where LIME explanations are cached and checkpointed; ``None`` disables the cache.
        One that is a file, or cannot be created, is refused before the run; one that
        refuses new files (read-only, a full disk) gives a warning, and the run goes on
        without writing there.
    progress : callable, optional
        ``progress(stage, done, total)`` for long stages: LIME's rows, and the black
        box's training and each learner's fit as one step each (0 of 1 when it begins).

    Returns
    -------
    PipelineResult
        The report, and the black box, explanations, views and learners behind it.

    Raises
    ------
    adapters.InputError
        If the data, the model, the split or the settings cannot be used (said in one
        line).
    """
    if not isinstance(dataset, Dataset):
        if isinstance(dataset, pd.DataFrame):
            got, fix = "a DataFrame", ": read it with adapters.from_frame(df, target)"
        else:
            got = "None" if dataset is None else f"a {type(dataset).__name__}"
            fix = ": load one with adapters.load_dataset or adapters.from_frame"
        raise InputError(f"dataset must be an adapters.Dataset, got {got}{fix}")
    config = config or RunConfig()
    if not isinstance(config, RunConfig):
        raise InputError(f"config must be a RunConfig, got {type(config).__name__}")
    if black_box is not None and not isinstance(black_box, BlackBox):
        raise InputError(f"black_box must be an adapters.BlackBox, not a "
                         f"{type(black_box).__name__}: wrap a fitted scikit-learn model with "
                         f"adapters.wrap_sklearn(model, encoder), a function with "
                         f"adapters.wrap_callable(fn, encoder)")
    unknown = set(config.learners) - set(LEARNERS)
    if unknown or not config.learners:
        what = f"unknown learner(s) {sorted(unknown)}" if unknown else "no learner chosen"
        raise InputError(f"{what}; choose from {list(LEARNERS)}")
    for name in config.learners:
        check_params(name, config.imli_params if name == "imli" else config.fold_params)
    if config.uses_lime and config.lime.label not in (None, 0, 1):
        # the black box a run explains tells the positive class (1) from the rest (0)
        raise InputError(f"LimeConfig.label {config.lime.label} is not a class of the run's "
                         f"black box, which has two: 0 and 1 (the positive class); leave "
                         f"it None to explain class 1")
    if cache_dir is not None and config.uses_lime:
        check_cache_dir(cache_dir)  # before the slow stages
    if black_box is not None and config.class_weight is not None:
        raise InputError(f"class_weight={config.class_weight!r} weighs the classes of the "
                         f"black box trained here; a given model is explained as it is: "
                         f"leave class_weight None")
    binary = binarize_target(dataset)
    if black_box is not None:
        black_box = _read_by_name(black_box, dataset)
        # A given black box gives the classes of ``dataset.y``: merge them as the labels were.
        codes = list(range(dataset.n_classes))
        if binary is not dataset:
            positive = dataset.class_names.index(binary.class_names[1])
            codes = [int(c == positive) for c in codes]
        if len(black_box.classes_) == len(dataset.source_labels) > len(codes):
            raise InputError(
                f"the {black_box.kind} model gives {len(black_box.classes_)} classes, as "
                f"many as the table's labels, which dataset {dataset.name!r} merges into "
                f"{len(codes)}: read its classes as the dataset's with relabel_classes(box, "
                f"[code for _, code in Dataset.source_labels]) (a scikit-learn model: "
                f"wrap_sklearn(..., source_labels=Dataset.source_labels))")
        black_box = relabel_classes(black_box, codes, f"dataset {dataset.name!r}")
    dataset = binary
    train_idx, test_idx = (_checked_split(split, len(dataset.y)) if split is not None
                           else _split(dataset, config.test_size, config.random_state))
    X_train, X_test = dataset.X.iloc[train_idx], dataset.X.iloc[test_idx]
    y_train, y_test = dataset.y[train_idx], dataset.y[test_idx]

    # Categories come from the whole table (no labels involved), so a user's model and the
    # pipeline encode categories identically.
    encoder = TableEncoder().fit(dataset.X, dataset.categorical)
    started = time.perf_counter()
    user_box = black_box is not None
    if user_box:
        check_encoded_reading(black_box, encoder, dataset.X)
    if black_box is None:
        _step(progress, "training the black box", 0)
        black_box = train_xgboost(
            X_train, y_train, encoder, dataset.categorical, random_state=config.random_state,
            class_names=dataset.class_names, class_weight=config.class_weight,
        )
        _step(progress, "training the black box", 1)
    bb_seconds = time.perf_counter() - started
    notes = []
    if not user_box and black_box.info.get("note"):  # e.g. trained without early stopping
        notes.append(black_box.info["note"])
    if user_box:  # how a model file's columns and categories were read
        notes += (getattr(unwrapped(black_box), "info", None) or {}).get("notes", [])
    if len(test_idx) < 30:
        notes.append(f"only {len(test_idx)} held-out rows: each is "
                     f"{1 / len(test_idx):.0%} of the test fidelity, so read it as rough")
    notes += _copies_note(X_train, X_test)
    notes += _unseen_categories_note(X_train, X_test, dataset.categorical)
    if notes:
        dataset = replace(dataset, notes=dataset.notes + tuple(notes))
    bb_train = black_box.predict(X_train)
    bb_test = black_box.predict(X_test)
    if len(np.unique(bb_train)) < 2:
        only = int(bb_train[0])
        other = dataset.class_names[1 - only]
        n_other = int((y_train != only).sum())
        if n_other >= RARE_CLASS_SHARE * len(y_train):
            fix = ("the features may not predict the target: check the target column"
                   + (" and the model" if user_box else ", or give a model with --model"))
        else:
            ways = ["more rows of it"]
            if len(dataset.source_labels) > 2:  # another class against the rest may be learned
                ways.insert(0, "a larger class with --positive")
            if config.class_weight is None and not user_box:
                ways.insert(0, "weighing the classes (--class-weight balanced)")
            fix = ", or ".join([", ".join(ways[:-1]), ways[-1]] if len(ways) > 1 else ways)
            fix += " may give one"
        if merged := _merged_in_float32(X_train, dataset.numeric):
            fix = (f"the black box reads column{'s' * (len(merged) > 1)} "
                   f"{listing(merged, 3)} in 32-bit floats, where "
                   f"{'its' if len(merged) == 1 else 'their'} values merge: rescale or "
                   f"shift {'it' if len(merged) == 1 else 'them'}")
        raise InputError(
            f"the black box predicts class {dataset.class_names[only]!r} for every training "
            f"row: there is no decision to explain ({other!r} has "
            f"{n_other} of {len(y_train)} training rows; {fix})"
        )

    if user_box and np.mean(bb_train == y_train) < 0.5:
        # A model fitted on the raw 0/1 target while the dataset chose "0" as its positive
        # class looks like this: its classes are read the other way round.
        note = (f"the black box agrees with the target on {np.mean(bb_train == y_train):.0%} "
                f"of the training rows, less than swapping its two classes would: its "
                f"classes are likely read the wrong way round. A model fitted on Dataset.y "
                f"needs neither class_names nor source_labels; one fitted on the original "
                f"labels, class_names=Dataset.class_names (a scikit-learn model) or, if on "
                f"their codes 0 .. k-1 in sorted order (LabelEncoder, an XGBoost model), "
                f"relabel_classes(box, [code for _, code in Dataset.source_labels]); on "
                f"the command line, give the model's classes in order with --model-class")
        warnings.warn(note, UserWarning, stacklevel=2)
        dataset = replace(dataset, notes=dataset.notes + (note,))

    weighted = config.class_weight is not None  # (a given model is refused with it above)
    if (note := _weak_box_note(dataset, bb_test, y_train, y_test, weighted)) is not None:
        dataset = replace(dataset, notes=dataset.notes + (note,))

    lime_input = LimeInput(encoder, black_box, X_train, bb_train)
    n_features = dataset.X.shape[1]
    lime_width = weighed_features(lime_input.training_data, lime_input.categorical_indices,
                                  config.lime.categories)
    if config.uses_lime and config.lime.categories == "one-hot" and lime_width == n_features:
        # dropped as the command line drops an option the run does not use: the report and
        # the cache key record what applied
        warnings.warn("LimeConfig.categories='one-hot' (--lime-categories one-hot) negates "
                      "the categories of a categorical column of more than two, and the "
                      "training rows have none: ignored", UserWarning, stacklevel=2)
        config = replace(config, lime=replace(config.lime, categories="value"))
    if config.uses_lime and config.lime.top_k > lime_width:
        dataset = replace(dataset, notes=dataset.notes + (
            _top_k_note(config.lime.top_k, n_features, lime_width),))
    categories = {c: list(encoder.categories_[c]) for c in dataset.categorical}

    def columns_of(negated):  # the binary view's columns, with these negated categories
        return binary_columns(list(dataset.X.columns), categories,
                              lime_input.bin_edges(config.lime),
                              {c: X_train[c].to_numpy(dtype=np.float64) for c in dataset.numeric},
                              negated)

    if "imli" in config.learners:  # before LIME: IMLI's fit would refuse a name only after it
        one_hot = config.uses_lime and config.lime.categories == "one-hot"
        check_feature_names(config.imli_params, columns_of(categories if one_hot else None))
    if config.uses_lime:
        def lime_progress(part):
            if progress is None:
                return None
            return lambda done, total: progress(f"LIME, {part} rows", done, total)

        exp_train = _explain(lime_input, X_train, train_idx, config, cache_dir,
                             lime_progress("training"))
        exp_test = None
        if config.explain_test:
            with warnings.catch_warnings():
                # a warning about the LIME settings was given for the training rows
                warnings.filterwarnings("ignore", message="LIME draws .* samples per row")
                exp_test = _explain(lime_input, X_test, test_idx, config, cache_dir,
                                    lime_progress("test"))
    else:
        exp_train = exp_test = None
    mask_train, negated_train = _selections(exp_train, n_features, encoder)
    mask_test, negated_test = _selections(exp_test, n_features, encoder)

    columns = columns_of(negated_train.by_feature() if negated_train is not None else None)
    make = {
        "imli": lambda X, mask, negated: binary_view(X, columns, mask, negated),
        "fold": lambda X, mask, negated: X if mask is None else table_view(X, mask, negated),
    }
    views = {}
    for name, view in make.items():
        views[name] = {
            "train_lime": view(X_train, mask_train, negated_train) if exp_train else None,
            "train_raw": view(X_train, None, None),
            "test": view(X_test, None, None),
            "test_lime": view(X_test, mask_test, negated_test) if exp_test else None,
        }
    learn_labels = training_labels(bb_train, config.train_view)

    fitted: dict[str, FittedLearner] = {}
    learner_reports, predictions = {}, {}
    for name in config.learners:
        params = config.imli_params if name == "imli" else config.fold_params
        views[name]["train"] = training_view(views[name], config.train_view)
        _step(progress, f"fitting {name.upper()}", 0)
        learner = fit_learner(
            name, views[name]["train"], learn_labels, params, config.random_state, columns,
            dataset.class_names, distinct_rows=len(bb_train),
        )
        _step(progress, f"fitting {name.upper()}", 1)
        fitted[name] = learner
        predictions[name] = view_predictions(learner, views[name])
        learner_reports[name] = learner_report(learner, predictions[name], bb_train, bb_test,
                                               y_test)

    majority = int(np.mean(bb_train == 1) > 0.5)
    report = {
        "dataset": {
            "name": dataset.name,
            "rows": int(len(dataset.y)),
            "features": int(n_features),
            "numeric": list(dataset.numeric),
            "categorical": list(dataset.categorical),
            "target": dataset.target,
            "class_names": list(dataset.class_names),
            "positive_class": dataset.class_names[1],
            "positive_rate": float(np.mean(dataset.y == 1)),
            "notes": list(dataset.notes),
        },
        "split": {
            "train_rows": int(len(train_idx)),
            "test_rows": int(len(test_idx)),
            # the share held out: a given split's own, not the configured one it replaced
            "test_size": (config.test_size if split is None
                          else len(test_idx) / (len(train_idx) + len(test_idx))),
            "random_state": config.random_state,
            "given": split is not None,
        },
        "black_box": {
            "kind": black_box.kind,
            "accuracy_test": float(np.mean(bb_test == y_test)),
            "accuracy_train": float(np.mean(bb_train == y_train)),
            "positive_rate_test": float(np.mean(bb_test == 1)),
            # what a surrogate answering the black box's most frequent training label gets
            "majority_label": dataset.class_names[majority],
            "majority_fidelity_test": float(np.mean(bb_test == majority)),
            "fit_seconds": bb_seconds,
            "class_weight": config.class_weight,
            # each class's weight in training (None: unweighted, or a given model)
            "class_weights": (None if user_box else _class_weights(black_box, dataset)),
        },
        "lime": {
            "train_view": config.train_view,
            "rows_explained": sum(len(e.features) for e in (exp_train, exp_test) if e),
            "seconds": float(sum(e.seconds for e in (exp_train, exp_test) if e)),
            "rows_from_cache": sum(e.rows_from_cache for e in (exp_train, exp_test) if e),
            **_lime_settings(config, lime_width),
            "binary_columns": len(columns),
        },
        "learners": learner_reports,
        "parameters": config.to_dict(),
        "environment": {**environment(), "lime_execution": config.execution()},
    }
    if {"imli", "fold"} <= set(fitted):
        report["agreement"] = _surrogate_agreement(predictions, bb_test)
    labels = {"bb_train": bb_train, "bb_test": bb_test, "y_train": y_train, "y_test": y_test}
    return PipelineResult(report, black_box, fitted, exp_train, exp_test, views, labels, columns,
                          predictions)


def _read_by_name(black_box, dataset: Dataset):
    """``black_box`` with its classes read as ``dataset``'s labels by the names its file
    gives them (a model a run trained and saved), when it names them."""
    names = labels_as_written(getattr(black_box, "class_names", None), dataset.source_labels)
    if names is None:
        return black_box
    if sorted(names) != sorted(dataset.class_names):
        rest = len(names) == 2 and names[0].startswith(f"not {names[1]}")
        hint = (f"; read the table with positive={names[1]!r}"
                if rest and names[1] in dict(dataset.source_labels) else "")
        raise InputError(f"the {black_box.kind} model's classes {listing(names)} are not "
                         f"those of dataset {dataset.name!r}, "
                         f"{listing(dataset.class_names)}{hint}")
    return relabel_classes(black_box, [dataset.class_names.index(n) for n in names],
                           f"dataset {dataset.name!r}")


def _step(progress, stage: str, done: int) -> None:
    """Report a one-step stage (the black box's training, a learner's fit) begun (0) or
    done (1), so a long one is not silent."""
    if progress is not None:
        progress(stage, done, 1)


def _weak_box_note(dataset: Dataset, bb_test, y_train, y_test,
                   weighted: bool = False) -> str | None:
    """A note when the black box's test accuracy is no better than answering the most
    frequent class of the training rows: faithful rules then explain a model that learned
    little of the target. A black box trained with its classes ``weighted`` trades accuracy
    for the rare class's recall: its balanced accuracy (the mean of each class's recall) is
    measured against a constant answer's, 0.5 (1 when the test rows hold one class, as a
    given split's may: answering that class gets each of them right)."""
    if weighted:
        present = [k for k in (0, 1) if np.any(y_test == k)]
        balanced = np.mean([np.mean(bb_test[y_test == k] == k) for k in present])
        constant = 1 / len(present)
        if balanced > constant:
            return None
        one = "; the test rows hold one class" if len(present) == 1 else ""
        return (f"the black box's balanced accuracy on the test rows (the mean of each "
                f"class's recall, {decimals(balanced, 3)}) is no better than answering one "
                f"class for every row ({constant:g}{one}): its rules, however faithful, "
                f"explain a model that has learned little of the target")
    common = int(np.mean(y_train == 1) > 0.5)
    accuracy, constant = np.mean(bb_test == y_test), np.mean(y_test == common)
    if accuracy > constant:
        return None
    return (f"the black box's test accuracy ({decimals(accuracy, 3)}) is no better than "
            f"answering {dataset.class_names[common]!r}, the most frequent class of the "
            f"training rows, for every row ({decimals(constant, 3)}): its rules, however "
            f"faithful, explain a model that has learned little of the target")


def _top_k_note(top_k: int, n_features: int, width: int) -> str:
    """Why LIME keeps every feature of every row: ``top_k`` is above the ``width`` features
    it weighs (the table's ``n_features``, and with one-hot categories their negations)."""
    kept = "the only one" if width == 1 else f"all {width}"
    weighed = (f"the table's {counted(width, 'feature')}" if width == n_features else
               f"the {width} features LIME weighs (the table's {n_features} and "
               f"{width - n_features} negated categories, --lime-categories one-hot)")
    return f"LIME's top_k {top_k} is more than {weighed}: LIME keeps {kept} of every row"


def _lime_settings(config: RunConfig, width: int) -> dict:
    """The LIME settings that applied, for the report (``None`` where none did); LIME
    keeps at most the ``width`` features it weighs."""
    lime = config.lime
    if not config.uses_lime:  # no row explained; the discretizer still gives IMLI its bins
        return {"top_k": None, "num_samples": None, "discretizer": lime.discretizer,
                "engine": None, "mode": None, "categories": None}
    # only the batched engine has modes
    return {"top_k": min(lime.top_k, width), "num_samples": lime.num_samples,
            "discretizer": lime.discretizer, "engine": lime.engine,
            "mode": lime.mode if lime.engine == "batched" else None,
            "categories": lime.categories}


def _checked_split(split, n_rows: int) -> tuple[np.ndarray, np.ndarray]:
    """A given ``(train_indices, test_indices)`` as int arrays, or an :class:`InputError`
    saying what is wrong with it."""
    try:
        train, test = (np.asarray(part) for part in split)
    except (TypeError, ValueError):
        raise InputError("split must be a pair (train_indices, test_indices)") from None
    for name, part in (("train", train), ("test", test)):
        if part.ndim != 1 or not len(part) or not np.issubdtype(part.dtype, np.integer):
            raise InputError(f"split's {name} indices must be a non-empty 1-D array of "
                             f"integer row positions (not a boolean mask)")
        if part.min() < 0 or part.max() >= n_rows:
            raise InputError(f"split's {name} indices must be row positions 0 .. "
                             f"{n_rows - 1}; they run from {part.min()} to {part.max()}")
        if len(np.unique(part)) != len(part):
            raise InputError(f"split's {name} indices name a row more than once")
    shared = np.intersect1d(train, test)
    if len(shared):
        raise InputError(f"split's train and test indices share {len(shared)} row(s) (e.g. "
                         f"{shared[0]}): fidelity is measured on rows the learners did not see")
    return train, test


def training_view(views: dict, train_view: str) -> pd.DataFrame:
    """What a learner learns from: filtered rows, full rows, or both stacked.

    Parameters
    ----------
    views : dict
        A learner's views (``PipelineResult.views[name]``).
    train_view : {"lime+raw", "lime", "raw"}
        :attr:`RunConfig.train_view`.

    Returns
    -------
    DataFrame
        ``train_raw``, ``train_lime``, or ``train_lime`` then ``train_raw`` with a new index.
    """
    if train_view == "raw":
        return views["train_raw"]
    if train_view == "lime":
        return views["train_lime"]
    return pd.concat([views["train_lime"], views["train_raw"]], ignore_index=True)


def training_labels(labels: np.ndarray, train_view: str) -> np.ndarray:
    """The labels of :func:`training_view`'s rows (stacked views repeat them).

    Parameters
    ----------
    labels : ndarray
        The labels of the training rows.
    train_view : {"lime+raw", "lime", "raw"}
        :attr:`RunConfig.train_view`.

    Returns
    -------
    ndarray
        ``labels``, twice over for ``"lime+raw"``.
    """
    return np.concatenate([labels, labels]) if train_view == "lime+raw" else labels


@contextmanager
def one_table():
    """Mute FOLD's warning on categories unseen in fit, which asks whether a column
    changed type: a run's views all come from one table (a LIME view may keep few of a
    column's categories), and the report notes held-out rows of unseen categories."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"column .*values were never seen in fit")
        yield


def view_predictions(learner: FittedLearner, views: dict) -> dict[str, np.ndarray]:
    """The learner's 0/1 labels of each view of the rows that a run has.

    Parameters
    ----------
    learner : FittedLearner
        A fitted surrogate.
    views : dict
        Its views (``PipelineResult.views[learner.name]``).

    Returns
    -------
    dict of str to ndarray
        ``train_raw`` and ``test`` (full rows), and ``train_lime`` and ``test_lime`` when
        LIME ran.
    """
    with one_table():
        return {part: learner.predict(views[part])
                for part in ("train_raw", "test", "train_lime", "test_lime")
                if views.get(part) is not None}


def learner_report(learner: FittedLearner, predicted: dict, bb_train, bb_test,
                   y_test) -> dict[str, Any]:
    """A fitted learner measured from its :func:`view_predictions`.

    Parameters
    ----------
    learner : FittedLearner
        A fitted surrogate.
    predicted : dict
        Its :func:`view_predictions`.
    bb_train, bb_test : ndarray
        The black box's labels of the training and test rows.
    y_test : ndarray
        The true labels of the test rows.

    Returns
    -------
    dict
        :func:`prediction_scores`, with ``rule_size``, ``n_rules``, ``fit_seconds``,
        ``rules`` and the learner's own extras.
    """
    entry = prediction_scores(predicted, bb_train, bb_test, y_test)
    entry.update({"rule_size": learner.rule_size, "n_rules": learner.n_rules,
                  "fit_seconds": learner.fit_seconds, "rules": learner.rules_text})
    entry.update(learner.extra)
    return entry


def prediction_scores(predicted: dict, bb_train, bb_test, y_test) -> dict[str, Any]:
    """The scores of a surrogate's labels.

    Parameters
    ----------
    predicted : dict
        Its labels of ``test``, ``train_raw`` and, when there, ``test_lime`` and
        ``train_lime``.
    bb_train, bb_test : ndarray
        The black box's labels of the training and test rows.
    y_test : ndarray
        The true labels of the test rows.

    Returns
    -------
    dict
        Fidelity to the black box (with its 95% interval on the test rows), accuracy, and
        precision, recall and F1 vs the black box on the test rows.
    """
    vs_bb = agreement_scores(predicted["test"], bb_test)
    entry = {
        "fidelity_test": vs_bb["agreement"],
        "fidelity_test_ci": _interval(predicted["test"], bb_test),
        "fidelity_train": agreement_scores(predicted["train_raw"], bb_train)["agreement"],
        "accuracy_test": agreement_scores(predicted["test"], y_test)["agreement"],
        "precision_test": vs_bb["precision"],
        "recall_test": vs_bb["recall"],
        "f1_test": vs_bb["f1"],
    }
    for part, labels in (("test_lime", bb_test), ("train_lime", bb_train)):
        if part in predicted:
            entry[f"fidelity_{part}"] = agreement_scores(predicted[part], labels)["agreement"]
    if "test_lime" in predicted:
        entry["fidelity_test_lime_ci"] = _interval(predicted["test_lime"], bb_test)
    return entry


def _interval(predicted: np.ndarray, reference: np.ndarray) -> list | None:
    """The Wilson interval of ``predicted``'s agreement with ``reference``."""
    return agreement_interval(int(np.sum(predicted == reference)), len(reference))


def _surrogate_agreement(predictions, bb_test) -> dict:
    imli_pred, fold_pred = predictions["imli"]["test"], predictions["fold"]["test"]
    same = imli_pred == fold_pred
    paired = paired_comparison(imli_pred, fold_pred, bb_test)
    return {
        "imli_vs_fold_test": float(np.mean(same)),
        "both_faithful_test": float(np.mean(same & (imli_pred == bb_test))),
        "disagreements_test": int(np.sum(~same)),
        # where they disagree, exactly one of them is faithful: the exact McNemar test
        "only_imli_faithful_test": paired["a_only"],
        "only_fold_faithful_test": paired["b_only"],
        "fidelity_difference_p": paired["p_value"],
    }
