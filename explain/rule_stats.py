"""How each learned rule does on the test rows: its coverage and its precision vs the black box.

Every number here comes from the rule objects' own evaluation (``fired``, ``covers``,
``body_covers``, ``decide``) on the learner's view of the rows; no rule is ever rebuilt from
its text. One :class:`RuleStat` describes one part of a rule set: the rows it *decides*
(``covered``) and the class it decides them toward (``predicts``); its precision is the
fraction of those rows on which the black box gives that class.

What a part decides, by kind:

``rule`` (IMLI CNF/DNF as a whole, its parts listed after it)
    the rows it holds on, toward the positive class;
``clause`` (a CNF clause)
    the rows on which it *fails*: the CNF is then false, so they go to the negative class;
``term`` (a DNF term)
    the rows it holds on, toward the positive class;
``list rule`` / ``set rule`` (IMLI decision list / set)
    the rows it decides first (list) or fires on (set), toward its label;
``fold rule``
    the rows it fires on (body true, no exception) that its class wins, toward its class
    (a row two rules of a class fire on counts for both);
``exception``
    the rows on which its parent's body holds and it holds that its class then loses (to
    a later class or the default): it took them away from the parent's class (toward
    "not <class>"); an exception to an exception: the rows it gives back that the class
    wins;
``default``
    the rows no rule claims, toward the default class.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, replace

import numpy as np

from explain.metrics import agreement_interval
from imli import CNF, DNF, DecisionList, DecisionSet
from imli.predicates import readable

__all__ = ["RuleStat", "imli_rule_stats", "fold_rule_stats", "rule_stats", "feature_usage"]


@dataclass(frozen=True)
class RuleStat:
    """One part of a rule set and how it does on the evaluation rows.

    Parameters
    ----------
    text : str
        The part as a person reads it.
    kind : str
        ``rule``, ``clause``, ``term``, ``list rule``, ``set rule``, ``fold rule``,
        ``exception`` or ``default`` (see the module's docstring).
    depth : int
        Nesting: 0 for top-level parts, 1 for an exception, 2 for its exception...
    predicts : str
        The class the covered rows are decided toward (for an exception, the other class).
    covered : int
        Rows the part decides.
    coverage : float
        ``covered`` over all evaluation rows.
    precision : float or None
        Fraction of the covered rows on which the black box gives ``predicts``; ``None``
        when the part covers no row.
    precision_ci : list of two floats or None, default=None
        Its 95% Wilson interval (:func:`explain.metrics.agreement_interval`): a part that
        decides a few rows has a wide one.
    """

    text: str
    kind: str
    depth: int
    predicts: str
    covered: int
    coverage: float
    precision: float | None
    precision_ci: list | None = None

    def to_dict(self) -> dict:
        """The stat as JSON-ready values.

        Returns
        -------
        dict
            Each field by name.
        """
        return asdict(self)


def _stat(text, kind, depth, predicts, covered: np.ndarray, target: np.ndarray) -> RuleStat:
    """Build a stat from the covered mask and the mask of rows the black box agrees on."""
    covered = np.asarray(covered, dtype=bool)
    n = int(covered.sum())
    total = covered.shape[0]
    agreeing = int(np.sum(target[covered]))
    return RuleStat(str(text), kind, depth, str(predicts), n, n / total if total else 0.0,
                    agreeing / n if n else None, agreement_interval(agreeing, n))


def _class_name(label, class_names) -> str:
    """A learner label (0/1 in the pipeline) as its class name."""
    if isinstance(label, (int, np.integer)) and 0 <= int(label) < len(class_names):
        return str(class_names[int(label)])
    return str(label)


def imli_rule_stats(rules, X, bb, class_names) -> list[RuleStat]:
    """Per-part stats of an IMLI rule on the binary view ``X``.

    Parameters
    ----------
    rules : CNF, DNF, DecisionList or DecisionSet
        ``IMLIClassifier.rules_``, learned on 0/1 labels (1 = ``class_names[1]``).
    X : DataFrame or ndarray
        The binary view of the evaluation rows (the columns used in ``fit``, same order).
    bb : ndarray of {0, 1}
        The black box's labels of those rows.
    class_names : (str, str)
        Names of labels 0 and 1.

    Returns
    -------
    list of RuleStat
        A CNF or DNF: the whole rule, then each clause or term; a decision list or set:
        each rule, then its default.

    Raises
    ------
    TypeError
        If ``rules`` is none of these four kinds.
    """
    bb = np.asarray(bb)
    negative, positive = str(class_names[0]), str(class_names[1])
    shown = readable(positive)  # as the rules' text shows it: 'no if a > 5' if ...
    if isinstance(rules, (CNF, DNF)):
        fired = rules.fired(X)
        holds = rules.covers(X)
        n = len(rules.clauses)
        if isinstance(rules, CNF):
            whole = (f"{shown} IF all {n} clauses below hold" if n > 1
                     else f"{shown} IF the clause below holds" if n
                     else f"{shown} always (no clause)")
        else:
            whole = (f"{shown} IF any of the {n} terms below holds" if n > 1
                     else f"{shown} IF the term below holds" if n
                     else f"{shown} never (no term)")
        stats = [_stat(whole, "rule", 0, positive, holds, bb == 1)]
        for j, clause in enumerate(rules.clauses):
            if isinstance(rules, CNF):
                stats.append(_stat(clause, "clause", 1, negative, ~fired[:, j], bb == 0))
            else:
                stats.append(_stat(clause, "term", 1, positive, fired[:, j], bb == 1))
        return stats
    if isinstance(rules, DecisionList):
        decisive = rules.decisive(X)
        covered = [decisive == i for i in range(len(rules.rules) + 1)]
        kind = "list rule"
    elif isinstance(rules, DecisionSet):
        fired = rules.fired(X)
        covered = [fired[:, i] for i in range(len(rules.rules))]
        covered.append(~fired.any(axis=1) if fired.shape[1] else np.ones(len(bb), bool))
        kind = "set rule"
    else:
        raise TypeError(f"unknown IMLI rule type {type(rules).__name__}")
    stats = []
    for rule, mask in zip(rules.rules, covered):
        label = _class_name(rule.label, class_names)
        text = replace(rule, label=label)  # IF ... THEN the class's name, not its code
        stats.append(_stat(text, kind, 0, label, mask, _bb_is(bb, rule.label, class_names)))
    label = _class_name(rules.default, class_names)
    stats.append(_stat(f"{readable(label)} otherwise", "default", 0, label, covered[-1],
                       _bb_is(bb, rules.default, class_names)))
    return stats


def _bb_is(bb: np.ndarray, label, class_names) -> np.ndarray:
    """Rows on which the black box's 0/1 label names the same class as ``label``."""
    names = np.asarray([str(c) for c in class_names], dtype=object)[bb.astype(np.int64)]
    return names == _class_name(label, class_names)


def fold_rule_stats(theory, X, bb, class_names) -> list[RuleStat]:
    """Per-rule stats of a FOLD theory on the table ``X`` (exceptions nested under rules).

    Parameters
    ----------
    theory : fold.Theory
        ``FOLDClassifier.rules_``, learned on class names.
    X : DataFrame
        The evaluation rows as FOLD reads them (raw values, NaN unknown).
    bb : ndarray of {0, 1}
        The black box's labels of those rows.
    class_names : (str, str)
        Names of labels 0 and 1.

    Returns
    -------
    list of RuleStat
        Each rule followed by its exceptions (depth first), class by class, then the
        default.
    """
    bb_names = np.asarray([str(c) for c in class_names], dtype=object)[
        np.asarray(bb, dtype=np.int64)
    ]
    decision = theory.decide(X)
    stats: list[RuleStat] = []
    for k, class_rules in enumerate(theory.classes):
        label = str(class_rules.label)
        # the class an exception decides its rows toward (the theory is binary)
        other = next(str(c) for c in class_names if str(c) != label)
        outcome = {True: decision == k, False: decision > k}  # the class wins / loses
        for rule in class_rules.rules:
            everywhere = np.ones(len(decision), dtype=bool)
            # a part that gives rows to the class counts those its top-level rule fires on
            won = {True: outcome[True] & rule.covers(X), False: outcome[False]}
            _fold_rule(rule, X, everywhere, won, (label, other), True, 0, bb_names, stats)
    default = str(theory.default)
    stats.append(_stat(f"{readable(default)} otherwise", "default", 0, default,
                       decision == len(theory.classes), bb_names == default))
    return stats


def _fold_rule(rule, X, scope, outcome, labels, toward, depth, bb_names, stats) -> None:
    """Append the stat of ``rule`` and, recursively, of its exceptions.

    ``labels`` is the rule's class and the other class. ``scope`` holds the rows on which
    every enclosing body holds (all rows for a top-level rule). ``toward`` is True when
    the rule's rows go to its class (a default rule, an exception to an exception...),
    False when they are taken away from it, toward the other (an exception);
    a part counts only the rows that end that way (``outcome[toward]``: the class wins by
    this top-level rule, or loses to a later class or the default), not those another
    rule of the class, a sibling exception or an earlier class decides.
    """
    label, other = labels
    body = " and ".join(str(lit) for lit in rule.literals) or "true"
    # a top-level rule's outcome already holds only the rows it covers
    covered = outcome[toward] if depth == 0 else scope & rule.covers(X) & outcome[toward]
    if depth == 0:
        text, kind = f"{readable(label)} if {body}", "fold rule"
    else:
        text, kind = f"unless {body}", "exception"
    predicts = label if toward else other
    target = bb_names == label if toward else bb_names != label
    stats.append(_stat(text, kind, depth, predicts, covered, target))
    inside = scope & rule.body_covers(X)
    for exception in rule.printed_exceptions:  # in the order the rule prints them
        _fold_rule(exception, X, inside, outcome, labels, not toward, depth + 1, bb_names,
                   stats)


def rule_stats(learner, X, bb) -> list[RuleStat]:
    """Per-part stats of a fitted pipeline learner on its own view ``X`` of the rows.

    Parameters
    ----------
    learner : explain.learners.FittedLearner
        A fitted IMLI or FOLD learner.
    X : DataFrame
        ``PipelineResult.views[learner.name]["test"]`` (or another view of the same kind).
    bb : ndarray of {0, 1}
        The black box's labels of those rows.

    Returns
    -------
    list of RuleStat
        As :func:`imli_rule_stats` or :func:`fold_rule_stats` gives them.
    """
    rules = learner.estimator.rules_
    if learner.name == "fold":
        return fold_rule_stats(rules, X, bb, learner.class_names)
    return imli_rule_stats(rules, X, bb, learner.class_names)


def _fold_features(rule, counts: Counter) -> None:
    for literal in rule.literals:
        counts[literal.feature] += 1
    for exception in rule.exceptions:
        _fold_features(exception, counts)


def feature_usage(learner) -> dict[str, int]:
    """How many literals of the learner's rules test each original feature.

    Parameters
    ----------
    learner : explain.learners.FittedLearner
        A fitted IMLI or FOLD learner.

    Returns
    -------
    dict
        Feature name -> number of literals, features in first-use order.
    """
    rules = learner.estimator.rules_
    counts: Counter = Counter()
    if learner.name == "fold":
        for rule in rules.rules:
            _fold_features(rule, counts)
    else:
        for literal in rules.literals:
            feature = literal.predicate.feature if literal.predicate is not None else literal.name
            counts[feature] += 1
    return dict(counts)
