"""The comparison run: a fidelity–size sweep of both learners, and the training-view ablation.

LIME runs once. :func:`sweep` refits the learners on the views of one
:class:`~explain.pipeline.PipelineResult`, one setting at a time (IMLI over
``data_fidelity`` × ``n_clauses``, FOLD over ``mdl_weight``);
:func:`view_comparison` refits them, with the run's own settings, on each other training
view (``RunConfig.train_view``: LIME-filtered rows, those plus the full rows, or the full
rows alone — no LIME at all), with the same split and the same black box.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Callable

import numpy as np

from adapters import BlackBox, Dataset, InputError
from explain.learners import check_params, fit_learner
from explain.metrics import paired_comparison
from explain.pipeline import (TRAIN_VIEWS, PipelineResult, RunConfig, learner_report,
                              run_pipeline, training_labels, training_view, view_predictions)
from explain.report_details import add_details
from imli import TimeLimitWarning

__all__ = ["SweepConfig", "sweep", "pareto_front", "refit", "vs_run", "view_comparison",
           "run_compare"]

#: Metrics kept for each training view in the view comparison.
VIEW_KEYS = ("fidelity_test", "fidelity_test_lime", "accuracy_test", "f1_test", "n_rules",
             "rule_size", "fit_seconds", "optimal", "timed_out", "vs_run_test")


@dataclass(frozen=True)
class SweepConfig:
    """The settings each learner is refitted with.

    Parameters
    ----------
    data_fidelity : tuple of float, default=(1.0, 3.0, 10.0, 30.0)
        IMLI's λ values (cost of one misclassified row in literals).
    n_clauses : tuple of int, default=(1, 2, 3)
        IMLI's clause counts (k); every (λ, k) pair is fitted.
    mdl_weight : tuple of (float or None), default=(0.125, 0.25, 0.5, 1.0, 2.0)
        FOLD's weights of the program's bits in its description length (larger: smaller
        programs, fewer rows fitted; ``None``: plain FOLD, no description length).
    imli_time_limit : float or None, default=15.0
        Seconds per IMLI fit of the sweep (``None``: the run's own time limit). A fit cut
        short is flagged not optimal.

    Raises
    ------
    adapters.InputError
        If a value is not one its learner accepts, or a grid is empty.
    """

    data_fidelity: tuple[float, ...] = (1.0, 3.0, 10.0, 30.0)
    n_clauses: tuple[int, ...] = (1, 2, 3)
    mdl_weight: tuple[float | None, ...] = (0.125, 0.25, 0.5, 1.0, 2.0)
    imli_time_limit: float | None = 15.0

    def __post_init__(self):
        # Checked here, as the estimators would check each fit's values, so that a bad grid
        # is refused before a run's LIME stage, and no value is cut short (1.5 clauses as 1)
        set_ = object.__setattr__  # frozen: the checked values replace the given ones
        for name, learner, param, kind in (
                ("data_fidelity", "imli", "data_fidelity", "numbers"),
                ("n_clauses", "imli", "n_clauses", "ints"),
                ("mdl_weight", "fold", "mdl_weight", "numbers")):
            given = getattr(self, name)
            if isinstance(given, np.ndarray) and given.ndim == 1:
                given = given.tolist()
            if not isinstance(given, (tuple, list)):
                raise InputError(f"SweepConfig.{name} must be a tuple of {kind}, such as "
                                 f"{_EXAMPLES[name]!r}, got {given!r}")
            if not given:
                raise InputError(f"SweepConfig.{name} must hold at least one value, such "
                                 f"as {_EXAMPLES[name]!r}")
            values = []
            for value in given:
                if value is None and name == "mdl_weight":  # plain FOLD
                    values.append(None)
                    continue
                if (isinstance(value, (bool, np.bool_))
                        or not isinstance(value, Integral if kind == "ints" else Real)):
                    raise InputError(f"SweepConfig.{name} must be a tuple of {kind}, got "
                                     f"{value!r}")
                value = int(value) if kind == "ints" else float(value)
                _checked(name, learner, {param: value})
                values.append(value)
            set_(self, name, tuple(values))
        limit = self.imli_time_limit
        if limit is not None:
            if isinstance(limit, (bool, np.bool_)) or not isinstance(limit, Real):
                raise InputError(f"SweepConfig.imli_time_limit must be a number or None, "
                                 f"got {limit!r}")
            _checked("imli_time_limit", "imli", {"time_limit": float(limit)})
            set_(self, "imli_time_limit", float(limit))

    def to_dict(self) -> dict:
        """The configuration as plain JSON-ready values.

        Returns
        -------
        dict
            Each field, grids as lists.
        """
        return {
            "data_fidelity": [float(v) for v in self.data_fidelity],
            "n_clauses": [int(v) for v in self.n_clauses],
            "mdl_weight": [None if v is None else float(v) for v in self.mdl_weight],
            "imli_time_limit": self.imli_time_limit,
        }


_EXAMPLES = {"data_fidelity": (1.0, 10.0), "n_clauses": (1, 2), "mdl_weight": (0.25, 1.0)}


def _checked(name: str, learner: str, params: dict) -> None:
    """Refuse a sweep value as ``learner`` would, in one line naming SweepConfig's ``name``."""
    try:
        check_params(learner, params)
    except ValueError as err:  # InputError, and scikit-learn's InvalidParameterError
        raise InputError(f"SweepConfig.{name}: {err}") from None


def _settings(name: str, config: SweepConfig, base: dict) -> list[dict]:
    if name == "imli":
        limit = {} if config.imli_time_limit is None else {"time_limit": config.imli_time_limit}
        return [
            {**base, **limit, "data_fidelity": float(lam), "n_clauses": int(k)}
            for k in config.n_clauses
            for lam in config.data_fidelity
        ]
    return [{**base, "mdl_weight": None if w is None else float(w)} for w in config.mdl_weight]


def refit(result: PipelineResult, name: str, view: str, params: dict | None = None) -> dict:
    """Fit learner ``name`` again on training view ``view`` of a run's rows.

    No LIME, no black-box training: the learner is measured as the run measures it.

    Parameters
    ----------
    result : PipelineResult
        A finished run.
    name : {"imli", "fold"}
        A learner of the run.
    view : str
        A training view (:data:`~explain.pipeline.TRAIN_VIEWS`); the LIME views need a run
        that explained rows.
    params : dict, optional
        The learner's settings (default: the run's).

    Returns
    -------
    dict
        The learner's report entry, as in ``result.report["learners"]``, and
        ``vs_run_test``: on the same held-out rows, against the run's own fit of the
        learner, ``only_refit_faithful`` (rows where only the refit agrees with the black
        box), ``only_run_faithful`` and the exact McNemar test's ``p_value``
        (:func:`~explain.metrics.paired_comparison`).
    """
    report, labels = result.report, result.labels
    if params is None:
        params = report["parameters"]["imli_params" if name == "imli" else "fold_params"]
    X = training_view(result.views[name], view)
    y = training_labels(labels["bb_train"], view)
    with warnings.catch_warnings():
        # A fit cut short by the time limit is recorded as not optimal; no need to warn.
        warnings.simplefilter("ignore", TimeLimitWarning)
        learner = fit_learner(
            name, X, y, params, report["parameters"]["random_state"], result.columns,
            tuple(report["dataset"]["class_names"]), distinct_rows=len(labels["bb_train"]),
        )
    predicted = view_predictions(learner, result.views[name])
    entry = learner_report(learner, predicted, labels["bb_train"], labels["bb_test"],
                           labels["y_test"])
    entry["vs_run_test"] = vs_run(paired_comparison(
        predicted["test"], result.predictions[name]["test"], labels["bb_test"]))
    return entry


def vs_run(paired: dict) -> dict:
    """A refit's ``vs_run_test`` from its paired test against the run's fit.

    Parameters
    ----------
    paired : dict
        :func:`~explain.metrics.paired_comparison` (or
        :func:`~explain.metrics.discordant_test`) with the refit as ``a``.

    Returns
    -------
    dict
        ``only_refit_faithful``, ``only_run_faithful`` and ``p_value``.
    """
    return {"only_refit_faithful": paired["a_only"], "only_run_faithful": paired["b_only"],
            "p_value": paired["p_value"]}


def _point(result: PipelineResult, name: str, params: dict, view: str) -> dict:
    """Fit learner ``name`` with ``params`` on training view ``view``; measure it as the run does."""
    measured = refit(result, name, view, params)
    point = {"params": {k: params[k] for k in ("data_fidelity", "n_clauses", "mdl_weight")
                        if k in params}}
    point.update({k: measured[k] for k in VIEW_KEYS if k in measured})
    return point


def pareto_front(points: list[dict], x: str = "rule_size", y: str = "fidelity_test") -> list[bool]:
    """Which points are Pareto-optimal (settings that tie are all on the front).

    A point is dominated when another has ``x`` ≤ and ``y`` ≥ with one of them strict:
    no other point is smaller and at least as faithful, or as small and more faithful.
    Equal points are all kept.

    Parameters
    ----------
    points : list of dict
        Each with the keys ``x`` and ``y``.
    x : str, default="rule_size"
        The key to minimise.
    y : str, default="fidelity_test"
        The key to maximise.

    Returns
    -------
    list of bool
        Whether each point is on the front.

    Examples
    --------
    >>> pareto_front([{"rule_size": 2, "fidelity_test": 0.8},
    ...               {"rule_size": 3, "fidelity_test": 0.8},
    ...               {"rule_size": 5, "fidelity_test": 0.9}])
    [True, False, True]
    """
    front = []
    for p in points:
        dominated = any(
            q[x] <= p[x] and q[y] >= p[y] and (q[x] < p[x] or q[y] > p[y]) for q in points
        )
        front.append(not dominated)
    return front


def sweep(result: PipelineResult, config: SweepConfig | None = None,
          progress: Callable[[str, int, int], None] | None = None) -> dict:
    """Refit each learner of ``result`` over its settings, reusing the run's LIME views.

    Parameters
    ----------
    result : PipelineResult
        A finished run.
    config : SweepConfig, optional
        The grid; by default ``SweepConfig()``.
    progress : callable, optional
        ``progress(stage, done, total)`` after each fit.

    Returns
    -------
    dict
        ``config`` (the settings of the learners that ran), ``train_view`` (the run's, on
        which every point is fitted) and ``learners``: per learner, the list of points
        (``params``, fidelities, ``accuracy_test``, ``rule_size``, ``n_rules``,
        ``fit_seconds``, IMLI's ``optimal``, and ``pareto``: on the learner's
        fidelity–size Pareto front).

    Raises
    ------
    adapters.InputError
        If ``config`` is not a SweepConfig.
    """
    config = _sweep_config(config, "config")
    params = result.report["parameters"]
    view = params["train_view"]
    # the settings of a learner that does not run are not recorded
    owner = {"data_fidelity": "imli", "n_clauses": "imli", "imli_time_limit": "imli",
             "mdl_weight": "fold"}
    recorded = {k: v for k, v in config.to_dict().items() if owner[k] in result.learners}
    out: dict = {"config": recorded, "train_view": view, "learners": {}}
    for name in result.learners:
        base = dict(params["imli_params"] if name == "imli" else params["fold_params"])
        settings = _settings(name, config, base)
        points = []
        for i, setting in enumerate(settings):
            points.append(_point(result, name, setting, view))
            if progress:
                progress(f"sweep {name}", i + 1, len(settings))
        for point, on_front in zip(points, pareto_front(points)):
            point["pareto"] = on_front
        out["learners"][name] = points
    return out


def _sweep_config(config, name: str) -> SweepConfig:
    """``config`` (argument ``name``), or the default grid for ``None``; anything else is
    refused."""
    if config is None:
        return SweepConfig()
    if not isinstance(config, SweepConfig):
        raise InputError(f"{name} must be a SweepConfig, got {type(config).__name__}")
    return config


def view_comparison(result: PipelineResult) -> dict:
    """Refit the run's learners, with its settings, on every other training view.

    The run's own view is taken from its report; views that need LIME are skipped when the
    run did not explain rows (``train_view="raw"``). No LIME, no black-box training.

    Parameters
    ----------
    result : PipelineResult
        A finished run.

    Returns
    -------
    dict
        ``run_view``, ``views`` (in :data:`~explain.pipeline.TRAIN_VIEWS` order),
        ``learners``: per learner, per view, the metrics of :data:`VIEW_KEYS`, and
        ``same_rows``: whether the LIME-filtered training rows are the full rows
        (``top_k`` at least the number of features), so that the views differ only in how
        often they count each row; ``None`` when the run explained no rows
        (``train_view="raw"``: there are no LIME-filtered rows to compare).
    """
    params = result.report["parameters"]
    run_view = params["train_view"]
    views = [v for v in TRAIN_VIEWS
             if v == run_view or v == "raw" or result.explanations_train is not None]
    learners = {}
    for name in result.learners:
        base = dict(params["imli_params"] if name == "imli" else params["fold_params"])
        entry = {}
        for view in views:
            if view == run_view:
                own = result.report["learners"][name]
                entry[view] = {k: own[k] for k in VIEW_KEYS if k in own}
            else:
                point = _point(result, name, base, view)
                entry[view] = {k: point[k] for k in VIEW_KEYS if k in point}
        learners[name] = entry
    return {"run_view": run_view, "views": views, "learners": learners,
            "same_rows": _lime_kept_everything(result)}


def _lime_kept_everything(result: PipelineResult) -> bool | None:
    """Whether every learner's LIME-filtered training rows are its full rows (LIME kept
    every feature of every row, and no category was negated); None without LIME."""
    if result.explanations_train is None:
        return None
    parts = [result.views[name] for name in result.learners]
    return all(p["train_lime"].equals(p["train_raw"]) for p in parts)


def run_compare(dataset: Dataset, config: RunConfig | None = None,
                sweep_config: SweepConfig | None = None, black_box: BlackBox | None = None,
                cache_dir=None, progress=None) -> PipelineResult:
    """The full comparison: one run, its details, the sweep and the training-view ablation.

    Parameters
    ----------
    dataset : Dataset
        The table.
    config : RunConfig, optional
        The run's settings; by default ``RunConfig()``.
    sweep_config : SweepConfig, optional
        The sweep's grid; by default ``SweepConfig()``.
    black_box : BlackBox, optional
        A user's model; by default XGBoost is trained (once: the ablation reuses it).
    cache_dir : path, optional
        LIME cache.
    progress : callable, optional
        ``progress(stage, done, total)``.

    Returns
    -------
    PipelineResult
        Its report holds ``sweep`` and ``filtering`` (:func:`view_comparison`) besides the
        run's own sections.
    """
    sweep_config = _sweep_config(sweep_config, "sweep_config")  # before the run's slow stages
    result = run_pipeline(dataset, config or RunConfig(), black_box=black_box,
                          cache_dir=cache_dir, progress=progress)
    add_details(result)
    result.report["sweep"] = sweep(result, sweep_config, progress)
    result.report["filtering"] = view_comparison(result)
    return result

