"""The LIME stage: explain many rows of a table with lime, reproducibly and fast.

>>> from explain.lime_runner import LimeConfig, explain_rows
>>> exp = explain_rows(X_train, X_rows, model.predict_proba, LimeConfig(top_k=5))  # doctest: +SKIP
>>> exp.features[0], exp.weights[0]  # doctest: +SKIP

Row *i* is explained with the seed ``seed_for(config.random_state, pool_id)`` of its pool,
``pool_id = row_ids[i] // config.pool_rows``, so its explanation does not depend on which
other rows are explained, on their order, on batching or on parallelism. Lime draws a
neighbourhood independently of the row it explains (only the row itself, sample 0, and the
0/1 view depend on it), so the rows of a pool share one neighbourhood: each row's
explanation is still exactly lime's for that seed, but the black box predicts the pool's
samples once instead of once per row. ``pool_rows=1`` gives every row its own
neighbourhood. Two engines (``LimeConfig.engine``):

``batched`` (default)
    :class:`explain.lime_batch.BatchedLime`: lime's algorithm on lime's own fitted
    ``LimeTabularExplainer``, vectorized over a batch of rows with one black-box call per
    batch. ``mode="exact"`` reproduces ``explain_instance`` (same features, order, weights
    to ~1e-15) when rows have more samples than features and ``fix_zero_width_bins`` is
    False (the default, True, samples a single-value bin at its value); with as few samples as
    features or fewer (which the run warns of), lime's local fits are ill-conditioned
    and features whose weights tie to rounding may come in another order, or another
    feature be chosen. ``mode="fast"`` samples the same distribution with faster
    generators.
``reference``
    Stock ``LimeTabularExplainer.explain_instance`` row by row.

Numeric features are discretized by ``LimeConfig.discretizer``. The default, ``entropy``, is
supervised: a depth-3 entropy tree per feature on the black box's labels of the training
rows (up to 7 cut points where the model's decision changes; lime's tree, fitted on the ranks
of the values so that no scale or offset hides a cut), in the spirit of the MDL
discretization of the LIME-FOLD paper; a feature whose first cut fails that MDL test gets
quartiles. ``quartile`` (lime's own default) and ``decile`` cut at quantiles, blind to the
model. The bins are also IMLI's threshold columns (BENCHMARKS.md compares the three).

Which class is explained: ``LimeConfig.label`` if set; else class 1 of a binary black box
(weights toward class 1); else (multi-class) each row's predicted class. ``explain_rows``'s
``labels`` argument overrides both, per row.
"""

from __future__ import annotations

import math
import warnings
import time
from dataclasses import asdict, dataclass, field, replace
from typing import Callable

import numpy as np
from lime.lime_tabular import LimeTabularExplainer
from sklearn.utils import check_random_state

from adapters.errors import InputError
from explain.lime_batch import BatchedLime, ReferenceLime, check_probabilities
from explain.lime_bins import RankEntropyDiscretizer
from explain.lime_cache import BatchStore, cache_key, check_cache_dir
from explain.lime_fit import LocalFits, resolved_selection
from explain.lime_parallel import dask_client, n_workers, run_batches
from explain.lime_sampling import one_hot_negations

__all__ = ["CATEGORY_VIEWS", "LimeConfig", "Explanations", "seed_for", "seed_value",
           "make_explainer", "weighed_features", "discretizer_edges",
           "explain_rows", "batch_size_for", "rows_in_budget", "pool_batches", "probe_rows",
           "DISCRETIZERS"]

#: LIME's discretizers; each gives the bins LIME explains with and IMLI's threshold columns.
DISCRETIZERS = ("entropy", "quartile", "decile")
#: How LIME sees a categorical column (:attr:`LimeConfig.categories`).
CATEGORY_VIEWS = ("value", "one-hot")
#: Most samples per row: a row's neighbourhood is drawn, predicted and fitted at once.
MAX_SAMPLES = 1_000_000
#: Most rows per pool (row ids are int64).
MAX_POOL_ROWS = 10**9
_SELECTIONS = ("auto", "forward_selection", "highest_weights", "lasso_path", "none")
#: LimeConfig fields that decide how the rows are explained (where, in what batches), never
#: the explanations: left out of the cache key and of report.json's parameters.
EXECUTION_ONLY = ("n_jobs", "batch_size", "memory_budget_mb", "scheduler")
_ARRAYS_PER_SAMPLE = 4  # float64 (samples x features) arrays per row of a batch (3.2 measured)
_GRAMS_PER_ROW = 3  # float64 (features x features) arrays per row: the Gram matrix, the
# forward selection's copy of it and its temporary


@dataclass(frozen=True)
class LimeConfig:
    """Settings of the LIME stage.

    Parameters
    ----------
    num_samples : int, default=5000
        Perturbed samples per row, at most :data:`MAX_SAMPLES`.
    top_k : int, default=5
        Features kept per row (lime's ``num_features``).
    discretizer : {"entropy", "quartile", "decile"}, default="entropy"
        Lime's discretizer. ``entropy`` cuts each numeric feature where the black box's
        labels of the training rows change (a depth-3 entropy tree, up to 7 cuts, fitted
        on the ranks of the values so that any scale works; quartiles for a feature
        whose first cut fails Fayyad and Irani's MDL test:
        :class:`~explain.lime_bins.RankEntropyDiscretizer`); ``quartile`` and ``decile``
        cut at quantiles.
    feature_selection : {"auto", "forward_selection", "highest_weights", "lasso_path", \
"none"}, default="auto"
        Lime's feature selection. With ``none`` the ``top_k`` largest ``|weight|`` of the
        model on all features are kept.
    kernel_width : float, optional
        Lime's kernel width (default ``0.75 * sqrt(n_features)``), above 1e-150 and at
        most 1e150 (lime divides by its square).
    engine : {"batched", "reference"}, default="batched"
        ``batched``: :class:`~explain.lime_batch.BatchedLime`, vectorized over a batch of
        rows; ``reference``: stock lime row by row (see the module docstring).
    mode : {"fast", "exact"}, default="fast"
        Sampling of the batched engine.
    random_state : int, default=0
        Base of every row's seed, from 0 to 2**32 - 1.
    n_jobs : int, default=-1
        Workers (joblib processes) for a local run; -1 = all cores.
    batch_size : int, optional
        Rows per batch; by default sized from ``memory_budget_mb`` and the worker count.
    label : int, optional
        The class explained for every row (see the module docstring for the default).
    fix_zero_width_bins : bool, default=True
        Batched engine: a bin whose minimum equals its maximum yields its value instead of
        lime's ~0.0 (``False`` reproduces lime; the reference engine is always lime).
    pool_rows : int, default=32
        Rows with consecutive ids that share one neighbourhood (see the module docstring),
        at most :data:`MAX_POOL_ROWS`.
        Each row's explanation keeps lime's distribution; rows of a pool have correlated
        sampling noise. 1 = an independent neighbourhood per row.
    memory_budget_mb : float, default=256
        Memory one batch may use (about ``4 * num_samples * n_features * 8`` bytes per row:
        the 0/1 matrix, the black box's input, a centered copy, and headroom). A batch
        holds at least one pool, whose samples are drawn and predicted once; when the
        budget holds fewer rows, their local models are fitted that many rows at a time.
    scheduler : str, optional
        Address of a Dask scheduler to run on (needs the ``dask`` extra).
    categories : {"value", "one-hot"}, default="value"
        How LIME sees a categorical column. ``value`` (lime's own): one feature, "the
        sample has the row's category". ``one-hot`` (the LIME-FOLD paper's propositionalized
        categories, batched engine only): also one feature per other category ``v`` of a
        column with more than two, "the sample's category is not ``v``", so an
        explanation can say what the row is *not* (a classical negation, ``c != v``,
        :attr:`Explanations.negations`). The kernel's default width counts these features.

    Raises
    ------
    ValueError
        If a setting is out of its range or not of its type
        (:class:`adapters.InputError`, a ``ValueError``, for most of them).
    """

    num_samples: int = 5000
    top_k: int = 5
    discretizer: str = "entropy"
    feature_selection: str = "auto"
    kernel_width: float | None = None
    engine: str = "batched"
    mode: str = "fast"
    random_state: int = 0
    n_jobs: int = -1
    batch_size: int | None = None
    label: int | None = None
    fix_zero_width_bins: bool = True
    pool_rows: int = 32
    memory_budget_mb: float = 256.0
    scheduler: str | None = None
    categories: str = "value"

    def __post_init__(self):
        choices = {"discretizer": DISCRETIZERS, "feature_selection": _SELECTIONS,
                   "engine": ("batched", "reference"), "mode": ("fast", "exact"),
                   "categories": CATEGORY_VIEWS}
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"LimeConfig.{name} must be one of {list(allowed)}, "
                                 f"got {getattr(self, name)!r}")
        set_ = object.__setattr__  # frozen: the checked values replace the given ones
        for name, least, most, why in (
                ("num_samples", 2, MAX_SAMPLES,
                 ("--num-samples", "a row's neighbourhood is held in memory at once")),
                ("top_k", 1, None, None),
                ("pool_rows", 1, MAX_POOL_ROWS,
                 ("--lime-pool-rows", "a larger value is one pool for every row as well")),
                ("batch_size", 1, None, None), ("label", 0, None, None)):
            value = getattr(self, name)
            if value is not None or name not in ("batch_size", "label"):  # those optional
                set_(self, name, _whole(name, value, least, most, why))
        set_(self, "random_state", seed_value("LimeConfig.random_state", self.random_state))
        set_(self, "memory_budget_mb", _real("memory_budget_mb", self.memory_budget_mb))
        if self.kernel_width is not None:
            # lime divides by its square: a square of 0 or inf made every weight NaN
            set_(self, "kernel_width", _real("kernel_width", self.kernel_width, 1e-150, 1e150))
        if not isinstance(self.fix_zero_width_bins, (bool, np.bool_)):
            raise InputError(f"LimeConfig.fix_zero_width_bins must be True or False, got "
                             f"{self.fix_zero_width_bins!r}")
        set_(self, "fix_zero_width_bins", bool(self.fix_zero_width_bins))
        if (isinstance(self.n_jobs, bool) or not isinstance(self.n_jobs, (int, np.integer))
                or self.n_jobs == 0):
            raise ValueError(f"LimeConfig.n_jobs must be a non-zero int (-1: every core), "
                             f"got {self.n_jobs!r}")
        set_(self, "n_jobs", int(self.n_jobs))
        if self.categories == "one-hot" and self.engine == "reference":
            raise ValueError("LimeConfig.categories='one-hot' (--lime-categories one-hot) "
                             "needs the batched engine, not engine='reference' "
                             "(--lime-engine reference): stock lime explains each "
                             "categorical column as one feature")

    def result_items(self) -> dict:
        """The parameters that decide the explanations (the cache key's share).

        Returns
        -------
        dict
            The fields but :data:`EXECUTION_ONLY`, and but those the chosen engine and
            category view do not use.
        """
        items = {k: v for k, v in asdict(self).items() if k not in EXECUTION_ONLY}
        if self.engine == "reference":  # stock lime: no sampling mode, lime's bins
            items.pop("mode")
            items.pop("fix_zero_width_bins")
        if self.categories == "value":  # the cache keys made before the option
            items.pop("categories")
        return items


@dataclass(frozen=True, eq=False)
class Explanations:
    """The LIME explanations of a set of rows.

    Parameters
    ----------
    features : ndarray of int, shape (n_rows, top_k)
        Selected feature indices by decreasing ``|weight|``; -1 pads.
    weights : ndarray of float, shape (n_rows, top_k)
        Local weights toward ``labels`` (class 1 for a binary black box); 0.0 in padding.
    bins : ndarray of int, shape (n_rows, n_features)
        Each row's bin index from lime's discretizer; categorical columns hold the code.
    seconds : float
        Wall time of the call.
    labels : ndarray of int, shape (n_rows,)
        The class explained per row.
    intercepts : ndarray of float, shape (n_rows,)
        The local ridge's intercept (lime's ``intercept``).
    scores : ndarray of float, shape (n_rows,)
        The local ridge's weighted R² (lime's ``score``).
    row_ids : ndarray of int, shape (n_rows,)
        The ids the rows were seeded with.
    edges : dict of int to ndarray, default={}
        Bin edges of each discretized feature (bin ``j`` is ``edges[j-1] < x <= edges[j]``).
    rows_from_cache : int, default=0
        Rows loaded from the disk cache instead of explained.
    negations : ndarray of int, shape (E, 2), default=empty
        With ``categories="one-hot"``: feature ``n_features + e`` of :attr:`features` says
        the row's category of column ``negations[e, 0]`` is not the one coded
        ``negations[e, 1]``; empty otherwise.
    """

    features: np.ndarray
    weights: np.ndarray
    bins: np.ndarray
    seconds: float
    labels: np.ndarray
    intercepts: np.ndarray
    scores: np.ndarray
    row_ids: np.ndarray
    edges: dict = field(default_factory=dict)
    rows_from_cache: int = 0
    negations: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), dtype=np.int64))


def seed_value(name: str, value) -> int:
    """``value`` as a Python int that numpy takes as a seed (0 .. 2**32 - 1).

    Parameters
    ----------
    name : str
        What the value is, for the message.
    value : object
        The seed given.

    Returns
    -------
    int
        ``value``, checked.

    Raises
    ------
    adapters.InputError
        Naming ``name``, for anything else (a bool, a float, a negative or larger number).
    """
    if (isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer))
            or not 0 <= value < 2**32):
        raise InputError(f"{name} must be an int from 0 to 2**32 - 1 (a seed), got {value!r}")
    return int(value)


def _whole(name: str, value, least: int, most: int | None, why: tuple | None) -> int:
    """LimeConfig's ``name`` as a Python int from ``least`` to ``most`` (``why``: the
    command-line option and the reason for the ceiling)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise InputError(f"LimeConfig.{name} must be an int, got {value!r}")
    if value < least:
        raise InputError(f"LimeConfig.{name} must be at least {least}, got {value!r}")
    if most is not None and value > most:
        option, reason = why
        raise InputError(f"LimeConfig.{name} ({option}) must be at most {most:,}: {reason}; "
                         f"got {value!r}")
    return int(value)


def _real(name: str, value, least: float = 0.0, most: float = 1e300) -> float:
    """LimeConfig's ``name`` as a finite Python float above ``least``, at most ``most``."""
    if (isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer,
                                                                      np.floating))
            or not least < float(value) <= most):
        raise InputError(f"LimeConfig.{name} must be a number above {least:g} and at most "
                         f"{most:g}, got {value!r}")
    return float(value)


def seed_for(random_state: int, pool_id: int) -> int:
    """The seed of pool ``pool_id`` (a row's id with ``pool_rows=1``).

    Parameters
    ----------
    random_state : int
        :attr:`LimeConfig.random_state`.
    pool_id : int
        The pool (``row_id // pool_rows``).

    Returns
    -------
    int
        A 32-bit integer drawn from ``numpy.random.SeedSequence([random_state, pool_id])``.
    """
    return int(np.random.SeedSequence([int(random_state), int(pool_id)]).generate_state(1)[0])


def pool_batches(positions: np.ndarray, pools: np.ndarray, size: int) -> list[np.ndarray]:
    """Cut ``positions`` into batches of about ``size`` rows that keep each pool whole.

    A pool larger than ``size`` is split; otherwise a pool's samples are predicted once.

    Parameters
    ----------
    positions : ndarray of int
        Rows to explain.
    pools : ndarray of int
        Pool id of every row (indexed by position).
    size : int
        Target rows per batch.

    Returns
    -------
    list of ndarray of int
        The positions of each batch, pool by pool in increasing pool id.
    """
    order = positions[np.argsort(pools[positions], kind="stable")]
    _, starts = np.unique(pools[order], return_index=True)
    batches, current, count = [], [], 0
    for group in np.split(order, starts[1:]):
        for chunk in (group[i:i + size] for i in range(0, len(group), size)):
            if current and count + len(chunk) > size:
                batches.append(np.concatenate(current))
                current, count = [], 0
            current.append(chunk)
            count += len(chunk)
    if current:
        batches.append(np.concatenate(current))
    return batches


def discretizer_edges(explainer: LimeTabularExplainer) -> dict[int, np.ndarray]:
    """Each discretized feature's bin edges (by column index) in a lime explainer.

    Parameters
    ----------
    explainer : lime.lime_tabular.LimeTabularExplainer
        A discretizing explainer, as :func:`make_explainer` makes.

    Returns
    -------
    dict of int to ndarray of float64
        The inner edges of each discretized column (its bins' maxima but the last).
    """
    disc = explainer.discretizer
    return {int(f): np.asarray(disc.maxs[f][:-1], dtype=np.float64) for f in disc.means}


def weighed_features(training_data, categorical_features=(), categories="value") -> int:
    """How many features LIME weighs on ``training_data``.

    Parameters
    ----------
    training_data : array-like of shape (n_train, n_features)
        Encoded rows, no NaN.
    categorical_features : sequence of int, default=()
        Categorical column indices.
    categories : {"value", "one-hot"}, default="value"
        :attr:`LimeConfig.categories`.

    Returns
    -------
    int
        The columns and, with ``categories="one-hot"``, one per category of each
        categorical column of more than two
        (:func:`~explain.lime_sampling.one_hot_negations`).
    """
    training_data = np.asarray(training_data, dtype=np.float64)
    if categories != "one-hot":
        return training_data.shape[1]
    values = {j: np.unique(training_data[:, j]) for j in categorical_features}
    return training_data.shape[1] + len(one_hot_negations(values, categorical_features))


def make_explainer(training_data, config: LimeConfig, categorical_features=(),
                   categorical_names=None, feature_names=None,
                   training_labels=None) -> LimeTabularExplainer:
    """Lime's ``LimeTabularExplainer`` as both engines use it.

    Parameters
    ----------
    training_data : array-like of shape (n_train, n_features)
        Encoded rows, no NaN (as :func:`explain_rows` takes them).
    config : LimeConfig
        The discretizer, feature selection, kernel width, categories and seed.
    categorical_features : sequence of int, default=()
        Categorical column indices.
    categorical_names : dict, optional
        Lime's ``categorical_names`` (display only).
    feature_names : sequence of str, optional
        Column names; by default the column indices as text.
    training_labels : array-like, optional
        The black box's labels of the training rows; needed by the entropy discretizer.

    Returns
    -------
    lime.lime_tabular.LimeTabularExplainer
        Discretized, in classification mode, with ``sample_around_instance=False``.

    Raises
    ------
    ValueError
        If the entropy discretizer is chosen without ``training_labels``.
    """
    training_data = np.asarray(training_data, dtype=np.float64)
    feature_names = ([str(i) for i in range(training_data.shape[1])] if feature_names is None
                     else [str(f) for f in feature_names])
    discretizer = config.discretizer
    # The explainer's own random stream, advanced by the discretizer's trees as lime does.
    random_state = check_random_state(config.random_state)
    if discretizer == "entropy":
        if training_labels is None:
            raise ValueError("the entropy discretizer needs training_labels (the black "
                             "box's labels of the training rows)")
        discretizer = RankEntropyDiscretizer(
            training_data, list(categorical_features), feature_names,
            labels=training_labels, random_state=random_state)
    kernel_width = config.kernel_width
    if kernel_width is None and config.categories == "one-hot":
        # lime's default, 0.75 * sqrt(features), over the one-hot view's features
        kernel_width = 0.75 * math.sqrt(
            weighed_features(training_data, categorical_features, config.categories))
    return LimeTabularExplainer(
        training_data, mode="classification", training_labels=training_labels,
        feature_names=feature_names,
        categorical_features=list(categorical_features), categorical_names=categorical_names,
        kernel_width=kernel_width, feature_selection=config.feature_selection,
        discretize_continuous=True, discretizer=discretizer,
        sample_around_instance=False, random_state=random_state)


def _check_inputs(training_data, rows, categorical_features, row_ids):
    training_data = np.asarray(training_data, dtype=np.float64)
    rows = np.asarray(rows, dtype=np.float64)
    if training_data.ndim != 2 or rows.ndim != 2 or rows.shape[1] != training_data.shape[1]:
        raise ValueError(f"training_data and rows must be 2-D with the same number of columns; "
                         f"got shapes {training_data.shape} and {rows.shape}")
    if len(training_data) < 2:
        raise ValueError("LIME needs at least 2 training rows")
    for name, matrix in (("training_data", training_data), ("rows", rows)):
        if not np.isfinite(matrix).all():
            raise ValueError(f"{name} contains NaN or infinite values; impute them before "
                             "LIME (explain.lime_input does this for the pipeline)")
    d = training_data.shape[1]
    categorical = sorted({int(c) for c in categorical_features})
    if categorical and not (0 <= categorical[0] and categorical[-1] < d):
        raise ValueError(f"categorical_features must be column indices in [0, {d})")
    for c in categorical:
        for matrix in (training_data, rows):
            if not np.array_equal(matrix[:, c], np.round(matrix[:, c])):
                raise ValueError(f"categorical column {c} must hold integer codes")
    row_ids = np.arange(len(rows)) if row_ids is None else np.asarray(row_ids, dtype=np.int64)
    if row_ids.shape != (len(rows),) or (len(row_ids) and row_ids.min() < 0):
        raise ValueError("row_ids must be one non-negative integer per row")
    return training_data, rows, categorical, row_ids


def _resolve_labels(labels, config, n_classes, rows, predict_fn):
    n = len(rows)
    if labels is not None:
        labels = np.asarray(labels, dtype=np.int64)
        if labels.shape != (n,):
            raise ValueError(f"labels must hold one class per row ({n}), got {labels.shape}")
    elif config.label is not None:
        labels = np.full(n, int(config.label), dtype=np.int64)
    elif n_classes == 2:
        labels = np.ones(n, dtype=np.int64)
    else:
        chunks = [check_probabilities(predict_fn(rows[i:i + 65536]), len(rows[i:i + 65536]))
                  for i in range(0, n, 65536)]
        labels = np.concatenate(chunks).argmax(axis=1) if n else np.zeros(0)
        labels = labels.astype(np.int64)
    if n and (labels.min() < 0 or labels.max() >= n_classes):
        raise ValueError(f"labels must be classes in [0, {n_classes})")
    return labels


def rows_in_budget(config: LimeConfig, n_features: int) -> int:
    """Rows whose neighbourhoods and local fits ``config.memory_budget_mb`` holds at once.

    About ``4 * num_samples * n_features + 3 * n_features**2`` float64 per row: on a wide
    table the Gram matrices outweigh the samples.

    Parameters
    ----------
    config : LimeConfig
        Its ``num_samples`` and ``memory_budget_mb``.
    n_features : int
        Features LIME weighs (:func:`weighed_features`).

    Returns
    -------
    int
        At least 1: the rows of a batch whose local models the batched engine fits
        together.
    """
    per_row = 8 * n_features * (config.num_samples * _ARRAYS_PER_SAMPLE
                                + n_features * _GRAMS_PER_ROW)
    return max(1, int(config.memory_budget_mb * 2**20 // per_row))


def batch_size_for(config: LimeConfig, n_features: int, n_todo: int, workers: int) -> int:
    """Rows per batch.

    ``config.batch_size``, else as many as ``config.memory_budget_mb`` holds
    (:func:`rows_in_budget`), but no more than gives about 4 batches per worker (load
    balance, checkpoints, progress), and never fewer than a pool (``config.pool_rows``): a
    pool's rows share one neighbourhood, drawn and predicted once per batch, while the
    engine fits the local models a budget's worth of rows at a time.

    Parameters
    ----------
    config : LimeConfig
        Its ``batch_size``, ``memory_budget_mb``, ``num_samples`` and ``pool_rows``.
    n_features : int
        Features LIME weighs (:func:`weighed_features`).
    n_todo : int
        Rows left to explain.
    workers : int
        Workers the batches are spread over.

    Returns
    -------
    int
        Rows per batch, at least 1.
    """
    if config.batch_size:
        return int(config.batch_size)
    by_balance = max(1, math.ceil(n_todo / (4 * workers)), config.pool_rows)
    return min(max(rows_in_budget(config, n_features), config.pool_rows), by_balance)


def explain_rows(training_data, rows, predict_fn: Callable, config: LimeConfig | None = None,
                 categorical_features=(), categorical_names=None, feature_names=None,
                 training_labels=None, cache_dir=None, row_ids=None,
                 progress: Callable[[int, int], None] | None = None, *, labels=None,
                 model_fingerprint: str | None = None, client=None,
                 explainer: LimeTabularExplainer | None = None) -> Explanations:
    """Explain every row of ``rows`` with LIME.

    Parameters
    ----------
    training_data : ndarray of shape (n_train, n_features)
        Float matrix in the ``TableEncoder`` layout (categorical columns hold integer
        codes), NaN-free: lime's discretizer and sampling statistics come from it.
    rows : ndarray of shape (n_rows, n_features)
        The rows to explain, same layout.
    predict_fn : callable
        ``predict_fn(Z) -> ndarray (len(Z), n_classes)`` of probabilities. Must be
        picklable (cloudpickle) when run in parallel.
    config : LimeConfig, optional
        The LIME settings; by default ``LimeConfig()``.
    categorical_features : sequence of int, default=()
        Categorical column indices.
    categorical_names : dict, optional
        Lime's ``categorical_names`` (display only).
    feature_names : sequence of str, optional
        Column names; by default the column indices as text.
    training_labels : array-like, optional
        Labels of the training rows, for the entropy discretizer; by default the black
        box's (the most probable class of each training row under ``predict_fn``).
    cache_dir : path, optional
        Checkpoint directory: finished batches are saved as they complete and reused. One
        that is a file is refused; when files cannot be written there (read-only, a full
        disk), a warning says so and the rows are explained without it.
    row_ids : array-like of int, optional
        Stable ids seeding each row (default ``0..n_rows-1``).
    progress : callable, optional
        ``progress(n_done, n_total)``, called at the start and after every batch.
    labels : array-like of int, optional
        The class to explain per row (overrides ``config.label``).
    model_fingerprint : str, optional
        The caller's identity of the black box, part of the cache key.
    client : dask.distributed.Client, optional
        Run the batches on this Dask cluster (else ``config.scheduler`` if set, else joblib
        processes).
    explainer : LimeTabularExplainer, optional
        :func:`make_explainer` of these arguments, made once by a caller that explains
        several sets of rows (the entropy discretizer fits a tree per feature).

    Returns
    -------
    Explanations
        One explanation per row of ``rows``, in their order.

    Raises
    ------
    ValueError
        If the matrices are not 2-D with the same columns, hold NaN or infinities, or
        categorical columns that are not integer codes; ``training_data`` has fewer than
        2 rows; ``row_ids`` or ``labels`` are not one per row; or ``cache_dir`` is a file.
    """
    started = time.perf_counter()
    config = config or LimeConfig()
    training_data, rows, categorical, row_ids = _check_inputs(
        training_data, rows, categorical_features, row_ids)
    n, d = rows.shape
    if config.discretizer == "entropy" and training_labels is None:
        training_labels = np.argmax(
            check_probabilities(predict_fn(training_data), len(training_data)), axis=1)
    if explainer is None:
        explainer = make_explainer(training_data, config, categorical, categorical_names,
                                   feature_names, training_labels)
    disc = explainer.discretizer
    edges = discretizer_edges(explainer)
    bins = disc.discretize(rows).astype(np.int64)
    negations = (one_hot_negations(explainer.feature_values, categorical)
                 if config.categories == "one-hot" else np.zeros((0, 2), dtype=np.intp))
    width = d + len(negations)  # the local models' features
    if config.top_k > width:  # every feature is kept: the arrays need no more columns
        config = replace(config, top_k=width,
                         feature_selection=resolved_selection(config.feature_selection,
                                                              config.top_k))
    probe = np.concatenate([training_data[:8], rows[:8]])
    if cache_dir is not None and n:  # the key's digest of the model's behaviour
        probe = np.concatenate([probe_rows(training_data, categorical_features=categorical),
                                rows[:8]])
    probe_p = check_probabilities(predict_fn(probe), len(probe))
    labels = _resolve_labels(labels, config, probe_p.shape[1], rows, predict_fn)
    pools = np.asarray(row_ids, dtype=np.int64) // config.pool_rows
    seed_of = {p: seed_for(config.random_state, p) for p in np.unique(pools)}
    seeds = np.array([seed_of[p] for p in pools], dtype=np.int64)

    fits = LocalFits(np.full((n, config.top_k), -1, dtype=np.int64),
                     np.zeros((n, config.top_k)), np.zeros(n), np.zeros(n))
    done = np.zeros(n, dtype=bool)
    store = None
    if cache_dir is not None and n:
        check_cache_dir(cache_dir)
        items = config.result_items()
        key = cache_key(training_data=training_data, rows=rows, row_ids=row_ids, labels=labels,
                        categorical_features=categorical, training_labels=training_labels,
                        config_items=items, model_fingerprint=model_fingerprint,
                        probe_probabilities=probe_p, edges=edges)
        store = _open_store(cache_dir, key, meta={"config": items, "n_rows": n,
                                                  "n_features": d,
                                                  "model_fingerprint": model_fingerprint})
    if store is not None:
        cached = store.load(n, config.top_k, width)
        done = cached.done.copy()
        _put(fits, np.flatnonzero(done), cached.fits, np.flatnonzero(done))
    from_cache = int(done.sum())
    if progress is not None:
        progress(from_cache, n)

    todo = np.flatnonzero(~done)
    if len(todo) and config.num_samples <= width:
        warnings.warn(f"LIME draws {config.num_samples} samples per row to weigh {width} "
                      "features: the local fits have no more samples than features, so their "
                      f"weights are mostly the ridge penalty's; use more than {width} samples "
                      "(--num-samples)", stacklevel=2)
    if len(todo):
        if config.engine == "batched":
            engine = BatchedLime(explainer, config.num_samples, config.top_k,
                                 config.feature_selection, config.mode,
                                 config.fix_zero_width_bins, rows_in_budget(config, width),
                                 negations=negations if len(negations) else None)
        else:
            engine = ReferenceLime(explainer, config.num_samples, config.top_k)
        with dask_client(client, config.scheduler) as dask:
            size = batch_size_for(config, width, len(todo), n_workers(config.n_jobs, dask))
            parts = pool_batches(todo, pools, size)
            batches = [(rows[p], seeds[p], labels[p]) for p in parts]
            n_done = from_cache
            for index, batch in run_batches(engine, predict_fn, batches, config.n_jobs, dask):
                positions = parts[index]
                _put(fits, positions, batch, slice(None))
                if store is not None:  # checkpoint: this batch survives an interruption
                    store = _checkpoint(store, positions, batch, labels[positions])
                n_done += len(positions)
                if progress is not None:
                    progress(n_done, n)
    codes = np.array([explainer.feature_values[j][p] for j, p in negations],
                     dtype=np.int64).reshape(-1)
    return Explanations(fits.features, fits.weights, bins, time.perf_counter() - started,
                        labels, fits.intercepts, fits.scores, row_ids, edges, from_cache,
                        np.column_stack([negations[:, 0].astype(np.int64), codes]))


def probe_rows(training_data: np.ndarray, n_mixed: int = 256,
               categorical_features=()) -> np.ndarray:
    """Rows whose probabilities identify the model (in the LIME cache's key).

    Training rows alone do not: two models that fit them perfectly with hard 0/1
    probabilities (two grown trees) answer alike there. So are rows mixing the columns of
    random training rows, where such models differ as LIME's samples would show; and rows
    whose numeric columns take values between the training values (uniform over each
    column's range), where LIME samples too: two models that split an integer column at
    ``t`` and at ``t - 0.9`` answer every training value alike.

    Parameters
    ----------
    training_data : ndarray of shape (n_train, n_features)
        Encoded training rows.
    n_mixed : int, default=256
        Rows of each kind drawn (mixed columns, values between).
    categorical_features : sequence of int, default=()
        Columns left at training values (categories have no values between).

    Returns
    -------
    ndarray of shape (min(n_train, 64) + 2 * n_mixed, n_features)
        The first 64 training rows, then the mixed rows, then the rows between.
    """
    rng = np.random.default_rng(0)
    n, d = training_data.shape
    picks = rng.integers(0, n, size=(n_mixed, d))
    mixed = training_data[picks, np.arange(d)]
    between = training_data[rng.integers(0, n, size=n_mixed)].copy()
    numeric = np.setdiff1d(np.arange(d), np.asarray(categorical_features, dtype=np.intp))
    if n and numeric.size:
        low = training_data[:, numeric].min(axis=0)
        high = training_data[:, numeric].max(axis=0)
        between[:, numeric] = low + (high - low) * rng.random((n_mixed, numeric.size))
    return np.concatenate([training_data[:64], mixed, between])


def _open_store(cache_dir, key, meta):
    """The cache's store of ``key``; on a full or read-only disk, a warning and None (the
    run goes on without the cache)."""
    try:
        return BatchStore(cache_dir, key, meta=meta)
    except OSError as error:
        _unwritable(cache_dir, error)
        return None


def _checkpoint(store, positions, fits, labels):
    """Save a finished batch; on a full or read-only disk, warn and stop checkpointing
    (the run goes on: the results are in memory)."""
    try:
        store.save(positions, fits, labels)
    except OSError as error:
        _unwritable(store.directory, error)
        return None
    return store


def _unwritable(directory, error) -> None:
    warnings.warn(f"could not write to the LIME cache {str(directory)!r} "
                  f"({error.strerror or error}); going on without it", RuntimeWarning,
                  stacklevel=4)


def _put(target: LocalFits, positions, source: LocalFits, which) -> None:
    target.features[positions] = source.features[which]
    target.weights[positions] = source.weights[which]
    target.intercepts[positions] = source.intercepts[which]
    target.scores[positions] = source.scores[which]
