"""The two surrogate learners behind one small interface the pipeline and reports use.

The pipeline hands each learner its own view of the transformed data (binary for IMLI, a
table for FOLD) and the black box's 0/1 labels; what comes back is a :class:`FittedLearner`
that predicts 0/1 labels on the same kind of view and knows its size and printed form.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from numbers import Integral
from typing import Any

import numpy as np
import pandas as pd

from adapters import InputError
from adapters.columns import composed
from explain.transform import BinaryColumn, column_name
from fold import FOLDClassifier, Negated
from imli import IMLIClassifier, Predicate
from imli.literals import LiteralSpace
from imli.predicates import readable

__all__ = ["LEARNERS", "FittedLearner", "Reason", "check_feature_names", "check_params",
           "fit_learner", "plain_value", "IMLI_DEFAULTS", "FOLD_DEFAULTS"]

LEARNERS = ("imli", "fold")

#: The pipeline's IMLI defaults. DNF, because a LIME-filtered row knows only its top
#: features: a conjunctive term learned on such rows stays true to the black box on full
#: rows, while a CNF clause (a disjunction) learned there fires on almost every full row.
#: A time limit makes a hard instance return its best rule, flagged, instead of running on.
IMLI_DEFAULTS = {"n_clauses": 3, "rule_type": "DNF", "data_fidelity": 10.0, "time_limit": 30.0}

#: The pipeline's FOLD defaults. The labels are the black box's, a function of the features
#: with no label noise, so a small region where the model decides otherwise is its real
#: behaviour, not noise to smooth over: rules need only cover 0.1 % of the rows explained
#: (the estimator's 0.5 % suits noisy ground truth), and description length (``mdl_weight``)
#: still decides which rules are worth their literals.
FOLD_DEFAULTS = {"min_support": 0.001}


@dataclass(frozen=True)
class Reason:
    """Why a surrogate labels one row as it does.

    Parameters
    ----------
    label : {0, 1}
        The label it gives the row (that of :meth:`FittedLearner.predict`).
    summary : str
        The reason on one line: the clause, term or rule that decides, with the row's
        values (``imli.Explanation.summary``, ``fold.Explanation.summary``).
    text : str
        The reason in full, as the learner's ``explain`` words it.
    """

    label: int
    summary: str
    text: str


@dataclass
class FittedLearner:
    """A fitted surrogate, with what the reports need to know about it.

    Parameters
    ----------
    name : {"imli", "fold"}
        Which learner.
    estimator : IMLIClassifier or FOLDClassifier
        The fitted estimator.
    class_names : tuple of str
        Label 0's and label 1's names.
    fit_seconds : float
        Wall time of the fit.
    extra : dict, default={}
        What the report records besides: ``params`` (every parameter the estimator ran
        with), IMLI's ``optimal``, ``timed_out`` and settings, FOLD's ``params_given`` on
        a stacked view.
    """

    name: str
    estimator: Any
    class_names: tuple[str, str]
    fit_seconds: float
    extra: dict = field(default_factory=dict)

    def predict(self, X) -> np.ndarray:
        """0/1 labels of the rows of ``X`` (the learner's own view).

        Parameters
        ----------
        X : DataFrame
            Rows in the learner's view (binary for IMLI, the table for FOLD).

        Returns
        -------
        ndarray of int64 of shape (n_rows,)
            1 where the learner gives ``class_names[1]``.
        """
        if self.name == "fold":
            names = np.asarray(self.estimator.predict(X), dtype=object)
            return (names == self.class_names[1]).astype(np.int64)
        return np.asarray(self.estimator.predict(X), dtype=np.int64)

    def explain(self, X, values=None) -> Reason:
        """Why the learner labels the one row of ``X`` (its own view) as it does.

        Parameters
        ----------
        X : DataFrame with one row
            The row in the learner's view (binary for IMLI, the table for FOLD).
        values : DataFrame with one row, optional
            The same row's values in the table (FOLD's view of it), which IMLI shows
            beside the literals of its binary columns (by default, each column's 0 or 1);
            FOLD's view holds them. A :class:`fold.Negated` cell of a LIME-filtered row
            (its one-hot explanation says the category is none of these) reaches IMLI as
            the frozenset of those categories, which IMLI reads as its ``c != v``
            columns do.

        Returns
        -------
        Reason
            Its label, and its words naming the classes by their names.
        """
        if self.name == "fold":
            why = self.estimator.explain(X)
            return Reason(int(why.label == self.class_names[1]), why.summary, why.text)
        # IMLI learned the labels 0 and 1: its words name them as the classes
        why = self.estimator.explain(X, values=_imli_values(values),
                                     class_names=self.class_names)
        return Reason(int(why.label), why.summary, why.text)

    @property
    def rule_size(self) -> int:
        """Number of literals."""
        return int(self.estimator.rule_size_)

    @property
    def n_rules(self) -> int:
        """Number of rules: CNF clauses / DNF terms / list entries; FOLD clauses."""
        if self.name == "fold":
            return int(self.estimator.n_rules_)
        rules = self.estimator.rules_
        return len(getattr(rules, "clauses", None) or getattr(rules, "rules", ()))

    @property
    def rules_text(self) -> str:
        """The learned rules as a person reads them."""
        if self.name == "fold":
            return str(self.estimator.rules_)
        rules = self.estimator.rules_
        if hasattr(rules, "clauses"):
            negative, positive = (readable(c) for c in self.class_names)
            return f"{positive} IF\n  {rules}\nELSE {negative}"
        # a decision list or set, learned on 0/1: its labels as the class names
        return str(rules.relabel(self.class_names))

    @property
    def artifact_text(self) -> str:
        """The rule file's text: imli.txt, or fold.pl (a program plain swipl loads)."""
        if self.name == "fold":
            return self.estimator.program_
        return self.rules_text + "\n"


def _imli_values(values: pd.DataFrame | None) -> pd.DataFrame | None:
    """A row of FOLD's view as IMLI's ``explain`` reads values: each :class:`fold.Negated`
    cell as the frozenset of the categories it negates (imli knows nothing of fold)."""
    if values is None:
        return None
    return values.map(lambda cell: frozenset(cell.values) if isinstance(cell, Negated)
                      else cell)


#: Largest FOLD ``mdl_weight`` a run takes (the command line's bound too).
MAX_MDL_WEIGHT = 1e9


def check_params(name: str, params: dict) -> None:
    """Refuse ``params`` for learner ``name`` as its ``fit`` would, before a run's slow stages.

    Parameters
    ----------
    name : {"imli", "fold"}
        The learner.
    params : dict
        Estimator parameters given to the run.

    Raises
    ------
    adapters.InputError
        For a name the estimator does not take, or a FOLD ``mdl_weight`` above
        :data:`MAX_MDL_WEIGHT`.
    ValueError
        For a value it does not take.
    """
    estimator = IMLIClassifier if name == "imli" else FOLDClassifier
    known = sorted(estimator().get_params())
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise InputError(f"{estimator.__name__} has no parameter(s) {unknown}; it takes "
                         f"{known}")
    defaults = IMLI_DEFAULTS if name == "imli" else FOLD_DEFAULTS
    estimator(**{**defaults, **params})._check_params()
    weight = params.get("mdl_weight") if name == "fold" else None
    if weight is not None and weight > MAX_MDL_WEIGHT:
        raise InputError(f"FOLD's mdl_weight must be at most {MAX_MDL_WEIGHT:g}, got "
                         f"{weight!r}: a stacked training view multiplies it by its copies "
                         f"of each row")


def check_feature_names(params: dict, columns: list[BinaryColumn]) -> None:
    """Refuse IMLI feature names that name nothing of the binary view, before slow stages.

    Parameters
    ----------
    params : dict
        IMLI parameters: their ``include_features`` and ``exclude_features`` must each
        name a feature or a column of ``columns`` (the message is IMLI ``fit``'s).
    columns : list of BinaryColumn
        The binary view's columns.

    Raises
    ------
    adapters.InputError
        For the first unknown name.
    """
    names = [*(params.get("include_features") or ()), *(params.get("exclude_features") or ())]
    if not names:
        return
    space = LiteralSpace(tuple(c.name for c in columns), _specs(columns))
    try:
        space.literals_of(names)
    except ValueError as err:
        raise InputError(str(err)) from None


def _specs(columns: list[BinaryColumn]) -> tuple[Predicate, ...]:
    """IMLI's column specs of the binary view's ``columns``, a category in Unicode's
    composed form (NFC), as FOLD writes it: the table keeps a text in one form as given."""
    return tuple(Predicate(c.feature, c.relation,
                           composed(c.value) if isinstance(c.value, str) else c.value)
                 for c in columns)


def _params_for_view(params: dict, columns: list[BinaryColumn]) -> dict:
    """IMLI ``params`` for the binary view ``columns`` of one run.

    With one-hot LIME a column ``c != v`` exists only when some training row's explanation
    negates ``v``, so a name :func:`check_feature_names` accepts may name no column of this
    run: in ``exclude_features`` it excludes nothing and is left out (the parameters the
    report lists are those the fit ran with); in ``include_features`` no rule could test
    it, and it is refused.

    Raises
    ------
    adapters.InputError
        For an included negation absent from ``columns``.
    """
    absent = {column_name(c.feature, "!=", c.value) for c in columns if c.relation == "=="}
    absent -= {c.name for c in columns} | {c.feature for c in columns}
    included = [f for f in params.get("include_features") or () if f in absent]
    if included:
        raise InputError(f"include_features names {included[0]!r}, a negated category the "
                         f"explanations of no training row state in this run: no rule can "
                         f"test it")
    excluded = params.get("exclude_features")
    if not excluded or not absent.intersection(excluded):
        return params
    return {**params, "exclude_features": [f for f in excluded if f not in absent]}


def _fit_imli(X: pd.DataFrame, y, params, random_state, columns: list[BinaryColumn]):
    params = _params_for_view(params, columns)
    estimator = IMLIClassifier(**{**IMLI_DEFAULTS, "random_state": random_state, **params})
    estimator.fit(X, y, column_specs=list(_specs(columns)))
    extra = {
        "optimal": bool(estimator.optimal_),
        "timed_out": bool(estimator.timed_out_),
        "rule_type": estimator.rule_type,
        "n_clauses": int(estimator.n_clauses),
        "data_fidelity": float(estimator.data_fidelity),
    }
    return estimator, extra


def _fit_fold(X: pd.DataFrame, y, params, random_state, class_names, distinct_rows):
    # Rules for the positive class, the negative class as the default (as LIME-FOLD does).
    names = np.asarray(class_names, dtype=object)[np.asarray(y, dtype=np.int64)]
    settings = {"class_order": [class_names[1], class_names[0]], "random_state": random_state}
    estimator = FOLDClassifier(**{**FOLD_DEFAULTS, **settings, **params})
    estimator._check_params()  # a bad value is refused as given, not after rescaling
    extra = {}
    if distinct_rows is not None and len(X) != distinct_rows:
        # A stacked view holds each row explained more than once (filtered and full). Support
        # and description length count rows explained, not their copies: a fractional support
        # is a share of the rows, and as errors are counted on every copy, the program's bits
        # weigh as many times more.
        copies = len(X) / distinct_rows
        support, weight = estimator.min_support, estimator.mdl_weight
        estimator.set_params(
            min_support=(support if isinstance(support, Integral)
                         else max(1, math.ceil(support * distinct_rows))),
            mdl_weight=None if weight is None else weight * copies)
        # ``params`` holds what FOLD ran with; these are the values given for one copy
        extra = {"params_given": {"min_support": plain_value(support),
                                  "mdl_weight": plain_value(weight)}}
    estimator.fit(X, names)
    return estimator, extra


def fit_learner(name, X, y, params, random_state, columns, class_names,
                distinct_rows=None) -> FittedLearner:
    """Fit learner ``name`` on its view ``X`` of the training rows and 0/1 labels ``y``.

    Parameters
    ----------
    name : {"imli", "fold"}
        The learner.
    X : DataFrame
        The binary view (IMLI) or the table view (FOLD).
    y : ndarray of {0, 1}
        The black box's labels.
    params : dict
        Extra estimator parameters (override the pipeline's defaults).
    random_state : int
        The estimator's ``random_state``.
    columns : list of BinaryColumn
        The binary view's columns (IMLI's column specs).
    class_names : (str, str)
        Names of labels 0 and 1.
    distinct_rows : int, optional
        How many training rows ``X`` stands for when it stacks copies of them (the
        ``lime+raw`` view). FOLD then counts on these: a fractional ``min_support`` is a share
        of them, and ``mdl_weight`` is multiplied by the copies per row, so that stacking does
        not make errors cheaper than the program's bits (the effective values are reported).

    Returns
    -------
    FittedLearner
        The fitted estimator, its fit time and what the report records of it.
    """
    class_names = (str(class_names[0]), str(class_names[1]))
    started = time.perf_counter()
    if name == "imli":
        estimator, extra = _fit_imli(X, y, params, random_state, columns)
    else:
        estimator, extra = _fit_fold(X, y, params, random_state, class_names, distinct_rows)
    seconds = time.perf_counter() - started
    # Every parameter the estimator ran with, defaults included, so the run can be redone.
    extra["params"] = {k: plain_value(v) for k, v in sorted(estimator.get_params().items())}
    return FittedLearner(name, estimator, class_names, seconds, extra)


def plain_value(value):
    """A parameter value as JSON can hold it.

    Parameters
    ----------
    value : object
        An estimator parameter's value.

    Returns
    -------
    None, bool, int, float, str or list
        ``value`` itself, a list of such values for a list or tuple, a numpy scalar's
        Python value, else ``repr(value)``.
    """
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [plain_value(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return repr(value)
