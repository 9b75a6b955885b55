"""The report's detail sections, computed from a run's fitted objects into report.json.

:func:`add_details` extends ``PipelineResult.report`` with what the human reports show
beyond the headline metrics: each rule's coverage and precision on the test rows, which
features each rule set uses, how often LIME selected each feature, and example rows on
which the two surrogates disagree. The renderers (:mod:`explain.report_md`,
:mod:`explain.report_html`) then read the report dict alone.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from adapters.columns import EXPONENT_FORM
from explain.pipeline import PipelineResult, one_table
from explain.rule_stats import feature_usage, rule_stats

__all__ = ["add_details", "lime_feature_frequency", "disagreement_examples", "row_reasons",
           "shown_features", "json_value", "table_row", "whole_number_columns"]

#: Example rows of disagreement kept in the report, and feature values shown per row.
MAX_EXAMPLES = 5
MAX_EXAMPLE_FEATURES = 8


def json_value(value):
    """A table cell as a JSON-ready value.

    Parameters
    ----------
    value : object
        A cell of the table.

    Returns
    -------
    None, bool, int, float or str
        None for NaN, None or an infinity; a numpy scalar's Python value; anything else
        that is not missing as its ``str``.
    """
    if value is None:
        return None
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, (bool, int, float, str)):
        return value
    try:
        if pd.isna(value):
            return None
    except (TypeError, ValueError):
        pass
    return str(value)


def lime_feature_frequency(features: np.ndarray, weights: np.ndarray, names: list[str],
                           usage: dict[str, dict[str, int]],
                           known: np.ndarray | None = None) -> list[dict]:
    """How often LIME selected each feature, most often first.

    Parameters
    ----------
    features : ndarray of int, shape (n_rows, top_k)
        ``Explanations.features`` (feature indices, ``-1`` padding).
    weights : ndarray of float, shape (n_rows, top_k)
        ``Explanations.weights`` (toward class 1).
    names : list of str
        Feature names in table order (the indices' meaning).
    usage : dict
        Learner name -> {feature: literal count} (:func:`explain.rule_stats.feature_usage`).
    known : ndarray of bool, shape (n_rows, n_features), optional
        Which cells of the rows have a value. LIME explains a missing value as imputed
        (:mod:`explain.lime_input`); such a selection is not kept in the filtered rows,
        so it is counted apart (default: every cell known).

    Returns
    -------
    list of dict
        One entry per feature: ``feature``, ``selected`` (rows where it was selected and
        has a value), ``rate`` (fraction of rows), ``toward_positive`` (fraction of those
        selections whose weight pushes toward class 1), ``selected_missing`` (rows where
        it was selected but has no value), and per learner the literals that test it.
        Ties keep table order.
    """
    features = np.asarray(features, dtype=np.int64)
    weights = np.asarray(weights, dtype=np.float64)
    n_rows = features.shape[0]
    rows = []
    for j, name in enumerate(names):
        chosen = features == j
        hits = chosen if known is None else chosen & known[:, [j]]
        selected = int(hits.any(axis=1).sum())
        positive = int((hits & (weights > 0)).sum())
        entry = {
            "feature": str(name),
            "selected": selected,
            "rate": selected / n_rows if n_rows else 0.0,
            "toward_positive": positive / int(hits.sum()) if hits.any() else None,
            "selected_missing": int((chosen & ~hits).any(axis=1).sum()),
        }
        for learner, counts in usage.items():
            entry[learner] = int(counts.get(str(name), 0))
        rows.append(entry)
    order = sorted(range(len(rows)), key=lambda i: (-rows[i]["selected"], i))
    return [rows[i] for i in order]


def _tests(usage: dict[str, dict[str, int]], name: str) -> int:
    """How many literals of the IMLI and FOLD rule sets test feature ``name``."""
    return sum(usage.get(learner, {}).get(name, 0) for learner in ("imli", "fold"))


def example_features(usage: dict[str, dict[str, int]], columns) -> list[str]:
    """The features the disagreement examples show: of those the rule sets test, the
    :data:`MAX_EXAMPLE_FEATURES` tested most often by both together (ties: table order)."""
    used = [str(c) for c in columns if _tests(usage, str(c))]
    return sorted(used, key=lambda n: -_tests(usage, n))[:MAX_EXAMPLE_FEATURES]


def shown_features(usage: dict[str, dict[str, int]], columns) -> list[str]:
    """The features the disagreement examples show (:func:`example_features`), in table order.

    report.json (its keys sorted) records this order in ``agreement.example_features`` for
    the renderers.

    Parameters
    ----------
    usage : dict of str to dict of str to int
        Per learner, its literals per feature (:func:`~explain.rule_stats.feature_usage`).
    columns : iterable
        The table's columns, in order.

    Returns
    -------
    list of str
        The chosen features, in the order of ``columns``.
    """
    chosen = set(example_features(usage, columns))
    return [str(c) for c in columns if str(c) in chosen]


def whole_number_columns(result: PipelineResult) -> list[str]:
    """The numeric columns whose every value (train and test rows) is a whole number of
    below :data:`~adapters.columns.EXPONENT_FORM` (1e16).

    These are the table's integer columns, which the reader made float like every numeric
    column. From 1e16 on a float is shown as read (``1e+308``, not the 309 digits of the
    float nearest 10**308), as :func:`~adapters.columns.number_label` shows a label.

    Parameters
    ----------
    result : PipelineResult
        A finished run.

    Returns
    -------
    list of str
        The columns, in table order.
    """
    views = result.views["fold"]
    numeric = pd.concat([views["train_raw"], views["test"]]).select_dtypes("number")
    whole = numeric.isna() | ((numeric % 1 == 0) & (numeric.abs() < EXPONENT_FORM))
    return [c for c in numeric.columns if whole[c].all()]


def table_row(result: PipelineResult, i: int, whole: list[str] | None = None) -> pd.DataFrame:
    """Test row ``i`` (a position) as the user's table has it.

    Parameters
    ----------
    result : PipelineResult
        A finished run.
    i : int
        The row's position among the test rows.
    whole : list of str, optional
        Columns whose cells are shown as Python ints (``3`` where the reader made
        ``3.0``); by default :func:`whole_number_columns`.

    Returns
    -------
    DataFrame
        The one row, in FOLD's view of the full test rows.
    """
    row = result.views["fold"]["test"].iloc[[i]].copy()
    for c in whole_number_columns(result) if whole is None else whole:
        row[c] = pd.Series([v if pd.isna(v) else int(v) for v in row[c]], index=row.index,
                           dtype=object)
    return row


def disagreement_examples(result: PipelineResult, usage: dict[str, dict[str, int]],
                          limit: int = MAX_EXAMPLES) -> list[dict]:
    """The first ``limit`` test rows on which IMLI and FOLD predict different classes.

    Each example names the row (its index in the input table), the class given by the
    black box, each surrogate and the ground truth, the row's values of the features
    the rule sets test (at most :data:`MAX_EXAMPLE_FEATURES`: those the two rule sets
    test most often, shown in table order), and under ``reasons`` why each surrogate gives
    its class (:func:`row_reasons`).

    Parameters
    ----------
    result : PipelineResult
        A finished run with both surrogates.
    usage : dict of str to dict of str to int
        Per learner, its literals per feature (:func:`~explain.rule_stats.feature_usage`).
    limit : int, default=5
        Most examples (:data:`MAX_EXAMPLES`).

    Returns
    -------
    list of dict
        One per row: ``row``, ``black_box``, ``imli``, ``fold``, ``truth``, ``values`` and
        ``reasons``.
    """
    names = result.report["dataset"]["class_names"]
    imli, fold = result.predictions["imli"]["test"], result.predictions["fold"]["test"]
    raw = result.views["fold"]["test"]
    chosen = set(example_features(usage, raw.columns))
    shown = [c for c in raw.columns if str(c) in chosen]
    bb, truth = result.labels["bb_test"], result.labels["y_test"]
    whole = whole_number_columns(result)
    examples = []
    for i in np.flatnonzero(imli != fold)[:limit]:
        row = table_row(result, i, whole)
        examples.append({
            "row": json_value(raw.index[i]),
            "black_box": names[int(bb[i])],
            "imli": names[int(imli[i])],
            "fold": names[int(fold[i])],
            "truth": names[int(truth[i])],
            "values": {str(c): json_value(row.iloc[0][c]) for c in shown},
            "reasons": row_reasons(result, i, row),
        })
    return examples


def row_reasons(result: PipelineResult, i: int,
                values: pd.DataFrame | None = None) -> dict[str, dict]:
    """Why IMLI and FOLD give test row ``i`` (a position) their classes.

    Parameters
    ----------
    result : PipelineResult
        A finished run with both surrogates.
    i : int
        The row's position among the test rows.
    values : DataFrame, optional
        The row's values in the table, shown beside each literal; by default
        :func:`table_row` (see :meth:`explain.learners.FittedLearner.explain`).

    Returns
    -------
    dict of str to dict
        Per learner, the reason on one line (``summary``) and in full (``text``).
    """
    values = table_row(result, i) if values is None else values
    reasons = {}
    with one_table():
        for name in ("imli", "fold"):
            why = result.learners[name].explain(result.views[name]["test"].iloc[[i]], values)
            reasons[name] = {"summary": why.summary, "text": why.text}
    return reasons


def add_details(result: PipelineResult) -> dict:
    """Extend ``result.report`` with the detail sections.

    Adds, per learner, ``rule_stats`` (list of :class:`~explain.rule_stats.RuleStat`
    dicts on the raw test rows) and ``features_used``; ``lime.feature_frequency`` when
    LIME ran; ``agreement.examples`` (with ``example_features``, the features they show,
    in table order, and ``features_tested``, how many features the rule sets test) when
    both surrogates were learned. Idempotent.

    Parameters
    ----------
    result : PipelineResult
        A finished run; its report is changed in place.

    Returns
    -------
    dict
        The report.
    """
    report = result.report
    bb_test = result.labels["bb_test"]
    usage = {}
    for name, learner in result.learners.items():
        entry = report["learners"][name]
        stats = rule_stats(learner, result.views[name]["test"], bb_test)
        entry["rule_stats"] = [s.to_dict() for s in stats]
        usage[name] = feature_usage(learner)
        entry["features_used"] = usage[name]
    exp = result.explanations_train
    if exp is not None:
        names = [str(c) for c in result.views["fold"]["test"].columns]
        # a negation of the one-hot view ("city is not b") counts for its column
        features = np.asarray(exp.features, dtype=np.int64)
        negated = features >= len(names)
        if negated.any():
            features = features.copy()
            features[negated] = exp.negations[features[negated] - len(names), 0]
        known = result.views["fold"]["train_raw"].notna().to_numpy()
        report["lime"]["feature_frequency"] = lime_feature_frequency(
            features, exp.weights, names, usage, known
        )
    if "agreement" in report and {"imli", "fold"} <= set(result.learners):
        report["agreement"]["examples"] = disagreement_examples(result, usage)
        report["agreement"]["example_features"] = shown_features(
            usage, result.views["fold"]["test"].columns)
        report["agreement"]["features_tested"] = sum(
            1 for c in result.views["fold"]["test"].columns if _tests(usage, str(c)))
    return report
